"""Weapons fire and damage: targets, volleys and the damage pipeline (GE-FIRE-*, GE-DMG-*).

A volley is declared in steps, so the legal actions stay few: ``aim`` a target, ``add`` one
weapon at a time, then ``fire`` (the reactable declaration, GE-FIRE-2). Damage of every kind,
volleys and card damage alike, goes through :func:`hit`.
"""
from __future__ import annotations

from typing import Final

from . import board
from . import events as E
from .state import HQ_LIMIT, State

PHASER, HEAVY = "phaser", "heavy"
INTERCEPT: Final = "intercept"  # the kind of the marker an Escort's interception leaves on the chain


def hq(seat: int) -> int:
    """The target code of ``seat``'s Sector HQ (card targets are uids, never negative)."""
    return -1 - seat


def hq_seat(target: int) -> int | None:
    return -1 - target if target < 0 else None


def hq_limit(s: State) -> int:
    return 15 if s.options.small_hq else HQ_LIMIT  # GE-OPT-2


def is_target(s: State, target: int, shooter: int) -> bool:
    """May ``shooter`` aim a volley at ``target`` at all (GE-FIRE-8 … GE-FIRE-10)?"""
    seat = hq_seat(target)
    if seat is not None:
        return seat != shooter and board.hq_open(s, seat)
    if target not in s.units:
        return False
    kind = s.spec(target).kind
    if kind == "terrain":
        return not any(s.spec(u.uid).kind == "base" for u in board.on(s, target))  # GE-FIRE-9
    if kind in ("ship", "base"):
        return board.basis(s, target) == target  # a combined ship is aimed at as one card
    return s.effect(s.units[target]).targetable(s, s.units[target])


def weapons(s: State, uid: int) -> list[str]:
    """The weapons of card ``uid`` that may still fire this phase (GE-FIRE-4 … GE-FIRE-7)."""
    u = s.units[uid]
    out: list[str] = []
    spec = s.spec(uid)
    if spec.one_shot:  # a shuttlecraft: passive, so it fires from a disengaged unit too
        if not u.empty and not u.used and u.engaged and not board.disabled(s, uid):
            out.append(PHASER)
        return out
    if not board.is_unit(s, uid) or board.basis(s, uid) != uid or not board.works(s, uid):
        return out
    if u.fired_phasers < board.phasers(s, uid):
        out.append(PHASER)
    if u.fired_heavy < u.loaded:
        out.append(HEAVY)
    return out


def may_fire_at(s: State, uid: int, target: int) -> bool:
    """May card ``uid`` fire at ``target`` (the card-level limits: not at itself, Sector HQ only
    by ships and, in the full edition, equipment on ships; the Indirigan tribe rule)."""
    if target == uid or (target in s.units and board.basis(s, uid) == target):
        return False
    spec = s.spec(uid)
    seat = hq_seat(target)
    if seat is not None:
        if spec.kind == "ship":
            return True
        if spec.kind == "equipment" and s.edition == "full":  # GE-FIRE-10, GE-QUICK-5
            carrier = s.units[uid].parent
            return carrier is not None and board.is_ship(s, carrier)
        return False
    return s.effect(s.units[uid]).may_fire_at(s, s.units[uid], target)


def aims(s: State, seat: int) -> list[int]:
    """Targets ``seat`` may open a volley at now: legal, not yet fired at this phase, and with
    some weapon able to reach them (GE-FIRE-3, GE-FIRE-14)."""
    shooters = [(u.uid, weapons(s, u.uid)) for u in board.fleet(s, seat)]
    shooters = [(uid, w) for uid, w in shooters if w]
    if not shooters:
        return []
    out = []
    candidates = [hq(p) for p in range(len(s.players))] + sorted(s.units)
    for t in candidates:
        if t in s.volleyed or not is_target(s, t, seat):
            continue
        if any(may_fire_at(s, uid, t) for uid, _ in shooters):
            out.append(t)
    return out


def additions(s: State, seat: int) -> list[tuple[int, str]]:
    """Weapons ``seat`` may add to the volley being declared."""
    assert s.aim is not None
    taken: dict[tuple[int, str], int] = {}
    for w in s.aim_weapons:
        taken[w] = taken.get(w, 0) + 1
    out = []
    for u in board.fleet(s, seat):
        if not may_fire_at(s, u.uid, s.aim):
            continue
        for kind in weapons(s, u.uid):
            left = _left(s, u.uid, kind) - taken.get((u.uid, kind), 0)
            if left > 0:
                out.append((u.uid, kind))
    return out


