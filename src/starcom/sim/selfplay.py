"""Self-play: many seeded games between agents of any registered game, with the game's
invariants checked after every action. The figures double as a soak test of the engine.

Everything is deterministic from the seed: game ``i`` is made with seed ``seed + i`` and each
seat's agent gets its own ``random.Random`` seeded from ``(seed, i, seat)``.

Each game is also classified by how it ended (:attr:`GameOutcome.ending`), in the game's own
words (its entry's ``tools.ending``; Star Commander's: by conquest, by the score at the turn
limit, as a draw or at an action cap), and a game stopped unfinished as ``"action_cap"``.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..games import GameEntry, StateCheck, StepCheck, default_game, get as get_game
from .backends import make_backend
from .play import Limits, Step, error_text, play
from .record import save_game

MAX_STEPS = 100_000  # a game still running after this many actions is left unfinished
KEEP_PROBLEMS = 20  # messages kept for the report
ACTION_CAP = "action_cap"  # the ending of a game stopped before its end


def load_checks(entry: GameEntry[Any, Any]) -> tuple[StateCheck, StepCheck] | None:
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


def run_settings(entry: GameEntry[Any, Any], players: int | None = None, size: int | None = None,
                 edition: str | None = None, seed: int = 0, turn_limit: int | None = None) -> dict[str, Any]:
    """The settings of a game of ``entry`` made from the common ones a run names (those the
    game takes, in the order its entry lists them). A player count, board size or edition left
    out is the game's first (what a form offers first); ``turn_limit`` None is no limit."""
    rules = entry.rules
    own = rules.defaults()
    every: dict[str, Any] = {
        "players": players if players is not None else own.get("players"),
        "size": size if size is not None else own.get("size"),
        "edition": edition if edition is not None else own.get("edition"),
        "seed": seed, "turn_limit": turn_limit}
    return {k: every[k] for k in rules.settings if k in every and (every[k] is not None or k == "turn_limit")}


def new_game(entry: GameEntry[Any, Any], settings: Mapping[str, Any]) -> Any:
    """A game of ``entry`` made with ``settings`` (ValueError names a bad one)."""
    return entry.rules.new(**settings)


@dataclass
class GameOutcome:
    """One self-play game: ``config`` holds the settings it was made with."""

    index: int
    config: dict[str, Any]
    agents: list[str]
    actions: list[Any] = field(default_factory=list)
    over: bool = False
    winner: int | None = None
    turns: int = 0
    error: str | None = None
    violations: list[str] = field(default_factory=list)
    end: str | None = None  # how the game ended, in the game's words (see :attr:`ending`)

    @property
    def steps(self) -> int:
        return len(self.actions)

    @property
    def ending(self) -> str:
        """How the game stopped: ``"error"``, ``"action_cap"`` for a game stopped before its end,
        else the game's word for its ending (its entry's ``tools.ending``)."""
        if self.error is not None:
            return "error"
        return self.end if self.end is not None else ACTION_CAP


def ending_of(entry: GameEntry[Any, Any], game: Any) -> str:
    """How ``game`` (of ``entry``) stopped, in the word self-play counts it under: the entry's
    ``tools.ending`` of a finished game, else its end reason, else ``"draw"`` or ``"win"``;
    ``"action_cap"`` for a game that has not ended."""
    if not game.over:
        return ACTION_CAP
    if entry.tools.ending is not None:
        return entry.tools.ending(game)
    reason = entry.rules.end_reason(game)
    if reason is not None:
        return reason
    winner = entry.rules.winner(game)
    return "draw" if winner is None or winner < 0 else "win"


