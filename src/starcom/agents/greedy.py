"""A one-ply greedy player: try each (sampled) legal action on a determinized copy of the game,
score the resulting position, keep the best.

It never looks at hidden information: every trial runs on ``game.determinize(me, rng)`` taken
from a canonical copy (hidden cards put in sorted order first), so the choice depends only on
the player's own view and the agent's random source.
"""
from __future__ import annotations

import random
from typing import Iterable

from ..engine import rules as R
from ..engine.game import Game
from ..engine.state import NOBODY, GameState, Vessel

Action = tuple

MAX_EVAL = 40  # actions tried per decision, besides the default one
SETTLE_STEPS = 40  # automatic passes / first choices played after a trial action

WIN = 1e6
DEV = 10.0  # one development: income every turn and the turn-limit score
CREDIT = 1.0
CARD = 2.5
TECH = 5.0
EXTRA_TURN = 15.0
ELIMINATED = 300.0  # per opponent out of the game
OPPONENT_WEIGHT = 0.7
SIEGE_LOSS = 4.0  # per development of a besieged system of one's own
HOME_SIEGE = 40.0
GUARD = 6.0  # an armed vessel at home
THREAT = 3.0  # per enemy ship next to an unguarded homeworld
EXPLORE_ROOM = 3.0  # a ship on an uncontrolled system that can be developed
EXPLORE_HIDDEN = 1.5  # a ship on a face-down system
ADVANCE = 0.6  # per step an armed ship still has to go to the nearest enemy homeworld
BATTLE_RISK = 0.6
STATION_BONUS = 3.0


class _Sorter(random.Random):
    """A 'random' source whose shuffle sorts. Determinizing with it puts the hidden cards in a
    canonical order, which removes every trace of the real hidden arrangement."""

    def shuffle(self, x, *args, **kwargs) -> None:  # type: ignore[override]
        x.sort()

    def getrandbits(self, k: int) -> int:
        return 0


def canonical_sample(game: Game, me: int, rng: random.Random) -> Game:
    """A full game consistent with ``me``'s view, depending only on that view and ``rng``."""
    canon = game.determinize(me, _Sorter(0))
    return canon.determinize(me, rng)


# --------------------------------------------------------------------------- evaluation


def vessel_value(v: Vessel) -> float:
    """What a vessel is worth: about its price, less for damage."""
    hp = max(1, v.d.hp)
    health = max(0.0, 1.0 - v.damage / hp)
    # Stations stay and keep paying off (income, building, defence) in ways a price misses.
    lasting = STATION_BONUS if v.d.kind == "station" else 0.0
    return 1.0 + lasting + (0.9 * v.d.cost + 0.5 * v.d.attack) * health


def _distance(a: int, b: int, size: int) -> int:
    ra, ca = divmod(a, size)
    rb, cb = divmod(b, size)
    return abs(ra - rb) + abs(ca - cb)


def _battle_losses(g: GameState) -> dict[int, float]:
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
    for pos, here in by_pos.items():
        owners = {v.owner for v in here}
        if len(owners) < 2:
            continue
        left_hp: dict[int, int] = {}
        for v in here:
            left = R.max_hp(g, v) - v.damage - pending.get(v.id, 0)
            left_hp[v.id] = left
            if left < 0 or (left == 0 and lethal_equal):
                losses[v.owner] = losses.get(v.owner, 0.0) + vessel_value(v)
            elif v.id in pending:
                losses[v.owner] = losses.get(v.owner, 0.0) + 0.3 * vessel_value(v) * pending[v.id] / max(1, left + pending[v.id])
        for q in owners:
            threat = sum(R.attack(g, e) for e in here
                         if e.owner != q and e.id not in assigned_srcs and R.can_attack(g, e))
            if threat <= 0:
                continue
            mine = [v for v in here if v.owner == q and left_hp[v.id] > 0]
            hp = sum(left_hp[v.id] for v in mine)
            if hp <= 0:
                continue
            value = sum(vessel_value(v) for v in mine)
            losses[q] = losses.get(q, 0.0) + BATTLE_RISK * min(1.0, threat / hp) * value
    return losses


