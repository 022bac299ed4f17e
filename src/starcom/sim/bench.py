"""Random-playout throughput: how many engine steps per second.

A step is ``legal_actions()`` plus ``apply_unchecked`` of a random one of them, the inner loop
of any search built on the engine. Games restart (next seed) when they end.
"""
from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..sc.engine.game import Game

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


class Playouts:
    """Random playouts of one setup that can be run a slice at a time, so that several setups
    take turns on the processor and see the same load (see :func:`interleave`)."""

    def __init__(self, players: int, size: int, edition: str = "standard", seed: int = 0,
                 turn_limit: int = TURN_LIMIT) -> None:
        self.players, self.size, self.edition, self.seed, self.turn_limit = players, size, edition, seed, turn_limit
        self.rng = random.Random(seed)
        self.steps = self.games = 0
        self.seconds = 0.0
        self.game = Game.new(players, size, edition, seed, turn_limit)

    def run(self, steps: int) -> None:
        """Play ``steps`` more steps, adding their time to :attr:`seconds`."""
        rng, game = self.rng, self.game
        start = time.perf_counter()
        for _ in range(steps):
            if game.over:
                self.games += 1
                game = Game.new(self.players, self.size, self.edition, self.seed + self.games, self.turn_limit)
            actions = game.legal_actions()
            game.apply_unchecked(actions[rng.randrange(len(actions))])
        self.seconds += time.perf_counter() - start
        self.game = game
        self.steps += steps

    def measurement(self) -> Measurement:
        return Measurement(self.players, self.size, self.steps, self.games, self.seconds)


class ChessPlayouts:
    """The anchor: the same loop written the way python-chess is used (``list(board.legal_moves)``
    and ``push`` of a random one while ``not board.is_game_over()``, then a new game). Like our
    step, a chess step checks whether the game has ended (our ``apply`` does so as part of the
    rules). Needs python-chess (``pip install chess``)."""

    def __init__(self, seed: int = 0) -> None:
        import chess
        self._new = chess.Board
        self.rng = random.Random(seed)
        self.board = chess.Board()
        self.steps = self.games = 0
        self.seconds = 0.0

    def run(self, steps: int) -> None:
        rng, board = self.rng, self.board
        start = time.perf_counter()
        done = 0
        while done < steps:
            if board.is_game_over():
                self.games += 1
                board = self._new()
                continue
            moves = list(board.legal_moves)
            board.push(moves[rng.randrange(len(moves))])
            done += 1
        self.seconds += time.perf_counter() - start
        self.board = board
        self.steps += steps

    def measurement(self) -> Measurement:
        return Measurement(2, 8, self.steps, self.games, self.seconds)


class GamePlayouts:
    """Random playouts of any registered game through its entry (``new`` and ``play``), for
    ``starcom bench --game``; ``label`` names the setup in tables."""

    def __init__(self, game: str, settings: Mapping[str, Any], seed: int = 0, label: str = "") -> None:
        from ..games import get
        self.entry, self.settings, self.seed, self.label = get(game), dict(settings), seed, label
        self.rng = random.Random(seed)
        self.steps = self.games = 0
        self.seconds = 0.0
        self.game = self.entry.rules.new(**self.settings, seed=seed)

    def run(self, steps: int) -> None:
        rng, game, play = self.rng, self.game, self.entry.rules.play
        start = time.perf_counter()
        for _ in range(steps):
            if game.over:
                self.games += 1
                game = self.entry.rules.new(**self.settings, seed=self.seed + self.games)
            actions = game.legal_actions()
            play(game, actions[rng.randrange(len(actions))])
        self.seconds += time.perf_counter() - start
        self.game = game
        self.steps += steps

    def measurement(self) -> Measurement:
        return Measurement(self.game.players, 0, self.steps, self.games, self.seconds)


