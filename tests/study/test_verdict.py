"""A card's play rate and verdict (docs/study.md, "Play rate and verdicts"): the rule on pairs
made up to order, the trackers of both games checked against the legal actions at every
decision, old logs, and the outputs that carry them. Random agents and short games keep each
test to seconds."""
from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from starcom.cli.main import app
from starcom.study import runner as R
from starcom.study.hook import Tracked
from starcom.study.pairs import GameFacts, Job, PairResult, Setup, play_pair
from starcom.study.report import attention_order, results, summary, write
from starcom.study.runner import CardProgress, Outcome
from starcom.study.spec import StudySpec
from starcom.study.stats import Interval, SequentialRule
from starcom.study.verdict import DEAD_DROP, play_rate, verdict

# --- the rule, on pairs made up to order -----------------------------------------------------------


def _facts(win: bool, could: bool, played: bool, seat: int) -> GameFacts:
    return GameFacts(seat if win else 1 - seat, 10, False, ((), ()), could=could, played_it=played)


def _pairs(card: str, rows: list[tuple[bool, bool, bool, bool, bool, bool]]) -> list[PairResult]:
    """Pairs from rows (treated win, could, played; control win, could, played), seats alternating."""
    out = []
    for k, (tw, tc, tp, cw, cc, cp) in enumerate(rows):
        seat = k % 2
        out.append(PairResult(card, k, seat, _facts(tw, tc, tp, seat), _facts(cw, cc, cp, seat)))
    return out


def _outcome(tmp: Path, cards: dict[str, list[PairResult]]) -> Outcome:
    spec = StudySpec.checked(only=tuple(cards), agents=("random",), max_games=200, out=str(tmp))
    progress = {}
    for name, pairs in cards.items():
        rule = SequentialRule(0.05 / len(cards), 100, 20)
        for r in pairs:
            rule.update(r.difference)
        progress[name] = CardProgress(name, rule, pairs)
    return Outcome(spec, progress, 0.0, 0, 0)


SAME = (True, True, True, True, True, True)  # both games alike: won, could, played
LOST = (False, True, True, False, True, True)
MADE_UP = {
    # wins with the card and loses without it: strong, whatever the play rate
    "Frigate": _pairs("Frigate", [(True, True, True, False, True, True)] * 16 + [SAME, LOST] * 2),
    # the other way round: weak, even though it is played far less than its stand-in
    "Corvette": _pairs("Corvette", [(False, True, False, True, True, True)] * 16 + [SAME, LOST] * 2),
    # no change in score, but the seat leaves the real card unplayed where it played the stand-in
    "Destroyer": _pairs("Destroyer", [(True, True, False, True, True, True), (False, True, False, False, True, True),
                                      (True, True, True, True, True, True), (False, True, False, False, True, True)] * 5),
    # no change, played as often: even
    "Refinery": _pairs("Refinery", [SAME, LOST, (True, True, False, True, True, False)] * 7),
    # a blank stand-in (never playable) and a real card never played: cannot be dead, only even
    "Barrage": _pairs("Barrage", [(True, True, False, True, False, False), (False, True, False, False, False, False)] * 10),
}


def _diff(estimate: float, low: float, high: float) -> Interval:
    return Interval(estimate, low, high, 40)


def test_the_verdict_rule() -> None:
    assert verdict(0.01, 0.3, _diff(-0.6, -0.7, -0.5)) == "strong"
    assert verdict(-0.3, -0.01, _diff(-0.6, -0.7, -0.5)) == "weak"
    assert verdict(-0.1, 0.1, _diff(-0.3, -0.59, -0.01)) == "dead"
    assert verdict(-0.1, 0.1, _diff(-0.2, -0.4, 0.0)) == "even"  # not significant
    assert verdict(0.0, 0.2, _diff(-0.6, -0.7, -0.5)) == "dead"  # a value interval that ends at zero contains it
    assert verdict(-0.1, 0.1, None) == "even"  # never could: no play rate, no verdict from it
    # significant but slight: played in 95% of its chances against 97% for the stand-in
    assert verdict(-0.05, 0.03, _diff(-0.016, -0.03, -0.002)) == "even"
    assert verdict(-0.05, 0.03, _diff(-DEAD_DROP, -0.15, -0.05)) == "dead"


