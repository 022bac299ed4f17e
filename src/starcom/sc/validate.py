"""``starcom study validate``: does the study tell the truth? Three checks, each made of whole
studies (every one resumable in its own folder under the validation's folder):

- **A/A.** Studies in which nothing is treated and the control game is an independent game
  (:func:`pairs.play_pair`), so every true value is zero. The share of 95% intervals that
  cover zero should be near 95%, and at most one run in twenty should flag any card.
- **Planted imbalance.** Studies of a catalogue in which one card was changed markedly: a
  ship's attack and hit points doubled or its cost halved (stronger), or the reverse (weaker).
  The changed card should rank first (last, when weakened) with a value of the right sign.
  A sweep of smaller changes finds the smallest one still detected.
- **Efficiency.** The games the paired, sequential comparison used for each planted card,
  against the games a fixed-size unpaired test with the same error rates would need to
  detect the same effect (:func:`stats.fixed_unpaired_games`).
"""
from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from .cards.catalogue import STANDARD, Catalogue
from ..study.report import results
from ..study.runner import run_study
from ..study.spec import StudyError, StudySpec
from ..study.stats import fixed_paired_games, fixed_unpaired_games

# Ships the greedy AI builds often (in 4,800 games on 2-player 3x3, per game: Battleship 1.3,
# Cruiser 1.3, Destroyer 0.75, Frigate 0.5): the panel every run studies, and the cards changed
# in the planted runs. Each is worth about zero unchanged (within 0.015 over 750 pairs), which
# the ranking needs: a card with a value of its own holds the first or last place whatever is
# planted. So the Defense Station, built in every game, is left out: to the greedy AI it is worth
# well below its stand-in (-0.14). The Strike Fighter is its own stand-in (worth exactly zero).
PANEL = ("Battleship", "Cruiser", "Destroyer", "Frigate")
CHANGES = ("double attack and hit points", "halve cost", "halve attack and hit points", "double cost")


@dataclass(frozen=True)
class ValidationSpec:
    """How big the validation is, and the study settings every run shares."""

    runs: int = 20
    panel: tuple[str, ...] = PANEL
    agents: tuple[str, ...] = ("greedy",)
    players: int = 2
    size: int = 3
    max_games: int = 200
    seed: int = 0
    workers: int = 1
    backend: str = "local"
    address: str | None = None
    out: str = "validate"
    sweep: tuple[float, ...] = (2.0, 1.5, 1.25)

    def study(self, name: str, seed: int, catalogue: Catalogue | None = None, aa: bool = False) -> StudySpec:
        """The study of one run, in its own folder."""
        spec = StudySpec.checked(only=self.panel, agents=self.agents, players=self.players, size=self.size,
                                 max_games=self.max_games, seed=seed, workers=self.workers, backend=self.backend,
                                 address=self.address,
                                 out=str(Path(self.out) / name))
        return replace(spec, catalogue_text=catalogue.to_toml() if catalogue else "", aa=aa,
                       cards_file=f"planted:{name}" if catalogue else None)


def planted(card: str, change: str, factor: float = 2.0) -> Catalogue:
    """The standard catalogue with ``card`` changed as ``change`` says (by ``factor``)."""
    d = STANDARD.card(card)
    if change == "double attack and hit points":
        return STANDARD.replaced(card, attack=round(d.attack * factor), hp=round(d.hp * factor))
    if change == "halve attack and hit points":
        return STANDARD.replaced(card, attack=max(0, round(d.attack / factor)), hp=max(1, round(d.hp / factor)))
    if change == "halve cost":
        return STANDARD.replaced(card, cost=max(1, round(d.cost / factor)))
    if change == "double cost":
        return STANDARD.replaced(card, cost=round(d.cost * factor))
    raise ValueError(f"unknown change {change!r}: one of {', '.join(CHANGES)}")


