"""Point Allocation (GE-ALLOC-*): production, then the active player's plan, one step at a time.

The plan of GE-ALLOC-14 is entered as small actions, each checked at once against the pool:
``pay`` a card's whole engagement cost, ``load`` one heavy weapon, ``repair`` one point of
damage, ``research`` against a card that research negates, ``use`` a card's allocation
function (Cargo, Technician), then ``allocate`` to declare the plan (the opponent may react,
GE-ALLOC-15). Payment takes points of the needed type first and declares economy for the rest
(GE-PTS-2): with one wild type that is never worse than any other way to pay, and it keeps the
Technician's doubling on a real point, as economy is never doubled. :func:`propose` offers a
whole plan. A reaction that takes points out of a declared plan is met by :func:`withdraw`
(leftovers cover it) or, when the plan had spent them, by :func:`replan` (the player starts
over; an opponent card may get its points again, never more, GE-ALLOC-11).
"""
from __future__ import annotations

from typing import Any

from . import board
from . import events as E
from .cards import POINT_TYPES
from .state import State

ECONOMY, SUPPLY, ENERGY, AMMO, RESEARCH, REPAIR = range(len(POINT_TYPES))


def produce(s: State) -> None:
    """GE-ALLOC-4: the active player's pool receives what their working cards generate. A card
    with a cost produces only once paid (its output is added by :func:`pay`). The pool and the
    fleet are kept as they are now, so a plan a reaction breaks can start over (:func:`replan`)."""
    p = s.players[s.active]
    for u in board.fleet(s, s.active):
        if board.has_cost(s, u.uid):
            continue
        for i, n in enumerate(s.effect(u).produces(s, u)):
            p.pool[i] += n
    s.plan_pool = list(p.pool)
    s.plan_units = [u.copy() for u in board.fleet(s, s.active)]
    s.say(E.Pool("pool", s.active, tuple(p.pool)))


def price(s: State, uid: int) -> list[int] | None:
    """What paying ``uid`` takes from the pool now, type by type (economy last), or None if
    the pool cannot pay it. Points only that card may use (Cargo) and its own output that
    pays for itself (a freighter's terrain bonus, GE-ALLOC-5) are counted, and so is the
    Technician's doubled energy point (GE-ALLOC-13)."""
    p = s.players[s.active]
    pool = list(p.pool)
    for i, n in enumerate(_own_output(s, uid)):
        pool[i] += n
    need = board.cost(s, uid)
    if need[ENERGY] >= 2 and pool[ENERGY] >= 1 and _doubling(s, uid, "energy"):
        # One real energy point counts twice; it takes two wanted to gain anything, and an
        # economy point declared as energy is never doubled (GE-PTS-2). Energy is taken
        # before economy below, so the doubled point is a real one.
        need[ENERGY] -= 1
    reserved = min(need[SUPPLY], p.cargo_supply.get(uid, 0))
    need[SUPPLY] -= reserved
    return _take(pool, need)


def _take(pool: list[int], need: list[int]) -> list[int] | None:
    """Points of each needed type first, economy declared for the rest (GE-PTS-2)."""
    take = [0] * len(POINT_TYPES)
    short = need[ECONOMY]
    for i, n in enumerate(need):
        if i != ECONOMY:
            take[i] = min(n, pool[i])
            short += n - take[i]
    if short > pool[ECONOMY]:
        return None
    take[ECONOMY] = short
    return take


def _doubling(s: State, uid: int, what: str) -> bool:
    """Has the active player's Technician picked the option that doubles one point of
    ``what`` (energy or repair) assigned to ``uid``, its own location, and not spent it?"""
    if s.players[s.active].tech != what:
        return False
    return any(s.effect(c).doubles(s, c, what) for c in board.on(s, uid) if c.owner == s.active)


def _own_output(s: State, uid: int) -> list[int]:
    out = [0] * len(POINT_TYPES)
    terrain, gain = s.effect(s.units[uid]).terrain_bonus(s, s.units[uid])
    if terrain is not None and terrain not in s.players[s.active].boosted:
        out = list(gain)
    return out


def payable(s: State) -> list[int]:
    """Cards of the active player whose cost can be paid now."""
    out = []
    for u in board.fleet(s, s.active):
        if u.paid or not board.has_cost(s, u.uid) or board.basis(s, u.uid) != u.uid:
            continue
        if any(s.units[x].split_paid for x in board.parts(s, u.uid)):
            continue  # one part is paid alone: the whole stays unpaid this phase (GE-KREB-7)
        if price(s, u.uid) is not None:
            out.append(u.uid)
    return out