def strength(g: GameState, q: int, losses: dict[int, float]) -> float:
    """How well player ``q`` stands, in rough credit-like units."""
    if not g.alive[q]:
        return 0.0
    size = g.cfg.size
    home = g.homeworld[q]
    total = 0.0
    for pos, site in enumerate(g.sites):
        if site.owner != q:
            continue
        total += DEV * site.devs
        if R.under_siege(g, pos):
            total -= SIEGE_LOSS * site.devs + 2.0 + (HOME_SIEGE if pos == home else 0.0)
    total += CREDIT * g.credits[q] + CARD * len(g.hands[q]) + TECH * len(g.techs[q])
    if g.active == q:
        total += EXTRA_TURN * g.extra_turns
    enemy_homes = [g.homeworld[o] for o in range(g.cfg.players) if o != q and g.alive[o]]
    guarded = False
    scouting: dict[int, float] = {}
    for v in g.vessels.values():
        if v.owner != q:
            continue
        total += vessel_value(v)
        armed = v.d.attack > 0 or v.atk_bonus > 0
        if v.pos == home and armed:
            guarded = True
        if v.d.kind != "ship" or v.d.size == "fighter":
            continue
        site = g.sites[v.pos]
        if site.owner == NOBODY:
            if not site.face_up:
                scouting[v.pos] = EXPLORE_HIDDEN
            elif site.d.max_dev >= 1:
                scouting[v.pos] = EXPLORE_ROOM
        if armed and enemy_homes:  # the guard bonus keeps one at home
            total -= ADVANCE * min(_distance(v.pos, h, size) for h in enemy_homes)
    total += sum(scouting.values())
    if guarded:
        total += GUARD
    else:
        near = sum(1 for v in g.vessels.values() if v.owner != q and v.d.kind == "ship"
                   and v.d.size != "fighter" and _distance(v.pos, home, size) <= 1)
        total -= THREAT * near
    return total - losses.get(q, 0.0)


def evaluate(g: GameState, me: int) -> float:
    """The position's worth for ``me``: own strength minus the opponents' (weighted)."""
    if g.over:
        return WIN if g.winner == me else (0.0 if g.winner == NOBODY else -WIN)
    if not g.alive[me]:
        return -WIN
    losses = _battle_losses(g)
    opps = [q for q in range(g.cfg.players) if q != me]
    out = strength(g, me, losses)
    out -= OPPONENT_WEIGHT * sum(strength(g, q, losses) for q in opps) / max(1, len(opps))
    out += ELIMINATED * sum(1 for q in opps if not g.alive[q])
    return out


# --------------------------------------------------------------------------- search


def settle(g: Game, limit: int = SETTLE_STEPS) -> None:
    """Let the game run on by everyone passing (and taking the first option of any choice)
    until a real decision (command, combat, trade) comes up."""
    for _ in range(limit):
        if g.over:
            return
        step = g.decision
        if step == "priority":
            g.apply_unchecked(("pass",))
        elif step == "choice":
            g.apply_unchecked(("choose", g.choice["options"][0]))
        else:
            return


DEFAULTS = {"command": ("end",), "priority": ("pass",), "assign": ("done",), "retreat": ("done",)}
# Steps whose default is scored on the position as it stands (nothing is pending).
UNAPPLIED_DEFAULT = frozenset({"command", "assign", "retreat"})


def candidates(actions: list[Action], default: Action | None, rng: random.Random) -> list[Action]:
    """The actions worth trying: never trade offers (a one-ply view cannot judge them); all
    developments and combat picks, and a random sample of the rest up to :data:`MAX_EVAL`."""
    pool = [a for a in actions if a != default and a[0] != "offer"]
    if len(pool) <= MAX_EVAL:
        return pool
    keep = [a for a in pool if a[0] in ("develop", "fight")]
    rest = [a for a in pool if a[0] not in ("develop", "fight")]
    room = max(0, MAX_EVAL - len(keep))
    return keep + rng.sample(rest, room)


class GreedyAgent:
    """One-ply search with a hand-made evaluation (developments, credits, cards, fleet,
    sieges, expected combat losses)."""

    name = "greedy"

    def choose(self, game: Game, rng: random.Random) -> Action:
        """The legal action with the best evaluation for ``game.to_move``."""
        actions = game.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        if len(actions) == 1:
            return actions[0]
        step = game.decision
        if step == "trade_build" and ("cancel",) in actions:
            return ("cancel",)
        me = game.to_move
        assert me is not None
        sample = canonical_sample(game, me, rng)
        default = DEFAULTS.get(step)
        if default not in actions:
            default = None
        trials = candidates(actions, default, rng)
        best: Action | None = None
        best_score = float("-inf")
        if default is not None:
            best = default
            best_score = evaluate(sample, me) if step in UNAPPLIED_DEFAULT else self._trial(sample, default, me)
        for a in trials:
            score = self._trial(sample, a, me)
            if score > best_score + 1e-9:
                best, best_score = a, score
        if best is None:  # every trial failed to beat -inf: cannot happen with any trial
            best = actions[0]
        return best

    @staticmethod
    def _trial(sample: Game, action: Action, me: int) -> float:
        h = sample.clone()
        h.apply_unchecked(action)
        settle(h)
        return evaluate(h, me)


def evaluate_actions(game: Game, actions: Iterable[Action], rng: random.Random) -> list[tuple[float, Action]]:
    """Scores of ``actions`` for ``game.to_move`` on one canonical sample (for study tools)."""
    me = game.to_move
    assert me is not None
    sample = canonical_sample(game, me, rng)
    return [(GreedyAgent._trial(sample, a, me), a) for a in actions]
