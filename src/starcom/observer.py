"""The observer: every decision about what a viewer may see, for every client.

A client never decides for itself whether a card, an option or an event may be shown: it asks
the game's observer. Views, event and action filtering, trade terms, published settings,
whether a step revealed something (undo) and the canonical form the search agents start from
all come from here. :class:`Observer` is the protocol any game's observer follows;
each game brings its own (Star Commander's is :mod:`starcom.sc.observer`) and :func:`canonical`
is the determinization every search agent starts from.
"""
from __future__ import annotations

import random
from collections.abc import Hashable, MutableSequence, Sequence
from typing import Any, Protocol, TypeVar

from .protocol import Game, Viewer

G = TypeVar("G", bound=Game)


class Observer(Protocol):
    """What each viewer (a seat, or None for a spectator) may know of one kind of game."""

    def view(self, game: Any, viewer: Viewer) -> dict[str, Any]:
        """Everything ``viewer`` may know now, as JSON-ready data."""
        ...

    def event(self, event: Any, viewer: Viewer) -> Any:
        """``event`` as ``viewer`` may see it (hidden parts replaced)."""
        ...

    def action(self, game: Any, action: Any, viewer: Viewer) -> Any:
        """``action``, about to be played in ``game``, as ``viewer`` may know it once played."""
        ...

    def chance_mark(self, game: Any) -> Hashable:
        """A value that changes whenever the game uses chance (see :meth:`reveals`)."""
        ...

    def reveals(self, events: Sequence[Any], mark_before: Hashable, mark_after: Hashable) -> bool:
        """Whether a step showed anyone something hidden or used chance: such a step cannot be
        taken back (its player would replay it knowing what it showed)."""
        ...

    def canonical(self, game: Any, seat: int) -> Any:
        """A full position that depends only on what ``seat`` can see (hidden parts in a fixed
        order): the search agents start from it, so the truth cannot sway them."""
        ...

    def private_options(self, game: Any, seat: int) -> bool:
        """Whether the options of ``seat`` (to move) could depend on what only it can see, as far
        as every other seat can tell: a seat holding cards might hold an answer. When True, how
        fast the seat passes must not tell the others whether it had a choice, so the server
        holds such a decision open for a fixed time before it passes (docs/security.md,
        "Decisions held open"). False only when its options follow from public facts."""
        ...


class _Sorter(random.Random):
    """A 'random' source whose shuffle sorts and whose bits are 0: a determinization drawn with
    it puts every hidden card in a fixed order, removing every trace of the real arrangement.
    It relies on determinizations using nothing but ``shuffle`` and ``getrandbits``, which
    ``tests/test_agents.py`` checks through the canonical form's independence of hidden cards."""

    def shuffle(self, x: MutableSequence[Any], *args: Any, **kwargs: Any) -> None:
        x[:] = sorted(x)

    def getrandbits(self, k: int) -> int:
        return 0


def canonical(game: G, seat: int) -> G:
    """``game`` determinized for ``seat`` with every hidden part in a fixed order (any game
    whose determinization draws only on ``shuffle`` and ``getrandbits``)."""
    return game.determinize(seat, _Sorter(0))


__all__ = ["Observer", "canonical"]
