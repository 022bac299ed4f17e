"""`starcom play`: the terminal game (Textual) or plain text, for any installed game."""
from __future__ import annotations

import random
from typing import Any

import typer

from ..games import GameEntry, TerminalApp, default_game, get
from .helptext import game_entry, game_example, game_option

HUMAN_ALIASES = {"human", "h", "you", "me"}
AI_ALIASES = {"ai", "computer", "bot", "cpu"}   # a computer seat at the --ai level


def _entry(entry: GameEntry[Any, Any] | None) -> GameEntry[Any, Any]:
    return entry if entry is not None else get(default_game())


def ai_names(entry: GameEntry[Any, Any] | None = None) -> list[str]:
    """What a computer seat of the game may be (default: the default game's): its levels first,
    then its other agents."""
    entry = _entry(entry)
    levels = list(entry.ai.levels)
    return levels + [n for n in entry.ai.agent_names() if n not in levels]


def ai_choices(entry: GameEntry[Any, Any] | None = None) -> str:
    """The AIs an option may name, for help texts: the game's levels, then its agents (default:
    the default game's, named)."""
    entry = _entry(entry)
    levels = list(entry.ai.levels)
    agents = sorted(n for n in entry.ai.agent_names() if n not in levels)
    return f"{entry.title}'s levels {', '.join(levels)}; agents {', '.join(agents)}"


def check_ai(name: str, hint: str = "--ai", entry: GameEntry[Any, Any] | None = None) -> str:
    """``name`` as a level or agent name of the game (lower case); BadParameter lists the choices."""
    key = name.strip().lower()
    names = ai_names(entry)
    if key not in names:
        raise typer.BadParameter(f"unknown AI {name!r}: use a level or an agent ({', '.join(names)})",
                                 param_hint=hint)
    return key


def parse_seats(specs: list[str] | None, players: int, hotseat: bool, ai: str | None = None,
                entry: GameEntry[Any, Any] | None = None) -> list[str]:
    """Seat kinds from ``--seats`` (comma-separated and/or repeated): "human", "ai" (a computer at
    level ``ai``, by default the game's own default level), a level (easy, normal, hard) or an
    agent name of the game (``entry``; default: the default game). Default: seat 0 human, the
    others at level ``ai``; with ``--hotseat`` every seat human."""
    entry = _entry(entry)
    ai = check_ai(ai if ai is not None else entry.ai.default_level, entry=entry)
    if not specs:
        return ["human"] * players if hotseat else ["human"] + [ai] * (players - 1)
    names = [s.strip().lower() for spec in specs for s in spec.split(",") if s.strip()]
    known = ai_names(entry)
    out = []
    for n in names:
        if n in HUMAN_ALIASES:
            out.append("human")
        elif n in AI_ALIASES:
            out.append(ai)
        elif n in known:
            out.append(n)
        else:
            raise typer.BadParameter(f"unknown seat {n!r}: use human, ai, a level or an agent "
                                     f"({', '.join(known)})", param_hint="--seats")
    if len(out) != players:
        raise typer.BadParameter(f"{len(out)} seats for {players} players: give one per seat",
                                 param_hint="--seats")
    return out


def play_moves(game: Any, specs: list[str] | None) -> int:
    """Play the actions of ``--moves`` on ``game``: each in the game's action notation (what its
    ``parse`` reads, e.g. Star Commander's ``jump Scout#91 a2 +explore``), separated by ";" or
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


def new_game(entry: GameEntry[Any, Any], **given: Any) -> Any:
    """A new game of ``entry`` from the options ``given`` that it takes (None: left to the
    game's default); BadParameter with the game's own words for a bad setting."""
    settings = {k: v for k, v in given.items() if k in entry.rules.settings and v is not None}
    try:
        return entry.rules.new(**settings)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def first_edition(entry: GameEntry[Any, Any], edition: str | None) -> str | None:
    """The edition asked for, else the game's default (None: the game has no editions)."""
    return edition if edition is not None else entry.rules.defaults().get("edition")


def first_size(entry: GameEntry[Any, Any], size: int | None) -> int | None:
    """The board size asked for, else the game's default (None: the game has no board size)."""
    return size if size is not None else entry.rules.defaults().get("size")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `starcom` app."""

    @app.command(epilog="""Examples:
  starcom play                          # you (P0) against the game's default AI
  starcom play --ai hard                # against the strongest level
  starcom play --players 3 --seats human,easy,hard --size 4
  starcom play --hotseat --players 2    # two people sharing the keyboard
  starcom play --seed 7 --moves "end"   # start after these actions
  starcom play --text                   # plain text: type help at its prompt
  starcom play --text --yes < moves.txt # a script: no y/n questions asked"""
                 + game_example("  starcom play --game {game}                # {title}, you against the AI"))
    def play(
        players: int = typer.Option(2, help="Number of players (the game says how many it takes)."),
        size: int | None = typer.Option(None, help="Board size N (an N x N grid), for a game with a board "
                                                   "size (default: the game's first)."),
        edition: str | None = typer.Option(None, help="Rules edition (default: the game's first)."),
        game_name: str | None = game_option(),
        seed: int | None = typer.Option(None, help="Seed of the setup (default: a random one)."),
        seats: list[str] | None = typer.Option(
            None, help="Seat kinds in order, comma-separated or repeated: human, ai (the --ai level), "
                       f"or an AI of the game ({ai_choices()}). Example: --seats human,hard,easy"),
        ai: str | None = typer.Option(None, "--ai", help="Level of the computer seats not named in --seats (or an "
                                      "agent name); default: the game's default level.", show_default=False),
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
        yes: bool = typer.Option(False, "--yes", "-y", help="Play every choice at once, even one the game asks "
                                 "to confirm (scrapping a ship, ending a phase with actions unused); for "
                                 "scripts piping answers to --text."),
    ) -> None:
        """Play in the terminal: against the computer or hot-seat.

        Opens a full-screen game (Textual): the table, your hand, the log and the legal
        actions, chosen with the keyboard or the mouse (--text: plain lines instead). By
        default you are P0 against the game's default AI; --seats, --ai and --hotseat change
        who sits where.
        """
        from ..tui.game_app import GameApp
        from ..tui.textplay import play_text
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        if ai_delay < 0:
            raise typer.BadParameter("must be 0 or more", param_hint="--ai-delay")
        if think is not None and think <= 0:
            raise typer.BadParameter("must be more than 0", param_hint="--think")
        entry = game_entry(game_name)
        game = new_game(entry, players=players, size=first_size(entry, size), edition=first_edition(entry, edition), seed=seed,
                        turn_limit=turn_limit or None)
        kinds = parse_seats(seats, game.players, hotseat, ai, entry)
        play_moves(game, moves)
        if text:
            try:
                play_text(entry, game, kinds, agent_seed=seed, confirm=not yes)
            except (EOFError, KeyboardInterrupt):
                typer.echo("\nthe game was left unfinished")
                raise typer.Exit(1) from None
            return
        screen: TerminalApp = entry.words.terminal_app or GameApp
        screen(entry, game, kinds, ai_delay=ai_delay, auto_pass=auto_pass, agent_seed=seed, think=think,
               confirm=not yes).run()
