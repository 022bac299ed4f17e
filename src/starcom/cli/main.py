"""The ``starcom`` command: browser and terminal play, demo games, self-play, benchmarks,
replays, scenarios and the arena, for every installed game (``--game``; each reached through
its registry entry). Without a command it starts the browser game (``serve``)."""
from __future__ import annotations

import json
import random
from pathlib import Path
from collections.abc import Mapping
from typing import Any, NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from ..errors import ReplayError
from ..games import GameEntry, Narrator
from .helptext import (address_option, backend_option, fit_examples, game_choices, game_entry, game_example,
                       game_option, reflow, workers_option)
from .play import ai_choices, first_edition, first_size, new_game


class Commands(TyperGroup):
    """The ``starcom`` group. No command means ``serve``, and options given before any command
    are serve's, so ``starcom --no-browser`` and ``scripts/start.sh --port 9000`` start the
    browser game as they read."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in (self, *self.commands.values()):
            command.help = reflow(command.help)
        _fit_epilogs(self)

    # ctx: Any, because its class is click's or typer's own copy of it, by typer version.
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        own = {opt for param in self.get_params(ctx) for opt in (*param.opts, *param.secondary_opts)}
        # Routed here rather than by invoking serve from the callback: that would parse
        # sys.argv again instead of these arguments.
        if not args or (args[0].startswith("-") and args[0] not in own):
            args = ["serve", *args]
        return super().parse_args(ctx, args)


def _fit_epilogs(command: Any) -> None:
    """Every example of ``command`` and of the commands under it made to fit 80 columns, its
    square brackets kept from Rich's markup (``starcom[rl]`` is a pip extra, not a style)."""
    fitted = fit_examples(command.epilog)
    command.epilog = escape(fitted) if fitted else fitted
    for sub in getattr(command, "commands", {}).values():
        _fit_epilogs(sub)


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


def _parse_agents(spec: str, players: int, known: list[str]) -> list[str]:
    """``a,b,...``: one name for every seat, or exactly one per seat, each one of ``known`` (the
    game's agent names); BadParameter otherwise."""
    names = [s.strip().lower() for s in spec.split(",") if s.strip()]
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


def _limit(turn_limit: int) -> Optional[int]:
    return None if turn_limit == 0 else turn_limit


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


# --------------------------------------------------------------------------- a game's words


def setup_words(entry: GameEntry[Any, Any], config: Mapping[str, Any]) -> list[str]:
    """The settings ``config`` in words for a log's heading (the entry's ``setup_words``): a
    phrase, then notes a line each. The seed and the turn limit are left to the caller."""
    if entry.words.setup_words is not None:
        return entry.words.setup_words(config)
    return [", ".join(f"{k.replace('_', ' ')} {v}" for k, v in config.items()
                      if k not in ("seed", "turn_limit") and v is not None)]


def _heading(entry: GameEntry[Any, Any], config: Mapping[str, Any]) -> tuple[str, list[str]]:
    """The title and settings phrase of a log's first line, and the notes after it."""
    phrase, *notes = setup_words(entry, config) or [""]
    return ", ".join(p for p in (entry.title, phrase) if p), notes


def _result(entry: GameEntry[Any, Any], game: Any, seat: int) -> str:
    winner = entry.rules.winner(game)
    return "playing" if winner is None else "draw" if winner == -1 else "wins" if winner == seat else "loses"


def _standings(entry: GameEntry[Any, Any], game: Any, agents: list[str]) -> Table:
    """Each seat's standing (the entry's ``standings``; without: its result)."""
    table = Table(title="Final position" if game.over else "Position")
    rows = (entry.words.standings(game) if entry.words.standings is not None
            else [{"result": _result(entry, game, p)} for p in range(game.players)])
    columns = list(rows[0]) if rows else []
    for col in ("player", "agent", *columns):
        table.add_column(col, justify="left" if col in ("player", "agent") else "right")
    for p, row in enumerate(rows):
        table.add_row(f"P{p}", agents[p], *(row.get(col, "") for col in columns))
    return table


def _narrator(entry: GameEntry[Any, Any], game: Any, viewer: Optional[int], reveal_all: bool,
              verbose: bool) -> Narrator:
    """The game's narrator for ``viewer``; with ``verbose`` the detailed one, where it has one."""
    make = entry.words.detailed_narrator if verbose and entry.words.detailed_narrator is not None \
        else entry.words.narrator
    return make(game, viewer, reveal_all)


# --------------------------------------------------------------------------- demo game


