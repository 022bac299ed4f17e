"""Computer players for any registered game whose entry gives an evaluation.

A game supplies ``evaluate(game, seat)`` (how good a position is for a seat) and, optionally,
``passive(game)`` (what a seat does when it lets a moment go by, such as passing in a reaction
window); the agents here need nothing else of it:

* ``greedy`` plays the action whose result evaluates best, one decision ahead;
* ``heuristic`` looks one decision further along its own line for the most promising actions;
* ``ismcts`` searches with :class:`GenericSearch` over :class:`GenericDomain`: the most
  promising actions, each played out by the greedy script for every seat to the end of the
  other seat's next turn, on positions redrawn from what the searcher can see.

Every look-ahead starts from the game's canonical form for the deciding seat (hidden parts in
a fixed order, :meth:`~starcom.observer.Observer.canonical`), so no agent can be swayed by
what its seat cannot see.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from typing import Any

from ..protocol import Agent
from .ismcts import Ismcts, SearchResult
from .random_agent import RandomAgent

Action = Any
SETTLE_LIMIT = 50  # passive replies played after a candidate before judging it
BEAM = 5  # actions the heuristic looks beyond
REWARD_SCALE = 10.0  # evaluation difference that moves a search reward from 0.5 to 0.73
ROOT_WIDTH = 4  # root actions the search plays out (the best by one-ply judgement)
TWINS = 1  # of root actions judged exactly alike one-ply, how many are played out
HORIZON = 2  # turns a playout runs: the rest of the current one and the next
PLAYOUT_CAP = 30  # actions the playout script judges at one decision (a sample of them beyond)
PLAYOUT_LIMIT = 600  # decisions a playout plays at most (a guard against endless turns)


def settle(entry: Any, game: Any, me: int) -> None:
    """Let the other seats' passive moments go by (their reaction windows, say) so that the
    position is judged once the step has taken effect."""
    if entry.rules.passive is None:
        return
    for _ in range(SETTLE_LIMIT):
        if game.over or game.to_move == me:
            return
        act = entry.rules.passive(game)
        if act is None:
            return
        entry.rules.play(game, act)


def outcome(entry: Any, base: Any, action: Action, me: int) -> tuple[Any, float]:
    """``action`` played on a copy of ``base`` and settled; the copy and its evaluation."""
    g = base.clone()
    entry.rules.play(g, action)
    settle(entry, g, me)
    return g, entry.ai.evaluate(g, me)


def squash(gain: float) -> float:
    """An evaluation gain as a reward in (0, 1) (0.5 for none)."""
    return 1.0 / (1.0 + math.exp(-max(-700.0, min(700.0, gain / REWARD_SCALE))))


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
    """The search domain of a game entry.

    The others answer, and a playout goes on, by the *greedy script*: a passive moment is let
    go by, any other decision takes the action that evaluates best one decision ahead for the
    seat making it. A leaf is played on that way until :data:`HORIZON` turns have ended (a turn
    ends when another seat than the one whose turn it is faces a decision that is not a passive
    moment), and its reward is the game's result or the evaluation's gain squashed into
    (0, 1)."""

    def __init__(self, entry: Any, horizon: int = HORIZON, cap: int = PLAYOUT_CAP) -> None:
        self.entry = entry
        self.turns = horizon
        self.cap = cap
        # Samples the script's candidates at a decision with more than ``cap`` actions; the
        # search reseeds it from its own random source, so a search repeats exactly.
        self.rng = random.Random(0)

    def canonical(self, game: Any, me: int) -> Any:
        return self.entry.observer.canonical(game, me)

    def forced(self, game: Any, actions: list[Action]) -> Action | None:
        return actions[0] if len(actions) == 1 else None

    def evaluate(self, game: Any, me: int) -> float:
        return float(self.entry.ai.evaluate(game, me))

    def judge(self, game: Any, actions: list[Action], me: int) -> list[float]:
        """The one-ply evaluation of each of ``actions`` (what greedy goes by)."""
        return [float(outcome(self.entry, game, a, me)[1]) for a in actions]

    def root_choices(self, game: Any, actions: list[Action], rng: random.Random) -> list[Action]:
        return list(actions)

    def choices(self, game: Any) -> list[Action]:
        return list(game.legal_actions())

    def available(self, game: Any, choices: list[Action]) -> list[Action]:
        legal = set(game.legal_actions())
        return [c for c in choices if c in legal]

    def horizon(self, game: Any) -> Hashable:
        return self.entry.rules.turn(game) if self.entry.rules.turn is not None else 0

    def stops(self, game: Any, choice: Action) -> bool:
        return False

    def play(self, game: Any, choice: Action) -> None:
        self.entry.rules.play(game, choice)

    def moment(self, game: Any) -> bool:
        """Whether the seat to move merely lets a moment pass (a reaction window, say)."""
        return self.entry.rules.passive is not None and self.entry.rules.passive(game) is not None

    def script(self, game: Any) -> Action:
        """The greedy script's action for the seat to move."""
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        act = self.entry.rules.passive(game) if self.entry.rules.passive is not None else None
        if act is not None:
            return act
        if len(actions) > self.cap:
            actions = self.rng.sample(actions, self.cap)
        values = self.judge(game, actions, game.to_move)
        return actions[max(range(len(actions)), key=values.__getitem__)]

    def reply(self, game: Any) -> None:
        self.entry.rules.play(game, self.script(game))

    def playout(self, game: Any, me: int) -> None:
        """Play ``game`` on by the script until :attr:`turns` turns have ended (the first being
        the one under way, which is ``me``'s unless ``me`` is answering in another's turn)."""
        current, ended = me, 0
        for _ in range(PLAYOUT_LIMIT):
            if game.over:
                return
            seat = game.to_move
            if seat != current and not self.moment(game):
                ended += 1
                current = seat
                if ended >= self.turns:
                    return
            self.entry.rules.play(game, self.script(game))

    def reward(self, game: Any, horizon: Hashable, me: int, baseline: float) -> float:
        self.playout(game, me)
        return self.judged(game, me, baseline)

    def judged(self, game: Any, me: int, baseline: float) -> float:
        """``me``'s reward for ``game`` as it stands, in [0, 1]."""
        if game.over:
            return (float(game.returns()[me]) + 1) / 2
        return squash(self.evaluate(game, me) - baseline)

    def widen_weight(self, choice: Action) -> float:
        return 1.0

    def resolve(self, game: Any, choice: Action, actions: list[Action], searched: list[Action],
                prior: dict[Action, float]) -> Action:
        return choice


