"""The ruleset a Galactic Empires game is played with: each card's effect unit, built once.

The rules modules (board, combat, points, plays, chain, turn) never import card content: they
ask the state, ``s.effect(unit)`` or ``s.effect_of(uid)``, which look the card up in the
:class:`Ruleset` the state holds. :func:`standard` builds the one ruleset of the catalogue from
:mod:`.cards.effects` the first time a game needs it; nothing is installed at import.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from ..kit.effects import EffectTable
from .cards import CARDS, CardSpec
from .cards import effects as card_effects

if TYPE_CHECKING:
    from .cards.base import Effect


@dataclass(frozen=True, slots=True, eq=False)
class Ruleset:
    """``effects[i]`` is the unit of catalogue card ``i`` (``units[i]`` too: the same units as a
    plain tuple, for the rules' many look-ups). Immutable and shared by every state and copy
    that uses it; pickled by name (a worker process rebuilds the same one)."""

    name: str
    effects: EffectTable[Effect]
    # The printed numbers of every catalogue card (State.spec reads them here): the built-in
    # catalogue's, or a balance study's with one number changed (tuned()).
    cards: tuple[CardSpec, ...] = CARDS
    units: tuple[Effect, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", self.effects.units)

    def effect(self, index: int) -> Effect:
        """The effect unit of catalogue card ``index``."""
        return self.units[index]

    def __reduce__(self) -> tuple[Any, ...]:
        if self is not standard():
            raise TypeError(f"only the standard ruleset can be pickled, not {self.name!r}")
        return standard, ()

    def __copy__(self) -> Ruleset:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Ruleset:
        return self


@cache
def standard() -> Ruleset:
    """The ruleset of the catalogue's cards (one object, made on first use)."""
    return Ruleset("standard", card_effects.table())


@cache
def tuned(cards: tuple[CardSpec, ...]) -> Ruleset:
    """The ruleset of the built-in cards with the printed numbers of ``cards`` (the same cards,
    in the same order: a balance study's tune, ``starcom study tune --game ge``). ValueError
    if ``cards`` are not the built-in ones."""
    if [c.key for c in cards] != [c.key for c in CARDS]:
        raise ValueError("a Galactic Empires catalogue must hold the built-in cards, in their order; "
                         "only their numbers may differ")
    return standard() if cards == CARDS else Ruleset("tuned", card_effects.table(), cards)
