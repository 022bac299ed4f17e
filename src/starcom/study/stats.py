"""Statistics of the balance lab: intervals for a card's value and when to stop measuring it.

A card is measured by pairs of games on identical deals, one with the card and one with a blank
stand-in; each pair gives a difference ``d`` in [-1, 1] (a win counts 1, a draw 1/2, a loss 0)
and the card's value is the mean of ``d``. Two kinds of interval serve two purposes:

* :func:`mean_interval` is the fixed-sample Student-t interval: calibrated (it covers the true
  mean about ``level`` of the time, not more), so it is the interval to *report*.
* :class:`ConfidenceSequence` is anytime-valid: the chance that the true mean *ever* leaves it,
  however often it is looked at, is at most ``alpha``. Peeking at a fixed interval after every
  pair would raise false alarms far more often than its level says, so :class:`SequentialRule`
  raises an alarm (stops with ``"excluded_zero"``) only through the confidence sequence.

Standard library and numpy only: the t distribution is computed here (through the regularized
incomplete beta function) rather than taken from scipy.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Literal

import numpy as np
import numpy.typing as npt

Reason = Literal["excluded_zero", "precise", "max_games", ""]

_NORMAL = NormalDist()
# Degrees of freedom from which t_quantile uses its asymptotic series instead of bisection: the
# series is then accurate to about 1e-15, while the CDF loses digits to the cancelling lgammas
# and the continued fraction needs ever more terms.
_SERIES_DF = 1.0e3
_CF_EPS = 1.0e-15
_CF_MAX_TERMS = 20_000
_TINY = 1.0e-300
# The betting fraction is capped at this share of the largest safe bet, so that one
# observation can cost at most half of the capital (Waudby-Smith & Ramdas use 1/2 or 3/4).
_BET_CAP = 0.5


@dataclass(frozen=True)
class Interval:
    """An interval ``[low, high]`` for a mean, with its point estimate and sample size ``n``."""

    estimate: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        """The larger distance from the estimate to an end (the half-width when symmetric)."""
        return max(self.estimate - self.low, self.high - self.estimate)

    def excludes(self, x: float = 0.0) -> bool:
        """Does ``x`` lie outside the closed interval?"""
        return x < self.low or x > self.high


@dataclass(frozen=True)
class Decision:
    """Whether a comparison stops, and why (``reason`` is ``""`` while it goes on)."""

    stop: bool
    reason: Reason


# --- Student's t distribution -----------------------------------------------------------------

def _check_level(level: float, name: str = "level") -> None:
    if not 0.0 < level < 1.0:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {level}")


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b), evaluated by the modified Lentz method."""
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _CF_MAX_TERMS):
        # Each step takes an even and an odd coefficient of the fraction.
        for coef in (m * (b - m) * x / ((a + 2 * m - 1.0) * (a + 2 * m)),
                     -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1.0))):
            d = 1.0 + coef * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + coef / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _CF_EPS:
            return h
    raise ArithmeticError(f"incomplete beta fraction did not converge (a={a}, b={b}, x={x})")


