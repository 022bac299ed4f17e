"""The balance lab's statistics: calibrated fixed intervals, an anytime-valid confidence sequence
and the stopping rule built on it, checked by seeded simulation against their stated error
rates, and the closed-form pieces against values computed here independently."""
from __future__ import annotations

import math
from collections.abc import Callable
from statistics import NormalDist

import numpy as np
import pytest

from starcom.study.stats import (ConfidenceSequence, Decision, Interval, SequentialRule,
                                 fixed_paired_games, fixed_unpaired_games, mean_interval,
                                 paired_sd, t_cdf, t_quantile, wilson_interval)

OUTCOMES = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])
# Distributions of a pair's difference d: spread out, the worst case for a bounded mean (only
# +-1, the largest variance), and the realistic one (most pairs end the same both ways).
SPREAD = (0.1, 0.2, 0.4, 0.2, 0.1)
COIN = (0.5, 0.0, 0.0, 0.0, 0.5)
MOSTLY_TIES = (0.02, 0.08, 0.8, 0.08, 0.02)
GOOD_CARD = (0.05, 0.10, 0.35, 0.20, 0.30)  # mean 0.3
Z975 = NormalDist().inv_cdf(0.975)


def draws(probs: tuple[float, ...], runs: int, n: int, seed: int) -> np.ndarray:
    """A runs x n table of differences drawn from ``probs`` over the five outcomes."""
    return np.random.default_rng(seed).choice(OUTCOMES, size=(runs, n), p=probs)


def upper_bound(rate: float, runs: int) -> float:
    """The rate plus three binomial standard errors: what a correct procedure stays under."""
    return rate + 3.0 * math.sqrt(rate * (1.0 - rate) / runs)


def miss_rate(table: np.ndarray, watch: Callable[[], tuple[Callable[[float], None],
                                                               Callable[[], bool]]]) -> float:
    """The share of rows in which the watched procedure ever alarms: ``watch()`` gives a fresh
    (feed, alarmed) pair; each row is fed in order until it alarms or runs out."""
    alarms = 0
    for row in table:
        feed, alarmed = watch()
        for x in row:
            feed(float(x))
            if alarmed():
                alarms += 1
                break
    return alarms / len(table)


def sequence_watch(alpha: float, target: float = 0.0) -> Callable[[], tuple[
        Callable[[float], None], Callable[[], bool]]]:
    def make() -> tuple[Callable[[float], None], Callable[[], bool]]:
        cs = ConfidenceSequence(alpha)
        return cs.update, lambda: cs.excludes(target)
    return make


# --- the confidence sequence under the null -----------------------------------------------------

@pytest.mark.parametrize("alpha", [0.05, 0.01])
@pytest.mark.parametrize("probs", [SPREAD, COIN], ids=["spread", "coin"])
def test_sequence_false_alarms_stay_under_alpha(alpha: float, probs: tuple[float, ...]) -> None:
    runs = 400
    rate = miss_rate(draws(probs, runs, 300, seed=11), sequence_watch(alpha))
    assert rate <= upper_bound(alpha, runs), rate


def test_peeking_at_a_fixed_interval_is_caught_by_the_same_harness() -> None:
    # The harness above must be able to fail: checking the fixed 95% interval after every pair
    # is the classic invalid procedure, and its alarm rate is far above 5%.
    def make() -> tuple[Callable[[float], None], Callable[[], bool]]:
        rule = SequentialRule(0.05, max_n=300, min_n=1)

        def feed(x: float) -> None:
            rule.update(x)
        return feed, lambda: rule.n >= 2 and rule.interval().excludes(0.0)
    rate = miss_rate(draws(SPREAD, 200, 300, seed=12), make)
    assert rate > upper_bound(0.05, 200), rate


@pytest.mark.parametrize("probs,mean", [(GOOD_CARD, 0.3), ((0.4383, 0, 0, 0, 0.5617), 0.1234)],
                         ids=["on-grid", "off-grid"])
