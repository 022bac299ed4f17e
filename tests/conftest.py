"""Shared helpers for the property and invariant tests."""
from __future__ import annotations

import random
from typing import Callable

import pytest
from hypothesis import strategies as st

from starcom.sc.engine.game import Game

EDITIONS = ("standard", "classic")


def game_configs(turn_limit: st.SearchStrategy[int | None] = st.one_of(st.none(), st.integers(4, 30)),
                 edition: bool = False) -> st.SearchStrategy[dict[str, object]]:
    """Keyword arguments of ``Game.new``: any seed, 2-4 players, size 3-5, a turn limit drawn
    from ``turn_limit``, and with ``edition`` either edition (else the test chooses it)."""
    fields: dict[str, st.SearchStrategy[object]] = {
        "seed": st.integers(0, 2**32 - 1), "players": st.integers(2, 4), "size": st.integers(3, 5),
        "turn_limit": turn_limit}
    if edition:
        fields["edition"] = st.sampled_from(EDITIONS)
    return st.fixed_dictionaries(fields)


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
