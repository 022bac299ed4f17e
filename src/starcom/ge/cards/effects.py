"""What each Galactic Empires card does beyond its numbers: one small effect unit per card.

Each class here overrides the questions of :class:`~.base.Effect` its card's text answers (the
crew and their carriers are in :mod:`.crew`, the Krebiz halves in :mod:`.krebiz`, the Escort in
:mod:`.escort`). :func:`table` makes one unit per catalogue card, for the ruleset a game's state
holds (:mod:`starcom.ge.ruleset`), through which the rules ask them; the rules never name a card. Rule IDs
are those of the GE spec (shared/ge/RULES.md); the card texts are in ``cards.md``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TYPE_CHECKING

from ...kit.effects import EffectRegistry, EffectTable
from .. import events as E
from .base import (
    ECONOMY,
    NONE,
    RESEARCH,
    SUPPLY,
    Effect,
    _Against,
    _at_location,
    _board,
    _DisablesCrew,
)
from .catalogue import BY_KEY as CARDS_BY_KEY
from .catalogue import CARDS, POINT_TYPES

if TYPE_CHECKING:
    from ..state import State, Unit


class PlanetaryShield(Effect):
    def placements(self, s: State, seat: int, uid: int) -> list[int]:
        return [u.uid for u in _board().fleet(s, seat) if s.spec(u.uid).cls in ("planet", "moon")]

    def absorb(self, s: State, u: Unit, target: int, amount: int, kind: str) -> int:
        """Card damage (monsters, hazards, occurrences) aimed at its terrain does not happen."""
        return 0 if kind == "card" and target == u.parent else amount


class DefensiveSatellites(Effect):
    def phaser_cap(self, s: State, u: Unit, phasers: int) -> int:
        return 2 if u.damage >= 1 else phasers


class CivilianCaptain(Effect):
    def _active(self, s: State, u: Unit, target: int) -> bool:
        return target == u.parent and s.spec(target).empire == "generic" and _board().works(s, u.uid)

    def cost_delta(self, s: State, u: Unit, target: int) -> Sequence[int]:
        if not self._active(s, u, target):
            return NONE
        delta = [0] * len(POINT_TYPES)
        delta[SUPPLY] = -1
        return delta

    def volley_reduction(self, s: State, u: Unit, target: int) -> int:
        return 1 if self._active(s, u, target) else 0


class Technician(Effect):
    def allocation_uses(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        if s.players[u.owner].tech or not _board().works(s, u.uid):
            return []
        return [("research",), ("repair",), ("energy",)]

    def use(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        p = s.players[u.owner]
        p.tech = str(args[0])
        if p.tech == "research":
            p.pool[RESEARCH] += 1

    def doubles(self, s: State, u: Unit, what: str) -> bool:
        return bool(_board().works(s, u.uid))


class Cargo(Effect):
    def takes_lethal_point(self, s: State, u: Unit, target: int) -> bool:
        t = s.units[target]
        return bool(t.damage - 1 + t.card_damage < _board().strength(s, target))

    def allocation_uses(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        return [("supply",)] if u.parent is not None and not s.units[u.parent].paid else []

    def use(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        unit = u.parent
        assert unit is not None
        p = s.players[u.owner]
        p.cargo_supply[unit] = p.cargo_supply.get(unit, 0) + 1
        _board().leave(s, u.uid)


class FuserMechanism(Effect):
    def fired(self, s: State, u: Unit, shooter: int) -> None:
        if u.parent == shooter:  # discarded once its ship's boomerangs have fired
            _board().leave(s, u.uid)

    def placements(self, s: State, seat: int, uid: int) -> list[int]:
        return [u.uid for u in _board().fleet(s, seat) if s.spec(u.uid).kind == "ship"
                and s.spec(u.uid).empire == "indirigan"]

    def heavy_bonus(self, s: State, u: Unit, shooter: int) -> int:
        return 1 if u.parent == shooter and _board().works(s, u.uid) else 0


class KrebizArmor(Effect):
    def placements(self, s: State, seat: int, uid: int) -> list[int]:
        return [u.uid for u in _board().fleet(s, seat) if s.spec(u.uid).cls.startswith("cruiser")]

    def strength_bonus(self, s: State, u: Unit, target: int) -> int:
        return 1 if u.parent == target else 0


class DivergentAnomaly(_Against):
    kinds: tuple[str, ...] = ("ship",)

    def unprotects(self, s: State, u: Unit, target: int) -> bool:
        return u.parent == target


def _queue_card_damage(s: State, u: Unit) -> None:
    from ..state import Item
    s.queued.append(Item(u.owner, "use", ("use", u.uid, "damage")))  # its own window follows


def _card_damage(s: State, u: Unit, victims: list[int]) -> None:
    from ..combat import hit
    amount = s.spec(u.uid).card_damage
    s.say(E.CardDamage("card-damage", u.uid, amount))
    for t in victims:
        hit(s, t, amount, "card", u.owner)
    if u.uid in s.units:
        _board().leave(s, u.uid)  # discarded after use (GE-DUR-3)


def _on_its_card(s: State, u: Unit) -> list[int]:
    return [u.parent] if u.parent is not None and u.parent in s.units else []


class GravityWave(Effect):
    """Card damage right after the play, then discarded (GE-ACT-4): to each ship of a fleet."""

    def enter(self, s: State, u: Unit) -> None:
        _queue_card_damage(s, u)

    def use(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        _card_damage(s, u, self.victims(s, u))

    def placements(self, s: State, seat: int, uid: int) -> list[int]:
        return [-1 - p for p in range(len(s.players))]

    def victims(self, s: State, u: Unit) -> list[int]:
        seat = -1 - u.parent if u.parent is not None and u.parent < 0 else None
        b = _board()
        return [v.uid for v in b.fleet(s, seat) if b.is_ship(s, v.uid) and b.basis(s, v.uid) == v.uid] \
            if seat is not None else []


class IonStorm(_Against):
    """Card damage right after the play, then discarded (GE-ACT-4): to the card it is against.
    (One base class: the compiled build takes no multiple inheritance; the damage is shared as
    functions.)"""

    kinds: tuple[str, ...] = ("ship", "base")

    def enter(self, s: State, u: Unit) -> None:
        _queue_card_damage(s, u)

    def use(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        _card_damage(s, u, _on_its_card(s, u))


class SmallPhaserEel(_Against):
    kinds: tuple[str, ...] = ("ship", "base")

    def blocks_phasers(self, s: State, u: Unit) -> bool:
        return True

    def targetable(self, s: State, u: Unit) -> bool:
        return True

    def phaser_proof(self, s: State, u: Unit) -> bool:
        return True

    def repairable(self, s: State, u: Unit) -> bool:
        return False


class SpaceVertigo(_DisablesCrew):
    pass


class Illness(_DisablesCrew):
    """The crew is disengaged for real, not only unable to act (GE-ENG-6); it engages again
    as soon as the Illness leaves (GE-DUR-5, done by the way out of play)."""

    def fits(self, s: State, seat: int, t: Unit) -> bool:
        return not any(_blocks_illness(s, c) for c in _at_location(s, t.uid))

    def disengages(self, s: State, u: Unit, target: int) -> bool:
        return u.parent == target

    def enter(self, s: State, u: Unit) -> None:
        if u.parent is not None and u.parent in s.units:
            s.units[u.parent].engaged = False

    def research_negates(self, s: State, u: Unit) -> bool:
        return True


class InvincoGuardian(Effect):
    def placements(self, s: State, seat: int, uid: int) -> list[int]:
        b = _board()
        ships = [u.uid for u in b.fleet(s, seat) if b.is_ship(s, u.uid) and b.basis(s, u.uid) == u.uid]
        if not ships:
            return []
        low = min(b.strength(s, x) for x in ships)
        return [x for x in ships if b.strength(s, x) == low]

    def absorb(self, s: State, u: Unit, target: int, amount: int, kind: str) -> int:
        if u.parent != target:
            return amount
        u.damage += amount
        s.say(E.Damage("damage", u.uid, amount, 0, u.damage))
        if u.damage >= s.spec(u.uid).strength:
            s.say(E.Destroyed("destroyed", u.uid))
            _board().leave(s, u.uid)
        return 0  # excess damage is lost (GE-DMG-6)

    def targetable(self, s: State, u: Unit) -> bool:
        return True

    def repairable(self, s: State, u: Unit) -> bool:
        return False


class ShieldFiend(_Against):
    kinds: tuple[str, ...] = ("ship", "base")

    def fits(self, s: State, seat: int, t: Unit) -> bool:
        return _board().shields(s, t.uid) > 0 and not any(
            s.effect(c).key == "invinco_guardian" for c in _board().on(s, t.uid))

    def enter(self, s: State, u: Unit) -> None:
        target = u.parent
        if target is not None and target in s.units:
            t = s.units[target]
            t.shield_damage = _board().shields(s, target)
            s.say(E.Damage("damage", target, 0, t.shield_damage, t.damage))
        _board().leave(s, u.uid)


class ForcedRetreat(_Against):
    kinds: tuple[str, ...] = ("ship", "base")

    def fits(self, s: State, seat: int, t: Unit) -> bool:
        return bool(_board().strength(s, t.uid) <= 3)

    def enter(self, s: State, u: Unit) -> None:
        target = u.parent
        _board().leave(s, u.uid)
        if target is not None and target in s.units:
            _board().leave(s, target, to="hand", blocked=True)


class FleetFreighter(Effect):
    def placements(self, s: State, seat: int, uid: int) -> list[int]:
        return [u.uid for u in _board().fleet(s, seat) if s.spec(u.uid).kind == "terrain"]

    def terrain_bonus(self, s: State, u: Unit) -> tuple[int | None, Sequence[int]]:
        if u.parent is None or u.parent not in s.units or s.spec(u.parent).kind != "terrain":
            return None, NONE
        gain = [0] * len(POINT_TYPES)
        gain[ECONOMY] = 2
        return u.parent, gain


class Indirigan(Effect):
    """The tribe rule (GE-IND-2): no fire at bases or other ships while the opponent has an
    Indirigan ship of its own in play."""

    def may_fire_at(self, s: State, u: Unit, target: int) -> bool:
        b = _board()
        kind = s.spec(target).kind
        if kind not in ("ship", "base") or s.spec(target).empire == "indirigan" and b.is_ship(s, target):
            return True
        return not any(s.spec(v.uid).empire == "indirigan" and b.is_ship(s, v.uid)
                       for p in range(len(s.players)) if p != u.owner for v in b.fleet(s, p))


class IndiriganCarrier(Indirigan):
    def engagement(self, s: State, u: Unit) -> None:
        """GE-IND-4: an engaged carrier rearms the one-shot phasers of its shuttlecraft."""
        if u.engaged:
            for c in _board().on(s, u.uid):
                if s.spec(c.uid).one_shot:
                    c.empty = False


def _blocks_illness(s: State, u: Unit) -> bool:
    return s.effect(u).key == "doctor" and _board().works(s, u.uid)


_BY_KEY: Final[dict[str, type[Effect]]] = {
    "planetary_shield": PlanetaryShield, "defensive_satellites": DefensiveSatellites,
    "civilian_captain": CivilianCaptain, "technician": Technician, "cargo": Cargo,
    "fuser_mechanism": FuserMechanism, "krebiz_armor": KrebizArmor,
    "divergent_anomaly": DivergentAnomaly, "gravity_wave": GravityWave, "ion_storm": IonStorm,
    "small_phaser_eel": SmallPhaserEel, "space_vertigo": SpaceVertigo, "illness": Illness,
    "invinco_guardian": InvincoGuardian, "shield_fiend": ShieldFiend, "forced_retreat": ForcedRetreat,
    "fleet_freighter": FleetFreighter, "indirigan_light_carrier": IndiriganCarrier, "indirigan_nomads": Indirigan,
}

from . import crew, escort, krebiz

_BY_KEY.update({"doctor": crew.Doctor, "boarding_party": crew.BoardingParty, "crewman": crew.Crewman,
                "lucky_crew_action": crew.LuckyCrewAction, "malpractice": crew.Malpractice,
                "transporter": crew.Transporter, "shuttlecraft": crew.Shuttlecraft, "escape_pod": crew.EscapePod,
                "argonian_warm_front": escort.Escort})


def _unit(kind: type[Effect], key: str) -> Effect:
    unit = kind()
    unit.key = key
    return unit


def _default(key: str) -> Effect:
    """The unit of a card with no class above: a Krebiz half's, or a plain one."""
    return _unit(krebiz.KrebizPart if CARDS_BY_KEY[key].effect == "krebiz" else Effect, key)


def table() -> EffectTable[Effect]:
    """A new unit for every catalogue card, in catalogue order. ValueError names a card the
    classes above are given for that the catalogue does not hold."""
    registry: EffectRegistry[Effect] = EffectRegistry(c.key for c in CARDS)
    for key, kind in _BY_KEY.items():
        registry.register(key, _unit(kind, key))
    return registry.build(_default)


__all__ = ["Effect", "table"]
