"""Hand-made position evaluation shared by the agents that look ahead.

A position is scored per player as that player's *strength* (developments, credits, cards,
fleet, sieges, expected combat losses, board position) minus a share of the opponents'. The
weights are data (:class:`Weights`), so agents can differ in judgement without copying code.
Every function reads only the state it is given; agents pass determinized states, never the
real one.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..engine import lasting as L
from ..engine import rules as R
from ..engine.game import Game
from ..engine.state import NOBODY, GameState, Vessel
from ..observer import STARCOM as OBSERVER

WIN = 1e6


@dataclass(frozen=True)
class Weights:
    """What each feature of a position is worth, in rough credit-like units."""

    dev: float = 10.0  # one development: income every turn and the turn-limit score
    credit: float = 1.0
    reserve: float = 20.0  # credits counted at ``credit``: about what a turn's purchases can use
    hoard: float = 0.2  # each credit beyond ``reserve``: money never spent wins nothing
    card: float = 2.5
    tech: float = 5.0
    extra_turn: float = 15.0
    eliminated: float = 300.0  # per opponent out of the game
    opponent: float = 0.7  # how much the opponents' mean strength counts against one's own
    siege_loss: float = 4.0  # per development of a besieged system of one's own
    home_siege: float = 40.0
    guard: float = 6.0  # an armed vessel at home
    threat: float = 3.0  # per enemy ship next to an unguarded homeworld
    threat_attack: float = 0.0  # per point of enemy attack that can reach the homeworld next turn
    explore_room: float = 3.0  # a ship on an uncontrolled system that can be developed
    explore_hidden: float = 1.5  # a ship on a face-down system
    advance: float = 0.6  # per step an armed ship still has to go to the nearest enemy homeworld
    battle_risk: float = 0.6
    station_bonus: float = 3.0
    attack_value: float = 0.5  # per point of attack, on top of the price
    domain: float = 0.0  # per card domain controlled (draws and playable cards)
    explorer: float = 0.0  # per non-fighter ship, up to two, while systems are left to claim
    fighter_share: float = 1.0  # fighters' part of the usual vessel value (they fill ship slots)
    offense: float = 0.0  # per development of an opponent's system within reach of one's attack
    home_offense: float = 3.0  # how much more an opponent's homeworld counts for ``offense``


# Fighters at under a third of their price, as for the heuristic: valued at their price they
# filled every ship slot (BUILD-4) with ships that cannot move, and no fleet ever set out.
GREEDY = Weights(fighter_share=0.3)


def canonical(game: Game, me: int) -> Game:
    """A full game whose hidden cards are in a fixed order: it depends only on ``me``'s view
    (the observer's canonical form, :meth:`starcom.observer.StarcomObserver.canonical`)."""
    return OBSERVER.canonical(game, me)


def canonical_sample(game: Game, me: int, rng: random.Random) -> Game:
    """A full game consistent with ``me``'s view, depending only on that view and ``rng``."""
    return canonical(game, me).determinize(me, rng)


def vessel_value(v: Vessel, w: Weights = GREEDY) -> float:
    """What a vessel is worth: about its price, less for damage."""
    hp = max(1, v.d.hp)
    health = max(0.0, 1.0 - v.damage / hp)
    # Stations stay and keep paying off (income, building, defence) in ways a price misses.
    lasting = w.station_bonus if v.d.is_station else 0.0
    value = 1.0 + lasting + (0.9 * v.d.cost + w.attack_value * v.d.attack) * health
    return value * w.fighter_share if v.d.is_fighter else value


def distance(a: int, b: int, size: int) -> int:
    """Grid steps between two positions (jumps go between sides)."""
    ra, ca = divmod(a, size)
    rb, cb = divmod(b, size)
    return abs(ra - rb) + abs(ca - cb)


def battle_losses(g: GameState, w: Weights = GREEDY) -> dict[int, float]:
    """Expected value each player loses in the fights to come: damage already assigned where
    combat is under way, and a rough share of each system's opposing attack elsewhere."""
    losses: dict[int, float] = {}
    pending: dict[int, int] = {}
    assigned_srcs = set()
    for src, tgt, amt in g.assigned:
        if src in g.vessels:
            pending[tgt] = pending.get(tgt, 0) + amt
            assigned_srcs.add(src)
    lethal_equal = g.ed.lethal_at_equal
    by_pos: dict[int, list[Vessel]] = {}
    for v in g.vessels.values():
        by_pos.setdefault(v.pos, []).append(v)
    for here in by_pos.values():
        owners = {v.owner for v in here}
        if len(owners) < 2:
            continue
        left_hp: dict[int, int] = {}
        for v in here:
            left = R.max_hp(g, v) - v.damage - pending.get(v.id, 0)
            left_hp[v.id] = left
            if left < 0 or (left == 0 and lethal_equal):
                losses[v.owner] = losses.get(v.owner, 0.0) + vessel_value(v, w)
            elif v.id in pending:
                share = pending[v.id] / max(1, left + pending[v.id])
                losses[v.owner] = losses.get(v.owner, 0.0) + 0.3 * vessel_value(v, w) * share
        for q in owners:
            threat = sum(R.attack(g, e) for e in here
                         if e.owner != q and e.id not in assigned_srcs and R.can_attack(g, e))
            if threat <= 0:
                continue
            mine = [v for v in here if v.owner == q and left_hp[v.id] > 0]
            hp = sum(left_hp[v.id] for v in mine)
            if hp <= 0:
                continue
            value = sum(vessel_value(v, w) for v in mine)
            losses[q] = losses.get(q, 0.0) + w.battle_risk * min(1.0, threat / hp) * value
    return losses


def strength(g: GameState, q: int, losses: dict[int, float], w: Weights = GREEDY) -> float:
    """How well player ``q`` stands, in rough credit-like units."""
    if not g.alive[q]:
        return 0.0
    size = g.cfg.size
    home = g.homeworld[q]
    total = 0.0
    for pos, site in enumerate(g.sites):
        if site.owner != q:
            continue
        total += w.dev * site.devs
        if R.under_siege(g, pos):
            total -= w.siege_loss * site.devs + 2.0 + (w.home_siege if pos == home else 0.0)
    cash = g.credits[q]
    total += w.credit * min(cash, w.reserve) + w.hoard * max(0.0, cash - w.reserve)
    total += w.card * len(g.hands[q]) + w.tech * len(g.techs[q])
    if w.domain:
        total += w.domain * len(R.domains_controlled(g, q))
    if g.active == q:
        total += w.extra_turn * L.extra_turns(g)
    enemy_homes = [g.homeworld[o] for o in range(g.cfg.players) if o != q and g.alive[o]]
    guarded = False
    scouting: dict[int, float] = {}
    explorers = 0
    for v in g.vessels.values():
        if v.owner != q:
            continue
        total += vessel_value(v, w)
        armed = v.d.attack > 0 or L.attack_bonus(g, v.id) > 0
        if v.pos == home and armed:
            guarded = True
        if not v.d.is_ship or v.d.is_fighter:
            continue
        explorers += 1
        site = g.sites[v.pos]
        if _claimable(site):
            scouting[v.pos] = w.explore_room if site.face_up else w.explore_hidden
        if armed and enemy_homes:  # the guard bonus keeps one at home
            total -= w.advance * min(distance(v.pos, h, size) for h in enemy_homes)
    total += sum(scouting.values())
    if w.explorer:
        total += w.explorer * min(2, explorers, _unclaimed(g))
    if guarded:
        total += w.guard
    else:
        near = sum(1 for v in g.vessels.values() if v.owner != q and v.d.is_ship
                   and not v.d.is_fighter and distance(v.pos, home, size) <= 1)
        total -= w.threat * near
    if w.threat_attack:
        total -= w.threat_attack * _reachable_attack(g, q, home)
    if w.offense:
        total += w.offense * _pressure(g, q, w)
    return total - losses.get(q, 0.0)


def _claimable(site) -> bool:
    """Nobody controls the system and a ship could still claim it: face down, or developable."""
    return site.owner == NOBODY and (not site.face_up or site.d.max_dev >= 1)


def _unclaimed(g: GameState) -> int:
    """How many systems are :func:`_claimable`."""
    return sum(1 for s in g.sites if _claimable(s))


def _pressure(g: GameState, q: int, w: Weights) -> float:
    """Opponents' developments within reach of ``q``'s non-fighter ships (there or one jump
    away), each counted by how far that attack outweighs the armed defence there (0 to 1);
    homeworlds count :attr:`Weights.home_offense` times."""
    size = g.cfg.size
    attackers = [v for v in g.vessels.values()
                 if v.owner == q and v.d.is_ship and not v.d.is_fighter]
    if not attackers:
        return 0.0
    # Armed hit points per (system, owner), gathered in one pass: this runs at every search leaf.
    armed: dict[tuple[int, int], int] = {}
    for v in g.vessels.values():
        if v.owner != q and R.can_attack(g, v):
            key = (v.pos, v.owner)
            armed[key] = armed.get(key, 0) + R.max_hp(g, v) - v.damage
    total = 0.0
    for pos, site in enumerate(g.sites):
        o = site.owner
        if o == NOBODY or o == q or not site.devs:
            continue
        reach = sum(R.attack(g, v) + 0.5 for v in attackers if distance(v.pos, pos, size) <= 1)
        if not reach:
            continue
        share = min(1.0, reach / (armed.get((pos, o), 0) + 1.0))
        total += share * site.devs * (w.home_offense if pos == g.homeworld[o] else 1.0)
    return total


def _reachable_attack(g: GameState, q: int, home: int) -> float:
    """Enemy attack that could jump onto ``q``'s homeworld next turn, less the defenders' hit
    points there (never below zero): the danger of losing the capital."""
    size = g.cfg.size
    attack = 0
    defence = 0
    for v in g.vessels.values():
        if v.owner == q:
            if v.pos == home:
                defence += max(0, R.max_hp(g, v) - v.damage)
        elif v.d.is_ship and distance(v.pos, home, size) <= max(1, R.speed(g, v)):
            attack += R.attack(g, v)
    return max(0.0, attack - 0.5 * defence)


def evaluate(g: GameState, me: int, w: Weights = GREEDY) -> float:
    """The position's worth for ``me``: own strength minus the opponents' (weighted)."""
    return scores(g, w)[me]


def scores(g: GameState, w: Weights = GREEDY) -> list[float]:
    """:func:`evaluate` for every player at once (the strengths are computed only once)."""
    n = g.cfg.players
    if g.over:
        return [WIN if g.winner == q else (0.0 if g.winner == NOBODY else -WIN) for q in range(n)]
    losses = battle_losses(g, w)
    power = [strength(g, q, losses, w) for q in range(n)]
    total = sum(power)
    out_count = sum(1 for q in range(n) if not g.alive[q])
    result = []
    for q in range(n):
        if not g.alive[q]:
            result.append(-WIN)
            continue
        others = (total - power[q]) / max(1, n - 1)
        result.append(power[q] - w.opponent * others + w.eliminated * out_count)
    return result


def advantage(g: GameState, me: int, w: Weights = GREEDY) -> float:
    """``me``'s strength minus the mean strength of the other living players: zero for even
    positions (unlike :func:`evaluate`, which counts the opponents at :attr:`Weights.opponent`);
    ``WIN`` or ``-WIN`` once the game is decided."""
    if g.over:
        return WIN if g.winner == me else (0.0 if g.winner == NOBODY else -WIN)
    if not g.alive[me]:
        return -WIN
    losses = battle_losses(g, w)
    others = [strength(g, q, losses, w) for q in range(g.cfg.players) if q != me and g.alive[q]]
    return strength(g, me, losses, w) - (sum(others) / len(others) if others else 0.0)


def win_chances(values: list[float], scale: float) -> list[float]:
    """Scores squashed into (0, 1) by a logistic curve: rewards for search."""
    out = []
    for v in values:
        if v >= WIN:
            out.append(1.0)
        elif v <= -WIN:
            out.append(0.0)
        else:
            out.append(1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, v / scale)))))
    return out


