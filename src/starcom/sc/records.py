"""Star Commander's saved games: how its settings sit in a ``starcom-game/1`` file, and its own
reader and writer in the engine's types.

Star Commander's files are the format's oldest: no ``"game"`` field (a file without one is a
Star Commander game), the engine's :class:`~.engine.state.Config` as ``config`` (every field,
in order), and a balance study's cards in a ``variant`` field beside it
(:class:`.cards.stand_ins.Variant`: the stand-ins, the seats with the real card, and the
catalogue's text when it is not the built-in one)::

    {"format": "starcom-game/1",
     "config": {"players": 2, "size": 3, "edition": "standard", "seed": 0, "turn_limit": 40,
                "action_limit": null},
     "actions": [{"type": "develop", "at": 8}, ...],
     "agents": ["greedy", "random"],
     "result": {"over": true, "winner": 0, "turns": 17, "steps": 211}}

:func:`store_settings` and :func:`load_settings` are the entry's hooks that the platform's
codec (:mod:`starcom.sim.record`) asks; :func:`save`, :func:`load`, :func:`to_record` and
:func:`from_record` read and write through that codec, in the engine's types.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from ..errors import IllegalAction, ReplayError
from ..games import get
from ..sim.record import entry_of, from_game_record, past, read_record, to_game_record, write_record
from .cards.stand_ins import Variant
from .engine.actions import from_json
from .engine.game import Game
from .engine.state import Config

# This game's registry name; files that name no game are its own (starcom.games.LEGACY_GAME),
# which is why store_settings writes no "game" field.
NAME = "starcom"
Action = tuple[Any, ...]

_REQUIRED = ("players", "size", "edition", "seed")


def store_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a saved game holding ``settings`` (those :data:`STARCOM` takes): every
    field of the config, and the study's cards in ``variant`` when there are some. No ``game``
    field: a file without one is Star Commander's."""
    out: dict[str, Any] = {"config": asdict(Config(**{k: v for k, v in settings.items() if k != "variant"}))}
    if settings.get("variant") is not None:
        out["variant"] = Variant.from_json(settings["variant"]).to_json()
    return out


def load_settings(record: Mapping[str, Any]) -> dict[str, Any]:
    """The settings of a saved game's fields (its config, and its ``variant`` if any); ValueError
    names a missing or unknown field, or one of the wrong type. The ranges are the engine's to
    check when the game is made."""
    data = record["config"]
    if not isinstance(data, dict):
        raise ValueError("'config' must be an object with the game's settings")
    known = [f.name for f in fields(Config)]
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ValueError(f"unknown config field(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise ValueError(f"config lacks the field(s): {', '.join(missing)}")
    for key in ("players", "size", "seed"):
        if not isinstance(data[key], int) or isinstance(data[key], bool):
            raise ValueError(f"config field '{key}' must be an integer, not {data[key]!r}")
    if not isinstance(data["edition"], str):
        raise ValueError(f"config field 'edition' must be a string, not {data['edition']!r}")
    for key in ("turn_limit", "action_limit"):
        limit = data.get(key)
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)):
            raise ValueError(f"config field '{key}' must be an integer or null, not {limit!r}")
    settings = asdict(Config(**data))
    if "variant" in record:
        settings["variant"] = Variant.from_json(record["variant"]).to_json()
    return settings


# --------------------------------------------------------------------------- in the engine's types


def result_of(game: Game) -> dict[str, Any]:
    """The result block of a record for ``game`` in its current state."""
    return {"over": game.over, "winner": game.winner if game.over else None, "turns": game.turn + 1}


def settings_of(cfg: Config, variant: Variant | None = None) -> dict[str, Any]:
    """The entry's settings for the setup ``cfg`` played with the cards of ``variant``."""
    out = asdict(cfg)
    if variant is not None:
        out["variant"] = variant.to_json()
    return out


def to_record(cfg: Config, actions: Sequence[Any], agents: Sequence[str] | None = None,
              result: dict[str, Any] | None = None, variant: Variant | None = None) -> dict[str, Any]:
    """The JSON-ready record of a game (actions as tuples or JSON dicts), played with the
    built-in cards or ``variant``."""
    acts = [from_json(a) if isinstance(a, dict) else tuple(a) for a in actions]
    return to_game_record(get(NAME), settings_of(cfg, variant), acts, agents, result)


def save(path: str | Path, cfg: Config, actions: Sequence[Any], agents: Sequence[str] | None = None,
         result: dict[str, Any] | None = None, variant: Variant | None = None) -> Path:
    """Write a game record to ``path`` (directories created); returns the path."""
    return write_record(path, to_record(cfg, actions, agents, result, variant))


def replay(cfg: Config, actions: Iterable[Any], variant: Variant | None = None,
           movers: list[int | None] | None = None, max_turn: int | None = None) -> Game:
    """Play ``actions`` from the setup ``cfg`` (with the cards of ``variant``, if given);
    ReplayError names the first bad step (from 1). ``movers``, if given, gets the seat that
    played each action. ``max_turn``: a game still running when its turn counter (from 0)
    reaches it is refused there (see :func:`starcom.sim.record.past`)."""
    try:
        game = Game.from_config(cfg, variant.rules() if variant is not None else None)
    except ValueError as exc:
        raise ReplayError(f"bad config: {exc}") from exc
    for i, a in enumerate(actions, 1):
        if movers is not None:
            movers.append(game.to_move)
        try:
            game.apply(a)
        except IllegalAction as exc:
            raise ReplayError(f"step {i}: action {a!r} is illegal: {exc.reason}") from exc
        if max_turn is not None and not game.over and game.turn >= max_turn:
            raise past(i, game.turn, max_turn)
    return game


def from_record(data: Any, max_turn: int | None = None) -> tuple[Config, list[Action], dict[str, Any]]:
    """Check and replay a Star Commander record (see :func:`starcom.sim.record.from_game_record`):
    ``(config, actions, meta)``; meta holds ``agents``, ``result``, ``game`` (the replayed final
    position), ``variant`` (None for the built-in cards) and ``movers`` (the seat that played
    each action). A record of another game is refused, by name."""
    entry = entry_of(data)
    if entry.name != NAME:
        raise ReplayError(f"this is a saved {entry.title} game (\"game\": \"{entry.name}\"), "
                          f"not a Star Commander one")
    saved = from_game_record(data, max_turn)
    config = dict(saved.config)
    variant_json = config.pop("variant", None)
    variant = Variant.from_json(variant_json) if variant_json is not None else None
    actions: list[Action] = list(saved.actions)
    return Config(**config), actions, {"agents": saved.agents, "result": saved.result, "game": saved.game,
                                       "variant": variant, "movers": saved.movers}


def load(path: str | Path) -> tuple[Config, list[Action], dict[str, Any]]:
    """Read and verify a saved Star Commander game: ``(config, actions, meta)`` as
    :func:`from_record` gives them. ReplayError names the file and what is wrong: a missing or
    unreadable file, bad JSON, a wrong format, or an action that is malformed or illegal (naming
    its step number, from 1)."""
    path = Path(path)
    data = read_record(path)
    try:
        return from_record(data)
    except ReplayError as exc:
        raise ReplayError(f"{path}: {exc}") from None


__all__ = ["NAME", "from_record", "load", "load_settings", "replay", "result_of", "save", "settings_of",
           "store_settings", "to_record"]
