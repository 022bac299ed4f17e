"""Star Commander on the server: its :class:`~starcom.server.adapter.EntryAdapter` with option
labels, card sheets, game-over summaries and hints, and its stored config exactly as it always
was (the engine's :class:`~.engine.state.Config`; no ``game`` key, see
:data:`starcom.games.LEGACY_GAME`). The entry's ``server_adapter`` hook makes it.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from ..server.adapter import EntryAdapter, Recorder
from ..server.inputs import NewGame
from ..server.limits import ACTION_LIMIT
from .cards.stand_ins import Variant
from .engine.game import Game
from .engine.state import Config
from ..games import GameEntry


def hint_for(game: Game, seed: str) -> tuple[Any, float]:
    """The hint for ``game.to_move``: (the action the AI would choose, its estimated chance to
    win). The search sees a determinization of that seat's view, never the real hidden cards.
    It runs in the AI pool, so it is a module-level function (a worker process loads it)."""
    from .agents.hint import hint
    seat = game.to_move
    if seat is None:
        raise ValueError("the game is over: there is nothing to hint")
    rng = random.Random(seed)
    seen = game.determinize(seat, rng)
    answer = hint(seen, seed)
    return answer.action, answer.win_chance




class StarcomAdapter(EntryAdapter):
    """Star Commander on the server (its config is the engine's :class:`Config`)."""

    def __init__(self, entry: GameEntry[Any, Any]) -> None:
        super().__init__(entry)

    def check(self, req: NewGame) -> None:
        pass  # the request parser knows Star Commander's settings and AIs

    def config(self, req: NewGame, seed: int) -> dict[str, Any]:
        assert req.size is not None and req.edition is not None  # Star Commander has both (inputs.new_game)
        return asdict(Config(req.players, req.size, req.edition, seed, req.turn_limit, ACTION_LIMIT))

    def create(self, config: Mapping[str, Any]) -> Game:
        variant = config.get("variant")  # an imported study game (Manager.import_game)
        return Game.from_config(self.settings(config), Variant.from_json(variant).rules() if variant else None)

    def settings(self, config: Mapping[str, Any]) -> Config:
        return Config(**{k: v for k, v in config.items() if k != "variant"})

    def stored_config(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """A saved game's settings (:func:`.records.load_settings`: the engine's config, and a
        study's cards in ``variant``) stored as they are: no ``game`` key, as every Star Commander
        game was stored before the platform held a second game."""
        return dict(settings)

    def is_pass(self, action: Any) -> bool:
        return bool(action[0] in ("pass", "done"))

    def is_response_pass(self, action: Any) -> bool:
        return bool(action[0] == "pass")

    def labels(self, game: Any, actions: Sequence[Any], seat: int) -> list[str]:
        from .options import option_labels
        return option_labels(game, list(actions), seat)

    def extras(self, game: Any, action: Any) -> dict[str, Any]:
        from .cards.sheets import sheet_for_action
        sheet = sheet_for_action(game, action)
        return {} if sheet is None else {"card": sheet}

    def over_reason(self, game: Any) -> str | None:
        from .summary import end_reason
        return end_reason(game)

    def turn(self, game: Any) -> int:
        return int(game.turn)

    def recorder(self, game: Any) -> Recorder:
        from .summary import SummaryRecorder
        return SummaryRecorder(game)

    hint = staticmethod(hint_for)  # run in the AI pool: a module-level function



def server_adapter(entry: GameEntry[Any, Any]) -> StarcomAdapter:
    """The adapter the server plays Star Commander (``entry``) with: the entry's
    ``server_adapter`` hook."""
    return StarcomAdapter(entry)


__all__ = ["StarcomAdapter", "hint_for", "server_adapter"]
