"""Small helpers shared by the Python rules tests: build a position, act in scenario notation."""
from __future__ import annotations

from typing import Any

from starcom.sc.engine.game import Game
from starcom.sc.scenario import build, parse_action


def setup(**spec: Any) -> tuple[Game, dict[str, int]]:
    """A position built from a scenario-style mapping; returns the game and its vessel labels."""
    return build(spec)


def act(g: Game, labels: dict[str, int], text: str, player: int | None = None) -> list[tuple]:
    """Apply a scenario-notation action (``play Trade Envoy b2``) for the deciding player."""
    return g.apply(parse_action(g, text, labels), player)


def at(g: Game, name: str) -> int:
    """The board position called ``name`` (e.g. ``b2``)."""
    return parse_action(g, f"x {name}", {})[1]


def vessel(card: str, owner: int, pos: str, label: str | None = None, **kw: Any) -> dict:
    """A vessel entry of a scenario setup."""
    out = {"card": card, "owner": owner, "at": pos, **kw}
    if label:
        out["label"] = label
    return out
