"""The card study: paired games, per-seat stand-ins, the sequential runner, resuming, the
backends' identity and the outputs (docs/study.md)."""
from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from starcom.sc.cards import effects
from starcom.sc.cards.catalogue import STANDARD
from starcom.sc.cards.stand_ins import stand_in, stand_in_effects, with_stand_ins
from starcom.sc.engine.events import RECORDED_RULES, rules_fired
from starcom.sc.engine.game import Game
from starcom.sc.engine.ruleset import Ruleset
from starcom.study import runner as R
from starcom.study.pairs import GameFacts, Job, PairResult, Setup, play_pair
from starcom.study.report import write
from starcom.study.spec import StudyError, StudySpec


def _rules(card: str, real_for: frozenset[int] | None) -> Ruleset:
    catalogue = with_stand_ins(STANDARD, [card])
    return Ruleset.build(catalogue, stand_in_effects(effects.EFFECTS, catalogue), "t", real_for=real_for)


def _names(g: Game, ids: list[int]) -> list[str]:
    return [g.rules.cards[c].name for c in ids]


@pytest.mark.parametrize("card", ["Barrage", "Frigate", "Trade World", "Refinery"])
def test_treated_and_control_games_start_from_the_same_deal(card: str) -> None:
    """Same seed: the same decks, supply and board, card for card; only the versions of a
    system already on the board differ (nobody controls it, so it is the stand-in in both)."""
    real, treated, control = (Game.new(2, 3, seed=9, rules=_rules(card, r)) for r in
                              (None, frozenset({0}), frozenset()))
    for g in (treated, control):
        assert g.decks == real.decks and g.supply == real.supply and g.hands == real.hands
        assert [s.card for s in g.sites] == [s.card for s in treated.sites]
        assert [g.rules.cards[s.card].name.removesuffix(" (stand-in)") for s in g.sites] == \
            [s.d.name for s in real.sites]


@pytest.mark.parametrize("card", ["Barrage", "Advanced Shields", "Corvette", "Defense Station"])
def test_only_the_treated_seat_gets_the_real_card(card: str) -> None:
    rules = _rules(card, frozenset({1}))
    stand = card + " (stand-in)"
    seen = {0: set(), 1: set()}
    for seed in range(8):
        g = Game.new(2, 3, seed=seed, turn_limit=40, rules=rules)
        rnd = random.Random(seed)
        while not g.over:
            acts = g.legal_actions()
            g.apply(acts[rnd.randrange(len(acts))])
            for p in (0, 1):  # hand cards take the holder's version; vessels the builder's
                held = _names(g, g.hands[p] + g.techs[p]) + [v.d.name for v in g.vessels.values()
                                                               if v.owner == p and v.built]
                seen[p] |= {n for n in held if n in (card, stand)}
                assert card not in held or p == 1, (card, p, held)
                assert stand not in held or p == 0, (card, p, held)
    assert seen[1] == {card} and seen[0] == {stand}, seen  # both versions did come up


def test_a_blank_stand_in_cannot_be_played_but_can_be_sold() -> None:
    g = Game.new(2, 3, seed=4, rules=_rules("Barrage", frozenset()))
    blank = next(c for c in range(len(g.rules.cards)) if g.rules.cards[c].name == "Barrage (stand-in)")
    me = g.to_move
    g.hands[me] += [blank, g.decks[0].pop()]
    assert not [a for a in g.legal_actions() if a[0] == "play" and a[1] == blank]
    assert [a for a in g.legal_actions() if a[0] == "sell" and blank in a[1:]]