def pay(s: State, uid: int) -> None:
    """Pay ``uid``'s whole cost (known payable): it will be engaged, so its own output and
    terrain bonus join the pool now (GE-ALLOC-4, GE-ALLOC-5)."""
    p = s.players[s.active]
    take = price(s, uid)
    assert take is not None
    gain = _own_output(s, uid)
    terrain, _ = s.effect(s.units[uid]).terrain_bonus(s, s.units[uid])
    if terrain is not None and any(gain):
        p.boosted.append(terrain)
    for i in range(len(POINT_TYPES)):
        p.pool[i] += gain[i] - take[i]
    p.cargo_supply.pop(uid, None)
    s.units[uid].paid = True
    for i, n in enumerate(s.effect(s.units[uid]).produces(s, s.units[uid])):  # it will be engaged
        p.pool[i] += n
    s.say(E.Pay("pay", s.active, uid))


def part_payable(s: State) -> list[int]:
    """GE-KREB-7: one part of an unpaid combination may be paid on its own."""
    out = []
    for u in board.fleet(s, s.active):
        if u.partner is None or u.split_paid or s.units[board.basis(s, u.uid)].paid:
            continue
        other = s.units[u.partner]
        if other.split_paid:
            continue
        if _part_price(s, u.uid) is not None:
            out.append(u.uid)
    return out


def _part_price(s: State, uid: int) -> list[int] | None:
    """What paying the printed cost of one part takes; a Cargo's supply for the combination
    may go to either part (GE-ALLOC-12)."""
    p = s.players[s.active]
    need = list(s.spec(uid).cost)
    need[SUPPLY] -= min(need[SUPPLY], p.cargo_supply.get(board.basis(s, uid), 0))
    return _take(p.pool, need)


def pay_part(s: State, uid: int) -> None:
    """Pay one part of a combination alone (GE-KREB-7); known payable."""
    take = _part_price(s, uid)
    assert take is not None
    p = s.players[s.active]
    for i in range(len(POINT_TYPES)):
        p.pool[i] -= take[i]
    unit = board.basis(s, uid)
    if unit in p.cargo_supply:  # the Cargo's point is spent if the part needed supply
        p.cargo_supply[unit] -= min(s.spec(uid).cost[SUPPLY], p.cargo_supply[unit])
    s.units[uid].split_paid = True
    s.say(E.PayPart("pay-part", s.active, uid))


def _point(s: State, kind: int) -> int | None:
    """The pool type that pays one point of ``kind``: the type itself, else economy."""
    pool = s.players[s.active].pool
    return kind if pool[kind] > 0 else ECONOMY if pool[ECONOMY] > 0 else None


def loadable(s: State) -> list[int]:
    if _point(s, AMMO) is None:
        return []
    out = []
    for u in board.fleet(s, s.active):
        if u.split_paid:  # GE-KREB-7: a part paid alone may be loaded, up to its own weapons
            if u.loaded < s.spec(u.uid).heavy:
                out.append(u.uid)
        elif board.basis(s, u.uid) == u.uid and board.is_unit(s, u.uid) \
                and (u.paid or not board.has_cost(s, u.uid)) and u.loaded < board.heavy(s, u.uid):
            out.append(u.uid)
    return out


def load(s: State, uid: int) -> None:
    kind = _point(s, AMMO)
    assert kind is not None
    s.players[s.active].pool[kind] -= 1
    s.units[uid].loaded += 1
    s.say(E.Load("load", s.active, uid))


def repairable(s: State) -> list[tuple[int, str]]:
    """GE-PTS-5: own units and terrain with shield or structural damage (never card damage)."""
    if _point(s, REPAIR) is None:
        return []
    out = []
    for u in board.fleet(s, s.active):
        if not s.effect(u).repairable(s, u) or board.basis(s, u.uid) != u.uid:
            continue
        if u.damage > 0:
            out.append((u.uid, "hull"))
        if u.shield_damage > 0:
            out.append((u.uid, "shield"))
    return out


def repair(s: State, uid: int, part: str) -> None:
    """One repair point on ``uid``'s ``part`` ("hull" or "shield"). A real repair point on the
    Technician's location counts as two when it picked that option (GE-ALLOC-13; never an
    economy point, GE-PTS-2): the second removes more of the same damage, else of the other."""
    p = s.players[s.active]
    kind = _point(s, REPAIR)
    assert kind is not None
    doubled = kind == REPAIR and _doubling(s, uid, "repair")
    p.pool[kind] -= 1
    if doubled:
        p.tech = "repair-used"
    u = s.units[uid]
    for _ in range(2 if doubled else 1):
        if (part == "hull" and u.damage > 0) or u.shield_damage == 0:
            u.damage = max(0, u.damage - 1)
        else:
            u.shield_damage -= 1
    s.say(E.Repair("repair", s.active, uid, part))


def researchable(s: State) -> list[int]:
    """Cards against the active player's cards that research negates (GE-ALLOC-8 (d))."""
    if _point(s, RESEARCH) is None:
        return []
    done, cap = s.players[s.active].negating, s.players[s.active].research_cap
    return [u.uid for u in s.units.values()
            if u.against and u.owner != s.active and u.parent in s.units and u.uid not in done
            and (cap is None or u.uid in cap)
            and s.units[u.parent].owner == s.active and s.effect(u).research_negates(s, u)]