def test_sequence_keeps_a_nonzero_mean(probs: tuple[float, ...], mean: float) -> None:
    # Both ends are tested (the mean is not at the centre), and 0.1234 is not a grid point.
    assert math.isclose(float(np.dot(probs, OUTCOMES)), mean, abs_tol=1e-12)
    runs = 300
    rate = miss_rate(draws(probs, runs, 300, seed=13), sequence_watch(0.05, mean))
    assert rate <= upper_bound(0.05, runs), rate


# --- the confidence sequence under an alternative -----------------------------------------------

@pytest.mark.parametrize("alpha", [0.05, 0.001])
def test_a_good_card_is_found_early(alpha: float) -> None:
    max_n = 300
    table = draws(GOOD_CARD, 200, max_n, seed=21)
    found, used = 0, []
    for row in table:
        rule = SequentialRule(alpha, max_n=max_n, min_n=20)
        for x in row:
            if rule.update(float(x)).stop:
                break
        used.append(rule.n)
        if rule.decision.reason == "excluded_zero":
            found += 1
            assert rule.sequence.interval().low >= 0.0  # on the right side of zero
    assert found / len(table) > 0.9
    assert float(np.mean(used)) < max_n / 2


# --- the fixed-sample interval ------------------------------------------------------------------

@pytest.mark.parametrize("probs", [SPREAD, MOSTLY_TIES, (0.03, 0.10, 0.70, 0.12, 0.05)],
                         ids=["spread", "ties", "skewed"])
def test_mean_interval_is_calibrated(probs: tuple[float, ...]) -> None:
    mean = float(np.dot(probs, OUTCOMES))
    table = draws(probs, 2000, 60, seed=31)
    coverage = np.mean([not mean_interval(row.tolist()).excludes(mean) for row in table])
    assert 0.93 <= coverage <= 0.97, coverage


def test_mean_interval_matches_the_t_formula() -> None:
    values = [1.0, 0.5, 0.0, -0.5, 0.5, 1.0, 0.0, 0.0]
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = 2.3646243 * sd / math.sqrt(n)  # t table, 0.975 quantile at 7 df
    got = mean_interval(values)
    assert got.n == n and got.estimate == pytest.approx(mean)
    assert got.low == pytest.approx(mean - half, abs=1e-6)
    assert got.high == pytest.approx(min(1.0, mean + half), abs=1e-6)


def test_mean_interval_edge_cases() -> None:
    assert mean_interval([]) == Interval(0.0, -1.0, 1.0, 0)
    assert mean_interval([0.5]) == Interval(0.5, -1.0, 1.0, 1)
    # Equal values get the floor variance step^2 / (n + 1), not a zero width.
    same = mean_interval([0.5] * 20)
    half = t_quantile(0.975, 19) * math.sqrt(0.25 / 21 / 20)
    assert same.estimate == 0.5 and not same.excludes(0.5)
    assert same.low == pytest.approx(0.5 - half) and same.high == pytest.approx(0.5 + half)
    # Clipped to the range.
    top = mean_interval([1.0] * 5)
    assert top.high == 1.0 and top.low < 1.0
    with pytest.raises(ValueError, match=r"1\.5 at index 2 is outside the range \[-1\.0, 1\.0\]"):
        mean_interval([0.0, 1.0, 1.5])
    with pytest.raises(ValueError, match="outside"):
        mean_interval([float("nan")])
    with pytest.raises(ValueError, match="level"):
        mean_interval([0.0, 1.0], level=1.0)


def test_interval_excludes() -> None:
    interval = Interval(0.2, 0.1, 0.3, 10)
    assert interval.excludes() and interval.excludes(0.31) and not interval.excludes(0.1)
    assert interval.half_width == pytest.approx(0.1)


# --- Wilson -------------------------------------------------------------------------------------

