"""Tuning a card (``starcom study tune``, docs/study.md "Tuning a card"): the weighted line and its
zero crossing, the games' field hooks, a real tune that resumes, and bad input refused before any
game."""
from __future__ import annotations

import json
import math
import random
import re
from dataclasses import fields as dc_fields
from pathlib import Path

import pytest
from typer.testing import CliRunner

from starcom.cli.main import app
from starcom.ge.cards import CARDS
from starcom.ge.study import STUDY as GE_STUDY
from starcom.ge.study import cards_of as ge_cards_of
from starcom.ge.study import new_game as ge_new_game
from starcom.ge.study import rules_of as ge_rules_of
from starcom.sc.cards.catalogue import STANDARD
from starcom.sc.cards.stand_ins import SUFFIX, stand_in
from starcom.sc.study import STUDY as SC_STUDY
from starcom.sc.study import catalogue_of
from starcom.study.hook import Settings
from starcom.study.spec import StudyError, StudySpec
from starcom.study.tune import fair_value, fit_line, parse_values, plan, verdict

SC = Settings(2, 3, "standard", 60)
GE = Settings(2, None, "full", 40)


# --- the fit and the zero crossing -------------------------------------------------------------

def test_a_known_line_gives_its_root_and_an_interval_around_it() -> None:
    xs = [2, 3, 4, 5, 6]
    ys = [0.35 - 0.1 * x for x in xs]  # crosses zero at 3.5
    line = fit_line(xs, ys, [0.05] * 5)
    assert line.intercept == pytest.approx(0.35) and line.slope == pytest.approx(-0.1)
    assert line.chi2 == pytest.approx(0.0, abs=1e-20) and line.scale == 1.0
    fair = fair_value(line)
    assert fair.bounded and fair.estimate == pytest.approx(3.5)
    assert fair.low is not None and fair.high is not None and fair.low < 3.5 < fair.high
    # The interval's ends are where the band touches zero: |line| = z * se there.
    for x in (fair.low, fair.high):
        assert abs(line.at(x)) == pytest.approx(line.z * line.se_at(x), rel=1e-9)
    lo, hi = line.band(3.5)
    assert lo < 0 < hi
    assert line.band(fair.low - 0.1)[0] > 0 and line.band(fair.high + 0.1)[1] < 0  # zero outside the band


def test_the_fair_interval_covers_the_true_root_about_95_percent_of_the_time() -> None:
    """Simulated points around a line with root 3 (their errors known): the interval is
    calibrated, a little conservative (the covariance is only ever widened)."""
    rnd = random.Random(1)
    xs = [1, 2, 3, 4, 5]
    runs = [fair_value(fit_line(xs, [-0.1 * (x - 3) + rnd.gauss(0, 0.05) for x in xs], [0.05] * 5))
            for _ in range(1000)]
    assert all(f.bounded for f in runs)  # a slope of 0.1 against errors of 0.05 is always clear
    cover = sum(f.low <= 3.0 <= f.high for f in runs) / len(runs)  # type: ignore[operator]
    assert 0.94 <= cover <= 0.99


def test_more_precise_points_give_a_narrower_fair_interval() -> None:
    xs, ys = [1, 2, 3, 4], [0.2, 0.1, 0.0, -0.1]
    wide = fair_value(fit_line(xs, ys, [0.06] * 4))
    narrow = fair_value(fit_line(xs, ys, [0.02] * 4))
    assert wide.estimate == pytest.approx(3.0) and narrow.estimate == pytest.approx(3.0)
    assert narrow.high - narrow.low < wide.high - wide.low  # type: ignore[operator]


def test_weights_follow_the_standard_errors() -> None:
    """A point with a huge error barely moves the line; scatter beyond the errors widens it."""
    line = fit_line([0, 1, 2, 3], [0.3, 0.2, 0.1, 5.0], [0.01, 0.01, 0.01, 1000.0])
    assert line.slope == pytest.approx(-0.1, abs=1e-3)
    scattered = fit_line([0, 1, 2, 3], [0.3, 0.0, 0.3, 0.0], [0.01] * 4)
    assert scattered.scale == pytest.approx(scattered.chi2 / 2) and scattered.scale > 1