def _regularized_beta(a: float, b: float, x: float, y: float) -> float:
    """I_x(a, b) with ``y = 1 - x`` passed separately, so that x close to 1 keeps its digits."""
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log(y))
    # The fraction converges fast only below the mode; above it use I_x(a,b) = 1 - I_y(b,a).
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, y) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` > 0 degrees of freedom, through the regularized
    incomplete beta function (absolute error about 1e-14 up to a few hundred df, growing to
    about 1e-11 at df = 1e5 and 1e-10 at 1e6 as the log-gamma terms cancel)."""
    if not df > 0.0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    t2 = t * t
    # P(|T| > |t|) = I_x(df/2, 1/2) with x = df / (df + t^2).
    two_tail = _regularized_beta(df / 2.0, 0.5, df / (df + t2), t2 / (df + t2))
    return 1.0 - two_tail / 2.0 if t > 0 else two_tail / 2.0


def _t_series(z: float, df: float) -> float:
    """The Cornish-Fisher series of the t quantile about the normal quantile ``z``
    (Abramowitz & Stegun 26.7.5), four terms: error O(df**-5)."""
    z2 = z * z
    g1 = z * (z2 + 1.0) / 4.0
    g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0
    g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0
    g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


@lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` > 0 degrees of freedom.

    Bisection on :func:`t_cdf` below ``df`` = 1000, the four-term Cornish-Fisher series from
    there on. Checked against 40-digit arithmetic for df from 0.5 to 1e6: relative error below
    1e-12 for 1e-4 <= p <= 1 - 1e-4 (below 1e-10 out to 1e-6, where the rounding of 1 - p
    itself starts to dominate). Cached: a study asks for the same few quantiles again and
    again."""
    _check_level(p, "p")
    if not df > 0.0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    if df >= _SERIES_DF:
        return _t_series(_NORMAL.inv_cdf(p), df)
    low, high = 0.0, max(1.0, _NORMAL.inv_cdf(p))
    while t_cdf(high, df) < p:
        low, high = high, high * 2.0
    for _ in range(400):
        mid = (low + high) / 2.0
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low <= 1e-13 * high:
            break
    return (low + high) / 2.0


# --- Fixed-sample intervals ---------------------------------------------------------------------

def _check_range(lo: float, hi: float) -> None:
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError(f"need finite lo < hi, got lo={lo}, hi={hi}")


def _checked(values: Iterable[float], lo: float, hi: float) -> list[float]:
    """The values as floats, raising ValueError for any outside [lo, hi] (or NaN)."""
    out = [float(v) for v in values]
    for i, v in enumerate(out):
        if not lo <= v <= hi:
            raise ValueError(f"value {v!r} at index {i} is outside the range [{lo}, {hi}]")
    return out


def _t_interval(n: int, mean: float, var: float, level: float, lo: float, hi: float,
                step: float) -> Interval:
    """The Student-t interval from the sample size, mean and (n - 1)-divided variance."""
    if n < 2:
        # One value says nothing about the spread, so nothing narrower than the range is honest.
        estimate = mean if n == 1 else (lo + hi) / 2.0
        return Interval(estimate, lo, hi, n)
    # The variance floor is the sample variance that n equal values would have with one more
    # value one step away: step^2 / (n + 1). It keeps a run of identical outcomes from claiming
    # zero width, and is far below any real spread of game results, so calibration is unaffected.
    var = max(var, step * step / (n + 1))
    half = t_quantile(0.5 + level / 2.0, n - 1) * math.sqrt(var / n)
    return Interval(mean, max(lo, mean - half), min(hi, mean + half), n)


def mean_interval(values: Sequence[float], level: float = 0.95, *, lo: float = -1.0,
                  hi: float = 1.0, step: float = 0.5) -> Interval:
    """The fixed-sample Student-t interval for the mean of ``values`` (each in [lo, hi]).

    Calibrated, not conservative: for a fixed n it covers the true mean about ``level`` of the
    time. Clipped to [lo, hi]. n = 0 gives [lo, hi] around the midpoint, n = 1 gives [lo, hi]
    around the value; the variance is floored at ``step**2 / (n + 1)`` (see the code) so equal
    values do not give a zero width. Raises ValueError for a value outside [lo, hi]."""
    _check_level(level)
    _check_range(lo, hi)
    xs = _checked(values, lo, hi)
    n = len(xs)
    if n == 0:
        return _t_interval(0, 0.0, 0.0, level, lo, hi, step)
    mean = math.fsum(xs) / n
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return _t_interval(n, mean, var, level, lo, hi, step)


def wilson_interval(successes: float, n: int, level: float = 0.95) -> Interval:
    """The Wilson score interval for a win rate: ``successes`` of ``n`` games, a draw counting
    1/2 (so successes may be a half-integer). The estimate is successes / n; n = 0 gives [0, 1]
    around 1/2."""
    _check_level(level)
    if n < 0 or not 0.0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return Interval(0.5, 0.0, 1.0, 0)
    z = _NORMAL.inv_cdf(0.5 + level / 2.0)
    p = successes / n
    shrink = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / shrink
    half = z / shrink * math.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n))
    # At 0 (or n) successes the end is exactly 0 (or 1); rounding would leave it a hair off.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(p, low, high, n)


# --- Anytime-valid confidence sequence ----------------------------------------------------------

class ConfidenceSequence:
    """An anytime-valid confidence sequence for the mean of observations in [lo, hi].

    Construction: the hedged-capital betting confidence sequence of Waudby-Smith & Ramdas
    ("Estimating means of bounded random variables by betting", 2023), with their predictable
    plug-in bets, evaluated on a grid of ``grid`` candidate means over [lo, hi]. For a candidate
    m (rescaled to [0, 1]) two gamblers bet that the mean is above / below m; their capitals are
    test martingales when m is the true mean, so by Ville's inequality each ever reaches
    2 / alpha with probability at most alpha / 2 (the hedged capital max(K+, K-) / 2 reaching
    1 / alpha). A candidate whose capital reaches 2 / alpha is rejected for good (the running
    intersection), so

        P(the true mean ever leaves the sequence) <= alpha,

    under any stopping rule, for independent observations with a common mean (more generally,
    whenever each has conditional mean mu given the past).

    Each gambler's capital is monotone in m, so the rejected candidates are a prefix (too low)
    and a suffix (too high) of the grid; a rejected grid point rejects everything beyond it,
    which makes the grid exact rather than approximate: the reported ends are the innermost
    rejected grid points, and the true mean lies strictly between them. Cost: O(grid) numpy
    work per observation.
    """

    def __init__(self, alpha: float = 0.05, lo: float = -1.0, hi: float = 1.0,
                 grid: int = 401) -> None:
        _check_level(alpha, "alpha")
        _check_range(lo, hi)
        if grid < 3:
            raise ValueError(f"grid needs at least 3 points, got {grid}")
        self.alpha = alpha
        self.lo = lo
        self.hi = hi
        self._m: npt.NDArray[np.float64] = np.linspace(0.0, 1.0, grid)
        with np.errstate(divide="ignore"):
            # The largest bets that keep each factor 1 + bet * (y - m) positive for all y in
            # [0, 1], times the cap; infinite where any bet is safe.
            self._cap_up: npt.NDArray[np.float64] = _BET_CAP / self._m
            self._cap_down: npt.NDArray[np.float64] = _BET_CAP / (1.0 - self._m)
        self._log_up: npt.NDArray[np.float64] = np.zeros(grid)
        self._log_down: npt.NDArray[np.float64] = np.zeros(grid)
        self._threshold = math.log(2.0 / alpha)
        # Numbers of grid points rejected as too low (a prefix) and too high (a suffix).
        self._rejected_low = 0
        self._rejected_high = 0
        self._n = 0
        self._sum = 0.0
        # The predictable plug-in's running mean and variance estimates, on the [0, 1] scale,
        # started from the prior guesses 1/2 and 1/4 as in the paper.
        self._mu_sum = 0.5
        self._var_sum = 0.25

    @property
    def n(self) -> int:
        """The number of observations so far."""
        return self._n

    def update(self, x: float) -> None:
        """Add one observation (ValueError if it is outside [lo, hi])."""
        x = _checked([x], self.lo, self.hi)[0]
        y = (x - self.lo) / (self.hi - self.lo)
        t = self._n + 1
        # The bet may use only the past (that is what makes the capital a martingale).
        var_hat = self._var_sum / t
        bet = math.sqrt(2.0 * self._threshold / (var_hat * t * math.log1p(t)))
        gain = y - self._m
        self._log_up += np.log1p(np.minimum(bet, self._cap_up) * gain)
        self._log_down += np.log1p(-np.minimum(bet, self._cap_down) * gain)
        # Both capitals are monotone in m, so counting the rejected points finds the prefix and
        # suffix; the running maximum keeps a rejection for good.
        self._rejected_low = max(self._rejected_low,
                                 int(np.count_nonzero(self._log_up >= self._threshold)))
        self._rejected_high = max(self._rejected_high,
                                  int(np.count_nonzero(self._log_down >= self._threshold)))
        # As in the paper, the mean estimate that the deviation is measured from includes y.
        self._mu_sum += y
        self._var_sum += (y - self._mu_sum / (t + 1)) ** 2
        self._n = t
        self._sum += x

    def extend(self, xs: Iterable[float]) -> None:
        """Add several observations in order."""
        for x in xs:
            self.update(x)

    def _ends(self) -> tuple[float, float]:
        """The reported ends on the original scale: the innermost rejected grid points, or the
        range's ends where nothing is rejected on that side."""
        size = len(self._m)
        width = self.hi - self.lo
        low = self.lo + width * float(self._m[self._rejected_low - 1]) \
            if self._rejected_low else self.lo
        high = self.lo + width * float(self._m[size - self._rejected_high]) \
            if self._rejected_high else self.hi
        return low, high

    def interval(self) -> Interval:
        """The running intersection, with the sample mean as estimate (the midpoint before any
        observation). The ends are rejected values: the mean lies strictly inside. Should the
        two sides ever cross (possible only in the alpha-probability failure event), the
        interval collapses to the point between them."""
        low, high = self._ends()
        if low > high:
            low = high = (low + high) / 2.0
        estimate = self._sum / self._n if self._n else (self.lo + self.hi) / 2.0
        return Interval(estimate, low, high, self._n)

    def excludes(self, x: float = 0.0) -> bool:
        """Has the candidate mean ``x`` been rejected (at some time so far)? The ends of
        :meth:`interval` are themselves rejected, hence the non-strict comparisons."""
        low, high = self._ends()
        return (self._rejected_low > 0 and x <= low) or (self._rejected_high > 0 and x >= high)


