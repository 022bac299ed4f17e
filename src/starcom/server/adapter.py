"""What the server needs of a game, behind one adapter per kind of game.

A :class:`~.sessions.Session` never calls a game's modules itself: it asks its adapter to turn a
checked creation request into a stored config, build the game from that config, turn actions
into JSON and back (checked against the rules), play them, put them into words for each viewer,
and (where the game has them) label the options, show card sheets, explain the ending and
give hints. What each seat may see comes from the adapter's observer only.

:class:`EntryAdapter` serves any registered game (:mod:`starcom.games`) with plain defaults; a
game whose entry has a ``server_adapter`` hook brings its own subclass (option labels, card
sheets, summaries, hints). :func:`adapter_for` finds the adapter a stored config names (a config
without a ``game`` key is :data:`~starcom.games.LEGACY_GAME`'s).
"""
from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import ReplayError
from ..games import LEGACY_GAME, GameEntry, Narrator
from ..games import get as get_game
from ..observer import Observer
from ..protocol import Agent, Viewer
from .errors import ApiError
from .inputs import HUMAN, NewGame
from .limits import TURN_LIMITS, import_limits


HINT_ITERATIONS = 12  # playouts of a hint by the shared search (well under a second in the games here)


def search_hint(game_name: str, game: Any, seed: str) -> tuple[Any, float | None]:
    """The hint of a game whose adapter brings no hint of its own: the choice of its ISMCTS agent
    with a fixed budget (so the same position and seed give the same hint), searched on a
    determinization of the seat's view, and the seat's chance to win by the game's own estimate
    (its entry's ``ai.win_chance``, on that determinization; None for a game without one).
    Module-level, with the game's name first, so the AI pool's worker processes can run it."""
    seat = game.to_move
    if seat is None:
        raise ValueError("the game is over: there is nothing to hint")
    rng = random.Random(seed)
    ai = get_game(game_name).ai
    agent = ai.make_agent("ismcts", iterations=HINT_ITERATIONS)
    seen = game.determinize(seat, rng)
    action = agent.choose(seen, rng)
    chance = None if ai.win_chance is None else float(ai.win_chance(seen, seat, rng))
    return action, chance


@dataclass(frozen=True)
class Settings:
    """A stored config of a game the plain adapter serves, as the replay endpoint shows it."""

    game: str
    players: int
    size: int | None
    edition: str | None
    seed: int
    turn_limit: int | None = None


@dataclass(frozen=True)
class Imported:
    """A finished game read from a saved-game file: the config to store, each action (JSON)
    with the seat that played it, the final turn counter, the winner, and the names of its
    players."""

    config: dict[str, Any]
    steps: list[tuple[Any, int]]
    turn: int
    winner: int | None
    players: list[str]