def test_a_flat_line_reports_no_crossing() -> None:
    line = fit_line([3, 4, 5], [0.0, 0.0, 0.0], [0.05] * 3)
    fair = fair_value(line)
    assert line.slope == 0.0
    assert fair.estimate is None and not fair.bounded and fair.low is None and fair.high is None
    assert "does not change clearly" in fair.note
    data = {"card": "X", "field": "cost", "current": 4, "fair_value": fair.to_json()}
    assert verdict(data).startswith("no fair cost found") and "X costs 4" in verdict(data)


def test_a_slope_within_its_noise_is_no_crossing_either() -> None:
    fair = fair_value(fit_line([3, 4, 5], [0.02, -0.01, 0.01], [0.05] * 3))
    assert not fair.bounded and fair.estimate is not None  # a root exists but means nothing


def test_the_verdict_names_the_fair_value_and_the_cards_own() -> None:
    fair = fair_value(fit_line([3, 4, 5, 6, 7], [0.2, 0.1, 0.0, -0.1, -0.2], [0.02] * 5))
    data = {"card": "Frigate", "field": "cost", "current": 7, "fair_value": fair.to_json(), "inside_tried": True}
    text = verdict(data)
    assert text.startswith("fair cost ≈ 5.0 [") and text.endswith("Frigate costs 7 (above the interval)")
    data["field"] = "attack"
    assert "Frigate has attack 7" in verdict(data)


def test_fit_refuses_what_it_cannot_fit() -> None:
    with pytest.raises(ValueError, match="2 distinct values"):
        fit_line([4, 4], [0.1, 0.2], [0.1, 0.1])
    with pytest.raises(ValueError, match="positive"):
        fit_line([3, 4], [0.1, 0.2], [0.1, 0.0])


# --- the values to try ---------------------------------------------------------------------------

def test_values_ranges_and_the_default() -> None:
    assert parse_values("5,3,4,3", None, 9) == [3, 4, 5]
    assert parse_values(None, "2:6", 9) == [2, 3, 4, 5, 6]
    assert parse_values(None, "2:8:3", 9) == [2, 5, 8]
    assert parse_values(None, None, 5) == [3, 4, 5, 6, 7]
    assert parse_values(None, None, 1) == [0, 1, 2, 3]  # none below zero


@pytest.mark.parametrize(("values", "span", "message"), [
    ("3,x", None, "'x' is not a whole number"),
    ("3.5,4", None, "'3.5' is not a whole number"),
    ("4", None, "at least 2 distinct values"),
    ("4,4", None, "at least 2 distinct values"),
    ("", None, "--values (empty): a tune needs at least 2 distinct values to fit a line, not none"),
    (None, "6:3", "empty"),
    (None, "3", "LO:HI or LO:HI:STEP"),
    (None, "3:6:0", "the step must be 1 or more"),
    (None, "5:5", "at least 2 distinct values"),
    ("3,4", "3:4", "not both"),
])
def test_bad_values_are_refused(values: str | None, span: str | None, message: str) -> None:
    with pytest.raises(StudyError, match=re.escape(message)):
        parse_values(values, span, 4)


# --- Star Commander's field hooks -----------------------------------------------------------------

def _changed(a: object, b: object) -> list[str]:
    return [f.name for f in dc_fields(a) if getattr(a, f.name) != getattr(b, f.name)]  # type: ignore[arg-type]


@pytest.mark.parametrize(("card", "field", "value"), [("Frigate", "cost", 4), ("Frigate", "attack", 6),
                                                      ("Refinery", "hp", 1), ("Corvette", "speed", 2)])
def test_sc_modified_catalogue_has_the_new_number_and_only_that(card: str, field: str, value: int) -> None:
    assert SC_STUDY.fields(SC, card)[field] == getattr(STANDARD.card(card), field) != value
    changed = SC_STUDY.with_field(SC, card, field, value)
    assert changed.catalogue_text and (changed.players, changed.size, changed.turn_limit) == (2, 3, 60)
    cat = catalogue_of(changed)
    assert SC_STUDY.fields(changed, card)[field] == value
    # the built-in cards, one number changed, and after them the card's stand-in as it was
    assert [d.name for d in cat.defs] == [d.name for d in STANDARD.defs] + [card + SUFFIX]
    diffs = {(a.name, name) for a, b in zip(STANDARD.defs, cat.defs) for name in _changed(a, b)}
    assert diffs == {(card, field)}
    assert cat.defs[-1] == stand_in(STANDARD.card(card), len(STANDARD.defs))
    SC_STUDY.check(changed)  # a study takes it
    assert SC_STUDY.studied(changed) == SC_STUDY.studied(SC)


