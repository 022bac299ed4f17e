"""Tuning a card: its value at several settings of one of its numbers, and the setting at which
it is worth what its stand-in is (``starcom study tune``, docs/study.md "Tuning a card").

For each value tried, the card alone is studied (:mod:`.runner`) on a catalogue in which only
that number differs (the game's :meth:`~.hook.CardStudy.with_field`), every study with the same
seed, so on the same deals; each in a folder of its own under the tune's, so a tune resumes as
a study does. The card's values are then fitted with a straight line by weighted least squares
(each point weighted by the inverse of its squared standard error), with a 95% confidence band,
and the *fair value* is where the line crosses zero: the setting at which the card is worth its
stand-in. Its interval is the set of settings where the band contains zero (Fieller's
interval): bounded only when the slope is clearly not zero; otherwise the tune says that no
fair value can be read off. Nothing here knows a game: the game is reached through the
registry (:func:`.spec.study_of`) and its card study.
"""
from __future__ import annotations

import difflib
import json
import math
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from .runner import Outcome, max_pairs, run_study
from .spec import StudyError, StudySpec
from .stats import mean_interval

LEVEL = 0.95
TUNE_FILE = "tune.json"
PLOTS = ("tune.png", "tune.svg")
DEFAULT_SPAN = 2  # the default values: the card's own, and this many either side
_STEP = 0.5  # the smallest step of a pair's difference (a draw), for the variance floor


# --- the fit --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Line:
    """``value = intercept + slope * x``, fitted by weighted least squares, with the covariance
    of (intercept, slope). ``chi2`` is the weighted sum of squared residuals on ``dof`` degrees
    of freedom; when it shows more scatter than the points' errors explain (chi2 / dof > 1) the
    covariance is widened by that factor (``scale``), so that a line that does not quite fit
    does not claim a narrow band. ``z`` is the normal quantile of the band's level."""

    intercept: float
    slope: float
    cov: tuple[tuple[float, float], tuple[float, float]]
    chi2: float
    dof: int
    scale: float
    level: float = LEVEL

    @property
    def z(self) -> float:
        return NormalDist().inv_cdf(0.5 + self.level / 2.0)

    def at(self, x: float) -> float:
        return self.intercept + self.slope * x

    def se_at(self, x: float) -> float:
        (c00, c01), (_, c11) = self.cov
        return math.sqrt(max(0.0, c00 + 2.0 * x * c01 + x * x * c11))

    def band(self, x: float) -> tuple[float, float]:
        """The confidence band of the line at ``x``."""
        half = self.z * self.se_at(x)
        return self.at(x) - half, self.at(x) + half

    def to_json(self) -> dict[str, Any]:
        return {"model": "line", "intercept": self.intercept, "slope": self.slope,
                "covariance": [list(row) for row in self.cov], "chi2": self.chi2, "dof": self.dof,
                "scale": self.scale, "level": self.level}


def fit_line(xs: Sequence[float], ys: Sequence[float], ses: Sequence[float], level: float = LEVEL) -> Line:
    """The weighted least-squares line through the points ``(xs[i], ys[i])``, each with standard
    error ``ses[i]`` (> 0). ValueError for fewer than 2 distinct ``xs`` or a standard error that
    is not positive."""
    if not len(xs) == len(ys) == len(ses):
        raise ValueError("need as many values, estimates and standard errors")
    if len(set(xs)) < 2:
        raise ValueError(f"a line needs at least 2 distinct values, not {sorted(set(xs))}")
    if any(not (se > 0 and math.isfinite(se)) for se in ses):
        raise ValueError(f"standard errors must be positive, not {list(ses)}")
    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    w = 1.0 / np.asarray(ses, dtype=float) ** 2
    design = np.column_stack([np.ones_like(x), x])
    normal = design.T @ (design * w[:, None])
    cov = np.linalg.inv(normal)
    beta = cov @ (design.T @ (w * y))
    residual = y - design @ beta
    chi2 = float(np.sum(w * residual ** 2))
    dof = len(xs) - 2
    scale = max(1.0, chi2 / dof) if dof > 0 else 1.0
    cov = cov * scale
    return Line(float(beta[0]), float(beta[1]), ((float(cov[0, 0]), float(cov[0, 1])),
                                                 (float(cov[1, 0]), float(cov[1, 1]))), chi2, dof, scale, level)


