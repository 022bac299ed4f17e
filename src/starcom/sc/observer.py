"""Star Commander's observer: every decision about what a viewer may see, for every client.

It gives the secrecy rules of :mod:`.engine.view` one door (:data:`STARCOM`), following the
:class:`starcom.observer.Observer` protocol.
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Final

from ..observer import canonical
from ..protocol import Viewer
from .engine import view as _view
from .engine.game import Game as StarGame


class StarcomObserver:
    """Star Commander's observer (:mod:`starcom.engine.view` holds the rules it applies)."""

    def view(self, game: StarGame, viewer: Viewer) -> dict[str, Any]:
        return _view.player_view(game, viewer)

    def event(self, event: Any, viewer: Viewer) -> Any:
        return _view.event_for(event, viewer)

    def events(self, events: Sequence[Any], viewer: Viewer) -> list[Any]:
        """Each of ``events`` as ``viewer`` may see it."""
        return [_view.event_for(e, viewer) for e in events]

    def action(self, game: StarGame, action: Any, viewer: Viewer) -> Any:
        return _view.action_for(game, action, viewer)

    def trade(self, game: StarGame, viewer: Viewer) -> dict[str, Any] | None:
        """The trade on the table as ``viewer`` may see it (None without one)."""
        return _view.trade_for(game, viewer)

    def config(self, game: StarGame) -> dict[str, Any]:
        """The game's settings as anyone may see them (no seed while it runs)."""
        return _view.config_for(game)

    def hides_options(self, game: StarGame) -> bool:
        """Whether the pending choice's options are hidden from all but its chooser."""
        return game.choice is not None and _view.card_options(game.choice.kind)

    def chance_mark(self, game: StarGame) -> Hashable:
        return game.rng

    def reveals(self, events: Sequence[Any], mark_before: Hashable, mark_after: Hashable) -> bool:
        return _view.reveals(list(events), mark_before, mark_after)  # type: ignore[arg-type]

    def canonical(self, game: StarGame, seat: int) -> StarGame:
        return canonical(game, seat)

    def private_options(self, game: StarGame, seat: int) -> bool:
        # The hand is the only secret a seat can act from: the engine asks a seat holding cards
        # at every priority round whatever they are (RULING in engine.priority), so its options
        # are public exactly when its hand is empty.
        return bool(game.hands[seat])


STARCOM: Final = StarcomObserver()


__all__ = ["STARCOM", "StarcomObserver"]
