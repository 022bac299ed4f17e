"""Every registered game with features for learning agents as an OpenSpiel Python game,
registered as ``python_<name>`` (Star Commander: ``python_starcom``, Galactic Empires:
``python_ge``).

The deal is the one chance node: its outcome (one of ``deals``, uniformly) seeds the game, and
from there the game is a function of the players' actions, as the engine is. Actions are the
stable action IDs of the game's features (its entry's ``tools.features``);
``observation_tensor(player)`` is that seat's observation. The utilities are the game's returns
(1 for the winner, -1 for the others, 0 for a draw). Parameters: ``players``, ``size`` (a game
with board sizes), ``edition`` (a game with editions), ``turn_limit``, ``action_limit``,
``deals``; each defaults to the game's first.

>>> import pyspiel, starcom.rl
>>> starcom.rl.register_spiel()
True
>>> game = pyspiel.load_game("python_starcom", {"players": 2, "size": 3})
"""
from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pyspiel

from .. import games
from .table import Table, TableConfig

def _defaults(name: str) -> dict[str, Any]:
    """The loading parameters of game ``name`` and their defaults: the player count, size and
    edition it offers first (those it has), a turn limit of 60, an action limit of 3000 and
    1000 deals."""
    entry = games.get(name)
    out: dict[str, Any] = {"players": entry.rules.player_counts[0]}
    if entry.rules.sizes:
        out["size"] = entry.rules.sizes[0]
    if entry.rules.editions:
        out["edition"] = entry.rules.editions[0]
    return {**out, "turn_limit": 60, "action_limit": 3000, "deals": 1000}


def game_type(name: str) -> Any:
    """The OpenSpiel type of the registered game ``name`` (``python_<name>``)."""
    entry = games.get(name)
    players = entry.rules.player_counts
    return pyspiel.GameType(
        short_name=f"python_{name}",
        long_name=f"{entry.title} (Python)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_defaults(name))


class StarcomSpielGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one registered game, its settings from the loading parameters:
    :func:`register` makes a subclass for every registered game with features, setting
    ``GAME`` (the registry name) and ``TYPE`` (:func:`game_type`)."""

    GAME: str
    TYPE: Any

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = f"python_{self.GAME}"
        settings = {**_defaults(self.GAME), **(params or {})}
        self.settings = settings
        self.deals = int(settings["deals"])
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")
        if int(settings["action_limit"]) < 1:
            raise ValueError(f"{name} needs an action_limit of at least 1 (OpenSpiel needs a longest game)")
        self.config = TableConfig(game=self.GAME, players=int(settings["players"]), size=int(settings["size"]) if "size" in settings else None,
                                  edition=settings.get("edition"), turn_limit=int(settings["turn_limit"]) or None,
                                  action_limit=int(settings["action_limit"]))
        self.table = Table(self.config)  # ValueError names a bad setting
        players = self.config.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.action_count, max_chance_outcomes=self.deals,
            num_players=players, min_utility=-1.0, max_utility=1.0,
            utility_sum=None, max_game_length=self.config.action_limit)
        super().__init__(self.TYPE, info, settings)

    def new_initial_state(self) -> "StarcomSpielState":
        return StarcomSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "StarcomObserver":
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError(f"python_{self.GAME} gives observations only, not perfect-recall information states")
        return StarcomObserver(self.table.observation_size)


class StarcomSpielState(pyspiel.State):  # type: ignore[misc]
    """One game: a chance node (the deal), then the seats' decisions."""

    def __init__(self, game: StarcomSpielGame) -> None:
        super().__init__(game)
        self.table = copy.copy(game.table)
        self.dealt = False
        self.deals = game.deals

    def current_player(self) -> int:
        if not self.dealt:
            return int(pyspiel.PlayerId.CHANCE)
        game = self.table.game
        mover = game.to_move
        return int(pyspiel.PlayerId.TERMINAL) if mover is None or self.table.truncated else int(mover)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(i for i, _ in self.table.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.deals
        return [(seed, p) for seed in range(self.deals)]

    def _apply_action(self, action: int) -> None:
        if not self.dealt:
            self.table.reset(int(action))
            self.dealt = True
        else:
            self.table.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self.table.features.action_label(int(action)))

    def is_terminal(self) -> bool:
        return self.dealt and (self.table.game.over or self.table.truncated)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.table.players
        return [float(r) for r in self.table.game.returns()]

    def __str__(self) -> str:
        if not self.dealt:
            return "not dealt"
        game = self.table.game
        return f"turn {getattr(game, 'turn', '?')}, to move {game.to_move}, over {game.over}"


class StarcomObserver:
    """Each seat's observation vector (``tensor``), as OpenSpiel's Python observers give it."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StarcomSpielState, player: int) -> None:
        if state.dealt:
            self.tensor[:] = state.table.observation(player)
        else:
            self.tensor[:] = 0.0

    def string_from(self, state: StarcomSpielState, player: int) -> str:
        if not state.dealt:
            return "not dealt"
        view = state.table.game.view(player)
        return f"seat {player}, turn {view.get('turn')}, to move {view.get('to_move')}"


def register() -> None:
    """Register ``python_<name>`` for every registered game with features; again is harmless."""
    known = set(pyspiel.registered_names())
    for name in games.list_games():
        if games.get(name).tools.features is None or f"python_{name}" in known:
            continue
        kind = game_type(name)
        cls = type(f"{name.title()}SpielGame", (StarcomSpielGame,), {"GAME": name, "TYPE": kind})
        pyspiel.register_game(kind, cls)


__all__ = ["StarcomSpielGame", "StarcomSpielState", "register"]
