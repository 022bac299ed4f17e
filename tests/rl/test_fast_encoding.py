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


NAMES = [f"{g}-{'-'.join(map(str, s.values()))}" for g, s, _ in PLAN]


@pytest.mark.parametrize("game,settings,points", PLAN, ids=NAMES)
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


@pytest.mark.parametrize("game,config", [("starcom", {"players": 2, "size": 3}), ("starcom", {"players": 3, "size": 4}),
                                         ("ge", {"edition": "full"})])
def test_the_environments_give_the_reference_observations_and_masks(game, config):
    """Through the AEC environment (its table lists the legal actions once per position and
    builds the mask from them) and the Gymnasium one: every agent's observation and mask are
    the reference encoder's, the mover's mask 1 exactly at the reference IDs of its legal
    actions, and ``legal_actions`` pairs those IDs with their actions in the engine's order."""
    pytest.importorskip("pettingzoo", reason="the RL environments need the rl extra: pip install 'starcom[rl]'")
    import starcom.rl
    env = starcom.rl.raw_env(game=game, **config)
    env.reset(seed=3)
    old = _old(game, env.table.game)
    rng = random.Random(3)
    steps = 0
    while steps < 600:
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            env.reset()
            continue
        g = env.table.game
        legal = g.legal_actions()
        ids = old.action_ids(g, legal)
        for agent in env.possible_agents:
            seat = env.agent_name_mapping[agent]
            seen = env.observe(agent)
            assert np.array_equal(seen["observation"], old.observe(g, seat))
            want = np.zeros(old.action_count, np.int8)
            if agent == env.agent_selection:
                want[[i for i in ids if i >= 0]] = 1
            assert seen["action_mask"].dtype == np.int8 and np.array_equal(seen["action_mask"], want)
        pairs = env.infos[env.agent_selection]["legal_actions"]
        assert pairs == [(i, a) for i, a in zip(ids, legal) if i >= 0]
        env.step(rng.choice(pairs)[0])
        steps += 1
    gym = starcom.rl.gym_env(game=game, **config)
    obs, _ = gym.reset(seed=1)
    masks = gym.action_masks()
    assert masks.dtype == bool and np.array_equal(masks, obs["action_mask"].astype(bool))