def play_game(index: int, entry: GameEntry[Any, Any], settings: Mapping[str, Any], agents: list[str], seed: int,
              checks: tuple[StateCheck, StepCheck] | None, max_steps: int = MAX_STEPS,
              think: float | None = None, iterations: int | None = None) -> GameOutcome:
    """Play one game of ``entry`` made with ``settings`` (those it takes); exceptions (from an
    agent or the engine) end it and are recorded as its error, invariant violations are
    collected as ``"step N: message"``. ``think`` and ``iterations`` budget the search agents
    (see the entry's ``ai.make_agent``)."""
    out = GameOutcome(index, dict(settings), list(agents))
    players = [entry.ai.make_agent(a, think=think, iterations=iterations) for a in agents]
    rngs = [random.Random(f"{seed}:{index}:{s}") for s in range(len(agents))]
    try:
        game = entry.rules.new(**out.config)
        if checks:
            out.violations += [f"setup: {m}" for m in checks[0](game)]
    except Exception as exc:  # the point of self-play is to catch these
        out.error = error_text(exc, 1)
        return out

    def check(step: Step) -> None:
        assert checks is not None and step.before is not None
        found = list(checks[0](game)) + list(checks[1](step.before, step.action, game))
        out.violations += [f"step {step.number}: {m}" for m in found]

    played = play(game, players, rngs, on_step=check if checks else None, limits=Limits(max_steps=max_steps),
                  keep_before=bool(checks), catch=True)
    out.actions = list(played.actions)
    out.error = played.error
    if out.error is not None:
        return out
    out.over, out.winner = game.over, entry.rules.winner(game)
    out.turns = entry.rules.turn(game) + 1 if entry.rules.turn is not None else out.steps
    out.end = ending_of(entry, game)
    return out


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
    endings: dict[str, int] = field(default_factory=dict)  # games by ending, those with an error left out
    problems: list[str] = field(default_factory=list)
    # The summary's figures of the endings (the entry's ``tools.ending_figures``); None: the counts.
    figures: Callable[[Mapping[str, int], int], dict[str, Any]] | None = field(default=None, repr=False)
    _turns: list[int] = field(default_factory=list, repr=False)

    def add(self, g: GameOutcome) -> None:
        self.games += 1
        self.steps += g.steps
        self.invariant_violations += len(g.violations)
        if g.error is not None:
            self.errors += 1
            self._note(f"game {g.index} (seed {g.config.get('seed')}): {g.error}")
        for v in g.violations[:3]:
            self._note(f"game {g.index} (seed {g.config.get('seed')}): invariant: {v}")
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
        ended: the game's figures (its entry's ``tools.ending_figures``; Star Commander's:
        conquests, turn_limit_wins, action_caps and conquest_share), else ``endings``, the count
        of each ending by the game's own words."""
        base: dict[str, Any] = {
            "games": self.games, "finished": self.finished, "errors": self.errors,
            "invariant_violations": self.invariant_violations, "steps": self.steps,
            "steps_per_second": round(self.steps_per_second, 1), "wins": dict(self.wins),
            "draws": self.endings.get("draw", 0), "mean_turns": round(self.mean_turns, 2),
            "median_turns": self.median_turns, "p90_turns": self.p90_turns}
        if self.figures is None:
            return {**base, "endings": dict(self.endings)}
        return {**base, **self.figures(self.endings, self.games)}


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
    :func:`selfplay_game` ``(setup, i)``. ``settings`` are those of game 0."""

    game: str
    settings: tuple[tuple[str, Any], ...]
    players: int
    seed: int
    agents: tuple[str, ...]
    check_invariants: bool
    max_steps: int
    think: float | None
    iterations: int | None

    def config(self, index: int) -> dict[str, Any]:
        """The settings of game ``index``: its seed is ``seed + index``."""
        settings = dict(self.settings)
        if "seed" in settings:
            settings["seed"] = self.seed + index
        return settings


def selfplay_game(setup: SelfplaySetup, index: int) -> GameOutcome:
    """Play game ``index`` of a run: the same game in any process or on any machine."""
    entry = get_game(setup.game)
    checks = load_checks(entry) if setup.check_invariants else None
    return play_game(index, entry, setup.config(index), seat_agents(setup.agents, setup.players, index), setup.seed,
                     checks, setup.max_steps, setup.think, setup.iterations)


def run_selfplay(games: int, players: int | None = None, size: int | None = None, edition: str | None = None,
                 seed: int = 0, agents: Sequence[str] = ("random",), turn_limit: int | None = None,
                 save_dir: str | Path | None = None, check_invariants: bool = True,
                 max_steps: int = MAX_STEPS,
                 on_game: Callable[[GameOutcome], None] | None = None,
                 think: float | None = None, iterations: int | None = None,
                 game: str | None = None, workers: int = 1, backend: str = "local",
                 address: str | None = None) -> SelfplayStats:
    """Play ``games`` games and total them up. ValueError for bad settings (before any game).

    ``game`` names the game played (:func:`starcom.list_games`; None: :func:`starcom.games.default_game`),
    made with those of ``players``, ``size``, ``edition``, the seed and ``turn_limit`` it takes
    (see :func:`run_settings`: a player count, size or edition left out is the game's first).
    ``think`` (seconds) and ``iterations`` budget the search agents per decision; a level's own
    budget (``hard``: 1 s) applies where neither is given. ``check_invariants``: the game's
    checks (its entry's ``tools.invariants``; none for a game without) after every action.
    ``save_dir``: each game is saved there as ``game-NNNN.json`` (:mod:`starcom.sim.record`).
    ``on_game`` is called after each game, in the order they finish (for progress display).
    ``workers`` games are played at once by the ``backend`` (``local`` or ``ray``, on the
    cluster at ``address``; see :func:`starcom.sim.backends.make_backend`, whose BackendError is
    a ValueError); the totals do not depend on them, apart from ``steps_per_second``."""
    if games < 0:
        raise ValueError(f"the number of games cannot be negative ({games})")
    entry = get_game(game if game is not None else default_game())
    settings = run_settings(entry, players, size, edition, seed, turn_limit)
    for a in agents:
        entry.ai.make_agent(a, think=think, iterations=iterations)
    seats = int(new_game(entry, settings).players)
    seat_agents(agents, seats, 0)
    setup = SelfplaySetup(entry.name, tuple(settings.items()), seats, seed, tuple(agents),
                          check_invariants and entry.tools.invariants is not None, max_steps, think, iterations)
    stats = SelfplayStats(figures=entry.tools.ending_figures)
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
    """Save a self-play game of ``entry`` at ``path`` (:mod:`starcom.sim.record`), with the
    settings it was made with."""
    result = {**result_of_outcome(outcome), "steps": outcome.steps}
    return save_game(path, entry, outcome.config, outcome.actions, outcome.agents, result)


def result_of_outcome(g: GameOutcome) -> dict[str, Any]:
    """The record's result block for a self-play game."""
    out: dict[str, Any] = {"over": g.over, "winner": g.winner, "turns": g.turns}
    if g.error is not None:
        out["error"] = g.error
    if g.violations:
        out["invariant_violations"] = g.violations[:KEEP_PROBLEMS]
    return out


__all__ = ["ACTION_CAP", "GameOutcome", "SelfplaySetup", "SelfplayStats", "ending_of", "load_checks", "new_game",
           "play_game", "result_of_outcome", "run_selfplay", "run_settings", "save_outcome", "seat_agents",
           "selfplay_game"]
