"""One comparison of a card study: a pair of games on the same deal, seats and agent seeds.

In the *treated* game one seat gets the real card and every other seat its stand-in; in the
*control* game every seat gets the stand-in. What a stand-in is, and how a game is made with
it, is the game's own business: its registry entry's ``study`` (:mod:`.hook`; Star Commander's
in :mod:`.sc`). Both games start from the same shuffle (the game's seed), and every seat chooses
with the same random source in both, so they differ only where the card made a difference.
The games are played through the game's entry alone. This module runs in worker processes:
everything comes in as plain values.
"""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from ..games import default_game
from ..sim.play import Limits, play
from ..sim.selfplay import MAX_STEPS, seat_agents
from .hook import Settings
from .spec import study_of

SEARCH_ITERATIONS = 300  # per decision, for the search agents (ismcts, hard)
SEARCH_TIME_CAP = 3600.0


@dataclass(frozen=True)
class Job:
    """Pair number ``pair`` of card ``card``. The deal and the agents' random sources depend on
    the study's seed and the pair number only (the same for every card: common deals make
    the cards' values comparable); the treated seat and the agents' seats rotate with it."""

    card: str
    pair: int

    def treated_seat(self, players: int) -> int:
        return self.pair % players

    def rotation(self, players: int) -> int:
        return self.pair // players


@dataclass(frozen=True)
class GameFacts:
    """What the study keeps of one game: the winning seat (-1: a draw, None: unfinished),
    turns played, whether the turn limit ended it, the card names each seat played, built
    or developed, the rule IDs the game's actions and events carried out (Star Commander:
    :func:`starcom.sc.engine.events.rules_fired`; empty for a game that records none), and, in a
    treated game, whether the treated seat held the studied card in its hand at one of its
    decisions (``held``) and whether playing it was legal at one of them (``legal``); in both
    games, whether the treated seat could play, build or develop the card (the real one in the
    treated game, the stand-in in the control game) at one of its decisions (``could``) and
    whether it did (``played_it``): the play rate's facts (:mod:`.verdict`). A log written
    before these were noted reads them as False: such a pair counts in no play rate."""

    winner: int | None
    turns: int
    limit_reached: bool
    played: tuple[tuple[str, ...], ...]
    rules: tuple[str, ...] = ()
    held: bool = False
    legal: bool = False
    could: bool = False
    played_it: bool = False

    def score(self, seat: int) -> float:
        """``seat``'s result: 1 a win, 0.5 a draw or an unfinished game, 0 a loss."""
        if self.winner is None or self.winner < 0:
            return 0.5
        return 1.0 if self.winner == seat else 0.0


@dataclass(frozen=True)
class PairResult:
    """A finished pair: its job, the treated seat, and the two games."""

    card: str
    pair: int
    seat: int
    treated: GameFacts
    control: GameFacts

    @property
    def difference(self) -> float:
        """The treated seat's score with the card less its score without it, in [-1, 1]."""
        return self.treated.score(self.seat) - self.control.score(self.seat)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PairResult:
        def facts(d: dict[str, Any]) -> GameFacts:
            return GameFacts(d["winner"], int(d["turns"]), bool(d["limit_reached"]),
                             tuple(tuple(names) for names in d["played"]), tuple(d.get("rules", ())),
                             bool(d.get("held", False)), bool(d.get("legal", False)),
                             bool(d.get("could", False)), bool(d.get("played_it", False)))
        return cls(str(data["card"]), int(data["pair"]), int(data["seat"]), facts(data["treated"]),
                   facts(data["control"]))


@dataclass(frozen=True)
class Setup:
    """The settings a worker needs to play a pair (plain values, cheap to send). ``size`` is
    None for a game without a board; ``game`` is the registry name of the game studied."""

    catalogue_text: str
    catalogue_name: str
    cards: tuple[str, ...]
    agents: tuple[str, ...]
    players: int
    size: int | None
    edition: str | None  # None: the game has no editions
    turn_limit: int
    seed: int
    aa: bool = False  # the A/A check of ``study validate``: see play_pair
    game: str = field(default_factory=default_game)

    @property
    def settings(self) -> Settings:
        return Settings(self.players, self.size, self.edition, self.turn_limit, self.seed, self.catalogue_text,
                        self.catalogue_name)


