"""``starcom study validate``: does the study tell the truth? Three checks, each made of whole
studies (every one resumable in its own folder under the validation's folder), for any game
whose card study can plant a change (its ``planting``, :class:`Planting`):

- **A/A.** Studies in which nothing is treated and the control game is an independent game
  (:func:`.pairs.play_pair`), so every true value is zero. The share of 95% intervals that
  cover zero should be near 95%, the share of cards called ``even`` as high, and at most one
  run in twenty should flag any card.
- **Planted imbalance.** Studies of a catalogue in which one card of the panel was changed
  markedly, stronger or weaker (the game's :attr:`Planting.changes`). The changed card should
  rank first (last, when weakened) with a value of the right sign, and be *found*: called
  ``strong`` when strengthened, ``weak`` or ``dead`` when weakened (a weakened card the agents
  stop playing changes no game; its play rate tells, :mod:`.verdict`).
- **Sweep.** The first change at smaller factors: the smallest one still detected.
- **Tune.** A panel card's price (the planting's ``cost_field``) moved by +2 or -2, its
  stand-in kept as it was: ``study tune`` of that price (:mod:`.tune`, default values) should
  find the card's own price again, within 1.

Every planted run also reports how many games the paired, sequential comparison used against a
fixed-size unpaired test with the same error rates (:func:`.stats.fixed_unpaired_games`).
"""
from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from .hook import Planting, Settings
from .pairs import PairResult
from .report import results
from .runner import LOG, run_study
from .spec import DEFAULT_PRECISION, StudyError, StudySpec
from .stats import fixed_paired_games, fixed_unpaired_games

T = TypeVar("T")
PARTS = ("aa", "planted", "sweep", "tune")
TUNE_SHIFTS = (2, -2)  # how far the tune check moves a price
TUNE_TOLERANCE = 1.0  # how close the fair price found must come to the card's own


def planting_of(spec: StudySpec) -> Planting:
    """The planting of the game ``spec`` studies; StudyError if the game has none."""
    planting: Planting | None = getattr(spec.study, "planting", None)
    if planting is None:
        raise StudyError(f"--game {spec.game}: {spec.entry.title}'s study cannot plant changes, so it has no "
                         "validation")
    return planting


@dataclass(frozen=True)
class ValidationSpec:
    """How big the validation is, and the study settings every run shares (``panel`` empty: the
    game's own; ``players``, ``size`` and ``edition`` None: the game's defaults)."""

    game: str
    runs: int = 20
    panel: tuple[str, ...] = ()
    agents: tuple[str, ...] = ("greedy",)
    players: int | None = None
    size: int | None = None
    edition: str | None = None
    max_games: int = 200
    precision: float = DEFAULT_PRECISION  # 0: every card to max_games
    seed: int = 0
    workers: int = 1
    backend: str = "local"
    address: str | None = None
    out: str = "validate"
    sweep: tuple[float, ...] = (2.0, 1.5, 1.25)
    tune_runs: int = 10

    def study(self, name: str, seed: int, planted: Settings | None = None, aa: bool = False) -> StudySpec:
        """The study of one run, in its own folder: of ``planted``'s catalogue, if given."""
        given: dict[str, Any] = {k: v for k, v in (("players", self.players), ("size", self.size),
                                                   ("edition", self.edition)) if v is not None}
        if self.panel:
            given["only"] = self.panel
        spec = StudySpec.checked(game=self.game, agents=self.agents,
                                 max_games=self.max_games, precision=self.precision or None, seed=seed,
                                 workers=self.workers, backend=self.backend, address=self.address,
                                 out=str(Path(self.out) / name), **given)
        if not self.panel:
            spec = replace(spec, only=planting_of(spec).panel)
            spec.validate()
        if planted is not None:
            spec = replace(spec, catalogue_text=planted.catalogue_text, cards_file=planted.catalogue_name)
        return replace(spec, aa=aa)


Progress = Callable[[str], None]