def wasteful(g: GameState, action: tuple) -> bool:
    """Actions no agent should consider: scrapping a vessel that came into play this turn only
    undoes a build at a loss, and for a 1-credit fighter (SCRAP-1 pays at least 1) it would
    let a search build and scrap forever."""
    if action[0] != "scrap":
        return False
    v = g.vessels.get(action[1])
    return v is not None and v.fresh


def settle(g: Game, limit: int = 40) -> None:
    """Let the game run on by everyone passing (and taking the first option of any choice)
    until a real decision (command, combat, trade) comes up."""
    for _ in range(limit):
        if g.over:
            return
        step = g.decision
        if step == "priority":
            g.apply_unchecked(("pass",))
        elif step == "choice" and g.choice is not None:
            g.apply_unchecked(("choose", g.choice.options[0]))
        else:
            return


# What a player does who does nothing: the default answer to each kind of decision.
PASSIVE = {"command": ("end",), "priority": ("pass",), "build_window": ("pass",), "assign": ("done",), "retreat": ("done",),
           "trade_answer": ("decline",), "trade_build": ("cancel",)}
ALWAYS_OPEN = frozenset({"command", "priority", "build_window"})  # ending the phase and passing are always legal


def passive(g: Game) -> None:
    """Play one passive answer for ``g.to_move``: end, pass, done, decline, cancel, or the
    first option or legal action where there is no such answer."""
    step = g.decision
    if step == "choice" and g.choice is not None:
        g.apply_unchecked(("choose", g.choice.options[0]))
    elif step in ALWAYS_OPEN:  # skip listing every legal action: these answers always are
        g.apply_unchecked(PASSIVE[step])
    else:
        actions = g.legal_actions()
        answer = PASSIVE.get(step)
        g.apply_unchecked(answer if answer in actions else actions[0])