def planted_plan(ships: Sequence[str], runs: int) -> list[tuple[str, str]]:
    """The card changed and the change of each planted run: the cards in turn, and the change
    moving on by one more every time the cards come round, so that each card meets every
    change (with four cards and four changes, taking both in turn would pair them for good)."""
    return [(ships[r % len(ships)], CHANGES[(r + r // len(ships)) % len(CHANGES)]) for r in range(runs)]


def stronger(change: str) -> bool:
    return change in ("double attack and hit points", "halve cost")


Progress = Callable[[str], None]


def check_aa(v: ValidationSpec, say: Progress) -> dict[str, Any]:
    """The A/A runs: coverage of zero and runs with a false alarm."""
    covered = total = alarms = 0
    for r in range(v.runs):
        say(f"A/A run {r + 1} of {v.runs}")
        data = results(run_study(v.study(f"aa-{r:02d}", v.seed + r, aa=True)))
        total += len(data["cards"])
        covered += sum(c["ci_low"] <= 0 <= c["ci_high"] for c in data["cards"])
        alarms += any(c["flagged"] for c in data["cards"])
    return {"runs": v.runs, "card_values": total, "coverage": covered / total if total else None,
            "runs_with_a_false_alarm": alarms}


def check_planted(v: ValidationSpec, say: Progress) -> dict[str, Any]:
    """The planted runs: was the changed card ranked where it belongs, with the right sign?"""
    rows = []
    ships = [c for c in v.panel if STANDARD.card(c).is_vessel]  # the changes are to ships' numbers
    if not ships:
        raise StudyError("--panel: the planted check changes a ship or station; name at least one")
    for r, (card, change) in enumerate(planted_plan(ships, v.runs)):
        say(f"planted run {r + 1} of {v.runs}: {card}, {change}")
        data = results(run_study(v.study(f"planted-{r:02d}", v.seed + 1000 + r, planted(card, change))))
        entry = next(c for c in data["cards"] if c["card"] == card)
        pairs = _pairs(v, r, card)
        others = [c["value"] for c in data["cards"] if c["card"] != card]
        up = stronger(change)
        # Strictly first (last): a tie, common where cards changed no game, is not a ranking.
        rank_ok = all(entry["value"] > o for o in others) if up else all(entry["value"] < o for o in others)
        sign_ok = entry["value"] > 0 if up else entry["value"] < 0
        rows.append({"card": card, "change": change, "value": entry["value"], "ci_low": entry["ci_low"],
                     "ci_high": entry["ci_high"], "games": entry["games"], "rank_ok": rank_ok, "sign_ok": sign_ok,
                     **_played(pairs, card), "efficiency": _efficiency(pairs, entry, data)})
    ratios = [row["efficiency"]["ratio"] for row in rows if row["efficiency"]["ratio"] is not None]
    return {"runs": rows, "ranked_right": sum(row["rank_ok"] for row in rows),
            "sign_right": sum(row["sign_ok"] for row in rows),
            "median_games_ratio": statistics.median(ratios) if ratios else None}


def _pairs(v: ValidationSpec, run: int, card: str) -> list[dict[str, Any]]:
    """The pairs of ``card`` in planted run ``run``, as its log keeps them."""
    lines = (Path(v.out) / f"planted-{run:02d}" / "pairs.jsonl").read_text("utf-8").splitlines()
    return [p for p in map(json.loads, lines) if p["card"] == card]


def _played(pairs: list[dict[str, Any]], card: str) -> dict[str, Any]:
    """How the agents used the changed card, over its ``pairs``: the share of pairs in which the treated seat built
    or played the real card (``treated_played``), the share in which it did so with the
    stand-in in the control game (``control_played``; a game records the card by its name
    either way), and the share of pairs whose games ended alike (``no_difference``)."""
    n = len(pairs) or 1
    return {"treated_played": round(sum(card in p["treated"]["played"][p["seat"]] for p in pairs) / n, 4),
            "control_played": round(sum(card in p["control"]["played"][p["seat"]] for p in pairs) / n, 4),
            "no_difference": round(sum(_score(p, "treated") == _score(p, "control") for p in pairs) / n, 4)}


def _score(pair: dict[str, Any], game: str) -> float:
    w = pair[game]["winner"]
    return 0.5 if w is None or w < 0 else 1.0 if w == pair["seat"] else 0.0


def _efficiency(pairs: list[dict[str, Any]], entry: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """How many games the study's design needs for the effect this run found, against a fixed
    unpaired test with the same error rates (the per-card alarm rate, power 0.8), from the
    outcomes of ``pairs``, the card's pairs in the run's log (those past the comparison's end
    left out):

    - ``paired_games``: a fixed-size test on the pairs' differences (what pairing alone saves);
    - ``games_used``: the games the sequential comparison used, when it stopped early
      (``excluded_zero``); None when it ran to ``--max-games`` without deciding;
    - ``ratio``: ``games_used`` if the comparison stopped early, else ``paired_games``, divided
      by ``unpaired_games``."""
    pairs = [p for p in pairs if p["pair"] < entry["pairs"]]
    treated = [_score(p, "treated") for p in pairs]
    control = [_score(p, "control") for p in pairs]
    effect = abs(entry["value"])
    diffs = [t - c for t, c in zip(treated, control)]
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
    """The smallest strengthening of the first panel card that is still ranked first."""
    card = next((c for c in v.panel if STANDARD.card(c).is_vessel), None)
    if card is None:
        raise StudyError("--panel: the sweep changes a ship or station; name at least one")
    rows = []
    for factor in v.sweep:
        say(f"sweep: {card} x{factor}")
        data = results(run_study(v.study(f"sweep-{factor}", v.seed + 2000, planted(card, CHANGES[0], factor))))
        entry = next(c for c in data["cards"] if c["card"] == card)
        rows.append({"factor": factor, "value": entry["value"], "ci_low": entry["ci_low"], "ci_high": entry["ci_high"],
                     "ranked_first": all(entry["value"] > c["value"] for c in data["cards"] if c["card"] != card)})
    detected = [r["factor"] for r in rows if r["ranked_first"] and r["ci_low"] > 0]
    return {"card": card, "change": CHANGES[0], "runs": rows, "smallest_detected": min(detected) if detected else None}


def validate(v: ValidationSpec, parts: tuple[str, ...], say: Progress = lambda s: None) -> dict[str, Any]:
    """Run the asked ``parts`` ("aa", "planted", "sweep") and write ``validate.json`` (after each
    part; the figures of other parts already there, from the same settings, are kept)."""
    unknown = [p for p in v.panel if p not in STANDARD.by_name]
    if unknown:
        raise StudyError(f"--panel: no card named {', '.join(unknown)}")
    settings = {k: val for k, val in asdict(v).items() if k not in ("workers", "backend", "address", "out")}
    path = Path(v.out) / "validate.json"
    out: dict[str, Any] = {"settings": settings}
    try:  # the figures of parts run earlier with the same settings are kept
        earlier = json.loads(path.read_text("utf-8"))
        if json.loads(json.dumps(settings)) == earlier.get("settings"):
            out = earlier
    except (OSError, ValueError, AttributeError):
        pass
    checks = {"aa": check_aa, "planted": check_planted, "sweep": check_sweep}
    for part in parts:
        out[part] = checks[part](v, say)
        Path(v.out).mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(out, indent=1), "utf-8")
    return out
