"""Information-set Monte Carlo tree search (single-observer ISMCTS, after Cowling, Powley and
Whitehouse, 2012), for any game of the :class:`~starcom.protocol.Game` protocol.

Every iteration starts from a fresh determinization of the searching player's view (hidden
parts redrawn at random), so the tree gathers statistics over the states that player cannot
tell apart. One tree is shared by every determinization: a node is a sequence of actions, and
because an action may be legal in some determinizations and not in others, children are
chosen by UCB1 over *availability* counts (how often a child could have been picked) instead
of the parent's visits.

This module holds the search only. What it needs to know of a game comes from a
:class:`Domain`: where to start (a canonical form of the position that depends only on the
searcher's view), which actions to search and how to weigh them, how far the tree reaches (its
*horizon*), how the other seats answer inside the tree (a quick script, not a search), and how
a leaf is judged. Star Commander's is :class:`starcom.sc.agents.search_domain.StarcomDomain`.

* At the root, every candidate the domain offers is judged one ply deep; the best
  :data:`ROOT_WIDTH` are searched, and those estimates act as a prior that fades with visits.
* Below the root, children are added one at a time as a node gets visits (progressive
  widening, drawn by the domain's weights), so the tree can go deep where play is forced.
* The tree holds the searching player's own decisions up to the horizon; the others answer by
  the domain's script; the domain's reward at the leaf, in [0, 1], is backed up, and a node's
  value is its best continuation.

The agent never reads hidden information: it works on the domain's canonical form and on
determinizations drawn from it with its own random source, so two states that differ only in
what it cannot see give the same decision under the same seed and iteration budget.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Final, Hashable, Protocol

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # mypy-extensions comes with the compiled build; without it the mark is moot
    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls

Action = Any

EXPLORATION: Final = 0.25  # UCB1 constant on rewards in [0, 1]
PRIOR_WEIGHT: Final = 2.0  # visits' worth of the root prior
ROOT_WIDTH: Final = 10  # root actions searched (the best by the one-ply prior)
WIDEN_BASE: Final = 2  # children a node may have before its visits allow more ...
WIDEN_RATE: Final = 0.5  # ... and then ceil(visits ** WIDEN_RATE) more
MAX_DEPTH: Final = 24  # decisions followed below the root before evaluating
MIN_ITERATIONS: Final = 30  # before stopping early on a clear best move


class Domain(Protocol):
    """What the search needs to know about one game. A *choice* is what the tree branches on:
    a legal action, or a domain's own compound move (played by :meth:`play`, turned into the
    action to take now by :meth:`resolve`). ``game`` arguments are positions the search owns
    (determinizations), which the domain may change where it says so.

    A domain may also offer ``dealer(game, me)``: a function of a random source that gives
    exactly what ``game.determinize(me, rng)`` gives, prepared once per search so that the
    determinization of every iteration costs less (see :func:`dealer_of`); and a true
    ``root_moves_visible`` attribute, meaning that the searcher's legal actions where the search
    starts are the same in every determinization (they depend only on what it sees, as they
    should, since a player is shown them): :meth:`available` is then asked once per search
    instead of at every iteration."""

    def canonical(self, game: Any, me: int) -> Any:
        """The position the search starts from: it must depend only on what ``me`` sees."""
        ...

    def forced(self, game: Any, actions: list[Action]) -> Action | None:
        """An action to play without searching (None: search)."""
        ...

    def evaluate(self, game: Any, me: int) -> float:
        """``me``'s evaluation of ``game`` as it stands (the baseline :meth:`reward` gets)."""
        ...

    def root_choices(self, game: Any, actions: list[Action], rng: random.Random) -> list[Action]:
        """The choices judged at the root of a search on ``game`` (the canonical position)
        whose legal actions are ``actions``."""
        ...

    def choices(self, game: Any) -> list[Action]:
        """The choices searched below the root."""
        ...

    def available(self, game: Any, choices: list[Action]) -> list[Action]:
        """Those of the root ``choices`` that can be played in ``game`` (a determinization)."""
        ...

    def horizon(self, game: Any) -> Hashable:
        """The tree follows play while this stays the same (say, the turn number)."""
        ...

    def stops(self, game: Any, choice: Action) -> bool:
        """Whether the tree ends its line at ``choice`` (judged at the leaf, not played)."""
        ...

    def play(self, game: Any, choice: Action) -> None:
        """Play ``choice`` on ``game``."""
        ...

    def reply(self, game: Any) -> None:
        """Play one scripted decision for the seat to move (another than the searcher)."""
        ...

    def reward(self, game: Any, horizon: Hashable, me: int, baseline: float) -> float:
        """``me``'s reward at a leaf, in [0, 1]: ``horizon`` is the root's, ``baseline`` the
        root's :meth:`evaluate` (the domain may play ``game`` on before judging it)."""
        ...

    def widen_weight(self, choice: Action) -> float:
        """How likely ``choice`` is to be tried next when a node widens."""
        ...

    def resolve(self, game: Any, choice: Action, actions: list[Action], searched: list[Action],
                prior: dict[Action, float]) -> Action:
        """The legal action (one of ``actions``) that starts ``choice`` on the real ``game``;
        ``searched`` are the root choices the tree held, ``prior`` their one-ply estimates."""
        ...


