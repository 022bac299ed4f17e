"""`starcom play`: the terminal game (Textual)."""
from __future__ import annotations

import random

import typer

SEAT_ALIASES = {"human": "human", "h": "human", "you": "human", "me": "human", "ai": "greedy",
                "computer": "greedy", "bot": "greedy"}


def parse_seats(specs: list[str] | None, players: int, hotseat: bool) -> list[str]:
    """Seat kinds from ``--seats`` (comma-separated and/or repeated): "human" or an agent name.
    Default: seat 0 human, the others greedy; with ``--hotseat`` every seat human."""
    from ..agents import AGENTS
    if not specs:
        return ["human"] * players if hotseat else ["human"] + ["greedy"] * (players - 1)
    names = [s.strip().lower() for spec in specs for s in spec.split(",") if s.strip()]
    out = []
    for n in names:
        kind = SEAT_ALIASES.get(n, n)
        if kind != "human" and kind not in AGENTS:
            raise typer.BadParameter(f"unknown seat {n!r}: use human, ai or an agent ({', '.join(sorted(AGENTS))})",
                                     param_hint="--seats")
        out.append(kind)
    if len(out) != players:
        raise typer.BadParameter(f"{len(out)} seats for {players} players: give one per seat",
                                 param_hint="--seats")
    return out


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `starcom` app."""

    @app.command()
    def play(
        players: int = typer.Option(2, help="Number of players, 2 to 4."),
        size: int = typer.Option(3, help="Board size N (an N x N grid), 3 to 5 recommended."),
        edition: str = typer.Option("standard", help="Rules edition: standard or classic."),
        seed: int | None = typer.Option(None, help="Seed of the setup (default: a random one)."),
        seats: list[str] | None = typer.Option(
            None, help="Seat kinds in order, comma-separated or repeated: human, ai (greedy), random."),
        hotseat: bool = typer.Option(False, "--hotseat", help="Every seat human (unless --seats says otherwise), "
                                     "passing the device between turns."),
        turn_limit: int = typer.Option(0, help="End the game after this many turns (0: no limit)."),
        ai_delay: float = typer.Option(0.3, help="Seconds between the computer's moves."),
        auto_pass: bool = typer.Option(True, help="Pass for you when passing is your only legal action."),
    ) -> None:
        """Play in the terminal: against the computer (default: you are P0 vs greedy) or hot-seat."""
        from ..engine.game import Game
        from ..engine.setup import check_config
        from ..engine.state import Config
        from ..tui import StarcomApp
        limit = turn_limit or None
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        try:
            check_config(Config(players=players, size=size, edition=edition, seed=seed, turn_limit=limit))
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        if ai_delay < 0:
            raise typer.BadParameter("must be 0 or more", param_hint="--ai-delay")
        kinds = parse_seats(seats, players, hotseat)
        game = Game.new(players, size, edition, seed, limit)
        StarcomApp(game, kinds, ai_delay=ai_delay, auto_pass=auto_pass, agent_seed=seed).run()
