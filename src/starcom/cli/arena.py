"""The ``starcom arena`` command: a round robin between agents with Elo ratings and a plot."""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)
from rich.table import Table
from rich.text import Text

from ..games import GameEntry
from .helptext import address_option, backend_option, game_entry, game_example, game_option, workers_option
from .play import ai_choices

if TYPE_CHECKING:
    from ..sim.arena import ArenaResult, ArenaSpec, GameRecord
    from ..sim.ratings import EloFit


def format_p(p: float) -> str:
    """A p-value for people: scientific notation once it is small."""
    if p == 0.0:
        return "<1e-300"
    return f"{p:.2e}" if p < 1e-3 else f"{p:.3f}"


# Which option a message from the engine's config check is about, by how the message starts.
_CONFIG_HINTS = (("players", "--players"), ("edition", "--edition"), ("board size", "--size"), ("unknown edition", "--edition"),
                 ("turn limit", "--turn-limit"), ("baseline", "--baseline"), ("a baseline", "--baseline"))


def _parse_agents(spec: str, entry: GameEntry[Any, Any]) -> list[str]:
    names = [s.strip().lower() for s in spec.split(",") if s.strip()]
    from ..sim.crossbuild import check_name
    for n in names:
        try:
            check_name(entry, n)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--agents") from None
    if len(names) < 2:
        raise typer.BadParameter(f"the arena needs at least two agents, got {len(names)}", param_hint="--agents")
    dups = sorted({n for n in names if names.count(n) > 1})
    if dups:
        raise typer.BadParameter(f"each agent may be listed once; repeated: {', '.join(dups)}",
                                 param_hint="--agents")
    return names


def _setting_words(spec: ArenaSpec) -> str:
    """The game and its settings in a few words, for titles."""
    from ..games import get
    entry = get(spec.game)
    board = f", {spec.size}x{spec.size}" if "size" in entry.rules.settings else ""
    return f"{entry.title}, {spec.players} players{board}" + (f", {spec.edition}" if spec.edition else "")


def _results_tables(result: ArenaResult, fit: EloFit) -> tuple[Table, Table]:
    spec = result.spec
    agents = Table(title=f"Arena: {_setting_words(spec)}, seed {spec.seed}, {len(result.records)} games")
    for col in ("agent", "games", "wins", "draws", "losses", "win rate", "Elo", "95% interval"):
        agents.add_column(col, justify="left" if col == "agent" else "right")
    by_name = {a.name: a for a in result.agent_results()}
    for name in fit.ranked():
        a = by_name[name]
        lo, hi = fit.intervals[name]
        agents.add_row(name, str(a.games), str(a.wins), str(a.draws), str(a.losses), f"{a.win_rate:.1%}",
                       f"{fit.ratings[name]:.0f}", f"{lo:.0f} – {hi:.0f}")
    pairs = Table(title="Head to head (p: two-sided exact sign test, draws left out)")
    for col in ("a", "b", "a wins", "b wins", "draws", "p-value"):
        pairs.add_column(col, justify="left" if col in ("a", "b") else "right")
    for p in result.pairs():
        pairs.add_row(p.a, p.b, str(p.a_wins), str(p.b_wins), str(p.draws), format_p(p.p_value))
    return agents, pairs