def dealer_of(domain: Any, game: Any, me: int) -> Callable[[random.Random], Any]:
    """The maker of ``me``'s determinizations of ``game`` for one search: the domain's own
    ``dealer`` when it has one, else the game's ``determinize``."""
    make = getattr(domain, "dealer", None)
    if make is not None:
        deal: Callable[[random.Random], Any] = make(game, me)
        return deal
    return lambda rng: game.determinize(me, rng)


class Node:
    """Statistics of one choice sequence of the searching player: visits, availability (how
    often the choice could be picked), the evaluations of the searches that stopped here, and
    the node's value: the best of that estimate and its children's values, since the player
    picks the best continuation (and may always stop, which the estimate stands for)."""

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


@dataclass(frozen=True)
class SearchResult:
    """What one search found: the action to play, the root choice it starts, that choice's
    value for the searching player (0 to 1) and its visits at the root."""

    action: Action
    choice: Action
    value: float
    visits: int


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled or not, games' searches derive from it
class Ismcts:
    """ISMCTS over ``domain``; budget by ``think`` seconds per decision, ``iterations``, or
    both (whichever ends first)."""

    name = "ismcts"

    def __init__(self, domain: Domain, think: float | None = 1.0, iterations: int | None = None) -> None:
        if think is None and iterations is None:
            raise ValueError("give a think time, an iteration count or both")
        self.domain = domain
        self.think = think
        self.iterations = iterations
        self.last_iterations = 0  # of the latest decision, for benchmarks and study tools
        self._baseline = 0.0  # the searching player's evaluation at the root of the search

    def choose(self, game: Any, rng: random.Random) -> Action:
        """The root action most visited by the search (a legal action of ``game.to_move``)."""
        actions = game.legal_actions()
        if len(actions) == 1:  # forced: not worth even the one-ply estimate
            self.last_iterations = 0
            return actions[0]
        forced = self.domain.forced(game, actions) if actions else None
        if forced is not None:
            self.last_iterations = 0
            return forced
        return self.search(game, rng).action

    def search(self, game: Any, rng: random.Random) -> SearchResult:
        """Search for ``game.to_move``: the action to play and the search's estimate of the win
        chance after it (the chosen root child's value; with a single sensible choice, the
        one-ply estimate). ValueError when the game is over."""
        domain = self.domain
        actions = game.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        self.last_iterations = 0
        # The think time counts from here: judging the root's choices is part of the decision.
        deadline = None if self.think is None else time.perf_counter() + self.think
        me = game.to_move
        assert me is not None
        base = domain.canonical(game, me)
        self._baseline = domain.evaluate(base, me)
        root_actions = domain.root_choices(base, actions, rng)
        deal = dealer_of(domain, base, me)
        prior = self._root_prior(deal(rng), me, root_actions)
        if len(root_actions) == 1:
            only = root_actions[0]
            return SearchResult(only, only, prior[only], 0)
        root_actions = sorted(root_actions, key=lambda a: -prior[a])[:ROOT_WIDTH]
        root = Node()
        for a in root_actions:
            root.children[a] = Node()
        # The root choices playable in every determinization, when the domain says they are
        # the same in all of them (None: asked of each determinization).
        fixed = domain.available(base, list(root.children)) if getattr(domain, "root_moves_visible", False) else None
        limit = self.iterations if self.iterations is not None else 1 << 62
        done = 0
        while done < limit:
            self._iterate(deal(rng), root, prior, rng, fixed)
            done += 1
            if deadline is not None and (done & 7) == 0:
                now = time.perf_counter()
                if now >= deadline or self._settled(root, done, deadline - now):
                    break
        self.last_iterations = done
        best = max(root_actions, key=lambda a: (root.children[a].visits, prior[a]))
        child = root.children[best]
        value = child.value if child.visits else prior[best]
        return SearchResult(domain.resolve(game, best, actions, root_actions, prior), best, value, child.visits)

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

    def _root_prior(self, sample: Any, me: int, actions: list[Action]) -> dict[Action, float]:
        """One-ply estimates of each root choice on one determinization."""
        domain = self.domain
        horizon = domain.horizon(sample)
        out = {}
        for a in actions:
            h = sample.clone()
            domain.play(h, a)
            out[a] = domain.reward(h, horizon, me, self._baseline)
        return out

    def _iterate(self, g: Any, root: Node, prior: dict[Action, float], rng: random.Random,
                 fixed: list[Action] | None = None) -> None:
        domain = self.domain
        path: list[Node] = []
        node = root
        depth = 0
        horizon = domain.horizon(g)
        me = g.to_move
        horizon_of, reply, stops, play = domain.horizon, domain.reply, domain.stops, domain.play
        while not g.over and depth < MAX_DEPTH and horizon_of(g) == horizon:
            if g.to_move != me:
                # Others answer by script rather than by search: searching their replies with
                # hidden parts drawn at random makes the player fear what nobody holds.
                reply(g)
                continue
            if node is root:
                actions = fixed if fixed is not None else domain.available(g, list(root.children))
            else:
                actions = domain.choices(g)
            if not actions:
                break
            child, action, expanded = self._select(node, actions, node is root, prior, rng)
            path.append(child)
            if stops(g, action):
                break
            play(g, action)
            node = child
            depth += 1
            if expanded:
                break
        value = domain.reward(g, horizon, me, self._baseline)
        for i in range(len(path) - 1, -1, -1):
            path[i].back_up(value if i == len(path) - 1 else None)

    def _select(self, node: Node, actions: list[Action], at_root: bool, prior: dict[Action, float],
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
                untried = [a for a in actions if a not in children]
                weights = [self.domain.widen_weight(a) for a in untried]
                a = rng.choices(untried, weights)[0]
                child = Node()
                child.avail = 1
                children[a] = child
                return child, a, True
        best_a, best_child = present[0]
        best_score = -1.0
        log, sqrt = math.log, math.sqrt
        if at_root:
            for a, c in present:
                visits = c.visits
                if visits == 0:
                    score = 10.0 + prior.get(a, 0.0)
                else:
                    score = (c.value + EXPLORATION * sqrt(log(c.avail) / visits)
                             + PRIOR_WEIGHT * prior[a] / (visits + 1))
                if score > best_score:
                    best_a, best_child, best_score = a, c, score
        else:
            for a, c in present:
                visits = c.visits
                if visits == 0:
                    score = 10.0 + rng.random()
                else:
                    score = c.value + EXPLORATION * sqrt(log(c.avail) / visits)
                if score > best_score:
                    best_a, best_child, best_score = a, c, score
        return best_child, best_a, False


__all__ = ["Domain", "Ismcts", "Node", "SearchResult", "dealer_of"]
