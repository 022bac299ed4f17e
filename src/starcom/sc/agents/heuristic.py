"""The heuristic player: the greedy search with better judgement and a short plan.

Differences from :mod:`greedy`:

* its evaluation (:data:`HEURISTIC`) counts developments for more, rewards attack within
  reach of the opponents' developments (most of all their homeworlds) and keeps a ship or two
  to claim the systems still open;
* in the Command phase it plans two actions ahead: the most promising first actions are each
  followed by their best continuation (still its own decision), so combinations such as
  "jump, then develop" or "develop, then build" are seen as a whole;
* it scores up to 60 actions (builds, card plays and abilities among the first), where greedy
  scores 40.

Like greedy it works on a canonical determinization of its own view only.
"""
from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.game import Game
from .evaluation import Weights, evaluate, settle
from .fleet import played_plans
from .greedy import UNAPPLIED_DEFAULT, GreedyAgent, by_families, pool_of

# Developments decide the turn-limit score, so they are worth more than their income. The other
# values were tuned by self-play against greedy (docs/ai.md gives the measurements).
HEURISTIC = Weights(dev=14.0, fighter_share=0.3, offense=2.0, explorer=6.0)

MAX_FIRST = 60  # first actions scored per decision
PLAN_WIDTH = 4  # best first actions followed one more step
MAX_SECOND = 25  # continuations scored after each of them
ALWAYS_TRY = frozenset({"develop", "build", "fight", "play", "ability", "assign", "accept", "decline"})


def candidate_pool(g: Game, actions: list[Action], default: Action | None, limit: int,
          rng: random.Random) -> list[Action]:
    """At most ``limit`` actions to score, never trade offers (their worth shows only over
    several turns) nor :func:`wasteful` ones; when they do not all fit, taken family by family
    (see :func:`~.greedy.by_families`), kinds in :data:`ALWAYS_TRY` first."""
    return by_families(pool_of(g, actions, default), limit, ALWAYS_TRY, rng)


class HeuristicAgent(GreedyAgent):
    """Greedy search with :data:`HEURISTIC` weights and a two-step plan in the Command phase."""

    name = "heuristic"
    weights = HEURISTIC

    def decide(self, game: Game, sample: Game, actions: list[Action], default: Action | None,
               rng: random.Random) -> Action:
        """The action whose (planned) outcome evaluates best for ``game.to_move``."""
        me = game.to_move
        assert me is not None
        step = game.decision
        scored: list[tuple[float, int, Action, Game]] = []
        stand: float | None = None  # the evaluation of ``sample`` as it stands, once known
        if default is not None:
            if step in UNAPPLIED_DEFAULT:
                stand = evaluate(sample, me, self.weights)
                scored.append((stand, 0, default, sample))
            else:
                scored.append(self._scored(sample, default, me, 0))
        for i, a in enumerate(candidate_pool(game, actions, default, MAX_FIRST, rng), start=1):
            scored.append(self._scored(sample, a, me, i))
        for i, (start, h) in enumerate(played_plans(game, sample, actions), start=len(scored) + 1):
            if start is not None:
                scored.append((evaluate(h, me, self.weights), i, start, h))
        # Ties keep the earlier entry: the default first, then the engine's order.
        scored.sort(key=lambda t: (-t[0], t[1]))
        if step != "command":
            return scored[0][2]
        best, best_value = scored[0][2], scored[0][0]
        if stand is None:
            stand = evaluate(sample, me, self.weights)
        for value, _, action, after in scored[:PLAN_WIDTH]:
            # Only a first step that is good in itself may start a plan: otherwise any idle
            # step (scrapping a ship for nothing) would win by the continuations it leaves.
            if (value <= stand + 1e-9 or after.over or after.to_move != me
                    or after.decision != "command"):
                continue
            follow = self._best_continuation(after, me, rng, value)
            if follow > best_value + 1e-9:
                best, best_value = action, follow
        return best

    def _scored(self, sample: Game, action: Action, me: int, order: int) -> tuple[float, int, Action, Game]:
        h = sample.clone()
        h.apply_unchecked(action)
        settle(h)
        return evaluate(h, me, self.weights), order, action, h

    def _best_continuation(self, g: Game, me: int, rng: random.Random, value: float) -> float:
        """The best evaluation reachable with one more of ``me``'s own actions from ``g``
        (ending the phase included, scored on the position as it stands: ``value``, which
        the caller has already worked out)."""
        best = value
        for a in candidate_pool(g, g.legal_actions(), ("end",), MAX_SECOND, rng):
            best = max(best, self._scored(g, a, me, 0)[0])
        return best
