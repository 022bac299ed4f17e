"""Hand-made position evaluation shared by the agents that look ahead.

A position is scored per player as that player's *strength* (developments, credits, cards,
fleet, sieges, expected combat losses, board position) minus a share of the opponents'. The
weights are data (:class:`Weights`), so agents can differ in judgement without copying code.
Every function reads only the state it is given; agents pass determinized states, never the
real one.
"""
from __future__ import annotations

from typing import Final

import math
import random
from dataclasses import dataclass
from functools import cache, lru_cache

from ..cards.catalogue import CardDef
from ..engine import lasting as L
from ..engine import rules as R
from ..engine.game import Game
from ..engine.state import NOBODY, ActionTuple, GameState, Site, Vessel
from ..observer import STARCOM as OBSERVER

WIN: Final = 1e6


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
GREEDY: Final = Weights(fighter_share=0.3)


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
    return _battle_losses(g, w, _Board(g, w))


def strength(g: GameState, q: int, losses: dict[int, float], w: Weights = GREEDY) -> float:
    """How well player ``q`` stands, in rough credit-like units."""
    return _strength(g, q, losses, w, _Board(g, w))


# The value of an undamaged vessel of each card, per weights: ``id(weights)`` -> (weights,
# ``id(card)`` -> (card, value)). Keyed by identity, for hashing a card definition hashes every
# field; an entry holds the objects whose ids key it, so no id is reused while it is cached.
# Weights are few (module constants), but the tables stay bounded anyway.
_PRICES: Final[dict[int, tuple[Weights, dict[int, tuple[CardDef, float]]]]] = {}
_MAX_PRICE_TABLES: Final = 64


def _prices(w: Weights) -> dict[int, tuple[CardDef, float]]:
    """The table of undamaged vessel values for ``w`` (see :data:`_PRICES`)."""
    entry = _PRICES.get(id(w))
    if entry is None or entry[0] is not w:
        if len(_PRICES) >= _MAX_PRICE_TABLES:
            _PRICES.clear()
        entry = _PRICES[id(w)] = (w, {})
    return entry[1]


_NO_VESSELS: Final[list[Vessel]] = []
_NO_POSITIONS: Final[list[int]] = []


class _Board:
    """What the evaluation of one position reads more than once, worked out once for the battle
    losses and every player's strength (:func:`scores` runs at every trial of every search):
    the vessels by position, the systems by controller, distances to the enemy homeworlds, and
    rule queries asked for several players. Every figure is the one the plain rule query
    gives, so scores stay bit for bit what they were."""

    __slots__ = ("_armed", "_attacks", "_unclaimed", "by_pos", "g", "mixed", "prices", "sites_of",
                 "to_enemy")

    def __init__(self, g: GameState, w: Weights) -> None:
        self.g = g
        # Positions in the order their first vessel came into play: the battle losses are
        # added up in that order, as they always were.
        by_pos: dict[int, list[Vessel]] = {}
        mixed: set[int] = set()  # positions with vessels of more than one player
        for v in g.vessels.values():
            here = by_pos.get(v.pos)
            if here is None:
                by_pos[v.pos] = [v]
            else:
                if v.owner != here[0].owner:
                    mixed.add(v.pos)
                here.append(v)
        sites_of: dict[int, list[int]] = {}  # player -> the positions they control, in order
        for pos, site in enumerate(g.sites):
            owned = sites_of.get(site.owner)
            if owned is None:
                sites_of[site.owner] = [pos]
            else:
                owned.append(pos)
        self.by_pos, self.mixed, self.sites_of = by_pos, mixed, sites_of
        # Per player, steps from each position to the nearest living opponent's homeworld.
        self.to_enemy = _enemy_steps(g.cfg.size, tuple(g.homeworld), tuple(g.alive))
        self.prices = _prices(w)
        self._attacks: dict[int, int] = {}
        self._armed: dict[tuple[int, int], int] = {}
        self._unclaimed: int | None = None

    def attack(self, v: Vessel) -> int:
        """``R.attack(g, v)``, asked of the rules once per vessel."""
        atk = self._attacks.get(v.id)
        if atk is None:
            atk = self._attacks[v.id] = R.attack(self.g, v)
        return atk

    def armed(self, pos: int, owner: int) -> int:
        """Hit points left of ``owner``'s vessels at ``pos`` that can attack."""
        key = (pos, owner)
        hp = self._armed.get(key)
        if hp is None:
            g = self.g
            hp = 0
            for v in self.by_pos.get(pos, _NO_VESSELS):
                if v.owner == owner and R.can_attack(g, v):
                    hp += R.max_hp(g, v) - v.damage
            self._armed[key] = hp
        return hp

    def unclaimed(self) -> int:
        """:func:`_unclaimed` of the position."""
        if self._unclaimed is None:
            self._unclaimed = _unclaimed(self.g)
        return self._unclaimed

    def besieged(self, pos: int, owner: int) -> bool:
        """``R.under_siege(g, pos)`` for a system ``owner`` controls. Only asked of the rules
        where another player has a vessel: with none, nobody besieges it (SIEGE-1)."""
        here = self.by_pos.get(pos)
        if here is None or (here[0].owner == owner and pos not in self.mixed):
            return False
        return R.under_siege(self.g, pos, here)