def test_the_four_verdicts_on_made_up_pairs(tmp_path: Path) -> None:
    data = results(_outcome(tmp_path, MADE_UP))
    cards = {c["card"]: c for c in data["cards"]}
    assert {n: c["verdict"] for n, c in cards.items()} == {
        "Frigate": "strong", "Corvette": "weak", "Destroyer": "dead", "Refinery": "even", "Barrage": "even"}
    assert data["verdicts"] == {"dead": 1, "weak": 1, "strong": 1, "even": 2}
    dead = cards["Destroyer"]  # played in 5 of 20 could-pairs, its stand-in in all 20
    assert (dead["play_rate"], dead["play_rate_control"], dead["play_rate_diff"]) == (0.25, 1.0, -0.75)
    assert dead["play_rate_ci"][1] < 0 and dead["ci_low"] <= 0 <= dead["ci_high"] and dead["play_rate_pairs"] == 20
    weak = cards["Corvette"]
    assert weak["play_rate"] == pytest.approx(4 / 20) and weak["play_rate_ci"][1] < 0 and weak["ci_high"] < 0
    blank = cards["Barrage"]
    assert blank["play_rate"] == 0.0 and blank["play_rate_control"] is None and blank["play_rate_diff"] == 0.0
    even = cards["Refinery"]
    assert even["play_rate"] == even["play_rate_control"] == pytest.approx(14 / 21)
    assert even["play_rate_ci"][0] < 0 < even["play_rate_ci"][1]
    # the summary: dead, weak, strong (even cards left out), with the suggested cost when given
    cards["Frigate"]["suggested_cost"] = 7
    rows, more = summary(data)
    assert [(r["card"], r["verdict"]) for r in rows] == [("Destroyer", "dead"), ("Corvette", "weak"),
                                                       ("Frigate", "strong")] and more == 0
    assert rows[0]["play rate"] == "25.0% vs 100.0%" and rows[0]["suggested cost"] == "—"
    assert rows[2]["suggested cost"] == "7"
    rows, more = summary(data, lines=2)
    assert len(rows) == 2 and more == 1
    assert sorted(data["cards"], key=attention_order)[-1]["verdict"] == "even"


def test_the_play_rate_counts_only_the_pairs_that_could() -> None:
    pairs = _pairs("Frigate", [(True, False, False, True, False, False)] * 3  # could in neither: left out
                   + [(True, True, True, True, False, False), (True, False, False, True, True, True)])
    rate = play_rate(pairs)
    assert (rate.treated, rate.treated_pairs, rate.control, rate.control_pairs) == (1.0, 1, 1.0, 1)
    assert rate.diff.n == 2 and rate.diff.estimate == 0.0
    nothing = play_rate(pairs[:3])
    assert nothing.treated is None and nothing.control is None and nothing.diff.n == 0


# --- the trackers, against the legal actions at every decision ------------------------------------


class _Checked:
    """Wraps a game's tracker and notes, by brute force, what its ``could`` and ``played_it``
    should be: the legal actions at every decision of the watched seat, every action it played."""

    def __init__(self, inner: Any, game: Any, watch: int | None, is_it: Any, log: list[tuple[Tracked, bool, bool]]) -> None:
        self.inner, self.game, self.watch, self.is_it, self.log = inner, game, watch, is_it, log
        self.could = self.played = False
        self._look()

    def _look(self) -> None:
        if self.watch is not None and not self.game.over and self.game.to_move == self.watch:
            self.could |= any(self.is_it(self.game, a, before=True) for a in self.game.legal_actions())

    def step(self, step: Any) -> None:
        if step.seat == self.watch and self.is_it(self.game, step.action, before=False):
            self.played = True
        self.inner.step(step)
        self._look()

    def finish(self) -> Tracked:
        noted = self.inner.finish()
        if self.watch is not None:
            self.log.append((noted, self.could, self.played))
        return noted


def _watch_trackers(monkeypatch: pytest.MonkeyPatch, study: Any, is_it: Any) -> list[tuple[Tracked, bool, bool]]:
    log: list[tuple[Tracked, bool, bool]] = []
    made = type(study).tracker

    def tracker(self: Any, game: Any, settings: Any, card: str, watch: int | None) -> _Checked:
        return _Checked(made(self, game, settings, card, watch), game, watch,
                        lambda g, a, before: is_it(g, a, card), log)

    monkeypatch.setattr(type(study), "tracker", tracker)
    return log


def _sc_is_it(g: Any, a: Any, card: str) -> bool:
    names = {card, card + " (stand-in)"}
    if a[0] == "play":
        return g.rules.cards[a[1]].name in names
    if a[0] == "build":
        return g.rules.catalogue.defs[a[1]].name == card
    if a[0] == "develop":
        return g.sites[a[1]].d.name in names
    return False


