"""Questions about the cards in play, and the one way cards leave play.

Numbers a card's rules change (strength, cost, shields, whether it works or protects its Sector
HQ) are asked here and answered together with the card effects of :mod:`.cards.effects`, so
every other module gets the modified value from one place.
"""
from __future__ import annotations

from collections.abc import Iterator

from . import events as E
from .cards import POINT_TYPES, CardSpec
from .state import State, Unit

Points = list[int]
SUPPLY, ENERGY = POINT_TYPES.index("supply"), POINT_TYPES.index("energy")


def spec(s: State, uid: int) -> CardSpec:
    return s.spec(uid)


def fleet(s: State, seat: int) -> list[Unit]:
    """The cards in play that ``seat`` brought into play (GE-ZONE-2), in uid order."""
    return [u for u in s.units.values() if u.owner == seat]


def on(s: State, uid: int) -> list[Unit]:
    """The cards played on or against ``uid`` (one level)."""
    return [u for u in s.units.values() if u.parent == uid]


def stack(s: State, uid: int) -> Iterator[Unit]:
    """``uid`` and everything on or against it, recursively, top of the stack first."""
    for child in on(s, uid):
        yield from stack(s, child.uid)
    yield s.units[uid]


def basis(s: State, uid: int) -> int:
    """The card a combined Krebiz capsule counts as played on (GE-KREB-4), else ``uid``."""
    u = s.units[uid]
    if u.partner is not None and u.parent == u.partner:
        return u.partner
    return uid


def is_unit(s: State, uid: int) -> bool:
    return s.spec(uid).kind in ("ship", "base")


def is_ship(s: State, uid: int) -> bool:
    return s.spec(uid).kind == "ship"


def parts(s: State, uid: int) -> list[int]:
    """The cards one ship is made of: a combined Krebiz ship is two (GE-KREB-4)."""
    u = s.units[uid]
    return [uid] if u.partner is None else [uid, u.partner]


def _sum(s: State, uid: int, attr: str) -> int:
    return sum(getattr(s.spec(p), attr) for p in parts(s, uid))


def strength(s: State, uid: int) -> int:
    """Printed strength as modified (Krebiz Armor, combining) (GE-CARD-6)."""
    base = _sum(s, uid, "strength")
    return base + sum(s.effect(u).strength_bonus(s, u, uid) for u in on(s, uid))


def current_strength(s: State, uid: int) -> int:
    return strength(s, uid) - s.units[uid].damage - s.units[uid].card_damage


def shields(s: State, uid: int) -> int:
    return _sum(s, uid, "shields")


def phasers(s: State, uid: int) -> int:
    own = _sum(s, uid, "phasers") if not s.spec(uid).one_shot else 0
    if s.spec(uid).kind == "base":  # a damaged Defensive Satellites fires fewer (its own rule)
        own = min(own, s.effect(s.units[uid]).phaser_cap(s, s.units[uid], own))
    return own


def heavy(s: State, uid: int) -> int:
    return _sum(s, uid, "heavy")


def cost(s: State, uid: int) -> Points:
    """The engagement cost as modified (Civilian Captain, combining)."""
    total = [0] * len(POINT_TYPES)
    for p in parts(s, uid):
        for i, n in enumerate(s.spec(p).cost):
            total[i] += n
    for u in on(s, uid):
        for i, n in enumerate(s.effect(u).cost_delta(s, u, uid)):
            total[i] = max(0, total[i] + n)
    return total


def has_cost(s: State, uid: int) -> bool:
    return any(s.spec(p).has_cost for p in parts(s, uid))


def disabled(s: State, uid: int) -> bool:
    """Treated as disengaged by an effect (GE-ENG-6): Space Vertigo, Malpractice, Illness."""
    return any(s.effect(u).disables(s, u, uid) for u in on(s, uid))


def works(s: State, uid: int) -> bool:
    """Engaged and not disabled: the card may use functions and fire (GE-ENG-4, GE-ENG-6)."""
    return s.units[uid].engaged and not disabled(s, uid)


def protects_hq(s: State, uid: int) -> bool:
    """Does this ship keep its owner's Sector HQ from being fired at (GE-FIRE-10, GE-OPT-1)?"""
    if not is_ship(s, uid) or s.units[uid].against:
        return False
    uid = basis(s, uid)  # a combined capsule protects exactly when its ship does (GE-KREB-4)
    if s.options.disengaged_unprotected and not s.units[uid].engaged:
        return False
    return not any(s.effect(u).unprotects(s, u, uid) for u in on(s, uid))


def hq_open(s: State, seat: int) -> bool:
    """May ``seat``'s Sector HQ be targeted: no ship of its protects it (GE-FIRE-10)."""
    return not any(protects_hq(s, u.uid) for u in fleet(s, seat))


