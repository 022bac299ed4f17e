"""A card's play rate and its verdict: is a card that changes nothing *even*, or *dead*?

A card's value (the mean paired difference in score, :mod:`.stats`) is near zero both for a card
that is worth about as much as its stand-in and for a card the agents simply stop playing: a
card never played changes no game. The play rate tells them apart. In every pair the treated
seat is watched in both games (:class:`~.pairs.GameFacts` ``could`` and ``played_it``): could it
play, build or develop the card (the real card in the treated game, the stand-in in the control
game) at one of its decisions, and did it?

* the **treated play rate**: the share of the pairs whose treated game the seat could play the
  real card in, in which it did;
* the **control play rate**: the same for the stand-in in the control game;
* the **play-rate difference**: per pair, ``played_it`` in the treated game (1 or 0) less
  ``played_it`` in the control game, over the pairs in which the seat could play the card in
  at least one of the two games, with a paired 95% Student-t interval
  (:func:`~.stats.mean_interval`).

The verdict reads the value's interval first, then the play rate's:

* ``strong``: the value's interval lies above zero;
* ``weak``: it lies below zero;
* ``dead``: it contains zero, and the seat plays the real card significantly and markedly less
  often than the stand-in: the play-rate difference's interval lies below zero and its
  estimate is at least :data:`DEAD_DROP` below (a card played in 95% of its chances against
  97% for its stand-in is not dead, however many pairs make that gap significant);
* ``even``: neither.

Both are 95% intervals read card by card (the study's red flag is the stricter, run-wide test:
:class:`~.stats.SequentialRule`), so among many even cards about one in twenty is called
strong, weak or dead by chance.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from .pairs import PairResult
from .stats import Interval, mean_interval

Verdict = Literal["dead", "weak", "strong", "even"]
DEAD_DROP: Final = 0.10  # the least fall in play rate, against the stand-in's, that makes a card dead
VERDICTS: Final[tuple[Verdict, ...]] = ("dead", "weak", "strong", "even")  # the order a designer reads them in


@dataclass(frozen=True)
class PlayRate:
    """A card's play rates over its pairs: ``treated`` of ``treated_pairs`` pairs in which the
    treated seat could play the real card (None: no such pair), ``control`` likewise for the
    stand-in, and ``diff`` the paired difference's interval (its ``n``: the pairs in which the
    seat could play the card in at least one of the two games)."""

    treated: float | None
    treated_pairs: int
    control: float | None
    control_pairs: int
    diff: Interval


def play_rate(pairs: Sequence[PairResult], level: float = 0.95) -> PlayRate:
    """The play rates of a card's ``pairs`` (module docstring)."""
    could_t = [r for r in pairs if r.treated.could]
    could_c = [r for r in pairs if r.control.could]
    diffs = [float(r.treated.played_it) - float(r.control.played_it)
             for r in pairs if r.treated.could or r.control.could]
    # a difference moves by whole steps of 1, which the variance floor of mean_interval is told
    diff = mean_interval(diffs, level, lo=-1.0, hi=1.0, step=1.0)
    return PlayRate(sum(r.treated.played_it for r in could_t) / len(could_t) if could_t else None, len(could_t),
                    sum(r.control.played_it for r in could_c) / len(could_c) if could_c else None, len(could_c),
                    diff)


def verdict(value_low: float, value_high: float, diff: Interval | None) -> Verdict:
    """The verdict of a card whose value's interval is ``[value_low, value_high]`` and whose
    play-rate difference is ``diff`` (None: no pair in which it could be played)."""
    if value_low > 0:
        return "strong"
    if value_high < 0:
        return "weak"
    if diff is not None and diff.high < 0 and diff.estimate <= -DEAD_DROP:
        return "dead"
    return "even"


__all__ = ["DEAD_DROP", "VERDICTS", "PlayRate", "Verdict", "play_rate", "verdict"]