@pytest.mark.parametrize("card", ["Barrage", "Corvette", "Refinery", "Trade World"])
def test_star_commanders_tracker_notes_could_and_played_in_both_games(monkeypatch: pytest.MonkeyPatch,
                                                                      card: str) -> None:
    """A command (its stand-in a blank), a ship built from the supply, a station and a system:
    in the treated and the control game alike, ``could`` is whether a play, build or develop of
    the card (either version) was ever legal at the watched seat's decisions, and ``played_it``
    whether the seat did one, as a check of every decision finds."""
    from starcom.sc.study import STUDY
    log = _watch_trackers(monkeypatch, STUDY, _sc_is_it)
    setup = Setup("", "built-in", (card,), ("random",), 2, 3, "standard", 40, 4)
    pairs = [play_pair(setup, Job(card, k)) for k in range(12)]
    assert len(log) == 24  # both games of every pair are watched
    for noted, could, played in log:
        assert (noted.could, noted.played_it) == (could, played)
    for r in pairs:
        stand = card + " (stand-in)"
        assert r.treated.played_it == (card in r.treated.played[r.seat])
        assert r.control.played_it == bool({card, stand} & set(r.control.played[r.seat]))
        assert not r.control.played_it or r.control.could
    assert any(r.treated.could for r in pairs)
    if card == "Barrage":  # a blank cannot be played
        assert not any(r.control.could for r in pairs)
    else:
        assert any(r.control.could for r in pairs) and any(r.control.played_it for r in pairs)


def _ge_is_it(g: Any, a: Any, card: str) -> bool:
    from starcom.ge.cards import CARDS
    from starcom.ge.moves import cards_played
    return a[0] in ("play", "pair") and any(CARDS[g.s.spec_of[u]].name == card and u not in g.s.blank
                                            for u in cards_played(tuple(a)))


@pytest.mark.parametrize("card", ["Doctor", "Moon"])
def test_galactic_empires_tracker_notes_could_and_played_in_both_games(monkeypatch: pytest.MonkeyPatch,
                                                                      card: str) -> None:
    from starcom.ge.study import STUDY
    log = _watch_trackers(monkeypatch, STUDY, _ge_is_it)
    setup = Setup("", "built-in", (card,), ("random",), 2, None, "quick", 40, 1, game="ge")
    pairs = [play_pair(setup, Job(card, k)) for k in range(6)]
    assert len(log) == 12
    for noted, could, played in log:
        assert (noted.could, noted.played_it) == (could, played)
    assert any(r.treated.played_it for r in pairs)
    for r in pairs:
        assert r.treated.played_it == (card in r.treated.played[r.seat])
        assert not r.control.could and not r.control.played_it  # every copy a blank
        assert r.treated.could == r.treated.legal


def test_watching_the_control_game_changes_no_game() -> None:
    """The trackers only look: the same pair with and without them watching the control game."""
    from starcom.study import pairs as P
    setup = Setup("", "built-in", ("Corvette",), ("random",), 2, 3, "standard", 12, 4)
    job = Job("Corvette", 3)
    watched = play_pair(setup, job)
    unwatched = P._play(setup, frozenset(), job)
    assert (unwatched.winner, unwatched.turns, unwatched.played, unwatched.rules) == \
        (watched.control.winner, watched.control.turns, watched.control.played, watched.control.rules)
    assert not unwatched.could and not unwatched.played_it


# --- old logs and the outputs ---------------------------------------------------------------------


def test_a_log_line_written_before_the_play_rate_still_loads() -> None:
    old = {"card": "Frigate", "pair": 3, "seat": 1,
           "treated": {"winner": 1, "turns": 20, "limit_reached": False, "played": [[], ["Frigate"]],
                       "rules": ["DEV-1"], "held": False, "legal": False},
           "control": {"winner": 0, "turns": 22, "limit_reached": False, "played": [[], []]}}
    r = PairResult.from_json(old)
    assert r.difference == 1.0 and r.treated.played == ((), ("Frigate",))
    assert not (r.treated.could or r.treated.played_it or r.control.could or r.control.played_it)
    new = PairResult.from_json(json.loads(json.dumps(_with_treated(r, could=True, played_it=True))))
    assert new.treated.could and new.treated.played_it and not new.control.could
    assert play_rate([r]).diff.n == 0  # an old pair counts in no play rate


def _with_treated(r: PairResult, **treated: bool) -> dict[str, Any]:
    data = r.to_json()
    data["treated"].update(treated)
    return data