def play_demo(entry: GameEntry[Any, Any], settings: Mapping[str, Any], seed: int, agents: list[str], verbose: bool,
              console: Console) -> Any:
    """Play one game of ``entry`` made with ``settings`` (those it takes) between the agents,
    whose choices ``seed`` seeds, and print its log as it goes. Returns the finished game."""
    from ..sim.play import Step, play
    game = entry.rules.new(**settings)
    players = game.players
    names = agents * players if len(agents) == 1 else agents
    bots = [entry.ai.make_agent(n) for n in names]
    rngs = [random.Random(f"demo:{seed}:{s}") for s in range(players)]
    limit = f", turn limit {settings['turn_limit']}" if settings.get("turn_limit") else ""
    phrase, *notes = setup_words(entry, settings) or [""]
    console.print(Text(f"{entry.title} — {phrase + ', ' if phrase else ''}seed {seed}{limit}", style="bold"),
                  soft_wrap=True)
    for note in notes:
        console.print(Text(note), soft_wrap=True)
    console.print(Text(", ".join(f"P{p}: {n}" for p, n in enumerate(names))), soft_wrap=True)
    narrator = _narrator(entry, game, None, True, verbose)
    for line in narrator.setup_lines(game):
        _print_line(console, line)

    def show(step: Step) -> None:
        for line in narrator.step_lines(game, step.action, step.events, step.before):
            _print_line(console, line)

    play(game, bots, rngs, on_step=show, keep_before=verbose)
    console.print(_standings(entry, game, names))
    return game


@app.callback(epilog="""Examples:
  starcom                          # play in the browser (= starcom serve)
  starcom --port 9000 --no-browser # options before any command go to serve
  starcom play                     # play in the terminal against the AI
  starcom demo --seed 7            # watch an AI-vs-AI game as a log
  starcom replay game.json         # read a saved game
  starcom COMMAND --help           # what a command does and all its options""")
def main(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=lambda shown: _version(shown),
                                 help="Print starcom's version and which build of the rules runs (compiled or "
                                      "pure Python), then stop."),
) -> None:
    """starcom: play, study and build on card games.

    Without a command, starcom starts the browser game (`starcom serve`) and opens it in your
    browser; options given before any command are serve's options. The other commands play in
    the terminal, watch and study AI games, replay saved games, run rule scenarios and measure
    the engines and the server, for every installed game (--game).
    """


def _version(shown: bool) -> None:
    """``starcom --version``: the version, which build of the rules runs, and the Python."""
    if shown:
        import sys
        from .. import __version__
        from ..build import describe
        typer.echo(f"starcom {__version__}, rules {describe()}, Python {sys.version.split()[0]}")
        raise typer.Exit()


def _ai_help(what: str) -> str:
    """Help text for an option naming AIs, listing what it may name."""
    return f"{what} Each is an AI of the game ({ai_choices()})."


@app.command(epilog="""Examples:
  starcom demo                          # greedy against greedy
  starcom demo --seed 7 --agents easy,hard --turn-limit 60
  starcom demo --players 4 --size 5 -v  # a bigger game, with every phase and pass"""
             + game_example("  starcom demo --game {game}{edition}     # {title}"))
