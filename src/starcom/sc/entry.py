"""Star Commander as its clients see it: its registry entry (``"starcom"``).

Every client reaches Star Commander through :data:`STARCOM`, never through the modules of this
package: ``starcom.load_game("starcom", players=3, size=4, seed=7)``.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..games import GameEntry, Narrator, Players, Rules, Serving, Tools, WebAssets, Words
from ..protocol import Game, Viewer
from .agents import DEFAULT_LEVEL, DIFFICULTIES, make_agent
from .agents import agent_names as _starcom_agent_names
from .observer import STARCOM as STARCOM_OBSERVER


def _starcom_new(players: int = 2, size: int = 3, edition: str = "standard", seed: int = 0,
                 turn_limit: int | None = None, action_limit: int | None = None,
                 variant: dict[str, Any] | None = None) -> Game:
    """``variant``: the cards of a balance study's game, as its saved game records them
    (:class:`starcom.sc.cards.stand_ins.Variant`); None for the built-in cards."""
    from .cards.stand_ins import Variant
    from .engine.game import Game as StarGame
    from .engine.state import Config
    rules = Variant.from_json(variant).rules() if variant is not None else None
    return StarGame.from_config(Config(players, size, edition, seed, turn_limit, action_limit), rules)


def _starcom_encode(action: Any) -> Any:
    from .engine.actions import to_json
    return to_json(action)


def _starcom_decode(game: Any, data: Any, seat: int | None) -> Any:
    from .engine.actions import validate
    return validate(game, data, seat)


def _starcom_narrator(game: Any, viewer: Viewer, reveal_all: bool = False) -> Narrator:
    from .text import Narrator as StarNarrator
    return StarNarrator(game, viewer, reveal_all=reveal_all)


def _starcom_describe(game: Any, action: Any, viewer: Viewer) -> str:
    from .text import describe_action
    return describe_action(game, action, viewer)


def _starcom_end_reason(game: Any) -> str | None:
    from .summary import end_reason
    return end_reason(game)


def _starcom_features(game: Any) -> Any:
    from .features import Features
    key = (game.cfg.players, game.cfg.size, id(game.rules))
    found = _FEATURES.get(key)
    if found is None or found[0] is not game.rules:
        found = _FEATURES[key] = (game.rules, Features(game))
    return found[1]


_FEATURES: dict[tuple[int, int, int], tuple[Any, Any]] = {}


def _starcom_invariants() -> tuple[Callable[..., list[str]], Callable[..., list[str]]]:
    from . import invariants
    return invariants.check_state, invariants.check_step


def _starcom_play(game: Any, action: Any) -> list[Any]:
    return game.apply_unchecked(action)  # type: ignore[no-any-return]


def _server_adapter(entry: GameEntry[Any, Any]) -> Any:
    from .server import server_adapter
    return server_adapter(entry)


def _starcom_study() -> Any:
    from .study import STUDY
    return STUDY


def _starcom_guide(game: Any, seat: int) -> str | None:
    from .guide import guide
    return guide(game, seat)


# The browser's table for Star Commander: the diamond board, its players, orders and hand.
WEB = WebAssets(directory=Path(__file__).resolve().parent / "web",
                scripts=("board.js", "camera.js", "cardpop.js", "table.js"), styles=("sc.css",))


STARCOM: GameEntry[Any, Any] = GameEntry(
    name="starcom", title="Star Commander", observer=STARCOM_OBSERVER,
    rules=Rules(
        new=_starcom_new, settings=("players", "size", "edition", "seed", "turn_limit", "action_limit", "variant"),
        encode=_starcom_encode, decode=_starcom_decode, play=_starcom_play, turn=lambda g: g.turn,
        winner=lambda g: g.winner if g.over else None, end_reason=_starcom_end_reason,
        waives=lambda a: tuple(a) == ("pass",), editions=("standard", "classic"), player_counts=(2, 3, 4),
        sizes=(3, 4, 5)),
    words=Words(narrator=_starcom_narrator, describe=_starcom_describe,
                turn_limit_words="turns in all: every player's turn counts one",
                guide=_starcom_guide, tagline="Explore the diamond, build your fleet, command the stars."),
    ai=Players(make_agent=make_agent, agent_names=_starcom_agent_names, levels=tuple(DIFFICULTIES),
               default_level=DEFAULT_LEVEL),
    tools=Tools(features=_starcom_features, invariants=_starcom_invariants, study=_starcom_study),
    serving=Serving(adapter=_server_adapter, web=WEB),
)


__all__ = ["STARCOM"]
