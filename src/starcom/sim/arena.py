"""The arena: a seeded round robin between agents, with pairwise results, Elo ratings and a
sign test per pair. No printing here; ``starcom arena`` (cli/arena.py) shows the results.

Schedule (see docs/arena.md): the agents are split into *groups* of ``players`` seats — every
``players``-subset of the agents, or, with fewer agents than seats, the agent list cycled to fill
the seats. Each group plays ``games`` games. Game ``g`` of a group uses deal ``g // players``
(the board and decks, shared by every group) and rotates the seats by ``g``, so each deal is
played once from every seat when ``games`` is a multiple of ``players``.

Everything is deterministic from the arena seed: the config seed of a deal and the random
generator of every agent seat are derived from it, never from the clock or the worker process.
"""
from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..games import GameEntry, default_game, get as get_game
from .backends import make_backend
from .crossbuild import BuildAgent, check_name, source_of, split_name
from .play import Limits, error_text, play
from .ratings import EloFit, binomial_test, fit_elo
from .selfplay import new_game, run_settings

DEFAULT_TURN_LIMIT = 60
MAX_STEPS = 100_000  # a game still running after this many actions is recorded as unfinished
# No sensible turn takes this many decisions; more means the agents are stuck in a loop (say,
# building and scrapping the same ship forever), which is reported rather than played out.
MAX_STEPS_PER_TURN = 1_000


@dataclass(frozen=True)
class ArenaSpec:
    """What to play: ``game`` (:func:`starcom.list_games`) made with those of ``players``,
    ``size``, ``edition`` and ``turn_limit`` it takes (a size or edition left out is the game's
    first; ``turn_limit`` None means no limit); ``think``/``iterations`` budget the search agents
    (the others ignore them)."""

    agents: tuple[str, ...]
    games: int
    players: int = 2
    size: int | None = None
    edition: str | None = None
    seed: int = 0
    think: float | None = None
    iterations: int | None = None
    turn_limit: int | None = DEFAULT_TURN_LIMIT
    game: str = field(default_factory=default_game)
    # A checkout whose code the agents named NAME@BUILD run (see sim/crossbuild.py); None: this one.
    baseline: str | None = None

    def settings(self, config_seed: int) -> dict[str, Any]:
        """The settings of a game of the arena dealt with ``config_seed``."""
        return run_settings(get_game(self.game), self.players, self.size, self.edition, config_seed, self.turn_limit)

    def check(self) -> None:
        """ValueError naming the first setting the arena cannot run with."""
        if len(self.agents) < 2:
            raise ValueError(f"give at least two agents, not {len(self.agents)}")
        entry = get_game(self.game)
        for a in self.agents:
            check_name(entry, a)
        if self.baseline is not None:
            source_of(self.baseline)
            if not any(split_name(a)[1] for a in self.agents):
                raise ValueError("a baseline checkout is only used by agents named NAME@pure or NAME@compiled")
        dups = sorted({a for a in self.agents if self.agents.count(a) > 1})
        if dups:
            raise ValueError(f"agent listed more than once: {', '.join(dups)}")
        if self.games < 1:
            raise ValueError(f"play at least one game per group, not {self.games}")
        if self.think is not None and self.think <= 0:
            raise ValueError(f"think time must be above 0 seconds, not {self.think}")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        new_game(entry, self.settings(self.seed))


@dataclass(frozen=True)
class Match:
    """One scheduled game: ``seats[s]`` is the agent in seat ``s``."""

    index: int
    group: int
    deal: int
    seats: tuple[str, ...]
    config_seed: int


@dataclass(frozen=True)
class GameRecord:
    """The result of one game. ``winner`` is a seat, -1 for a draw, None if the game did not
    finish (see ``error``). ``seconds`` is informational only."""

    index: int
    group: int
    seats: tuple[str, ...]
    config_seed: int
    winner: int | None
    turns: int
    steps: int
    error: str | None = None
    seconds: float = field(default=0.0, compare=False)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def row(self) -> dict[str, Any]:
        """The record as JSON-ready values: index, seats, config_seed, winner, turns, and
        ``error`` when there is one."""
        row: dict[str, Any] = {"index": self.index, "seats": list(self.seats),
                               "config_seed": self.config_seed, "winner": self.winner, "turns": self.turns}
        if self.error is not None:
            row["error"] = self.error
        return row

    @property
    def winner_agent(self) -> str | None:
        """The winning agent's name; None for a draw or an unfinished game."""
        return self.seats[self.winner] if self.winner is not None and self.winner >= 0 else None