def demo(
    seed: int = typer.Option(1, help="Seed of the demo game (setup and agents): the same seed plays the same game."),
    players: int = typer.Option(2, help="Number of players (the game says how many it takes)."),
    size: Optional[int] = typer.Option(None, help="Board size N (an N x N grid), for a game with a board "
                                               "size (default: the game's first)."),
    edition: Optional[str] = typer.Option(None, help="Rules edition (default: the game's first)."),
    game: Optional[str] = game_option(),
    agents: str = typer.Option("greedy", help=_ai_help("Who plays: one AI for every seat, or one per seat "
                                                       "in seat order, comma-separated (e.g. easy,hard).")),
    turn_limit: int = typer.Option(60, help="End the game after this many turns (0: no limit); at the limit "
                                            "the game's own rule decides."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show phases, passes and other detail."),
) -> None:
    """Watch a seeded AI-vs-AI game, printed as a readable log.

    Plays one game between the chosen AIs, prints every move as a sentence as it is made and
    ends with a table of the final position. Every card is shown (nobody's view is hidden).
    """
    entry = game_entry(game)
    given = {"players": players, "size": first_size(entry, size), "edition": first_edition(entry, edition), "seed": seed,
             "turn_limit": _limit(turn_limit)}
    settings = {k: v for k, v in given.items() if k in entry.rules.settings and v is not None}
    players = new_game(entry, **settings).players  # refuses a bad setting before any agent is made
    names = _parse_agents(agents, players, entry.ai.agent_names())
    play_demo(entry, settings, seed, names, verbose, Console())


# --------------------------------------------------------------------------- selfplay


@app.command(epilog="""Examples:
  starcom selfplay                                  # 10 games of random play on 3x3
  starcom selfplay -n 50 --players 3 --size 4 --turn-limit 80
  starcom selfplay -n 20 --agents easy,hard --json  # who wins, as JSON
  starcom selfplay -n 5 --save-dir games            # keep each game (read with starcom replay)
  starcom selfplay -n 200 --workers 2               # two games at a time, the same totals"""
             + game_example("  starcom selfplay --game {game} -n 1000{edition} # {title}, invariants checked"))
def selfplay(
    games: int = typer.Option(10, "--games", "-n", help="Number of games."),
    players: int = typer.Option(2, help="Number of players (the game says how many it takes)."),
    size: Optional[int] = typer.Option(None, help="Board size N (an N x N grid), for a game with a board "
                                               "size (default: the game's first)."),
    edition: Optional[str] = typer.Option(None, help="Rules edition (default: the game's first)."),
    game: Optional[str] = game_option(),
    seed: int = typer.Option(0, help="Seed of the first game; game i uses seed+i."),
    agents: str = typer.Option("random", help=_ai_help("Who plays: one AI for every seat, or one per seat, "
                                                       "comma-separated (the seats rotate from game to game).")),
    turn_limit: int = typer.Option(60, help="Turn limit of each game (0: no limit)."),
    json_out: bool = typer.Option(False, "--json", help="End with one line of JSON with the totals (the "
                                                        "table then goes to stderr)."),
    save_dir: Optional[Path] = typer.Option(None, help="Save every game as JSON in this directory "
                                                       "(game-0000.json, ...; read them with starcom replay; "
                                                       "the browser lobby opens them too)."),
    workers: int = workers_option(),
    backend: str = backend_option(),
    address: Optional[str] = address_option(),
) -> None:
    """Play many AI games, checking the engine's rules invariants after every action.

    Prints the totals: games finished, errors, invariant violations, wins per seat, draws,
    steps per second and the mean game length. The exit code is 1 if any game raised an
    error or broke an invariant, so this doubles as a stress test of the engine.
    """
    from ..sim.backends import BackendError, check_backend
    from ..sim.selfplay import run_selfplay
    if games < 1:
        raise typer.BadParameter(f"play at least one game, not {games}", param_hint="--games")
    entry = game_entry(game)
    chosen = first_edition(entry, edition)
    size = first_size(entry, size)  # None: the game has no board size
    new_game(entry, players=players, size=size, edition=chosen, seed=seed, turn_limit=_limit(turn_limit))
    edition = chosen  # None: the game has no editions, and self-play leaves the setting out
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
                                 address=address, game=entry.name)
        except BackendError as exc:  # Ray could not be started or joined after all
            raise typer.BadParameter(exc.problem, param_hint=exc.option) from None
    summary = stats.summary()
    board = f", {size}x{size}" if "size" in entry.rules.settings else ""
    table = Table(title=f"Self-play: {entry.title}, {players} players{board}{f', {edition}' if edition else ''}, "
                        f"agents {','.join(names)}")
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
  starcom bench --rl              # the PettingZoo environment against the raw engine (needs starcom[rl])"""
             + game_example("  starcom bench --game {game}         # {title}'s random playouts, each edition, "
                            "against python-chess"))
