"""Running a card study: rounds of paired games, a sequential stop per card, a log to resume.

Every card goes forward a round at a time: one pair per seat (so the treated seat takes every
place in turn). The backend is handed several rounds at once (:func:`_rounds_ahead`), plays
their pairs in any order and on any worker, and the pairs are then fed to each card's
:class:`~.stats.SequentialRule` in pair order, whole rounds until it stops, so what is decided
never depends on the backend, the number of workers, the batches or an interruption. Each
finished pair is appended to ``pairs.jsonl`` in the results folder; running the same study
again reads it back and plays only the pairs it lacks.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..sim.backends import Backend, BackendError, make_backend
from .pairs import Job, PairResult, Setup, play_pair
from .spec import StudyError, StudySpec, stored_key
from .stats import SequentialRule

MIN_PAIRS = 20  # no card stops before this many pairs (a few lucky games prove nothing)
LOG = "pairs.jsonl"
KEY = "study.json"


def backend_of(spec: StudySpec) -> Backend:
    """The backend ``spec`` asks for (:mod:`starcom.sim.backends`; StudyError if it cannot be had)."""
    try:
        return make_backend(spec.backend, spec.workers, spec.address)
    except BackendError as exc:
        raise StudyError(str(exc)) from None


@dataclass
class CardProgress:
    """One card's comparison so far: its rule and the pairs fed to it, in order."""

    card: str
    rule: SequentialRule
    pairs: list[PairResult] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.rule.decision.stop


@dataclass
class Outcome:
    """A finished study: each card's progress, and how the run went (machine-dependent)."""

    spec: StudySpec
    cards: dict[str, CardProgress]
    seconds: float
    pairs_played: int
    pairs_reused: int


class PairLog:
    """The results folder's log of finished pairs (one JSON line each, flushed as written).
    A line cut short by a crash is ignored and its pair played again."""

    def __init__(self, folder: Path, spec: StudySpec) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        key_file = folder / KEY
        key = spec.key()
        if key_file.exists():
            try:
                old = json.loads(key_file.read_text("utf-8"))
            except (OSError, ValueError) as exc:
                raise StudyError(f"{key_file} is unreadable ({exc}); use another --out") from None
            if not isinstance(old, dict):
                raise StudyError(f"{key_file} is not a study's settings; use another --out")
            old = stored_key(old)
            if old != key:
                moved = sorted(k for k in set(old) | set(key) if old.get(k) != key.get(k))
                raise StudyError(f"{folder} holds a study with other settings ({', '.join(moved)}); "
                                 "use another --out, or the same settings to resume it")
        else:
            key_file.write_text(json.dumps(key, indent=1, sort_keys=True), "utf-8")
        self.done: dict[tuple[str, int], PairResult] = {}
        path = folder / LOG
        if path.exists():
            for line in path.read_text("utf-8").splitlines():
                try:
                    r = PairResult.from_json(json.loads(line))
                except (ValueError, KeyError, TypeError):
                    continue  # the torn last line of an interrupted run
                self.done[(r.card, r.pair)] = r
        self._file = path.open("a", encoding="utf-8")

    def add(self, r: PairResult) -> None:
        self._file.write(json.dumps(r.to_json(), separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())
        self.done[(r.card, r.pair)] = r

    def close(self) -> None:
        self._file.close()


def setup_of(spec: StudySpec) -> Setup:
    return Setup(spec.catalogue_text, spec.cards_file or "built-in", spec.cards, spec.agents, spec.players,
                 spec.size, spec.edition, spec.turn_limit, spec.seed, spec.aa, spec.game)


def max_pairs(spec: StudySpec) -> int:
    """The most pairs one card gets: ``max_games`` games, whole rounds."""
    rounds = max(1, spec.max_games // (2 * spec.players))
    return rounds * spec.players


def run_study(spec: StudySpec, on_pair: Callable[[int, int], None] | None = None) -> Outcome:
    """Run (or resume) the study ``spec``; results go to ``spec.out``.

    ``on_pair(done, upper_bound)`` hears of each pair finished (for a progress bar)."""
    folder = Path(spec.out)
    log = PairLog(folder, spec)
    setup = setup_of(spec)
    most = max_pairs(spec)
    per_card_alpha = spec.alpha / len(spec.cards)  # a family-wise error rate over the cards
    cards = {c: CardProgress(c, SequentialRule(per_card_alpha, most, min(MIN_PAIRS, most), spec.precision))
             for c in spec.cards}
    backend = backend_of(spec)
    start = time.perf_counter()
    played = reused = 0
    try:
        while True:
            active = [c for c in cards.values() if not c.done]
            if not active:
                break
            rounds = _rounds_ahead(active, most, spec.players, backend.workers)
            jobs = [Job(c.card, len(c.pairs) + k) for c in active
                    for k in range(min(rounds * spec.players, most - len(c.pairs)))]
            results = {}
            todo = []
            for job in jobs:
                old = log.done.get((job.card, job.pair))
                if old is None:
                    todo.append(job)
                else:
                    results[(job.card, job.pair)] = old
                    reused += 1
            for r in backend.run(play_pair, setup, todo):
                log.add(r)
                results[(r.card, r.pair)] = r
                played += 1
                if on_pair is not None:
                    on_pair(played + reused, _upper_bound(cards, most, spec.players))
            for c in active:  # whole rounds in pair order, until the card stops: nothing depends
                # on who finished first, nor on how many rounds were handed out at once
                while not c.done and (c.card, len(c.pairs) + spec.players - 1) in results:
                    for _ in range(spec.players):
                        r = results[(c.card, len(c.pairs))]
                        c.pairs.append(r)
                        c.rule.update(r.difference)
    finally:
        backend.close()
        log.close()
    return Outcome(spec, cards, time.perf_counter() - start, played, reused)


def _rounds_ahead(active: list[CardProgress], most: int, players: int, workers: int) -> int:
    """How many rounds of pairs to hand the backend at once. Up to the fewest pairs any card
    needs before it may stop, all of them: none can be wasted. After that, enough rounds for
    every worker to have a few pairs, so that the slowest pair of a round does not keep the
    others idle; a card that stops within them leaves its later pairs unused (they stay in the
    log), and what each card is fed, in pair order, is the same whatever the batch."""
    before_stop = min(max(0, min(MIN_PAIRS, most) - len(c.pairs)) for c in active) // players
    if before_stop:
        return before_stop
    return max(1, -(-4 * workers // (len(active) * players)))


def _upper_bound(cards: dict[str, CardProgress], most: int, players: int) -> int:
    """Pairs finished plus the most still to come."""
    return sum(most if not c.done else len(c.pairs) for c in cards.values())