def research(s: State, uid: int) -> None:
    """One research point onto ``uid``; it is negated when the plan resolves (GE-ALLOC-15),
    and each card takes points once per phase (GE-ALLOC-11)."""
    kind = _point(s, RESEARCH)
    assert kind is not None
    p = s.players[s.active]
    p.pool[kind] -= 1
    p.negating.append(uid)
    s.say(E.Research("research", s.active, uid))


def withdraw(s: State, seat: int, kind: int, amount: int) -> None:
    """A reaction took ``amount`` points of ``kind`` out of ``seat``'s declared plan. Points the
    plan left unassigned (that kind, then economy) cover the loss and the plan stands; what they
    cannot cover makes the plan impossible, and ``seat`` plans again when it resolves
    (:func:`replan`, GE-ALLOC-15)."""
    p = s.players[seat]
    for _ in range(amount):
        p.withheld[kind] += 1
        if p.pool[kind] > 0:
            p.pool[kind] -= 1
        elif p.pool[ECONOMY] > 0:
            p.pool[ECONOMY] -= 1
        else:
            p.short += 1
    s.say(E.Pool("pool", seat, tuple(p.pool)))


def replan(s: State) -> None:
    """The declared plan cannot stand: every step is undone (payments, loads, repairs, research,
    a Cargo's discard, the Technician's option), the pool is what was produced less what the
    reaction took, and the active player enters a new plan. Research may then go only to the
    cards the first plan gave it to, no more than before (GE-ALLOC-11)."""
    p = s.players[s.active]
    cap = list(p.negating)
    for old in s.plan_units:
        if old.uid not in s.units:  # a card the plan discarded (Cargo) comes back where it was
            owner = s.players[old.owner]
            if old.uid in owner.discard:
                owner.discard.remove(old.uid)
            s.units[old.uid] = old.copy()
            continue
        u = s.units[old.uid]
        u.paid, u.loaded, u.damage, u.shield_damage, u.split_paid, u.used = (
            old.paid, old.loaded, old.damage, old.shield_damage, old.split_paid, old.used)
    p.pool = [max(0, n - w) for n, w in zip(s.plan_pool, p.withheld)]
    p.cargo_supply.clear()
    p.boosted.clear()
    p.negating.clear()
    p.tech = ""
    p.short = 0
    p.research_cap = cap
    s.say(E.Replan("replan", s.active, tuple(p.pool)))


def negate(s: State) -> None:
    """The plan resolves: cards that received their research are negated."""
    p = s.players[s.active]
    for uid in p.negating:
        if uid in s.units:
            s.say(E.Negate("negate", s.active, uid))
            board.leave(s, uid)
    p.negating.clear()


def actions(s: State) -> list[tuple[Any, ...]]:
    """Every allocation step open to the active player, then ``allocate``."""
    out: list[tuple[Any, ...]] = [("pay", uid) for uid in payable(s)]
    out += [("pay-part", uid) for uid in part_payable(s)]
    out += [("load", uid) for uid in loadable(s)]
    out += [("repair", uid, part) for uid, part in repairable(s)]
    out += [("research", uid) for uid in researchable(s)]
    for u in board.fleet(s, s.active):
        out += [("use", u.uid, *args) for args in s.effect(u).allocation_uses(s, u)]
    out.append(("allocate",))
    return out


def clear(s: State) -> None:
    """GE-PTS-6: points not assigned are lost at the end of the phase."""
    p = s.players[s.active]
    p.pool = [0] * len(POINT_TYPES)
    p.cargo_supply.clear()
    p.boosted.clear()
    p.tech = ""
    p.withheld = [0] * len(POINT_TYPES)
    p.short = 0
    p.research_cap = None


# --------------------------------------------------------------------------- the plan helper


def propose(s: State) -> list[tuple[Any, ...]]:
    """A plan for the active player's allocation as the steps to enter (``allocate`` not
    included), GE-ALLOC-14's helper, a convenience and no rule: research from real research
    points onto the cards it negates (research has no other use), then pay the strongest
    payable card while one is left, then load heavy weapons (strongest ship first), then
    repair structure before shields. Worked out on a copy; the position is not changed."""
    t = s.clone()
    steps: list[tuple[Any, ...]] = []

    def step(action: tuple[Any, ...]) -> None:
        steps.append(action)
        kind, uid = action[0], action[1]
        if kind == "research":
            research(t, uid)
        elif kind == "pay":
            pay(t, uid)
        elif kind == "load":
            load(t, uid)
        else:
            repair(t, uid, action[2])

    while t.players[t.active].pool[RESEARCH] and researchable(t):
        step(("research", researchable(t)[0]))
    while payable(t):
        step(("pay", max(payable(t), key=lambda uid: (board.strength(t, uid), -uid))))
    while loadable(t):
        step(("load", max(loadable(t), key=lambda uid: (board.strength(t, uid), -uid))))
    while repairable(t):
        options = repairable(t)
        uid, part = next((o for o in options if o[1] == "hull"), options[0])
        step(("repair", uid, part))
    return steps
