"""The ``starcom`` command: browser and terminal play, demo games, self-play, benchmarks,
replays, scenarios and the arena. Without a command it starts the browser game (``serve``)."""
from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from ..sc.agents import agent_names, make_agent
from ..errors import ReplayError
from ..sc.engine.game import Game
from ..sc.engine.setup import check_config
from ..sc.engine.state import Config
from .helptext import address_option, backend_option, reflow, workers_option
from .play import ai_choices


class Commands(TyperGroup):
    """The ``starcom`` group. No command means ``serve``, and options given before any command
    are serve's, so ``starcom --no-browser`` and ``scripts/start.sh --port 9000`` start the
    browser game as they read."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in (self, *self.commands.values()):
            command.help = reflow(command.help)

    # ctx: Any, because its class is click's or typer's own copy of it, by typer version.
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        own = {opt for param in self.get_params(ctx) for opt in (*param.opts, *param.secondary_opts)}
        # Routed here rather than by invoking serve from the callback: that would parse
        # sys.argv again instead of these arguments.
        if not args or (args[0].startswith("-") and args[0] not in own):
            args = ["serve", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(cls=Commands, add_completion=False, pretty_exceptions_enable=False,
                  context_settings={"help_option_names": ["-h", "--help"]})

# Line styles of the readable log, by how the line starts or what it says.
_STYLES = (("Turn ", "bold cyan"), ("Game over", "bold green"), ("Combat at", "bold red"),
           ("The game begins", "bold"))


def _style(line: str) -> str:
    for prefix, style in _STYLES:
        if line.startswith(prefix):
            return style
    if "destroyed" in line or "conquers" in line or "eliminated" in line:
        return "red"
    return ""


def _print_line(console: Console, line: str) -> None:
    style = _style(line)
    indent = "" if style.startswith("bold") else "  "
    console.print(Text(indent + line, style=style), soft_wrap=True)


# --------------------------------------------------------------------------- option checks


def _parse_agents(spec: str, players: int, known: Optional[list[str]] = None) -> list[str]:
    """``a,b,...``: one name for every seat, or exactly one per seat; BadParameter otherwise.
    ``known``: the game's agent names (default: Star Commander's)."""
    names = [s.strip().lower() for s in spec.split(",") if s.strip()]
    known = known if known is not None else agent_names()
    if not names:
        raise typer.BadParameter("give at least one agent name", param_hint="--agents")
    for n in names:
        if n not in known:
            raise typer.BadParameter(f"unknown agent {n!r}; known agents: {', '.join(known)}",
                                     param_hint="--agents")
    if len(names) not in (1, players):
        raise typer.BadParameter(
            f"{len(names)} agents for {players} players: give one agent for every seat or exactly {players}",
            param_hint="--agents")
    return names


def _check_setup(players: int, size: int, edition: str, turn_limit: Optional[int]) -> None:
    """The engine's own check of the settings, reported as a bad option."""
    try:
        check_config(Config(players=players, size=size, edition=edition, turn_limit=turn_limit))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def _limit(turn_limit: int) -> Optional[int]:
    return None if turn_limit == 0 else turn_limit


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


# --------------------------------------------------------------------------- demo game


def _standings(game: Game, agents: list[str]) -> Table:
    from ..sc.engine import rules as R
    table = Table(title="Final position" if game.over else "Position")
    for col in ("player", "agent", "alive", "developments", "credits", "hand", "vessels"):
        table.add_column(col, justify="left" if col in ("player", "agent") else "right")
    for p in range(game.cfg.players):
        vessels = sum(1 for v in game.vessels.values() if v.owner == p)
        table.add_row(f"P{p}", agents[p], "yes" if game.alive[p] else "no", str(R.total_devs(game, p)),
                      str(game.credits[p]), str(len(game.hands[p])), str(vessels))
    return table


def play_demo(seed: int, players: int, size: int, edition: str, agents: list[str], turn_limit: Optional[int],
              verbose: bool, console: Console) -> Game:
    """Play one seeded game between the agents and print its log as it goes."""
    from ..sim.play import Step, play
    from ..sc.text import Narrator
    names = agents * players if len(agents) == 1 else agents
    game = Game.new(players, size, edition, seed, turn_limit)
    bots = [make_agent(n) for n in names]
    rngs = [random.Random(f"demo:{seed}:{s}") for s in range(players)]
    limit = f", turn limit {turn_limit}" if turn_limit else ""
    console.print(Text(f"Star Commander — {players} players on a {size}x{size} board, {edition} edition, "
                       f"seed {seed}{limit}", style="bold"), soft_wrap=True)
    console.print(Text(", ".join(f"P{p}: {n}" for p, n in enumerate(names))), soft_wrap=True)
    narrator = Narrator(game, verbose=verbose, reveal_all=True)
    for line in narrator.setup_lines(game):
        _print_line(console, line)

    def show(step: Step) -> None:
        for line in narrator.step_lines(game, step.action, step.events, step.before):
            _print_line(console, line)

    play(game, bots, rngs, on_step=show, keep_before=verbose)
    console.print(_standings(game, names))
    return game


