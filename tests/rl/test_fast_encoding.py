"""The fast encoders of the RL features (issue 31) give exactly what the old ones gave: at
thousands of random decision points of both games, every seat's observation (the same float32
numbers) and the IDs of the legal actions, and so the environments' masks, match those of the
reference encoders kept in :mod:`.reference_features`."""
from __future__ import annotations

import random

import numpy as np
import pytest

from starcom import games

from .reference_features import OldGEFeatures, OldStarcomFeatures

# (game, settings, decision points)
PLAN = [
    ("starcom", {"players": 2, "size": 3, "edition": "standard"}, 3000),
    ("starcom", {"players": 3, "size": 4, "edition": "standard"}, 1500),
    ("starcom", {"players": 4, "size": 5, "edition": "standard"}, 1500),
    ("starcom", {"players": 2, "size": 3, "edition": "classic"}, 1500),
    ("ge", {"edition": "full"}, 2000),
    ("ge", {"edition": "quick"}, 1500),
]


def _positions(game, settings, points, seed=0):
    """Random decision points of ``game``: a fresh deal whenever one ends."""
    entry = games.get(game)
    rng = random.Random(seed)
    deal, seen = seed, 0
    while seen < points:
        g = games.load_game(game, **settings, seed=deal, turn_limit=40)
        deal += 1
        while not g.over and seen < points:
            legal = g.legal_actions()
            yield g, legal
            seen += 1
            entry.rules.play(g, rng.choice(legal))


def _old(game, g):
    return OldStarcomFeatures(g) if game == "starcom" else OldGEFeatures()


@pytest.mark.parametrize("game,settings,points", PLAN, ids=[f"{g}-{'-'.join(map(str, s.values()))}" for g, s, _ in PLAN])
def test_fast_observations_and_ids_match_the_reference(game, settings, points):
    entry = games.get(game)
    old = fast = None
    seats = 0
    for g, legal in _positions(game, settings, points):
        if fast is None:
            fast, old = entry.tools.features(g), _old(game, g)
            assert (fast.observation_size, fast.action_count) == (old.observation_size, old.action_count)
        players = g.cfg.players if game == "starcom" else 2
        for seat in range(players):
            want, got = old.observe(g, seat), fast.observe(g, seat)
            assert got.dtype == np.float32 and got.shape == want.shape and got.flags.writeable
            assert np.array_equal(got, want), (seat, np.flatnonzero(got != want))
            seats += 1
        assert fast.action_ids(g, legal) == old.action_ids(g, legal)
        assert fast.action_ids(g, legal) == old.action_ids(g, legal)  # the caches give the same again
    assert seats >= 2 * points


def test_each_observation_is_a_fresh_array():
    """A learner may keep an observation: the next one must not write over it."""
    g = games.load_game("starcom", players=2, size=3, seed=1)
    features = games.get("starcom").tools.features(g)
    first = features.observe(g, 0)
    kept = first.copy()
    second = features.observe(g, 0)
    second[:] = 7.0
    assert np.array_equal(first, kept) and first is not second
