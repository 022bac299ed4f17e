"""Random-playout throughput: how many engine steps per second.

A step is ``legal_actions()`` plus ``apply_unchecked`` of a random one of them, the inner loop
of any search built on the engine. Games restart (next seed) when they end.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..engine.game import Game

TURN_LIMIT = 60
CHECK_EVERY = 128  # steps between clock reads


@dataclass(frozen=True)
class Measurement:
    """One configuration's figures."""

    players: int
    size: int
    steps: int
    games: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0


def measure(players: int, size: int, seconds: float = 3.0, max_steps: int | None = None,
            edition: str = "standard", seed: int = 0, turn_limit: int = TURN_LIMIT) -> Measurement:
    """Random playouts for about ``seconds`` (or exactly ``max_steps`` steps, if given)."""
    rng = random.Random(seed)
    steps = games = 0
    game = Game.new(players, size, edition, seed, turn_limit)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        if game.over:
            games += 1
            game = Game.new(players, size, edition, seed + games, turn_limit)
        actions = game.legal_actions()
        game.apply_unchecked(actions[rng.randrange(len(actions))])
        steps += 1
        if max_steps is not None:
            if steps >= max_steps:
                break
        elif steps % CHECK_EVERY == 0 and time.perf_counter() >= deadline:
            break
    return Measurement(players, size, steps, games, time.perf_counter() - start)


def summarize(small: Measurement, large: Measurement) -> dict[str, float]:
    """The headline figures: ``steps_per_second_2p3``, ``steps_per_second_4p5`` and ``ratio``
    (how many times more a 4-player 5x5 step costs than a 2-player 3x3 step)."""
    ratio = small.steps_per_second / large.steps_per_second if large.steps_per_second else 0.0
    return {"steps_per_second_2p3": round(small.steps_per_second, 1),
            "steps_per_second_4p5": round(large.steps_per_second, 1),
            "ratio": round(ratio, 3)}


def bench(seconds: float = 3.0, seed: int = 0,
          max_steps: int | None = None) -> tuple[dict[str, float], list[Measurement]]:
    """Measure 2 players on 3x3 and 4 players on 5x5 (standard edition, turn limit 60), each
    for about ``seconds`` (or ``max_steps`` steps): the summary and both measurements."""
    small = measure(2, 3, seconds, max_steps, seed=seed)
    large = measure(4, 5, seconds, max_steps, seed=seed)
    return summarize(small, large), [small, large]


# --------------------------------------------------------------------------- search speed


@dataclass(frozen=True)
class SearchMeasurement:
    """ISMCTS iterations over a set of real decisions."""

    players: int
    size: int
    decisions: int
    iterations: int
    seconds: float

    @property
    def iterations_per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else 0.0


def decision_points(players: int, size: int, count: int, seed: int = 0,
                    edition: str = "standard") -> list[Game]:
    """``count`` positions with a real choice (two or more actions), taken every few steps from
    seeded games between greedy players, so the positions look like play."""
    from ..agents import make_agent
    positions: list[Game] = []
    game_seed = seed
    while len(positions) < count:
        game = Game.new(players, size, edition, game_seed, TURN_LIMIT)
        agent = make_agent("greedy")
        rng = random.Random(game_seed)
        steps = 0
        while not game.over and len(positions) < count:
            if steps % 7 == 0 and len(game.legal_actions()) > 1:
                positions.append(game.clone())
            game.apply_unchecked(agent.choose(game, rng))
            steps += 1
        game_seed += 1
    return positions


def measure_search(players: int, size: int, seconds: float = 3.0, decisions: int = 12,
                   seed: int = 0, iterations: int | None = None) -> SearchMeasurement:
    """ISMCTS on ``decisions`` positions, ``seconds / decisions`` each (or exactly
    ``iterations`` per decision): the iterations done and the time they took."""
    from ..agents.ismcts import IsmctsAgent
    think = None if iterations is not None else seconds / decisions
    agent = IsmctsAgent(think=think, iterations=iterations)
    total = 0
    elapsed = 0.0
    rng = random.Random(seed)
    for pos in decision_points(players, size, decisions, seed):
        start = time.perf_counter()
        agent.choose(pos, rng)
        elapsed += time.perf_counter() - start
        total += agent.last_iterations
    return SearchMeasurement(players, size, decisions, total, elapsed)


def bench_search(seconds: float = 3.0, seed: int = 0,
                 iterations: int | None = None) -> tuple[dict[str, float], list[SearchMeasurement]]:
    """ISMCTS iterations per second for 2 players on 3x3 and 4 players on 5x5."""
    small = measure_search(2, 3, seconds, seed=seed, iterations=iterations)
    large = measure_search(4, 5, seconds, seed=seed, iterations=iterations)
    return ({"ismcts_iterations_per_second_2p3": round(small.iterations_per_second, 1),
             "ismcts_iterations_per_second_4p5": round(large.iterations_per_second, 1)}, [small, large])
