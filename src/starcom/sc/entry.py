"""Star Commander as its clients see it: its registry entry (``"starcom"``).

Every client reaches Star Commander through :data:`STARCOM`, never through the modules of this
package: ``starcom.load_game("starcom", players=3, size=4, seed=7)``.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..games import GameEntry, Narrator, Players, Rules, Runnable, Serving, Tools, WebAssets, Words
from ..protocol import Viewer
from .agents import DEFAULT_LEVEL, DIFFICULTIES, make_agent
from .agents import agent_names as _starcom_agent_names
from .observer import STARCOM as STARCOM_OBSERVER

if TYPE_CHECKING:  # the engine loads when a game is made, not when the entry is found
    from .engine.game import Game as StarGame
    from .engine.moves import Action


def _starcom_new(players: int = 2, size: int = 3, edition: str = "standard", seed: int = 0,
                 turn_limit: int | None = None, action_limit: int | None = None,
                 variant: dict[str, Any] | None = None) -> StarGame:
    """``variant``: the cards of a balance study's game, as its saved game records them
    (:class:`starcom.sc.cards.stand_ins.Variant`); None for the built-in cards."""
    from .cards.stand_ins import Variant
    from .engine.game import Game as StarGame
    from .engine.state import Config
    rules = Variant.from_json(variant).rules() if variant is not None else None
    return StarGame.from_config(Config(players, size, edition, seed, turn_limit, action_limit), rules)


def _starcom_encode(action: Action) -> dict[str, Any]:
    from .engine.actions import to_json
    return to_json(action)


def _starcom_decode(game: StarGame, data: Any, seat: int | None) -> Action:
    from .engine.actions import validate
    return validate(game, data, seat)


def _starcom_narrator(game: StarGame, viewer: Viewer, reveal_all: bool = False) -> Narrator:
    from .text import Narrator as StarNarrator
    return StarNarrator(game, viewer, reveal_all=reveal_all)


def _starcom_describe(game: StarGame, action: Action, viewer: Viewer) -> str:
    from .text import describe_action
    return describe_action(game, action, viewer)


def _starcom_end_reason(game: StarGame) -> str | None:
    from .summary import end_reason
    return end_reason(game)


def _starcom_features(game: StarGame) -> Any:
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


def _starcom_play(game: StarGame, action: Action) -> list[Any]:
    return game.apply_unchecked(action)


def _server_adapter(entry: GameEntry[Any, Any]) -> Any:
    from .server import server_adapter
    return server_adapter(entry)


def _starcom_study() -> Any:
    from .study import STUDY
    return STUDY


def _store_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    from .records import store_settings
    return store_settings(settings)


def _load_settings(record: Mapping[str, Any]) -> dict[str, Any]:
    from .records import load_settings
    return load_settings(record)


def _ending(game: StarGame) -> str:
    from .selfplay import ending
    return ending(game)


def _ending_figures(endings: Mapping[str, int], games: int) -> dict[str, Any]:
    from .selfplay import ending_figures
    return ending_figures(endings, games)


# What the speed benchmarks measure: the smallest and the largest table.
_BENCH_SETUPS: tuple[tuple[str, Mapping[str, Any]], ...] = (
    ("2p3", {"players": 2, "size": 3}), ("4p5", {"players": 4, "size": 5}))


# The parts of the platform's commands that read Star Commander's own way, each loaded when asked.

def _detailed_narrator(game: StarGame, viewer: Viewer, reveal_all: bool = False) -> Narrator:
    from .text import Narrator as StarNarrator
    return StarNarrator(game, viewer, verbose=True, reveal_all=reveal_all)


def _setup_words(config: Mapping[str, Any]) -> list[str]:
    from .logs import setup_words
    return setup_words(config)


def _public_settings(game: StarGame, config: Mapping[str, Any]) -> dict[str, Any]:
    from .logs import public_settings
    return public_settings(game, config)


def _standings(game: StarGame) -> list[dict[str, str]]:
    from .logs import standings
    return standings(game)


def _card_sheets() -> list[dict[str, Any]]:
    from .cards.sheets import card_sheets
    return [dict(sheet) for sheet in card_sheets(None)]


def _terminal_app(entry: GameEntry[Any, Any], game: StarGame, seats: Sequence[str], *, ai_delay: float,
                  auto_pass: bool, agent_seed: int, think: float | None, confirm: bool = True) -> Runnable:
    from .tui.app import StarcomApp
    return StarcomApp(entry, game, seats, ai_delay=ai_delay, auto_pass=auto_pass, agent_seed=agent_seed, think=think,
                      confirm=confirm)


def _scenario(spec: Mapping[str, Any]) -> list[str]:
    from .scenario import Scenario, run
    return run(Scenario(str(spec.get("name", "")), dict(spec)))


# The terminal games' words: the table and hand as text, prices, confirmations (sc/terminal.py).

def _table(game: StarGame, viewer: Viewer) -> list[str]:
    from .terminal import table
    return table(game, viewer)


def _hand(game: StarGame, viewer: Viewer) -> list[str]:
    from .terminal import hand
    return hand(game, viewer)


def _status(game: StarGame, seat: int) -> str:
    from .terminal import status
    return status(game, seat)


def _option(game: StarGame, action: Action, seat: int) -> str:
    from .terminal import option
    return option(game, action, seat)


def _irreversible(game: StarGame, action: Action, seat: int) -> str | None:
    from .terminal import irreversible
    return irreversible(game, action, seat)


def _decision(game: StarGame) -> Hashable:
    from .terminal import decision
    return decision(game)


def _starcom_guide(game: StarGame, seat: int) -> str | None:
    from .guide import guide
    return guide(game, seat)


# The browser's table for Star Commander: the diamond board, its players, orders and hand.
WEB = WebAssets(directory=Path(__file__).resolve().parent / "web",
                scripts=("board.js", "camera.js", "cardpop.js", "table.js"), styles=("sc.css",))


STARCOM: GameEntry[StarGame, Action] = GameEntry(
    name="starcom", title="Star Commander", observer=STARCOM_OBSERVER,
    rules=Rules(
        new=_starcom_new, settings=("players", "size", "edition", "seed", "turn_limit", "action_limit", "variant"),
        encode=_starcom_encode, decode=_starcom_decode, play=_starcom_play, turn=lambda g: g.turn,
        winner=lambda g: g.winner if g.over else None, end_reason=_starcom_end_reason,
        waives=lambda a: tuple(a) == ("pass",), editions=("standard", "classic"), player_counts=(2, 3, 4),
        sizes=(3, 4, 5), store_settings=_store_settings, load_settings=_load_settings),
    words=Words(narrator=_starcom_narrator, describe=_starcom_describe, glossary=_card_sheets,
                turn_limit_words="turns in all: every player's turn counts one",
                detailed_narrator=_detailed_narrator, setup_words=_setup_words, public_settings=_public_settings,
                standings=_standings, terminal_app=_terminal_app,
                guide=_starcom_guide, tagline="Explore the diamond, build your fleet, command the stars.",
                table=_table, hand=_hand, status=_status, option=_option, irreversible=_irreversible,
                decision=_decision),
    ai=Players(make_agent=make_agent, agent_names=_starcom_agent_names, levels=tuple(DIFFICULTIES),
               default_level=DEFAULT_LEVEL),
    tools=Tools(features=_starcom_features, invariants=_starcom_invariants, study=_starcom_study,
                ending=_ending, ending_figures=_ending_figures, bench_setups=_BENCH_SETUPS,
                scenario=_scenario),
    serving=Serving(adapter=_server_adapter, web=WEB, help_page="help.html", cards_page="cards.html"),
)


__all__ = ["STARCOM"]