# --- Stopping rule --------------------------------------------------------------------------------

class SequentialRule:
    """When to stop a paired comparison, fed one difference at a time.

    ``alpha`` is this comparison's share of the error rate (the caller divides a family-wise
    rate, e.g. 0.05 / number of cards). After at least ``min_n`` pairs the comparison stops with

    * ``"excluded_zero"`` once the :class:`ConfidenceSequence` at ``alpha`` has rejected
      ``null`` — the only way to raise an alarm, so P(a false alarm) <= alpha whatever the
      stopping;
    * ``"precise"`` once the fixed ``level`` interval's half-width is at most ``precision``
      (if given);
    * ``"max_games"`` at ``max_n`` pairs;

    checked in that order. The decision is sticky: observations after the stop still update
    the statistics, but the decision and its reason stay the first ones.
    """

    def __init__(self, alpha: float, max_n: int, min_n: int = 20,
                 precision: float | None = None, *, level: float = 0.95, lo: float = -1.0,
                 hi: float = 1.0, step: float = 0.5, grid: int = 401, null: float = 0.0) -> None:
        _check_level(level)
        if not 1 <= min_n <= max_n:
            raise ValueError(f"need 1 <= min_n <= max_n, got min_n={min_n}, max_n={max_n}")
        if precision is not None and not precision > 0.0:
            raise ValueError(f"precision must be positive, got {precision}")
        self.sequence = ConfidenceSequence(alpha, lo, hi, grid)
        self.max_n = max_n
        self.min_n = min_n
        self.precision = precision
        self.level = level
        self.null = null
        self._step = step
        # Welford's running mean and sum of squared deviations, for the fixed interval.
        self._mean = 0.0
        self._sq = 0.0
        self._decision = Decision(False, "")

    @property
    def n(self) -> int:
        """The number of differences so far."""
        return self.sequence.n

    @property
    def decision(self) -> Decision:
        """The current decision."""
        return self._decision

    def update(self, x: float) -> Decision:
        """Add one paired difference and return the decision."""
        self.sequence.update(x)  # validates x first, before the running moments change
        n = self.sequence.n
        delta = x - self._mean
        self._mean += delta / n
        self._sq += delta * (x - self._mean)
        if not self._decision.stop and n >= self.min_n:
            self._decision = self._decide()
        return self._decision

    def _decide(self) -> Decision:
        if self.sequence.excludes(self.null):
            return Decision(True, "excluded_zero")
        if self.precision is not None and self.interval().half_width <= self.precision:
            return Decision(True, "precise")
        if self.n >= self.max_n:
            return Decision(True, "max_games")
        return Decision(False, "")

    def interval(self) -> Interval:
        """The calibrated fixed-sample interval at ``level`` (as :func:`mean_interval`): the
        interval to report."""
        n = self.sequence.n
        var = self._sq / (n - 1) if n > 1 else 0.0
        return _t_interval(n, self._mean, var, self.level, self.sequence.lo, self.sequence.hi,
                           self._step)