def _battle_losses(g: GameState, w: Weights, board: _Board) -> dict[int, float]:
    """:func:`battle_losses`, reading the vessels from ``board``."""
    losses: dict[int, float] = {}
    pending: dict[int, int] = {}
    assigned_srcs = set()
    for src, tgt, amt in g.assigned:
        if src in g.vessels:
            pending[tgt] = pending.get(tgt, 0) + amt
            assigned_srcs.add(src)
    lethal_equal = g.ed.lethal_at_equal
    mixed = board.mixed
    for pos, here in board.by_pos.items():
        if pos not in mixed:  # vessels of one player only: no fight
            continue
        owners = {v.owner for v in here}
        values = {v.id: vessel_value(v, w) for v in here}
        left_hp: dict[int, int] = {}
        # The attack each owner brings (vessels whose damage is not assigned yet): the threat
        # to a player is everybody else's. Integers, so how they are added up is immaterial.
        attack_of: dict[int, int] = {}
        for v in here:
            left = R.max_hp(g, v) - v.damage - pending.get(v.id, 0)
            left_hp[v.id] = left
            if left < 0 or (left == 0 and lethal_equal):
                losses[v.owner] = losses.get(v.owner, 0.0) + values[v.id]
            elif v.id in pending:
                share = pending[v.id] / max(1, left + pending[v.id])
                losses[v.owner] = losses.get(v.owner, 0.0) + 0.3 * values[v.id] * share
            if v.id not in assigned_srcs:
                # R.can_attack is usable attack above 0, and R.attack is then that attack.
                atk = R.usable_attack(g, v)
                if atk > 0:
                    attack_of[v.owner] = attack_of.get(v.owner, 0) + atk
        all_attack = sum(attack_of.values())
        for q in owners:
            threat = all_attack - attack_of.get(q, 0)
            if threat <= 0:
                continue
            mine = [v for v in here if v.owner == q and left_hp[v.id] > 0]
            hp = 0
            for v in mine:
                hp += left_hp[v.id]
            if hp <= 0:
                continue
            value = sum([values[v.id] for v in mine])  # a list, summed in the order it always was
            losses[q] = losses.get(q, 0.0) + w.battle_risk * min(1.0, threat / hp) * value
    return losses


def _strength(g: GameState, q: int, losses: dict[int, float], w: Weights, board: _Board) -> float:
    """:func:`strength`, with what ``board`` already knows. The float terms are added in the
    order they always were (systems by position, vessels in order of play): a sum taken in
    another order may differ in its last bit, and a search could then choose differently."""
    if not g.alive[q]:
        return 0.0
    size = g.cfg.size
    home = g.homeworld[q]
    sites = g.sites
    total = 0.0
    for pos in board.sites_of.get(q, _NO_POSITIONS):
        site = sites[pos]
        total += w.dev * site.devs
        if board.besieged(pos, q):
            total -= w.siege_loss * site.devs + 2.0 + (w.home_siege if pos == home else 0.0)
    cash = g.credits[q]
    total += w.credit * min(cash, w.reserve) + w.hoard * max(0.0, cash - w.reserve)
    total += w.card * len(g.hands[q]) + w.tech * len(g.techs[q])
    if w.domain:
        total += w.domain * len(R.domains_controlled(g, q))
    if g.active == q:
        total += w.extra_turn * L.extra_turns(g)
    to_enemy = board.to_enemy[q]  # the guard bonus keeps one at home
    guarded = False
    scouting: dict[int, float] = {}
    explorers = 0
    prices = board.prices
    advance = w.advance
    for v in g.vessels.values():
        if v.owner != q:
            continue
        d = v.d
        if v.damage:
            total += vessel_value(v, w)
        else:  # the value of an undamaged vessel depends on its card only
            price = prices.get(id(d))
            if price is None or price[0] is not d:
                price = prices[id(d)] = (d, vessel_value(v, w))
            total += price[1]
        armed = d.attack > 0 or L.attack_bonus(g, v.id) > 0
        pos = v.pos
        if armed and pos == home:
            guarded = True
        if not d.is_ship or d.is_fighter:
            continue
        explorers += 1
        site = sites[pos]
        if site.owner == NOBODY and (not site.face_up or site.d.max_dev >= 1):  # _claimable
            scouting[pos] = w.explore_room if site.face_up else w.explore_hidden
        if armed and to_enemy is not None:
            total -= advance * to_enemy[pos]
    total += sum(scouting.values())
    if w.explorer:
        total += w.explorer * min(2, explorers, board.unclaimed())
    if guarded:
        total += w.guard
    else:
        steps = _distances(size)[home]
        near = 0
        for v in g.vessels.values():
            if v.owner != q and v.d.is_ship and not v.d.is_fighter and steps[v.pos] <= 1:
                near += 1
        total -= w.threat * near
    if w.threat_attack:
        total -= w.threat_attack * _reachable_attack(g, q, home)
    if w.offense:
        total += w.offense * _pressure(g, q, w, board)
    return total - losses.get(q, 0.0)