def register(app: typer.Typer) -> None:
    """Add the arena command to ``app``."""

    @app.command(epilog="""Examples:
  starcom arena --agents random,greedy,heuristic --games 20 --workers 2
  starcom arena --agents easy,normal,hard --think 0.5 --json --log arena.jsonl
  starcom arena --agents hard,hard@pure --think 1 --games 100 --workers 2
  starcom arena --agents greedy,heuristic --players 3 --size 4 --no-plot
  starcom arena --agents random,greedy --games 200 --backend ray --address HEAD:6379 --workers 64"""
                 + game_example("  starcom arena --game {game} --agents random,greedy,ismcts --iterations 200 --games 50"))
    def arena(
        agents: str = typer.Option(..., help="AIs to rate, comma-separated, at least two, each once: "
                                             f"{ai_choices()}; NAME@pure or NAME@compiled thinks in that "
                                             "build of the rules (a child process)."),
        games: int = typer.Option(10, "--games", "-n",
                                  help="Games per line-up (per pair of agents for 2 players)."),
        players: int = typer.Option(2, help="Seats per game (the game says how many it takes)."),
        size: Optional[int] = typer.Option(None, help="Board size N (an N x N grid), for a game with a board "
                                                      "size (default: the game's first)."),
        seed: int = typer.Option(0, help="Seed of the whole arena (deals and agents' random choices)."),
        think: Optional[float] = typer.Option(None, help="Seconds per decision for the search agents (ismcts, "
                                                         "hard); default: their own."),
        iterations: Optional[int] = typer.Option(None, help="Search iterations per decision for the search "
                                                            "agents (with --think: whichever ends first); only "
                                                            "this makes a run repeatable."),
        edition: Optional[str] = typer.Option(None, help="Rules edition (default: the game's first)."),
        game: Optional[str] = game_option(),
        turn_limit: int = typer.Option(60, help="Turn limit of each game (0: no limit); "
                                                "at the limit the score rule decides."),
        baseline: Optional[Path] = typer.Option(None, help="A starcom checkout (the folder holding src/starcom) "
                                                           "whose code the NAME@pure / NAME@compiled agents run, "
                                                           "to meet an earlier version; default: this one."),
        workers: int = workers_option(),
        backend: str = backend_option(),
        address: Optional[str] = address_option(),
        plot: Path = typer.Option(Path("arena.png"), help="Where to write the ratings plot (.png, .svg or .pdf)."),
        no_plot: bool = typer.Option(False, "--no-plot", help="Do not write a plot."),
        json_out: bool = typer.Option(False, "--json", help="End stdout with one line of JSON with the results."),
        log: Optional[Path] = typer.Option(None, help="Append one JSON line per game to this file as each "
                                                      "game ends (kept if the run is stopped)."),
    ) -> None:
        """Rate AIs against each other: a round robin with Elo ratings and a plot.

        Every line-up of the agents plays --games games with the seats rotated. Prints each
        agent's results and Elo rating with a 95% interval, an exact sign test for each pair,
        and writes a plot of the ratings (docs/arena.md explains the method). The exit code is
        1 if a game ended in an error.
        """
        from ..sim.arena import ArenaSpec, run_arena, schedule
        from ..sim.backends import BackendError, check_backend
        from ..sim.crossbuild import split_name
        from ..sim.plot import plot_format, plot_ratings

        entry = game_entry(game)
        size = size if size is not None else entry.rules.defaults().get("size")  # None: the game has none
        if edition is None:
            edition = entry.rules.defaults().get("edition")  # None: the game has none
        elif entry.rules.editions and edition not in entry.rules.editions:
            raise typer.BadParameter(f"unknown edition {edition!r}: {entry.title} has {', '.join(entry.rules.editions)}",
                                     param_hint="--edition")
        names = _parse_agents(agents, entry)
        if games < 1:
            raise typer.BadParameter(f"play at least one game, not {games}", param_hint="--games")
        if think is not None and not (think > 0 and math.isfinite(think)):
            raise typer.BadParameter(f"must be a number of seconds above 0, not {think}", param_hint="--think")
        if iterations is not None and iterations < 1:
            raise typer.BadParameter(f"must be at least 1, not {iterations}", param_hint="--iterations")
        try:
            check_backend(backend, workers, address)
        except BackendError as exc:
            raise typer.BadParameter(exc.problem, param_hint=exc.option) from None
        if turn_limit < 0:
            raise typer.BadParameter(f"must be 0 (no limit) or more, not {turn_limit}", param_hint="--turn-limit")
        if not no_plot:
            try:
                plot_format(plot)
            except ValueError as exc:
                raise typer.BadParameter(str(exc), param_hint="--plot") from None
        spec = ArenaSpec(tuple(names), games, players, size, edition, seed, think, iterations,
                         turn_limit or None, game=entry.name, baseline=str(baseline) if baseline else None)
        try:
            spec.check()
        except ValueError as exc:
            msg = str(exc)
            hint = next((h for start, h in _CONFIG_HINTS if msg.startswith(start)), None)
            raise typer.BadParameter(msg, param_hint=hint) from None

        for name in names:  # fail before the first game, not once per game
            try:
                entry.ai.make_agent(split_name(name)[0], think=think, iterations=iterations)
            except Exception as exc:
                typer.echo(f"error: agent {name!r} cannot be created: {type(exc).__name__}: {exc}", err=True)
                raise typer.Exit(1) from None

        out, err = Console(), Console(stderr=True)
        show = err if json_out else out
        total = len(schedule(spec))
        progress = Progress(TextColumn("arena"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            TimeRemainingColumn(), console=err, transient=True)
        try:
            log_file = log.open("a", encoding="utf-8") if log is not None else None
        except OSError as exc:
            raise typer.BadParameter(f"cannot open {log}: {exc.strerror}", param_hint="--log") from None

        def finished(rec: GameRecord) -> None:
            progress.advance(task)
            if log_file is not None:
                log_file.write(json.dumps({**rec.row(), "winner_agent": rec.winner_agent,
                                           "seconds": round(rec.seconds, 1)}) + "\n")
                log_file.flush()

        with progress:
            task = progress.add_task("games", total=total)
            try:
                result = run_arena(spec, workers, on_game=finished, backend=backend, address=address)
            except BackendError as exc:  # Ray could not be started or joined after all
                raise typer.BadParameter(exc.problem, param_hint=exc.option) from None
            finally:
                if log_file is not None:
                    log_file.close()
        fit = result.elo()
        agent_table, pair_table = _results_tables(result, fit)
        show.print(agent_table)
        show.print(pair_table)
        show.print(Text(f"mean game length {result.mean_turns():.1f} turns; Elo: Bradley–Terry maximum "
                        f"likelihood, mean 1500, one virtual draw per pair, intervals ±1.96 s.e. "
                        f"(observed information)", style="dim"), soft_wrap=True)
        for rec in result.errors[:20]:
            err.print(Text(f"game {rec.index} ({', '.join(rec.seats)}; seed {rec.config_seed}): {rec.error}",
                           style="red"), soft_wrap=True)
        plot_path: Optional[str] = None
        if not no_plot:
            title = (f"{', '.join(names)} — {_setting_words(spec)}, "
                     f"{len(result.records)} games, seed {spec.seed}")
            written = plot_ratings(fit, plot, title)
            plot_path = str(written)
            show.print(f"ratings plot written to {written.resolve()}", soft_wrap=True)
        if json_out:
            typer.echo(json.dumps(result.summary(plot_path)))
        if result.errors:
            raise typer.Exit(1)
