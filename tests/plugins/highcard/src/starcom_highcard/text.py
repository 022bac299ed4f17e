"""High Card in English: the narrator of the log, the words for one action and the table as
lines of text. Each reads the game through the observer, so a line never tells a viewer a card
it may not see."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starcom.protocol import Viewer

from .game import KEEP, ROUNDS, Action, Event, HighCard
from .observer import OBSERVER


class HighCardNarrator:
    """The log of one viewer (everything with ``reveal_all``), step by step."""

    def __init__(self, game: HighCard, viewer: Viewer, reveal_all: bool = False) -> None:
        self.viewer, self.reveal_all = viewer, reveal_all

    def setup_lines(self, game: HighCard) -> list[str]:
        return self.step_lines(game, None, game.events)

    def step_lines(self, after: HighCard, action: Any, events: Sequence[Event], before: Any = None) -> list[str]:
        lines = []
        for e in events:
            e = e if self.reveal_all else OBSERVER.event(e, self.viewer)
            card = "a card" if len(e) < 3 or e[2] is None else f"the {e[2]}"
            if e[0] == "deal":
                lines.append(f"P{e[1]} is dealt {card}")
            elif e[0] == "keep":
                lines.append(f"P{e[1]} keeps their card")
            elif e[0] == "swap":
                lines.append(f"P{e[1]} swaps {card}" + ("" if e[3] is None else f" for the {e[3]}"))
            elif e[0] == "show":
                lines.append(f"P{e[1]} shows the {e[2]}")
        if after.over and events and events[-1][0] == "show":
            lines.append(f"Game over: P{after.winner} wins")
        return lines


def describe(game: HighCard, action: Action, viewer: Viewer) -> str:
    """``action`` of the seat to move in a few words (both actions are public)."""
    return f"P{game.to_move} {'keeps' if action == KEEP else 'swaps'} their card"


def table(game: HighCard, viewer: Viewer) -> list[str]:
    """The table as ``viewer`` sees it: the round, the deck, then a line per seat."""
    v = OBSERVER.view(game, viewer)
    head = "Showdown" if v["over"] else f"Round {v['round'] + 1} of {ROUNDS}"
    lines = [f"High Card · {head} · the deck holds {v['deck']} cards"]
    for seat, card in enumerate(v["hands"]):
        who = f"P{seat}" + (" (you)" if seat == viewer else "")
        held = "a hidden card" if card is None else f"the {card}"
        mark = "  ← wins" if seat == v["winner"] else "  ← to move" if seat == v["to_move"] else ""
        lines.append(f"{who}: {held}{mark}")
    return lines


__all__ = ["HighCardNarrator", "describe", "table"]
