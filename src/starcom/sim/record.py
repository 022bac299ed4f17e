"""Saved games of any registered game: its settings plus the list of actions, as JSON.

Format ``starcom-game/1``::

    {"format": "starcom-game/1", "game": "ge",
     "config": {"players": 2, "edition": "quick", "seed": 7, "turn_limit": 60},
     "actions": [["reserve", "benakis_belt", "technician"], ["allocate"], ...],
     "agents": ["random", "random"],
     "result": {"over": true, "winner": 1, "turns": 35, "steps": 441}}

``game`` names the game (:mod:`starcom.games`); a file without it is a game of
:data:`~starcom.games.LEGACY_GAME`, as every file was before the platform held a second game.
``config`` holds the settings the entry's ``new`` takes, ``actions`` are the entry's JSON of each
action (``encode``). A game may keep its settings its own way (its entry's
``rules.store_settings`` and ``rules.load_settings``: Star Commander writes no ``game`` and keeps
a balance study's cards in a ``variant`` field beside the config).

Loading replays every action through the entry's ``decode`` and ``play``, so a file that loads is
a legal game. :func:`save_game` and :func:`load_game_record` read and write files;
:func:`to_game_record` and :func:`from_game_record` the JSON.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ReplayError
from ..games import LEGACY_GAME, GameEntry, get, list_games

FORMAT = "starcom-game/1"
# The fields the format defines, in the order a record is written (a game's own fields follow).
FIELDS = ("format", "game", "config", "actions", "agents", "result")


@dataclass
class SavedGame:
    """A saved game of any registered game, checked by replaying it (:func:`from_game_record`).

    ``name``: the game (a registry name); ``config``: its settings as the entry's ``new`` takes
    them; ``actions``: the decoded, legal actions; ``game``: the replayed final position;
    ``movers``: the seat that played each action."""

    name: str
    config: dict[str, Any]
    actions: list[Any]
    agents: list[str] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    game: Any = None
    movers: list[int | None] = field(default_factory=list)

    @property
    def entry(self) -> GameEntry[Any, Any]:
        return get(self.name)


def game_result(entry: GameEntry[Any, Any], game: Any) -> dict[str, Any]:
    """The result block of a record for ``game`` (of ``entry``) in its current state (without
    ``steps``, which :func:`to_game_record` adds)."""
    out: dict[str, Any] = {"over": bool(game.over), "winner": entry.rules.winner(game) if game.over else None}
    if entry.rules.turn is not None:
        out["turns"] = entry.rules.turn(game) + 1
    return out


def _json(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples become lists): what a loaded file holds."""
    return json.loads(json.dumps(value))


def to_game_record(game: str | GameEntry[Any, Any], config: Mapping[str, Any], actions: Sequence[Any],
                   agents: Sequence[str] | None = None, result: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON-ready record of a game of ``game`` (a name or entry) made with the settings
    ``config`` (those its ``new`` takes; ValueError names another), with ``actions`` as the
    game's own action values (each written through the entry's ``encode``)."""
    entry = get(game) if isinstance(game, str) else game
    unknown = sorted(set(config) - set(entry.rules.settings))
    if unknown:
        raise ValueError(f"{entry.name} takes no setting {', '.join(map(repr, unknown))}; "
                         f"it takes {', '.join(entry.rules.settings)}")
    store = entry.rules.store_settings
    stored = _json(store(config) if store is not None else {"game": entry.name, "config": dict(config)})
    acts = _json([entry.rules.encode(a) for a in actions])
    out: dict[str, Any] = {"format": FORMAT}
    out.update((k, stored[k]) for k in ("game", "config") if k in stored)
    out.update(actions=acts, agents=list(agents or []), result=dict(result or {}))
    out["result"].setdefault("steps", len(acts))
    out.update((k, v) for k, v in stored.items() if k not in out)
    return out


def write_record(path: str | Path, record: Mapping[str, Any]) -> Path:
    """Write a record (as :func:`to_game_record` makes) to ``path``, directories created;
    returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n", "utf-8")
    return path


def save_game(path: str | Path, game: str | GameEntry[Any, Any], config: Mapping[str, Any], actions: Sequence[Any],
              agents: Sequence[str] | None = None, result: Mapping[str, Any] | None = None) -> Path:
    """Write a record of a game of ``game`` to ``path`` (see :func:`to_game_record`; directories
    created); returns the path."""
    return write_record(path, to_game_record(game, config, actions, agents, result))


def read_record(path: Path) -> Any:
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


