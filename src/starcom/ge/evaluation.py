"""How good a Galactic Empires position is for one seat: the evaluation the computer players
(greedy, heuristic, the search's leaves) share.

A weighted sum, from ``seat``'s side minus the other side: Sector HQ damage (the goal), the
fighting strength of the fleets (hull left, shields up, weapons that can fire next turn),
what the terrain produces, and cards in hand. A volley being declared counts with the damage
it is about to do, so the steps of a volley (aim, add, fire) each look like progress. It reads
only what ``seat`` may know: sizes of hidden zones, never their contents.
"""
from __future__ import annotations

from . import board, combat
from .state import State

HQ = 10.0  # one point of Sector HQ damage
HULL = 1.2  # one point of strength left in a unit
SHIELD = 0.5  # one shield point up
PHASER = 1.0  # a phaser that may fire
HEAVY = 1.3  # a heavy weapon (needs ammunition)
OUTPUT = 0.8  # one point a terrain produces each turn
HAND = 0.4  # one card in hand
READY = 0.6  # a unit paid or engaged for this turn
PROTECTOR = 6.0  # the first ship that keeps the Sector HQ closed


def evaluate(s: State, seat: int) -> float:
    """``seat``'s advantage; a won game is worth far more than anything else."""
    if s.winner is not None:
        return 1e6 if s.winner == seat else -1e6
    return _side(s, seat) - _side(s, 1 - seat) + _aimed(s, seat)


def _side(s: State, seat: int) -> float:
    p = s.players[seat]
    value = -HQ * p.hq + HAND * len(p.hand)
    guarded = False
    for u in board.fleet(s, seat):
        spec = s.spec(u.uid)
        if spec.kind == "terrain":
            value += OUTPUT * sum(spec.generates) + 0.3 * max(0, spec.strength - u.damage - u.card_damage)
            continue
        if not board.is_unit(s, u.uid) or board.basis(s, u.uid) != u.uid:
            value += 0.5 * spec.strength if not u.against else 0.8  # crew, equipment; cards against foes
            continue
        left = board.strength(s, u.uid) - u.damage
        value += HULL * left + SHIELD * (board.shields(s, u.uid) - u.shield_damage)
        ready = u.engaged or u.paid
        value += PHASER * board.phasers(s, u.uid) * (1.0 if ready else 0.5)
        value += HEAVY * board.heavy(s, u.uid) * (1.0 if ready else 0.4) + 0.3 * u.loaded
        value += READY * ready
        if board.protects_hq(s, u.uid) and not guarded:
            value += PROTECTOR
            guarded = True
    return value


def _aimed(s: State, seat: int) -> float:
    """The volley ``seat`` is declaring, as if it hit: its damage where it will land, and for
    a target just picked, what the weapons that can reach it would do."""
    if s.aim is None or s.active != seat:
        return 0.0
    weapons = s.aim_weapons or [(uid, kind) for uid, kind in combat.additions(s, seat)]
    damage = sum(combat.damage_of(s, uid, kind, s.aim) for uid, kind in weapons if uid in s.units)
    scale = 1.0 if s.aim_weapons else 0.5
    target = s.aim
    if target < 0:
        return scale * HQ * damage if -1 - target != seat else -HQ * damage
    if target not in s.units:
        return 0.0
    u = s.units[target]
    through = max(0, damage - (board.shields(s, target) - u.shield_damage)) if board.is_unit(s, target) else damage
    worth = HULL * min(through, board.strength(s, target) - u.damage) + SHIELD * min(damage, board.shields(s, target))
    return scale * (worth if u.owner != seat else -worth)
