"""What each viewer of a High Card game may know (the :class:`starcom.observer.Observer`
protocol): a seat sees its own card, everyone sees every card once the game is over, and
nobody sees the deck. Every other module asks this one."""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from starcom.observer import canonical
from starcom.protocol import Viewer

from .game import Action, Event, HighCard


class HighCardObserver:
    """The one place High Card decides what a viewer (a seat, or None) may see."""

    def view(self, game: HighCard, viewer: Viewer) -> dict[str, Any]:
        """The round, who is to move, how many cards the deck holds, the winner once known, and
        the hands with every card ``viewer`` may not see as None."""
        return {"viewer": viewer, "to_move": game.to_move, "round": game.round, "over": game.over,
                "deck": len(game.deck), "winner": game.winner,
                "hands": [c if game.over or q == viewer else None for q, c in enumerate(game.hands)]}

    def event(self, event: Event, viewer: Viewer) -> Event:
        """A deal or a swap of another seat, its cards hidden (None)."""
        if event[0] in ("deal", "swap") and event[1] != viewer:
            return (event[0], event[1], *(None for _ in event[2:]))
        return event

    def action(self, game: HighCard, action: Action, viewer: Viewer) -> Action:
        return action  # keeping or swapping is done in the open

    def chance_mark(self, game: HighCard) -> Hashable:
        return 0  # no chance after the deal

    def reveals(self, events: Sequence[Event], mark_before: Hashable, mark_after: Hashable) -> bool:
        return any(e[0] in ("swap", "show") for e in events)  # a swap shows its seat a new card

    def canonical(self, game: HighCard, seat: int) -> HighCard:
        return canonical(game, seat)

    def private_options(self, game: HighCard, seat: int) -> bool:
        return False  # keep or swap, whatever the card: the options are public


OBSERVER = HighCardObserver()

__all__ = ["OBSERVER", "HighCardObserver"]
