"""The Krebiz capsules and cruisers: one effect shared by seven cards (GE-KREB-*).

A cruiser and a capsule of matching size (GE-KREB-2) make one ship. In play the cruiser is the
basis: the capsule sits on it (``parent``), each names the other (``partner``), and the
combination's damage, payment and loaded weapons are kept on the cruiser. The plays that join
or part them are card plays: a cruiser and capsule from hand together (``pair``), a part from
hand onto its partner in play (``play``), two parts in play (``combine``), and ``separate``.
"""
from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING, Any

from .. import events as E
from .base import Effect, _board

if TYPE_CHECKING:
    from ..state import State, Unit


def is_cruiser(s: State, uid: int) -> bool:
    return s.spec(uid).cls.startswith("cruiser")


def is_capsule(s: State, uid: int) -> bool:
    return s.spec(uid).cls.startswith("capsule")


def fits(s: State, a: int, b: int) -> bool:
    """GE-KREB-2: small capsules fit the small cruisers, the heavy capsule the heavy ones."""
    ca, cb = s.spec(a).cls, s.spec(b).cls
    if {ca.split("_")[0], cb.split("_")[0]} != {"cruiser", "capsule"}:
        return False
    return ca.split("_")[1] == cb.split("_")[1]


def alone(s: State, uid: int) -> bool:
    return uid in s.units and s.units[uid].partner is None


def room(s: State, seat: int, extra: int) -> bool:
    """[F] GE-CMD-4: may ``seat`` add ``extra`` half slots of need now? (A change that needs
    no more is always allowed; the quick edition has no command limits, GE-QUICK-1.)"""
    if s.edition != "full" or extra <= 0:
        return True
    return bool(_board().slots_needed(s, seat, extra) <= s.players[seat].slots)


def growth(s: State, a: int, b: int) -> int:
    """Half slots more that one ship of strengths ``a`` and ``b`` needs than the two apart
    (GE-CMD-2: the combination's need follows its combined strength, GE-KREB-4)."""
    half = _board().half_slots
    return int(half(a + b) - half(a) - half(b))


def join(s: State, cruiser: int, capsule: int) -> None:
    """Make one ship of two parts in play; cards on the capsule move to the cruiser."""
    cr, ca = s.units[cruiser], s.units[capsule]
    b = _board()
    for c in b.on(s, capsule):
        c.parent = cruiser
    cr.damage += ca.damage
    cr.shield_damage += ca.shield_damage
    cr.loaded += ca.loaded
    ca.damage = ca.shield_damage = ca.loaded = 0
    ca.parent, ca.partner, cr.partner = cruiser, cruiser, capsule
    cr.engaged = ca.engaged = cr.engaged and ca.engaged
    cr.locked = ca.locked = True  # GE-KREB-5: not parted again this turn
    s.say(E.Combine("combine", cr.owner, cruiser, capsule))