def planted_plan(cards: Sequence[str], changes: Sequence[T], runs: int) -> list[tuple[str, T]]:
    """The card changed and the change of each planted run: the cards in turn, and the change
    moving on by one more every time the cards come round, so that each card meets every
    change (with four cards and four changes, taking both in turn would pair them for good)."""
    return [(cards[r % len(cards)], changes[(r + r // len(cards)) % len(changes)]) for r in range(runs)]


def found(stronger: bool, verdict: str) -> bool:
    """Whether a planted change was found: a strengthened card must be called strong; a
    weakened one weak, or dead (the agents stopped playing it, so it changes no game)."""
    return verdict == "strong" if stronger else verdict in ("weak", "dead")


def check_aa(v: ValidationSpec, say: Progress) -> dict[str, Any]:
    """The A/A runs: coverage of zero, the share of cards called even (no card differs from
    itself, so every other verdict is a false one) and runs with a false alarm."""
    covered = even = total = alarms = 0
    for r in range(v.runs):
        say(f"A/A run {r + 1} of {v.runs}")
        data = results(run_study(v.study(f"aa-{r:02d}", v.seed + r, aa=True)))
        total += len(data["cards"])
        covered += sum(c["ci_low"] <= 0 <= c["ci_high"] for c in data["cards"])
        even += sum(c["verdict"] == "even" for c in data["cards"])
        alarms += any(c["flagged"] for c in data["cards"])
    return {"runs": v.runs, "card_values": total, "coverage": covered / total if total else None,
            "called_even": even / total if total else None, "runs_with_a_false_alarm": alarms}


def _plantable(base: StudySpec, planting: Planting, what: str) -> list[str]:
    cards = [c for c in base.only if planting.plantable(base.settings, c)]
    if not cards:
        raise StudyError(f"--panel: the {what} changes {planting.target}; name at least one")
    return cards


def check_planted(v: ValidationSpec, say: Progress) -> dict[str, Any]:
    """The planted runs: was the changed card ranked where it belongs, with the right sign, and
    found (:func:`found`)?"""
    base = v.study("planted", v.seed)
    planting = planting_of(base)
    rows = []
    for r, (card, change) in enumerate(planted_plan(_plantable(base, planting, "planted check"),
                                                    planting.changes, v.runs)):
        say(f"planted run {r + 1} of {v.runs}: {card}, {change.name}")
        name = f"planted-{r:02d}"
        data = results(run_study(v.study(name, v.seed + 1000 + r, planting.plant(base.settings, card, change.name,
                                                                                  2.0))))
        entry = next(c for c in data["cards"] if c["card"] == card)
        pairs = _pairs(v, name, card)
        others = [c["value"] for c in data["cards"] if c["card"] != card]
        up = change.stronger
        # Strictly first (last): a tie, common where cards changed no game, is not a ranking.
        rank_ok = all(entry["value"] > o for o in others) if up else all(entry["value"] < o for o in others)
        sign_ok = entry["value"] > 0 if up else entry["value"] < 0
        rows.append({"card": card, "change": change.name, "stronger": up, "value": entry["value"],
                     "ci_low": entry["ci_low"], "ci_high": entry["ci_high"], "games": entry["games"],
                     "rank_ok": rank_ok, "sign_ok": sign_ok, "verdict": entry["verdict"],
                     "found": found(up, entry["verdict"]), **_played(pairs, card),
                     "efficiency": _efficiency(pairs, entry, data)})
    ratios = [row["efficiency"]["ratio"] for row in rows if row["efficiency"]["ratio"] is not None]
    up_rows = [row for row in rows if row["stronger"]]
    down_rows = [row for row in rows if not row["stronger"]]
    return {"runs": rows, "ranked_right": sum(row["rank_ok"] for row in rows),
            "sign_right": sum(row["sign_ok"] for row in rows),
            "stronger_found": sum(row["found"] for row in up_rows), "stronger_runs": len(up_rows),
            "weaker_found": sum(row["found"] for row in down_rows), "weaker_runs": len(down_rows),
            "median_games_ratio": statistics.median(ratios) if ratios else None}


def _pairs(v: ValidationSpec, run: str, card: str) -> list[PairResult]:
    """The pairs of ``card`` in the run ``run``, as its log keeps them."""
    lines = (Path(v.out) / run / LOG).read_text("utf-8").splitlines()
    return [r for r in (PairResult.from_json(json.loads(line)) for line in lines) if r.card == card]


def _played(pairs: list[PairResult], card: str) -> dict[str, Any]:
    """How the agents used the changed card, over its ``pairs``: the share of pairs in which the
    treated seat built or played the real card (``treated_played``), the share in which it did
    so with the stand-in in the control game (``control_played``; a game records the card by
    its name either way), and the share of pairs whose games ended alike (``no_difference``)."""
    n = len(pairs) or 1
    return {"treated_played": round(sum(card in r.treated.played[r.seat] for r in pairs) / n, 4),
            "control_played": round(sum(card in r.control.played[r.seat] for r in pairs) / n, 4),
            "no_difference": round(sum(r.difference == 0 for r in pairs) / n, 4)}


def _efficiency(pairs: list[PairResult], entry: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """How many games the study's design needs for the effect this run found, against a fixed
    unpaired test with the same error rates (the per-card alarm rate, power 0.8), from the
    outcomes of ``pairs``, the card's pairs in the run's log (those past the comparison's end
    left out):

    - ``paired_games``: a fixed-size test on the pairs' differences (what pairing alone saves);
    - ``games_used``: the games the sequential comparison used, when it stopped early
      (``excluded_zero``); None when it ran on without deciding;
    - ``ratio``: ``games_used`` if the comparison stopped early, else ``paired_games``, divided
      by ``unpaired_games``."""
    pairs = [r for r in pairs if r.pair < entry["pairs"]]
    treated = [r.treated.score(r.seat) for r in pairs]
    control = [r.control.score(r.seat) for r in pairs]
    effect = abs(entry["value"])
    diffs = [r.difference for r in pairs]
    none = {"paired_games": None, "unpaired_games": None, "games_used": None, "ratio": None}
    if effect == 0 or len(diffs) < 2 or not statistics.stdev(diffs) > 0:
        return none
    alpha = data["settings"]["alpha"] / len(data["cards"])
    unpaired = 2 * fixed_unpaired_games(effect, statistics.stdev(treated), statistics.stdev(control), alpha, 0.8)
    paired = 2 * fixed_paired_games(effect, statistics.stdev(diffs), alpha, 0.8)
    used = entry["games"] if entry["stop"] == "excluded_zero" else None
    return {"paired_games": paired, "unpaired_games": unpaired, "games_used": used,
            "ratio": (used if used is not None else paired) / unpaired}


def check_sweep(v: ValidationSpec, say: Progress) -> dict[str, Any]:
    """The smallest strengthening (the game's first change) of the first panel card it applies
    to that is still ranked first, with an interval above zero."""
    base = v.study("sweep", v.seed)
    planting = planting_of(base)
    card = _plantable(base, planting, "sweep")[0]
    change = planting.changes[0]
    rows = []
    for factor in v.sweep:
        say(f"sweep: {card} x{factor}")
        data = results(run_study(v.study(f"sweep-{factor}", v.seed + 2000,
                                         planting.plant(base.settings, card, change.name, factor))))
        entry = next(c for c in data["cards"] if c["card"] == card)
        rows.append({"factor": factor, "value": entry["value"], "ci_low": entry["ci_low"], "ci_high": entry["ci_high"],
                     "ranked_first": all(entry["value"] > c["value"] for c in data["cards"] if c["card"] != card)})
    detected = [r["factor"] for r in rows if r["ranked_first"] and r["ci_low"] > 0]
    return {"card": card, "change": change.name, "runs": rows,
            "smallest_detected": min(detected) if detected else None}


def check_tune(v: ValidationSpec, say: Progress) -> dict[str, Any]:
    """The tune check: does ``study tune`` find a moved price again? Each run moves a panel
    card's price by one of :data:`TUNE_SHIFTS` (the cards in turn, the shift moving on as in
    :func:`planted_plan`), its stand-in kept as it was, then tunes that price over its default
    values; found when the fair price lies within :data:`TUNE_TOLERANCE` of the card's own."""
    from .tune import plan, run_tune, write as write_tune  # numpy and matplotlib: only for this check
    base = v.study("tune", v.seed)
    planting = planting_of(base)
    field = planting.cost_field
    if field is None:
        raise StudyError(f"--part tune: {base.entry.title}'s stand-ins cannot show a card's price (a blank is worth "
                         "nothing at any price), so it has no tune check; its checks: aa, planted, sweep")
    study = base.study
    rows = []
    for r, (card, shift) in enumerate(planted_plan(_plantable(base, planting, "tune check"), TUNE_SHIFTS,
                                                   v.tune_runs)):
        own = int(study.fields(base.settings, card)[field])
        moved = max(0, own + shift)
        say(f"tune run {r + 1} of {v.tune_runs}: {card}, {field} {own} moved to {moved}")
        try:
            settings = study.with_field(base.settings, card, field, moved)
        except ValueError as exc:
            raise StudyError(str(exc)) from None
        # as `study tune` plays by default: every value to max_games (a precision stop would leave
        # the values near the fair price at a few dozen pairs, too blunt for the line's slope)
        spec = replace(base, catalogue_text=settings.catalogue_text, cards_file=settings.catalogue_name,
                       seed=v.seed + 3000 + r, precision=None, out=str(Path(v.out) / f"tune-{r:02d}"))
        data = write_tune(run_tune(plan(spec, card, field, None, None)))
        fair = data["fair_value"]
        ok = fair["bounded"] and fair["estimate"] is not None and abs(fair["estimate"] - own) <= TUNE_TOLERANCE
        rows.append({"card": card, "field": field, "own": own, "moved_to": moved,
                     "values": [q["field_value"] for q in data["points"]], "fair": fair["estimate"],
                     "fair_low": fair["low"], "fair_high": fair["high"], "found": bool(ok),
                     "games": sum(q["games"] for q in data["points"])})
    return {"runs": rows, "found": sum(row["found"] for row in rows), "tolerance": TUNE_TOLERANCE}


def parts_of(v: ValidationSpec) -> tuple[str, ...]:
    """Every check the game of ``v`` has, in order: the tune check only where its planting
    names a price (:attr:`~.hook.Planting.cost_field`)."""
    return tuple(p for p in PARTS if p != "tune" or planting_of(v.study("check", v.seed)).cost_field is not None)


def validate(v: ValidationSpec, parts: tuple[str, ...], say: Progress = lambda s: None) -> dict[str, Any]:
    """Run the asked ``parts`` (of :data:`PARTS`, in that order) and write ``validate.json``
    (after each part; the figures of other parts already there, from the same settings, are
    kept). StudyError names a setting that cannot be used, before any game."""
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise StudyError(f"--part: no check named {', '.join(unknown)}; the checks: {', '.join(PARTS)}")
    base = v.study("check", v.seed)  # every setting checked (the panel's names too) before any game
    planting_of(base)
    settings = {k: val for k, val in asdict(v).items() if k not in ("workers", "backend", "address", "out")}
    settings["panel"] = list(base.only)
    path = Path(v.out) / "validate.json"
    out: dict[str, Any] = {"settings": settings}
    try:  # the figures of parts run earlier with the same settings are kept
        earlier = json.loads(path.read_text("utf-8"))
        if json.loads(json.dumps(settings)) == earlier.get("settings"):
            out = earlier
    except (OSError, ValueError, AttributeError):
        pass
    checks = {"aa": check_aa, "planted": check_planted, "sweep": check_sweep, "tune": check_tune}
    for part in parts:
        out[part] = checks[part](v, say)
        Path(v.out).mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out, indent=1), "utf-8")
    return out


__all__ = ["PARTS", "TUNE_SHIFTS", "TUNE_TOLERANCE", "ValidationSpec", "check_aa", "check_planted", "check_sweep",
           "check_tune", "found", "parts_of", "planted_plan", "planting_of", "validate"]
