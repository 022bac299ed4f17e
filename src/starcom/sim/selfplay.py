"""Self-play: many seeded games between agents, with the engine's invariants checked after
every action. The figures double as a soak test of the engine.

Everything is deterministic from the seed: game ``i`` uses config seed ``seed + i`` and each
seat's agent gets its own ``random.Random`` seeded from ``(seed, i, seat)``.

Each game is also classified by how it ended (:attr:`GameOutcome.ending`): by conquest (WIN-1,
one player left), by the score at the turn limit (WIN-2), as a draw, or at an action cap. The
totals say whether the agents actually finish games or merely outlast the clock.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..sc.engine.game import Game
from ..sc.engine.state import Config
from ..sc.entry import STARCOM
from ..games import GameEntry, get as get_game
from .backends import make_backend
from .play import Limits, Step, error_text, play
from .record import save, save_game

Action = tuple
StateCheck = Callable[[Game], list]
StepCheck = Callable[[Game, Action, Game], list]

MAX_STEPS = 100_000  # a game still running after this many actions is left unfinished
KEEP_PROBLEMS = 20  # messages kept for the report


def load_checks(entry: GameEntry[Any, Any] = STARCOM) -> tuple[StateCheck, StepCheck] | None:
    """The invariant checks run after every action of ``entry``'s games: ``(check_state,
    check_step)``, or None if the game has none."""
    return entry.tools.invariants() if entry.tools.invariants is not None else None


def seat_agents(agents: Sequence[str], players: int, game_index: int) -> list[str]:
    """Agent names by seat for game ``game_index``: one name fills every seat; a list of
    ``players`` names rotates by one seat per game so each agent plays each seat."""
    names = list(agents)
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"give one agent for all seats or exactly {players} agents, not {len(names)}")
    return [names[(s + game_index) % players] for s in range(players)]


@dataclass
class GameOutcome:
    """One self-play game."""

    index: int
    config: Config
    agents: list[str]
    actions: list[Action] = field(default_factory=list)
    over: bool = False
    winner: int | None = None
    turns: int = 0
    error: str | None = None
    violations: list[str] = field(default_factory=list)

    alive: int = 0  # players not eliminated when the game stopped
    action_capped: bool = False  # stopped by an action cap (the engine's or ``max_steps``)
    reason: str | None = None  # a game other than Star Commander: its own word for the ending

    @property
    def steps(self) -> int:
        return len(self.actions)

    @property
    def ending(self) -> str:
        """How the game stopped: ``"conquest"`` (one player or none left, WIN-1),
        ``"turn_limit"`` (a winner by the score at the turn limit, WIN-2), ``"draw"`` (no
        winner, at the turn limit or because nobody was left), ``"action_cap"`` (an action cap stopped it) or ``"error"``."""
        if self.error is not None:
            return "error"
        if self.action_capped:
            return "action_cap"
        if self.reason is not None:
            return self.reason
        if self.winner is None or self.winner < 0:
            return "draw"
        return "conquest" if self.alive == 1 else "turn_limit"


ENDINGS = ("conquest", "turn_limit", "draw", "action_cap")  # the summary counts each


def play_game(index: int, cfg: Config, agents: list[str], seed: int,
              checks: tuple[StateCheck, StepCheck] | None, max_steps: int = MAX_STEPS,
              think: float | None = None, iterations: int | None = None,
              entry: GameEntry[Any, Any] = STARCOM) -> GameOutcome:
    """Play one game; exceptions (from an agent or the engine) end it and are recorded as its
    error, invariant violations are collected as ``"step N: message"``. ``think`` and
    ``iterations`` budget the search agents (see :func:`~starcom.agents.make_agent`).
    ``entry`` is the game played (Star Commander by default): another game is made from the
    settings of ``cfg`` it takes."""
    out = GameOutcome(index, cfg, list(agents))
    players = [entry.ai.make_agent(a, think=think, iterations=iterations) for a in agents]
    rngs = [random.Random(f"{seed}:{index}:{s}") for s in range(cfg.players)]
    try:
        game = new_game(entry, cfg)
        if checks:
            out.violations += [f"setup: {m}" for m in checks[0](game)]
    except Exception as exc:  # the point of self-play is to catch these
        out.error = error_text(exc, 1)
        return out

    def check(step: Step) -> None:
        assert checks is not None and step.before is not None
        found = list(checks[0](game)) + list(checks[1](step.before, tuple(step.action), game))
        out.violations += [f"step {step.number}: {m}" for m in found]

    played = play(game, players, rngs, on_step=check if checks else None, limits=Limits(max_steps=max_steps),
                  keep_before=bool(checks), catch=True)
    out.actions = [tuple(a) for a in played.actions]
    out.error = played.error
    if out.error is not None:
        return out
    out.over, out.winner = game.over, entry.rules.winner(game)
    out.turns = entry.rules.turn(game) + 1 if entry.rules.turn is not None else out.steps
    if entry.name == STARCOM.name:
        out.alive = sum(game.alive)
        limit = game.cfg.action_limit
        out.action_capped = (not game.over or out.alive > 1 and limit is not None
                             and game.actions_played >= limit)
    else:
        out.alive = 1 if out.winner is not None and out.winner >= 0 else 0
        out.action_capped = not game.over
        out.reason = entry.rules.end_reason(game) if game.over else None
    return out


def new_game(entry: GameEntry[Any, Any], cfg: Config) -> Any:
    """A game of ``entry`` made from the settings of ``cfg`` it takes (ValueError names a bad
    one)."""
    return entry.rules.new(**{k: getattr(cfg, k) for k in entry.rules.settings if hasattr(cfg, k)})


@dataclass
class SelfplayStats:
    """Totals of a self-play run. :meth:`summary` is the machine-readable part."""

    games: int = 0
    finished: int = 0
    errors: int = 0
    invariant_violations: int = 0
    steps: int = 0
    steps_per_second: float = 0.0
    wins: dict[str, int] = field(default_factory=dict)
    mean_turns: float = 0.0
    endings: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ENDINGS, 0))
    problems: list[str] = field(default_factory=list)
    _turns: list[int] = field(default_factory=list, repr=False)

    def add(self, g: GameOutcome) -> None:
        self.games += 1
        self.steps += g.steps
        self.invariant_violations += len(g.violations)
        if g.error is not None:
            self.errors += 1
            self._note(f"game {g.index} (seed {g.config.seed}): {g.error}")
        for v in g.violations[:3]:
            self._note(f"game {g.index} (seed {g.config.seed}): invariant: {v}")
        if g.ending != "error":
            self.endings[g.ending] = self.endings.get(g.ending, 0) + 1
        if g.error is None and g.over:
            self.finished += 1
            self._turns.append(g.turns)
            if g.winner is not None and g.winner >= 0:
                name = g.agents[g.winner]
                self.wins[name] = self.wins.get(name, 0) + 1
        self.mean_turns = sum(self._turns) / len(self._turns) if self._turns else 0.0

    def _note(self, msg: str) -> None:
        if len(self.problems) < KEEP_PROBLEMS:
            self.problems.append(msg)

    @property
    def median_turns(self) -> float:
        """The median length (in turns) of the finished games; 0 without any."""
        return percentile(self._turns, 50)

    @property
    def p90_turns(self) -> float:
        """The 90th percentile of the finished games' lengths; 0 without any."""
        return percentile(self._turns, 90)

    def summary(self) -> dict[str, Any]:
        """Exactly: games, finished, errors, invariant_violations, steps, steps_per_second,
        wins (per agent name), draws, mean_turns, median_turns, p90_turns, and how the games
        ended: conquests (WIN-1), turn_limit_wins (WIN-2 at the turn limit), action_caps and
        conquest_share (conquests per game played). Every game counts once among conquests,
        turn_limit_wins, draws, action_caps and errors. For a game other than Star Commander
        the ending counts are one ``endings`` map, by the game's own reasons."""
        base = {"games": self.games, "finished": self.finished, "errors": self.errors,
                "invariant_violations": self.invariant_violations, "steps": self.steps,
                "steps_per_second": round(self.steps_per_second, 1), "wins": dict(self.wins),
                "draws": self.endings.get("draw", 0), "mean_turns": round(self.mean_turns, 2),
                "median_turns": self.median_turns, "p90_turns": self.p90_turns}
        if not set(ENDINGS) <= set(self.endings):  # another game: its own endings, by name
            return {**base, "endings": dict(self.endings)}
        return {**base, "conquests": self.endings["conquest"], "turn_limit_wins": self.endings["turn_limit"],
                "action_caps": self.endings["action_cap"],
                "conquest_share": round(self.endings["conquest"] / self.games, 3) if self.games else 0.0}


