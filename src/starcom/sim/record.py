"""Saved games: the setup (``Config``) plus the list of actions, as JSON.

Format ``starcom-game/1``::

    {"format": "starcom-game/1",
     "config": {"players": 2, "size": 3, "edition": "standard", "seed": 0, "turn_limit": 40},
     "actions": [{"type": "develop", "at": 8}, ...],
     "agents": ["greedy", "random"],
     "result": {"over": true, "winner": 0, "turns": 17, "steps": 211}}

A game of a balance study adds ``"variant"``: the cards it was played with
(:class:`starcom.sc.cards.stand_ins.Variant`: the stand-ins, the seats with the real card, and the
catalogue's text when it is not the built-in one).

``load`` replays the actions, so a file that loads is a legal game.

Any other registered game (:mod:`starcom.games`) is saved in the same format with a ``"game"``
key naming it (no key: Star Commander, so every older file stays valid); its ``config`` holds
the settings its entry's ``new`` takes and its actions are the entry's JSON (``encode``)::

    {"format": "starcom-game/1", "game": "ge",
     "config": {"players": 2, "edition": "quick", "seed": 7, "turn_limit": 60},
     "actions": [["reserve", "benakis_belt", "technician"], ["allocate"], ...],
     "agents": ["random", "random"],
     "result": {"over": true, "winner": 1, "turns": 35, "steps": 441}}

:func:`save_game` and :func:`load_game_record` (:func:`to_game_record`,
:func:`from_game_record` for the JSON) handle a file of any game, Star Commander's included;
loading replays every action through the entry's ``decode`` and ``play``. :func:`save`,
:func:`load`, :func:`to_record` and :func:`from_record` are Star Commander's own.
"""
from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..sc.cards.stand_ins import Variant
from ..sc.engine.actions import from_json, to_json
from ..errors import IllegalAction, ReplayError
from ..sc.engine.game import Game
from ..sc.engine.state import Config

if TYPE_CHECKING:
    from ..games import GameEntry

FORMAT = "starcom-game/1"
STARCOM = "starcom"  # the game of a record without a "game" key


def _games() -> Any:
    """The registry (:mod:`starcom.games`), looked up when a record of some game is read or
    written. Not imported by name: the registry leads to Star Commander's card study, which
    writes this module's records (starcom.sc.study), so an import here would close a cycle of
    the import graph (tests/test_import_graph.py). ``import starcom`` has loaded it already."""
    return importlib.import_module("starcom.games")


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
           movers: list[int | None] | None = None, max_turn: int | None = None) -> Game:
    """Play ``actions`` from the setup ``cfg`` (with the cards of ``variant``, if given);
    ReplayError names the first bad step (from 1). ``movers``, if given, gets the seat that
    played each action. ``max_turn``: a game still running when its turn counter (from 0)
    reaches it is refused there (see :func:`_past`)."""
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
            raise _past(i, game.turn, max_turn)
    return game


def _past(step: int, turn: int, max_turn: int) -> ReplayError:
    """The refusal of a game still running at turn ``max_turn`` (from 0). No game with a turn
    limit of at most ``max_turn`` plays that turn, so a reader that accepts no longer limit (the
    server) stops the replay there instead of playing the rest: a file without a turn limit
    costs it at most as much as one with the longest limit it allows."""
    return ReplayError(f"step {step}: the game is still running in turn {turn + 1}; only games that end "
                       f"within {max_turn} turns can be opened")


def from_record(data: Any, max_turn: int | None = None) -> tuple[Config, list[Action], dict[str, Any]]:
    """Check and decode a record (see :func:`load`); ``max_turn``: see :func:`replay`."""
    _check_format(data)
    name = data.get("game", STARCOM)
    if name != STARCOM:
        entry = _entry(name)
        raise ReplayError(f"this is a saved {entry.title} game (\"game\": {json.dumps(name)}), not a Star Commander one")
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
    game = replay(cfg, actions, variant, movers, max_turn)
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
    data = _read(path)
    try:
        return from_record(data)
    except ReplayError as exc:
        raise ReplayError(f"{path}: {exc}") from None