def _left(s: State, uid: int, kind: str) -> int:
    u = s.units[uid]
    if s.spec(uid).one_shot:
        return 1
    return board.phasers(s, uid) - u.fired_phasers if kind == PHASER else u.loaded - u.fired_heavy


def spend(s: State) -> None:
    """Mark the declared weapons fired (they count as fired whatever happens, GE-FIRE-13)."""
    for uid, kind in s.aim_weapons:
        u = s.units.get(uid)
        if u is None:
            continue
        if s.spec(uid).one_shot:
            u.empty = u.used = True
        elif kind == PHASER:
            u.fired_phasers += 1
        else:
            u.fired_heavy += 1


def threatened(s: State, unit: int) -> bool:
    """Would an unresolved event of the other seat, resolved as declared, destroy ``unit``?
    (What the Escape Pod answers, by a ruling of cards.md.)"""
    owner = s.units[unit].owner
    u = s.units[unit]
    left_shields = board.shields(s, unit) - u.shield_damage
    left_hull = board.strength(s, unit) - u.damage - u.card_damage
    for item in s.chain:
        if item.player == owner or item.void:
            continue
        a = item.action
        hull = 0
        if item.kind == "fire" and a[1] == unit:
            hull = max(0, sum(damage_of(s, w, k, unit) for w, k in a[2] if w in s.units) - left_shields)
        elif item.kind == "use" and a[1] in s.units and len(a) > 2 and a[2] == "damage":
            card = s.units[a[1]]
            hits = card.parent == unit or (card.parent is not None and card.parent == -1 - owner
                                           and board.is_ship(s, unit))
            hull = max(0, s.spec(a[1]).card_damage - left_shields) if hits else 0
        elif item.kind == "act" and len(a) > 4 and a[4] == "hull" and s.units.get(a[1]) is not None \
                and s.units[a[1]].parent == unit:
            hull = 1
        if hull >= left_hull:
            return True
    return False


def resolve_volley(s: State, seat: int, target: int, fired: list[tuple[int, str]]) -> None:
    """Step (d) of a volley (GE-FIRE-12, GE-FIRE-13): add up what still reaches the target and
    apply it. The weapons were marked fired when the volley was declared (:func:`spend`), so a
    lost volley still used them; a firing card gone or no longer working adds nothing."""
    legal = is_target(s, target, seat)
    total = sum(damage_of(s, uid, kind, target) for uid, kind in fired if _still_firing(s, uid)) if legal else 0
    for shooter in sorted({uid for uid, kind in fired if kind == HEAVY and uid in s.units}):
        for c in board.on(s, shooter):  # its heavy weapons have fired, whatever they hit
            if c.uid in s.units:
                s.effect(c).fired(s, c, shooter)
    if not legal:
        s.say(E.VolleyLost("volley-lost", seat, target))
        return
    s.say(E.Volley("volley", seat, target, total))
    hit(s, target, total, "weapons", seat)


def _still_firing(s: State, uid: int) -> bool:
    """Does a card that fired in a volley still add its damage (GE-FIRE-13)? It must be in
    play and working; a shuttlecraft, passive, only needs to be in play and not disabled."""
    if uid not in s.units:
        return False
    if s.spec(uid).one_shot:
        return not board.disabled(s, uid)
    return board.works(s, uid)


def damage_of(s: State, uid: int, kind: str, target: int) -> int:
    """One weapon's damage at ``target`` before the target's defences (GE-FIRE-12)."""
    if kind == PHASER:
        carrier = uid if board.is_unit(s, uid) else s.units[uid].parent
        if carrier is not None and carrier in s.units and any(
                s.effect(u).blocks_phasers(s, u) for u in board.on(s, carrier)):
            return 0
        if target >= 0 and (s.spec(target).kind == "terrain"
                            or s.effect(s.units[target]).phaser_proof(s, s.units[target])):
            return 0  # phasers do nothing to terrain or to a Small Phaser Eel
        return 1
    return 1 + sum(s.effect(u).heavy_bonus(s, u, uid) for u in board.on(s, uid))


