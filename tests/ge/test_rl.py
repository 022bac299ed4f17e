"""Galactic Empires in the RL environments: the ecosystems' checkers, the stable action IDs,
and the leak test at 10,000 seat observations (resampling what a seat cannot see leaves its
observation and mask alone)."""
from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the RL environments need the rl extra: pip install 'starcom[rl]'")
pytest.importorskip("gymnasium", reason="the RL environments need the rl extra: pip install 'starcom[rl]'")

import starcom
import starcom.rl
from starcom.ge.features import FEATURES


@pytest.mark.parametrize("edition", ["full", "quick"])
def test_pettingzoo_api_and_seed_tests(edition: str) -> None:
    from pettingzoo.test import api_test, seed_test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(starcom.rl.env(game="ge", edition=edition), num_cycles=300)
        seed_test(lambda: starcom.rl.env(game="ge", edition=edition), num_cycles=200)


def test_gymnasium_check_env() -> None:
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(starcom.rl.gym_env(game="ge", opponents="random"), skip_render_check=True)


def test_action_ids_are_distinct_stable_and_rarely_missing() -> None:
    missing = total = 0
    for seed in range(12):
        g = starcom.load_game("ge", seed=seed, edition=("full", "quick")[seed % 2])
        rng = random.Random(seed)
        while not g.over and g.s.actions < 2000:
            legal = g.legal_actions()
            ids = FEATURES.action_ids(g, legal)
            known = [i for i in ids if i >= 0]
            assert len(known) == len(set(known)) and ids[0] >= 0
            assert all(0 <= i < FEATURES.action_count for i in known)
            assert FEATURES.action_ids(g.clone(), legal) == ids  # the same position, the same IDs
            missing += len(ids) - len(known)
            total += len(ids)
            g.apply(rng.choice(legal))
    assert missing <= 0.06 * total
    assert FEATURES.action_label(FEATURES.offset["end"]) == "end #0"


def _hidden(game, seat):
    other = game.s.players[1 - seat]
    return ([u for u in other.hand if u not in other.shown], [list(p.deck) for p in game.s.players])


def test_observations_do_not_depend_on_what_a_seat_cannot_see() -> None:
    env = starcom.rl.raw_env(game="ge")
    rng = np.random.default_rng(1)
    checked = changed = 0
    while checked < 10_000:
        env.reset(seed=int(rng.integers(2**31)))
        while not env.table.game.over and checked < 10_000:
            for agent in env.possible_agents:
                seat = env.agent_name_mapping[agent]
                twin = env.determinize(agent, int(rng.integers(2**31)))
                mine, theirs = env.observe(agent), twin.observe(agent)
                assert np.array_equal(mine["observation"], theirs["observation"]), (agent, env.table.game.s.phase)
                assert np.array_equal(mine["action_mask"], theirs["action_mask"])
                changed += _hidden(env.table.game, seat) != _hidden(twin.table.game, seat)
                checked += 1
            legal = env.infos[env.agent_selection]["legal_actions"]
            env.step(legal[int(rng.integers(len(legal)))][0])
    # The redraws did change the hidden cards at most points (not when late in a game both decks
    # are empty and the other hand holds a card or none): the test has teeth.
    assert changed > 0.7 * checked


def test_the_leak_check_would_catch_a_shown_hand(monkeypatch) -> None:
    honest = type(FEATURES).observe

    def leaky(self, g, seat):
        out = honest(self, g, seat)
        out[-1] = sum(g.s.players[1 - seat].hand) / 1000  # a trace of the other hand
        return out

    monkeypatch.setattr(type(FEATURES), "observe", leaky)
    env = starcom.rl.raw_env(game="ge")
    env.reset(seed=3)
    for _ in range(40):  # past the deal, into the first turns
        legal = env.infos[env.agent_selection]["legal_actions"]
        env.step(legal[0][0])
    agent = env.agent_selection
    seat = env.agent_name_mapping[agent]
    twins = [env.determinize(agent, k) for k in range(5)]
    assert any(_hidden(env.table.game, seat) != _hidden(t.table.game, seat)
               and not np.array_equal(env.observe(agent)["observation"], t.observe(agent)["observation"])
               for t in twins)


@pytest.mark.parametrize("edition", ["full", "quick"])
def test_openspiel_plays_galactic_empires(edition: str) -> None:
    """``python_ge`` is registered beside ``python_starcom`` and passes OpenSpiel's own random
    simulation test (legal actions, chance node, returns, observation tensors and strings)."""
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open-spiel)")
    assert starcom.rl.register_spiel()
    game = pyspiel.load_game("python_ge", {"edition": edition, "action_limit": 1500})
    assert game.num_players() == 2 and game.num_distinct_actions() == FEATURES.action_count
    assert "size" not in game.get_parameters()  # GE has no board size
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_ge", {"players": 3})
