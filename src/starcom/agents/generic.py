"""Computer players for any registered game whose entry gives an evaluation.

A game supplies ``evaluate(game, seat)`` (how good a position is for a seat) and, optionally,
``passive(game)`` (what a seat does when it lets a moment go by, such as passing in a reaction
window); the agents here need nothing else of it:

* ``greedy`` plays the action whose result evaluates best, one decision ahead;
* ``heuristic`` looks one decision further along its own line for the most promising actions;
* ``ismcts`` searches with :class:`~starcom.agents.ismcts.Ismcts` over :class:`GenericDomain`.

Every look-ahead starts from the game's canonical form for the deciding seat (hidden parts in
a fixed order, :meth:`~starcom.observer.Observer.canonical`), so no agent can be swayed by
what its seat cannot see.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from typing import Any

from ..protocol import Agent
from .ismcts import Ismcts
from .random_agent import RandomAgent

Action = Any
SETTLE_LIMIT = 50  # passive replies played after a candidate before judging it
BEAM = 5  # actions the heuristic looks beyond
REWARD_SCALE = 10.0  # evaluation difference that moves a search reward from 0.5 to 0.73


def settle(entry: Any, game: Any, me: int) -> None:
    """Let the other seats' passive moments go by (their reaction windows, say) so that the
    position is judged once the step has taken effect."""
    if entry.passive is None:
        return
    for _ in range(SETTLE_LIMIT):
        if game.over or game.to_move == me:
            return
        act = entry.passive(game)
        if act is None:
            return
        entry.play(game, act)


def outcome(entry: Any, base: Any, action: Action, me: int) -> tuple[Any, float]:
    """``action`` played on a copy of ``base`` and settled; the copy and its evaluation."""
    g = base.clone()
    entry.play(g, action)
    settle(entry, g, me)
    return g, entry.evaluate(g, me)


def _best(scored: list[tuple[float, Action]], rng: random.Random) -> Action:
    top = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v >= top - 1e-9])


class GreedyAgent:
    """The action with the best evaluation one decision ahead (ties broken at random)."""

    name = "greedy"

    def __init__(self, entry: Any) -> None:
        self.entry = entry

    def choose(self, game: Any, rng: random.Random) -> Action:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        return _best(self.judge(game, actions), rng)

    def judge(self, game: Any, actions: list[Action]) -> list[tuple[float, Action]]:
        """Each action's value to the seat to move, from its canonical position."""
        me = game.to_move
        base = self.entry.observer.canonical(game, me)
        return [(outcome(self.entry, base, a, me)[1], a) for a in actions]


class HeuristicAgent(GreedyAgent):
    """Greedy, but the :data:`BEAM` best actions are judged by the best follow-up of the same
    seat when the decision is still its own (a volley's steps, a plan's payments)."""

    name = "heuristic"

    def judge(self, game: Any, actions: list[Action]) -> list[tuple[float, Action]]:
        me = game.to_move
        base = self.entry.observer.canonical(game, me)
        first = sorted(((outcome(self.entry, base, a, me), a) for a in actions), key=lambda t: -t[0][1])
        scored = []
        for i, ((g, v), a) in enumerate(first):
            if i < BEAM and not g.over and g.to_move == me:
                v = max([v] + [outcome(self.entry, g, b, me)[1] for b in g.legal_actions()])
            scored.append((v, a))
        return scored


class GenericDomain:
    """The search domain of a game entry: the tree follows the searcher's decisions within a
    turn (the entry's ``turn``), the other seats answer passively or at random, and a leaf's
    reward is the game's result or the evaluation's gain squashed into (0, 1)."""

    def __init__(self, entry: Any) -> None:
        self.entry = entry
        self.rng = random.Random(0)  # the others' script: seeded, so a search repeats exactly

    def canonical(self, game: Any, me: int) -> Any:
        return self.entry.observer.canonical(game, me)

    def forced(self, game: Any, actions: list[Action]) -> Action | None:
        return actions[0] if len(actions) == 1 else None

    def evaluate(self, game: Any, me: int) -> float:
        return float(self.entry.evaluate(game, me))

    def root_choices(self, game: Any, actions: list[Action], rng: random.Random) -> list[Action]:
        return list(actions)

    def choices(self, game: Any) -> list[Action]:
        return list(game.legal_actions())

    def available(self, game: Any, choices: list[Action]) -> list[Action]:
        legal = set(game.legal_actions())
        return [c for c in choices if c in legal]

    def horizon(self, game: Any) -> Hashable:
        return self.entry.turn(game) if self.entry.turn is not None else 0

    def stops(self, game: Any, choice: Action) -> bool:
        return False

    def play(self, game: Any, choice: Action) -> None:
        self.entry.play(game, choice)

    def reply(self, game: Any) -> None:
        act = self.entry.passive(game) if self.entry.passive is not None else None
        if act is None:
            act = self.rng.choice(game.legal_actions())
        self.entry.play(game, act)

    def reward(self, game: Any, horizon: Hashable, me: int, baseline: float) -> float:
        if game.over:
            return (float(game.returns()[me]) + 1) / 2
        gain = self.evaluate(game, me) - baseline
        return 1.0 / (1.0 + math.exp(-gain / REWARD_SCALE))

    def widen_weight(self, choice: Action) -> float:
        return 1.0

    def resolve(self, game: Any, choice: Action, actions: list[Action], searched: list[Action],
                prior: dict[Action, float]) -> Action:
        return choice


LEVELS: dict[str, tuple[str, float | None]] = {"easy": ("greedy", None), "normal": ("heuristic", None),
                                               "hard": ("ismcts", 1.0)}
KINDS = ("greedy", "heuristic", "ismcts", "random")


def agent_factory(game: str) -> tuple[Callable[..., Agent], Callable[[], list[str]]]:
    """``make_agent`` and ``agent_names`` for the registered game ``game`` (looked up when an
    agent is made, so the entry may be defined after them)."""

    def names() -> list[str]:
        return sorted(KINDS) + list(LEVELS)

    def make(name: str, *, think: float | None = None, iterations: int | None = None) -> Agent:
        from ..games import get
        key = name.strip().lower() if isinstance(name, str) else name
        if key in LEVELS:
            key, level_think = LEVELS[key]
            think = think if think is not None else level_think
        if key not in KINDS:
            raise ValueError(f"unknown agent {name!r}: choose one of {', '.join(names())}")
        if think is not None and think <= 0:
            raise ValueError(f"think time must be positive, not {think}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        entry = get(game)
        if key == "random":
            return RandomAgent()
        if key == "greedy":
            return GreedyAgent(entry)
        if key == "heuristic":
            return HeuristicAgent(entry)
        return Ismcts(GenericDomain(entry), think=think if think is not None or iterations else 1.0,
                      iterations=iterations)

    return make, names
