"""The ``starcom study`` commands: what each card is worth (``cards``) and what moved between two
studies (``diff``)."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..study.spec import DEFAULT_PRECISION
from .helptext import address_option, backend_option, game_entry, game_example, game_option, reflow, workers_option

study_app = typer.Typer(
    help="The balance lab: what each card is worth, with intervals (docs/study.md).\n\n"
         "Each card is measured against a vanilla stand-in on the same deals: the change in the win "
         "rate of the seat that holds it, with a 95% interval, a sequential stop per card, and a "
         "report you can open in a browser. Runs resume where they stopped.",
    epilog="Examples:\n  starcom study cards --only Frigate,Barrage --max-games 200 --out frigate-study\n"
           "  starcom study diff study-standard study-classic"
           + game_example("  starcom study cards --game {game} --list"),
    no_args_is_help=True)

BUDGET_MINUTES = 60  # past this estimate the study says so and suggests more machines


def _fail(message: str) -> typer.Exit:
    Console(stderr=True).print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(2)


@study_app.command("cards", epilog="""Examples:
  starcom study cards --only Frigate,Barrage --max-games 200 --out frigate-study
  starcom study cards --agents greedy,heuristic --workers 2
  starcom study cards --cards my-cards.toml --edition classic --out my-study"""
                   + game_example("  starcom study cards --game {game} --list")
                   + game_example("  starcom study cards --game {game}{edition} --max-games 100 --out {game}-study"))
def cards(
    game: Optional[str] = game_option(),
    cards_file: Optional[Path] = typer.Option(None, "--cards", help="A catalogue in the game's own format "
                                              "instead of its built-in one (for a game whose study reads one)."),
    only: Optional[str] = typer.Option(None, "--only", help="Study only these cards: names, comma-separated."),
    agents: str = typer.Option("greedy", "--agents", help="One agent for every seat, or one per seat "
                               "(rotated over the seats), comma-separated."),
    players: Optional[int] = typer.Option(None, "--players", help="Players (the game says how many it takes; "
                                          "default: its first)."),
    size: Optional[int] = typer.Option(None, "--size", help="Board size, for a game with one (default: the "
                                       "game's first)."),
    edition: Optional[str] = typer.Option(None, "--edition", help="Rules edition (default: the game's first)."),
    turn_limit: Optional[int] = typer.Option(None, "--turn-limit", help="Turn limit of every game (default: the "
                                             "game's study's own)."),
    max_games: int = typer.Option(400, "--max-games", help="At most this many games per card (both games "
                                  "of every pair counted)."),
    precision: float = typer.Option(DEFAULT_PRECISION, "--precision", help="Stop a card once its value's 95% "
                                    "interval is this narrow on either side (0: play every card to --max-games)."),
    seed: int = typer.Option(0, "--seed", help="The study's seed: the same seed gives the same results."),
    alpha: float = typer.Option(0.05, "--alpha", help="The chance of flagging any card when none matters."),
    workers: int = workers_option(all_processors=True),
    backend: str = backend_option(),
    address: Optional[str] = address_option(),
    out: Path = typer.Option(Path("study"), "--out", help="The results folder; running the same study "
                             "again there resumes it."),
    list_cards: bool = typer.Option(False, "--list", help="List the cards that can be studied and stop."),
) -> None:
    """What each card is worth: the change in a seat's win rate when it plays the real card
    instead of a stand-in, on the same deals, with a 95% interval. Each game chooses its
    stand-ins (vanilla cards, or blanks that cannot be played).

    Writes OUT/results.json, OUT/cards.csv and OUT/report.html. Stop it with Ctrl-C and run the
    same command again to go on where it stopped.
    """
    from ..study.report import write
    from ..study.runner import max_pairs, run_study
    from ..study.spec import StudyError, StudySpec
    given = {"players": players, "size": size, "edition": edition, "turn_limit": turn_limit}  # left out: the game's
    try:
        spec = StudySpec.checked(
            game=game_entry(game).name, cards_file=str(cards_file) if cards_file else None,
            only=tuple(n.strip() for n in only.split(",") if n.strip()) if only else (),
            agents=tuple(a.strip().lower() for a in agents.split(",") if a.strip()),
            max_games=max_games, precision=precision or None, seed=seed, alpha=alpha, workers=workers,
            backend=backend, address=address,
            out=str(out), **{k: v for k, v in given.items() if v is not None})
    except StudyError as exc:
        raise _fail(str(exc)) from None
    console = Console()
    if list_cards:
        for name in spec.cards:
            console.print(name)
        return
    most = max_pairs(spec) * len(spec.cards)
    title = spec.entry.title
    console.print(f"Studying {len(spec.cards)} card(s) of {title} in {out}: at most {2 * most} games "
                  f"({spec.max_games} per card), agents {', '.join(spec.agents)}, {spec.edition}, "
                  f"turn limit {spec.turn_limit}.")
    warned = False
    started = time.perf_counter()
    first: list[int] = []  # pairs already done (from the log) when this run began
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("left"), TimeRemainingColumn(), console=console) as bar:
        task = bar.add_task("pairs of games", total=most)

        def on_pair(done: int, upper: int) -> None:
            nonlocal warned
            bar.update(task, completed=done, total=upper)
            if not first:
                first.append(done - 1)
            played = done - first[0]
            # once every worker has finished a few pairs, the pace is known: say so if it is long
            if not warned and played >= 4 * spec.workers:
                warned = True
                estimate = (time.perf_counter() - started) / played * (upper - done) / 60
                if estimate > BUDGET_MINUTES:
                    bar.console.print(f"[yellow]At this pace the study may take up to {estimate:.0f} more minutes "
                                      f"on {spec.workers} worker(s), less as cards stop early. More workers "
                                      "(--workers), fewer games (--max-games), a coarser --precision or more "
                                      "machines (--backend ray, docs/cluster.md) make it shorter.[/]")

        try:
            outcome = run_study(spec, on_pair)
        except StudyError as exc:
            raise _fail(str(exc)) from None
        except KeyboardInterrupt:
            console.print(f"\nStopped. Every finished pair is kept in {out}; run the same command to go on.")
            raise typer.Exit(130) from None
    data = write(outcome)
    _show(console, data)
    console.print(f"Report: {out / 'report.html'}  ·  {out / 'results.json'}  ·  {out / 'cards.csv'}")
    _show_summary(console, data)


_VERDICT_STYLE = {"dead": "bold magenta", "weak": "bold blue", "strong": "bold red"}


def _rate(x: float | None) -> str:
    return "—" if x is None else f"{x:.0%}"


def _show(console: Console, data: dict[str, Any]) -> None:
    table = Table(title=f"Card values ({data['games']} games)")
    for col in ("card", "value", "95% interval", "verdict", "play rate", "games", "stop"):
        table.add_column(col, justify="left" if col in ("card", "stop", "verdict") else "right")
    for c in data["cards"]:
        style = "bold red" if c["flagged"] else None
        verdict = c.get("verdict", "")
        shown = f"[{_VERDICT_STYLE[verdict]}]{verdict}[/]" if verdict in _VERDICT_STYLE else verdict
        table.add_row(escape(c["card"]), f"{c['value']:+.3f}", f"{c['ci_low']:+.3f} … {c['ci_high']:+.3f}", shown,
                      f"{_rate(c.get('play_rate'))} vs {_rate(c.get('play_rate_control'))}", str(c["games"]),
                      c["stop"], style=style)
    console.print(table)
    seats = ", ".join(f"seat {s['seat']} {s['win_rate']:.1%}" for s in data["seat_advantage"]["seats"]
                      if s["win_rate"] is not None)
    console.print(f"Seat win rates (control games): {seats}. Turn limit reached in "
                  f"{data['game_length']['turn_limit_share']:.1%} of games.")


def _show_summary(console: Console, data: dict[str, Any]) -> None:
    """The one-screen summary (as at the top of report.html): the cards to look at first."""
    from ..study.report import summary
    rows, more = summary(data)
    if not rows:
        console.print("Look at these first: none. No card is dead, weak or strong (every value's interval "
                      "contains zero, and no card is played markedly less often than its stand-in).")
        return
    table = Table(title="Look at these first", caption="play rate: when it could, with the card vs with its "
                  "stand-in" + (f"; {more} more in the report" if more else ""))
    cols = ("card", "verdict", "value", "play rate", "suggested cost")
    for col in cols:
        table.add_column(col, justify="left" if col in ("card", "verdict") else "right")
    for r in rows:
        table.add_row(*(escape(r[c]) for c in cols), style=_VERDICT_STYLE.get(r["verdict"]))
    console.print(table)


def _load_results(path: Path) -> dict[str, Any]:
    file = path / "results.json" if path.is_dir() else path
    try:
        data: dict[str, Any] = json.loads(file.read_text("utf-8"))
        data["cards"]  # noqa: B018  (a results file has them)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise _fail(f"{file}: not the results of a study ({exc})") from None
    return data


@study_app.command("diff", epilog="""Examples:
  starcom study diff study-standard study-classic
  starcom study diff old/results.json new/results.json""")
def diff(a: Path = typer.Argument(..., help="A study's folder or results.json."),
         b: Path = typer.Argument(..., help="Another study's folder or results.json.")) -> None:
    """What moved between two studies (two catalogues, editions or agent pairings): each card's
    value in both, the change, whether the two intervals no longer overlap, and its verdict in
    both (strong, weak, dead or even; "—" for results written before verdicts).
    """
    da, db = _load_results(a), _load_results(b)
    va = {c["card"]: c for c in da["cards"]}
    vb = {c["card"]: c for c in db["cards"]}
    rows = []
    for name in sorted(set(va) | set(vb)):
        ca, cb = va.get(name), vb.get(name)
        change = cb["value"] - ca["value"] if ca and cb else None
        moved = bool(ca and cb and (cb["ci_low"] > ca["ci_high"] or cb["ci_high"] < ca["ci_low"]))
        rows.append((name, ca, cb, change, moved))
    rows.sort(key=lambda r: -abs(r[3]) if r[3] is not None else 0)
    table = Table(title=f"{a} → {b}")
    for col in ("card", "value A", "value B", "change", "moved", "verdict"):
        table.add_column(col, justify="left" if col in ("card", "verdict") else "right")
    for name, ca, cb, change, moved in rows:
        va_, vb_ = (c.get("verdict", "—") if c else "—" for c in (ca, cb))
        turned = bool(ca and cb and va_ != vb_)
        verdict = f"{va_} → {vb_}" if turned else vb_ if cb else va_
        table.add_row(escape(name), f"{ca['value']:+.3f}" if ca else "—", f"{cb['value']:+.3f}" if cb else "—",
                      f"{change:+.3f}" if change is not None else "only in one", "yes" if moved else "",
                      verdict, style="bold" if moved or turned else None)
    Console().print(table)


@study_app.command("validate", epilog="""Examples:
  starcom study validate --runs 20 --max-games 200 --workers 2 --out validate
  starcom study validate --part aa --runs 5 --agents random --max-games 40
  starcom study validate --part tune --tune-runs 10 --workers 2 --out validate-tune
  starcom study validate --game ge --part planted --workers 2 --out validate-ge""")
def validate_cmd(
    game: Optional[str] = game_option("The game whose study is checked"),
    part: str = typer.Option("all", "--part", help="Which checks, in order: aa, planted, sweep, tune "
                      "(comma-separated), or all (every check the game has)."),
    runs: int = typer.Option(20, "--runs", help="Studies per check (A/A and planted)."),
    tune_runs: int = typer.Option(10, "--tune-runs", help="Tunes of the tune check (each a price moved by 2)."),
    panel: Optional[str] = typer.Option(None, "--panel", help="The cards every run studies, comma-separated "
                                        "(default: the game's own panel, cards its greedy AI plays often)."),
    agents: str = typer.Option("greedy", "--agents", help="One agent for every seat, or one per seat."),
    max_games: int = typer.Option(200, "--max-games", help="At most this many games per card and run."),
    precision: float = typer.Option(DEFAULT_PRECISION, "--precision", help="Stop a card once its value's 95% "
                                    "interval is this narrow on either side (0: play to --max-games)."),
    seed: int = typer.Option(0, "--seed", help="The first run's seed (run k uses seed + k)."),
    workers: int = workers_option(),
    backend: str = backend_option(),
    address: Optional[str] = address_option(),
    out: Path = typer.Option(Path("validate"), "--out", help="The folder of the runs and validate.json; "
                             "running again there resumes."),
) -> None:
    """Check the study itself: A/A runs (nothing treated, every game an independent one, so
    every true value is zero, and every card should be called even), planted imbalances (one
    card changed markedly must rank first or last, and be called strong, or weak or dead), the
    smallest change still detected, how many games the paired sequential design saves, and a
    tune check (a price moved by 2 must be found again within 1). Figures go to
    OUT/validate.json; docs/study.md reports them.
    """
    from ..study.spec import StudyError
    from ..study.validate import PARTS, ValidationSpec, parts_of, validate
    entry = game_entry(game)
    parts = () if part == "all" else tuple(p.strip() for p in part.split(","))
    if part != "all" and (not parts or any(p not in PARTS for p in parts)):
        raise _fail(f"--part {part!r}: use {', '.join(PARTS)} (comma-separated, run in that order) or all")
    for option, n in (("--runs", runs), ("--tune-runs", tune_runs)):
        if n < 1:
            raise _fail(f"{option} must be at least 1, not {n}")
    console = Console()
    try:
        spec = ValidationSpec(game=entry.name, runs=runs,
                              panel=tuple(n.strip() for n in panel.split(",") if n.strip()) if panel else (),
                              agents=tuple(a.strip().lower() for a in agents.split(",") if a.strip()),
                              max_games=max_games, precision=precision, seed=seed, workers=workers,
                              backend=backend, address=address, out=str(out), tune_runs=tune_runs)
        data = validate(spec, parts or parts_of(spec), lambda text: console.print(f"[dim]{escape(text)}[/]"))
    except StudyError as exc:
        raise _fail(str(exc)) from None
    except KeyboardInterrupt:
        console.print(f"\nStopped. Finished games are kept in {out}; run the same command to go on.")
        raise typer.Exit(130) from None
    if "aa" in data:
        aa = data["aa"]
        even = aa.get("called_even")
        console.print(f"A/A: {aa['coverage']:.1%} of {aa['card_values']} intervals cover zero"
                      + (f", {even:.1%} of the cards called even" if even is not None else "")
                      + f"; {aa['runs_with_a_false_alarm']} of {aa['runs']} runs raised a false alarm.")
    if "planted" in data:
        pl = data["planted"]
        ratio = pl["median_games_ratio"]
        console.print(f"Planted: ranked right in {pl['ranked_right']} of {len(pl['runs'])} runs, right sign in "
                      f"{pl['sign_right']}; games needed by the paired (sequential) design / by a fixed "
                      f"unpaired test: {'—' if ratio is None else f'{ratio:.2f}'} (median).")
        if "weaker_found" in pl:
            console.print(f"Found: {pl['stronger_found']} of {pl['stronger_runs']} strengthened cards called strong, "
                          f"{pl['weaker_found']} of {pl['weaker_runs']} weakened cards called weak or dead.")
    if "sweep" in data:
        sw = data["sweep"]
        found = sw["smallest_detected"]
        console.print(f"Smallest change still detected ({sw['card']}, {sw['change']}): "
                      + (f"x{found}" if found is not None else "none of those tried"))
    if "tune" in data:
        tu = data["tune"]
        console.print(f"Tune: the moved price found again within {tu['tolerance']:g} in {tu['found']} of "
                      f"{len(tu['runs'])} tunes.")
    console.print(f"Figures: {out / 'validate.json'}")


@study_app.command("tune", epilog="""Examples:
  starcom study tune Frigate --field cost --out frigate-cost
  starcom study tune Frigate --field attack --values 2,3,4,5 --max-games 200
  starcom study tune "Trade World" --field max_dev --range 1:5 --workers 2"""
                   + game_example("  starcom study tune CARD --game {game} --field FIELD"))
def tune(
    card: str = typer.Argument(..., help="The card to tune (its name as the catalogue spells it)."),
    field: Optional[str] = typer.Option(None, "--field", help="Which of the card's numbers to vary (left "
                                        "out: the card's numbers are listed)."),
    values: Optional[str] = typer.Option(None, "--values", help="The values to try, comma-separated "
                                         "whole numbers."),
    span: Optional[str] = typer.Option(None, "--range", help="The values to try as LO:HI or LO:HI:STEP, both "
                                       "ends included (default: the card's own value and 2 either side)."),
    game: Optional[str] = game_option(),
    cards_file: Optional[Path] = typer.Option(None, "--cards", help="A catalogue in the game's own format to "
                                              "start from instead of its built-in one."),
    agents: str = typer.Option("greedy", "--agents", help="One agent for every seat, or one per seat "
                               "(rotated over the seats), comma-separated."),
    players: Optional[int] = typer.Option(None, "--players", help="Players (default: the game's first count)."),
    size: Optional[int] = typer.Option(None, "--size", help="Board size, for a game with one."),
    edition: Optional[str] = typer.Option(None, "--edition", help="Rules edition (default: the game's first)."),
    turn_limit: Optional[int] = typer.Option(None, "--turn-limit", help="Turn limit of every game (default: "
                                             "the game's study's own)."),
    max_games: int = typer.Option(400, "--max-games", help="At most this many games per value tried."),
    precision: float = typer.Option(0.0, "--precision", help="Stop a value once its 95% interval is this narrow "
                                    "on either side (default 0: every value plays to --max-games, for the fit's "
                                    "slope needs every point as sharp as the games allow)."),
    seed: int = typer.Option(0, "--seed", help="The seed of every study of the tune (so they share deals)."),
    alpha: float = typer.Option(0.05, "--alpha", help="Each study's chance of stopping early on a value "
                                "that is in fact zero."),
    workers: int = workers_option(),
    backend: str = backend_option(),
    address: Optional[str] = address_option(),
    out: Path = typer.Option(Path("tune"), "--out", help="The tune's folder (a study per value in it); "
                             "running the same tune again there resumes it."),
) -> None:
    """Find the number a card is fair at: its value (as `study cards` measures it) at several
    settings of one of its numbers (cost, attack, ...), a line fitted through them, and where
    the line crosses zero, the setting at which the card is worth its stand-in, with a 95%
    interval.

    Writes OUT/tune.json, OUT/tune.png and OUT/tune.svg, and a study per value in OUT/FIELD-VALUE.
    Stop it with Ctrl-C and run the same command again to go on where it stopped.
    """
    from ..study.runner import max_pairs
    from ..study.spec import StudyError, StudySpec
    from ..study.tune import plan, run_tune, write as write_tune
    given = {"players": players, "size": size, "edition": edition, "turn_limit": turn_limit}
    try:
        base = StudySpec.checked(
            game=game_entry(game).name, cards_file=str(cards_file) if cards_file else None,
            agents=tuple(a.strip().lower() for a in agents.split(",") if a.strip()),
            max_games=max_games, precision=precision or None, seed=seed, alpha=alpha, workers=workers,
            backend=backend, address=address,
            out=str(out), **{k: v for k, v in given.items() if v is not None})
        tp = plan(base, card, field, values, span)
    except StudyError as exc:
        raise _fail(str(exc)) from None
    console = Console()
    console.print(f"Tuning {tp.card}'s {tp.field} (now {tp.current}) of {base.entry.title} in {out}: values "
                  f"{', '.join(map(str, tp.values))}, at most {base.max_games} games each, agents "
                  f"{', '.join(base.agents)}, turn limit {base.turn_limit}, seed {base.seed}.")
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("left"), TimeRemainingColumn(), console=console) as bar:
        task = bar.add_task("pairs of games", total=max_pairs(base) * len(tp.studies))
        try:
            outcome = run_tune(tp, lambda done, upper: bar.update(task, completed=done, total=upper),
                               lambda value, spec: bar.update(task, description=f"{tp.field} {value}"))
        except StudyError as exc:
            raise _fail(str(exc)) from None
        except KeyboardInterrupt:
            console.print(f"\nStopped. Every finished pair is kept in {out}; run the same command to go on.")
            raise typer.Exit(130) from None
    data = write_tune(outcome)
    table = Table(title=f"{tp.card}: value by {tp.field}")
    for col in (tp.field, "value", "95% interval", "games", "stop"):
        table.add_column(col, justify="left" if col == "stop" else "right")
    for q in data["points"]:
        table.add_row(str(q["field_value"]) + (" (now)" if q["field_value"] == tp.current else ""),
                      f"{q['value']:+.3f}", f"{q['ci_low']:+.3f} … {q['ci_high']:+.3f}", str(q["games"]), q["stop"])
    console.print(table)
    fit = data["fit"]
    console.print(f"Line: value = {fit['intercept']:+.4f} {fit['slope']:+.4f} × {tp.field} "
                  f"(chi² {fit['chi2']:.2f} on {fit['dof']} degrees of freedom).")
    console.print(f"[bold]{escape(data['verdict'])}[/]")
    console.print(f"Results: {out / 'tune.json'}  ·  {out / 'tune.png'}  ·  {out / 'tune.svg'}")


def register(app: typer.Typer) -> None:
    # The help screens wrap each paragraph to the terminal, as the other commands' do.
    for command in study_app.registered_commands:
        if command.callback is not None:
            command.help = reflow(command.callback.__doc__)
    app.add_typer(study_app, name="study")
