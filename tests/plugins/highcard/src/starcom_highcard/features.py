"""High Card as fixed-size numbers for learning agents (the entry's ``tools.features``).

**Observation** (float32, seat-relative, every value in [0, 1]), read from the observer's view of
the seat only: the seat's own card one-hot over the cards of the setting; the round one-hot;
the seat to move one-hot, counted from the observing seat (all 0 once the game is over); whether
the game is over; then every seat's card from the observing seat on, as a fraction of the
highest card, once the showdown has shown them (0 before).

**Action IDs**: 0 keep, 1 swap, in every game.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .game import ACTIONS, PLAYERS, ROUNDS, Action, HighCard
from .observer import OBSERVER

SEATS = max(PLAYERS)  # blocks per seat are this long whatever the player count


class Features:
    """The encoding of one setting: ``cards`` cards dealt among ``players`` seats."""

    def __init__(self, players: int, cards: int) -> None:
        self.players, self.cards = players, cards
        self.observation_size = cards + ROUNDS + SEATS + 1 + SEATS
        self.action_count = len(ACTIONS)

    def observe(self, game: HighCard, seat: int) -> npt.NDArray[np.float32]:
        """What ``seat`` sees of ``game`` (its view only), as a vector of ``observation_size``."""
        v = OBSERVER.view(game, seat)
        out = np.zeros(self.observation_size, np.float32)
        own = v["hands"][seat]
        out[own - 1] = 1.0
        at = self.cards
        out[at + min(v["round"], ROUNDS - 1)] = 1.0
        at += ROUNDS
        if v["to_move"] is not None:
            out[at + (v["to_move"] - seat) % self.players] = 1.0
        at += SEATS
        out[at] = float(v["over"])
        at += 1
        for q, card in enumerate(v["hands"]):
            if v["over"] and card is not None:
                out[at + (q - seat) % self.players] = card / self.cards
        return out

    def action_ids(self, game: HighCard, actions: Sequence[Action]) -> list[int]:
        """Each action's ID: its place in :data:`~.game.ACTIONS` (-1 for none of them)."""
        return [ACTIONS.index(a) if a in ACTIONS else -1 for a in actions]

    def action_label(self, action_id: int) -> str:
        """The action's word; ValueError for an ID out of range."""
        if isinstance(action_id, bool) or not isinstance(action_id, (int, np.integer)) \
                or not 0 <= action_id < self.action_count:
            raise ValueError(f"High Card's action IDs are 0 (keep) and 1 (swap), not {action_id!r}")
        return ACTIONS[int(action_id)][0]


def features(game: HighCard) -> Features:
    """The encoding shared by every game of ``game``'s setting (its player count and deck)."""
    return Features(game.players, game.players + len(game.deck))


__all__ = ["Features", "features"]
