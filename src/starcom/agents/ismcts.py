"""Information-set Monte Carlo tree search (single-observer ISMCTS, after Cowling, Powley and
Whitehouse, 2012).

Every iteration starts from a fresh determinization of the searching player's view (hidden
cards re-dealt at random), so the tree gathers statistics over the states that player cannot
tell apart. One tree is shared by every determinization: a node is a sequence of actions, and
because an action may be legal in some determinizations and not in others, children are
chosen by UCB1 over *availability* counts (how often a child could have been picked) instead
of the parent's visits.

Search is guided by the heuristic player's judgement:

* at the root, every action and every fleet move (:mod:`.fleet`, several ships jumping to one
  system as one choice) is first scored one ply deep; the best :data:`ROOT_WIDTH` are
  searched, and the scores act as a prior that fades with visits;
* below the root, children are added one at a time as a node gets visits (progressive
  widening), so the tree can go deep where the play is forced or narrow;
* the tree holds the searching player's own decisions for the rest of the current turn; the
  other players answer by a quick script (:mod:`.playout`: they pass and decline, but fight
  back); at a new leaf the rest of the turn is played out by that script for everyone, so the
  fights the player set up are fought, and the position is then evaluated, relative to the
  root's evaluation, and squashed into a reward in [0, 1]; a node's value is its best
  continuation.

The agent never reads hidden information: it works on ``canonical(game, me)`` (hidden cards in
a fixed order) and on determinizations drawn from it with its own random source, so two
states that differ only in what it cannot see give the same decision under the same seed and
iteration budget.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ..engine.game import Game
from .evaluation import WIN, Weights, canonical, scores, wasteful, win_chances
from .fleet import first_jump, fleet_plans, play_plan
from .heuristic import HEURISTIC, MAX_FIRST, candidate_pool
from .playout import finish_turn, scripted

Action = tuple

EXPLORATION = 0.25  # UCB1 constant on rewards in [0, 1]
PRIOR_WEIGHT = 2.0  # visits' worth of the root prior
ROOT_WIDTH = 10  # root actions searched (the best by the one-ply prior)
WIDEN_BASE = 2  # children a node may have before its visits allow more ...
WIDEN_RATE = 0.5  # ... and then ceil(visits ** WIDEN_RATE) more
MAX_DEPTH = 24  # decisions followed below the root before evaluating
REWARD_SCALE = 15.0  # evaluation difference that makes a win chance of 73% against 50%
MIN_ITERATIONS = 30  # before stopping early on a clear best move


class Node:
    """Statistics of one action sequence of the searching player: visits, availability (how
    often the action could be chosen), the evaluations of the searches that stopped here, and
    the node's value: the best of that estimate and its children's values, since the player
    picks the best continuation (and may always end the phase, which the estimate stands for)."""

    __slots__ = ("children", "visits", "avail", "own_sum", "own_n", "value")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.avail = 0
        self.own_sum = 0.0
        self.own_n = 0
        self.value = 0.0

    def back_up(self, leaf_value: float | None) -> None:
        """Count a visit; ``leaf_value`` when the search stopped at this node."""
        self.visits += 1
        if leaf_value is not None:
            self.own_sum += leaf_value
            self.own_n += 1
        best = self.own_sum / self.own_n if self.own_n else -1.0
        for c in self.children.values():
            if c.visits and c.value > best:
                best = c.value
        self.value = best


UNSEARCHED = frozenset({"offer", "scrap"})  # action kinds the tree never tries (see search_actions)


def search_actions(g: Game) -> list[Action]:
    """The actions the search considers: all legal ones but trade offers (opening a trade is
    judged over several turns, beyond the horizon), scraps and :func:`wasteful` ones; an open
    trade draft is cancelled.

    Scrapping is left out because the evaluation cannot see what a ship will be worth in the
    fights to come: a deep search found that selling its fleet paid for developments, and lost
    its homeworld to the next attack."""
    actions = g.legal_actions()
    if g.decision == "trade_build" and ("cancel",) in actions:
        return [("cancel",)]
    kept = [a for a in actions if a[0] not in UNSEARCHED and not wasteful(g, a)]
    return kept or actions


def _ends_command(g: Game, action: Action) -> bool:
    """Whether ``action`` ends the Command phase: the tree stops there and the script fights the
    turn's battles out (the player's own combat decisions are searched only when a decision
    is taken inside combat)."""
    return action == ("end",) and g.decision == "command"


FLEET = "fleet"  # root pseudo-action: ("fleet", plan), a fleet move played as one choice


def play_choice(g: Game, action: Action) -> None:
    """Apply a legal action, or every jump of a fleet move."""
    if action[0] == FLEET:
        play_plan(g, action[1])
    else:
        g.apply_unchecked(action)


def _fleet_starts(actions: list[Action]) -> list[tuple[int, int]]:
    """The (ship, destination) pairs that can start a fleet move now."""
    return [(a[1], a[2]) for a in actions if a[0] == "jump"]


# How likely each kind of action is to be tried next when a node widens: actions that score
# at once (developing, fighting) before moves and builds, ending and selling last.
WIDEN_WEIGHT = {"develop": 8.0, "fight": 6.0, "assign": 6.0, "play": 3.0, "build": 3.0,
                "ability": 2.0, "jump": 2.0, "retreat": 2.0, "choose": 2.0}


def _widen(actions: list[Action], children: dict[Action, "Node"], rng: random.Random) -> Action:
    """An untried action (one exists), drawn with :data:`WIDEN_WEIGHT` by kind."""
    untried = [a for a in actions if a not in children]
    weights = [WIDEN_WEIGHT.get(a[0], 1.0) for a in untried]
    return rng.choices(untried, weights)[0]


@dataclass(frozen=True)
class SearchResult:
    """What one search found: the action to play, the root choice it starts (the action, or
    a whole fleet move ``("fleet", plan)``), that choice's value for the searching player (0 to
    1, the evaluation squashed by :data:`REWARD_SCALE`) and its visits at the root."""

    action: Action
    choice: Action
    value: float
    visits: int


class IsmctsAgent:
    """ISMCTS with heuristic priors and evaluation; budget by ``think`` seconds per decision,
    ``iterations``, or both (whichever ends first)."""

    name = "ismcts"
    weights: Weights = HEURISTIC

    def __init__(self, think: float | None = 1.0, iterations: int | None = None) -> None:
        if think is None and iterations is None:
            raise ValueError("give a think time, an iteration count or both")
        self.think = think
        self.iterations = iterations
        self.last_iterations = 0  # of the latest decision, for benchmarks and study tools
        self._baseline = 0.0  # the searching player's evaluation at the root of the search

    def choose(self, game: Game, rng: random.Random) -> Action:
        """The root action most visited by the search (a legal action of ``game.to_move``)."""
        actions = game.legal_actions()
        if len(actions) == 1:  # forced: not worth even the one-ply estimate
            self.last_iterations = 0
            return actions[0]
        if actions and game.decision == "trade_build" and ("cancel",) in actions:
            self.last_iterations = 0
            return ("cancel",)
        return self.search(game, rng).action

    def search(self, game: Game, rng: random.Random) -> SearchResult:
        """Search for ``game.to_move``: the action to play and the search's estimate of the win
        chance after it (the chosen root child's value; with a single sensible action, the
        one-ply estimate). ValueError when the game is over."""
        actions = game.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        self.last_iterations = 0
        me = game.to_move
        assert me is not None
        base = canonical(game, me)
        self._baseline = scores(base, self.weights)[me]
        root_actions = search_actions(base) if len(actions) > 1 else actions
        if len(root_actions) > MAX_FIRST:  # thousands of builds late in a game: score a sample
            root_actions = candidate_pool(base, root_actions, None, MAX_FIRST, rng)
        # Fleet moves join the root as single choices (see agents/fleet.py): one jump at a
        # time, a fleet never finds the attack that only works with every ship in.
        root_actions += [(FLEET, plan) for plan in fleet_plans(base, actions)]
        prior = self._root_prior(base.determinize(me, rng), me, root_actions)
        if len(root_actions) == 1:
            only = root_actions[0]
            return SearchResult(only, only, prior[only], 0)
        root_actions = sorted(root_actions, key=lambda a: -prior[a])[:ROOT_WIDTH]
        root = Node()
        for a in root_actions:
            root.children[a] = Node()
        deadline = None if self.think is None else time.perf_counter() + self.think
        limit = self.iterations if self.iterations is not None else 1 << 62
        done = 0
        while done < limit:
            self._iterate(base.determinize(me, rng), root, prior, rng)
            done += 1
            if deadline is not None and (done & 7) == 0:
                now = time.perf_counter()
                if now >= deadline or self._settled(root, done, deadline - now):
                    break
        self.last_iterations = done
        best = max(root_actions, key=lambda a: (root.children[a].visits, prior[a]))
        child = root.children[best]
        value = child.value if child.visits else prior[best]
        action = best
        if best[0] == FLEET:  # play the fleet move's first jump; the rest is chosen anew
            start = first_jump(game, best[1], actions)
            action = start if start is not None else max(
                (a for a in root_actions if a[0] != FLEET), key=lambda a: prior[a], default=actions[0])
        return SearchResult(action, best, value, child.visits)

    def _settled(self, root: Node, done: int, left: float) -> bool:
        """True when the most visited move can no longer be overtaken in the time left."""
        if done < MIN_ITERATIONS or self.think is None:
            return False
        spent = self.think - left
        if spent <= 0:
            return False
        remaining = done / spent * left
        if self.iterations is not None:
            remaining = min(remaining, self.iterations - done)
        visits = sorted((c.visits for c in root.children.values()), reverse=True)
        return len(visits) < 2 or visits[0] - visits[1] > remaining

    def _root_prior(self, sample: Game, me: int, actions: list[Action]) -> dict[Action, float]:
        """One-ply win chances of each root action on one determinization."""
        out = {}
        for a in actions:
            h = sample.clone()
            play_choice(h, a)
            out[a] = self._reward(h, sample.turn, me)
        return out

    def _reward(self, g: Game, turn: int, me: int) -> float:
        """``me``'s reward at a leaf, in [0, 1]: a position inside the searched turn is first
        played to the turn's end by the script (the searching player ending its phase there);
        one past it is judged as it stands. The evaluation is taken relative to the root's
        (:attr:`_baseline`) before it is squashed: squashing absolute values made every move
        look alike (a win chance of 0.9999) once a player was far ahead, and a player far
        ahead then sat at home instead of finishing the game."""
        if g.turn == turn:
            finish_turn(g)
        value = scores(g, self.weights)[me]
        if abs(value) >= WIN:
            return win_chances([value], REWARD_SCALE)[0]
        return win_chances([value - self._baseline], REWARD_SCALE)[0]

    def _iterate(self, g: Game, root: Node, prior: dict[Action, float], rng: random.Random) -> None:
        path: list[Node] = []
        node = root
        depth = 0
        turn = g.turn
        # The tree covers the rest of this turn only: the opponents' turns are judged by the
        # evaluation (threats, losses to come) rather than by guessing their hidden plans.
        me = g.to_move
        while not g.over and depth < MAX_DEPTH and g.turn == turn:
            mover = g.to_move
            if mover != me:
                # Others answer by script rather than by search: searching their replies with
                # cards dealt at random makes the player fear cards nobody holds.
                scripted(g)
                continue
            actions = list(root.children) if node is root else search_actions(g)
            if node is root:
                legal = g.legal_actions()
                jumps = set(_fleet_starts(legal))
                legal = set(legal)
                actions = [a for a in actions if a in legal or a[0] == FLEET and a[1][0] in jumps]
            if not actions:
                break
            child, action, expanded = self._select(node, actions, node is root, prior, rng)
            path.append(child)
            if _ends_command(g, action):
                break
            play_choice(g, action)
            node = child
            depth += 1
            if expanded:
                break
        value = self._reward(g, turn, me)
        for i in range(len(path) - 1, -1, -1):
            path[i].back_up(value if i == len(path) - 1 else None)

    @staticmethod
    def _select(node: Node, actions: list[Action], at_root: bool, prior: dict[Action, float],
                rng: random.Random) -> tuple[Node, Action, bool]:
        """The child to follow: a new one while the node may widen, else the best by UCB1
        over availability (plus the fading prior at the root)."""
        children = node.children
        legal = set(actions)
        present = [(a, c) for a, c in children.items() if a in legal]
        for _, c in present:
            c.avail += 1
        if not at_root and len(present) < len(actions):
            room = WIDEN_BASE + math.ceil(node.visits ** WIDEN_RATE)
            if len(children) < room or not present:
                a = _widen(actions, children, rng)
                child = Node()
                child.avail = 1
                children[a] = child
                return child, a, True
        best_a, best_child = present[0]
        best_score = -1.0
        log = math.log
        for a, c in present:
            if c.visits == 0:
                score = 10.0 + (prior.get(a, 0.0) if at_root else rng.random())
            else:
                score = c.value + EXPLORATION * math.sqrt(log(c.avail) / c.visits)
                if at_root:
                    score += PRIOR_WEIGHT * prior[a] / (c.visits + 1)
            if score > best_score:
                best_a, best_child, best_score = a, c, score
        return best_child, best_a, False
