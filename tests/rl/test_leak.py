"""Secrecy of the RL observations: at more than 10,000 random decision points, resampling
everything a seat cannot see (``env.determinize``) leaves its observation and mask unchanged."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the RL environments need the rl extra: pip install 'starcom[rl]'")

import starcom.rl  # noqa: E402
from starcom.sc.features import Features  # noqa: E402

# (players, size, decision points): 10,500 in all.
PLAN = [(2, 3, 4500), (3, 4, 3000), (4, 5, 3000)]


def _hidden(game, seat):
    """What ``seat`` cannot see: the other hands and every deck (to check a redraw changed it)."""
    return ([sorted(h) for q, h in enumerate(game.hands) if q != seat], [list(d) for d in game.decks],
            list(game.sysdeck))


def _walk(env, points, rng):
    """Random decision points of ``env``: yields after each step, playing on to ``points``."""
    seen = 0
    while seen < points:
        env.reset(seed=int(rng.integers(2**31)))
        while not env.table.game.over and seen < points:
            yield
            seen += 1
            legal = env.infos[env.agent_selection]["legal_actions"]
            env.step(legal[int(rng.integers(len(legal)))][0])


def _check(env, rng, points):
    """Compare every seat's observation and mask with those of a determinization for it."""
    changed = checked = 0
    for _ in _walk(env, points, rng):
        for agent in env.possible_agents:
            seat = env.agent_name_mapping[agent]
            twin = env.determinize(agent, int(rng.integers(2**31)))
            mine, theirs = env.observe(agent), twin.observe(agent)
            if not (np.array_equal(mine["observation"], theirs["observation"])
                    and np.array_equal(mine["action_mask"], theirs["action_mask"])):
                return f"{agent} sees a difference at turn {env.table.game.turn}", checked, changed
            if agent == env.agent_selection:
                assert [i for i, _ in env.infos[agent]["legal_actions"]] == \
                    [i for i, _ in twin.infos[agent]["legal_actions"]]
            changed += _hidden(env.table.game, seat) != _hidden(twin.table.game, seat)
            checked += 1
    return None, checked, changed


@pytest.mark.parametrize("players,size,points", PLAN)
def test_observations_do_not_depend_on_what_a_seat_cannot_see(players, size, points):
    env = starcom.rl.raw_env(players=players, size=size)
    leak, checked, changed = _check(env, np.random.default_rng(players), points)
    assert leak is None, leak
    assert checked == points * players
    # The redraws did change what each seat cannot see, almost always: the test has teeth.
    assert changed > 0.9 * checked


def test_the_check_finds_a_planted_leak(monkeypatch):
    """An encoder that shows the next seat's hand is caught at once."""
    honest = Features.observe

    def leaky(self, g, seat):
        out = honest(self, g, seat)
        for c in g.hands[(seat + 1) % g.cfg.players]:
            out[self.layout["hand"][0] + self._def[c]] += 0.5
        return out

    monkeypatch.setattr(Features, "observe", leaky)
    env = starcom.rl.raw_env()
    leak, checked, _ = _check(env, np.random.default_rng(0), 2000)
    assert leak is not None and "sees a difference" in leak and checked < 2000


def test_determinize_keeps_the_agents_bookkeeping_and_plays_on():
    env = starcom.rl.raw_env(players=3, size=4)
    env.reset(seed=5)
    agent = env.agent_selection
    twin = env.determinize(agent, 1)
    assert twin.agent_selection == agent and twin.table.game is not env.table.game
    legal = twin.infos[agent]["legal_actions"]
    twin.step(legal[0][0])  # the copy plays on; the original is untouched
    assert env.table.game.actions_played == 0 and twin.table.game.actions_played == 1
    with pytest.raises(KeyError):
        env.determinize("player_9", 1)
