"""The ``starcom`` command: a demo game, self-play, benchmarks, replays and scenarios."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..agents import agent_names, make_agent
from ..engine.errors import ReplayError
from ..engine.game import Game
from ..engine.setup import check_config
from ..engine.state import Config

app = typer.Typer(help="Star Commander: play, study and build on the card game.",
                  add_completion=False, pretty_exceptions_enable=False)

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


def _parse_agents(spec: str, players: int) -> list[str]:
    """``a,b,...``: one name for every seat, or exactly one per seat; BadParameter otherwise."""
    names = [s.strip().lower() for s in spec.split(",") if s.strip()]
    if not names:
        raise typer.BadParameter("give at least one agent name", param_hint="--agents")
    for n in names:
        if n not in agent_names():
            raise typer.BadParameter(f"unknown agent {n!r}; known agents: {', '.join(agent_names())}",
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
    from ..engine import rules as R
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
    from ..text import Narrator
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
    while not game.over:
        p = game.to_move
        action = bots[p].choose(game, rngs[p])
        before = game.clone() if verbose else None
        events = game.apply(action, player=p)
        for line in narrator.step_lines(game, action, events, before):
            _print_line(console, line)
    console.print(_standings(game, names))
    return game


@app.callback(invoke_without_command=True)
def main(ctx: typer.Context) -> None:
    """Star Commander. Without a subcommand: start the browser game (`starcom serve`)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(ctx.command.get_command(ctx, "serve"))