def test_sc_every_value_of_a_tune_is_measured_against_one_stand_in() -> None:
    """A ship's stand-in follows its cost; in a tune it stays the stand-in of the card as it
    was, so that the cost moves the card and not its yardstick."""
    plain = stand_in(STANDARD.card("Frigate"), 0)
    for cost in (2, 5, 8):
        changed = SC_STUDY.with_field(SC, "Frigate", "cost", cost)
        game = SC_STUDY.new_game(changed, "Frigate", 0, frozenset({0}), 4)
        cards = {d.name: d for d in game.rules.catalogue.defs}
        assert cards["Frigate"].cost == cost
        assert (cards["Frigate" + SUFFIX].cost, cards["Frigate" + SUFFIX].attack,
                cards["Frigate" + SUFFIX].hp) == (plain.cost, plain.attack, plain.hp) == (5, plain.attack, plain.hp)
        assert sum(d.name == "Frigate" + SUFFIX for d in game.rules.catalogue.defs) == 1


def test_sc_fields_by_kind() -> None:
    assert list(SC_STUDY.fields(SC, "Frigate")) == ["cost", "attack", "hp", "speed"]
    assert list(SC_STUDY.fields(SC, "Refinery")) == ["cost", "attack", "hp"]  # a station does not move
    assert list(SC_STUDY.fields(SC, "Trade World")) == ["max_dev"]
    assert SC_STUDY.fields(SC, "Barrage") == {}


