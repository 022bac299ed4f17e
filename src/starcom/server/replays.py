"""Replays of finished games, built once (off the event loop) and kept in a small cache.

Stepping through a replay used to re-run the game from its setup for every step asked, so one
visitor scrubbing a long game kept the server busy for seconds. A :class:`ReplayBook` plays the
game through once, keeping the spectator's log and a copy of the position every
:data:`CHECKPOINT` actions; any step is then at most that many actions away.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

from .adapter import EntryAdapter

CHECKPOINT = 100


class ReplayBook:
    """A finished game from the spectator's seat: log lines and checkpoints of the position."""

    def __init__(self, game_id: str, adapter: EntryAdapter, config: dict[str, Any],
                 actions: list[dict[str, Any]], seats: list[dict[str, Any]]) -> None:
        self.game_id = game_id
        self.adapter = adapter
        self.config = dict(config)                  # the stored config, as stored
        self.cfg = adapter.settings(config)         # the same, as the game's settings value
        self.seats = [{"seat": s["seat"], "kind": s["kind"]} for s in seats]
        self.actions: list[Any] = []   # as the rules checked them on the way
        self.by = [a["seat"] for a in actions]
        g = adapter.create(config)
        narrator = adapter.narrator(g, None)
        self.log: list[str] = narrator.setup_lines(g)
        self.lines_at = [len(self.log)]          # log length after each number of steps
        self.texts: list[str] = []               # readable text of each action
        self.checkpoints: dict[int, Any] = {0: g.clone()}
        recorder = adapter.recorder(g)
        for i, entry in enumerate(actions, 1):
            act = adapter.decode(g, entry["action"], None)
            self.actions.append(act)
            self.texts.append(adapter.describe(g, act, None))
            events = adapter.play(g, act)
            recorder.record(g, events)
            self.log.extend(narrator.step_lines(g, act, events))
            self.lines_at.append(len(self.log))
            if i % CHECKPOINT == 0:
                self.checkpoints[i] = g.clone()
        self.summary = recorder.summary(g)   # how the game went (the game-over screen)
        self.over = bool(g.over)

    @property
    def steps(self) -> int:
        return len(self.actions)

    def picture(self, n: int) -> dict[str, Any]:
        """The spectator's picture after the first ``n`` actions (0 <= n <= steps)."""
        base = n - n % CHECKPOINT
        g = self.checkpoints[base].clone()
        for act in self.actions[base:n]:
            self.adapter.play(g, act)
        shown = self.lines_at[n]
        return {
            "game_id": self.game_id, "game": self.adapter.name, "step": n, "steps": self.steps, "view": self.adapter.observer.view(g, None),
            "log": self.log[:shown], "new_lines": shown - (self.lines_at[n - 1] if n else 0),
            "action": self.texts[n - 1] if n else None, "by": self.by[n - 1] if n else None,
            "to_move": g.to_move, "over": g.over, "winner": self.adapter.winner(g),
            "seats": self.seats,
        }


class ReplayCache:
    """The last few :class:`ReplayBook` s, least recently used dropped first."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self.books: OrderedDict[str, ReplayBook] = OrderedDict()

    def get(self, game_id: str) -> ReplayBook | None:
        book = self.books.get(game_id)
        if book is not None:
            self.books.move_to_end(game_id)
        return book

    def put(self, book: ReplayBook) -> None:
        self.books[book.game_id] = book
        self.books.move_to_end(book.game_id)
        while len(self.books) > self.size:
            self.books.popitem(last=False)
