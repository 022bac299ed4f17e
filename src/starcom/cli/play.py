"""`starcom play`: the terminal game (Textual)."""
from __future__ import annotations

import random
from typing import Any

import typer

HUMAN_ALIASES = {"human", "h", "you", "me"}
AI_ALIASES = {"ai", "computer", "bot", "cpu"}   # a computer seat at the --ai level
DEFAULT_AI = "normal"


def _ai_names() -> list[str]:
    """Levels first, then the agents (what a computer seat may be)."""
    from ..sc.agents import DIFFICULTIES, agent_names
    return list(DIFFICULTIES) + [n for n in agent_names() if n not in DIFFICULTIES]


def ai_choices() -> str:
    """The AIs an option may name, for help texts: the levels (with their agents), then the agents."""
    from ..sc.agents import AGENTS, DIFFICULTIES
    levels = ", ".join(f"{name} ({agent})" for name, (agent, _) in DIFFICULTIES.items())
    return f"levels {levels}; agents {', '.join(sorted(AGENTS))}"


def check_ai(name: str, hint: str = "--ai") -> str:
    """``name`` as a difficulty level or agent name (lower case); BadParameter lists the choices."""
    key = name.strip().lower()
    if key not in _ai_names():
        raise typer.BadParameter(f"unknown AI {name!r}: use a level or an agent ({', '.join(_ai_names())})",
                                 param_hint=hint)
    return key


def parse_seats(specs: list[str] | None, players: int, hotseat: bool, ai: str = DEFAULT_AI) -> list[str]:
    """Seat kinds from ``--seats`` (comma-separated and/or repeated): "human", "ai" (a computer at
    level ``ai``), a difficulty level (easy, normal, hard) or an agent name. Default: seat 0
    human, the others at level ``ai``; with ``--hotseat`` every seat human."""
    ai = check_ai(ai)
    if not specs:
        return ["human"] * players if hotseat else ["human"] + [ai] * (players - 1)
    names = [s.strip().lower() for spec in specs for s in spec.split(",") if s.strip()]
    out = []
    for n in names:
        if n in HUMAN_ALIASES:
            out.append("human")
        elif n in AI_ALIASES:
            out.append(ai)
        elif n in _ai_names():
            out.append(n)
        else:
            raise typer.BadParameter(f"unknown seat {n!r}: use human, ai, a level or an agent "
                                     f"({', '.join(_ai_names())})", param_hint="--seats")
    if len(out) != players:
        raise typer.BadParameter(f"{len(out)} seats for {players} players: give one per seat",
                                 param_hint="--seats")
    return out


def play_moves(game: Any, specs: list[str] | None) -> int:
    """Play the actions of ``--moves`` on ``game``: each in the action notation
    (:mod:`starcom.sc.engine.notation`, e.g. ``jump Scout#91 a2 +explore``), separated by ";" or
    given in several options. Returns how many were played; BadParameter names the first that
    cannot be read or is not legal (with the rule), and the legal actions then."""
    moves = [m.strip() for spec in specs or [] for m in spec.split(";") if m.strip()]
    for n, text in enumerate(moves, 1):
        try:
            game.apply(game.parse(text))
        except ValueError as exc:  # IllegalAction is a ValueError
            legal = ", ".join(game.notation(a) for a in game.legal_actions()[:12])
            more = " …" if len(game.legal_actions()) > 12 else ""
            raise typer.BadParameter(f"move {n} ({text!r}): {getattr(exc, 'reason', exc)}; "
                                     f"legal now: {legal or 'none (the game is over)'}{more}",
                                     param_hint="--moves") from None
    return len(moves)


