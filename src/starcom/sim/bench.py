"""Random-playout throughput: how many engine steps per second, for any registered game.

A step is ``legal_actions()`` plus playing a random one of them (the entry's ``play``), the inner
loop of any search built on the engine. Games restart (next seed) when they end. What is
measured are the game's benchmark setups (its entry's ``tools.bench_setups``; Star Commander's:
2 players on 3x3 and 4 players on 5x5), with a turn limit of 60 where the game takes one.
"""
from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..games import GameEntry, default_game, get

TURN_LIMIT = 60
CHECK_EVERY = 128  # steps between clock reads


@dataclass(frozen=True)
class Measurement:
    """One setup's figures (``size`` 0 for a game without a board)."""

    players: int
    size: int
    steps: int
    games: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0


def setups(entry: GameEntry[Any, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The setups a benchmark of ``entry`` measures, each a label and its settings (without the
    seed): the entry's ``tools.bench_setups``, else one per edition, else its defaults; each
    with a turn limit of :data:`TURN_LIMIT` where the game takes one, and its first edition
    where the setup names none."""
    base: dict[str, Any] = {"turn_limit": TURN_LIMIT} if "turn_limit" in entry.rules.settings else {}
    editions = entry.rules.editions
    if entry.tools.bench_setups:
        first = {"edition": editions[0]} if editions else {}
        return [(label, {**base, **first, **dict(settings)}) for label, settings in entry.tools.bench_setups]
    if editions:
        return [(e, {**base, "edition": e}) for e in editions]
    return [(entry.name, base)]


class Playouts:
    """Random playouts of one setup of a registered game, through its entry (``new`` and
    ``play``), that can be run a slice at a time, so that several setups take turns on the
    processor and see the same load (see :func:`interleave`); ``label`` names the setup."""

    def __init__(self, game: str, settings: Mapping[str, Any], seed: int = 0, label: str = "") -> None:
        self.entry, self.settings, self.seed, self.label = get(game), dict(settings), seed, label
        self.rng = random.Random(seed)
        self.steps = self.games = 0
        self.seconds = 0.0
        self.game = self.entry.rules.new(**self.settings, seed=seed)

    def run(self, steps: int) -> None:
        """Play ``steps`` more steps, adding their time to :attr:`seconds`."""
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
        return Measurement(int(self.game.players), int(self.settings.get("size") or 0), self.steps, self.games,
                           self.seconds)


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


def _runners(game: str, seed: int) -> list[Playouts]:
    return [Playouts(game, settings, seed, label) for label, settings in setups(get(game))]


class OtherBuild:
    """The same random playouts of every setup of ``game``, run by a child process of the other
    build of the rules (``build``: ``"pure"`` or ``"compiled"``; see :mod:`starcom.build`),
    one setup a slice at a time on request, so that both builds take turns in one
    :func:`interleave`. Only the child's own playing is timed. :attr:`build` is the build the
    child really runs (``"pure"`` when asked for a compiled build that is not there)."""

    def __init__(self, build: str, game: str, seed: int = 0) -> None:
        from ..build import child_env
        from .crossbuild import JsonChild
        self._child = JsonChild("from starcom.sim.bench import worker; worker()", child_env(build),
                                f"the {build} build's child process")
        hello = self._child.ask({"game": game, "seed": seed})
        self.build: str = hello["build"]
        self.labels: list[str] = hello["labels"]
        self.setups = [_Remote(self, i, label) for i, label in enumerate(self.labels)]

    def close(self) -> None:
        self._child.close()


class _Remote:
    """One setup of an :class:`OtherBuild`, as a runner of :func:`interleave`."""

    def __init__(self, owner: OtherBuild, index: int, label: str) -> None:
        self.owner, self.index, self.label = owner, index, label
        self.steps = self.games = self.players = self.size = 0
        self.seconds = 0.0

    def run(self, steps: int) -> None:
        got = self.owner._child.ask({"setup": self.index, "steps": steps})
        self.steps, self.games, self.seconds = got["steps"], got["games"], got["seconds"]
        self.players, self.size = got["players"], got["size"]

    def measurement(self) -> Measurement:
        return Measurement(self.players, self.size, self.steps, self.games, self.seconds)


def worker() -> None:
    """The child of :class:`OtherBuild`: one JSON request a line on stdin, one answer a line."""
    from ..build import build_name
    first = json.loads(sys.stdin.readline())
    runners = _runners(first["game"], first["seed"])
    print(json.dumps({"build": build_name(), "labels": [r.label for r in runners]}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        r = runners[req["setup"]]
        r.run(req["steps"])
        m = r.measurement()
        print(json.dumps({"steps": m.steps, "games": m.games, "seconds": m.seconds, "players": m.players,
                          "size": m.size}), flush=True)


def bench_game(game: str | None = None, seconds: float = 3.0, seed: int = 0, max_steps: int | None = None,
               anchor: bool = True, both_builds: bool = False,
               ) -> tuple[dict[str, Any], list[tuple[str, Measurement]], Measurement | None]:
    """Random playouts of each of :func:`setups` of ``game`` (None: the default game) and
    python-chess's as the anchor, taking turns as in :func:`bench`: the summary (``game``,
    ``build``, ``steps_per_second`` by setup, ``vs_chess`` by setup when measured, and with
    ``both_builds`` the other build's figures under ``other_build``, see :func:`bench`), the
    measurements by setup and the chess one (or None)."""
    runners, chess, other = _play(game, seed, seconds, max_steps, anchor, both_builds)
    summary: dict[str, Any] = {"game": game if game is not None else default_game(), "build": build_name(), "steps_per_second": {
        r.label: round(r.measurement().steps_per_second, 1) for r in runners}}
    per_chess = chess.measurement().steps_per_second if chess is not None and chess.steps else 0.0
    if per_chess:
        summary["chess_steps_per_second"] = round(per_chess, 1)
        summary["vs_chess"] = {r.label: round(r.measurement().steps_per_second / per_chess, 3) for r in runners}
    _add_other(summary, other, per_chess, both_builds)
    return summary, [(r.label, r.measurement()) for r in runners], None if chess is None else chess.measurement()


def _play(game: str | None, seed: int, seconds: float, max_steps: int | None, anchor: bool, both_builds: bool,
          ) -> tuple[list[Playouts], ChessPlayouts | None, OtherBuild | None]:
    """Random playouts of each setup of ``game`` (None: the default game), python-chess's when
    ``anchor`` and installed, and with ``both_builds`` the other build's in a child process (closed
    when done), all taking turns (:func:`interleave`): the runners, the chess one, the child."""
    name = game if game is not None else default_game()
    runners = _runners(name, seed)
    chess = ChessPlayouts(seed) if anchor and chess_available() else None
    other = _other_build(name, seed) if both_builds else None
    remote: list[_Remote] = other.setups if other is not None else []
    try:
        interleave([*runners, *remote, *([chess] if chess is not None else [])], seconds, max_steps)
    finally:
        if other is not None:
            other.close()
    return runners, chess, other


def build_name() -> str:
    """Which build of the rules this process runs: ``"compiled"`` or ``"pure"``."""
    from ..build import build_name as name
    return name()


def _other_build(game: str, seed: int) -> OtherBuild | None:
    """A child process of the build this process does not run, or None when that is the
    compiled build and it is not there (a child asked for it would run pure Python too)."""
    current = build_name()
    other = OtherBuild("pure" if current == "compiled" else "compiled", game, seed)
    if other.build == current:
        other.close()
        return None
    return other


def _add_other(summary: dict[str, Any], other: OtherBuild | None, per_chess: float, asked: bool) -> None:
    if other is None:
        if asked:
            summary["other_build"] = None  # the compiled build is not there
        return
    measured = {r.label: r.measurement() for r in other.setups}
    out: dict[str, Any] = {"build": other.build,
                           "steps_per_second": {k: round(m.steps_per_second, 1) for k, m in measured.items()},
                           "measurements": {k: {"players": m.players, "size": m.size, "steps": m.steps,
                                                "games": m.games, "seconds": round(m.seconds, 3)}
                                            for k, m in measured.items()}}
    if per_chess:
        out["vs_chess"] = {k: round(m.steps_per_second / per_chess, 3) for k, m in measured.items()}
    summary["other_build"] = out


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


def summarize(measured: Sequence[tuple[str, Measurement]]) -> dict[str, float]:
    """The headline figures: ``steps_per_second_<label>`` of each setup and, with two or more,
    ``ratio``: how many times more a step of the last setup costs than one of the first."""
    out = {f"steps_per_second_{label}": round(m.steps_per_second, 1) for label, m in measured}
    if len(measured) > 1:
        first, last = measured[0][1].steps_per_second, measured[-1][1].steps_per_second
        out["ratio"] = round(first / last if last else 0.0, 3)
    return out


def bench(seconds: float = 3.0, seed: int = 0, max_steps: int | None = None, anchor: bool = True,
          game: str | None = None, both_builds: bool = False,
          ) -> tuple[dict[str, Any], list[Measurement], Measurement | None]:
    """Measure each of :func:`setups` of ``game`` (None: the default game; Star Commander's: 2
    players on 3x3 and 4 players on 5x5, standard edition, turn limit 60) for about ``seconds``
    (or ``max_steps`` steps) and, if ``anchor`` and python-chess is installed, its random
    playouts, all taking turns (:func:`interleave`): the summary (:func:`summarize`, with
    ``build``, the build of the rules that ran, and ``chess_steps_per_second`` and ``vs_chess``,
    the first setup's steps per chess step, when measured), the measurements and the chess one
    (or None). With ``both_builds`` the other build of the rules (pure Python or compiled, see
    :mod:`starcom.build`) plays the same setups in a child process, in the same interleaved
    run: its figures are ``other_build`` (``build``, ``steps_per_second`` and ``vs_chess`` by
    setup, ``measurements``), None when the compiled build is not there."""
    runners, chess, other = _play(game, seed, seconds, max_steps, anchor, both_builds)
    summary: dict[str, Any] = {"build": build_name(), **summarize([(r.label, r.measurement()) for r in runners])}
    per_chess = chess.measurement().steps_per_second if chess is not None and chess.steps else 0.0
    if per_chess:
        summary["chess_steps_per_second"] = round(per_chess, 1)
        summary["vs_chess"] = round(runners[0].measurement().steps_per_second / per_chess, 3)
    _add_other(summary, other, per_chess, both_builds)
    return summary, [r.measurement() for r in runners], None if chess is None else chess.measurement()


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


def decision_points(game: str, settings: Mapping[str, Any], count: int, seed: int = 0) -> list[Any]:
    """``count`` positions of ``game`` made with ``settings`` (and a seed) with a real choice
    (two or more actions), taken every few steps from seeded games between players of the
    game's easiest level, so the positions look like play."""
    entry = get(game)
    positions: list[Any] = []
    game_seed = seed
    while len(positions) < count:
        position = entry.rules.new(**settings, seed=game_seed)
        agent = entry.ai.make_agent(entry.ai.levels[0] if entry.ai.levels else entry.ai.default_level)
        rng = random.Random(game_seed)
        steps = 0
        while not position.over and len(positions) < count:
            if steps % 7 == 0 and len(position.legal_actions()) > 1:
                positions.append(position.clone())
            entry.rules.play(position, agent.choose(position, rng))
            steps += 1
        game_seed += 1
    return positions


SEARCH_AGENT = "ismcts"  # the agent whose search the search bench measures


def measure_search(game: str, settings: Mapping[str, Any], seconds: float = 3.0, decisions: int = 12,
                   seed: int = 0, iterations: int | None = None) -> SearchMeasurement:
    """The game's ISMCTS agent on ``decisions`` positions of :func:`decision_points`,
    ``seconds / decisions`` each (or exactly ``iterations`` per decision): the iterations done
    and the time they took. ValueError for a game without an ``ismcts`` agent."""
    entry = get(game)
    if SEARCH_AGENT not in entry.ai.agent_names():
        raise ValueError(f"{entry.title} has no {SEARCH_AGENT!r} agent to measure; its agents: "
                         f"{', '.join(entry.ai.agent_names())}")
    think = None if iterations is not None else seconds / decisions
    agent = entry.ai.make_agent(SEARCH_AGENT, think=think, iterations=iterations)
    total = 0
    elapsed = 0.0
    rng = random.Random(seed)
    for pos in decision_points(game, settings, decisions, seed):
        start = time.perf_counter()
        agent.choose(pos, rng)
        elapsed += time.perf_counter() - start
        total += int(getattr(agent, "last_iterations", 0))
    return SearchMeasurement(int(settings.get("players") or 0), int(settings.get("size") or 0), decisions, total,
                             elapsed)


def bench_search(seconds: float = 3.0, seed: int = 0, iterations: int | None = None,
                 game: str | None = None) -> tuple[dict[str, float], list[SearchMeasurement]]:
    """ISMCTS iterations per second on each of :func:`setups` of ``game`` (None: the default
    game): ``ismcts_iterations_per_second_<label>`` each, and the measurements."""
    name = game if game is not None else default_game()
    measured = [(label, measure_search(name, settings, seconds, seed=seed, iterations=iterations))
                for label, settings in setups(get(name))]
    return ({f"ismcts_iterations_per_second_{label}": round(m.iterations_per_second, 1) for label, m in measured},
            [m for _, m in measured])
