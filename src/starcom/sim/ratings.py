"""Rating maths for the arena: Elo ratings fitted by maximum likelihood and an exact sign test.

Pure Python on purpose: the arena rates a handful of agents, so a small dense Newton solver is
enough and keeps numpy/scipy out of the statistics.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per unit of the logistic (natural) scale
ELO_MEAN = 1500.0
Z95 = 1.959963984540054  # two-sided 95% normal quantile
PRIOR_DRAWS = 1.0  # virtual drawn games added between every two agents


def binomial_test(k: int, n: int) -> float:
    """Two-sided exact binomial test of ``k`` successes in ``n`` trials against p = 1/2.

    The p-value is the probability, under a fair coin, of a result at least as lopsided as
    ``k`` out of ``n`` (both tails), capped at 1; ``n == 0`` gives 1. Exact rational arithmetic,
    so tiny p-values are not lost to rounding before the final conversion."""
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return 1.0
    low = min(k, n - k)
    tail = sum(math.comb(n, i) for i in range(low + 1))
    # The distribution is symmetric, so both tails are equal; when k is exactly n/2 they overlap
    # and the cap handles it.
    return float(min(Fraction(1), Fraction(2 * tail, 2 ** n)))


@dataclass(frozen=True)
class EloFit:
    """Fitted ratings (mean :data:`ELO_MEAN`) with standard errors and 95% intervals."""

    names: tuple[str, ...]
    ratings: dict[str, float]
    stderr: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    iterations: int

    def ranked(self) -> list[str]:
        """Agent names, best rating first (ties by name)."""
        return sorted(self.names, key=lambda n: (-self.ratings[n], n))


def expected_score(ra: float, rb: float) -> float:
    """Elo's expected score of a player rated ``ra`` against one rated ``rb``."""
    return 1.0 / (1.0 + float(10.0 ** ((rb - ra) / 400.0)))  # float ** float is typed Any (complex)


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """Solve ``m x = v`` by Gaussian elimination with partial pivoting (m is small and SPD)."""
    k = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(k):
        piv = max(range(c, k), key=lambda r: abs(a[r][c]))
        if abs(a[piv][c]) < 1e-300:
            raise ArithmeticError("singular information matrix: some agents are not connected by games")
        a[c], a[piv] = a[piv], a[c]
        for r in range(c + 1, k):
            f = a[r][c] / a[c][c]
            if f:
                for j in range(c, k + 1):
                    a[r][j] -= f * a[c][j]
    x = [0.0] * k
    for r in range(k - 1, -1, -1):
        x[r] = (a[r][k] - sum(a[r][j] * x[j] for j in range(r + 1, k))) / a[r][r]
    return x


def _inverse(m: list[list[float]]) -> list[list[float]]:
    k = len(m)
    cols = [_solve(m, [1.0 if i == j else 0.0 for i in range(k)]) for j in range(k)]
    return [[cols[j][i] for j in range(k)] for i in range(k)]