def entry_of(data: Any) -> GameEntry[Any, Any]:
    """The registered game a record is of (its ``"game"``; none: :data:`LEGACY_GAME`);
    ReplayError for a record of another format, or of a game not registered."""
    if not isinstance(data, dict):
        raise ReplayError("a saved game must be a JSON object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise ReplayError(f"unsupported format {fmt!r}: expected {FORMAT!r}")
    name = data.get("game", LEGACY_GAME)
    if not isinstance(name, str):
        raise ReplayError(f"'game' must be the name of a game ({', '.join(list_games())}), not {name!r}")
    try:
        return get(name)
    except ValueError:
        raise ReplayError(f"unknown game {name!r}: the games are {', '.join(list_games())}") from None


# The types of the settings most games share; any other setting is checked by the game's ``new``.
_INTEGER = ("players", "size", "seed")
_LIMITS = ("turn_limit", "action_limit")


def _settings(entry: GameEntry[Any, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    """The settings of a record of ``entry``: the game's own reading of them, else its config,
    checked: its keys, the types of the common settings, the edition and the player count."""
    if entry.rules.load_settings is not None:
        try:
            return entry.rules.load_settings(record)
        except ValueError as exc:
            raise ReplayError(str(exc)) from None
    extra = [k for k in record if k not in FIELDS]
    if extra:
        raise ReplayError(f"unknown field(s) in a saved {entry.title} game: {', '.join(map(repr, extra))} "
                          f"(known: {', '.join(FIELDS)})")
    data = record["config"]
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


def past(step: int, turn: int, max_turn: int) -> ReplayError:
    """The refusal of a game still running at turn ``max_turn`` (from 0). No game with a turn
    limit of at most ``max_turn`` plays that turn, so a reader that accepts no longer limit (the
    server) stops the replay there instead of playing the rest: a file without a turn limit
    costs it at most as much as one with the longest limit it allows."""
    return ReplayError(f"step {step}: the game is still running in turn {turn + 1}; only games that end "
                       f"within {max_turn} turns can be opened")


def replay_game(entry: GameEntry[Any, Any], config: Mapping[str, Any], actions: Iterable[Any],
                movers: list[int | None] | None = None, max_turn: int | None = None) -> tuple[Any, list[Any]]:
    """Play the JSON ``actions`` of ``entry`` from the settings ``config``, each decoded by the
    entry (so checked against the rules) and played: ``(final game, decoded actions)``.
    ReplayError names a bad config or the first bad step (from 1). ``movers``, if given, gets
    the seat that played each action. ``max_turn``: a game still running when the entry's turn
    counter (from 0) reaches it is refused there (see :func:`past`)."""
    try:
        game = entry.rules.new(**config)
    except (ValueError, TypeError) as exc:
        raise ReplayError(f"bad config for {entry.title}: {exc}") from None
    played: list[Any] = []
    turn = entry.rules.turn
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
        if max_turn is not None and turn is not None and not game.over and turn(game) >= max_turn:
            raise past(i, turn(game), max_turn)
    return game, played


def from_game_record(data: Any, max_turn: int | None = None) -> SavedGame:
    """Check and replay a record of any registered game. ReplayError says what is wrong: the
    format, an unknown game, a bad config, an action of the wrong type or illegal (naming its
    step, from 1), or a recorded result the replay does not reach. ``max_turn``: see
    :func:`replay_game`."""
    entry = entry_of(data)
    if "config" not in data:
        raise ReplayError("the record has no 'config'")
    config = _settings(entry, data)
    raw = data.get("actions")
    if not isinstance(raw, list):
        raise ReplayError("'actions' must be a list")
    agents = data.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(x, str) for x in agents):
        raise ReplayError("'agents' must be a list of names")
    result = data.get("result", {})
    if not isinstance(result, dict):
        raise ReplayError("'result' must be an object")
    movers: list[int | None] = []
    game, actions = replay_game(entry, config, raw, movers, max_turn)
    if result.get("over"):
        if not game.over:
            told = (f": the recorded winner {result['winner']!r} does not match the replay's, none"
                    if "winner" in result else "")
            raise ReplayError(f"the record says the game is over, but its replay is not (after "
                              f"{len(actions)} actions){told}")
        winner = entry.rules.winner(game)
        if "winner" in result and result["winner"] != winner:
            raise ReplayError(f"the recorded winner {result['winner']!r} does not match the replay's: {winner}")
    return SavedGame(entry.name, config, actions, list(agents), dict(result), game, movers)


def load_game_record(path: str | Path) -> SavedGame:
    """Read and verify a saved game of any registered game (see :func:`from_game_record`);
    ReplayError (naming the file) also for a missing or unreadable file or bad JSON."""
    path = Path(path)
    data = read_record(path)
    try:
        return from_game_record(data)
    except ReplayError as exc:
        raise ReplayError(f"{path}: {exc}") from None


__all__ = ["FIELDS", "FORMAT", "SavedGame", "entry_of", "from_game_record", "game_result", "load_game_record",
           "past", "read_record", "replay_game", "save_game", "to_game_record", "write_record"]