def percentile(values: Sequence[int], pct: float) -> float:
    """The ``pct``-th percentile of ``values`` (linear between the closest ranks); 0 if empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = (len(ordered) - 1) * pct / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return round(ordered[low] + (ordered[high] - ordered[low]) * (rank - low), 2)


@dataclass(frozen=True)
class SelfplaySetup:
    """What every game of a run shares (see :func:`run_selfplay`); game ``i`` is
    :func:`selfplay_game` ``(setup, i)``."""

    players: int
    size: int
    edition: str
    seed: int
    agents: tuple[str, ...]
    turn_limit: int | None
    check_invariants: bool
    max_steps: int
    think: float | None
    iterations: int | None
    game: str

    def config(self, index: int) -> Config:
        """The settings of game ``index``: its seed is ``seed + index``."""
        return Config(self.players, self.size, self.edition, self.seed + index, self.turn_limit)


def selfplay_game(setup: SelfplaySetup, index: int) -> GameOutcome:
    """Play game ``index`` of a run: the same game in any process or on any machine."""
    checks = load_checks(get_game(setup.game)) if setup.check_invariants else None
    return play_game(index, setup.config(index), seat_agents(setup.agents, setup.players, index), setup.seed,
                     checks, setup.max_steps, setup.think, setup.iterations, get_game(setup.game))


def run_selfplay(games: int, players: int = 2, size: int = 3, edition: str = "standard", seed: int = 0,
                 agents: Sequence[str] = ("random",), turn_limit: int | None = None,
                 save_dir: str | Path | None = None, check_invariants: bool = True,
                 max_steps: int = MAX_STEPS,
                 on_game: Callable[[GameOutcome], None] | None = None,
                 think: float | None = None, iterations: int | None = None,
                 game: str = "starcom", workers: int = 1, backend: str = "local",
                 address: str | None = None) -> SelfplayStats:
    """Play ``games`` games and total them up. ValueError for bad settings (before any game).

    ``think`` (seconds) and ``iterations`` budget the search agents per decision; a level's own
    budget (``hard``: 1 s) applies where neither is given.
    ``save_dir``: each game is saved there as ``game-NNNN.json`` (see ``record``; any game).
    ``on_game`` is called after each game, in the order they finish (for progress display).
    ``game`` names the game played (:func:`starcom.list_games`); the invariant checks are Star
    Commander's only. ``workers`` games are played at once by the ``backend`` (``local`` or
    ``ray``, on the cluster at ``address``; see :func:`starcom.sim.backends.make_backend`,
    whose BackendError is a ValueError); the totals do not depend on them, apart from
    ``steps_per_second``."""
    if games < 0:
        raise ValueError(f"the number of games cannot be negative ({games})")
    entry = get_game(game)
    for a in agents:
        entry.ai.make_agent(a, think=think, iterations=iterations)
    seat_agents(agents, players, 0)
    new_game(entry, Config(players, size, edition, seed, turn_limit))
    if entry.name != STARCOM.name:
        check_invariants = check_invariants and entry.tools.invariants is not None
    setup = SelfplaySetup(players, size, edition, seed, tuple(agents), turn_limit, check_invariants, max_steps,
                          think, iterations, game)
    stats = SelfplayStats()
    if entry.name != STARCOM.name:
        stats.endings = {}  # the game's own end reasons, counted as they come
    stats.wins = {name: 0 for name in dict.fromkeys(agents)}
    finished: dict[int, GameOutcome] = {}
    with make_backend(backend, workers, address) as pool:
        start = time.perf_counter()
        for outcome in pool.run(selfplay_game, setup, range(games)):
            if save_dir is not None:
                save_outcome(Path(save_dir) / f"game-{outcome.index:04d}.json", entry, outcome)
            if on_game is not None:
                on_game(outcome)
            finished[outcome.index] = outcome
            while stats.games in finished:  # totalled in game order, whatever order they finish in
                stats.add(finished.pop(stats.games))
        elapsed = time.perf_counter() - start
    stats.steps_per_second = stats.steps / elapsed if elapsed > 0 else 0.0
    return stats


def save_outcome(path: Path, entry: GameEntry[Any, Any], outcome: GameOutcome) -> Path:
    """Save a self-play game of ``entry`` at ``path`` (:mod:`starcom.sim.record`): Star
    Commander's as it always was, another game's with its name and the settings of its run it
    takes (those :func:`new_game` made it from)."""
    result = {**result_of_outcome(outcome), "steps": outcome.steps}
    if entry.name == STARCOM.name:
        return save(path, outcome.config, outcome.actions, outcome.agents, result)
    settings = {k: getattr(outcome.config, k) for k in entry.rules.settings if hasattr(outcome.config, k)}
    return save_game(path, entry, settings, outcome.actions, outcome.agents, result)


def result_of_outcome(g: GameOutcome) -> dict[str, Any]:
    """The record's result block for a self-play game."""
    out: dict[str, Any] = {"over": g.over, "winner": g.winner, "turns": g.turns}
    if g.error is not None:
        out["error"] = g.error
    if g.violations:
        out["invariant_violations"] = g.violations[:KEEP_PROBLEMS]
    return out


__all__ = ["GameOutcome", "SelfplaySetup", "SelfplayStats", "load_checks", "play_game", "result_of_outcome",
           "run_selfplay", "save_outcome", "seat_agents", "selfplay_game"]