def _games(setup: Setup, job: Job) -> tuple[tuple[frozenset[int], str], tuple[frozenset[int], str]]:
    """The seats that get the real card, and the salt, of the treated and of the control game
    of ``job``.

    In the A/A check (``setup.aa``) nothing is treated: both games are played with the real
    cards, each on a deal and random streams of its own (for each card and pair). Every true
    value is then zero, and the differences vary as much as two independent games do: the noise
    the intervals and the alarm rate are checked against. (Paired games with a card that changes
    nothing would be the same game twice, every difference zero, and check nothing.)"""
    if setup.aa:
        every = frozenset(range(setup.players))
        return (every, f":aa:{job.card}"), (every, f":aa:{job.card}:control")
    seat = job.treated_seat(setup.players)
    return (frozenset({seat}), ""), (frozenset(), "")


def _play(setup: Setup, real_for: frozenset[int], job: Job, salt: str = "",
          keep: list[dict[str, Any] | None] | None = None, watch: int | None = None) -> GameFacts:
    """One game of ``job`` in which the seats ``real_for`` get the real card (``salt``: another
    deal and other random streams, for the A/A check). With ``keep``, its saved-game record (or
    None, for a game that saves none) is appended there. ``watch``: the seat whose holding and
    playing of the card is noted (held, legal, could, played_it)."""
    entry, study = study_of(setup.game)
    players, settings = setup.players, setup.settings
    seat = job.treated_seat(players)
    seed = _deal_seed(setup.seed, job.pair, salt)
    game = study.new_game(settings, job.card, seat, real_for, seed)
    names = seat_agents(setup.agents, players, job.rotation(players))
    # Search agents get a number of iterations, never a time: results must not depend on the
    # machine (the time is set out of reach so the iterations decide).
    agents = [entry.ai.make_agent(n, think=SEARCH_TIME_CAP, iterations=SEARCH_ITERATIONS) for n in names]
    rngs = [random.Random(f"study:{setup.seed}:{job.pair}:{s}{salt}") for s in range(players)]
    tracker = study.tracker(game, settings, job.card, watch)
    run = play(game, agents, rngs, on_step=tracker.step, limits=Limits(max_steps=MAX_STEPS))
    noted = tracker.finish()
    if keep is not None:
        keep.append(study.record(game, settings, job.card, seat, real_for, seed, run.actions, names))
    turns = entry.rules.turn(game) + 1 if entry.rules.turn is not None else run.steps
    return GameFacts(entry.rules.winner(game), turns, noted.limit_reached, noted.played, noted.rules, noted.held,
                     noted.legal, noted.could, noted.played_it)


def _deal_seed(seed: int, pair: int, salt: str = "") -> int:
    return random.Random(f"study-deal:{seed}:{pair}{salt}").getrandbits(32)


def play_pair(setup: Setup, job: Job) -> PairResult:
    """Play the treated and the control game of ``job`` (see :func:`_games`); the treated seat
    is watched in both (the play rate compares what it did with the card and with the stand-in)."""
    (treated, t_salt), (control, c_salt) = _games(setup, job)
    seat = job.treated_seat(setup.players)
    return PairResult(job.card, job.pair, seat, _play(setup, treated, job, t_salt, watch=seat),
                      _play(setup, control, job, c_salt, watch=seat))


def pair_records(setup: Setup, job: Job) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The saved-game records of the treated and the control game of ``job``, played again: the
    replays a report links to (None where the game saves none)."""
    kept: list[dict[str, Any] | None] = []
    for real_for, salt in _games(setup, job):
        _play(setup, real_for, job, salt, kept)
    return kept[0], kept[1]