@dataclass(frozen=True)
class FairValue:
    """Where the fitted line crosses zero (``estimate``; None for a flat line) and its interval:
    the values where the line's band contains zero. ``bounded`` is False when that set is not
    an interval with two ends (the slope is not clearly away from zero): then ``low`` and
    ``high`` are None and ``note`` says why."""

    estimate: float | None
    low: float | None
    high: float | None
    bounded: bool
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high, "bounded": self.bounded,
                "note": self.note}


def fair_value(line: Line) -> FairValue:
    """The zero crossing of ``line`` with Fieller's interval: the x where
    ``|a + b x| <= z * se(x)``, the roots of ``(b^2 - z^2 c11) x^2 + 2 (a b - z^2 c01) x +
    (a^2 - z^2 c00) <= 0``. Bounded when ``b^2 > z^2 c11``, that is when the slope's own
    interval excludes zero."""
    a, b, z = line.intercept, line.slope, line.z
    (c00, c01), (_, c11) = line.cov
    estimate = -a / b if b != 0 else None
    quad = b * b - z * z * c11
    if quad <= 0:
        slope_half = z * math.sqrt(c11)
        return FairValue(estimate, None, None, False,
                         f"the card's value does not change clearly with this number (slope {b:+.4f} ± "
                         f"{slope_half:.4f} per step): the line's band holds zero over an unbounded range, so "
                         "no fair value can be read off; try values further apart or more games")
    half_b = a * b - z * z * c01
    const = a * a - z * z * c00
    disc = max(0.0, half_b * half_b - quad * const)
    root = math.sqrt(disc)
    return FairValue(estimate, (-half_b - root) / quad, (-half_b + root) / quad, True)


# --- the values to try ------------------------------------------------------------------------------

def parse_values(values: str | None, span: str | None, current: int) -> list[int]:
    """The values to try: ``values`` ("3,4,5"), or ``span`` ("LO:HI" or "LO:HI:STEP", both ends
    included), or the card's ``current`` value and :data:`DEFAULT_SPAN` either side (those
    below zero left out). Sorted, each once. StudyError for both given, a value that is no
    whole number, an empty range, or fewer than 2 distinct values."""
    if values is not None and span is not None:
        raise StudyError("give --values or --range, not both")
    if values is not None:
        parts = [p.strip() for p in values.split(",") if p.strip()]
        out = [_whole(p, "--values") for p in parts]
        where = f"--values {values}" if values.strip() else "--values (empty)"
    elif span is not None:
        bits = [p.strip() for p in span.split(":")]
        if len(bits) not in (2, 3):
            raise StudyError(f"--range {span}: give LO:HI or LO:HI:STEP (whole numbers), e.g. 2:6 or 2:8:2")
        lo, hi = _whole(bits[0], "--range"), _whole(bits[1], "--range")
        step = _whole(bits[2], "--range") if len(bits) == 3 else 1
        if step < 1:
            raise StudyError(f"--range {span}: the step must be 1 or more, not {step}")
        out = list(range(lo, hi + 1, step))
        if not out:
            raise StudyError(f"--range {span}: empty (LO must not be above HI)")
        where = f"--range {span}"
    else:
        out = [v for v in range(current - DEFAULT_SPAN, current + DEFAULT_SPAN + 1) if v >= 0]
        where = f"the default values around {current}"
    distinct = sorted(set(out))
    if len(distinct) < 2:
        raise StudyError(f"{where}: a tune needs at least 2 distinct values to fit a line, not "
                         f"{', '.join(map(str, distinct)) or 'none'}")
    return distinct


