"""Combat phase (COMBAT-1..8): pick a system, then window, assign, window, resolve, window,
retreat, window, for every system where two or more players have vessels."""
from __future__ import annotations

from .board import neighbours
from .flow import clockwise_from_active, open_phase, push, settle_priority, task
from .rules import attack, can_attack, can_enter, destroy, emit, enter, is_lethal, max_targets, speed
from .state import GameState, Vessel

Action = tuple


def combat_systems(g: GameState) -> list[int]:
    """COMBAT-1: systems with vessels of two or more players, not yet fought this phase."""
    owners: dict[int, int] = {}
    multi = set()
    for v in g.vessels.values():
        o = owners.setdefault(v.pos, v.owner)
        if o != v.owner:
            multi.add(v.pos)
    return sorted(multi.difference(g.fought))


@task("combat")
def _combat(g: GameState, t: list) -> None:
    open_phase(g, t, "combat")
    left = combat_systems(g)
    if not left:
        g.tasks.pop()
        g.fought = []
        return
    if len(left) == 1:
        start_fight(g, left[0])
        return
    g.step, g.actor = "combat_pick", g.active


def start_fight(g: GameState, pos: int) -> None:
    """COMBAT-2: window, assign, window (redirects), resolve, window, retreat, window."""
    g.fought.append(pos)
    g.combat_pos = pos
    emit(g, "combat", pos)
    for t in (["combat_end"], ["prio", 1], ["retreat", 0], ["prio", 1], ["damage"], ["prio", 2],
              ["assign", 0], ["prio", 1]):
        push(g, *t)


# --------------------------------------------------------------------------- assign


def assigned_by(g: GameState, src: int) -> tuple[int, set[int]]:
    """Damage already assigned by vessel ``src`` and the targets it chose."""
    total, targets = 0, set()
    for s, t, amt in g.assigned:
        if s == src:
            total += amt
            targets.add(t)
    return total, targets


def attackers(g: GameState, p: int) -> list[Vessel]:
    pos = g.combat_pos
    return [v for v in g.vessels.values() if v.owner == p and v.pos == pos and can_attack(g, v)]


def opponents_here(g: GameState, p: int) -> list[Vessel]:
    pos = g.combat_pos
    return [v for v in g.vessels.values() if v.pos == pos and v.owner != p]


@task("assign")
def _assign(g: GameState, t: list) -> None:
    """COMBAT-3: the active player, then each other player clockwise, assigns damage."""
    order = clockwise_from_active(g)
    while t[1] < len(order):
        p = order[t[1]]
        if attackers(g, p) and opponents_here(g, p):
            g.step, g.actor = "assign", p
            return
        t[1] += 1
    g.tasks.pop()


def check_assign(g: GameState, p: int, a: Action) -> str | None:
    if len(a) != 4:
        return "assign takes a vessel, a target and an amount"
    _, src, tgt, amt = a
    v, target = g.vessels.get(src), g.vessels.get(tgt)
    if v is None or v.owner != p or v.pos != g.combat_pos:
        return "COMBAT-3: assign with one of your vessels in the system being fought"
    if target is None or target.pos != g.combat_pos or target.owner == p:
        return "TARGET-1: the target must be an opposing vessel in the same system"
    if not can_attack(g, v):
        return "COMBAT-3: this vessel cannot attack"
    done, targets = assigned_by(g, src)
    left = attack(g, v) - done
    if not isinstance(amt, int) or not 1 <= amt <= left:
        return f"COMBAT-4: the amount must be a whole number from 1 to {left}"
    limit = max_targets(g, v)
    if limit == 1 and (done or amt != left):
        return "COMBAT-3: this vessel deals its whole attack to one target"
    if tgt not in targets and len(targets) >= limit:
        return f"COMBAT-4: this vessel may divide its damage among at most {limit} targets"
    return None


def do_assign(g: GameState, p: int, a: Action) -> None:
    _, src, tgt, amt = a
    g.assigned.append([src, tgt, amt])
    g.sites[g.combat_pos].combat_turn = g.turn  # COMBAT-8
    emit(g, "assign", p, src, tgt, amt)
    if len(assign_actions(g, p)) == 1:  # nothing left to assign: this player is done
        do_done(g, p, ("done",))


def assign_actions(g: GameState, p: int) -> list[Action]:
    out: list[Action] = [("done",)]
    foes = opponents_here(g, p)
    for v in attackers(g, p):
        done, targets = assigned_by(g, v.id)
        left = attack(g, v) - done
        if left <= 0:
            continue
        limit = max_targets(g, v)
        if limit == 1:
            if not done:
                out.extend(("assign", v.id, f.id, left) for f in foes)
            continue
        for f in foes:
            if f.id in targets or len(targets) < limit:
                out.extend(("assign", v.id, f.id, amt) for amt in range(1, left + 1))
    return out


def do_done(g: GameState, p: int, a: Action) -> None:
    g.tasks[-1][1] += 1
    g.step = None


# --------------------------------------------------------------------------- redirect