class EntryAdapter:
    """The server's view of the registered game ``entry``. Its stored config holds the game's
    name and the request's players, size and edition (where the game has them), seed and turn
    limit (the lobby shows the first three); the game is made from those of them it takes."""

    hint: Callable[[Any, str], tuple[Any, float | None]] | None = None  # no hints unless a game has them

    def __init__(self, entry: GameEntry[Any, Any]) -> None:
        self.entry = entry
        self.name = entry.name
        self.observer: Observer = entry.observer
        self.default_level = entry.ai.default_level
        if entry.ai.evaluate is not None and "ismcts" in entry.ai.agent_names():  # the shared search plays it
            self.hint = functools.partial(search_hint, entry.name)

    # ------------------------------------------------------------------ setup
    def check(self, req: NewGame) -> None:
        """400 for an AI seat or takeover level this game has no player for."""
        known = self.entry.ai.agent_names()
        asked = [k[3:] for k in req.seats if k != HUMAN] + ([req.takeover_level] if req.takeover_level else [])
        for name in asked:
            if name not in known:
                raise ApiError(400, f"{self.entry.title} has no AI {name!r}: use one of {', '.join(known)}")

    def config(self, req: NewGame, seed: int) -> dict[str, Any]:
        """The config stored for a new game (JSON-ready)."""
        config = {"game": self.name, "players": req.players, "size": req.size, "edition": req.edition,
                  "seed": seed, "turn_limit": req.turn_limit}
        return {k: v for k, v in config.items() if v is not None or k == "turn_limit"}

    def create(self, config: Mapping[str, Any]) -> Any:
        """The game a stored config describes (ValueError for a bad one)."""
        return self.entry.rules.new(**{k: config[k] for k in self.entry.rules.settings if k in config})

    def settings(self, config: Mapping[str, Any]) -> Any:
        """The stored config as a dataclass (the replay endpoint shows it)."""
        return Settings(game=str(config["game"]), players=int(config["players"]), size=config.get("size"),
                        edition=config.get("edition"), seed=int(config["seed"]), turn_limit=config.get("turn_limit"))

    def import_record(self, data: dict[str, Any]) -> Imported:
        """A ``starcom-game/1`` file of this game (:mod:`starcom.sim.record`, its ``"game"``
        naming it), every action checked by replaying it; 400 names what is wrong, and a game
        that is not finished is refused (the browser replays finished games only). So is a file
        that asks for longer limits than the server's or holds more actions than they allow
        (before any replay: :func:`.limits.import_limits`), and one without a turn limit that
        runs past the longest the server allows (its replay stops there)."""
        from ..sim.record import from_game_record
        named = data.get("game", LEGACY_GAME) if isinstance(data, dict) else None
        if named is not None and named != self.name:
            raise ApiError(400, f"not a saved game that can be opened: the file is a game of {named!r}, "
                                f"not of {self.entry.title} ({self.name!r})")
        check_import_limits(data, self.entry.serving.turn_limit_in)
        try:
            saved = from_game_record(data, TURN_LIMITS[1])
        except ReplayError as exc:
            raise ApiError(400, f"not a saved game that can be opened: {exc}") from None
        game = saved.game
        if not game.over:
            raise ApiError(400, "the saved game is not finished: only finished games can be replayed")
        config = self.stored_config(saved.config)
        config.setdefault("players", int(game.players))
        config.setdefault("turn_limit", None)
        # every action was legal, so each had a seat to play it (none is left out)
        steps = [(self.encode(a), seat) for a, seat in zip(saved.actions, saved.movers) if seat is not None]
        return Imported(config, steps, self.turn(game), self.winner(game), list(saved.agents))

    def stored_config(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """The config this adapter stores, and creates games from, for a game of ``settings``
        (as a saved game's file holds them, read by the entry's ``rules.load_settings`` where it
        has one): the game's name and the settings."""
        return {"game": self.name, **settings}

    # ------------------------------------------------------------------ actions
    def encode(self, action: Any) -> Any:
        return self.entry.rules.encode(action)

    def decode(self, game: Any, data: Any, seat: int | None) -> Any:
        """The legal action ``data`` (JSON) stands for; a ValueError subclass (such as
        IllegalAction) says why not."""
        return self.entry.rules.decode(game, data, seat)

    def play(self, game: Any, action: Any) -> list[Any]:
        """Play a checked action; its events."""
        return self.entry.rules.play(game, action)

    def is_pass(self, action: Any) -> bool:
        """Whether ``action`` only gives the decision away (the server may make it for a seat)."""
        return self.entry.rules.waives(action)

    def is_response_pass(self, action: Any) -> bool:
        """Whether ``action`` declines to respond (made for seats that do not stop at responses)."""
        return self.entry.rules.waives(action)

    def make_agent(self, name: str) -> Agent:
        return self.entry.ai.make_agent(name)

    # ------------------------------------------------------------------ words and state
    def narrator(self, game: Any, viewer: Viewer) -> Narrator:
        return self.entry.words.narrator(game, viewer, False)

    def describe(self, game: Any, action: Any, viewer: Viewer) -> str:
        return self.entry.words.describe(game, action, viewer)

    def labels(self, game: Any, actions: Sequence[Any], seat: int) -> list[str]:
        """A short label for each of ``actions`` (legal for ``seat``)."""
        return [self.entry.words.describe(game, a, seat) for a in actions]

    def extras(self, game: Any, action: Any) -> dict[str, Any]:
        """More fields for a legal option's entry in a state message (say, a card sheet)."""
        return {}

    def over_reason(self, game: Any) -> str | None:
        return None

    def guide(self, game: Any, seat: int) -> str | None:
        """What the decision in front of ``seat`` (the seat to move) asks of it, for a newcomer:
        the entry's ``words.guide`` (None without one)."""
        hook = self.entry.words.guide
        return None if hook is None else hook(game, seat)

    def table_lines(self, game: Any, viewer: Viewer) -> list[str] | None:
        """The table as ``viewer`` may see it, in lines of text (the entry's ``words.table``, which
        draws from the observer's view), for a game the browser has no drawing of: its page shows
        them. None for a game with its own browser table, or without that hook."""
        hook = self.entry.words.table
        return None if hook is None or self.entry.serving.web is not None else hook(game, viewer)

    def turn(self, game: Any) -> int:
        """The turn number stored with each action (the lobby shows it)."""
        return self.entry.rules.turn(game) if self.entry.rules.turn is not None else 0

    def winner(self, game: Any) -> int | None:
        return self.entry.rules.winner(game)

    def recorder(self, game: Any) -> Recorder:
        """Follows a game from ``game`` (its start) to sum up how it went (the game-over screen)."""
        return _Outcome(self)


def check_import_limits(data: Any,
                        turn_limit_in: Callable[[Mapping[str, Any]], tuple[object, str] | None] | None = None) -> None:
    """400 for a saved game whose config or action count is beyond the server's limits, found
    by counting, before anything is decoded or replayed (``turn_limit_in``: the game's
    ``serving.turn_limit_in``)."""
    if isinstance(data, dict):
        reason = import_limits(data.get("config"), data.get("actions"), turn_limit_in)
        if reason is not None:
            raise ApiError(400, f"not a saved game that can be opened: {reason}")


class Recorder(Protocol):
    def record(self, game: Any, events: Sequence[Any]) -> None:
        """Take note of one step: ``game`` after it, and its events."""
        ...

    def summary(self, game: Any) -> dict[str, Any]:
        """The summary of the finished ``game`` (JSON-ready)."""
        ...


class _Outcome:
    """The plain summary: who won, after how many actions."""

    def __init__(self, adapter: EntryAdapter) -> None:
        self.adapter = adapter
        self.steps = 0

    def record(self, game: Any, events: Sequence[Any]) -> None:
        self.steps += 1

    def summary(self, game: Any) -> dict[str, Any]:
        return {"over": game.over, "winner": self.adapter.winner(game), "steps": self.steps}


_ADAPTERS: dict[str, EntryAdapter] = {}


def register_adapter(adapter: EntryAdapter) -> EntryAdapter:
    """Serve ``adapter.name`` games with ``adapter`` (instead of a plain :class:`EntryAdapter`)."""
    _ADAPTERS[adapter.name] = adapter
    return adapter


def adapter_for(config: Mapping[str, Any] | str) -> EntryAdapter:
    """The adapter of the game a stored config (or a game name) names; :data:`LEGACY_GAME`'s for
    a config without a ``game`` key. ValueError for a game that is not registered."""
    name = config if isinstance(config, str) else config.get("game", LEGACY_GAME)
    adapter = _ADAPTERS.get(name)
    if adapter is None:
        entry = get_game(name)
        adapter = entry.serving.adapter(entry) if entry.serving.adapter is not None else EntryAdapter(entry)
        _ADAPTERS[name] = adapter
    return adapter


__all__ = ["EntryAdapter", "Imported", "Recorder", "Settings", "adapter_for", "check_import_limits", "register_adapter"]
