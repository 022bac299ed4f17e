"""Vanilla stand-ins: what a card is measured against in a balance study (``starcom study``).

A card's value is how much better a seat does with it than with its stand-in, a card that fills
the same place in the game with no text and with numbers on the standard catalogue's curve:

- a **command or technology** stands in as a blank card of its domain that cannot be played (it
  still counts in the hand, can be sold two for 3 credits and discarded);
- a **ship** as a ship of the same size and cost, with attack and hit points from the standard
  ships' median attack and hit points per credit (fighters from the fighters'), speed 1 (a
  fighter 0), one target, and no ability;
- a **station** as a station of the same cost, with hit points per credit from the standard
  stations' median (their median attack per credit is 0) and no ability;
- a **system** as a system of the same domain with the standard systems' median maximum
  development and no text.

The curve comes from the built-in catalogue, never from the one studied, so that changing a
card's numbers moves the card and not its yardstick. Homeworlds, fillers (Deep Space) and the
starting ship have no stand-in: every seat has them alike.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from statistics import median
from typing import Any, Final

from ..engine.ruleset import EffectSet, Ruleset
from .catalogue import STANDARD, Catalogue, CardDef, CardKind, Size

SUFFIX: Final = " (stand-in)"


def _per_credit(cards: Iterable[CardDef], stat: str) -> float:
    ratios = [getattr(d, stat) / d.cost for d in cards if d.cost > 0]
    return median(ratios) if ratios else 0.0


_SHIPS: Final = [d for d in STANDARD.defs if d.is_ship and not d.is_fighter and not d.never_built]
_FIGHTERS: Final = [d for d in STANDARD.defs if d.is_fighter]
_STATIONS: Final = [d for d in STANDARD.defs if d.is_station]
CURVE: Final = {
    "ship": (_per_credit(_SHIPS, "attack"), _per_credit(_SHIPS, "hp")),
    "fighter": (_per_credit(_FIGHTERS, "attack"), _per_credit(_FIGHTERS, "hp")),
    "station": (_per_credit(_STATIONS, "attack"), _per_credit(_STATIONS, "hp")),
}
SYSTEM_MAX_DEV: Final = round(median(d.max_dev for d in STANDARD.defs if d.kind is CardKind.SYSTEM and not d.filler))


def studied(d: CardDef) -> bool:
    """Whether ``d`` has a stand-in (and so a value a study can measure)."""
    return not (d.kind is CardKind.HOMEWORLD or d.filler or d.starting_ship or d.stand_in_for)


def stand_in(d: CardDef, index: int) -> CardDef:
    """The stand-in of ``d`` (see the module docstring), as card type ``index``."""
    if not studied(d):
        raise ValueError(f"{d.name} has no stand-in: every seat has it alike")
    name = d.name + SUFFIX  # every stand-in keeps the domain and the number of copies
    if d.is_ship or d.is_station:
        per_attack, per_hp = CURVE["station" if d.is_station else "fighter" if d.is_fighter else "ship"]
        return CardDef(index, name, d.domain, d.kind, f"Stand-in: a plain {d.kind} of cost {d.cost} on the "
                       "standard curve.", d.count, size=d.size, cost=d.cost,
                       attack=max(0, round(d.cost * per_attack)), hp=max(1, round(d.cost * per_hp)),
                       speed=1 if d.is_ship and d.size is not Size.FIGHTER else 0, stand_in_for=d.name)
    if d.is_system:
        return CardDef(index, name, d.domain, CardKind.SYSTEM, "Stand-in: a plain system of maximum "
                       f"development {SYSTEM_MAX_DEV}.", d.count, max_dev=SYSTEM_MAX_DEV, stand_in_for=d.name)
    return CardDef(index, name, d.domain, CardKind.COMMAND, "Stand-in: a blank card; it cannot be played.",
                   d.count, stand_in_for=d.name)


def with_stand_ins(catalogue: Catalogue, names: Iterable[str]) -> Catalogue:
    """``catalogue`` with a stand-in added after its cards for each of ``names`` (so the real
    cards keep their instance ids), but for a card whose stand-in the catalogue already holds
    (a card with ``stand_in_for`` its name: a tune's, which keeps the yardstick of the card as
    it was, :func:`pinned`). KeyError names an unknown card."""
    given = {d.stand_in_for for d in catalogue.defs if d.stand_in_for}
    extra: list[CardDef] = []
    for name in names:
        if name in given:
            catalogue.card(name)
            continue
        extra.append(stand_in(catalogue.card(name), len(catalogue.defs) + len(extra)))
    return Catalogue(f"{catalogue.name} with stand-ins", (*catalogue.defs, *extra))


def pinned(catalogue: Catalogue, name: str, **changes: Any) -> Catalogue:
    """``catalogue`` with card ``name``'s fields changed (``cost=4``...) and, after its cards,
    the stand-in of the card as it was: a tune measures every value of a number against one
    yardstick, even when the number (a vessel's cost) is one the stand-in follows. A stand-in
    the catalogue already holds for the card is kept."""
    changed = catalogue.replaced(name, **changes)
    if any(d.stand_in_for == name for d in catalogue.defs):
        return changed
    return Catalogue(changed.name, (*changed.defs, stand_in(catalogue.card(name), len(changed.defs))))


def _cannot_be_played(g: object, p: int, src: int) -> list[tuple[int, ...]]:
    return []


def stand_in_effects(base: EffectSet, catalogue: Catalogue) -> EffectSet:
    """The effects of ``base`` for the cards ``catalogue`` has, and none for its stand-ins but
    this: a blank command cannot be played."""
    effects = EffectSet(catalogue.by_name)
    for name, eff in base.effects.items():
        if name in catalogue.by_name:
            effects.cards.register(name, eff)
    for kind, fn in base.choice_handlers.items():
        if kind in catalogue.by_name:  # handlers are registered under their card's name
            effects.choices.register(kind, fn)
    for d in catalogue.defs:
        if d.stand_in_for and d.is_command:
            effects.register(d.name, targets=_cannot_be_played)
    return effects


@dataclass(frozen=True)
class Variant:
    """The cards of a game that is not played with the built-in catalogue alone: a catalogue
    (its TOML text; empty for the built-in one), the cards replaced by their stand-ins, and the
    seats that get the real cards instead (a study's treated seat; none: every seat plays the
    stand-ins). A study's saved games record it, so that a replay rebuilds the same ruleset."""

    catalogue_text: str = ""
    catalogue_name: str = "built-in"
    stand_ins: tuple[str, ...] = ()
    real_for: tuple[int, ...] = ()

    def rules(self) -> Ruleset:
        """The ruleset of this variant (built once per process). ValueError names a bad
        catalogue; KeyError a stand-in for a card the catalogue lacks."""
        return _variant_rules(self)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"stand_ins": list(self.stand_ins), "real_for": list(self.real_for)}
        if self.catalogue_text:
            out.update(catalogue=self.catalogue_text, catalogue_name=self.catalogue_name)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Variant:
        """The variant :meth:`to_json` wrote; ValueError names what is wrong (and checks that its
        ruleset can be built)."""
        if not isinstance(data, dict):
            raise ValueError("'variant' must be an object with 'stand_ins' and 'real_for'")
        stray = sorted(set(data) - {"stand_ins", "real_for", "catalogue", "catalogue_name"})
        if stray:
            raise ValueError(f"'variant' has no field {stray[0]!r}")
        names, seats = data.get("stand_ins", []), data.get("real_for", [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ValueError("'variant.stand_ins' must be a list of card names")
        if not isinstance(seats, list) or not all(type(x) is int and 0 <= x < 4 for x in seats):
            raise ValueError("'variant.real_for' must be a list of seat numbers (0-3)")
        text, name = data.get("catalogue", ""), data.get("catalogue_name", "saved catalogue")
        if not isinstance(text, str) or not isinstance(name, str):
            raise ValueError("'variant.catalogue' must be a catalogue's TOML text")
        v = cls(text, name if text else "built-in", tuple(names), tuple(sorted(set(seats))))
        try:
            v.rules()
        except KeyError as exc:
            raise ValueError(f"'variant.stand_ins': {exc.args[0]}") from None
        return v


@cache
def _variant_rules(v: Variant) -> Ruleset:
    from .effects import EFFECTS  # the effects import the rules engine, which imports this package
    base = Catalogue.from_toml(v.catalogue_text, v.catalogue_name) if v.catalogue_text else STANDARD
    if not v.stand_ins:
        return Ruleset.build(base, stand_in_effects(EFFECTS, base), "study:real")
    catalogue = with_stand_ins(base, v.stand_ins)
    return Ruleset.build(catalogue, stand_in_effects(EFFECTS, catalogue),
                         f"study:{','.join(v.stand_ins)}:{list(v.real_for)}", real_for=frozenset(v.real_for))
