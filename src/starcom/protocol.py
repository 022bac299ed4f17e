"""The seam between a game and everything that plays, shows or serves it.

Clients (agents, self-play, the arena, the demo, the server, the terminal clients) depend on
the :class:`Game` protocol below and on a game's registry entry (:mod:`starcom.games`), never
on a game's internals. Star Commander's :class:`starcom.sc.engine.game.Game` satisfies it, and so can
any other game: the test suite registers a small second one to prove it.

A *seat* is a player number ``0 .. players - 1``; a *viewer* is a seat or None (a spectator,
who sees only public information). Actions are immutable and hashable values (tuples for Star
Commander); events are what :meth:`Game.apply` reports, for narrators and observers.
"""
from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any, Protocol, Self, runtime_checkable

Seat = int
Viewer = int | None
Action = Hashable
Event = tuple[Any, ...]


@runtime_checkable
class Game(Protocol):
    """A game position that changes in place. The contract every client relies on:

    - while the game runs, :attr:`to_move` is the seat that decides and :meth:`legal_actions`
      lists its choices (in a fixed order: seeded play depends on it); once :attr:`over`, the
      former is None and the latter empty;
    - :meth:`apply` plays one action for the seat to move and returns the events it caused;
      it raises a ``ValueError`` subclass naming the reason (and leaves the game unchanged)
      for an action that is not legal, or when ``player`` is given and is not the seat to move;
    - :meth:`clone` is an independent copy; :meth:`determinize` a full position that
      ``seat`` cannot tell from this one, its hidden parts redrawn with ``rng``;
    - :meth:`view` is everything ``viewer`` may know, as JSON-ready data;
    - :meth:`returns` gives each seat's result, 0 for everyone while the game runs;
    - ``parse(notation(a)) == a`` for every legal action ``a``;
    - ``type(g).from_json(g.to_json())`` is the same position (JSON save and load).
    """

    @property
    def players(self) -> int:
        """How many seats the game has."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat that decides now; None once the game is over."""
        ...

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        ...

    def legal_actions(self) -> list[Any]:
        """Every legal action of :attr:`to_move`, in a fixed order (empty when over)."""
        ...

    def apply(self, action: Any, player: int | None = None) -> list[Any]:
        """Play ``action`` and return the events it caused (see the class docstring)."""
        ...

    def clone(self) -> Self:
        """An independent copy."""
        ...

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` (a seat, or None for a spectator) may know, as JSON-ready data."""
        ...

    def determinize(self, player: int, rng: random.Random) -> Self:
        """A full position consistent with ``player``'s view, hidden parts redrawn with ``rng``."""
        ...

    def returns(self) -> list[float]:
        """Each seat's result: positive for a win, negative for a loss, 0 for a draw and for
        everyone while the game runs (Star Commander: 1 for the winner, -1 for the others)."""
        ...

    def notation(self, action: Any) -> str:
        """A short, unambiguous text for ``action`` (the analogue of chess's UCI)."""
        ...

    def parse(self, text: str) -> Any:
        """The action that :meth:`notation` writes as ``text``; ValueError if there is none."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The whole position (hidden parts included) as JSON-ready data."""
        ...

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """The position :meth:`to_json` saved; a ValueError subclass names what is wrong."""
        ...


@runtime_checkable
class Agent(Protocol):
    """A computer player. ``choose`` decides for ``game.to_move``: it must return one of
    ``game.legal_actions()`` and may use only what that seat can know (agents that search do so
    on ``game.determinize(...)``). ``rng`` is the agent's own random source."""

    name: str

    def choose(self, game: Any, rng: random.Random) -> Any:
        ...


__all__ = ["Action", "Agent", "Event", "Game", "Seat", "Viewer"]