# --- Sample sizes -----------------------------------------------------------------------------

def paired_sd(diffs: Sequence[float]) -> float:
    """The sample standard deviation (n - 1 divisor) of paired differences; n >= 2."""
    if len(diffs) < 2:
        raise ValueError(f"need at least 2 differences, got {len(diffs)}")
    xs = [float(d) for d in diffs]
    mean = math.fsum(xs) / len(xs)
    return math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1))


def _z_sum(alpha: float, power: float, two_sided: bool) -> float:
    _check_level(alpha, "alpha")
    _check_level(power, "power")
    return _NORMAL.inv_cdf(1.0 - (alpha / 2.0 if two_sided else alpha)) + _NORMAL.inv_cdf(power)


def fixed_unpaired_games(effect: float, sd_a: float, sd_b: float, alpha: float = 0.05,
                         power: float = 0.8, *, two_sided: bool = True) -> int:
    """Games per arm for a fixed-sample unpaired two-sample z-test to detect a difference of
    means ``effect`` with probability ``power`` at level ``alpha``, the arms' outcomes having
    standard deviations ``sd_a`` and ``sd_b``: ceil((z_alpha + z_power)^2 (sd_a^2 + sd_b^2) /
    effect^2). The baseline against which paired, sequential measuring is compared."""
    if effect == 0.0 or not math.isfinite(effect):
        raise ValueError(f"effect must be finite and non-zero, got {effect}")
    if sd_a < 0.0 or sd_b < 0.0 or sd_a == sd_b == 0.0:
        raise ValueError(f"need non-negative standard deviations, not both 0: {sd_a}, {sd_b}")
    z = _z_sum(alpha, power, two_sided)
    return max(1, math.ceil(z * z * (sd_a ** 2 + sd_b ** 2) / effect ** 2))


def fixed_paired_games(effect: float, sd_diff: float, alpha: float = 0.05, power: float = 0.8,
                       *, two_sided: bool = True) -> int:
    """Pairs a fixed-sample paired z-test needs to detect a mean difference ``effect`` when
    the differences have standard deviation ``sd_diff``: ceil((z_alpha + z_power)^2 sd^2 /
    effect^2)."""
    if effect == 0.0 or not math.isfinite(effect):
        raise ValueError(f"effect must be finite and non-zero, got {effect}")
    if not sd_diff > 0.0:
        raise ValueError(f"sd_diff must be positive, got {sd_diff}")
    z = _z_sum(alpha, power, two_sided)
    return max(1, math.ceil(z * z * sd_diff ** 2 / effect ** 2))