class KrebizPart(Effect):
    def _alone_need(self, s: State, uid: int) -> int:
        return int(_board().half_slots(s.spec(uid).strength))

    def _onto_need(self, s: State, uid: int, other: int) -> int:
        """Half slots more needed when card ``uid`` from hand joins part ``other`` in play."""
        b = _board()
        have = b.strength(s, other)
        return int(b.half_slots(have + s.spec(uid).strength) - b.half_slots(have))

    def placements(self, s: State, seat: int, uid: int) -> list[int]:
        """Alone (in the fleet or on a terrain), or onto a fitting part in play that is alone
        and was not combined or separated this turn (GE-KREB-5); [F] each only with room for
        the command need it adds (GE-PLAY-7)."""
        own = super().placements(s, seat, uid) if room(s, seat, self._alone_need(s, uid)) else []
        partners = [u.uid for u in _board().fleet(s, seat) if alone(s, u.uid) and fits(s, uid, u.uid)
                    and not u.locked and room(s, seat, self._onto_need(s, uid, u.uid))]
        return own + partners

    def least_slots(self, s: State, seat: int, uid: int) -> int:
        """The smallest command need any play of this part from hand adds (alone, onto a part
        in play, or with a capsule from the hand), for the GE-CMD-4 check of a play at all."""
        needs = [self._alone_need(s, uid)]
        needs += [self._onto_need(s, uid, u.uid) for u in _board().fleet(s, seat)
                  if alone(s, u.uid) and fits(s, uid, u.uid) and not u.locked]
        p = s.players[seat]
        needs += [int(_board().half_slots(s.spec(uid).strength + s.spec(c).strength))
                  for c in p.hand if c != uid and fits(s, uid, c)]
        return min(needs)

    def enter(self, s: State, u: Unit) -> None:
        other = u.parent
        if other is None or other not in s.units or not fits(s, u.uid, other):
            return
        if is_cruiser(s, u.uid):
            u.parent = s.units[other].parent  # the cruiser takes the capsule's place
            join(s, u.uid, other)
        else:
            u.parent = other
            join(s, other, u.uid)

    def hand_plays(self, s: State, seat: int, uid: int) -> list[tuple[Any, ...]]:
        """GE-KREB-3: a cruiser with a fitting capsule from hand, as one play (listed under the
        cruiser, one capsule of each kind); [F] only with room for the combination's need."""
        if not is_cruiser(s, uid):
            return []
        p = s.players[seat]
        capsules = sorted({s.spec_of[c]: c for c in sorted(p.hand, reverse=True)
                           if is_capsule(s, c) and fits(s, uid, c) and c not in p.retreated}.values())
        capsules = [c for c in capsules if room(s, seat, _board().half_slots(s.spec(uid).strength + s.spec(c).strength))]
        locs = Effect.placements(self, s, seat, uid)
        return [("pair", uid, c, loc) for c in capsules for loc in locs]

    def fleet_plays(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        """GE-KREB-5, GE-KREB-6: combining two parts in play, or separating a combination,
        never a pair combined or separated this turn."""
        if not is_cruiser(s, u.uid) or u.locked:
            return []
        b = _board()
        if u.partner is None:
            return [("combine", u.uid, c.uid) for c in b.fleet(s, u.owner)
                    if alone(s, c.uid) and fits(s, u.uid, c.uid) and not c.locked
                    and room(s, u.owner, growth(s, b.strength(s, u.uid), b.strength(s, c.uid)))]
        return [("separate", u.uid, *split) for split in splits(s, u.uid)]

    def resolve_extra(self, s: State, seat: int, action: tuple[Any, ...]) -> None:
        kind = action[0]
        if kind == "pair":
            _, cruiser, capsule, loc = action
            from ..state import Unit as U
            parent = None if loc < 0 else loc
            if parent is not None and parent not in s.units:
                s.players[seat].discard += [cruiser, capsule]
                s.say(E.Void("void", seat, cruiser))
                return
            s.units[cruiser] = U(cruiser, seat, parent=parent)
            s.units[capsule] = U(capsule, seat, parent=cruiser)
            s.quiet_mark += 1
            s.say(E.Enter("enter", seat, cruiser, loc))
            s.say(E.Enter("enter", seat, capsule, cruiser))
            join(s, cruiser, capsule)
        elif kind == "combine":
            _, cruiser, capsule = action
            if cruiser in s.units and ("combine", cruiser, capsule) in self.fleet_plays(s, s.units[cruiser]):
                join(s, cruiser, capsule)
            else:
                s.say(E.Void("void", seat, cruiser))  # checked again as it resolves (GE-VOID-2)
        elif kind == "separate":
            separate(s, action)

    def announce_extra(self, s: State, seat: int, action: tuple[Any, ...]) -> None:
        if action[0] == "pair":
            s.players[seat].hand.remove(action[2])


def splits(s: State, cruiser: int) -> list[tuple[int, int, int]]:
    """Ways to part a combination (GE-KREB-6): the capsule's share of shield damage and of
    structural damage, and which movable cards go with it (a bitmask over them, Krebiz Armor
    always staying with the cruiser); a part may not take damage that would destroy it."""
    b = _board()
    cr = s.units[cruiser]
    capsule = cr.partner
    assert capsule is not None
    cr_strength = b.strength(s, cruiser) - s.spec(capsule).strength  # Krebiz Armor stays on it
    if not room(s, cr.owner, -growth(s, cr_strength, s.spec(capsule).strength)):
        return []  # [F] GE-KREB-6: the two parts need more slots than are free
    movable = [c.uid for c in b.on(s, cruiser) if c.uid != capsule and not _stays(s, c.uid)]
    out = []
    cap_shields = s.spec(capsule).shields
    for sd, hd in product(range(cr.shield_damage + 1), range(cr.damage + 1)):
        if sd > cap_shields or cr.shield_damage - sd > s.spec(cruiser).shields:
            continue
        if hd >= s.spec(capsule).strength or cr.damage - hd >= cr_strength:
            continue
        out += [(sd, hd, mask) for mask in range(1 << min(len(movable), 3))]
    return out


def _stays(s: State, uid: int) -> bool:
    return s.spec(uid).key == "krebiz_armor"  # it fits cruisers only (GE-KREB-9)


def separate(s: State, action: tuple[Any, ...]) -> None:
    """The parts go apart as the action says; a split that is no longer one of the legal
    ones when it resolves voids the play (the combination stays, the play still counts)."""
    _, cruiser, sd, hd, mask = action
    b = _board()
    cr = s.units.get(cruiser)
    if cr is None or cr.partner is None or (sd, hd, mask) not in splits(s, cruiser):
        s.say(E.Void("void", cr.owner if cr is not None else s.active, cruiser))
        return
    capsule = cr.partner
    ca = s.units[capsule]
    movable = [c.uid for c in b.on(s, cruiser) if c.uid != capsule and not _stays(s, c.uid)]
    for i, uid in enumerate(movable[:3]):
        if mask >> i & 1:
            s.units[uid].parent = capsule
    ca.parent, ca.partner, cr.partner = cr.parent, None, None
    ca.shield_damage, ca.damage = sd, hd
    cr.shield_damage -= sd
    cr.damage -= hd
    if cr.split_paid or ca.split_paid:  # GE-KREB-7: the paid part engages now, with its own loads
        cr.engaged, ca.engaged = cr.split_paid, ca.split_paid
    else:
        keep = min(cr.loaded, s.spec(cruiser).heavy)
        ca.loaded, cr.loaded = cr.loaded - keep, keep
        ca.engaged = cr.engaged
    cr.split_paid = ca.split_paid = False
    cr.locked = ca.locked = True  # no card entered or left play: the stall guard keeps counting
    s.say(E.Separate("separate", cr.owner, cruiser, capsule))
