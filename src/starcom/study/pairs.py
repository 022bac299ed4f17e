"""One comparison of a card study: a pair of games on the same deal, seats and agent seeds.

In the *treated* game one seat gets the real card whenever it draws, builds or comes to control
a copy, and every other seat its stand-in (:mod:`starcom.cards.stand_ins`); in the *control*
game every seat gets the stand-in. Both start from the same shuffle (the game's seed), and every
seat chooses with the same random source in both, so they differ only where the card made a
difference. This module runs in worker processes: everything comes in as plain values.
"""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any

from ..agents import make_agent
from ..cards.stand_ins import Variant
from ..engine.events import rules_fired
from ..engine.game import Game
from ..sim.play import Limits, play
from ..sim.record import result_of, to_record
from ..sim.selfplay import MAX_STEPS, seat_agents


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
    or developed, the rule IDs the game's actions and events carried out
    (:func:`starcom.engine.events.rules_fired`), and, in a treated game, whether the treated
    seat held the studied card in its hand at one of its decisions (``held``) and whether
    playing it was legal at one of them (``legal``)."""

    winner: int | None
    turns: int
    limit_reached: bool
    played: tuple[tuple[str, ...], ...]
    rules: tuple[str, ...] = ()
    held: bool = False
    legal: bool = False

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
                             bool(d.get("held", False)), bool(d.get("legal", False)))
        return cls(str(data["card"]), int(data["pair"]), int(data["seat"]), facts(data["treated"]),
                   facts(data["control"]))


@dataclass(frozen=True)
class Setup:
    """The settings a worker needs to play a pair (plain values, cheap to send)."""

    catalogue_text: str
    catalogue_name: str
    cards: tuple[str, ...]
    agents: tuple[str, ...]
    players: int
    size: int
    edition: str
    turn_limit: int
    seed: int
    aa: bool = False  # the A/A check of ``study validate``: see play_pair


def _variant(setup: Setup, card: str | None, real_for: frozenset[int] = frozenset()) -> Variant:
    """The cards of a game of ``setup``: ``card`` with its stand-in (real for the seats
    ``real_for``), or (None) the catalogue's own cards."""
    return Variant(setup.catalogue_text, setup.catalogue_name, (card,) if card else (), tuple(sorted(real_for)))


def _games(setup: Setup, job: Job) -> tuple[tuple[Variant, str], tuple[Variant, str]]:
    """The cards and the salt of the treated and of the control game of ``job``.

    In the A/A check (``setup.aa``) nothing is treated: both games are played with the real
    cards, each on a deal and random streams of its own (for each card and pair). Every true
    value is then zero, and the differences vary as much as two independent games do: the noise
    the intervals and the alarm rate are checked against. (Paired games with a card that changes
    nothing would be the same game twice, every difference zero, and check nothing.)"""
    if setup.aa:
        real = _variant(setup, None)
        return (real, f":aa:{job.card}"), (real, f":aa:{job.card}:control")
    seat = job.treated_seat(setup.players)
    return (_variant(setup, job.card, frozenset({seat})), ""), (_variant(setup, job.card), "")


def _play(setup: Setup, variant: Variant, job: Job, salt: str = "",
          keep: list[dict[str, Any]] | None = None, watch: int | None = None) -> GameFacts:
    """One game of ``job`` with the cards of ``variant`` (``salt``: another deal and other
    random streams, for the A/A check). With ``keep``, its saved-game record is appended there.
    ``watch``: the seat whose holding and playing of the real card is noted (held, legal)."""
    players = setup.players
    rules = variant.rules()
    game = Game.new(players, setup.size, setup.edition, _deal_seed(setup.seed, job.pair, salt), setup.turn_limit,
                    rules=rules)
    names = seat_agents(setup.agents, players, job.rotation(players))
    # Search agents get a number of iterations, never a time: results must not depend on the
    # machine (the time is set out of reach so the iterations decide).
    agents = [make_agent(n, think=SEARCH_TIME_CAP, iterations=SEARCH_ITERATIONS) for n in names]
    rngs = [random.Random(f"study:{setup.seed}:{job.pair}:{s}{salt}") for s in range(players)]
    played: list[set[str]] = [set() for _ in range(players)]
    fired = rules_fired(("setup",), game.events)  # the events of the game's start
    cfg = game.cfg
    copies = frozenset(cid for cid, d in enumerate(rules.cards) if d.name == job.card)
    held = legal = False

    def look() -> None:  # at the watched seat's decision: does it hold the card, may it play it?
        nonlocal held, legal
        if legal or watch is None or game.to_move != watch or copies.isdisjoint(game.hands[watch]):
            return
        held = True  # asking for the legal actions only then keeps the cost small
        legal = any(a[0] == "play" and a[1] in copies for a in game.legal_actions())

    def note(step: Any) -> None:  # the cards each seat played, built or developed; the rules fired
        a = step.action
        fired.update(rules_fired(a, step.events))
        if watch is not None:
            look()
        if a[0] == "play":
            played[step.seat].add(rules.cards[a[1]].name)
        elif a[0] == "build":
            played[step.seat].add(rules.catalogue.defs[a[1]].name)
        elif a[0] == "develop":
            played[step.seat].add(game.sites[a[1]].d.name)

    if watch is not None:
        look()
    run = play(game, agents, rngs, on_step=note, limits=Limits(max_steps=MAX_STEPS))
    winner = game.winner if game.over else None
    limit = game.over and sum(game.alive) > 1  # scored at the turn limit (WIN-2), not conquered
    if limit:  # its game_over event ended the game by WIN-2, not WIN-1
        fired.discard("WIN-1")
        fired.add("WIN-2")
    if keep is not None:
        keep.append(to_record(cfg, run.actions, names, result_of(game), variant))
    return GameFacts(winner, game.turn + 1, limit, tuple(tuple(sorted(p)) for p in played), tuple(sorted(fired)),
                     held, legal)


def _deal_seed(seed: int, pair: int, salt: str = "") -> int:
    return random.Random(f"study-deal:{seed}:{pair}{salt}").getrandbits(32)


def play_pair(setup: Setup, job: Job) -> PairResult:
    """Play the treated and the control game of ``job`` (see :func:`_games`)."""
    (treated, t_salt), (control, c_salt) = _games(setup, job)
    seat = job.treated_seat(setup.players)
    return PairResult(job.card, job.pair, seat, _play(setup, treated, job, t_salt, watch=seat),
                      _play(setup, control, job, c_salt))


def pair_records(setup: Setup, job: Job) -> tuple[dict[str, Any], dict[str, Any]]:
    """The saved-game records (:mod:`starcom.sim.record`) of the treated and the control game of
    ``job``, played again: the replays a report links to."""
    kept: list[dict[str, Any]] = []
    for variant, salt in _games(setup, job):
        _play(setup, variant, job, salt, kept)
    return kept[0], kept[1]