def test_ship_and_station_stand_ins_sit_on_the_standard_curve() -> None:
    """A stand-in's numbers come from its cost, not from the card: doubling a ship's attack and
    hit points leaves its stand-in as it was."""
    frigate = STANDARD.card("Frigate")
    strong = dataclasses.replace(frigate, attack=2 * frigate.attack, hp=2 * frigate.hp)
    assert stand_in(strong, 99) == stand_in(frigate, 99)
    cheap = dataclasses.replace(frigate, cost=frigate.cost // 2)
    assert stand_in(cheap, 99).attack < stand_in(frigate, 99).attack and stand_in(cheap, 99).cost == cheap.cost
    assert stand_in(STANDARD.card("Refinery"), 99).attack == 0 and stand_in(STANDARD.card("Barrage"), 99).kind == "command"
    with pytest.raises(ValueError, match="no stand-in"):
        stand_in(STANDARD.card("Homeworld"), 99)


def _spec(tmp: Path, **kw: object) -> StudySpec:
    settings = dict(only=("Barrage", "Corvette"), agents=("random",), max_games=24, seed=3, out=str(tmp))
    settings.update(kw)
    return StudySpec.checked(**settings)


def _results(spec: StudySpec) -> dict:
    data = write(R.run_study(spec))
    data.pop("run")
    return data


def test_pairs_are_deterministic_and_share_deals_across_cards() -> None:
    setup = Setup("", "built-in", ("Barrage",), ("random",), 2, 3, "standard", 30, 5)
    a, b = play_pair(setup, Job("Barrage", 3)), play_pair(setup, Job("Barrage", 3))
    assert a == b and a.seat == 1
    assert -1 <= a.difference <= 1


def test_workers_and_interruptions_do_not_change_the_results(tmp_path: Path) -> None:
    one = _results(_spec(tmp_path / "one"))
    two = _results(_spec(tmp_path / "two", workers=2))
    assert one == two
    assert [c["card"] for c in one["cards"]] and all(c["games"] <= 24 for c in one["cards"])
    # An interrupted run: stop after a few pairs, then run the same command again.
    spec = _spec(tmp_path / "cut")
    real = R.play_pair
    calls = {"n": 0}

    def flaky(setup, job):
        calls["n"] += 1
        if calls["n"] == 7:
            raise KeyboardInterrupt
        return real(setup, job)

    R.play_pair = flaky
    try:
        with pytest.raises(KeyboardInterrupt):
            R.run_study(spec)
    finally:
        R.play_pair = real
    kept = (tmp_path / "cut" / R.LOG).read_text().splitlines()
    assert len(kept) == 6
    with (tmp_path / "cut" / R.LOG).open("a") as f:
        f.write('{"card": "Barr')  # a line torn by a crash
    outcome = R.run_study(spec)
    assert outcome.pairs_reused == 6
    data = write(outcome)
    data.pop("run")
    assert data == one


def test_outputs(tmp_path: Path) -> None:
    data = _results(_spec(tmp_path))
    values = [c["value"] for c in data["cards"]]
    assert values == sorted(values, reverse=True)
    for c in data["cards"]:
        assert c["ci_low"] <= c["value"] <= c["ci_high"] and {"card", "value", "ci_low", "ci_high", "games"} <= set(c)
    csv = (tmp_path / "cards.csv").read_text().splitlines()
    assert csv[0].startswith("card,kind,value") and len(csv) == 1 + len(data["cards"])
    page = (tmp_path / "report.html").read_text()
    assert "<svg" in page and "Seat advantage" in page and "Barrage" in page
    assert json.loads((tmp_path / "results.json").read_text())["run"]["pairs_played"] > 0
    seats = data["seat_advantage"]["seats"]
    assert len(seats) == 2 and all(s["ci_low"] <= s["win_rate"] <= s["ci_high"] for s in seats)
    rules = data["rules"]
    assert {"DRAW-1", "MOVE-1", "BUILD-1", "DEV-1"} <= set(rules["games_fired"])
    assert set(rules["games_fired"]) | set(rules["never_fired"]) == RECORDED_RULES
    assert not set(rules["games_fired"]) & set(rules["never_fired"])
    assert all(0 < n <= data["games"] for n in rules["games_fired"].values())
    assert "Rules that never fired" in page


def test_the_rules_a_game_carried_out_are_recorded() -> None:
    """The rule IDs of a game's actions and events (engine/events.py), as the study keeps them."""
    assert rules_fired(("sell", 3, 4), [("discard", 0, 3), ("discard", 0, 4), ("credits", 0, 3)]) == {"TRADE-2"}
    assert rules_fired(("develop", 5), [("develop", 0, 5, 1)]) == {"DEV-1"}
    assert rules_fired(("develop", 5), [("develop", 0, 5, 3)]) == {"DEV-2"}
    setup = Setup("", "built-in", ("Corvette",), ("random",), 2, 3, "standard", 60, 5)
    games = [g for k in range(6) for g in (play_pair(setup, Job("Corvette", k)).treated,)]
    seen = {r for g in games for r in g.rules}
    assert {"SETUP-3", "TURN-1", "DRAW-1", "MOVE-1", "EXPLORE-1", "BUILD-1", "DEV-1", "TRADE-2"} <= seen
    for g in games:  # a game ends by conquest (WIN-1) or at the turn limit (WIN-2), not both
        assert ("WIN-2" in g.rules) == g.limit_reached and ("WIN-1" in g.rules) == (not g.limit_reached)
    assert seen <= RECORDED_RULES


def test_bad_settings_are_refused_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(StudyError, match="no card named 'Frigat'"):
        _spec(tmp_path, only=("Frigat",))
    with pytest.raises(StudyError, match="cannot be studied"):
        _spec(tmp_path, only=("Homeworld",))
    with pytest.raises(StudyError, match="unknown agent"):
        _spec(tmp_path, agents=("nobody",))
    with pytest.raises(StudyError, match="players must be 2 to 4"):
        _spec(tmp_path, players=7)
    bad = tmp_path / "bad.toml"
    bad.write_text('["Frigate"]\nkind = "ship"\ndomain = "neutral"\ncount = 2\nattack = "x"\ntext = "t"\n')
    with pytest.raises(StudyError, match="Frigate"):
        _spec(tmp_path, cards_file=str(bad))
    with pytest.raises(StudyError, match="cannot read"):
        _spec(tmp_path, cards_file=str(tmp_path / "missing.toml"))
    with pytest.raises(StudyError, match="nothing answers there|needs Ray"):
        _spec(tmp_path, backend="ray", address="127.0.0.1:1")
    with pytest.raises(StudyError, match="--address is for --backend ray"):
        _spec(tmp_path, address="127.0.0.1:6379")
    for precision in (0.0, -0.1, 1.5):
        with pytest.raises(StudyError, match="--precision must be between 0 and 1"):
            _spec(tmp_path, precision=precision)
    R.run_study(_spec(tmp_path / "a"))
    with pytest.raises(StudyError, match="other settings.*seed"):
        R.run_study(_spec(tmp_path / "a", seed=4))


def test_the_commands(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from starcom.cli.main import app
    runner = CliRunner()
    args = ["study", "cards", "--only", "Barrage", "--agents", "random", "--max-games", "8", "--seed", "2"]
    res = runner.invoke(app, [*args, "--out", str(tmp_path / "a")], terminal_width=200)
    assert res.exit_code == 0, res.output
    assert "Barrage" in res.output and (tmp_path / "a" / "report.html").exists()
    res = runner.invoke(app, [*args, "--seed", "3", "--out", str(tmp_path / "b")], terminal_width=200)
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["study", "diff", str(tmp_path / "a"), str(tmp_path / "b" / "results.json")],
                        terminal_width=200)
    assert res.exit_code == 0 and "Barrage" in res.output, res.output
    res = runner.invoke(app, ["study", "cards", "--only", "Barage", "--out", str(tmp_path / "c")])
    assert res.exit_code == 2 and "no card named 'Barage'" in " ".join(res.output.split())
    assert not (tmp_path / "c").exists()  # refused before any game, and before any folder
    res = runner.invoke(app, ["study", "diff", str(tmp_path / "a"), str(tmp_path / "nowhere")])
    assert res.exit_code == 2 and "not the results of a study" in " ".join(res.output.split())


def test_values_by_agent_strength(tmp_path: Path) -> None:
    """With one agent per seat, each card's value is also given by the agent playing the
    treated seat, weakest agent first (by win rate in the control games)."""
    data = _results(_spec(tmp_path, only=("Corvette",), agents=("random", "greedy"), max_games=8))
    assert data["agents_by_strength"] == ["random", "greedy"]  # greedy beats random
    by = data["cards"][0]["by_agent"]
    assert [a["agent"] for a in by] == ["random", "greedy"] and sum(a["pairs"] for a in by) == 4
    assert "Value by agent strength" in (tmp_path / "report.html").read_text()


def test_the_aa_pairs_are_independent_games_of_the_real_cards() -> None:
    """A/A: nothing treated, the control game another deal, so true values are zero but the
    differences are not all zero."""
    setup = Setup("", "built-in", ("Corvette",), ("random",), 2, 3, "standard", 30, 5, aa=True)
    results = [play_pair(setup, Job("Corvette", k)) for k in range(12)]
    assert any(r.difference != 0 for r in results)
    played = {name for r in results for g in (r.treated, r.control) for seat in g.played for name in seat}
    assert "Corvette" in played and not any(n.endswith("(stand-in)") for n in played)
    assert any(r.treated.turns != r.control.turns for r in results)  # two different games
    # each card has games of its own: the values of the cards of one run are independent
    setup2 = Setup("", "built-in", ("Corvette", "Frigate"), ("random",), 2, 3, "standard", 30, 5, aa=True)
    other = [play_pair(setup2, Job("Frigate", k)) for k in range(12)]
    assert [(r.treated, r.control) for r in other] != [(r.treated, r.control) for r in results]


def test_validation_runs_its_three_checks(tmp_path: Path) -> None:
    """A small validation (the real figures come from `starcom study validate`, docs/study.md)."""
    from starcom.sc.study import CHANGES, PANEL, planted
    from starcom.study.validate import ValidationSpec, planted_plan, validate
    v = ValidationSpec(game="starcom", runs=2, panel=("Corvette", "Barrage"), agents=("random",), max_games=8,
                       out=str(tmp_path), sweep=(2.0,))
    data = validate(v, ("aa", "planted", "sweep"))
    assert data["aa"]["card_values"] == 4 and 0 <= data["aa"]["coverage"] <= 1
    assert 0 <= data["aa"]["called_even"] <= 1
    assert [r["card"] for r in data["planted"]["runs"]] == ["Corvette", "Corvette"]  # ships only are changed
    assert [r["change"] for r in data["planted"]["runs"]] == ["double attack and hit points",
                                                             "halve attack and hit points"]
    planted_data = data["planted"]
    assert (planted_data["stronger_runs"], planted_data["weaker_runs"]) == (1, 1)
    for r, row in enumerate(planted_data["runs"]):
        assert all(0 <= row[k] <= 1 for k in ("treated_played", "control_played", "no_difference"))
        # found: strong when strengthened; weak or dead when weakened
        assert row["found"] == (row["verdict"] == "strong" if row["stronger"] else row["verdict"] in ("weak", "dead"))
        pairs = [PairResult.from_json(json.loads(line))
                 for line in (tmp_path / f"planted-{r:02d}" / "pairs.jsonl").read_text().splitlines()]
        values = {c: round(sum(p.difference for p in pairs if p.card == c) / 4, 6) for c in ("Corvette", "Barrage")}
        others = [x for name, x in values.items() if name != row["card"]]
        extreme = max if row["change"] == "double attack and hit points" else min
        # ranked right means strictly first (last): a tie with another card does not count
        assert row["rank_ok"] == (values[row["card"]] == extreme(values.values()) and values[row["card"]] not in others)
    assert planted_data["weaker_found"] == sum(r["found"] for r in planted_data["runs"] if not r["stronger"])
    plan = planted_plan(PANEL, CHANGES, 16)  # every card of the panel meets every change
    assert {(card, change) for card, change in plan} == {(c, ch) for c in PANEL for ch in CHANGES}
    assert json.loads((tmp_path / "validate.json").read_text())["sweep"]["card"] == "Corvette"
    assert planted("Frigate", "double cost").card("Frigate").cost == 2 * STANDARD.card("Frigate").cost
    with pytest.raises(StudyError, match="ship or station"):
        validate(ValidationSpec(game="starcom", runs=1, panel=("Barrage",), agents=("random",), max_games=8,
                                out=str(tmp_path / "x")), ("planted",))
    with pytest.raises(StudyError, match="no card named 'Frigat'"):
        validate(ValidationSpec(game="starcom", panel=("Frigat",), out=str(tmp_path / "y")), ("aa",))
    assert not (tmp_path / "y").exists()  # refused before any game


def test_the_tune_check_moves_a_price_and_tunes_it(tmp_path: Path) -> None:
    """The tune check: each run moves a panel ship's cost by +2 or -2 (its stand-in kept as it
    was) and tunes the cost around the moved one; found when the fair cost is within 1 of the
    card's own. A tiny run with random agents: the figures come from the command."""
    from starcom.study.validate import TUNE_TOLERANCE, ValidationSpec, parts_of, validate
    v = ValidationSpec(game="starcom", panel=("Corvette", "Barrage", "Frigate"), agents=("random",), max_games=8,
                       tune_runs=2, out=str(tmp_path))
    assert parts_of(v) == ("aa", "planted", "sweep", "tune")
    runs = validate(v, ("tune",))["tune"]["runs"]
    assert [(r["card"], r["moved_to"] - r["own"]) for r in runs] == [("Corvette", 2), ("Frigate", -2)]
    for r, row in enumerate(runs):
        assert row["own"] == STANDARD.card(row["card"]).cost and row["own"] in row["values"]
        assert row["values"] == list(range(max(0, row["moved_to"] - 2), row["moved_to"] + 3))
        assert row["found"] == (row["fair"] is not None and row["fair_low"] is not None
                                and abs(row["fair"] - row["own"]) <= TUNE_TOLERANCE)
        tune = json.loads((tmp_path / f"tune-{r:02d}" / "tune.json").read_text())
        assert tune["card"] == row["card"] and tune["current"] == row["moved_to"]


def test_anomalies_come_with_replays_that_open(tmp_path: Path) -> None:
    """Every anomaly of the report links the two games of its pair, saved so that `starcom
    replay` (and the browser, tests/web/test_replay.py) opens them with the study's cards."""
    from typer.testing import CliRunner

    from starcom.cli.main import app
    from starcom.sc.records import load
    from starcom.study.report import _anomalies, save_replays
    spec = _spec(tmp_path, only=("Frigate",), turn_limit=10, max_games=24)
    outcome = R.run_study(spec)
    data = write(outcome)
    limit = [a for a in data["anomalies"] if a["kind"] == "turn_limit"]
    assert len(limit) == 1 and limit[0]["card"] == "Frigate"
    assert "Anomalies" in (tmp_path / "report.html").read_text()
    for key in ("treated", "control"):
        path = tmp_path / limit[0]["replays"][key]
        assert path.is_file()
        cfg, actions, meta = load(path)
        assert cfg.turn_limit == 10 and meta["variant"].stand_ins == ("Frigate",)
        res = CliRunner().invoke(app, ["replay", str(path)])
        assert res.exit_code == 0 and "A study game: Frigate is played as its stand-in" in res.output
    # A flagged card (here: the Frigate, as if its interval excluded zero) gets the first pair
    # that went its way, and its saved games show that: better with the card than without.
    cards = [dict(c, flagged=True, value=0.1) for c in data["cards"]]
    flagged = [a for a in _anomalies(outcome, cards) if a["kind"] == "flagged"]
    way = sorted((r for r in outcome.cards["Frigate"].pairs if r.difference > 0), key=lambda r: r.pair)
    assert way and [a["pair"] for a in flagged] == [way[0].pair]
    save_replays(outcome, flagged)
    seat = way[0].seat
    won = [load(tmp_path / flagged[0]["replays"][k])[2]["game"] for k in ("treated", "control")]
    score = [GameFacts(g.winner if g.over else None, 0, False, ()).score(seat) for g in won]
    assert score[0] > score[1] and score == [way[0].treated.score(seat), way[0].control.score(seat)]


def test_a_saved_variant_is_checked() -> None:
    from starcom.sc.cards.stand_ins import Variant
    v = Variant(stand_ins=("Frigate",), real_for=(1,))
    assert Variant.from_json(v.to_json()) == v and v.rules() is Variant.from_json(v.to_json()).rules()
    custom = Variant(STANDARD.replaced("Frigate", cost=2).to_toml(), "mine.toml", ("Frigate",), ())
    assert Variant.from_json(custom.to_json()).rules().catalogue.card("Frigate").cost == 2
    for bad, reason in (([], "object"), ({"stand_ins": "Frigate"}, "list of card names"),
                        ({"stand_ins": ["Frigate"], "real_for": [9]}, "seat numbers"),
                        ({"stand_ins": ["Nothing"]}, "unknown card 'Nothing'"),
                        ({"stand_ins": ["Homeworld"]}, "no stand-in"), ({"colour": 1}, "no field 'colour'")):
        with pytest.raises(ValueError, match=reason):
            Variant.from_json(bad)


def test_a_card_held_but_never_legal_is_listed(tmp_path: Path) -> None:
    """A Refinery that costs 99 credits is drawn but can never be played: the report says so,
    and the real Refinery (cheap) is not listed."""
    dear = STANDARD.replaced("Refinery", cost=99)
    path = tmp_path / "dear.toml"
    path.write_text(dear.to_toml())
    data = _results(_spec(tmp_path / "dear", cards_file=str(path), only=("Refinery",), max_games=40))
    assert data["never_legal"] == ["Refinery"]
    [held] = [a for a in data["anomalies"] if a["kind"] == "never_legal"]
    assert held["card"] == "Refinery" and (tmp_path / "dear" / held["replays"]["treated"]).is_file()
    assert "Never legal when held" in (tmp_path / "dear" / "report.html").read_text()
    cheap = _results(_spec(tmp_path / "cheap", only=("Refinery",), max_games=40))
    assert cheap["never_legal"] == []


def test_handing_out_several_rounds_at_once_changes_nothing(tmp_path: Path, monkeypatch) -> None:
    """The runner hands the backend several rounds at once (all of them until a card may first
    stop); a card that stops inside a batch is fed whole rounds up to its stop and no further,
    exactly as when the rounds go one at a time. A fake pair makes the Corvette decisive, so
    that it stops early, and leaves the Barrage a coin."""
    from starcom.study.pairs import GameFacts, PairResult

    def fake(setup, job):
        seat = job.treated_seat(setup.players)
        win = GameFacts(seat, 10, False, ((), ()))
        rng = random.Random(f"{job.card}:{job.pair}")
        lose = GameFacts(1 - seat, 10, False, ((), ()))
        coin = win if rng.random() < 0.5 else lose
        treated = win if job.card == "Corvette" and rng.random() < 0.8 else coin
        return PairResult(job.card, job.pair, seat, treated, lose if treated is win else win)

    monkeypatch.setattr(R, "play_pair", fake)
    batched = R.run_study(_spec(tmp_path / "batched", max_games=200))
    monkeypatch.setattr(R, "_rounds_ahead", lambda *args: 1)
    one_by_one = R.run_study(_spec(tmp_path / "one", max_games=200))
    assert batched.cards["Corvette"].rule.decision.reason == "excluded_zero"
    for card in ("Corvette", "Barrage"):
        a, b = batched.cards[card], one_by_one.cards[card]
        assert a.pairs == b.pairs and a.rule.decision == b.rule.decision
        assert len(a.pairs) % 2 == 0  # whole rounds: every seat as often treated
    assert len(batched.cards["Corvette"].pairs) < 100 == len(batched.cards["Barrage"].pairs)


def test_a_card_that_changes_no_game_stops_once_its_interval_is_narrow(tmp_path: Path, monkeypatch) -> None:
    """The precision stop: a card whose pairs all tie stops after a few dozen pairs, once its
    95% interval is within ``precision`` of its value, and says so (``precise``); a card whose
    pairs are coin flips plays on to ``max_games``; without a precision both play to the end."""
    from starcom.study.pairs import GameFacts, PairResult

    def fake(setup, job):
        seat = job.treated_seat(setup.players)
        win, lose = GameFacts(seat, 10, False, ((), ())), GameFacts(1 - seat, 10, False, ((), ()))
        if job.card == "Corvette":
            return PairResult(job.card, job.pair, seat, win, win)
        coin = random.Random(f"{job.card}:{job.pair}").random() < 0.5
        return PairResult(job.card, job.pair, seat, win if coin else lose, lose if coin else win)

    monkeypatch.setattr(R, "play_pair", fake)
    stopped = R.run_study(_spec(tmp_path / "precise", max_games=200, precision=0.04))
    tie, coin = stopped.cards["Corvette"], stopped.cards["Barrage"]
    assert tie.rule.decision.reason == "precise" and R.MIN_PAIRS <= len(tie.pairs) <= 30
    assert tie.rule.interval().half_width <= 0.04
    assert coin.rule.decision.reason == "max_games" and len(coin.pairs) == 100
    full = R.run_study(_spec(tmp_path / "full", max_games=200, precision=None))
    assert [len(c.pairs) for c in full.cards.values()] == [100, 100]
    assert {c["card"]: c["stop"] for c in write(stopped)["cards"]} == {"Corvette": "precise", "Barrage": "max_games"}


def test_a_long_study_says_how_long_before_it_gets_far(tmp_path: Path, monkeypatch) -> None:
    """Once a few pairs are done the command estimates the time left at most and, past an hour,
    says so and suggests more workers, fewer games or a Ray cluster (here pairs take 0.4 s each,
    so 51 cards at 400 games would take over an hour; the run is then stopped with Ctrl-C)."""
    import time as clock

    from typer.testing import CliRunner

    from starcom.cli.main import app
    calls = {"n": 0}

    def slow(setup, job):
        calls["n"] += 1
        if calls["n"] > 6:
            raise KeyboardInterrupt
        clock.sleep(0.4)
        facts = GameFacts(0, 10, False, ((), ()))
        return PairResult(job.card, job.pair, job.treated_seat(2), facts, facts)

    from starcom.study.pairs import PairResult
    monkeypatch.setattr(R, "play_pair", slow)
    res = CliRunner().invoke(app, ["study", "cards", "--agents", "random", "--workers", "1",  # in-process: patched
                                   "--out", str(tmp_path / "long")])
    assert res.exit_code == 130
    text = " ".join(res.output.split())
    assert "At this pace the study may take up to" in text and "--backend ray" in text
    assert "run the same command to go on" in text


@pytest.mark.parametrize("game", ["starcom", "ge"])
def test_settings_left_out_are_the_games_own(tmp_path: Path, game: str) -> None:
    """The study names no game's settings: a player count, board size or edition left out is the
    game's default (its entry's ``rules.defaults()``), a setting it does not have is None."""
    from starcom.games import get
    rules = get(game).rules
    spec = StudySpec.checked(game=game, agents=("random",), max_games=24, out=str(tmp_path))
    assert spec.players == rules.player_counts[0]
    assert spec.size == (rules.sizes[0] if rules.sizes else None)
    assert spec.edition == (rules.editions[0] if rules.editions else None)
    assert {k: getattr(spec, k) for k in rules.defaults()} == rules.defaults()
    if rules.editions[1:]:  # a setting given is kept
        assert StudySpec.checked(game=game, edition=rules.editions[1], out=str(tmp_path)).edition == rules.editions[1]
