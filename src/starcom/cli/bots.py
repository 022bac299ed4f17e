"""The bot-protocol commands: ``starcom bot``, ``starcom match`` and ``starcom protocol-check``
(docs/bot-protocol.md)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from .helptext import game_entry, game_option
from .play import ai_choices


def _sprt_bounds(text: Optional[str]) -> Optional[tuple[float, float]]:
    if text is None:
        return None
    try:
        elo0, elo1 = (float(x) for x in text.split(","))
    except ValueError:
        raise typer.BadParameter(f"{text!r}: write it as ELO0,ELO1, e.g. 0,50", param_hint="--sprt") from None
    return elo0, elo1


def register(app: typer.Typer) -> None:
    """Add the bot commands to ``app``."""

    @app.command(epilog="""Examples:
  starcom bot --agent greedy                        # then type: starcom-bot 1
  starcom match --engine "starcom bot --agent greedy" --engine "python3 examples/bots/random_bot.py\"""")
    def bot(
        agent: str = typer.Option("greedy", help=f"The AI that answers, of the game ({ai_choices()})."),
        game: Optional[str] = game_option("The game it plays"),
        think: Optional[float] = typer.Option(None, help="Seconds per decision for the search AIs."),
    ) -> None:
        """Speak the bot protocol on stdin and stdout with a built-in AI.

        For matches against other programs (starcom match) and for trying a bot's host. The
        protocol is in docs/bot-protocol.md.
        """
        from ..bots.builtin import serve
        entry = game_entry(game)
        try:
            entry.ai.make_agent(agent, think=think)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--agent" if "agent" in str(exc) else "--think") from None
        raise typer.Exit(serve(agent, entry.name, think=think))

    @app.command(epilog="""Examples:
  starcom match --engine "starcom bot --agent greedy" --engine "python3 examples/bots/random_bot.py" --games 20
  starcom match -e "node examples/bots/random_bot.js" -e "starcom bot --agent random" -e "starcom bot" --size 4 -n 9
  starcom match --engine ./mybot --engine "starcom bot --agent greedy" --sprt 0,50 --games 400 --log m.jsonl
  starcom match --engine ./mybot --engine "starcom bot --agent random" --save games/ --json
  starcom match -e ./mybot -e "starcom bot" --option depth=3 --bot-logs logs/""")
    def match(
        engine: list[str] = typer.Option(..., "--engine", "-e", help="A bot's command line, once per seat (2 to "
                                                                      "4); the seats rotate over the games."),
        games: int = typer.Option(10, "--games", "-n", help="Games in all (each deal is played once per "
                                                            "rotation of the engines)."),
        size: Optional[int] = typer.Option(None, help="Board size N (an N x N grid), for a game with a board "
                                                      "size (default: the game's first)."),
        edition: Optional[str] = typer.Option(None, help="Rules edition (default: the game's first)."),
        turn_limit: int = typer.Option(60, help="Turn limit of each game (0: no limit)."),
        seed: int = typer.Option(0, help="Seed of the deals (and of bots that declare a seed option)."),
        concurrency: int = typer.Option(1, "--concurrency", "-c", help="Games played at once."),
        move_ms: int = typer.Option(1000, help="Milliseconds a decision may take before the bank is used."),
        bank_ms: int = typer.Option(30000, help="Milliseconds of bank per game; a bot that runs out loses."),
        retries: int = typer.Option(2, help="Answers again allowed after an illegal one, then the default "
                                            "move (the first legal action) is played for the bot."),
        sprt: Optional[str] = typer.Option(None, help="ELO0,ELO1: stop once a sequential test (5% errors) "
                                                      "decides whether the first engine is ELO1 rather than ELO0 "
                                                      "stronger. Two engines only."),
        log: Optional[Path] = typer.Option(None, help="One JSON line per game; the same command resumes "
                                                      "from it."),
        save: Optional[Path] = typer.Option(None, help="A folder for every game as a saved-game file "
                                                       "(starcom replay, and the browser's Open a saved game)."),
        option: list[str] = typer.Option([], "--option", "-o", help="NAME=VALUE: set this option in every engine "
                                                                    "that declares it (repeatable)."),
        bot_logs: Optional[Path] = typer.Option(None, help="A folder for each bot process's error output, a "
                                                           "file per game and seat (default: discarded)."),
        game: Optional[str] = game_option("The game played"),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object with the results instead "
                                                            "of tables."),
    ) -> None:
        """Play games between bot programs that speak the bot protocol.

        A bot that crashes, hangs, prints garbage, answers out of turn or floods its output
        loses that game, with the reason recorded, and the match goes on. Prints each engine's
        results (wins, draws, losses, forfeits, illegal answers, the median round trip of a
        decision) and Elo ratings.
        """
        from ..bots.match import MatchError, MatchSpec, run_match
        entry = game_entry(game)
        edition = edition or entry.rules.defaults().get("edition")
        size = size if size is not None else entry.rules.defaults().get("size")
        pairs = [o.partition("=") for o in option]
        bad = [o for o, (name, eq, _v) in zip(option, pairs) if not name.strip() or not eq]
        if bad:
            raise typer.BadParameter(f"{bad[0]!r}: write it as NAME=VALUE", param_hint="--option")
        spec = MatchSpec(tuple(engine), games, entry.name, size, edition, turn_limit or None, seed, move_ms, bank_ms,
                         retries, _sprt_bounds(sprt), concurrency, tuple((n.strip(), v.strip()) for n, _e, v in pairs))
        err = Console(stderr=True)
        progress = Progress(TextColumn("match"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=err, transient=True, disable=json_out)
        try:
            with progress:
                task = progress.add_task("games", total=games)
                result = run_match(spec, log, save, on_game=lambda r: progress.advance(task), bot_logs=bot_logs)
        except MatchError as exc:
            err.print(f"[red]error:[/] {exc}")
            raise typer.Exit(2) from None
        summary = result.summary()
        if json_out:
            print(json.dumps(summary))
            return
        out = Console()
        board = f", {size}x{size}" if "size" in entry.rules.settings else ""
        table = Table(title=f"Match: {entry.title}, {len(result.records)} games, {spec.players} seats{board}"
                            + (f", {edition}" if edition else ""))
        for col in ("engine", "games", "wins", "draws", "losses", "score", "forfeits", "illegal", "Elo",
                    "round trip"):
            table.add_column(col, justify="left" if col == "engine" else "right")
        for row in summary["engines"]:
            elo = summary["elo"][row["engine"]]
            table.add_row(row["engine"], str(row["games"]), str(row["wins"]), str(row["draws"]), str(row["losses"]),
                          "-" if row["score"] is None else f"{row['score']:.1%}", str(row["forfeits"]),
                          str(row["illegal"]), f"{elo['elo']:.0f} ({elo['low']:.0f}–{elo['high']:.0f})",
                          "-" if row["round_trip_ms"] is None else f"{row['round_trip_ms']:.2f} ms")
        out.print(table)
        reasons: dict[str, int] = {}
        for r in summary["results"]:
            key = r["reason"] if r["fault"] is None else f"forfeit ({r['fault']})"
            reasons[key] = reasons.get(key, 0) + 1
        out.print("Games ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
        trip = summary["round_trip_ms"]
        if trip["median"] is not None:
            out.print(f"Round trip of a decision over the pipes: median {trip['median']:.3f} ms, "
                      f"95th percentile {trip['p95']:.3f} ms (including each bot's thinking).")
        if summary["sprt"] is not None:
            s = summary["sprt"]
            verdict = {"H1": f"the first engine is at least {spec.sprt[1]:g} Elo stronger",  # type: ignore[index]
                       "H0": f"the first engine is at most {spec.sprt[0]:g} Elo stronger",  # type: ignore[index]
                       None: "no decision yet"}[s["verdict"]]
            out.print(f"SPRT: LLR {s['llr']:.2f} (bounds {s['lower']:.2f}, {s['upper']:.2f}): {verdict}.")

    @app.command("bot-link", epilog="""Examples:
  starcom bot-link "http://127.0.0.1:8000/game/ab12cd?seat=TOKEN" --engine "python3 examples/bots/random_bot.py"
  starcom bot-link "http://HOST:8000/game/ID?seat=TOKEN" --engine "starcom bot --agent heuristic\"""")
    def bot_link(
        link: str = typer.Argument(..., help="The seat's link, as the game gives it: "
                                             "http://HOST:PORT/game/ID?seat=TOKEN, or an invitation "
                                             "(...?invite=CODE)."),
        engine: str = typer.Option(..., "--engine", "-e", help="The bot's command line."),
    ) -> None:
        """Let a bot play a seat of a game on a server (the browser game), over the bot protocol.

        Create an online game in the lobby, give the bot the invitation of another seat (or a
        seat's own link) and play your seat in the browser. The bot gets the same messages as in a match; the
        server checks its actions as it checks any player's. Ends when the game does.
        """
        from ..bots.host import Bot, BotFault
        from ..bots.link import LinkError, SeatLink, run_link
        err = Console(stderr=True)
        try:
            seat = SeatLink.parse(link)
        except LinkError as exc:
            raise typer.BadParameter(str(exc), param_hint="LINK") from None
        try:
            bot = Bot(engine)
        except (BotFault, ValueError) as exc:
            raise typer.BadParameter(str(exc), param_hint="--engine") from None
        try:
            name = bot.handshake().name
            if not seat.token:
                seat = seat.claimed()
                err.print(f"invitation claimed; the seat's own link (to link a bot again): {seat.link}")
            err.print(f"{name} is connected to game {seat.game_id}")
            run_link(seat, bot, say=lambda text: err.print(f"[dim]{text}[/]"))
        except (LinkError, BotFault) as exc:
            err.print(f"[red]error:[/] {exc}")
            raise typer.Exit(1) from None
        finally:
            bot.close()

    @app.command("protocol-check", epilog="""Examples:
  starcom protocol-check "python3 examples/bots/random_bot.py"
  starcom protocol-check "node examples/bots/random_bot.js" --json""")
    def protocol_check(
        command: str = typer.Argument(..., help="The bot's command line (quoted)."),
        game: Optional[str] = game_option("The game to check it on"),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object with every step."),
    ) -> None:
        """Check that a bot program follows the bot protocol, step by step.

        About 30 steps: the handshake and options, whole games at every player count, board size
        and edition the game has, refused answers, a short clock, a restart in the middle of a
        game (resync) and quitting. The exit code is 1 if a step failed.
        """
        from ..bots.check import Step, check
        out = Console()

        def show(step: Step) -> None:
            if not json_out:
                mark = "[green]pass[/]" if step.ok else "[red]FAIL[/]"
                out.print(f"{mark}  {step.name}  [dim]{step.detail}[/]")

        try:
            report = check(command, game_entry(game).name, on_step=show)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="COMMAND") from None
        summary = report.summary()
        if json_out:
            print(json.dumps(summary))
        else:
            verdict = "[green]passed[/]" if report.passed else f"[red]failed {summary['failed']}[/]"
            out.print(f"{summary['steps']} steps: {verdict}")
        raise typer.Exit(0 if report.passed else 1)
