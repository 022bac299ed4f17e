"""Combat phase (COMBAT-1..8): pick a system, then window, assign, window, resolve, window,
retreat, window, for every system where two or more players have vessels."""
from __future__ import annotations

from typing import Final

from . import events as E
from . import lasting as L
from . import tasks as T
from .board import neighbours
from .flow import clockwise_from_active, open_phase
from .kernel import push, task
from .rules import attack, can_attack, can_enter, destroy, emit, enter, is_lethal, max_targets, speed, usable_attack
from .state import ActionTuple, GameState, Vessel
from .tasks import Window

# The fight sequence of COMBAT-2, as pushed (the last runs first): window, assign, window
# (redirects), resolve, window, retreat, window.
_FIGHT: Final = (T.CombatEnd(), T.Prio(Window.COMBAT), T.Retreat(), T.Prio(Window.COMBAT), T.Damage(),
          T.Prio(Window.AFTER_ASSIGN), T.Assign(), T.Prio(Window.COMBAT))
_AFTER_ASSIGN: Final = Window.AFTER_ASSIGN


def _redirects_open(g: GameState) -> bool:
    """COMBAT-5: the window after assignment is open (written for speed: priority rounds ask
    it for every player)."""
    t = g.tasks[-1]
    return type(t) is T.Prio and t.window is _AFTER_ASSIGN


def combat_systems(g: GameState) -> list[int]:
    """COMBAT-1: systems with vessels of two or more players, not yet fought this phase."""
    owners: dict[int, int] = {}
    multi: set[int] = set()
    for v in g.vessels.values():
        o = owners.setdefault(v.pos, v.owner)
        if o != v.owner:
            multi.add(v.pos)
    return sorted(multi.difference(g.fought))


@task(T.Combat)
def _combat(g: GameState, t: T.Combat) -> None:
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
    emit(g, E.Combat("combat", pos))
    for t in _FIGHT:
        push(g, t)


# --------------------------------------------------------------------------- assign


def assigned_by(g: GameState, src: int) -> tuple[int, set[int]]:
    """Damage already assigned by vessel ``src`` and the targets it chose."""
    total, targets = 0, set[int]()
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


@task(T.Assign)
def _assign(g: GameState, t: T.Assign) -> None:
    """COMBAT-3: the active player, then each other player clockwise, assigns damage."""
    order = clockwise_from_active(g)
    i = t.index
    while i < len(order):
        p = order[i]
        if attackers(g, p) and opponents_here(g, p):
            if i != t.index:
                g.tasks[-1] = T.Assign(i)
            g.step, g.actor = "assign", p
            return
        i += 1
    g.tasks.pop()


def check_assign(g: GameState, p: int, a: ActionTuple) -> str | None:
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


def do_assign(g: GameState, p: int, a: ActionTuple) -> None:
    _, src, tgt, amt = a
    g.assigned.append([src, tgt, amt])
    g.sites[g.combat_pos].combat_turn = g.turn  # COMBAT-8
    emit(g, E.Assign("assign", p, src, tgt, amt))
    if not _assignments(g, p, [], any_will_do=True):  # nothing left to assign: this player is done
        do_done(g, p, ("done",))


def _assignments(g: GameState, p: int, out: list[ActionTuple], any_will_do: bool = False) -> list[ActionTuple]:
    """Add every legal ``assign`` of ``p`` to ``out`` and return it; with ``any_will_do``, stop
    after the first vessel that has any (:func:`do_assign` only asks whether one is left)."""
    pos = g.combat_pos
    mine: list[Vessel] = []
    foes: list[Vessel] = []  # opponents_here()
    for v in g.vessels.values():
        if v.pos == pos:
            (mine if v.owner == p else foes).append(v)
    for v in mine:  # the attackers(), each one's attack worked out once
        power = usable_attack(g, v)
        if power <= 0:
            continue
        done, targets = assigned_by(g, v.id)
        left = power - done
        if left <= 0:
            continue
        limit = max_targets(g, v)
        if limit == 1:
            if not done:
                for f in foes:
                    out.append(("assign", v.id, f.id, left))
        else:
            for f in foes:
                if f.id in targets or len(targets) < limit:
                    for amt in range(1, left + 1):
                        out.append(("assign", v.id, f.id, amt))
        if any_will_do and out:
            break
    return out


def assign_actions(g: GameState, p: int) -> list[ActionTuple]:
    return _assignments(g, p, [("done",)])


def do_done(g: GameState, p: int, a: ActionTuple) -> None:
    t = g.tasks[-1]
    assert isinstance(t, T.PlayerRound), "done ends a player's assignment or retreats"
    g.tasks[-1] = type(t)(t.index + 1)
    g.step = None


# --------------------------------------------------------------------------- redirect