@pytest.mark.parametrize(("card", "field", "value", "message"), [
    ("Nowhere", "cost", 3, "no card named 'Nowhere'"),
    ("Frigate", "max_dev", 3, "its fields are cost, attack, hp, speed"),
    ("Barrage", "cost", 3, "a command has no numbers to tune"),
    ("Frigate", "cost", -1, "from 0 to 1000, not -1"),
    ("Frigate", "hp", 0, "from 1 to 1000, not 0"),
    ("Frigate", "cost", 1001, "from 0 to 1000"),
])
def test_sc_refuses_bad_fields_and_values(card: str, field: str, value: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SC_STUDY.with_field(SC, card, field, value)


# --- Galactic Empires' field hooks ---------------------------------------------------------------

@pytest.mark.parametrize(("card", "field", "value", "attr", "expected"), [
    ("Defensive Satellites", "phasers", 6, "phasers", 6),
    ("Defensive Satellites", "cost.energy", 2, "cost", (0, 0, 2, 0, 0, 0)),
    ("Defensive Satellites", "cost.energy", 0, "cost", (0, 0, 0, 0, 0, 0)),
    ("Moon", "generates.supply", 1, "generates", (0, 1, 1, 0, 0, 0)),
    ("Doctor", "strength", 4, "strength", 4),
])
def test_ge_modified_catalogue_has_the_new_number_and_only_that(card: str, field: str, value: int, attr: str,
                                                                 expected: object) -> None:
    changed = GE_STUDY.with_field(GE, card, field, value)
    cards = ge_cards_of(changed)
    assert GE_STUDY.fields(changed, card).get(field, 0) == value
    diffs = {(a.name, name) for a, b in zip(CARDS, cards) for name in _changed(a, b)}
    assert diffs == {(card, attr)}
    assert getattr(next(c for c in cards if c.name == card), attr) == expected
    GE_STUDY.check(changed)  # a study takes it


def test_ge_games_of_a_tune_play_with_the_new_number() -> None:
    changed = GE_STUDY.with_field(GE, "Defensive Satellites", "phasers", 7)
    game = GE_STUDY.new_game(changed, "Defensive Satellites", 0, frozenset({0}), 3)
    plain = ge_new_game("full", 3, 40, "Defensive Satellites", 0, frozenset({0}))
    index = next(c.index for c in CARDS if c.name == "Defensive Satellites")
    uid = game.s.spec_of.index(index)
    assert game.s.spec(uid).phasers == 7 and plain.s.spec(uid).phasers == 4
    assert game.s.spec_of == plain.s.spec_of and game.s.players[0].deck == plain.s.players[0].deck  # same deal
    assert ge_rules_of(GE) is None


def test_ge_refuses_bad_fields_values_and_catalogues() -> None:
    with pytest.raises(ValueError, match="no card named 'Frigate'"):
        GE_STUDY.with_field(GE, "Frigate", "strength", 2)
    with pytest.raises(ValueError, match="its fields are strength"):
        GE_STUDY.with_field(GE, "Doctor", "slots", 1)
    with pytest.raises(ValueError, match="1 or more, not 0"):
        GE_STUDY.with_field(GE, "Doctor", "strength", 0)
    with pytest.raises(ValueError, match="half slots must be 0, 1 or 2"):
        GE_STUDY.with_field(GE, "Defensive Satellites", "slots", 3)
    changed = GE_STUDY.with_field(GE, "Doctor", "strength", 3)
    other = Settings(2, None, "full", 40, catalogue_text=changed.catalogue_text.replace("[doctor]", "[healer]"),
                     catalogue_name="mine")
    with pytest.raises(ValueError, match="must hold the built-in cards"):
        GE_STUDY.check(other)


# --- the command ---------------------------------------------------------------------------------

def _tune(out: Path, *extra: str) -> tuple[int, str]:
    agents = [] if "--agents" in extra else ["--agents", "random"]
    res = CliRunner().invoke(app, ["study", "tune", *extra, *agents, "--out", str(out)], terminal_width=200)
    return res.exit_code, res.output


def test_a_tiny_tune_writes_its_results_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ("Frigate", "--field", "cost", "--values", "3,5,7", "--max-games", "8", "--turn-limit", "6")
    code, text = _tune(out, *args)
    assert code == 0, text
    data = json.loads((out / "tune.json").read_text())
    assert (data["card"], data["field"], data["current"]) == ("Frigate", "cost", 5)
    assert [p["field_value"] for p in data["points"]] == [3, 5, 7]
    for p in data["points"]:
        assert p["games"] == 8 and p["ci_low"] <= p["value"] <= p["ci_high"] and p["se"] > 0
        assert (out / p["folder"] / "pairs.jsonl").exists()
    assert {"intercept", "slope", "covariance"} <= set(data["fit"])
    assert set(data["fair_value"]) >= {"estimate", "low", "high", "bounded"}
    assert data["run"]["pairs_played"] == 12 and data["run"]["pairs_reused"] == 0
    assert data["verdict"] in text.replace("\n", " ") or data["verdict"][:30] in text
    for name in ("tune.png", "tune.svg"):
        assert (out / name).stat().st_size > 1000
    assert (out / "tune.png").read_bytes()[:4] == b"\x89PNG"
    # one study per value, each of the card alone on its own catalogue, all with one seed (so
    # on the same deals: a pair's deal depends on the seed and the pair number only)
    keys = [json.loads((out / f"cost-{v}" / "study.json").read_text()) for v in (3, 5, 7)]
    assert all(k["cards"] == ["Frigate"] and k["seed"] == 0 for k in keys)
    assert len({k["catalogue"] for k in keys}) == 3 and "built-in" not in {k["catalogue"] for k in keys}
    logs = [(out / f"cost-{v}" / "pairs.jsonl").read_text().splitlines() for v in (3, 5, 7)]
    assert [len(log) for log in logs] == [4, 4, 4]
    again_code, again = _tune(out, *args)
    assert again_code == 0, again
    second = json.loads((out / "tune.json").read_text())
    assert second["run"]["pairs_played"] == 0 and second["run"]["pairs_reused"] == 12
    assert second["points"] == data["points"] and second["fit"] == data["fit"]


def test_a_tiny_tune_of_galactic_empires(tmp_path: Path) -> None:
    code, text = _tune(tmp_path / "g", "Doctor", "--game", "ge", "--field", "strength", "--values", "1,3",
                       "--max-games", "4", "--turn-limit", "4")
    assert code == 0, text
    data = json.loads((tmp_path / "g" / "tune.json").read_text())
    assert data["game"] == "ge" and [p["field_value"] for p in data["points"]] == [1, 3]


@pytest.mark.parametrize(("args", "message"), [
    (["Frigat", "--field", "cost"], "no card named 'Frigat' in catalogue.toml (names are case-sensitive); did "
                                    "you mean Frigate"),
    (["Frigate"], "--field: give one of Frigate's numbers: cost (now 5), attack (now 3), hp (now 3), speed (now 1)"),
    (["Frigate", "--field", "max_dev"], "--field max_dev: Frigate has no such number; its numbers: cost (now 5)"),
    (["Barrage", "--field", "cost"], "Barrage (command) has no numbers to tune"),
    (["Frigate", "--field", "cost", "--range", "7:3"], "--range 7:3: empty"),
    (["Frigate", "--field", "cost", "--values", "5"], "at least 2 distinct values"),
    (["Frigate", "--field", "cost", "--values", "4,five"], "'five' is not a whole number"),
    (["Frigate", "--field", "cost", "--values", "-1,5"], "cost -1: Frigate's cost must be a whole number from 0"),
    (["Frigate", "--field", "hp", "--values", "0,2"], "hp 0: Frigate's hp must be a whole number from 1"),
    (["Doctor", "--game", "ge", "--field", "slots"], "--field slots: Doctor has no such number"),
    (["Frigate", "--field", "cost", "--players", "9"], "--players"),
    (["Frigate", "--field", "cost", "--agents", "nobody"], "unknown agent 'nobody'"),
])
def test_bad_input_is_refused_before_any_game(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "bad"
    code, text = _tune(out, *args)
    assert code == 2, text
    assert message in " ".join(text.split()), text
    assert not out.exists()  # nothing was played, nothing written


def test_a_tune_resumed_with_other_settings_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "t"
    code, text = _tune(out, "Frigate", "--field", "attack", "--values", "2,3", "--max-games", "4",
                       "--turn-limit", "4")
    assert code == 0, text
    code, text = _tune(out, "Frigate", "--field", "attack", "--values", "2,3", "--max-games", "4",
                       "--turn-limit", "5")
    assert code == 2 and "holds a study with other settings (turn_limit)" in " ".join(text.split())
    assert math.isfinite(json.loads((out / "tune.json").read_text())["fit"]["slope"])


def test_a_game_whose_study_cannot_change_numbers_says_so(tmp_path: Path) -> None:
    base = StudySpec.checked(game="starcom", out=str(tmp_path / "t"))
    base.__dict__["_game"] = (base.entry, object())  # a card study written before tunes
    with pytest.raises(StudyError, match="cannot change a card's numbers"):
        plan(base, "Frigate", "cost", None, None)


def test_sc_a_tune_starts_from_the_catalogue_studied() -> None:
    """With --cards, the number is changed in that catalogue, its own changes kept."""
    mine = STANDARD.replaced("Frigate", attack=4)
    base = Settings(2, 3, "standard", 60, 0, mine.to_toml(), "mine.toml")
    changed = SC_STUDY.with_field(base, "Frigate", "hp", 2)
    d = catalogue_of(changed).card("Frigate")
    assert (d.attack, d.hp) == (4, 2) and changed.catalogue_name == "mine.toml, Frigate hp 2"
    assert SC_STUDY.fields(base, "Frigate")["attack"] == 4


def test_the_value_at_the_cards_own_number_is_the_one_study_cards_measures(tmp_path: Path) -> None:
    """Same seed, same stand-in: the tune's study at the Frigate's own cost plays the very pairs
    of ``study cards --only Frigate``."""
    common = ["--max-games", "8", "--turn-limit", "8", "--agents", "random"]
    res = CliRunner().invoke(app, ["study", "cards", "--only", "Frigate", *common, "--out", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    code, text = _tune(tmp_path / "t", "Frigate", "--field", "cost", "--values", "5,6", *common)
    assert code == 0, text

    def pairs(path: Path) -> list[dict[str, object]]:
        return sorted((json.loads(line) for line in path.read_text().splitlines()), key=lambda r: int(r["pair"]))
    assert pairs(tmp_path / "t" / "cost-5" / "pairs.jsonl") == pairs(tmp_path / "s" / "pairs.jsonl")