def _read(path: Path) -> Any:
    """The JSON of the file at ``path``; ReplayError for a missing or unreadable file or bad JSON."""
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise ReplayError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReplayError(f"{path}: is a directory, not a saved game") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(f"{path}: cannot read: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None


def _check_format(data: Any) -> None:
    if not isinstance(data, dict):
        raise ReplayError("a saved game must be a JSON object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise ReplayError(f"unsupported format {fmt!r}: expected {FORMAT!r}")


def _entry(name: Any) -> GameEntry[Any, Any]:
    """The registered game ``name`` (a record's ``"game"``); ReplayError for another."""
    games = _games()
    if not isinstance(name, str):
        raise ReplayError(f"'game' must be the name of a game ({', '.join(games.list_games())}), not {name!r}")
    try:
        entry: GameEntry[Any, Any] = games.get(name)
    except ValueError:
        raise ReplayError(f"unknown game {name!r}: the games are {', '.join(games.list_games())}") from None
    return entry


# --------------------------------------------------------------------------- any game


@dataclass
class SavedGame:
    """A saved game of any registered game, checked by replaying it (:func:`from_game_record`).

    ``name``: the game (``"starcom"``, ``"ge"``, ...); ``config``: its settings as the entry's
    ``new`` takes them (Star Commander's: its ``Config`` fields, plus ``variant`` for a study
    game); ``actions``: the decoded, legal actions; ``game``: the replayed final position;
    ``movers``: the seat that played each action; ``variant``: a Star Commander study game's
    cards (None otherwise)."""

    name: str
    config: dict[str, Any]
    actions: list[Any]
    agents: list[str] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    game: Any = None
    movers: list[int | None] = field(default_factory=list)
    variant: Variant | None = None

    @property
    def entry(self) -> GameEntry[Any, Any]:
        entry: GameEntry[Any, Any] = _games().get(self.name)
        return entry


def game_result(entry: GameEntry[Any, Any], game: Any) -> dict[str, Any]:
    """The result block of a record for ``game`` (of ``entry``) in its current state (without
    ``steps``, which :func:`to_game_record` adds)."""
    turns = entry.rules.turn(game) + 1 if entry.rules.turn is not None else None
    out: dict[str, Any] = {"over": bool(game.over), "winner": entry.rules.winner(game) if game.over else None}
    if turns is not None:
        out["turns"] = turns
    return out


def to_game_record(game: str | GameEntry[Any, Any], config: Mapping[str, Any], actions: Sequence[Any],
                   agents: Sequence[str] | None = None, result: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON-ready record of a game of ``game`` (a name or entry) made with the settings
    ``config`` (those its ``new`` takes), with ``actions`` as the game's own action values
    (each is written through the entry's ``encode``). A Star Commander game is written exactly
    as :func:`to_record` writes it (no ``"game"`` key; ``config`` may hold ``variant``)."""
    entry: GameEntry[Any, Any] = _games().get(game) if isinstance(game, str) else game
    config = dict(config)
    if entry.name == STARCOM:
        variant = config.pop("variant", None)
        return to_record(Config(**config), actions, agents, dict(result or {}),
                         Variant.from_json(variant) if variant is not None else None)
    unknown = sorted(set(config) - set(entry.rules.settings))
    if unknown:
        raise ValueError(f"{entry.name} takes no setting {', '.join(map(repr, unknown))}; "
                         f"it takes {', '.join(entry.rules.settings)}")
    acts = json.loads(json.dumps([entry.rules.encode(a) for a in actions]))
    out: dict[str, Any] = {"format": FORMAT, "game": entry.name, "config": json.loads(json.dumps(config)),
                           "actions": acts, "agents": list(agents or []), "result": dict(result or {})}
    out["result"].setdefault("steps", len(acts))
    return out


def save_game(path: str | Path, game: str | GameEntry[Any, Any], config: Mapping[str, Any], actions: Sequence[Any],
              agents: Sequence[str] | None = None, result: Mapping[str, Any] | None = None) -> Path:
    """Write a record of a game of ``game`` to ``path`` (see :func:`to_game_record`; directories
    created); returns the path."""
    path = Path(path)
    record = to_game_record(game, config, actions, agents, result)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n", "utf-8")
    return path


# The types of the settings most games share; any other setting is checked by the game's ``new``.
_INTEGER = ("players", "size", "seed")
_LIMITS = ("turn_limit", "action_limit")


def _settings(entry: GameEntry[Any, Any], data: Any) -> dict[str, Any]:
    """A record's config for ``entry``, checked: its keys, the types of the common settings,
    and the edition."""
    if not isinstance(data, dict):
        raise ReplayError(f"'config' must be an object with the settings of {entry.title} "
                          f"({', '.join(entry.rules.settings)})")
    unknown = sorted(set(data) - set(entry.rules.settings))
    if unknown:
        raise ReplayError(f"unknown config field(s) for {entry.title}: {', '.join(map(str, unknown))} "
                          f"(known: {', '.join(entry.rules.settings)})")
    if "seed" in entry.rules.settings and "seed" not in data:
        raise ReplayError("config lacks the field 'seed' (the deal cannot be replayed without it)")
    for key in _INTEGER:
        if key in data and (not isinstance(data[key], int) or isinstance(data[key], bool)):
            raise ReplayError(f"config field '{key}' must be an integer, not {data[key]!r}")
    for key in _LIMITS:
        limit = data.get(key)
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)):
            raise ReplayError(f"config field '{key}' must be an integer or null, not {limit!r}")
    if "edition" in data:
        edition = data["edition"]
        if not isinstance(edition, str):
            raise ReplayError(f"config field 'edition' must be a string, not {edition!r}")
        if entry.rules.editions and edition not in entry.rules.editions:
            raise ReplayError(f"unknown edition {edition!r} of {entry.title}: choose one of "
                              f"{', '.join(entry.rules.editions)}")
    if "players" in data and entry.rules.player_counts and data["players"] not in entry.rules.player_counts:
        raise ReplayError(f"{entry.title} is for {' or '.join(map(str, entry.rules.player_counts))} players, "
                          f"not {data['players']}")
    if "options" in data and data["options"] is not None and not isinstance(data["options"], dict):
        raise ReplayError(f"config field 'options' must be an object or null, not {data['options']!r}")
    return dict(data)


def _reason(exc: Exception) -> str:
    reason = getattr(exc, "reason", None)
    return reason if isinstance(reason, str) and reason else str(exc) or type(exc).__name__


def replay_game(entry: GameEntry[Any, Any], config: Mapping[str, Any], actions: Iterable[Any],
                movers: list[int | None] | None = None, max_turn: int | None = None) -> tuple[Any, list[Any]]:
    """Play the JSON ``actions`` of ``entry`` from the settings ``config``, each decoded by the
    entry (so checked against the rules) and played: ``(final game, decoded actions)``.
    ReplayError names a bad config or the first bad step (from 1). ``movers``, if given, gets
    the seat that played each action. ``max_turn``: a game still running when the entry's turn
    counter (from 0) reaches it is refused there (as by :func:`replay`)."""
    try:
        game = entry.rules.new(**config)
    except (ValueError, TypeError) as exc:
        raise ReplayError(f"bad config for {entry.title}: {exc}") from None
    played: list[Any] = []
    for i, data in enumerate(actions, 1):
        if game.over:
            raise ReplayError(f"step {i}: action {data!r} comes after the end of the game "
                              f"(it ended after step {i - 1})")
        seat = game.to_move
        try:
            act = entry.rules.decode(game, data, None)
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            raise ReplayError(f"step {i}: action {data!r} is illegal: {_reason(exc)}") from None
        try:
            entry.rules.play(game, act)
        except (ValueError, TypeError, KeyError, IndexError) as exc:  # decode said legal: still refuse
            raise ReplayError(f"step {i}: action {data!r} could not be played: {_reason(exc)}") from None
        if movers is not None:
            movers.append(seat)
        played.append(act)
        if max_turn is not None and entry.rules.turn is not None and not game.over and entry.rules.turn(game) >= max_turn:
            raise _past(i, entry.rules.turn(game), max_turn)
    return game, played


def from_game_record(data: Any, max_turn: int | None = None) -> SavedGame:
    """Check and replay a record of any registered game (its ``"game"``; none: Star Commander,
    through :func:`from_record`). ReplayError says what is wrong: the format, an unknown game,
    a bad config, an action of the wrong type or illegal (naming its step, from 1), or a
    recorded result the replay does not reach. ``max_turn``: see :func:`replay_game`."""
    _check_format(data)
    entry = _entry(data.get("game", STARCOM))
    if entry.name == STARCOM:
        cfg, actions, meta = from_record(data, max_turn)
        config = asdict(cfg)
        if meta["variant"] is not None:
            config["variant"] = meta["variant"].to_json()
        return SavedGame(STARCOM, config, actions, meta["agents"], meta["result"], meta["game"],
                         meta["movers"], meta["variant"])
    if "config" not in data:
        raise ReplayError("the record has no 'config'")
    config = _settings(entry, data["config"])
    raw = data.get("actions")
    if not isinstance(raw, list):
        raise ReplayError("'actions' must be a list")
    agents = data.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(x, str) for x in agents):
        raise ReplayError("'agents' must be a list of names")
    result = data.get("result", {})
    if not isinstance(result, dict):
        raise ReplayError("'result' must be an object")
    if "variant" in data:
        raise ReplayError(f"'variant' (a Star Commander study's cards) has no meaning in a saved {entry.title} game")
    movers: list[int | None] = []
    game, actions = replay_game(entry, config, raw, movers, max_turn)
    if result.get("over"):
        winner = entry.rules.winner(game) if game.over else None
        if not game.over:
            raise ReplayError(f"the record says the game is over, but its replay is not (after "
                              f"{len(actions)} actions)")
        if "winner" in result and result["winner"] != winner:
            raise ReplayError(f"the recorded winner {result['winner']!r} does not match the replay's: {winner}")
    return SavedGame(entry.name, config, actions, list(agents), dict(result), game, movers)


def load_game_record(path: str | Path) -> SavedGame:
    """Read and verify a saved game of any registered game (see :func:`from_game_record`);
    ReplayError (naming the file) also for a missing or unreadable file or bad JSON."""
    path = Path(path)
    data = _read(path)
    try:
        return from_game_record(data)
    except ReplayError as exc:
        raise ReplayError(f"{path}: {exc}") from None