def hit(s: State, target: int, amount: int, kind: str, source: int) -> None:
    """Apply ``amount`` damage of ``kind`` (``weapons``, ``card``, ``structural`` or ``shields``)
    from seat ``source`` to one card or Sector HQ, through its defences (GE-DMG-3)."""
    seat = hq_seat(target)
    if seat is not None:
        _hit_hq(s, seat, amount, kind, source)
        return
    if target not in s.units or amount <= 0:
        return
    if kind == "weapons" and s.units[target].owner != source:  # (1) opponent volleys only (GE-DMG-2)
        amount -= sum(s.effect(c).volley_reduction(s, c, target) for c in board.on(s, target))
    amount = _intercept(s, target, amount, kind)  # (2)
    _apply(s, target, amount, kind)


def _intercept(s: State, target: int, amount: int, kind: str) -> int:
    """Step (2) of GE-DMG-3: an Escort's reaction (GE-SHIPS-2) left a marker item right under
    the event now resolving; it takes up to its number of points off this application and the
    Escort takes twice as many of the same kind. Used once. What is left for ``target``."""
    if amount <= 0 or not s.chain:
        return amount
    mark = s.chain[-1]
    if mark.kind != INTERCEPT or mark.void or mark.action[2] != target:
        return amount
    mark.void = True  # one application only
    escort, wanted = int(mark.action[1]), int(mark.action[3])
    if escort not in s.units:
        return amount
    taken = min(wanted, amount)
    s.say(E.Intercept("intercept", escort, target, taken))
    _apply(s, escort, 2 * taken, kind)  # an in-play protector: excess on it is lost (GE-DMG-6)
    return amount - taken


def _apply(s: State, target: int, amount: int, kind: str) -> None:
    """Steps (3) to (6) of GE-DMG-3 for one card."""
    if target not in s.units or amount <= 0:
        return
    u = s.units[target]
    for c in list(board.on(s, target)):  # (3) a protector takes it first (GE-DMG-6)
        if amount <= 0 or c.uid not in s.units:
            continue
        room = _room(s, c.uid, kind)
        left = s.effect(c).absorb(s, c, target, amount, kind)
        if left < amount and c.uid not in s.units:  # the protector was destroyed by it
            # played in reaction mode to protect, it passes on what it could not take
            # (splash); one already in play lets nothing more through
            left = max(0, amount - room) if c.reacted else 0
        amount = left
    if amount <= 0 or target not in s.units:
        return
    if kind != "structural" and board.is_unit(s, target):  # (4) shields
        blocked = min(amount, max(0, board.shields(s, target) - u.shield_damage))
        u.shield_damage += blocked
        amount -= blocked
    if kind == "shields":
        amount = 0  # shield damage never reaches a structure
    if amount <= 0:
        s.say(E.Damage("damage", target, 0, u.shield_damage, u.damage))
        return
    if s.spec(target).kind == "terrain" and kind == "card":
        u.card_damage += amount  # kept apart: repair cannot remove it (GE-DMG-9)
    else:
        u.damage += amount  # (5)
    if board.destroyed(s, target):  # a lethal point may go to a cargo instead (GE-DMG-7)
        for c in board.on(s, target):
            if s.effect(c).takes_lethal_point(s, c, target):
                u.damage -= 1
                board.leave(s, c.uid)
                break
    s.say(E.Damage("damage", target, amount, u.shield_damage, u.damage))
    if board.destroyed(s, target):  # (6) GE-STACK-4; overkill is lost (GE-DMG-10)
        s.say(E.Destroyed("destroyed", target))
        board.leave(s, target)


def _room(s: State, uid: int, kind: str) -> int:
    """Damage of ``kind`` card ``uid`` can take before it is destroyed: what is left of its
    structure, plus its undamaged shields unless the damage skips shields."""
    u = s.units[uid]
    room = board.strength(s, uid) - u.damage - u.card_damage
    if board.is_unit(s, uid) and kind != "structural":
        room += max(0, board.shields(s, uid) - u.shield_damage)
    return max(0, room)


def _hit_hq(s: State, seat: int, amount: int, kind: str, source: int) -> None:
    if amount <= 0 or s.winner is not None:
        return
    p = s.players[seat]
    p.hq = min(hq_limit(s), p.hq + amount)  # the counter stops where the game does
    s.quiet_mark += 1
    s.say(E.Hq("hq", seat, amount, p.hq))
    if p.hq >= hq_limit(s):  # GE-WIN-1
        s.winner, s.end = 1 - seat, "hq"
        s.say(E.Eliminated("eliminated", seat))
        return
    if kind == "weapons" and amount >= 6 and s.edition == "full":  # GE-WIN-4
        shooter = s.players[source]
        if shooter.deck:
            shooter.hand.append(shooter.deck.pop())
            s.say(E.Celebration("celebration", source))
