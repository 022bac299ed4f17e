"""Saved games: the setup (``Config``) plus the list of actions, as JSON.

Format ``starcom-game/1``::

    {"format": "starcom-game/1",
     "config": {"players": 2, "size": 3, "edition": "standard", "seed": 0, "turn_limit": 40},
     "actions": [{"type": "develop", "at": 8}, ...],
     "agents": ["greedy", "random"],
     "result": {"over": true, "winner": 0, "turns": 17, "steps": 211}}

A game of a balance study adds ``"variant"``: the cards it was played with
(:class:`starcom.cards.stand_ins.Variant`: the stand-ins, the seats with the real card, and the
catalogue's text when it is not the built-in one).

``load`` replays the actions, so a file that loads is a legal game.
"""
from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..cards.stand_ins import Variant
from ..engine.actions import from_json, to_json
from ..engine.errors import IllegalAction, ReplayError
from ..engine.game import Game
from ..engine.state import Config

FORMAT = "starcom-game/1"
Action = tuple


def result_of(game: Game) -> dict[str, Any]:
    """The result block of a record for ``game`` in its current state."""
    return {"over": game.over, "winner": game.winner if game.over else None, "turns": game.turn + 1}


def to_record(cfg: Config, actions: Sequence[Any], agents: Sequence[str] | None = None,
              result: dict[str, Any] | None = None, variant: Variant | None = None) -> dict[str, Any]:
    """The JSON-ready record of a game (actions as tuples or JSON dicts), played with the
    built-in cards or ``variant``."""
    acts = [a if isinstance(a, dict) else to_json(tuple(a)) for a in actions]
    out: dict[str, Any] = {"format": FORMAT, "config": asdict(cfg), "actions": acts,
                           "agents": list(agents or []), "result": dict(result or {})}
    out["result"].setdefault("steps", len(acts))
    if variant is not None:
        out["variant"] = variant.to_json()
    return out


def save(path: str | Path, cfg: Config, actions: Sequence[Any], agents: Sequence[str] | None = None,
         result: dict[str, Any] | None = None, variant: Variant | None = None) -> Path:
    """Write a game record to ``path`` (directories created); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(to_record(cfg, actions, agents, result, variant), indent=1) + "\n", "utf-8")
    return path


def _config(data: Any) -> Config:
    if not isinstance(data, dict):
        raise ReplayError("'config' must be an object with the game's settings")
    known = {f.name for f in fields(Config)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ReplayError(f"unknown config field(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    missing = [k for k in ("players", "size", "edition", "seed") if k not in data]
    if missing:
        raise ReplayError(f"config lacks the field(s): {', '.join(missing)}")
    for key in ("players", "size", "seed"):
        if key in data and (not isinstance(data[key], int) or isinstance(data[key], bool)):
            raise ReplayError(f"config field '{key}' must be an integer, not {data[key]!r}")
    if "edition" in data and not isinstance(data["edition"], str):
        raise ReplayError(f"config field 'edition' must be a string, not {data['edition']!r}")
    for key in ("turn_limit", "action_limit"):
        limit = data.get(key)
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)):
            raise ReplayError(f"config field '{key}' must be an integer or null, not {limit!r}")
    return Config(**data)


def replay(cfg: Config, actions: Iterable[Any], variant: Variant | None = None,
           movers: list[int | None] | None = None) -> Game:
    """Play ``actions`` from the setup ``cfg`` (with the cards of ``variant``, if given);
    ReplayError names the first bad step (from 1). ``movers``, if given, gets the seat that
    played each action."""
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
    return game


def from_record(data: Any) -> tuple[Config, list[Action], dict[str, Any]]:
    """Check and decode a record (see :func:`load`)."""
    if not isinstance(data, dict):
        raise ReplayError("a saved game must be a JSON object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise ReplayError(f"unsupported format {fmt!r}: expected {FORMAT!r}")
    if "config" not in data:
        raise ReplayError("the record has no 'config'")
    cfg = _config(data["config"])
    raw = data.get("actions")
    if not isinstance(raw, list):
        raise ReplayError("'actions' must be a list")
    actions: list[Action] = []
    for i, a in enumerate(raw, 1):
        if not isinstance(a, dict):
            raise ReplayError(f"step {i}: an action must be an object like {{\"type\": \"end\"}}, not {a!r}")
        try:
            actions.append(from_json(a))
        except IllegalAction as exc:
            raise ReplayError(f"step {i}: malformed action {a!r}: {exc.reason}") from exc
    agents = data.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(x, str) for x in agents):
        raise ReplayError("'agents' must be a list of names")
    result = data.get("result", {})
    if not isinstance(result, dict):
        raise ReplayError("'result' must be an object")
    variant = None
    if "variant" in data:
        try:
            variant = Variant.from_json(data["variant"])
        except ValueError as exc:
            raise ReplayError(str(exc)) from None
    movers: list[int | None] = []
    game = replay(cfg, actions, variant, movers)
    if "winner" in result and result.get("over") and (not game.over or game.winner != result["winner"]):
        got = game.winner if game.over else "none (the game is not over)"
        raise ReplayError(f"the recorded winner {result['winner']!r} does not match the replay's: {got}")
    return cfg, actions, {"agents": agents, "result": result, "game": game, "variant": variant, "movers": movers}


def load(path: str | Path) -> tuple[Config, list[Action], dict[str, Any]]:
    """Read and verify a saved game: ``(config, actions, meta)``; meta holds ``agents``,
    ``result``, ``game`` (the replayed final position), ``variant`` (None for the built-in
    cards) and ``movers`` (the seat that played each action).

    Raises ReplayError with a clear message for a missing or unreadable file, bad JSON, a wrong
    format, or an action that is malformed or illegal (naming its step number, from 1)."""
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReplayError(f"{path}: is a directory, not a saved game") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(f"{path}: cannot read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    try:
        return from_record(data)
    except ReplayError as exc:
        raise ReplayError(f"{path}: {exc}") from None
