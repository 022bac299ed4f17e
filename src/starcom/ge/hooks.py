"""The one door from the rules to the cards: each card's effect unit, by catalogue index.

The rules modules (board, combat, points, plays, chain, turn) ask a card's unit through
:func:`effect` and never import card content; :mod:`starcom.ge.cards.effects` builds the units
and :func:`install`\\ s them when the package is imported (``starcom/ge/__init__.py``), so the
rules and the cards never import each other in a circle.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .cards.base import Effect
    from .state import State, Unit

_UNITS: list[Effect] = []


def install(units: Sequence[Effect]) -> None:
    """Set the effect unit of every catalogue card, in catalogue order."""
    _UNITS[:] = list(units)


def effect(s: State, u: Unit) -> Effect:
    """The effect unit of the card ``u`` in play."""
    return _UNITS[s.spec_of[u.uid]]


def effect_of(index: int) -> Effect:
    """The effect unit of catalogue card ``index`` (a card in hand, say)."""
    return _UNITS[index]