def _play_other(name: str, players: int, edition: str | None, seed: int, limit: int | None,
                seats: list[str] | None, hotseat: bool, ai: str, moves: list[str] | None, text: bool,
                ai_delay: float, auto_pass: bool, think: float | None) -> None:
    """A game other than Star Commander: the shared full-screen game, or plain text."""
    from ..games import get
    from ..tui.game_app import GameApp
    from ..tui.textplay import play_text
    try:
        entry = get(name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--game") from None
    settings: dict[str, Any] = {"players": players, "edition": edition or (entry.rules.editions[0] if entry.rules.editions
                                                                           else None),
                                "seed": seed, "turn_limit": limit}
    try:
        game = entry.rules.new(**{k: v for k, v in settings.items() if k in entry.rules.settings and v is not None})
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    kinds = parse_seats(seats, game.players, hotseat, ai)
    play_moves(game, moves)
    if not text:
        GameApp(entry, game, kinds, ai_delay=ai_delay, auto_pass=auto_pass, agent_seed=seed, think=think).run()
        return
    try:
        play_text(entry, game, kinds, agent_seed=seed)
    except (EOFError, KeyboardInterrupt):
        typer.echo("\nthe game was left unfinished")
        raise typer.Exit(1) from None


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `starcom` app."""

    @app.command(epilog="""Examples:
  starcom play                          # you (P0) against a normal AI on 3x3
  starcom play --ai hard                # against the strongest level
  starcom play --players 3 --seats human,easy,hard --size 4
  starcom play --hotseat --players 2    # two people sharing the keyboard
  starcom play --seed 7 --moves "end"   # start after these actions (in the action notation)
  starcom play --text                   # plain text: numbered choices, one answer a line
  starcom play --game ge                # Galactic Empires, you against a normal AI""")
    def play(
        players: int = typer.Option(2, help="Number of players, 2 to 4."),
        size: int = typer.Option(3, help="Board size N (an N x N grid), 3 to 5 recommended."),
        edition: str | None = typer.Option(None, help="Rules edition: standard or classic (Star Commander), full "
                                           "or quick (Galactic Empires); default: the game's first."),
        game_name: str = typer.Option("starcom", "--game", help="The game: starcom (Star Commander) or ge "
                                      "(Galactic Empires)."),
        seed: int | None = typer.Option(None, help="Seed of the setup (default: a random one)."),
        seats: list[str] | None = typer.Option(
            None, help="Seat kinds in order, comma-separated or repeated: human, ai (the --ai level), "
                       "a level (easy, normal, hard) or an agent (random, greedy, heuristic, ismcts). "
                       "Example: --seats human,hard,easy"),
        ai: str = typer.Option(DEFAULT_AI, "--ai", help="Level of the computer seats not named in --seats: "
                               "easy, normal or hard (or an agent name)."),
        think: float | None = typer.Option(None, help="Seconds each searching AI (hard, ismcts) thinks per "
                                           "decision (default: the level's own, 1 s for hard)."),
        hotseat: bool = typer.Option(False, "--hotseat", help="Every seat human (unless --seats says otherwise), "
                                     "passing the device between turns."),
        turn_limit: int = typer.Option(0, help="End the game after this many turns (0: no limit)."),
        ai_delay: float = typer.Option(0.3, help="Seconds between the computer's moves."),
        auto_pass: bool = typer.Option(True, help="Pass for you when passing is your only legal action."),
        moves: list[str] | None = typer.Option(
            None, help="Actions to play from the setup before the game opens, in the action notation "
                       "(e.g. \"build Corvette c3; end\"), separated by ';' or repeated."),
        text: bool = typer.Option(False, "--text", help="Plain text instead of the full-screen game: the log, "
                                  "then numbered choices; answer with a number or the action's notation "
                                  "(works in any terminal, with a screen reader or through a pipe)."),
    ) -> None:
        """Play in the terminal: against the computer or hot-seat.

        Opens a full-screen game (Textual): the board, your hand, the log and the legal
        actions, chosen with the keyboard or the mouse (--text: plain lines instead). By
        default you are P0 against a normal AI; --seats, --ai and --hotseat change who sits
        where.
        """
        from ..sc.engine.game import Game
        from ..sc.engine.setup import check_config
        from ..sc.engine.state import Config
        from ..sc.tui.app import StarcomApp
        limit = turn_limit or None
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        if ai_delay < 0:
            raise typer.BadParameter("must be 0 or more", param_hint="--ai-delay")
        if think is not None and think <= 0:
            raise typer.BadParameter("must be more than 0", param_hint="--think")
        if game_name != "starcom":
            _play_other(game_name, players, edition, seed, limit, seats, hotseat, ai, moves, text, ai_delay,
                        auto_pass, think)
            return
        edition = edition or "standard"
        try:
            check_config(Config(players=players, size=size, edition=edition, seed=seed, turn_limit=limit))
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        kinds = parse_seats(seats, players, hotseat, ai)
        game = Game.new(players, size, edition, seed, limit)
        play_moves(game, moves)
        if text:
            from ..sc.entry import STARCOM
            from ..tui.textplay import play_text
            try:
                play_text(STARCOM, game, kinds, agent_seed=seed)
            except (EOFError, KeyboardInterrupt):
                typer.echo("\nthe game was left unfinished")
                raise typer.Exit(1) from None
            return
        StarcomApp(game, kinds, ai_delay=ai_delay, auto_pass=auto_pass, agent_seed=seed, think=think).run()
