"""A quick scripted policy for the decisions a search does not branch on.

Inside an ISMCTS tree the other players' decisions, and everything after the searching
player ends its Command phase, are played by this script instead of being searched. Like
:func:`~.evaluation.passive` it passes, declines and never retreats, but it *fights back*:
opponents that assigned no damage at all made every fight look free to the search.

The script only picks among ``g.legal_actions()``; the engine keeps every rule.
"""
from __future__ import annotations

from typing import Final

from ..engine import lasting as L
from ..engine import rules as R
from ..engine.actions import Action
from ..engine.game import Game
from .evaluation import GREEDY, passive, vessel_value

TURN_STEPS: Final = 400  # safety bound on the decisions played to finish a turn


def focus_fire(g: Game) -> Action:
    """The assignment of ``g.to_move`` (an ``assign`` decision) that destroys the most valuable
    vessel it can with the fewest points, else wears down the most valuable one; ``done``
    when nothing is left to assign."""
    pending: dict[int, int] = {}
    for _, tgt, amt in g.assigned:
        pending[tgt] = pending.get(tgt, 0) + amt
    lethal_equal = g.ed.lethal_at_equal
    # Hit points left and value per target, worked out once: a Battleship that may split its
    # damage offers one action per amount and target, and this runs in every search playout.
    targets: dict[int, tuple[int, float] | None] = {}
    best: Action = ("done",)
    best_score = 0.0
    for a in g.legal_actions():
        if a[0] != "assign":
            continue
        tid = a[2]
        if tid not in targets:
            target = g.vessels[tid]
            left = R.max_hp(g, target) - target.damage - pending.get(tid, 0)
            doomed = left <= 0 and (left < 0 or lethal_equal)  # more damage there is wasted
            targets[tid] = None if L.shielded(g, tid) or doomed else (left, vessel_value(target, GREEDY))
        info = targets[tid]
        if info is None:
            continue
        left, value = info
        amt = a[3]
        kills = amt > left or (amt == left and lethal_equal)
        # A kill counts the whole vessel, less a little for each point spent on it; damage
        # that does not kill counts its share of the vessel.
        score = (10.0 * value - amt) if kills else value * amt / max(1, left + 1)
        if score > best_score:
            best, best_score = a, score
    return best


def scripted(g: Game) -> None:
    """Play one scripted answer for ``g.to_move``: focus fire when assigning damage, else the
    :func:`~.evaluation.passive` answer."""
    if g.decision == "assign":
        g.apply_unchecked(focus_fire(g))
    else:
        passive(g)


def finish_turn(g: Game) -> None:
    """Play the current turn to its end (or the game's) with :func:`scripted` answers for
    everyone: the fights the turn has set up are fought, not estimated."""
    turn = g.turn
    for _ in range(TURN_STEPS):
        if g.over or g.turn != turn:
            return
        scripted(g)