def slots_needed(s: State, seat: int, extra: int = 0) -> int:
    """Half slots the units of ``seat`` need (GE-CMD-2, GE-CMD-3), plus ``extra``; one minor
    empire ship goes free, the neediest one (GE-CMD-5)."""
    need, minor = extra, 0
    for u in fleet(s, seat):
        if not is_unit(s, u.uid) or (u.partner is not None and u.parent == u.partner):
            continue
        n = half_slots(strength(s, u.uid))
        if s.spec(u.uid).empire == "indirigan":
            minor = max(minor, n)
        need += n
    return need - minor


def half_slots(strength_: int) -> int:
    """GE-CMD-2: strength 3+ needs a slot, 2 half a slot, 1 none."""
    return 2 if strength_ >= 3 else 1 if strength_ == 2 else 0


def forfeit_freed_slots(s: State, need_before: list[int]) -> None:
    """GE-CMD-6: cards have just left play, and ``need_before`` held each seat's command need
    (half slots, :func:`slots_needed`) just before. A seat that was over its allowance
    then gains no usable slot from what left: its allowance for the rest of this complete
    turn shrinks by what was freed. (The allowance is renewed in its next Allocation phase,
    GE-CMD-1.) Called by the one way out of play, :func:`leave`."""
    if s.edition != "full":
        return
    for seat, before in enumerate(need_before):
        p = s.players[seat]
        if before > p.slots:
            p.slots = max(0, p.slots - (before - slots_needed(s, seat)))


# --------------------------------------------------------------------------- leaving play


def leave(s: State, uid: int, to: str = "discard", blocked: bool = False) -> list[int]:
    """Take ``uid`` and its stack out of play (GE-STACK-1, GE-STACK-2, GE-ZONE-6): each card to
    its owner's discard pile (top of the stack first, so the basis ends on top) or, with
    ``to="hand"``, to its owner's hand (``blocked``: not playable before the owner's next turn,
    GE-PLAY-8). A ship standing on a terrain that leaves stays in play on its own. Half of a
    combined Krebiz ship takes the whole ship with it (GE-STACK-5). A unit whose strength the
    departure lowered to its structural damage is destroyed in turn (GE-STACK-4). Returns the
    uids that left."""
    gone: list[int] = []
    if uid in s.units:
        uid = basis(s, uid)
    held = {s.units[g.uid].parent for g in stack(s, uid)} if uid in s.units else set()
    need_before = [slots_needed(s, seat) for seat in range(len(s.players))]
    held_down = {g.parent for g in stack(s, uid) if g.parent is not None and g.parent in s.units
                 and s.effect(g).disengages(s, g, g.parent)} if uid in s.units else set()
    _leave(s, uid, to, gone)
    forfeit_freed_slots(s, need_before)
    for place in held_down:  # GE-DUR-5: a crew an Illness held down engages again at once
        if place in s.units and not any(s.effect(c).disengages(s, c, place) for c in on(s, place)):
            s.units[place].engaged = True
    if blocked:
        for g in gone:
            s.players[s.owner_of[g]].retreated.append(g)
    s.quiet_mark += 1
    for place in sorted(p for p in held if p is not None and p in s.units):
        if is_unit(s, place) and destroyed(s, place):  # e.g. Krebiz Armor gone from a damaged ship
            s.say(E.Destroyed("destroyed", place))
            gone += leave(s, place)
    return gone


def _leave(s: State, uid: int, to: str, gone: list[int]) -> None:
    u = s.units.get(uid)
    if u is None:
        return
    terrain = s.spec(uid).kind == "terrain"
    for child in on(s, uid):
        if terrain and is_ship(s, child.uid) and child.partner != uid:
            child.parent = None  # GE-STACK-1: the ship stays, on its own
            continue
        _leave(s, child.uid, to, gone)
    if u.partner is not None and u.partner in s.units:  # GE-KREB-8: both halves go, separately
        other = s.units[u.partner]
        other.partner = None
        if other.parent == uid:
            _leave(s, other.uid, to, gone)
        # else: this is the capsule, reached through the cruiser's own call (leave() never
        # starts from a combined capsule), which goes on to remove the cruiser
    del s.units[uid]
    owner = s.players[u.owner]
    (owner.hand if to == "hand" else owner.discard).append(uid)
    if to == "hand":
        owner.show(uid)  # everyone saw it go there
    gone.append(uid)
    s.say(E.Leave("leave", uid, to))


def destroyed(s: State, uid: int) -> bool:
    """GE-STACK-4: structural damage has reached the strength, or the strength is 0."""
    if uid not in s.units:
        return False
    return strength(s, uid) <= 0 or s.units[uid].damage + s.units[uid].card_damage >= strength(s, uid)