@cache
def _distances(size: int) -> tuple[tuple[int, ...], ...]:
    """:func:`distance` between every two positions of a ``size`` by ``size`` board."""
    cells = range(size * size)
    return tuple(tuple(distance(a, b, size) for b in cells) for a in cells)


@lru_cache(maxsize=4096)
def _enemy_steps(size: int, homes: tuple[int, ...], alive: tuple[bool, ...]) -> tuple[tuple[int, ...] | None, ...]:
    """Per player, the :func:`distance` from each position to the nearest homeworld among
    ``homes`` of the other living players (None when there is none)."""
    table = _distances(size)
    out: list[tuple[int, ...] | None] = []
    for q in range(len(homes)):
        enemies = [h for o, h in enumerate(homes) if o != q and alive[o]]
        out.append(tuple(min(row[h] for h in enemies) for row in table) if enemies else None)
    return tuple(out)


def _claimable(site: Site) -> bool:
    """Nobody controls the system and a ship could still claim it: face down, or developable."""
    return site.owner == NOBODY and (not site.face_up or site.d.max_dev >= 1)


def _unclaimed(g: GameState) -> int:
    """How many systems are :func:`_claimable`."""
    return sum(1 for s in g.sites if _claimable(s))


def _pressure(g: GameState, q: int, w: Weights, board: _Board) -> float:
    """Opponents' developments within reach of ``q``'s non-fighter ships (there or one jump
    away), each counted by how far that attack outweighs the armed defence there (0 to 1);
    homeworlds count :attr:`Weights.home_offense` times."""
    attackers = [v for v in g.vessels.values()
                 if v.owner == q and v.d.is_ship and not v.d.is_fighter]
    if not attackers:
        return 0.0
    table = _distances(g.cfg.size)
    total = 0.0
    for pos, site in enumerate(g.sites):
        o = site.owner
        if o == NOBODY or o == q or not site.devs:
            continue
        steps = table[pos]
        # A list, summed in the attackers' order as the generator it replaces was.
        reach = sum([board.attack(v) + 0.5 for v in attackers if steps[v.pos] <= 1])
        if not reach:
            continue
        share = min(1.0, reach / (board.armed(pos, o) + 1.0))
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
    board = _Board(g, w)
    losses = _battle_losses(g, w, board)
    power = [_strength(g, q, losses, w, board) for q in range(n)]
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
    board = _Board(g, w)
    losses = _battle_losses(g, w, board)
    others = [_strength(g, q, losses, w, board) for q in range(g.cfg.players) if q != me and g.alive[q]]
    return _strength(g, me, losses, w, board) - (sum(others) / len(others) if others else 0.0)


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


def wasteful(g: GameState, action: ActionTuple) -> bool:
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
PASSIVE: Final = {"command": ("end",), "priority": ("pass",), "build_window": ("pass",), "assign": ("done",), "retreat": ("done",),
           "trade_answer": ("decline",), "trade_build": ("cancel",)}
ALWAYS_OPEN: Final = frozenset({"command", "priority", "build_window"})  # ending the phase and passing are always legal


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