def _whole(text: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise StudyError(f"{option}: {text!r} is not a whole number (a card's numbers are whole)") from None


# --- planning and running -----------------------------------------------------------------------

@dataclass(frozen=True)
class TunePlan:
    """A checked tune: the card, the field, its current value, and one study per value tried
    (each the card alone, on the catalogue with the field set, in a folder of its own)."""

    base: StudySpec
    card: str
    field: str
    current: int
    studies: tuple[tuple[int, StudySpec], ...]
    out: Path

    @property
    def values(self) -> list[int]:
        return [v for v, _ in self.studies]


def folder_name(field: str, value: int) -> str:
    return f"{field}-{value}"


def plan(base: StudySpec, card: str, field: str | None, values: str | None, span: str | None) -> TunePlan:
    """Check everything a tune of ``card``'s ``field`` needs before a game is played (StudyError
    names what is wrong): ``base`` is the study's settings (its ``out`` the tune's folder)."""
    study, settings = base.study, base.settings
    if not callable(getattr(study, "fields", None)) or not callable(getattr(study, "with_field", None)):
        raise StudyError(f"--game {base.game}: {base.entry.title}'s card study cannot change a card's numbers "
                         "(its study hook has no fields and with_field, docs/study.md)")
    names = list(study.card_names(settings))
    if card not in names:
        close = difflib.get_close_matches(card, names, n=4, cutoff=0.5) or \
            [n for n in names if card.lower() in n.lower()][:4]
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise StudyError(f"no card named {card!r} in {study.catalogue_name(settings)} (names are "
                         f"case-sensitive){hint}")
    if card not in study.studied(settings):
        raise StudyError(f"{card} cannot be studied: {study.why_not_studied(settings, card)}")
    try:
        fields = dict(study.fields(settings, card))
    except ValueError as exc:
        raise StudyError(str(exc)) from None
    if not fields:
        raise StudyError(f"{card} ({study.kind(settings, card)}) has no numbers to tune")
    listed = ", ".join(f"{k} (now {v})" for k, v in fields.items())
    if field is None:
        raise StudyError(f"--field: give one of {card}'s numbers: {listed}")
    if field not in fields:
        raise StudyError(f"--field {field}: {card} has no such number; its numbers: {listed}")
    current = fields[field]
    tried = parse_values(values, span, current)
    out = Path(base.out)
    studies = []
    for v in tried:
        try:
            changed = study.with_field(settings, card, field, v)
        except ValueError as exc:
            raise StudyError(f"{field} {v}: {exc}") from None
        spec = replace(base, only=(card,), catalogue_text=changed.catalogue_text,
                       cards_file=changed.catalogue_name, out=str(out / folder_name(field, v)))
        spec.validate()
        studies.append((v, spec))
    return TunePlan(base, card, field, current, tuple(studies), out)


@dataclass(frozen=True)
class TuneOutcome:
    """A finished tune: the plan, each study's outcome by value, and the time it took."""

    plan: TunePlan
    outcomes: tuple[tuple[int, Outcome], ...]
    seconds: float


def run_tune(p: TunePlan, on_pair: Callable[[int, int], None] | None = None,
             on_study: Callable[[int, StudySpec], None] | None = None) -> TuneOutcome:
    """Run (or resume) every study of ``p`` in turn. ``on_pair(done, upper_bound)`` hears of
    each pair finished over the whole tune; ``on_study(value, spec)`` of each study begun."""
    start = time.perf_counter()
    most = max_pairs(p.base)
    before = 0  # pairs fed to the studies already finished
    outcomes = []
    for k, (value, spec) in enumerate(p.studies):
        left = (len(p.studies) - k - 1) * most
        if on_study is not None:
            on_study(value, spec)

        def hear(done: int, upper: int, before: int = before, left: int = left) -> None:
            if on_pair is not None:
                on_pair(before + done, before + upper + left)
        outcome = run_study(spec, hear)
        before += sum(len(c.pairs) for c in outcome.cards.values())
        if on_pair is not None:
            on_pair(before, before + left)
        outcomes.append((value, outcome))
    return TuneOutcome(p, tuple(outcomes), time.perf_counter() - start)


# --- results -----------------------------------------------------------------------------------

def point(value: int, outcome: Outcome, card: str) -> dict[str, Any]:
    """One value's point: the card's value (mean difference) with its 95% interval, standard
    error (floored as the study's intervals are, so that equal results do not weigh infinitely),
    games and why its study stopped."""
    progress = outcome.cards[card]
    diffs = [r.difference for r in progress.pairs]
    iv = mean_interval(diffs)
    n = len(diffs)
    mean = iv.estimate
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 1.0
    se = math.sqrt(max(var, _STEP * _STEP / (n + 1)) / max(n, 1))
    return {"field_value": value, "value": round(mean, 6), "ci_low": round(iv.low, 6), "ci_high": round(iv.high, 6),
            "se": round(se, 6), "games": 2 * n, "pairs": n, "stop": progress.rule.decision.reason or "max_games",
            "folder": Path(outcome.spec.out).name}


def results(t: TuneOutcome) -> dict[str, Any]:
    """What ``tune.json`` holds (see docs/study.md, "Tuning a card")."""
    p = t.plan
    points = [point(v, o, p.card) for v, o in t.outcomes]
    line = fit_line([q["field_value"] for q in points], [q["value"] for q in points], [q["se"] for q in points])
    fair = fair_value(line)
    key = {k: v for k, v in p.base.key().items() if k not in ("cards", "catalogue")}
    key["catalogue"] = p.base.cards_file or "built-in"
    data = {"card": p.card, "field": p.field, "current": p.current, "game": p.base.game,
            "kind": p.base.study.kind(p.base.settings, p.card), "settings": key, "points": points,
            "fit": line.to_json(), "fair_value": fair.to_json(),
            "inside_tried": bool(fair.estimate is not None and min(p.values) <= fair.estimate <= max(p.values)),
            "run": {"seconds": round(t.seconds, 1), "pairs_played": sum(o.pairs_played for _, o in t.outcomes),
                    "pairs_reused": sum(o.pairs_reused for _, o in t.outcomes)}}
    data["verdict"] = verdict(data)
    return data


def verdict(data: dict[str, Any]) -> str:
    """One sentence: the fair value with its interval, and the card's own."""
    card, field, current = data["card"], data["field"], data["current"]
    own = f"{card} costs {current}" if field == "cost" else f"{card} has {field} {current}"
    fair = data["fair_value"]
    if not fair["bounded"]:
        return f"no fair {field} found: {fair['note']}; {own}"
    est, lo, hi = fair["estimate"], fair["low"], fair["high"]
    where = "within the interval" if lo <= current <= hi else \
        f"{'above' if current > hi else 'below'} the interval"
    beyond = "" if data.get("inside_tried", True) else " (outside the values tried: the line is extended)"
    return f"fair {field} ≈ {est:.1f} [{lo:.1f}, {hi:.1f}]{beyond}; {own} ({where})"


def write(t: TuneOutcome) -> dict[str, Any]:
    """Write ``tune.json`` and the plot (``tune.png``, ``tune.svg``) into the tune's folder."""
    data = results(t)
    out = t.plan.out
    out.mkdir(parents=True, exist_ok=True)
    (out / TUNE_FILE).write_text(json.dumps(data, indent=1) + "\n", "utf-8")
    plot(data, out)
    return data


def plot(data: dict[str, Any], out: Path) -> list[Path]:
    """The points with their intervals, the fitted line and its band, the zero line, the fair
    value (and its interval) and the card's own value, as PNG and SVG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = data["points"]
    xs = [q["field_value"] for q in pts]
    fit, fair = data["fit"], data["fair_value"]
    (c00, c01), (c10, c11) = fit["covariance"]
    line = Line(fit["intercept"], fit["slope"], ((c00, c01), (c10, c11)), fit["chi2"], fit["dof"], fit["scale"],
                fit["level"])
    lo, hi = min(xs), max(xs)
    if fair["bounded"]:  # show the crossing, within reason, when it lies beyond the values tried
        lo, hi = min(lo, max(fair["estimate"], lo - 3 * (hi - lo))), max(hi, min(fair["estimate"], hi + 3 * (hi - lo)))
    pad = 0.05 * (hi - lo) + 0.25
    grid = np.linspace(lo - pad, hi + pad, 200)
    band = np.array([line.band(float(x)) for x in grid])
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.fill_between(grid, band[:, 0], band[:, 1], color="#aed6f1", alpha=0.6, label=f"{fit['level']:.0%} band")
    ax.plot(grid, [line.at(float(x)) for x in grid], color="#2471a3", lw=1.5, label="weighted fit")
    ax.errorbar(xs, [q["value"] for q in pts], yerr=[[q["value"] - q["ci_low"] for q in pts],
                                                     [q["ci_high"] - q["value"] for q in pts]],
                fmt="o", color="#222222", capsize=3, label="card's value (95% interval)")
    ax.axhline(0, color="#888888", lw=0.8, ls="--")
    ax.axvline(data["current"], color="#7d3c98", lw=1, ls=":", label=f"now: {data['current']}")
    if fair["bounded"]:
        ax.axvspan(max(fair["low"], lo - pad), min(fair["high"], hi + pad), color="#f5b7b1", alpha=0.35)
        ax.axvline(fair["estimate"], color="#c0392b", lw=1.2,
                   label=f"fair: {fair['estimate']:.1f} [{fair['low']:.1f}, {fair['high']:.1f}]")
    ax.set_xlabel(f"{data['card']}: {data['field']}")
    ax.set_ylabel("value (change in win rate)")
    title = data["verdict"] if fair["bounded"] else \
        f"{data['card']}: no fair {data['field']} found (the slope is not clearly away from zero)"
    ax.set_title("\n".join(textwrap.wrap(title, 90)), fontsize=8)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    paths = [out / name for name in PLOTS]
    for path in paths:
        fig.savefig(path)
    plt.close(fig)
    return paths


__all__ = ["FairValue", "Line", "TuneOutcome", "TunePlan", "fair_value", "fit_line", "parse_values", "plan",
           "results", "run_tune", "verdict", "write"]