def test_wilson_against_closed_forms() -> None:
    n, z2 = 10, Z975 ** 2
    none = wilson_interval(0, n)
    assert (none.estimate, none.low) == (0.0, 0.0)
    assert none.high == pytest.approx(z2 / (n + z2))  # 0.2775
    everything = wilson_interval(10, n)
    assert everything.low == pytest.approx(n / (n + z2)) and everything.high == 1.0
    half = wilson_interval(5, n)
    assert half.low == pytest.approx(0.5 - Z975 / (2 * math.sqrt(n + z2)))  # 0.2366
    assert half.high == pytest.approx(0.5 + Z975 / (2 * math.sqrt(n + z2)))
    assert none.high == pytest.approx(0.2775, abs=1e-4)
    assert half.low == pytest.approx(0.2366, abs=1e-4)


def test_wilson_counts_draws_half_and_checks_its_input() -> None:
    drawn = wilson_interval(5.5, 10)  # 5 wins and a draw
    assert drawn.estimate == 0.55 and drawn.low < 0.55 < drawn.high
    assert wilson_interval(0, 0) == Interval(0.5, 0.0, 1.0, 0)
    for bad in [(11, 10), (-1, 10), (0, -1)]:
        with pytest.raises(ValueError, match="successes"):
            wilson_interval(*bad)


# --- Student's t --------------------------------------------------------------------------------

@pytest.mark.parametrize("p,df,table", [(0.975, 5, 2.5706), (0.975, 30, 2.0423),
                                        (0.995, 10, 3.1693), (0.95, 1, 6.3138),
                                        (0.975, 120, 1.9799), (0.999, 3, 10.2145)])
def test_t_quantile_table_values(p: float, df: float, table: float) -> None:
    assert t_quantile(p, df) == pytest.approx(table, abs=5e-5)


def test_t_quantile_closed_forms_and_limits() -> None:
    for p in (0.6, 0.9, 0.975, 0.9995):
        assert t_quantile(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-11)
        assert t_quantile(p, 2) == pytest.approx((2 * p - 1) / math.sqrt(2 * p * (1 - p)),
                                                 rel=1e-11)
        assert t_quantile(1 - p, 7) == -t_quantile(p, 7)
        assert t_cdf(t_quantile(p, 7.5), 7.5) == pytest.approx(p, abs=1e-13)
    assert t_quantile(0.5, 4) == 0.0
    assert t_quantile(0.975, 1e6) == pytest.approx(Z975, abs=1e-5)
    # The switch from bisection to the series leaves no step.
    assert t_quantile(0.975, 1000 - 1e-7) == pytest.approx(t_quantile(0.975, 1000), abs=1e-11)
    assert t_cdf(2.0, 1) == pytest.approx(0.5 + math.atan(2.0) / math.pi, abs=1e-14)
    with pytest.raises(ValueError):
        t_quantile(1.0, 5)
    with pytest.raises(ValueError):
        t_quantile(0.9, 0)


# --- sample sizes -------------------------------------------------------------------------------

def test_fixed_unpaired_games() -> None:
    z = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)
    expected = math.ceil(z * z * (0.5 ** 2 + 0.5 ** 2) / 0.1 ** 2)
    assert fixed_unpaired_games(0.1, 0.5, 0.5, alpha=0.05, power=0.8) == expected == 393
    assert fixed_unpaired_games(-0.1, 0.5, 0.5) == 393
    assert fixed_unpaired_games(0.2, 0.5, 0.5) < fixed_unpaired_games(0.1, 0.5, 0.5)
    assert fixed_unpaired_games(0.1, 0.5, 0.5, two_sided=False) < 393
    # Pairing removes the deal-to-deal variance: with sd 0.5 per difference, half as many.
    assert fixed_paired_games(0.1, 0.5) == math.ceil(z * z * 0.25 / 0.01) == 197
    for bad in [dict(effect=0.0), dict(sd_a=-1.0), dict(alpha=0.0), dict(power=1.0)]:
        args = dict(effect=0.1, sd_a=0.5, sd_b=0.5, alpha=0.05, power=0.8) | bad
        with pytest.raises(ValueError):
            fixed_unpaired_games(**args)  # type: ignore[arg-type]