@app.callback(epilog="""Examples:
  starcom                          # play in the browser (the same as starcom serve)
  starcom --port 9000 --no-browser # options before any command go to serve
  starcom play                     # play in the terminal against the AI
  starcom demo --seed 7            # watch an AI-vs-AI game as a log
  starcom replay game.json         # read a saved game
  starcom COMMAND --help           # what a command does and all its options""")
def main() -> None:
    """Star Commander: play, study and build on the card game.

    Without a command, starcom starts the browser game (`starcom serve`) and opens it in your
    browser; options given before any command are serve's options. The other commands play in
    the terminal, watch and study AI games, replay saved games, run rule scenarios and measure
    the engine and the server.
    """


def _ai_help(what: str) -> str:
    """Help text for an option naming AIs, listing what it may name."""
    return f"{what} Each is an AI: {ai_choices()}."


@app.command(epilog="""Examples:
  starcom demo                          # greedy against greedy on a 3x3 board
  starcom demo --seed 7 --agents easy,hard --turn-limit 60
  starcom demo --players 4 --size 5 -v  # a bigger game, with every phase and pass""")
def demo(
    seed: int = typer.Option(1, help="Seed of the demo game (setup and agents): the same seed plays the same game."),
    players: int = typer.Option(2, help="Number of players, 2 to 4."),
    size: int = typer.Option(3, help="Board size N (an N x N grid), 3 to 5 recommended."),
    edition: str = typer.Option("standard", help="Rules edition: standard or classic."),
    agents: str = typer.Option("greedy", help=_ai_help("Who plays: one AI for every seat, or one per seat "
                                                       "in seat order, comma-separated (e.g. easy,hard).")),
    turn_limit: int = typer.Option(60, help="End the game after this many turns (0: no limit); at the limit "
                                            "the score rule decides."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show phases, passes and other detail."),
) -> None:
    """Watch a seeded AI-vs-AI game, printed as a readable log.

    Plays one game between the chosen AIs, prints every move as a sentence as it is made and
    ends with a table of the final position. Every card is shown (nobody's view is hidden).
    """
    _check_setup(players, size, edition, _limit(turn_limit))
    names = _parse_agents(agents, players)
    play_demo(seed, players, size, edition, names, _limit(turn_limit), verbose, Console())


# --------------------------------------------------------------------------- selfplay


@app.command(epilog="""Examples:
  starcom selfplay                                  # 10 games of random play on 3x3
  starcom selfplay -n 50 --players 3 --size 4 --turn-limit 80
  starcom selfplay -n 20 --agents easy,hard --json  # who wins, as JSON
  starcom selfplay -n 5 --save-dir games            # keep each game (read with starcom replay)
  starcom selfplay -n 200 --workers 2               # two games at a time, the same totals
  starcom selfplay --game ge -n 1000 --edition quick # Galactic Empires, invariants checked""")
def selfplay(
    games: int = typer.Option(10, "--games", "-n", help="Number of games."),
    players: int = typer.Option(2, help="Number of players, 2 to 4 (Galactic Empires: 2)."),
    size: int = typer.Option(3, help="Board size N (an N x N grid; Star Commander only)."),
    edition: Optional[str] = typer.Option(None, help="Rules edition: standard or classic (Star Commander), full "
                                                     "or quick (Galactic Empires); default: the game's first."),
    game: str = typer.Option("starcom", "--game", help="The game: starcom (Star Commander) or ge (Galactic Empires)."),
    seed: int = typer.Option(0, help="Seed of the first game; game i uses seed+i."),
    agents: str = typer.Option("random", help=_ai_help("Who plays: one AI for every seat, or one per seat, "
                                                       "comma-separated (the seats rotate from game to game).")),
    turn_limit: int = typer.Option(60, help="Turn limit of each game (0: no limit)."),
    json_out: bool = typer.Option(False, "--json", help="End with one line of JSON with the totals (the "
                                                        "table then goes to stderr)."),
    save_dir: Optional[Path] = typer.Option(None, help="Save every game as JSON in this directory "
                                                       "(game-0000.json, ...; read Star Commander's with "
                                                       "starcom replay; the browser lobby opens any game's)."),
    workers: int = workers_option(),
    backend: str = backend_option(),
    address: Optional[str] = address_option(),
) -> None:
    """Play many AI games, checking the engine's rules invariants after every action.

    Prints the totals: games finished, errors, invariant violations, wins per seat, draws,
    steps per second and the mean game length. The exit code is 1 if any game raised an
    error or broke an invariant, so this doubles as a stress test of the engine.
    """
    from ..games import get
    from ..sim.backends import BackendError, check_backend
    from ..sim.selfplay import run_selfplay
    if games < 1:
        raise typer.BadParameter(f"play at least one game, not {games}", param_hint="--games")
    try:
        entry = get(game)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--game") from None
    edition = edition or (entry.rules.editions[0] if entry.rules.editions else "standard")
    if entry.name == "starcom":
        _check_setup(players, size, edition, _limit(turn_limit))
    else:
        try:
            entry.rules.new(**{k: v for k, v in {"players": players, "edition": edition,
                                           "turn_limit": _limit(turn_limit)}.items() if k in entry.rules.settings})
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
    names = _parse_agents(agents, players, entry.ai.agent_names())
    try:
        check_backend(backend, workers, address)
    except BackendError as exc:
        raise typer.BadParameter(exc.problem, param_hint=exc.option) from None
    out, err = Console(), Console(stderr=True)
    progress = Progress(TextColumn("self-play"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=err, transient=True)
    with progress:
        task = progress.add_task("games", total=games)
        try:
            stats = run_selfplay(games, players, size, edition, seed, names, _limit(turn_limit), save_dir,
                                 on_game=lambda _: progress.advance(task), workers=workers, backend=backend,
                                 address=address, game=game)
        except BackendError as exc:  # Ray could not be started or joined after all
            raise typer.BadParameter(exc.problem, param_hint=exc.option) from None
    summary = stats.summary()
    board = f", {size}x{size}" if "size" in entry.rules.settings else ""
    table = Table(title=f"Self-play: {entry.title}, {players} players{board}, {edition}, agents {','.join(names)}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, val in summary.items():
        if key in ("wins", "endings"):
            val = ", ".join(f"{k} {v}" for k, v in val.items())
        table.add_row(key.replace("_", " "), str(val))
    (err if json_out else out).print(table)
    for msg in stats.problems:
        err.print(Text(msg, style="red"), soft_wrap=True)
    if save_dir is not None:
        err.print(f"games saved in {save_dir}")
    if json_out:
        typer.echo(json.dumps(summary))
    if stats.errors or stats.invariant_violations:
        raise typer.Exit(1)


# --------------------------------------------------------------------------- bench


@app.command(epilog="""Examples:
  starcom bench                   # random playouts, 3 seconds per setup
  starcom bench --steps 5000      # a fixed amount of work instead of a fixed time
  starcom bench --ai --json       # ISMCTS search speed, as JSON
  starcom bench --rl              # the PettingZoo environment against the raw engine (needs starcom[rl])
  starcom bench --game ge         # Galactic Empires' random playouts, each edition, against python-chess""")
def bench(
    seconds: float = typer.Option(3.0, help="Time for each configuration, in seconds."),
    steps: Optional[int] = typer.Option(None, help="Run exactly this many steps (with --ai: ISMCTS iterations "
                                                   "per decision) per configuration instead."),
    seed: int = typer.Option(0, help="Seed of the playouts."),
    ai: bool = typer.Option(False, "--ai", help="Measure ISMCTS iterations per second instead of random playouts."),
    rl: bool = typer.Option(False, "--rl", help="Measure the PettingZoo AEC environment's steps per second "
                                               "against the raw engine's, in the same run (needs starcom[rl])."),
    json_out: bool = typer.Option(False, "--json", help="End with one line of JSON with the figures."),
    game: str = typer.Option("starcom", "--game", help="The game whose random playouts to measure: starcom or ge."),
) -> None:
    """Measure the engine's speed: playout steps, or AI search iterations, per second.

    By default: random playouts (legal_actions + apply) for 2 players on 3x3 and 4 players on
    5x5 (standard edition, turn limit 60), how much dearer a 4-player step is, and, when
    python-chess is installed, its random playouts as an anchor in the same run. With --ai:
    the ISMCTS agent's search iterations per second on positions from greedy play.
    """
    from ..sim.bench import bench as run_bench, bench_search
    if seconds <= 0:
        raise typer.BadParameter("must be above 0", param_hint="--seconds")
    if steps is not None and steps < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--steps")
    console = Console(stderr=json_out)
    summary: dict[str, Any]
    if game != "starcom":
        from ..games import get
        from ..sim.bench import bench_game
        try:
            entry = get(game)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--game") from None
        with console.status(f"playing random games of {entry.title}…"):
            summary, by_edition, chess_m = bench_game(game, seconds, seed, steps)
        table = Table(title=f"Random playouts: {entry.title} (turn limit 60)")
        for col in ("setup", "steps", "games finished", "seconds", "steps/s"):
            table.add_column(col, justify="right")
        for label, m in by_edition:
            table.add_row(label, str(m.steps), str(m.games), f"{m.seconds:.2f}", f"{m.steps_per_second:,.0f}")
        if chess_m is not None:
            table.add_row("python-chess", str(chess_m.steps), str(chess_m.games), f"{chess_m.seconds:.2f}",
                          f"{chess_m.steps_per_second:,.0f}")
        console.print(table)
        for label, ratio in summary.get("vs_chess", {}).items():
            console.print(f"{entry.title} ({label}) runs {ratio:.2f}x as many steps per second as python-chess "
                          "in the same run")
        if chess_m is None:
            console.print("python-chess is not installed (pip install chess): no anchor figure")
    elif rl:
        try:
            from ..rl.bench import bench_rl
        except ImportError as exc:
            raise typer.BadParameter(f"the RL environments need the rl extra: pip install 'starcom[rl]' ({exc})",
                                     param_hint="--rl") from None
        with console.status("playing random games through the engine and the environment…"):
            measured = bench_rl(seconds, seed, steps)
        table = Table(title="PettingZoo AEC environment against the raw engine (random masked actions)")
        for col in ("setup", "engine steps/s", "AEC steps/s", "wrapper's cost per step"):
            table.add_column(col, justify="right")
        for rb in measured:
            table.add_row(f"{rb.players}p {rb.size}x{rb.size}", f"{rb.engine_per_second:,.0f}",
                          f"{rb.env_per_second:,.0f}", f"{rb.wrapper_cost:.2f}x an engine step")
        console.print(table)
        console.print("engine step: legal_actions + apply; AEC step: last() (observation and mask) + step(id)")
        summary = {"rl": [rb.to_json() for rb in measured]}
    elif ai:
        with console.status("searching…"):
            summary, searches = bench_search(seconds, seed, steps)
        table = Table(title="ISMCTS search (standard edition, positions from greedy play)")
        for col in ("setup", "decisions", "iterations", "seconds", "iterations/s"):
            table.add_column(col, justify="right")
        for s in searches:
            table.add_row(f"{s.players}p {s.size}x{s.size}", str(s.decisions), str(s.iterations),
                          f"{s.seconds:.2f}", f"{s.iterations_per_second:,.0f}")
        console.print(table)
    else:
        with console.status("playing random games…"):
            summary, runs, chess = run_bench(seconds, seed, steps)
        table = Table(title="Random playouts (standard edition, turn limit 60)")
        for col in ("setup", "steps", "games finished", "seconds", "steps/s"):
            table.add_column(col, justify="right")
        for m in runs:
            table.add_row(f"{m.players}p {m.size}x{m.size}", str(m.steps), str(m.games), f"{m.seconds:.2f}",
                          f"{m.steps_per_second:,.0f}")
        if chess is not None:
            table.add_row("python-chess", str(chess.steps), str(chess.games), f"{chess.seconds:.2f}",
                          f"{chess.steps_per_second:,.0f}")
        console.print(table)
        console.print(f"a 4p 5x5 step costs {summary['ratio']:.2f}x a 2p 3x3 step")
        if "vs_chess" in summary:
            console.print(f"2p 3x3 runs {summary['vs_chess']:.2f}x as many steps per second as python-chess "
                          "in the same run")
        else:
            console.print("python-chess is not installed (pip install chess): no anchor figure")
    if json_out:
        typer.echo(json.dumps(summary))


# --------------------------------------------------------------------------- replay


def _viewer(spec: Optional[str], players: int, over: bool) -> tuple[Optional[int], bool]:
    """``all`` (everything shown), ``spectator`` (public information), or a seat number; no
    ``spec``: everything for a finished game (its seed is public then), the spectator's view of
    an unfinished one."""
    s = (spec if spec is not None else "all" if over else "spectator").strip().lower()
    if s == "all":
        return None, True
    if s == "spectator":
        return None, False
    try:
        p = int(s.lstrip("p"))
    except ValueError:
        raise typer.BadParameter(f"{spec!r}: use a seat number (0..{players - 1}), 'spectator' or 'all'",
                                 param_hint="--viewer") from None
    if not 0 <= p < players:
        raise typer.BadParameter(f"seat {p} is not in this {players}-player game", param_hint="--viewer")
    return p, False


def _replay_other(file: Path, saved: Any, viewer: Optional[str], json_out: bool) -> None:
    """``starcom replay`` of another game's file: its narrator's log for the viewer (the seed
    only for ``all``, as for Star Commander)."""
    entry = saved.entry
    over = bool(saved.game.over)
    who, reveal_all = _viewer(viewer, int(saved.config.get("players", 2)), over)
    game = entry.rules.new(**saved.config)
    narrator = entry.words.narrator(game, who, reveal_all)
    steps = [{"step": 0, "lines": narrator.setup_lines(game)}]
    for i, (act, seat) in enumerate(zip(saved.actions, saved.movers), 1):
        text = entry.words.describe(game, act, who if not reveal_all else seat)
        events = entry.rules.play(game, act)
        steps.append({"step": i, "seat": seat, "action": text, "lines": narrator.step_lines(game, act, events)})
    settings = dict(saved.config) if reveal_all else {k: v for k, v in saved.config.items() if k != "seed"}
    result = {"over": over, "winner": entry.rules.winner(game), "steps": len(saved.actions)}
    if json_out:
        typer.echo(json.dumps({"file": str(file), "game": saved.name,
                               "viewer": "all" if reveal_all else "spectator" if who is None else who,
                               "config": settings, "agents": saved.agents, **result, "history": steps}))
        return
    console = Console()
    words = ", ".join(f"{k} {v}" for k, v in settings.items() if v is not None)
    console.print(Text(f"{file}: {entry.title}, {words}, {len(saved.actions)} actions", style="bold"), soft_wrap=True)
    if saved.agents:
        console.print(Text(", ".join(f"P{p}: {n}" for p, n in enumerate(saved.agents))))
    for step in steps:
        for line in step["lines"]:
            _print_line(console, line)
    if not over:
        console.print(Text("(the game was saved unfinished)", style="yellow"))


def _variant_words(variant: Any) -> str:
    """A study game's cards in a sentence: "A study game: Frigate is played as its stand-in by every seat but P0"."""
    where = "" if variant.catalogue_name == "built-in" else f" (catalogue {variant.catalogue_name})"
    if not variant.stand_ins:
        return f"A study game with the catalogue's own cards{where}"
    real = ", ".join(f"P{p}" for p in variant.real_for)
    return (f"A study game{where}: {', '.join(variant.stand_ins)} is played as its stand-in by every seat"
            + (f" but {real}" if real else ""))


def replay_steps(cfg: Config, actions: list[Any], who: Optional[int], reveal_all: bool,
                 verbose: bool = False, rules: Any = None) -> tuple[Game, list[dict[str, Any]]]:
    """Play a saved game's ``actions`` from its setup and describe each step as ``who`` (a seat,
    or None for a spectator) may know it, through the observer (:mod:`starcom.observer`):
    ``{"step", "by", "action", "text", "lines"}``, step 0 being the setup. ``reveal_all`` shows
    every card; ``rules``: the game's ruleset when it is not the standard one. Returns the
    final game and the steps."""
    from ..sc.engine.actions import to_json
    from ..sc.observer import STARCOM as OBSERVER
    from ..sc.text import Narrator, describe_action
    game = Game.from_config(cfg, rules)
    narrator = Narrator(game, who, verbose=verbose, reveal_all=reveal_all)
    steps: list[dict[str, Any]] = [{"step": 0, "by": None, "action": None, "text": None,
                                    "lines": narrator.setup_lines(game)}]
    for n, act in enumerate(actions, 1):
        by = game.to_move
        known = act if reveal_all else OBSERVER.action(game, act, who)
        text = describe_action(game, act, who, reveal_all)
        before = game.clone() if verbose else None
        events = game.apply(act, player=by)
        steps.append({"step": n, "by": by, "action": to_json(known), "text": text,
                      "lines": narrator.step_lines(game, act, events, before)})
    return game, steps


@app.command(epilog="""Examples:
  starcom selfplay -n 1 --save-dir games     # make a saved game to read
  starcom replay games/game-0000.json        # the whole game (it is finished: every card shown)
  starcom replay games/game-0000.json --viewer 1 -v   # as seat 1 saw it, with every pass
  starcom replay games/game-0000.json --json > game.json""")
def replay(
    file: Path = typer.Argument(..., help="A saved game (JSON, format starcom-game/1), e.g. from "
                                          "starcom selfplay --save-dir."),
    viewer: Optional[str] = typer.Option(None, help="Whose view: a seat number (0, 1, ...), 'spectator' or "
                                                    "'all'. Default: all for a finished game, the spectator's "
                                                    "view for an unfinished one (hands and decks stay hidden).",
                                         show_default=False),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show phases, passes and other detail."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON object instead of text: the settings, "
                                                        "the result and every step (who acted, the action, its "
                                                        "sentence and its log lines) as the viewer may know them."),
) -> None:
    """Read a saved game: its log as readable text, or as JSON with --json.

    The file is replayed from its setup and every action is checked against the rules, so a
    damaged or edited file is refused, naming the first bad step (exit code 2). A seat's or
    the spectator's view hides the cards they could not see, as the browser game does.
    """
    from ..sc.observer import STARCOM as OBSERVER
    from ..sc.records import load
    from ..sim.record import load_game_record
    try:
        saved = load_game_record(file)
        if saved.name != "starcom":
            _replay_other(file, saved, viewer, json_out)
            return
        cfg, actions, meta = load(file)
    except ReplayError as exc:
        _fail(str(exc))
        return
    who, reveal_all = _viewer(viewer, cfg.players, meta["game"].over)
    variant = meta["variant"]
    game, steps = replay_steps(cfg, actions, who, reveal_all, verbose, variant.rules() if variant else None)
    agents = meta.get("agents") or []
    # The seed gives every hand and deck away, so a player's or spectator's log of an unfinished
    # game leaves it out, as their view does (the observer's config).
    settings = asdict(cfg) if reveal_all else OBSERVER.config(game)
    if json_out:
        typer.echo(json.dumps({
            "file": str(file), "viewer": "all" if reveal_all else "spectator" if who is None else who,
            "config": settings, "agents": agents, "over": game.over,
            "winner": game.winner if game.over else None, "turns": game.turn + 1, "steps": len(actions),
            "variant": variant.to_json() if variant else None, "history": steps}))
        return
    console = Console()
    parts = [f"{cfg.players} players on {cfg.size}x{cfg.size}", f"{cfg.edition} edition"]
    if "seed" in settings:
        parts.append(f"seed {cfg.seed}")
    if cfg.turn_limit:
        parts.append(f"turn limit {cfg.turn_limit}")
    parts.append(f"{len(actions)} actions")
    console.print(Text(f"{file}: " + ", ".join(parts), style="bold"), soft_wrap=True)
    if agents:
        console.print(Text(", ".join(f"P{p}: {n}" for p, n in enumerate(agents))))
    if variant:
        console.print(Text(_variant_words(variant)))
    for step in steps:
        for line in step["lines"]:
            _print_line(console, line)
    if not game.over:
        console.print(Text(f"(the game was saved unfinished, at turn {game.turn + 1})", style="yellow"))
        if viewer is None:
            console.print(Text("(shown as a spectator sees it; --viewer all shows every card)", style="yellow"))


# --------------------------------------------------------------------------- scenario


@app.command(epilog="""Examples:
  starcom scenario tests/scenarios/*.yaml     # every scenario of the test suite
  starcom scenario my-ruling.yaml""")
def scenario(files: list[Path] = typer.Argument(..., help="Scenario files (YAML, see docs/scenarios.md); "
                                                          "one or more.")) -> None:
    """Run rule scenarios: set up a position, play actions, check the outcome.

    Each scenario file describes a position, the actions to play and what must hold
    afterwards (the format is in docs/scenarios.md). Prints a line per scenario and the totals;
    the exit code is 1 if any scenario failed or a file could not be read.
    """
    from ..sc.scenario import run_files
    raise typer.Exit(run_files([str(f) for f in files]))


from . import arena as _arena, bots as _bots, play as _play, serve as _serve, study as _study  # noqa: E402  (commands defined in their own modules)

_serve.register(app)
_play.register(app)
_arena.register(app)
_study.register(app)
_bots.register(app)

if __name__ == "__main__":  # pragma: no cover
    app()