def bench(
    seconds: float = typer.Option(3.0, help="Time for each configuration, in seconds."),
    steps: Optional[int] = typer.Option(None, help="Run exactly this many steps (with --ai: ISMCTS iterations "
                                                   "per decision) per configuration instead."),
    seed: int = typer.Option(0, help="Seed of the playouts."),
    ai: bool = typer.Option(False, "--ai", help="Measure ISMCTS iterations per second instead of random playouts."),
    rl: bool = typer.Option(False, "--rl", help="Measure the PettingZoo AEC environment's steps per second "
                                               "against the raw engine's, in the same run (needs starcom[rl])."),
    json_out: bool = typer.Option(False, "--json", help="End with one line of JSON with the figures."),
    one_build: bool = typer.Option(False, "--one-build", help="Random playouts of this process's build of the "
                                   "rules only (by default the other build, compiled or pure Python, plays the "
                                   "same setups in a child process in the same run)."),
    game: Optional[str] = typer.Option(None, "--game", help="Measure this game's random playouts instead, each "
                                       f"edition against python-chess: {game_choices()}.", show_default=False),
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
    if game is not None:
        from ..sim.bench import bench_game
        entry = game_entry(game)
        with console.status(f"playing random games of {entry.title}…"):
            summary, by_edition, chess_m = bench_game(entry.name, seconds, seed, steps, both_builds=not one_build)
        table = _playout_table(f"Random playouts: {entry.title} (turn limit 60)", summary,
                               [(label, m) for label, m in by_edition], chess_m)
        console.print(table)
        for build, figures in _by_build(summary):
            for label, ratio in figures.get("vs_chess", {}).items():
                console.print(f"{entry.title} ({label}, {build}) runs {ratio:.2f}x as many steps per second as "
                              "python-chess in the same run")
        _say_builds(console, summary)
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
            summary, runs, chess = run_bench(seconds, seed, steps, both_builds=not one_build)
        table = _playout_table("Random playouts (standard edition, turn limit 60)", summary,
                               [(f"{m.players}p {m.size}x{m.size}", m) for m in runs], chess)
        console.print(table)
        console.print(f"a 4p 5x5 step costs {summary['ratio']:.2f}x a 2p 3x3 step ({summary['build']} build)")
        if "vs_chess" in summary:
            console.print(f"2p 3x3 runs {summary['vs_chess']:.2f}x as many steps per second as python-chess "
                          f"in the same run ({summary['build']} build)")
            other = summary.get("other_build")
            if other and "vs_chess" in other:
                first = next(iter(other["vs_chess"].values()))
                console.print(f"2p 3x3 runs {first:.2f}x as many steps per second as python-chess "
                              f"in the same run ({other['build']} build)")
            _say_builds(console, summary)
        else:
            _say_builds(console, summary)
            console.print("python-chess is not installed (pip install chess): no anchor figure")
    if json_out:
        typer.echo(json.dumps(summary))


def _playout_table(title: str, summary: Mapping[str, Any], rows: list[tuple[str, Any]], chess: Any) -> Table:
    """The playout figures: each setup of this process's build, then the other build's (from
    the summary, when it ran), then python-chess's."""
    table = Table(title=title)
    for col in ("setup", "build", "steps", "games finished", "seconds", "steps/s"):
        table.add_column(col, justify="right")
    for label, m in rows:
        table.add_row(label, summary["build"], str(m.steps), str(m.games), f"{m.seconds:.2f}",
                      f"{m.steps_per_second:,.0f}")
    other = summary.get("other_build")
    if other:
        for (label, _), (key, m) in zip(rows, other["measurements"].items()):
            table.add_row(label, other["build"], str(m["steps"]), str(m["games"]), f"{m['seconds']:.2f}",
                          f"{other['steps_per_second'][key]:,.0f}")
    if chess is not None:
        table.add_row("python-chess", "", str(chess.steps), str(chess.games), f"{chess.seconds:.2f}",
                      f"{chess.steps_per_second:,.0f}")
    return table


def _by_build(summary: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """(build, figures) of each build that ran, this process's first."""
    out: list[tuple[str, Mapping[str, Any]]] = [(summary["build"], summary)]
    if summary.get("other_build"):
        out.append((summary["other_build"]["build"], summary["other_build"]))
    return out


def _say_builds(console: Console, summary: Mapping[str, Any]) -> None:
    """One line on the builds: the compiled one against pure Python, or why only one ran."""
    from ..build import describe
    other = summary.get("other_build")
    if other is None and "other_build" in summary:
        console.print(f"rules: {describe()}; the compiled build is not there (starcom build, docs/build.md)")
    elif not other:
        console.print(f"rules: {describe()}")
    else:
        by = {summary["build"]: _rates(summary), other["build"]: _rates(other)}
        gains = ", ".join(f"{label} {rate / by['pure'][label]:.2f}x" for label, rate in by["compiled"].items()
                          if by["pure"].get(label))
        console.print(f"rules: {describe()}; compiled against pure Python in the same run: {gains}")


def _rates(figures: Mapping[str, Any]) -> dict[str, float]:
    """Steps per second by setup, from :func:`bench`'s flat summary or :func:`bench_game`'s."""
    rates = figures.get("steps_per_second")
    if isinstance(rates, dict):
        return dict(rates)
    prefix = "steps_per_second_"
    return {k[len(prefix):]: float(v) for k, v in figures.items() if k.startswith(prefix)}


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


def public_settings(entry: GameEntry[Any, Any], game: Any, config: Mapping[str, Any]) -> dict[str, Any]:
    """The settings of ``game`` (made with ``config``) a seat or spectator may see (the entry's
    ``public_settings``; without: all but the seed, which could give hidden cards away)."""
    if entry.words.public_settings is not None:
        return entry.words.public_settings(game, config)
    return {k: v for k, v in config.items() if k != "seed"}


def replay_steps(entry: GameEntry[Any, Any], config: Mapping[str, Any], actions: list[Any], who: Optional[int],
                 reveal_all: bool, verbose: bool = False) -> tuple[Any, list[dict[str, Any]]]:
    """Play a saved game's ``actions`` (legal ones, as the game's own values) from ``config``
    and describe each step as ``who`` (a seat, or None for a spectator) may know it, through
    the game's observer: ``{"step", "by", "action", "text", "lines"}``, step 0 being the setup
    (``action`` is the JSON of the action as ``who`` may know it). ``reveal_all`` shows every
    card. Returns the final game and the steps."""
    game = entry.rules.new(**config)
    narrator = _narrator(entry, game, who, reveal_all, verbose)
    steps: list[dict[str, Any]] = [{"step": 0, "by": None, "action": None, "text": None,
                                    "lines": narrator.setup_lines(game)}]
    for n, act in enumerate(actions, 1):
        by = game.to_move
        known = act if reveal_all else entry.observer.action(game, act, who)
        # the whole log is worded as each action's own player knew it
        text = entry.words.describe(game, act, by if reveal_all else who)
        before = game.clone() if verbose else None
        events = entry.rules.play(game, act)
        steps.append({"step": n, "by": by, "action": entry.rules.encode(known), "text": text,
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
    from ..sim.record import load_game_record
    try:
        saved = load_game_record(file)
    except ReplayError as exc:
        _fail(str(exc))
    entry = saved.entry
    over = bool(saved.game.over)
    who, reveal_all = _viewer(viewer, int(saved.game.players), over)
    game, steps = replay_steps(entry, saved.config, saved.actions, who, reveal_all, verbose)
    # The seed gives every hand and deck away, so a player's or spectator's log leaves it out
    # while their view would (the game's public settings).
    settings = dict(saved.config) if reveal_all else public_settings(entry, game, saved.config)
    turns = entry.rules.turn(game) + 1 if entry.rules.turn is not None else None
    if json_out:
        typer.echo(json.dumps({
            "file": str(file), "game": saved.name,
            "viewer": "all" if reveal_all else "spectator" if who is None else who,
            "config": settings, "agents": saved.agents, "over": over, "winner": entry.rules.winner(game),
            **({"turns": turns} if turns is not None else {}), "steps": len(saved.actions), "history": steps}))
        return
    console = Console()
    title, notes = _heading(entry, settings)
    parts = [title]
    if "seed" in settings:
        parts.append(f"seed {settings['seed']}")
    if settings.get("turn_limit"):
        parts.append(f"turn limit {settings['turn_limit']}")
    parts.append(f"{len(saved.actions)} actions")
    console.print(Text(f"{file}: " + ", ".join(parts), style="bold"), soft_wrap=True)
    if saved.agents:
        console.print(Text(", ".join(f"P{p}: {n}" for p, n in enumerate(saved.agents))))
    for note in notes:
        console.print(Text(note))
    for step in steps:
        for line in step["lines"]:
            _print_line(console, line)
    if not over:
        when = f", at turn {turns}" if turns is not None else ""
        console.print(Text(f"(the game was saved unfinished{when})", style="yellow"))
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
    from ..scenarios import run_files
    raise typer.Exit(run_files([str(f) for f in files]))


# --------------------------------------------------------------------------- build


@app.command(name="build", epilog="""Examples:
  starcom build            # compile the rules once (nothing to do when they are compiled)
  starcom build --check    # which build runs, and why (STARCOM_PURE=1 forces pure Python)
  starcom build --force    # compile again""")
def build_command(
    force: bool = typer.Option(False, "--force", help="Compile again even when a build of these sources is there."),
    check: bool = typer.Option(False, "--check", help="Only say which build of the rules runs, and why."),
) -> None:
    """Compile both games' rules with mypyc (docs/build.md).

    The compiled build is made from the same source as the pure Python one and kept outside the
    source tree, in a cache folder keyed by the sources; it is used from then on, unless
    STARCOM_PURE=1. scripts/setup.sh makes it once at install. Without a C compiler the rules
    run as pure Python, and this says so in one line.
    """
    from .. import build as builds
    if check:
        typer.echo(f"rules: {builds.describe()}")
        return
    raise typer.Exit(builds.main(["--force"] if force else []))


from . import arena as _arena, bots as _bots, play as _play, serve as _serve, study as _study  # noqa: E402  (commands defined in their own modules)

_serve.register(app)
_play.register(app)
_arena.register(app)
_study.register(app)
_bots.register(app)

if __name__ == "__main__":  # pragma: no cover
    app()
