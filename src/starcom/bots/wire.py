"""The bot protocol's messages: one line each, a keyword and, for most, one JSON object.

The protocol itself (every message, in order, with examples) is docs/bot-protocol.md. This
module writes and reads the lines, and builds the one message that carries game data, the
decision, from what the game's observer lets the seat know: nothing else of the game is sent.
"""
from __future__ import annotations

import json
from typing import Any

from ..games import GameEntry

VERSION = 1
GREETING = "starcom-bot"  # the host's first line: "starcom-bot 1"
MAX_LINE = 1 << 20  # bytes; a longer line from a bot is flooding

# Host to bot.
OPTION, NEWGAME, RESYNC, DECIDE, ILLEGAL, GAMEOVER, QUIT = (
    "option", "newgame", "resync", "decide", "illegal", "gameover", "quit")
# Bot to host.
ID, DECLARE, READY, PLAY, INFO = "id", "option", "ready", "play", "info"


def line(keyword: str, payload: Any = None) -> str:
    """The line ``keyword`` (with ``payload`` as compact JSON, or as text when it is a str)."""
    if payload is None:
        return keyword + "\n"
    text = payload if isinstance(payload, str) else json.dumps(payload, separators=(",", ":"))
    return f"{keyword} {text}\n"


def split(text: str) -> tuple[str, str]:
    """A line's keyword and the rest (both stripped)."""
    keyword, _, rest = text.strip().partition(" ")
    return keyword, rest.strip()


def payload(rest: str) -> dict[str, Any]:
    """The JSON object of a line's rest; ValueError if it is not one."""
    data = json.loads(rest)
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    return data


def game_info(entry: GameEntry[Any, Any], settings: dict[str, Any], seat: int, players: int,
              clock: dict[str, int], retries: int) -> dict[str, Any]:
    """The body of ``newgame`` (and ``resync``): which game, its public settings (never the
    seed: it fixes every shuffle), the bot's seat, the time control and the retry budget."""
    public = {k: v for k, v in settings.items() if k != "seed"}
    return {"game": entry.name, "settings": public, "seat": seat, "players": players, "clock": clock,
            "retries": retries}


def decision(entry: GameEntry[Any, Any], game: Any, seat: int, number: int, clock: dict[str, int],
             legal: list[Any] | None = None) -> dict[str, Any]:
    """The body of ``decide`` for ``seat``, the seat to move: its view of the game, a full
    position it cannot tell from the real one (the observer's canonical form: every card it
    cannot see put in a fixed order, so the position depends on nothing hidden; bots with a
    rules engine may search from it), and the legal actions in the game's notation (``legal``:
    ``game.legal_actions()``, when the caller has them already)."""
    return {"decision": number, "seat": seat, "view": entry.observer.view(game, seat),
            "position": entry.observer.canonical(game, seat).to_json(),
            "legal": [game.notation(a) for a in (game.legal_actions() if legal is None else legal)],
            "clock": clock}


def position_class(info: dict[str, Any]) -> Any:
    """The class of the game a ``newgame`` (or ``resync``) body describes: its ``from_json``
    loads a decision's ``position``."""
    from ..games import get as get_game
    return type(get_game(info["game"]).rules.new(**dict(info["settings"], seed=0)))


__all__ = ["DECIDE", "GAMEOVER", "GREETING", "ILLEGAL", "INFO", "MAX_LINE", "NEWGAME", "OPTION", "PLAY", "QUIT",
           "READY", "RESYNC", "VERSION", "decision", "game_info", "line", "payload", "position_class", "split"]
