"""The Gymnasium environment: one learning seat, the others played by built-in AIs.

``reset`` deals a game and lets the opponents play until the learner is to move; ``step``
plays the learner's action ID, then the opponents' moves, and returns the learner's next
observation. The reward is the learner's return when the game ends (1 win, -1 loss, 0 draw),
0 before; at ``action_limit`` actions the episode is truncated with reward 0. An ID whose mask is 0 ends the episode as a loss, with the reason in
``info["illegal_action"]``. ``action_masks()`` is the mask sb3-contrib's MaskablePPO asks for.
"""
from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .table import Table, TableConfig


class StarcomGym(gym.Env):  # type: ignore[misc, unused-ignore]  # gym.Env is Any where gymnasium is not installed
    """``opponents``: a built-in AI's name for every other seat, or one name per other seat.
    ``seat``: the learner's seat, or ``"rotate"`` to take each seat in turn, episode by episode
    (so a policy learns every seat)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponents: str | list[str] = "random", seat: int | str = 0,
                 render_mode: str | None = None, **config: Any) -> None:
        self.table = Table(TableConfig(**config))
        n = self.table.players
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"{n} seats need {n - 1} opponent(s), not {len(names)}: {names}")
        self.opponent_names = names
        self.opponents = [self.table.entry.ai.make_agent(name) for name in names]  # ValueError names a bad one
        if seat != "rotate" and (type(seat) is not int or not 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or 'rotate', not {seat!r}")
        self.seat_setting = seat
        self.seat = 0 if seat == "rotate" else int(seat)
        self._episodes = 0
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (self.table.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.table.action_count,), np.int8)})
        self.action_space = spaces.Discrete(self.table.action_count)
        self.render_mode = render_mode
        self._agent_rng = random.Random(0)
        self._ended = True

    def _obs(self) -> dict[str, np.ndarray]:
        return {"observation": self.table.observation(self.seat), "action_mask": self.table.mask(self.seat)}

    def _others_play(self) -> None:
        game = self.table.game
        while (mover := game.to_move) is not None and mover != self.seat and not self.table.truncated:
            agent = self.opponents[(mover - self.seat - 1) % self.table.players]
            self.table.play_action(agent.choose(game, self._agent_rng))

    def _info(self) -> dict[str, Any]:
        game = self.table.game
        return {"legal_actions": [] if game.over or self.table.truncated else self.table.legal(),
                "winner": self.table.entry.rules.winner(game)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        deal = int(self.np_random.integers(2**31))
        self._agent_rng = random.Random(deal)
        if self.seat_setting == "rotate":
            self.seat = self._episodes % self.table.players
        self._episodes += 1
        self.table.reset(deal)
        self._ended = False
        self._others_play()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._ended:
            raise ValueError("the episode is over: call reset()")
        try:
            self.table.play(action)
        except ValueError as exc:
            # An illegal ID loses the game (PettingZoo's classic games rule the same way): the
            # episode ends, the reason in info["illegal_action"].
            info = self._info()
            info["illegal_action"] = str(exc)
            self._ended = True
            return self._obs(), -1.0, True, False, info
        self._others_play()
        game = self.table.game
        reward = float(game.returns()[self.seat]) if game.over else 0.0
        truncated = self.table.truncated
        self._ended = bool(game.over) or truncated
        return self._obs(), reward, bool(game.over), truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal action IDs as booleans (sb3-contrib's MaskablePPO reads this)."""
        return self.table.mask(self.seat, bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        game = self.table.game
        return f"seat {self.seat}: to move {game.to_move}, over {game.over}"


__all__ = ["StarcomGym"]