def test_the_outputs_carry_play_rates_and_verdicts(tmp_path: Path) -> None:
    args = ["study", "cards", "--only", "Corvette,Barrage", "--agents", "random", "--max-games", "8", "--seed", "2",
            "--turn-limit", "12", "--out", str(tmp_path / "a")]
    res = CliRunner().invoke(app, args, terminal_width=200)
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert "verdict" in text and "play rate" in text and "Look at these first" in text
    data = json.loads((tmp_path / "a" / "results.json").read_text())
    for c in data["cards"]:
        assert c["verdict"] in ("strong", "weak", "dead", "even")
        assert {"play_rate", "play_rate_control", "play_rate_diff", "play_rate_ci", "play_rate_pairs"} <= set(c)
        if c["play_rate_ci"] is not None:
            assert c["play_rate_ci"][0] <= c["play_rate_diff"] <= c["play_rate_ci"][1]
    assert sum(data["verdicts"].values()) == 2
    barrage = next(c for c in data["cards"] if c["card"] == "Barrage")
    assert barrage["play_rate_control"] is None and barrage["verdict"] != "dead"
    with (tmp_path / "a" / "cards.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {"verdict", "play_rate", "play_rate_control", "play_rate_diff", "play_rate_ci_low",
            "play_rate_ci_high"} <= set(rows[0])
    assert {r["card"]: r["verdict"] for r in rows} == {c["card"]: c["verdict"] for c in data["cards"]}
    page = (tmp_path / "a" / "report.html").read_text()
    assert page.index("Look at these first") < page.index("<h2>Card values")
    assert "<th>verdict</th>" in page and "<th>play rate</th>" in page and "Play rate" in page
    # a made-up dead card is at the top of the page and of the table
    data["cards"][0].update(verdict="dead", play_rate=0.1, play_rate_control=0.9, play_rate_diff=-0.8,
                            play_rate_ci=[-0.95, -0.65], suggested_cost=3)
    from starcom.study.report import html_report
    page = html_report(data)
    name = data["cards"][0]["card"]
    summary_part = page[page.index("Look at these first"):page.index("<h2>Card values")]
    assert name in summary_part and "10.0% vs 90.0%" in summary_part and ">3<" in summary_part
    table = page[page.index("<th>verdict</th>"):]
    assert table.index(name) < table.index(data["cards"][1]["card"])
    # diff shows a verdict that changed
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "results.json").write_text(json.dumps(data))
    res = CliRunner().invoke(app, ["study", "diff", str(tmp_path / "a"), str(tmp_path / "b")], terminal_width=200)
    assert res.exit_code == 0 and "→ dead" in res.output, res.output


def test_resuming_a_log_without_the_new_fields(tmp_path: Path) -> None:
    """A study whose log was written before the play rate resumes and reports: those pairs
    count in the value but in no play rate."""
    spec = StudySpec.checked(only=("Corvette",), agents=("random",), max_games=8, seed=2, turn_limit=12,
                             out=str(tmp_path))
    first = write(R.run_study(spec))
    lines = (tmp_path / R.LOG).read_text().splitlines()
    stripped = []
    for line in lines:
        d = json.loads(line)
        for side in ("treated", "control"):
            d[side].pop("could"), d[side].pop("played_it")
        stripped.append(json.dumps(d))
    (tmp_path / R.LOG).write_text("\n".join(stripped) + "\n")
    again = R.run_study(spec)
    assert again.pairs_played == 0
    data = write(again)
    [c], [c0] = data["cards"], first["cards"]
    assert c["value"] == c0["value"] and c["play_rate_pairs"] == 0 and c["play_rate"] is None
    assert c["verdict"] in ("strong", "weak", "even")


def _tune_file(folder: Path, card: str, field: str, fair: dict[str, Any], **settings: Any) -> None:
    base = {"game": "starcom", "agents": ["random"], "players": 2, "size": 3, "edition": "standard",
            "turn_limit": 60}
    folder.mkdir(parents=True)
    (folder / "tune.json").write_text(json.dumps({"card": card, "field": field, "current": 5,
                                                  "settings": {**base, **settings}, "fair_value": fair}), "utf-8")


def test_a_tune_kept_in_the_study_folder_gives_the_suggested_cost(tmp_path: Path) -> None:
    """A cost tune run into the study's folder (study tune --out STUDY/NAME) with the study's
    settings puts its fair cost in the results and the summary; a tune of another number, with
    other settings, without a bounded fair value, or an unreadable file gives none."""
    bounded = {"estimate": 7.94, "low": 6.71, "high": 11.36, "bounded": True}
    _tune_file(tmp_path / "tune-frigate", "Frigate", "cost", bounded)
    _tune_file(tmp_path / "tune-corvette", "Corvette", "cost", {**bounded, "estimate": 3.0}, players=3)
    _tune_file(tmp_path / "tune-destroyer", "Destroyer", "attack", bounded)
    _tune_file(tmp_path / "tune-refinery", "Refinery", "cost",
               {"estimate": None, "low": None, "high": None, "bounded": False})
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "tune.json").write_text("{not json", "utf-8")
    data = results(_outcome(tmp_path, MADE_UP))
    cards = {c["card"]: c for c in data["cards"]}
    assert cards["Frigate"]["suggested_cost"] == "7.9 [6.7, 11.4]"
    assert [n for n, c in cards.items() if "suggested_cost" in c] == ["Frigate"]
    rows, _ = summary(data)
    assert {r["card"]: r["suggested cost"] for r in rows}["Frigate"] == "7.9 [6.7, 11.4]"
