"""``starcom bot``: a built-in AI speaking the bot protocol on stdin and stdout.

It knows the game only from the messages: each ``decide`` brings the seat's canonical position
(:func:`.wire.decision`), which the AI loads with the game's own ``from_json`` and decides on.
The AIs already decide from that canonical form (they never look at hidden cards), so a built-in
AI plays the same behind the protocol as in the arena.
"""
from __future__ import annotations

import random
import sys
from typing import IO, Any

from ..games import default_game
from ..games import get as get_game
from . import wire

OPTIONS = {"seed": "0"}  # the bot's random source: the same seed, the same choices


def serve(agent: str, game: str | None = None, inp: IO[str] | None = None, out: IO[str] | None = None,
          think: float | None = None) -> int:
    """Answer the protocol on ``inp``/``out`` (stdin and stdout) with the AI ``agent`` of the
    game ``game`` (None: the default game) until ``quit`` or the end of the input; the exit
    code (0)."""
    inp, out = inp or sys.stdin, out or sys.stdout
    entry = get_game(game if game is not None else default_game())
    ai = entry.ai.make_agent(agent, think=think)
    options = dict(OPTIONS)
    kind: Any = None  # the game's class, to load positions with
    rng = random.Random(0)
    legal: list[str] = []

    def say(keyword: str, rest: Any = None) -> None:
        out.write(wire.line(keyword, rest))
        out.flush()

    for raw in inp:
        keyword, rest = wire.split(raw)
        if keyword == wire.GREETING:
            say(wire.ID, f"name starcom-{agent}")
            say(wire.ID, "author starcom")
            for name, default in OPTIONS.items():
                say(wire.DECLARE, f"name {name} default {default}")
            say(wire.READY, str(wire.VERSION))
        elif keyword == wire.OPTION:
            name, _, value = rest.partition(" ")
            if name in options:
                options[name] = value.strip()
        elif keyword in (wire.NEWGAME, wire.RESYNC):
            info = wire.payload(rest)
            kind = wire.position_class(info)
            rng = random.Random(f"{options['seed']}:{info['seat']}")
        elif keyword == wire.DECIDE:
            body = wire.payload(rest)
            legal = list(body["legal"])
            if kind is None:  # a decision before any newgame: answer without the engine
                say(wire.PLAY, legal[0])
                continue
            position = kind.from_json(body["position"])
            say(wire.PLAY, position.notation(ai.choose(position, rng)))
        elif keyword == wire.ILLEGAL:  # not expected from a built-in AI: fall back on a legal one
            say(wire.PLAY, legal[0] if legal else "pass")
        elif keyword == wire.QUIT:
            break
        elif keyword and keyword != wire.GAMEOVER:
            say(wire.INFO, f"unknown command {keyword[:40]!r} ignored")
    return 0


__all__ = ["OPTIONS", "serve"]
