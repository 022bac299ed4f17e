"""The End phase: conquest (END-1, END-2), cleanup (END-3), abandoned fighters (FIGHTER-2),
eliminations (END-4), the end of the game (WIN-1, WIN-2) and the hand-over to the next turn."""
from __future__ import annotations

from typing import Final

from . import events as E
from . import tasks as T
from .flow import begin_turn, is_abandoned, next_alive
from .kernel import push, task
from .lasting import Kind, Until, drop, expire, use
from .rules import (besieged_by, destroy, destroy_lethal, discard, emit, remove_vessel, set_controller,
                    system_follows_controller, total_devs)
from .state import NOBODY, GameState


_END_PHASE: Final = (T.Cleanup(), T.Conquest(), T.BuildWindow())  # pushed last first


@task(T.End)
def _end(g: GameState, t: T.End) -> None:
    g.tasks.pop()
    g.phase = "end"
    emit(g, E.Phase("phase", "end"))
    for step in _END_PHASE:
        push(g, step)


@task(T.Conquest)
def _conquest(g: GameState, t: T.Conquest) -> None:
    """END-1: the active player's sieges take developments and conquer; then END-2 hooks."""
    g.tasks.pop()
    p = g.active
    for pos, site in enumerate(g.sites):
        if site.owner in (NOBODY, p) or not besieged_by(g, pos, p):
            continue
        ships = sum(1 for v in g.vessels.values()
                    if v.owner == p and v.pos == pos and v.d.is_ship and not v.d.is_fighter)
        removed = min(ships, site.devs)
        site.devs -= removed
        emit(g, E.Siege("siege", p, pos, removed))
        if site.devs == 0:
            old = site.owner
            set_controller(g, pos, p)
            site.devs = 1
            emit(g, E.Conquer("conquer", p, pos, old))
    for v in list(g.vessels.values()):
        if v.owner == p and v.id in g.vessels:
            hook = g.rules.by_card[v.id].conquest
            if hook is not None:
                hook(g, v)


@task(T.Cleanup)
def _cleanup(g: GameState, t: T.Cleanup) -> None:
    """END-3 cleanup, FIGHTER-2, END-4 eliminations, WIN-1/WIN-2, then the next turn."""
    g.tasks.pop()
    p = g.active
    for fid in g.abandoned:
        v = g.vessels.get(fid)
        if v is not None and v.owner == p and is_abandoned(g, v):
            destroy(g, v)
    g.abandoned = []
    heal = g.ed.damage_heals_at_end
    for v in g.vessels.values():  # TURN-3: what counts per turn starts again
        v.jumps = 0
        v.moved = v.built = False
        if heal:
            v.damage = 0
    expire(g, Until.END_OF_TURN)
    destroy_lethal(g)  # [C] damage stays while "until end of turn" hit points go
    g.prev_turn[p] = g.turn
    g.offers_made = 0
    for q in range(g.cfg.players):
        owner = g.sites[g.homeworld[q]].owner
        if g.alive[q] and owner != q and owner != NOBODY:
            eliminate(g, q)
    if sum(g.alive) == 1:
        finish(g, g.alive.index(True))
        return
    if sum(g.alive) == 0:
        finish(g, -1)
        return
    limit = g.cfg.turn_limit
    if limit is not None and g.turn + 1 >= limit:
        finish_by_score(g)
        return
    if not (g.alive[p] and use(g, Kind.EXTRA_TURN, p)):
        drop(g, Kind.EXTRA_TURN)
        g.active = next_alive(g, p)
    g.turn += 1
    begin_turn(g)


def eliminate(g: GameState, q: int) -> None:
    """END-4: the player's pieces leave the board; hand and technologies are discarded."""
    g.alive[q] = False
    expire(g, Until.READY, q)  # they will have no Ready phase to end what waits for it
    for v in [v for v in g.vessels.values() if v.owner == q]:
        remove_vessel(g, v)
    for pos, s in enumerate(g.sites):
        if s.owner == q:
            s.owner, s.devs = NOBODY, 0
            system_follows_controller(g, pos)
    for cid in g.hands[q] + g.techs[q]:
        discard(g, cid)
    g.hands[q], g.techs[q] = [], []
    emit(g, E.Eliminated("eliminated", q))


def finish(g: GameState, winner: int) -> None:
    g.winner, g.over = winner, True
    g.step, g.actor = "over", NOBODY
    g.tasks.clear()
    emit(g, E.GameOver("game_over", winner))


def finish_by_score(g: GameState) -> None:
    """WIN-2: most developments, then most credits, else a draw."""
    living = [q for q in range(g.cfg.players) if g.alive[q]]
    best = max((total_devs(g, q), g.credits[q]) for q in living)
    top = [q for q in living if (total_devs(g, q), g.credits[q]) == best]
    finish(g, top[0] if len(top) == 1 else -1)
