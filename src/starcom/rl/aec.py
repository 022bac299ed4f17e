"""The PettingZoo AEC environment: every seat an agent, ``player_0`` .. ``player_{n-1}``.

Each observation is ``{"observation": float32 vector, "action_mask": int8 vector}``; the action
space is the game's fixed set of stable action IDs (its entry's ``tools.features``). The agent to move
also finds in its ``infos`` the engine's actions behind its legal IDs (``legal_actions``: a list
of ``(id, action)``) and their notation on request through :meth:`StarcomAEC.notation`.
Rewards come at the end: each seat's return (1 for the winner, -1 for the others, 0 for a draw).
An episode that reaches ``action_limit`` is truncated, every reward 0.
"""
from __future__ import annotations

import copy
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .table import Table, TableConfig


class StarcomAEC(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment of one registered game (``game``; the default game
    otherwise), the other keywords those of :class:`~.table.TableConfig`."""

    metadata = {"name": "starcom_v1", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, **config: Any) -> None:
        super().__init__()
        self.table = Table(TableConfig(**config))
        n = self.table.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (self.table.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.table.action_count,), np.int8)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.table.action_count) for a in self.possible_agents}
        self.render_mode = render_mode
        self._seed: int | None = None
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed``, or from the environment's own generator (seeded by
        the last seed given, so a seeded environment replays its episodes)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        elif not hasattr(self, "_rng"):
            self._rng = np.random.default_rng()
        self.table.reset(int(self._rng.integers(2**31)))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        table = self.table
        game = table.game
        limit = table.config.action_limit
        if game.over or (limit is not None and table.steps >= limit):  # over, or truncated
            returns = game.returns()  # all 0 while the game runs: a truncated episode has no result
            for a in self.agents:
                self.rewards[a] = float(returns[self.agent_name_mapping[a]])
                self.terminations[a] = game.over
                self.truncations[a] = not game.over
                self.infos[a] = {}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        seat = game.to_move
        assert seat is not None, "a game that is not over has a seat to move"
        mover = self.possible_agents[seat]
        self.agent_selection = mover
        infos = self.infos
        for a in self.agents:
            infos[a] = {}
        infos[mover] = {"legal_actions": table.legal()}

    def step(self, action: int | None) -> None:
        """Play ``action`` (an ID whose mask is 1) for the agent selected; None for an agent
        whose episode has ended. ValueError names an ID that is not legal now."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: give an action ID, not None")
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        for a in self.agents:
            rewards[a] = 0.0
        self.table.play(action)
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        table = self.table
        return {"observation": table.features.observe(table.game, seat), "action_mask": table.mask(seat)}

    # ------------------------------------------------------------------ extras
    def notation(self, action_id: int) -> str:
        """The legal action ``action_id`` in the engine's notation (``jump Corvette#93 b2``)."""
        return str(self.table.game.notation(self.table.action(action_id)))

    def action_label(self, action_id: int) -> str:
        """What ``action_id`` means in every game of this setting."""
        return str(self.table.features.action_label(action_id))

    def determinize(self, agent: str, seed: int) -> "StarcomAEC":
        """A copy of this environment in which everything ``agent`` cannot see (the other
        hands, the decks, face-down systems) is redrawn from ``seed``, consistently with what
        ``agent`` has seen. ``agent``'s observations and masks are the same in the copy."""
        other = copy.copy(self)
        other.table = copy.copy(self.table)
        other.table.set_game(self.table.determinized(self.agent_name_mapping[agent], seed))
        other.rewards, other._cumulative_rewards = dict(self.rewards), dict(self._cumulative_rewards)
        other.terminations, other.truncations = dict(self.terminations), dict(self.truncations)
        other.agents = list(self.agents)
        other.infos = {a: {} for a in self.agents}
        if not (other.table.game.over or other.table.truncated):
            other._select()
        return other

    def render(self) -> str | None:
        """A text picture of the game as a spectator sees it (render_mode "ansi")."""
        if self.render_mode != "ansi":
            return None
        game = self.table.game
        return f"{self.table.config.game}: turn {getattr(game, 'turn', '?')}, to move {game.to_move}, over {game.over}"

    def close(self) -> None:
        pass


def env(**config: Any) -> StarcomAEC:
    """A PettingZoo AEC environment (``players`` 2–4, ``size`` 3–5, ``edition``, ``turn_limit``,
    ``action_limit``; ``render_mode="ansi"``), wrapped in PettingZoo's order enforcer."""
    from pettingzoo.utils import wrappers
    return wrappers.OrderEnforcingWrapper(StarcomAEC(**config))  # type: ignore[no-any-return]


raw_env = StarcomAEC

__all__ = ["StarcomAEC", "env", "raw_env"]