def groups(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The line-ups of the round robin: every ``players``-subset of ``agents`` (in list order),
    or, with fewer agents than seats, the single line-up of the list cycled to fill the seats."""
    agents = list(agents)
    if len(agents) >= players:
        return list(itertools.combinations(agents, players))
    return [tuple(agents[s % len(agents)] for s in range(players))]


def seating(lineup: Sequence[str], n_agents: int, game: int) -> tuple[str, ...]:
    """Seats for game ``game`` of a group: the line-up rotated by ``game`` seats.

    When the line-up was filled by cycling (``n_agents < len(lineup)``), which agents get the
    extra seats also moves on by one agent every ``len(lineup)`` games, so that over
    ``n_agents * players`` games every agent sits in every seat equally often."""
    p = len(lineup)
    base = list(lineup)
    if n_agents < p:
        order = list(dict.fromkeys(lineup))  # the agents in list order
        shift = (game // p) % n_agents
        base = [order[(s + shift) % n_agents] for s in range(p)]
    r = game % p
    return tuple(base[(s + r) % p] for s in range(p))


def deal_seed(seed: int, deal: int) -> int:
    """Config seed of deal number ``deal`` of an arena seeded ``seed``."""
    return random.Random(f"arena-deal:{seed}:{deal}").getrandbits(48)


def agent_rng(seed: int, index: int, seat: int) -> random.Random:
    """The random generator of the agent in seat ``seat`` of game ``index``."""
    return random.Random(f"arena-agent:{seed}:{index}:{seat}")


def schedule(spec: ArenaSpec) -> list[Match]:
    """Every game of the arena in order; ``Match.index`` is the position in this list."""
    out: list[Match] = []
    for gi, lineup in enumerate(groups(spec.agents, spec.players)):
        for g in range(spec.games):
            deal = g // spec.players
            out.append(Match(len(out), gi, deal, seating(lineup, len(spec.agents), g),
                             deal_seed(spec.seed, deal)))
    return out


def play_match(spec: ArenaSpec, match: Match, max_steps: int = MAX_STEPS,
               max_steps_per_turn: int = MAX_STEPS_PER_TURN) -> GameRecord:
    """Play one scheduled game. An exception from an agent or the engine ends the game and is
    recorded as its ``error`` (the game then counts for nobody), and so does a game that runs
    past ``max_steps`` actions, or ``max_steps_per_turn`` actions within one turn."""
    start = time.perf_counter()
    entry = get_game(spec.game)
    steps, game, error = 0, None, None
    history: list[Any] = []  # the actions in JSON form, for agents thinking in another build
    bots: list[Any] = []
    try:
        settings = spec.settings(match.config_seed)
        for a in match.seats:
            base, build = split_name(a)
            bots.append(entry.ai.make_agent(a, think=spec.think, iterations=spec.iterations) if build is None
                        else BuildAgent(spec.game, settings, base, build, history, spec.think, spec.iterations,
                                    spec.baseline))
        rngs = [agent_rng(spec.seed, match.index, s) for s in range(spec.players)]
        game = new_game(entry, settings)
    except Exception as exc:  # recorded and reported, so one bad game does not sink the arena
        error = error_text(exc, 1)
    else:
        remote = any(isinstance(b, BuildAgent) for b in bots)
        played = play(game, bots, rngs, limits=Limits(max_steps, max_steps_per_turn, entry.rules.turn), catch=True,
                      on_step=(lambda step: history.append(entry.rules.encode(step.action))) if remote else None)
        steps, error = played.steps, played.error
        if played.stuck_at is not None:
            turn, count = played.stuck_at
            error = f"stuck: {count} actions in turn {turn + 1} without the turn ending"
        if error is None and not game.over:
            error = f"unfinished after {steps} actions"
    finally:
        for b in bots:
            if isinstance(b, BuildAgent):
                b.close()
    if game is not None and error is None:
        return GameRecord(match.index, match.group, match.seats, match.config_seed, entry.rules.winner(game),
                          _turns(entry, game, steps), steps, None, time.perf_counter() - start)
    turns = _turns(entry, game, steps) if game is not None else 0
    return GameRecord(match.index, match.group, match.seats, match.config_seed, None, turns, steps,
                      error, time.perf_counter() - start)


def _turns(entry: GameEntry[Any, Any], game: Any, steps: int) -> int:
    """How many turns ``game`` lasted (its actions, for a game without turns)."""
    return entry.rules.turn(game) + 1 if entry.rules.turn is not None else steps


@dataclass(frozen=True)
class PairResult:
    """Head-to-head totals of ``a`` (earlier in the agent list) against ``b``."""

    a: str
    b: str
    a_wins: int
    b_wins: int
    draws: int

    @property
    def games(self) -> int:
        return self.a_wins + self.b_wins + self.draws

    @property
    def p_value(self) -> float:
        """Two-sided exact sign test on the decisive games (draws left out)."""
        return binomial_test(self.a_wins, self.a_wins + self.b_wins)


@dataclass(frozen=True)
class AgentResult:
    """One agent's games: a win when one of its seats won, a draw when the game was drawn, a
    loss otherwise. ``win_rate`` is wins / games; ``score`` counts draws as half a win."""

    name: str
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass
class ArenaResult:
    """All games of an arena run, and the statistics drawn from them."""

    spec: ArenaSpec
    records: list[GameRecord]
    workers: int = 1

    @property
    def errors(self) -> list[GameRecord]:
        return [r for r in self.records if r.error is not None]

    def pairs(self) -> list[PairResult]:
        """Every pair of agents in list order. Within a finished game that seats both: a win for
        the one whose seat won, a draw for both if the game was drawn; a game won by a third
        agent says nothing about the two and is not counted for them."""
        agents = self.spec.agents
        tally = {(a, b): [0, 0, 0] for a, b in itertools.combinations(agents, 2)}
        for rec in self.records:
            if not rec.finished:
                continue
            present = set(rec.seats)
            won = rec.winner_agent
            for (a, b), t in tally.items():
                if a not in present or b not in present:
                    continue
                if won == a:
                    t[0] += 1
                elif won == b:
                    t[1] += 1
                elif won is None:
                    t[2] += 1
        return [PairResult(a, b, *t) for (a, b), t in tally.items()]

    def agent_results(self) -> list[AgentResult]:
        """Per agent, in list order, over its finished games."""
        out = []
        for name in self.spec.agents:
            mine = [r for r in self.records if r.finished and name in r.seats]
            wins = sum(1 for r in mine if r.winner_agent == name)
            draws = sum(1 for r in mine if r.winner == -1)
            out.append(AgentResult(name, len(mine), wins, draws, len(mine) - wins - draws))
        return out

    def elo(self) -> EloFit:
        """Ratings fitted to :meth:`pairs` (see :func:`starcom.sim.ratings.fit_elo`)."""
        scores: dict[tuple[str, str], float] = {}
        for p in self.pairs():
            scores[(p.a, p.b)] = p.a_wins + p.draws / 2
            scores[(p.b, p.a)] = p.b_wins + p.draws / 2
        return fit_elo(self.spec.agents, scores)

    def mean_turns(self) -> float:
        done = [r.turns for r in self.records if r.finished]
        return sum(done) / len(done) if done else 0.0

    def summary(self, plot: str | None = None) -> dict[str, Any]:
        """The machine-readable result (what ``starcom arena --json`` prints): ``config``,
        ``games``, ``finished``, ``errors``, ``mean_turns``, ``agents`` (name -> games, wins,
        draws, losses, win_rate, score), ``pairs`` (a, b, a_wins, b_wins, draws, p_value),
        ``elo`` (name -> rating), ``elo_interval`` (name -> [low, high]), ``elo_stderr``,
        ``results`` (per game: index, seats, config_seed, winner, turns; ``error`` if any)
        and ``plot`` (path or None)."""
        fit = self.elo()
        spec = asdict(self.spec)
        spec["agents"] = list(self.spec.agents)
        spec["workers"] = self.workers
        results = [r.row() for r in self.records]
        return {
            "config": spec,
            "games": len(self.records),
            "finished": sum(1 for r in self.records if r.finished),
            "errors": len(self.errors),
            "mean_turns": round(self.mean_turns(), 2),
            "agents": {a.name: {"games": a.games, "wins": a.wins, "draws": a.draws, "losses": a.losses,
                                "win_rate": round(a.win_rate, 4), "score": round(a.score, 4)}
                       for a in self.agent_results()},
            "pairs": [{"a": p.a, "b": p.b, "a_wins": p.a_wins, "b_wins": p.b_wins, "draws": p.draws,
                       "p_value": p.p_value} for p in self.pairs()],
            "elo": {n: round(fit.ratings[n], 1) for n in fit.names},
            "elo_interval": {n: [round(lo, 1), round(hi, 1)] for n, (lo, hi) in fit.intervals.items()},
            "elo_stderr": {n: round(fit.stderr[n], 1) for n in fit.names},
            "results": results,
            "plot": plot,
        }


def run_arena(spec: ArenaSpec, workers: int = 1, on_game: Callable[[GameRecord], None] | None = None,
              backend: str = "local", address: str | None = None) -> ArenaResult:
    """Play the whole :func:`schedule` and return the records in schedule order.

    ``workers`` games are played at once, by the ``backend`` (``local`` or ``ray``, on the
    cluster at ``address``; see :func:`starcom.sim.backends.make_backend`); the records do not
    depend on them. ``on_game`` is called once per finished game, in completion order (for a
    progress bar). ValueError for bad settings (BackendError for the backend's), before any game
    is played."""
    spec.check()
    matches = schedule(spec)
    records: list[GameRecord | None] = [None] * len(matches)
    with make_backend(backend, workers, address) as pool:
        for rec in pool.run(play_match, spec, matches):
            records[rec.index] = rec
            if on_game is not None:
                on_game(rec)
    return ArenaResult(spec, [r for r in records if r is not None], workers)


__all__ = ["DEFAULT_TURN_LIMIT", "MAX_STEPS", "MAX_STEPS_PER_TURN", "AgentResult", "ArenaResult",
           "ArenaSpec", "GameRecord", "Match", "PairResult", "agent_rng", "deal_seed", "groups",
           "play_match", "run_arena", "schedule", "seating"]
