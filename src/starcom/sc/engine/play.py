"""Playing cards and using abilities (PLAY-1, PLAY-2, BUILD-8), and resolving the stack (RESP-3).

A stack item is a flat list ``[kind, player, source, *targets]`` with kind ``"card"`` (the card
itself is on the stack) or ``"ability"`` (source is the technology or system card).
"""
from __future__ import annotations

from typing import Any, Iterable

from .ruleset import Targets
from . import events as E
from . import tasks as T
from .kernel import task
from .rules import discard, emit, place_vessel, station_banned, system_effects_active
from .state import Choice, GameState


def station_targets(g: GameState, p: int) -> list[Targets]:
    """BUILD-8 with BUILD-2 and BUILD-5: systems where ``p`` may put a station."""
    return [(pos,) for pos, s in enumerate(g.sites) if s.owner == p and station_banned(g, p, pos) is None]


def play_targets(g: GameState, p: int, cid: int) -> Iterable[Targets]:
    """Legal target tuples for playing card ``cid`` (wherever the card now is)."""
    d = g.rules.cards[cid]
    if d.is_command:
        hook = g.rules.by_card[cid].targets
        return hook(g, p, cid) if hook else [()]
    if d.is_technology:
        return [()]
    if d.is_station:
        return station_targets(g, p) if g.credits[p] >= d.cost else []
    return []


def ability_sources(g: GameState, p: int) -> list[int]:
    """Technologies and (active) systems of ``p`` that have an ability."""
    able = g.rules.ability_cards
    out: list[int] = []
    for cid in g.techs[p]:  # loops, not comprehensions: asked at every Command and priority decision
        if cid in able:
            out.append(cid)
    for pos, s in enumerate(g.sites):
        if s.card in able and s.owner == p and s.face_up and system_effects_active(g, pos):
            out.append(s.card)
    return out


def ability_targets(g: GameState, p: int, src: int) -> Iterable[Targets]:
    """Legal target tuples for using the ability of ``src`` (an ability without a ``targets``
    hook takes none, like a Command without one)."""
    eff = g.rules.by_card[src]
    if eff.cost == "discard" and not g.hands[p]:
        return []
    return eff.targets(g, p, src) if eff.targets is not None else [()]


def play_card(g: GameState, p: int, cid: int, targets: Targets) -> list[Any]:
    """Take the card from the hand and pay for it; return its stack item (``priority`` puts
    it on the stack, and responses follow, RESP-1)."""
    d = g.rules.cards[cid]
    g.hands[p].remove(cid)
    if d.is_station:
        g.credits[p] -= d.cost
    emit(g, E.Play("play", p, cid, *targets))
    return ["card", p, cid, *targets]


def use_ability(g: GameState, p: int, src: int, targets: Targets) -> list[Any] | None:
    """Pay for the ability of ``src`` and return its stack item; None when it is paid by a
    discard, which is asked first (the ``ability_discard`` choice puts it on the stack)."""
    eff = g.rules.by_card[src]
    emit(g, E.Ability("ability", p, src, *targets))
    if eff.cost == "credits":
        g.credits[p] -= targets[-1]
    elif eff.cost == "discard":
        g.choice = Choice(p, "ability_discard", tuple(g.hands[p]), item=("ability", p, src, *targets),
                          in_round=g.step == "priority")
        g.step, g.actor = "choice", p
        return None
    return ["ability", p, src, *targets]


def still_valid(g: GameState, p: int, src: int, targets: Targets, ability: bool) -> bool:
    """RESP-3: are the targets still legal now?"""
    eff = g.rules.by_card[src]
    if eff.valid is not None:
        return eff.valid(g, p, src, targets)
    if ability:
        return targets in set(eff.targets(g, p, src)) if eff.targets is not None else targets == ()
    return targets in set(play_targets(g, p, src))


def resolve_item(g: GameState, item: list[Any]) -> None:
    kind, p, src, *rest = item
    targets = tuple(rest)
    d = g.rules.cards[src]
    eff = g.rules.by_card[src]
    if kind == "card" and d.is_technology:
        g.techs[p].append(src)
        emit(g, E.Technology("technology", p, src))
        return
    if kind == "card" and d.is_station:
        if station_banned(g, p, targets[0]) is None:
            place_vessel(g, src, p, targets[0])
        else:
            emit(g, E.Void("void", p, src))
            discard(g, src)
        return
    if not g.alive[p] or not still_valid(g, p, src, targets, kind == "ability"):
        emit(g, E.Void("void", p, src))
    else:
        emit(g, E.Resolve("resolve", p, src, *targets))
        eff.resolve(g, p, src, targets)
    if kind == "card":
        discard(g, src)  # PLAY-2


@task(T.Resolve)
def _resolve(g: GameState, t: T.Resolve) -> None:
    """Resolve the stack last in, first out; effects may queue tasks above this one."""
    if not g.stack:
        g.tasks.pop()
        return
    resolve_item(g, g.stack.pop())


def cancel_item(g: GameState, cid: int) -> bool:
    """Remove the Command ``cid`` from the stack unresolved (it is discarded)."""
    for i, item in enumerate(g.stack):
        if item[0] == "card" and item[2] == cid:
            del g.stack[i]
            discard(g, cid)
            emit(g, E.Countered("countered", cid))
            return True
    return False