def check_redirect(g: GameState, p: int, a: ActionTuple) -> str | None:
    if len(a) != 3:
        return "redirect takes the redirecting vessel and the vessel whose damage it takes"
    if not _redirects_open(g):
        return "COMBAT-5: redirects happen after assignment, before damage resolves"
    _, rid, fid = a
    rv, fv = g.vessels.get(rid), g.vessels.get(fid)
    if rv is None or rv.owner != p or rv.pos != g.combat_pos or not (rv.d.redirect or L.may_redirect(g, rid)):
        return "COMBAT-5: that vessel cannot redirect"
    if L.has_redirected(g, rid):
        return "COMBAT-5: a vessel redirects once per combat"
    if fv is None or fv is rv or fv.owner != p or fv.pos != g.combat_pos:
        return "COMBAT-5: redirect from another of your vessels in the system"
    if not any(t == fid for _, t, _ in g.assigned):
        return "COMBAT-5: no damage is assigned to that vessel"
    return None


def do_redirect(g: GameState, p: int, a: ActionTuple) -> None:
    _, rid, fid = a
    for entry in g.assigned:
        if entry[1] == fid:
            entry[1] = rid
    L.add(g, L.Kind.REDIRECTED, rid, rid, p, L.Until.COMBAT)
    emit(g, E.Redirect("redirect", p, rid, fid))  # priority.do_redirect then reopens the round


def redirect_actions(g: GameState, p: int) -> list[ActionTuple]:
    if not _redirects_open(g):
        return []
    hit = {t for _, t, _ in g.assigned}
    mine = [v for v in g.vessels.values() if v.owner == p and v.pos == g.combat_pos]
    return [("redirect", r.id, f.id) for r in mine
            if (r.d.redirect or L.may_redirect(g, r.id)) and not L.has_redirected(g, r.id)
            for f in mine if f is not r and f.id in hit]


# --------------------------------------------------------------------------- resolve


@task(T.Damage)
def _damage(g: GameState, t: T.Damage) -> None:
    """COMBAT-6: all assigned damage lands at once; vessels destroyed earlier deal none."""
    g.tasks.pop()
    totals: dict[int, int] = {}
    pos = g.combat_pos
    for src, tgt, amt in g.assigned:
        # Vessels destroyed or moved away before resolution neither deal nor take it (TARGET-1).
        source, target = g.vessels.get(src), g.vessels.get(tgt)
        if source is not None and target is not None and source.pos == pos and target.pos == pos:
            totals[tgt] = totals.get(tgt, 0) + amt
    g.assigned = []
    hit = []
    for tgt, amt in totals.items():
        v = g.vessels[tgt]
        if L.shielded(g, tgt):
            emit(g, E.Prevented("prevented", tgt, amt))
            continue
        v.damage += amt
        emit(g, E.Damage("damage", tgt, amt))
        hit.append(v)
    for v in hit:
        if is_lethal(g, v):
            destroy(g, v)


# --------------------------------------------------------------------------- retreat


def retreat_actions(g: GameState, p: int) -> list[ActionTuple]:
    """COMBAT-7: ships that have not moved this turn may go to an adjacent system you control."""
    pos = g.combat_pos
    if L.jump_forbidden(g, pos):
        return []
    adj = [n for n in neighbours(g.cfg.size)[pos] if g.sites[n].owner == p]
    if not adj:
        return []
    out: list[ActionTuple] = []
    for v in g.vessels.values():
        if v.owner == p and v.pos == pos and v.d.is_ship and not v.moved and speed(g, v) >= 1:
            out.extend(("retreat", v.id, n) for n in adj if can_enter(g, v, n))
    return out


@task(T.Retreat)
def _retreat(g: GameState, t: T.Retreat) -> None:
    """COMBAT-7: the active player, then each other player clockwise, may retreat."""
    order = clockwise_from_active(g)
    i = t.index
    while i < len(order):
        p = order[i]
        if retreat_actions(g, p):
            if i != t.index:
                g.tasks[-1] = T.Retreat(i)
            g.step, g.actor = "retreat", p
            return
        i += 1
    g.tasks.pop()


def check_retreat(g: GameState, p: int, a: ActionTuple) -> str | None:
    if a not in retreat_actions(g, p):
        return "COMBAT-7: only an unmoved ship of yours may retreat, to an adjacent system you control"
    return None


def do_retreat(g: GameState, p: int, a: ActionTuple) -> None:
    _, vid, dest = a
    v = g.vessels[vid]
    emit(g, E.Retreat("retreat", p, vid, dest))
    enter(g, v, dest, False)
    if not retreat_actions(g, p):
        do_done(g, p, ("done",))


@task(T.CombatEnd)
def _combat_end(g: GameState, t: T.CombatEnd) -> None:
    g.tasks.pop()
    L.expire(g, L.Until.COMBAT)
    g.combat_pos = -1
    g.assigned = []


def check_fight(g: GameState, p: int, a: ActionTuple) -> str | None:
    if len(a) != 2 or a[1] not in combat_systems(g):
        return "COMBAT-1: choose one of the systems still to be fought"
    return None


def do_fight(g: GameState, p: int, a: ActionTuple) -> None:
    g.step = None
    start_fight(g, a[1])


def fight_actions(g: GameState, p: int) -> list[ActionTuple]:
    return [("fight", pos) for pos in combat_systems(g)]