def fit_elo(names: Sequence[str], scores: Mapping[tuple[str, str], float],
            prior_draws: float = PRIOR_DRAWS, max_iter: int = 100) -> EloFit:
    """Bradley–Terry maximum-likelihood ratings on the Elo scale.

    ``scores[(a, b)]`` is what ``a`` scored against ``b`` (a win 1, a draw 1/2 to each side);
    missing keys count 0. Every pair of agents also gets ``prior_draws`` virtual drawn games,
    which keeps the fit finite when an agent won or lost everything and connects agents that
    never met. Model: P(a beats b) = 1 / (1 + 10^((R_b - R_a) / 400)).

    Ratings are shifted so their mean is :data:`ELO_MEAN`. Standard errors come from the
    inverse of the observed Fisher information (the negative Hessian of the regularised
    log-likelihood at the optimum) and are those of each rating relative to that mean; the
    intervals are rating ± 1.96 standard errors. Fewer than two agents: ValueError."""
    names = tuple(names)
    k = len(names)
    if k < 2 or len(set(names)) != k:
        raise ValueError("need at least two distinct agents to rate")
    idx = {n: i for i, n in enumerate(names)}
    s = [[0.0] * k for _ in range(k)]  # s[i][j]: points i took from j
    for (a, b), pts in scores.items():
        if a not in idx or b not in idx:
            raise ValueError(f"scores name an agent not being rated: {a!r} vs {b!r}")
        if pts < 0:
            raise ValueError(f"negative score {pts} for {a!r} against {b!r}")
        if a != b:
            s[idx[a]][idx[b]] += pts
    for i in range(k):
        for j in range(k):
            if i != j:
                s[i][j] += prior_draws / 2
    n = [[s[i][j] + s[j][i] for j in range(k)] for i in range(k)]

    def loglik(theta: list[float]) -> float:
        total = 0.0
        for i in range(k):
            for j in range(k):
                if i != j and s[i][j]:
                    x = theta[i] - theta[j]
                    total += s[i][j] * (-math.log1p(math.exp(-x)) if x > 0 else x - math.log1p(math.exp(x)))
        return total

    def grad_info(theta: list[float]) -> tuple[list[float], list[list[float]]]:
        g = [0.0] * k
        info = [[0.0] * k for _ in range(k)]
        for i in range(k):
            for j in range(k):
                if i == j or not n[i][j]:
                    continue
                p = _sigmoid(theta[i] - theta[j])
                g[i] += s[i][j] - n[i][j] * p
                w = n[i][j] * p * (1.0 - p)
                info[i][i] += w
                info[i][j] -= w
        return g, info

    # The likelihood only sees rating differences: pin theta[0] = 0 and work on the rest.
    theta = [0.0] * k
    current = loglik(theta)
    it = 0
    for it in range(1, max_iter + 1):
        g, info = grad_info(theta)
        step = _solve([row[1:] for row in info[1:]], g[1:])
        scale, improved = 1.0, False
        while scale > 1e-8:
            trial = [0.0] + [theta[i + 1] + scale * step[i] for i in range(k - 1)]
            value = loglik(trial)
            if value >= current - 1e-12:
                improved = True
                break
            scale /= 2
        if not improved:
            break
        theta, current = trial, value
        if max(abs(scale * x) for x in step) < 1e-10:
            break
    _, info = grad_info(theta)
    reduced_cov = _inverse([row[1:] for row in info[1:]])
    cov = [[0.0] * k for _ in range(k)]
    for i in range(1, k):
        for j in range(1, k):
            cov[i][j] = reduced_cov[i - 1][j - 1]
    # Centre: r = A theta with A = I - J/k, so Cov(r) = A Cov(theta) A^T.
    row_mean = [sum(cov[i]) / k for i in range(k)]
    total_mean = sum(row_mean) / k
    mean_theta = sum(theta) / k
    ratings, stderr, intervals = {}, {}, {}
    for i, name in enumerate(names):
        var = cov[i][i] - 2 * row_mean[i] + total_mean
        r = ELO_MEAN + ELO_SCALE * (theta[i] - mean_theta)
        se = ELO_SCALE * math.sqrt(max(var, 0.0))
        ratings[name], stderr[name] = r, se
        intervals[name] = (r - Z95 * se, r + Z95 * se)
    return EloFit(names, ratings, stderr, intervals, it)




@dataclass(frozen=True)
class Sprt:
    """The state of a sequential probability ratio test between two players (see :func:`sprt`):
    the log-likelihood ratio, its bounds, and the verdict once a bound is crossed: ``"H1"``
    (the first player is at least ``elo1`` stronger), ``"H0"`` (at most ``elo0``), or None."""

    llr: float
    lower: float
    upper: float
    verdict: str | None


def sprt(wins: int, draws: int, losses: int, elo0: float, elo1: float, alpha: float = 0.05,
         beta: float = 0.05) -> Sprt:
    """Wald's test of H0 "the first player is ``elo0`` Elo stronger" against H1 "``elo1``
    stronger", on its wins, draws and losses, with error rates ``alpha`` (accepting H1 wrongly)
    and ``beta`` (accepting H0 wrongly).

    The log-likelihood ratio is the generalised (normal) form used for game results: with the
    mean score ``m`` and its per-game variance ``v`` over ``n`` games, and ``s0``, ``s1`` the
    expected scores under the two hypotheses, LLR = n (s1 - s0) (2m - s0 - s1) / (2v). It stops
    at log(beta / (1 - alpha)) (H0) and log((1 - beta) / alpha) (H1)."""
    if not elo0 < elo1:
        raise ValueError(f"the SPRT needs elo0 < elo1, got {elo0} and {elo1}")
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError("alpha and beta must lie strictly between 0 and 1")
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = wins + draws + losses
    if n == 0:
        return Sprt(0.0, lower, upper, None)
    mean = (wins + draws / 2) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n
    if var <= 0:  # every game the same result: no spread to judge by yet
        var = 0.25 / n
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    verdict = "H1" if llr >= upper else "H0" if llr <= lower else None
    return Sprt(llr, lower, upper, verdict)


__all__ = ["ELO_MEAN", "PRIOR_DRAWS", "EloFit", "Sprt", "binomial_test", "expected_score", "fit_elo", "sprt"]
