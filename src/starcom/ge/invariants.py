"""Facts every Galactic Empires position keeps, checked by self-play after each action.

Each check returns messages (empty: all well). They state what must hold whatever the rules
did: every card is in exactly one place, counters stay in their ranges, the links between
cards in play are consistent, and Sector HQ damage never goes down.
"""
from __future__ import annotations

from typing import Any

from . import board
from .combat import hq_limit
from .game import GalacticEmpires
from .state import PHASES
from .turn import held


def _pending(g: GalacticEmpires) -> list[int]:
    """Cards announced and not yet resolved: out of the hand, not yet anywhere else."""
    return [uid for item in g.s.chain + g.s.queued for uid in held(item)]


def check_state(g: GalacticEmpires) -> list[str]:
    s = g.s
    problems: list[str] = []
    seen: dict[int, str] = {}

    def note(uid: int, where: str) -> None:
        if uid in seen:
            problems.append(f"card {uid} is both in {seen[uid]} and in {where}")
        seen[uid] = where

    for seat, p in enumerate(s.players):
        for zone in ("deck", "hand", "discard", "reserve", "aside"):
            for uid in getattr(p, zone):
                note(uid, f"P{seat}'s {zone}")
                if s.owner_of[uid] != seat:
                    problems.append(f"card {uid} of P{s.owner_of[uid]} is in P{seat}'s {zone}")
        if any(n < 0 for n in p.pool):
            problems.append(f"P{seat}'s pool has a negative count: {p.pool}")
        if not 0 <= p.hq <= hq_limit(s) + 30:
            problems.append(f"P{seat}'s Sector HQ damage {p.hq} is out of range")
    for uid, u in s.units.items():
        note(uid, "play")
        if u.uid != uid or u.owner != s.owner_of[uid]:
            problems.append(f"card {uid} in play has uid {u.uid} and owner {u.owner}")
        if u.parent is not None and u.parent >= 0 and u.parent not in s.units:
            problems.append(f"card {uid} sits on card {u.parent}, which is not in play")
        if u.partner is not None and (u.partner not in s.units or s.units[u.partner].partner != uid):
            problems.append(f"card {uid}'s Krebiz partner {u.partner} does not name it back")
        if u.shield_damage < 0 or u.damage < 0 or u.loaded < 0:
            problems.append(f"card {uid} has a negative counter")
        if board.is_unit(s, uid) and board.basis(s, uid) == uid and u.shield_damage > board.shields(s, uid):
            problems.append(f"card {uid} has {u.shield_damage} shield damage but {board.shields(s, uid)} shields")
    for uid in _pending(g):
        note(uid, "the chain")
    problems += _known_in_hand(g)
    missing = set(range(len(s.spec_of))) - set(seen)
    if missing:
        problems.append(f"cards nowhere: {sorted(missing)[:10]}")
    if s.phase not in PHASES:
        problems.append(f"unknown phase {s.phase!r}")
    if g.over != (s.winner is not None):
        problems.append(f"over is {g.over} but the winner is {s.winner}")
    if not g.over and not g.legal_actions():
        problems.append("the game runs but nobody has a legal action")
    return problems


def _known_in_hand(g: GalacticEmpires) -> list[str]:
    """The marks of cards known to be in a hand (``Player.shown``), which every position made
    for the opponent keeps in place: each marks a card that is there, once, and a card named
    by a swap still pending and still in the hand is marked (GE-DIG-2)."""
    s = g.s
    problems = []
    for seat, p in enumerate(s.players):
        for uid in p.shown:
            if uid not in p.hand:
                problems.append(f"card {uid} is marked as known in P{seat}'s hand but is not in it")
        if len(set(p.shown)) != len(p.shown):
            problems.append(f"P{seat}'s known hand cards are marked more than once: {p.shown}")
    for item in s.chain + s.queued:
        p = s.players[item.player]
        if item.kind == "swap" and item.action[1] in p.hand and item.action[1] not in p.shown:
            problems.append(f"card {item.action[1]}, named by a pending swap, is in P{item.player}'s hand unmarked")
    return problems


def check_step(before: GalacticEmpires, action: Any, after: GalacticEmpires) -> list[str]:
    problems = []
    for seat in range(2):
        if after.s.players[seat].hq < before.s.players[seat].hq:
            problems.append(f"P{seat}'s Sector HQ damage went down after {action!r}")
        if after.s.players[seat].turns < before.s.players[seat].turns:
            problems.append(f"P{seat}'s turn count went down after {action!r}")
    return problems