def test_paired_sd() -> None:
    assert paired_sd([1.0, -1.0]) == pytest.approx(math.sqrt(2.0))
    with pytest.raises(ValueError, match="at least 2"):
        paired_sd([0.5])


# --- the confidence sequence's edges ------------------------------------------------------------

def test_sequence_edges() -> None:
    cs = ConfidenceSequence(0.05)
    assert cs.interval() == Interval(0.0, -1.0, 1.0, 0) and not cs.excludes(0.0)
    with pytest.raises(ValueError, match="outside the range"):
        cs.update(1.5)
    assert cs.n == 0  # a rejected value changes nothing
    cs.extend([1.0] * 30)
    interval = cs.interval()
    assert cs.n == 30 and interval.estimate == 1.0 and interval.high == 1.0
    assert cs.excludes(0.0) and cs.excludes(interval.low) and not cs.excludes(1.0)
    # Narrower with more data, never wider (the running intersection).
    widths = []
    wins = ConfidenceSequence(0.05, lo=0.0, hi=1.0)
    for x in draws((0.0, 0.0, 0.5, 0.0, 0.5), 1, 200, seed=41)[0]:
        wins.update(float(x))
        widths.append(wins.interval().high - wins.interval().low)
    assert all(b <= a for a, b in zip(widths, widths[1:])) and widths[-1] < 0.3
    for bad in [dict(alpha=0.0), dict(lo=1.0, hi=-1.0), dict(grid=2)]:
        with pytest.raises(ValueError):
            ConfidenceSequence(**bad)  # type: ignore[arg-type]


# --- the stopping rule --------------------------------------------------------------------------

def test_rule_waits_for_min_n_then_stops_on_exclusion() -> None:
    rule = SequentialRule(0.05, max_n=100, min_n=20)
    decisions = [rule.update(1.0) for _ in range(20)]
    assert rule.sequence.excludes(0.0)  # long before pair 20
    assert all(d == Decision(False, "") for d in decisions[:19])
    assert decisions[19] == Decision(True, "excluded_zero")
    assert rule.update(-1.0) == Decision(True, "excluded_zero")  # sticky


def test_rule_stops_when_precise() -> None:
    rule = SequentialRule(0.05, max_n=1000, min_n=5, precision=0.2)
    halves = []
    while not rule.decision.stop:
        rule.update(0.5 if rule.n % 2 else -0.5)
        halves.append(rule.interval().half_width)
    assert rule.decision.reason == "precise"
    assert halves[-1] <= 0.2 < halves[-2]
    assert 20 < rule.n < 35  # 1.96 * 0.5 / sqrt(n) <= 0.2 near n = 25


def test_rule_stops_at_max_games_and_reports_the_fixed_interval() -> None:
    rule = SequentialRule(0.05, max_n=30, min_n=20)
    values = draws(SPREAD, 1, 30, seed=51)[0].tolist()
    for i, x in enumerate(values):
        assert rule.update(x).stop == (i == 29)
    assert rule.decision == Decision(True, "max_games")
    expected = mean_interval(values)
    got = rule.interval()
    assert got.n == expected.n == 30
    assert got.estimate == pytest.approx(expected.estimate)
    assert got.low == pytest.approx(expected.low) and got.high == pytest.approx(expected.high)


def test_rule_checks_its_settings() -> None:
    with pytest.raises(ValueError, match="min_n"):
        SequentialRule(0.05, max_n=10, min_n=20)
    with pytest.raises(ValueError, match="precision"):
        SequentialRule(0.05, max_n=10, min_n=5, precision=0.0)
    with pytest.raises(ValueError, match="alpha"):
        SequentialRule(1.5, max_n=10, min_n=5)