@app.command()
def demo(
    seed: int = typer.Option(1, help="Seed of the demo game (setup and agents)."),
    players: int = typer.Option(2, help="Number of players, 2 to 4."),
    size: int = typer.Option(3, help="Board size N (an N x N grid)."),
    edition: str = typer.Option("standard", help="Rules edition: standard or classic."),
    agents: str = typer.Option("greedy", help="Agents by seat, comma-separated, or one for all: greedy, random."),
    turn_limit: int = typer.Option(40, help="End the game after this many turns (0: no limit)."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show phases, passes and other detail."),
) -> None:
    """Play a seeded AI-vs-AI game and print its log."""
    _check_setup(players, size, edition, _limit(turn_limit))
    names = _parse_agents(agents, players)
    play_demo(seed, players, size, edition, names, _limit(turn_limit), verbose, Console())


# --------------------------------------------------------------------------- selfplay


@app.command()
def selfplay(
    games: int = typer.Option(10, "--games", "-n", help="Number of games."),
    players: int = typer.Option(2, help="Number of players, 2 to 4."),
    size: int = typer.Option(3, help="Board size N."),
    edition: str = typer.Option("standard", help="Rules edition: standard or classic."),
    seed: int = typer.Option(0, help="Seed of the first game; game i uses seed+i."),
    agents: str = typer.Option("random", help="Agents by seat, comma-separated (rotating seats each game), or one for all."),
    turn_limit: int = typer.Option(60, help="Turn limit of each game (0: no limit)."),
    json_out: bool = typer.Option(False, "--json", help="End with one line of JSON with the totals."),
    save_dir: Optional[Path] = typer.Option(None, help="Save every game as JSON in this directory."),
) -> None:
    """Play many games between agents, checking the engine's invariants after every action.
    Exits with 1 if any game raised an error or broke an invariant."""
    from ..sim.selfplay import run_selfplay
    if games < 1:
        raise typer.BadParameter(f"play at least one game, not {games}", param_hint="--games")
    _check_setup(players, size, edition, _limit(turn_limit))
    names = _parse_agents(agents, players)
    out, err = Console(), Console(stderr=True)
    progress = Progress(TextColumn("self-play"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=err, transient=True)
    with progress:
        task = progress.add_task("games", total=games)
        stats = run_selfplay(games, players, size, edition, seed, names, _limit(turn_limit), save_dir,
                             on_game=lambda _: progress.advance(task))
    summary = stats.summary()
    table = Table(title=f"Self-play: {players} players, {size}x{size}, {edition}, agents {','.join(names)}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, val in summary.items():
        if key == "wins":
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


@app.command()
def bench(
    seconds: float = typer.Option(3.0, help="Time for each configuration, in seconds."),
    steps: Optional[int] = typer.Option(None, help="Run exactly this many steps (with --ai: ISMCTS iterations "
                                                   "per decision) per configuration instead."),
    seed: int = typer.Option(0, help="Seed of the playouts."),
    ai: bool = typer.Option(False, "--ai", help="Measure ISMCTS iterations per second instead of random playouts."),
    json_out: bool = typer.Option(False, "--json", help="End with one line of JSON with the figures."),
) -> None:
    """Engine speed: random-playout steps per second (legal_actions + apply), or with --ai the
    ISMCTS agent's search iterations per second, for 2 players on 3x3 and 4 players on 5x5
    (standard edition, turn limit 60)."""
    from ..sim.bench import bench as run_bench, bench_search
    if seconds <= 0:
        raise typer.BadParameter("must be above 0", param_hint="--seconds")
    if steps is not None and steps < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--steps")
    console = Console(stderr=json_out)
    if ai:
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
        summary, runs = run_bench(seconds, seed, steps)
        table = Table(title="Random playouts (standard edition, turn limit 60)")
        for col in ("setup", "steps", "games finished", "seconds", "steps/s"):
            table.add_column(col, justify="right")
        for m in runs:
            table.add_row(f"{m.players}p {m.size}x{m.size}", str(m.steps), str(m.games), f"{m.seconds:.2f}",
                          f"{m.steps_per_second:,.0f}")
        console.print(table)
        console.print(f"a 4p 5x5 step costs {summary['ratio']:.2f}x a 2p 3x3 step")
    if json_out:
        typer.echo(json.dumps(summary))


# --------------------------------------------------------------------------- replay


def _viewer(spec: str, players: int) -> tuple[Optional[int], bool]:
    """``all`` (everything shown), ``spectator`` (public information), or a seat number."""
    s = spec.strip().lower()
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


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A saved game (JSON, format starcom-game/1)."),
    viewer: str = typer.Option("all", help="Whose view: a seat number, 'spectator' or 'all'."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show phases, passes and other detail."),
) -> None:
    """Print a saved game's log as readable text. Exit code 2 if the file cannot be used."""
    from ..engine.view import config_for
    from ..sim.record import load
    from ..text import game_lines
    try:
        cfg, actions, meta = load(file)
    except ReplayError as exc:
        _fail(str(exc))
        return
    who, reveal_all = _viewer(viewer, cfg.players)
    console = Console()
    agents = meta.get("agents") or []
    parts = [f"{cfg.players} players on {cfg.size}x{cfg.size}", f"{cfg.edition} edition"]
    # The seed gives every hand and deck away, so a player's or spectator's log of an unfinished
    # game leaves it out, as their view does (engine.view.config_for).
    if reveal_all or "seed" in config_for(meta["game"]):
        parts.append(f"seed {cfg.seed}")
    if cfg.turn_limit:
        parts.append(f"turn limit {cfg.turn_limit}")
    parts.append(f"{len(actions)} actions")
    console.print(Text(f"{file}: " + ", ".join(parts), style="bold"), soft_wrap=True)
    if agents:
        console.print(Text(", ".join(f"P{p}: {n}" for p, n in enumerate(agents))))
    game = Game.from_config(cfg)
    for line in game_lines(game, actions, viewer=who, verbose=verbose, reveal_all=reveal_all):
        _print_line(console, line)
    if not game.over:
        console.print(Text(f"(the game was saved unfinished, at turn {game.turn + 1})", style="yellow"))


# --------------------------------------------------------------------------- scenario


@app.command()
def scenario(files: list[Path] = typer.Argument(..., help="Scenario files (YAML).")) -> None:
    """Run rule scenarios (set up a position, play actions, check the outcome)."""
    from ..scenario import run_files
    raise typer.Exit(run_files([str(f) for f in files]))


from . import arena as _arena, play as _play, serve as _serve  # noqa: E402  (commands defined in their own modules)

_serve.register(app)
_play.register(app)
_arena.register(app)

if __name__ == "__main__":  # pragma: no cover
    app()
