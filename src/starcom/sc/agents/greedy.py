"""A one-ply greedy player: try each (sampled) legal action on a determinized copy of the game,
score the resulting position, keep the best.

It never looks at hidden information: every trial runs on ``game.determinize(me, rng)`` taken
from a canonical copy (hidden cards put in sorted order first), so the choice depends only on
the player's own view and the agent's random source.
"""
from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.game import Game
from .evaluation import GREEDY, PASSIVE, Weights, canonical_sample, evaluate, settle, wasteful
from .fleet import played_plans
from ...kit.rng import random_shuffle

MAX_EVAL = 40  # actions tried per decision, besides the default one
FIRST = frozenset({"develop", "fight"})  # kinds always tried first

# The passive answers greedy weighs against its trials (trade answers and build windows are
# judged among the trials only).
DEFAULTS = {step: PASSIVE[step] for step in ("command", "priority", "assign", "retreat")}
# Steps whose default is scored on the position as it stands (nothing is pending).
UNAPPLIED_DEFAULT = frozenset({"command", "assign", "retreat"})


def by_families(pool: list[Action], limit: int, first: frozenset[str], rng: random.Random) -> list[Action]:
    """``pool`` if it has at most ``limit`` actions, else ``limit`` of them taken in turns from
    *families* (one kind and one subject: a vessel's jumps, a card's plays or uses, a ship
    type's builds), families of a kind in ``first`` first, each family in random order.

    Sampling the pool as a whole let one card with thousands of uses (an amount for each
    credit, a target for each vessel) crowd every build and every jump out: the player then
    hoarded credits and its fleet never moved."""
    if len(pool) <= limit:
        return pool
    # Pools run to many thousands of actions, a family's mostly in one run: the dictionary is
    # consulted only where the family changes.
    # A family's key: the kind and the first field (a vessel, card, position, trade item or choice
    # value), None for a kind without fields.
    families: dict[tuple[str, int | str | None], list[Action]] = {}
    last: tuple[str, int | str | None] | None = None
    members: list[Action] = []
    for a in pool:
        key = (a[0], a[1]) if len(a) > 1 else (a[0], None)
        if key != last:
            members = families.setdefault(key, [])
            last = key
        members.append(a)
    for members in families.values():
        random_shuffle(members, rng)
    order = sorted(families.values(), key=lambda f: f[0][0] not in first)
    chosen: list[Action] = []
    depth = 0
    while len(chosen) < limit:
        for members in order:
            if depth < len(members):
                chosen.append(members[depth])
                if len(chosen) == limit:
                    break
        depth += 1
    return chosen


def candidates(g: Game, actions: list[Action], default: Action | None, rng: random.Random) -> list[Action]:
    """The actions worth trying: never trade offers (a one-ply view cannot judge them) nor
    :func:`wasteful` ones; up to :data:`MAX_EVAL` (see :func:`by_families`), developments and
    combat picks first."""
    return by_families(pool_of(g, actions, default), MAX_EVAL, FIRST, rng)


def pool_of(g: Game, actions: list[Action], default: Action | None) -> list[Action]:
    """``actions`` but ``default``, trade offers and :func:`wasteful` ones, in their order."""
    # Only a scrap can be wasteful: the call is skipped for the thousands of other actions.
    return [a for a in actions
            if a[0] != "offer" and a != default and (a[0] != "scrap" or not wasteful(g, a))]


class GreedyAgent:
    """One-ply search with a hand-made evaluation (developments, credits, cards, fleet,
    sieges, expected combat losses)."""

    name = "greedy"
    weights: Weights = GREEDY

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
        default = DEFAULTS.get(step)
        return self.decide(game, canonical_sample(game, me, rng), actions,
                           default if default in actions else None, rng)

    def decide(self, game: Game, sample: Game, actions: list[Action], default: Action | None,
               rng: random.Random) -> Action:
        """The choice among ``actions`` (two or more), judged on ``sample``, a determinization
        of the player's view; ``default`` is the passive answer, if legal."""
        me = game.to_move
        assert me is not None
        best: Action | None = None
        best_score = float("-inf")
        if default is not None:
            best = default
            best_score = (evaluate(sample, me, self.weights) if game.decision in UNAPPLIED_DEFAULT
                          else self._trial(sample, default, me))
        for a in candidates(game, actions, default, rng):
            score = self._trial(sample, a, me)
            if score > best_score + 1e-9:
                best, best_score = a, score
        for start, h in played_plans(game, sample, actions):
            score = evaluate(h, me, self.weights)
            if score > best_score + 1e-9:
                best, best_score = start, score
        return best if best is not None else actions[0]

    def _trial(self, sample: Game, action: Action, me: int) -> float:
        h = sample.clone()
        h.apply_unchecked(action)
        settle(h)
        return evaluate(h, me, self.weights)