def check_redirect(g: GameState, p: int, a: Action) -> str | None:
    if len(a) != 3:
        return "redirect takes the redirecting vessel and the vessel whose damage it takes"
    if g.tasks[-1] != ["prio", 2]:
        return "COMBAT-5: redirects happen after assignment, before damage resolves"
    _, rid, fid = a
    rv, fv = g.vessels.get(rid), g.vessels.get(fid)
    if rv is None or rv.owner != p or rv.pos != g.combat_pos or not (rv.d.redirect or rv.can_redirect):
        return "COMBAT-5: that vessel cannot redirect"
    if rv.redirected:
        return "COMBAT-5: a vessel redirects once per combat"
    if fv is None or fv is rv or fv.owner != p or fv.pos != g.combat_pos:
        return "COMBAT-5: redirect from another of your vessels in the system"
    if not any(t == fid for _, t, _ in g.assigned):
        return "COMBAT-5: no damage is assigned to that vessel"
    return None


def do_redirect(g: GameState, p: int, a: Action) -> None:
    _, rid, fid = a
    for entry in g.assigned:
        if entry[1] == fid:
            entry[1] = rid
    g.vessels[rid].redirected = True
    emit(g, "redirect", p, rid, fid)
    g.prio, g.passes = g.active, 0  # treated like an addition to the round (RESP-1)
    settle_priority(g)


def redirect_actions(g: GameState, p: int) -> list[Action]:
    if g.tasks[-1] != ["prio", 2]:
        return []
    hit = {t for _, t, _ in g.assigned}
    mine = [v for v in g.vessels.values() if v.owner == p and v.pos == g.combat_pos]
    return [("redirect", r.id, f.id) for r in mine if (r.d.redirect or r.can_redirect) and not r.redirected
            for f in mine if f is not r and f.id in hit]


# --------------------------------------------------------------------------- resolve


@task("damage")
def _damage(g: GameState, t: list) -> None:
    """COMBAT-6: all assigned damage lands at once; vessels destroyed earlier deal none."""
    g.tasks.pop()
    totals: dict[int, int] = {}
    pos = g.combat_pos
    for src, tgt, amt in g.assigned:
        # Vessels destroyed or moved away before resolution neither deal nor take it (TARGET-1).
        s, t = g.vessels.get(src), g.vessels.get(tgt)
        if s is not None and t is not None and s.pos == pos and t.pos == pos:
            totals[tgt] = totals.get(tgt, 0) + amt
    g.assigned = []
    hit = []
    for tgt, amt in totals.items():
        v = g.vessels[tgt]
        if v.shielded:
            emit(g, "prevented", tgt, amt)
            continue
        v.damage += amt
        emit(g, "damage", tgt, amt)
        hit.append(v)
    for v in hit:
        if is_lethal(g, v):
            destroy(g, v)


# --------------------------------------------------------------------------- retreat


def retreat_actions(g: GameState, p: int) -> list[Action]:
    """COMBAT-7: ships that have not moved this turn may go to an adjacent system you control."""
    pos = g.combat_pos
    if g.sites[pos].interdicted_by:
        return []
    adj = [n for n in neighbours(g.cfg.size)[pos] if g.sites[n].owner == p]
    if not adj:
        return []
    out: list[Action] = []
    for v in g.vessels.values():
        if v.owner == p and v.pos == pos and v.d.kind == "ship" and not v.moved and speed(g, v) >= 1:
            out.extend(("retreat", v.id, n) for n in adj if can_enter(g, v, n))
    return out


@task("retreat")
def _retreat(g: GameState, t: list) -> None:
    order = clockwise_from_active(g)
    while t[1] < len(order):
        p = order[t[1]]
        if retreat_actions(g, p):
            g.step, g.actor = "retreat", p
            return
        t[1] += 1
    g.tasks.pop()


def check_retreat(g: GameState, p: int, a: Action) -> str | None:
    if a not in retreat_actions(g, p):
        return "COMBAT-7: only an unmoved ship of yours may retreat, to an adjacent system you control"
    return None


def do_retreat(g: GameState, p: int, a: Action) -> None:
    _, vid, dest = a
    v = g.vessels[vid]
    emit(g, "retreat", p, vid, dest)
    enter(g, v, dest, False)
    if not retreat_actions(g, p):
        do_done(g, p, ("done",))


@task("combat_end")
def _combat_end(g: GameState, t: list) -> None:
    g.tasks.pop()
    for v in g.vessels.values():
        v.redirected = False
    g.combat_pos = -1
    g.assigned = []


def check_fight(g: GameState, p: int, a: Action) -> str | None:
    if len(a) != 2 or a[1] not in combat_systems(g):
        return "COMBAT-1: choose one of the systems still to be fought"
    return None


def do_fight(g: GameState, p: int, a: Action) -> None:
    g.step = None
    start_fight(g, a[1])


def fight_actions(g: GameState, p: int) -> list[Action]:
    return [("fight", pos) for pos in combat_systems(g)]