def bench_game(game: str, seconds: float = 3.0, seed: int = 0, max_steps: int | None = None,
               anchor: bool = True) -> tuple[dict[str, Any], list[tuple[str, Measurement]], Measurement | None]:
    """Random playouts of each edition of ``game`` (turn limit 60 where the game takes one)
    and python-chess's as the anchor, taking turns as in :func:`bench`: the summary (steps per
    second per edition, ``vs_chess`` per edition when measured), the measurements by edition
    and the chess one (or None)."""
    from ..games import get
    entry = get(game)
    settings: dict[str, Any] = {"turn_limit": TURN_LIMIT} if "turn_limit" in entry.rules.settings else {}
    runners = [GamePlayouts(game, {**settings, "edition": e}, seed, e) for e in entry.rules.editions] \
        or [GamePlayouts(game, settings, seed, game)]
    chess = ChessPlayouts(seed) if anchor and chess_available() else None
    interleave([*runners, chess] if chess is not None else runners, seconds, max_steps)
    summary: dict[str, Any] = {"game": game, "steps_per_second": {
        r.label: round(r.measurement().steps_per_second, 1) for r in runners}}
    if chess is not None and chess.steps:
        per_chess = chess.measurement().steps_per_second
        summary["chess_steps_per_second"] = round(per_chess, 1)
        summary["vs_chess"] = {r.label: round(r.measurement().steps_per_second / per_chess, 3) for r in runners}
    return summary, [(r.label, r.measurement()) for r in runners], None if chess is None else chess.measurement()


def chess_available() -> bool:
    try:
        import chess  # noqa: F401
    except ImportError:
        return False
    return True


class Runner(Protocol):
    """A playout runner :func:`interleave` can drive."""

    steps: int
    seconds: float

    def run(self, steps: int) -> None: ...


def interleave(runners: Sequence[Runner], seconds: float, max_steps: int | None = None) -> None:
    """Run every runner in turn, :data:`CHECK_EVERY` steps at a time, until each has had about
    ``seconds`` (or exactly ``max_steps`` steps): a change in the machine's load during the run
    then affects them all alike, so their ratios hold even when the absolute figures do not."""
    while True:
        if max_steps is not None:
            if all(r.steps >= max_steps for r in runners):
                return
            for r in runners:
                r.run(min(CHECK_EVERY, max_steps - r.steps))
        else:
            if all(r.seconds >= seconds for r in runners):
                return
            for r in runners:
                r.run(CHECK_EVERY)


def measure(players: int, size: int, seconds: float = 3.0, max_steps: int | None = None,
            edition: str = "standard", seed: int = 0, turn_limit: int = TURN_LIMIT) -> Measurement:
    """Random playouts of one setup for about ``seconds`` (or exactly ``max_steps`` steps)."""
    runner = Playouts(players, size, edition, seed, turn_limit)
    interleave([runner], seconds, max_steps)
    return runner.measurement()


def summarize(small: Measurement, large: Measurement) -> dict[str, float]:
    """The headline figures: ``steps_per_second_2p3``, ``steps_per_second_4p5`` and ``ratio``
    (how many times more a 4-player 5x5 step costs than a 2-player 3x3 step)."""
    ratio = small.steps_per_second / large.steps_per_second if large.steps_per_second else 0.0
    return {"steps_per_second_2p3": round(small.steps_per_second, 1),
            "steps_per_second_4p5": round(large.steps_per_second, 1),
            "ratio": round(ratio, 3)}


def bench(seconds: float = 3.0, seed: int = 0, max_steps: int | None = None,
          anchor: bool = True) -> tuple[dict[str, float], list[Measurement], Measurement | None]:
    """Measure 2 players on 3x3 and 4 players on 5x5 (standard edition, turn limit 60), each
    for about ``seconds`` (or ``max_steps`` steps), and, if ``anchor`` and python-chess is
    installed, its random playouts, all taking turns (:func:`interleave`): the summary (with
    ``chess_steps_per_second`` and ``vs_chess``, Star Commander's 2-player 3x3 steps per chess
    step, when measured), both measurements and the chess one (or None)."""
    small, large = Playouts(2, 3, seed=seed), Playouts(4, 5, seed=seed)
    chess = ChessPlayouts(seed) if anchor and chess_available() else None
    interleave([small, large] if chess is None else [small, large, chess], seconds, max_steps)
    summary = summarize(small.measurement(), large.measurement())
    if chess is not None and chess.steps:
        summary["chess_steps_per_second"] = round(chess.measurement().steps_per_second, 1)
        summary["vs_chess"] = round(small.measurement().steps_per_second / chess.measurement().steps_per_second, 3)
    return summary, [small.measurement(), large.measurement()], None if chess is None else chess.measurement()


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
    from ..sc.agents import make_agent
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
    from ..sc.agents.search_domain import IsmctsAgent
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
