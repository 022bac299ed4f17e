"""Effect units by card: collected once into a table that a game's ruleset holds.

A game's cards are a catalogue: an ordered list of names. Cards whose text needs code get an
*effect unit* (whatever the game's rules ask a card); the others share a default. An
:class:`EffectRegistry` collects the units an effects module registers, refusing a name the
catalogue does not hold (naming the closest one) and a card registered twice; :meth:`build`
then makes the immutable :class:`EffectTable` the ruleset keeps, looked up by catalogue index
(the rules' fast path) or by name. No module-level state: two tables can live side by side.
"""
from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Generic, TypeVar

E = TypeVar("E")


class EffectRegistry(Generic[E]):
    """Effect units being registered for the catalogue ``names`` (in catalogue order)."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = tuple(names)
        if len(set(self.names)) != len(self.names):
            raise ValueError("a catalogue names each card once")
        self._known = frozenset(self.names)
        self._units: dict[str, E] = {}

    def check(self, name: str) -> None:
        """ValueError if ``name`` is no card of the catalogue, naming the closest one."""
        if name not in self._known:
            close = difflib.get_close_matches(name, self.names, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"{name!r} is no card of the catalogue{hint}")

    def register(self, name: str, unit: E) -> E:
        """Make ``unit`` the effect of card ``name``. ValueError for an unknown card or one
        that already has a unit."""
        self.check(name)
        if name in self._units:
            raise ValueError(f"card {name!r} already has an effect unit")
        self._units[name] = unit
        return unit

    def update(self, name: str, change: Callable[[E | None], E]) -> E:
        """Make ``change(unit so far, or None)`` the effect of card ``name``: for games whose
        effects are registered piece by piece (a card's targets in one call, its resolution in
        another). ValueError for an unknown card."""
        self.check(name)
        unit = self._units[name] = change(self._units.get(name))
        return unit

    @property
    def registered(self) -> Mapping[str, E]:
        """The units registered so far, by card name (read-only)."""
        return MappingProxyType(self._units)

    def build(self, default: Callable[[str], E], names: Iterable[str] | None = None) -> EffectTable[E]:
        """The table: each card's registered unit, ``default(name)`` for the others. ``names``:
        the catalogue the table is for when it is not the registry's own (a variant's); ValueError
        names a registered card it lacks."""
        order = self.names if names is None else tuple(names)
        stray = sorted(set(self._units) - set(order))
        if stray:
            raise ValueError(f"effects registered for cards not in the catalogue: {stray}")
        return EffectTable(order, tuple(self._units[n] if n in self._units else default(n) for n in order))


class EffectTable(Generic[E]):
    """Each catalogue card's effect unit, by index (``table[i]``, or ``table.units[i]`` on a hot
    path: a plain tuple) and by name. Read-only."""

    __slots__ = ("names", "units", "_index")

    def __init__(self, names: tuple[str, ...], units: tuple[E, ...]) -> None:
        if len(names) != len(units):
            raise ValueError(f"{len(names)} card names but {len(units)} effect units")
        self.names = names
        self.units = units
        self._index = {n: i for i, n in enumerate(names)}

    def __getitem__(self, index: int) -> E:
        return self.units[index]

    def __len__(self) -> int:
        return len(self.units)

    def __iter__(self) -> Iterator[E]:
        return iter(self.units)

    def index(self, name: str) -> int:
        """The catalogue index of card ``name``; KeyError naming the closest card if unknown."""
        try:
            return self._index[name]
        except KeyError:
            close = difflib.get_close_matches(name, self.names, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise KeyError(f"{name!r} is no card of the catalogue{hint}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def by_name(self, name: str) -> E:
        """The effect unit of card ``name``; KeyError for a name the catalogue does not hold."""
        return self.units[self.index(name)]


__all__ = ["EffectRegistry", "EffectTable"]
