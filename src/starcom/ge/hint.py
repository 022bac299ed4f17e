"""The Hint button's win chance for Galactic Empires (the entry's ``ai.win_chance``).

A position the seat may know (a determinization of its view) is played on a few times by the
shared greedy script for both sides (:class:`starcom.agents.generic.GenericDomain`: the rest of
this turn and the next), and each result's :func:`.evaluation.evaluate` becomes a probability on
a logistic curve; the chance is their mean. A finished playout counts as the win or loss it is.
The curve's scale (:data:`SCALES`, one per edition) is fitted to self-play outcomes
(``python -m starcom.ge.hint`` prints the fit).
"""
from __future__ import annotations

import math
import random
from typing import Any

from .evaluation import evaluate

SAMPLES = 3  # playouts a chance is the mean of
# Evaluation points worth odds of e to 1 (one point of Sector HQ damage is 10), per edition:
# fitted by maximum likelihood (:func:`fit`) on the positions at the start of each turn of greedy
# self-play games: 322 positions of 30 quick games (seeds 100-129), 292 of 20 full games
# (seeds 200-219).
SCALES = {"quick": 45.0, "full": 20.0}
SCALE = SCALES["full"]


def chance_of(value: float, scale: float = SCALE) -> float:
    """An evaluation as a probability of winning (logistic)."""
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, value / scale))))


def win_chance(entry: Any, game: Any, seat: int, rng: random.Random) -> float:
    """``seat``'s estimated chance to win from ``game`` (0 to 1); ``entry`` is the game's
    registry entry (its agents play the playouts)."""
    if game.over:
        return 1.0 if game.winner == seat else 0.0 if game.winner not in (-1, None) else 0.5
    from ..agents.generic import GenericDomain
    domain = GenericDomain(entry)
    domain.rng = random.Random(rng.random())
    chances = []
    for _ in range(SAMPLES):
        g = game.clone()
        domain.playout(g, seat)
        if g.over:
            chances.append(1.0 if g.winner == seat else 0.0 if g.winner != -1 else 0.5)
        else:
            chances.append(chance_of(evaluate(g.s, seat), SCALES.get(g.s.edition, SCALE)))
    return sum(chances) / len(chances)


def fit(entry: Any, games: int = 12, seed: int = 1, edition: str = "quick") -> tuple[float, int]:
    """The logistic scale that best predicts the winners of ``games`` greedy self-play games
    from the evaluation of their positions at the start of each turn (maximum likelihood over
    a grid), and how many positions it was fitted on."""
    from ..agents.generic import GreedyAgent
    from .game import GalacticEmpires
    samples: list[tuple[float, int]] = []
    for i in range(games):
        g = GalacticEmpires.new(edition=edition, seed=seed + i, options={})
        rng = random.Random(seed + i)
        agents = [GreedyAgent(entry), GreedyAgent(entry)]
        seen: list[tuple[int, float]] = []
        last = -1
        for _ in range(5000):
            if g.over:
                break
            if g.turn != last:
                last = g.turn
                seen.append((0, evaluate(g.s, 0)))
            mover = g.to_move
            assert mover is not None
            g.apply_unchecked(agents[mover].choose(g, rng))
        if g.over and g.winner in (0, 1):
            samples += [(v, int(g.winner == 0)) for _, v in seen]

    def loss(scale: float) -> float:
        out = 0.0
        for v, won in samples:
            p = min(1 - 1e-9, max(1e-9, chance_of(v, scale)))
            out -= math.log(p if won else 1 - p)
        return out

    best = min((5.0 * k for k in range(1, 41)), key=loss)
    return best, len(samples)


if __name__ == "__main__":  # pragma: no cover - a tool: prints the fitted scales
    from ..games import get
    print("quick", fit(get("ge"), games=30, seed=100), "full", fit(get("ge"), games=20, seed=200, edition="full"))