class GenericSearch(Ismcts):
    """ISMCTS for a :class:`GenericDomain`, with the tree cut down to its root.

    The actions are judged one ply deep from the canonical position, as greedy judges them;
    the :data:`ROOT_WIDTH` best (no more than :data:`TWINS` of any that judge exactly alike)
    are searched. Each round draws one determinization and plays every searched action out on
    it by the domain's script, so the actions are compared on the same redrawn cards (common
    random numbers). Rounds go on while the budget lasts (``iterations`` counts playouts, a
    round is always finished; ``think`` is not overrun by more than half a round), and the
    action with the best mean reward is played, the one-ply judgement breaking ties.

    A deeper tree does not pay here: below the root, the searcher's own decisions are best
    followed by the script, and a playout costs hundreds of evaluated positions."""

    name = "ismcts"
    domain: GenericDomain

    def __init__(self, domain: GenericDomain, think: float | None = 1.0, iterations: int | None = None,
                 width: int = ROOT_WIDTH, twins: int = TWINS) -> None:
        super().__init__(domain, think=think, iterations=iterations)
        self.width = width
        self.twins = twins

    def candidates(self, actions: list[Action], values: list[float]) -> list[Action]:
        """The actions to search, best one-ply value first (ties in the game's order)."""
        order = sorted(range(len(actions)), key=lambda i: -values[i])
        out: list[Action] = []
        seen: dict[float, int] = {}
        for i in order:
            key = round(values[i], 9)
            if seen.get(key, 0) >= self.twins:
                continue
            seen[key] = seen.get(key, 0) + 1
            out.append(actions[i])
            if len(out) >= self.width:
                break
        return out

    def search(self, game: Any, rng: random.Random) -> SearchResult:
        domain = self.domain
        actions = game.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        start = time.perf_counter()
        self.last_iterations = 0
        me = game.to_move
        assert me is not None
        base = domain.canonical(game, me)
        baseline = domain.evaluate(base, me)
        values = domain.judge(base, actions, me)
        prior = {a: squash(v - baseline) for a, v in zip(actions, values)}
        searched = self.candidates(actions, values)
        if len(searched) == 1:
            only = searched[0]
            return SearchResult(only, only, prior[only], 0)
        domain.rng.seed(rng.getrandbits(64))
        totals = dict.fromkeys(searched, 0.0)
        deadline = None if self.think is None else start + self.think
        limit = self.iterations if self.iterations is not None else 1 << 62
        done = rounds = 0
        while True:
            round_start = time.perf_counter()
            det = base.determinize(me, rng)
            results = []
            for a in searched:
                g = det.clone()
                domain.play(g, a)
                results.append(domain.reward(g, None, me, baseline))
            done += len(searched)
            rounds += 1
            for a, r in zip(searched, results):
                totals[a] += r
            if done >= limit or (rounds == 1 and max(results) - min(results) < 1e-12):
                break  # the budget is spent, or every action came to the same
            if deadline is not None:
                now = time.perf_counter()
                if now + (now - round_start) / 2 >= deadline:
                    break
        self.last_iterations = done
        best = max(searched, key=lambda a: totals[a])  # the first of equals: the best one-ply
        return SearchResult(domain.resolve(game, best, actions, searched, prior), best, totals[best] / rounds,
                            rounds)


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
        return GenericSearch(GenericDomain(entry), think=think if think is not None or iterations else 1.0,
                             iterations=iterations)

    return make, names
