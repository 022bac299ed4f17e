"""The RL environments pass their ecosystems' own checkers, at several player counts and sizes,
and refuse bad input by name."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the RL environments need the rl extra: pip install 'starcom[rl]'")
pytest.importorskip("gymnasium", reason="the RL environments need the rl extra: pip install 'starcom[rl]'")

import starcom.rl  # noqa: E402

SETTINGS = [dict(players=2, size=3), dict(players=3, size=4), dict(players=4, size=5),
            dict(players=2, size=3, edition="classic")]


@pytest.mark.parametrize("config", SETTINGS, ids=lambda c: "-".join(map(str, c.values())))
def test_pettingzoo_api_and_seed_tests(config):
    from pettingzoo.test import api_test, seed_test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice to use flat Box spaces: we give a dict with a mask
        api_test(starcom.rl.env(**config), num_cycles=300)
        seed_test(lambda: starcom.rl.env(**config), num_cycles=200)


@pytest.mark.parametrize("config", SETTINGS[:3], ids=lambda c: "-".join(map(str, c.values())))
def test_gymnasium_check_env(config):
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(starcom.rl.gym_env(opponents="random", **config), skip_render_check=True)


@pytest.mark.parametrize("config", [dict(players=2, size=3), dict(players=3, size=4), dict(players=4, size=5)],
                         ids=lambda c: "-".join(map(str, c.values())))
def test_openspiel_random_simulation(config):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open-spiel)")
    assert starcom.rl.register_spiel()
    game = pyspiel.load_game("python_starcom", {**config, "action_limit": 400})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000
    state.apply_action(7)
    assert state.current_player() == state.table.game.to_move >= 0
    assert state.legal_actions() == sorted(state.legal_actions()) != []
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_a_whole_aec_game_gives_each_seat_its_return():
    env = starcom.rl.env(players=3, size=4, turn_limit=8)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].sum() == len(info["legal_actions"]) > 0
        for other in env.possible_agents:
            if other != agent:
                assert env.observe(other)["action_mask"].sum() == 0  # only the agent to move may act
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.unwrapped.table.game
    assert game.over and not env.agents
    assert [totals[a] for a in env.possible_agents] == game.returns()


def test_ids_are_stable_and_their_actions_are_the_legal_ones():
    env = starcom.rl.raw_env()
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    legal = env.infos[env.agent_selection]["legal_actions"]
    game = env.table.game
    assert sorted(a for _, a in legal) == sorted(game.legal_actions())  # none lost at the start
    assert set(np.flatnonzero(obs["action_mask"])) == {i for i, _ in legal}
    end = next(i for i, a in legal if a == ("end",))
    assert env.action_label(end) == "end #0" and env.notation(end) == "end"
    env2 = starcom.rl.raw_env()
    env2.reset(seed=99)
    assert ("end",) in [a for i, a in env2.infos[env2.agent_selection]["legal_actions"] if i == end]


def test_bad_action_ids_are_refused_by_name_and_lose_nothing():
    env = starcom.rl.raw_env()
    env.reset(seed=1)
    before = env.table.game.to_json()
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    for bad, words in [(illegal, "not legal now"), (-1, "outside"), (10**9, "outside"), ("end", "integer"),
                       (None, "give an action ID")]:
        with pytest.raises(ValueError, match=words):
            env.step(bad)
    assert env.table.game.to_json() == before


def test_gym_env_settings_and_illegal_ids():
    with pytest.raises(ValueError, match="unknown agent 'grandmaster'"):
        starcom.rl.gym_env(opponents="grandmaster")
    with pytest.raises(ValueError, match="3 seats need 2 opponent"):
        starcom.rl.gym_env(opponents=["random"], players=3)
    with pytest.raises(ValueError, match="seat must be"):
        starcom.rl.gym_env(seat=5)
    with pytest.raises(ValueError, match="unknown edition"):
        starcom.rl.gym_env(edition="deluxe")
    env = starcom.rl.gym_env(opponents="greedy", seat=1)
    obs, info = env.reset(seed=0)
    assert env.table.game.to_move == 1 and env.action_masks().sum() == len(info["legal_actions"])
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True) and "not legal now" in info["illegal_action"]
    with pytest.raises(ValueError, match="call reset"):
        env.step(0)


def test_gym_rotating_seat_learns_every_seat():
    env = starcom.rl.gym_env(opponents="random", seat="rotate", players=3, size=4)
    seats = []
    for k in range(3):
        env.reset(seed=k)
        seats.append(env.seat)
        assert env.table.game.to_move == env.seat
    assert seats == [0, 1, 2]


def test_bench_prints_the_environment_against_the_engine():
    import json

    from typer.testing import CliRunner

    from starcom.cli.main import app
    result = CliRunner().invoke(app, ["bench", "--rl", "--steps", "300", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout.strip().splitlines()[-1])["rl"]
    assert [(f["players"], f["size"]) for f in figures] == [(2, 3), (4, 5)]
    assert all(f["aec_steps_per_second"] > 0 and f["engine_steps_per_second"] > 0 for f in figures)


def test_the_action_limit_truncates_an_episode_without_a_result():
    """A cap on actions is no game result: a policy must not learn to stall until it."""
    env = starcom.rl.env(action_limit=40)
    env.reset(seed=2)
    for agent in env.agent_iter(max_iter=1000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0.0
            env.step(None)
            continue
        env.step(info["legal_actions"][0][0])
    game = env.unwrapped.table.game
    assert not game.over and game.actions_played == env.unwrapped.table.steps == 40
    gym = starcom.rl.gym_env(opponents="random", action_limit=30)
    obs, info = gym.reset(seed=1)
    truncated = False
    while not truncated:
        obs, reward, terminated, truncated, info = gym.step(info["legal_actions"][0][0])
        assert not terminated and reward == 0.0
    assert gym.table.game.actions_played >= 30 and info["legal_actions"] == []
