"""Shared helpers for the property and invariant tests."""
from __future__ import annotations

import random
from typing import Callable

import pytest

from starcom import Game

EDITIONS = ("standard", "classic")


def pick_action(g: Game, rnd: random.Random) -> tuple:
    """A random legal action; half the time the kind is drawn first, so that rare kinds (and
    ``end``, which moves the game on) are not drowned out by long lists of jumps or trade items."""
    acts = g.legal_actions()
    if rnd.random() < 0.5:
        kinds = sorted({a[0] for a in acts})
        kind = rnd.choice(kinds)
        acts = [a for a in acts if a[0] == kind]
    return rnd.choice(acts)


@pytest.fixture(scope="session")
def random_action() -> Callable[[Game, random.Random], tuple]:
    """The :func:`pick_action` policy, as a fixture."""
    return pick_action


@pytest.fixture(scope="session")
def fresh_games() -> list[Game]:
    """One new game for every player count, board size 3..5 and edition (do not mutate)."""
    return [Game.new(players=n, size=s, edition=e, seed=n * 10 + s)
            for n in (2, 3, 4) for s in (3, 4, 5) for e in EDITIONS]
