"""One game seen through fixed-size numbers: what every RL wrapper of :mod:`starcom.rl` shares.

A :class:`Table` holds a game of a registered kind (:mod:`starcom.games`) and the game's
:class:`~starcom.games.Features` (its entry's ``tools.features``): it gives each seat's
observation and action mask, turns an action ID back into the engine's action, plays it, and
determinizes. The wrappers (PettingZoo, Gymnasium, OpenSpiel) add only their ecosystem's
bookkeeping.
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import games
from ..protocol import Game

@dataclass
class TableConfig:
    """The settings of an environment's games of ``game`` (None: :func:`starcom.games.default_game`;
    the seed comes with each reset). At ``turn_limit`` the game ends as its rules say (Star
    Commander: scored, WIN-2). ``action_limit`` bounds an episode without ending the game: at
    that many actions the episode is *truncated*, with no result for anyone (were the game
    scored there instead, a policy ahead on points learns to stall until then)."""

    game: str = field(default_factory=games.default_game)
    players: int = 2
    size: int | None = None  # None: the game's first board size (a game with sizes)
    edition: str | None = None  # None: the game's first edition
    turn_limit: int | None = 60
    action_limit: int | None = 3000
    extra: dict[str, Any] = field(default_factory=dict)

    def settings(self, seed: int) -> dict[str, Any]:
        """The settings of the game dealt with ``seed``, as many as the game takes."""
        entry = games.get(self.game)
        edition = self.edition or (entry.rules.editions[0] if entry.rules.editions else None)
        size = self.size if self.size is not None else (entry.rules.sizes[0] if entry.rules.sizes else None)
        every = {"players": self.players, "size": size, "edition": edition, "seed": seed,
                 "turn_limit": self.turn_limit}
        return {**{k: v for k, v in every.items() if k in entry.rules.settings and v is not None}, **self.extra}


class Table:
    """A game plus its codec. ``reset(seed)`` deals a new game; the other methods read or
    play the current one. Observations depend only on what each seat may see."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self.entry = games.get(config.game)
        if self.entry.tools.features is None:
            raise ValueError(f"game {config.game!r} has no fixed-size encoding for learning agents")
        probe = games.load_game(config.game, **config.settings(0))
        self.features = self.entry.tools.features(probe)
        self.game: Game = probe
        self.steps = 0  # actions played in this episode
        self._legal: list[Any] | None = None  # the engine's legal actions, listed once per position
        self._ids: list[int] = []  # their IDs (-1: none)
        self._pairs: list[tuple[int, Any]] = []  # (ID, action) of those with an ID
        self._on: list[int] = []  # the IDs of those pairs: where the mask is 1

    def __deepcopy__(self, memo: dict[int, Any]) -> "Table":
        # A copy plays on independently; the codec and the registry entry are shared.
        other = copy.copy(self)
        other.set_game(self.game.clone())
        return other

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def truncated(self) -> bool:
        """Whether the episode has reached ``action_limit`` with the game still running."""
        limit = self.config.action_limit
        return limit is not None and not self.game.over and self.steps >= limit

    @property
    def observation_size(self) -> int:
        return int(self.features.observation_size)

    @property
    def action_count(self) -> int:
        return int(self.features.action_count)

    def reset(self, seed: int) -> None:
        """Deal a new game from ``seed``."""
        self.game = games.load_game(self.config.game, **self.config.settings(seed))
        self.steps = 0
        self._legal = None

    def set_game(self, game: Game) -> None:
        """Continue from ``game`` (a determinization, a loaded position)."""
        self.game = game
        self._legal = None

    def _listed(self) -> tuple[list[Any], list[int]]:
        # The legal actions, their IDs and the mask's ones are worked out once per position:
        # the mask, the infos and the next play all read them.
        if self._legal is None:
            legal = self.game.legal_actions()
            ids = self.features.action_ids(self.game, legal) if legal else []
            self._legal, self._ids = legal, ids
            if not ids or min(ids) >= 0:  # the usual case: every legal action has an ID
                self._pairs, self._on = list(zip(ids, legal)), ids
            else:
                self._pairs = [(i, a) for i, a in zip(ids, legal) if i >= 0]
                self._on = [i for i, _ in self._pairs]
        return self._legal, self._ids

    def observation(self, seat: int) -> np.ndarray:
        """Seat ``seat``'s observation vector."""
        return self.features.observe(self.game, seat)  # type: ignore[no-any-return]

    def mask(self, seat: int, dtype: Any = np.int8) -> np.ndarray:
        """1 for each action ID ``seat`` may play now (all 0 when it is not to move), as
        ``dtype`` (int8, or bool for sb3-contrib)."""
        out = np.zeros(self.action_count, dtype=dtype)
        if self.game.to_move == seat:
            if self._legal is None:
                self._listed()
            out.put(self._on, 1)
        return out

    def legal(self) -> list[tuple[int, Any]]:
        """The seat to move's legal actions with an ID, as (ID, engine action) pairs."""
        if self._legal is None:
            self._listed()
        return self._pairs

    def action(self, action_id: int) -> Any:
        """The engine action that ``action_id`` stands for now; ValueError names why none does."""
        legal, ids = self._listed()
        if type(action_id) is not int and not isinstance(action_id, np.integer):
            raise ValueError(f"an action ID is an integer, not {type(action_id).__name__}")
        action_id = int(action_id)
        if not 0 <= action_id < self.action_count:
            raise ValueError(f"action ID {action_id} is outside 0..{self.action_count - 1}")
        try:
            return legal[ids.index(action_id)]
        except ValueError:
            raise ValueError(f"action ID {action_id} ({self.features.action_label(action_id)}) is not "
                             "legal now: pick one whose action_mask is 1") from None

    def play(self, action_id: int) -> list[Any]:
        """Play ``action_id`` for the seat to move; returns the events."""
        legal = self._legal
        if legal is None:
            legal, _ = self._listed()
        try:  # the usual case, looked up directly; anything else goes through action()
            if type(action_id) is not int or action_id < 0:
                raise ValueError
            act = legal[self._ids.index(action_id)]
        except ValueError:
            act = self.action(action_id)
        self._legal = None
        self.steps += 1
        return self.entry.rules.play(self.game, act)

    def play_action(self, action: Any) -> list[Any]:
        """Play an engine action known to be legal (an opponent's choice)."""
        self._legal = None
        self.steps += 1
        return self.entry.rules.play(self.game, action)

    def determinized(self, seat: int, seed: int) -> Game:
        """A copy of the game in which everything ``seat`` cannot see is redrawn from ``seed``."""
        return self.game.determinize(seat, random.Random(seed))


__all__ = ["Table", "TableConfig"]
