"""The card study of Galactic Empires (``starcom study cards --game ge``): the same study as Star
Commander's through the game's own hook (starcom/ge/study.py), with blanks as stand-ins
(docs/study.md, "Galactic Empires"). Random agents keep every test to seconds."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from starcom.cli.main import app
from starcom.errors import IllegalAction
from starcom.ge.cards import CARDS
from starcom.ge.game import GalacticEmpires, _cards_played
from starcom.ge.study import BY_NAME, STUDY, empires_for, new_game, replay
from starcom.study import runner as R
from starcom.study.pairs import Job, play_pair
from starcom.study.report import write
from starcom.study.spec import StudyError, StudySpec


def _spec(tmp: Path, **kw: object) -> StudySpec:
    settings = dict(game="ge", edition="quick", only=("Doctor", "Moon"), agents=("random",), max_games=8, seed=1,
                    out=str(tmp))
    settings.update(kw)
    return StudySpec.checked(**settings)


def _results(spec: StudySpec) -> dict:
    data = write(R.run_study(spec))
    data.pop("run")
    return data


def _text(res) -> str:
    return " ".join(res.output.split())


def test_a_tiny_study_runs_through_the_command(tmp_path: Path) -> None:
    args = ["study", "cards", "--game", "ge", "--edition", "quick", "--only", "Doctor,Moon", "--agents", "random",
            "--max-games", "8", "--seed", "1", "--out", str(tmp_path / "a")]
    res = CliRunner().invoke(app, args, terminal_width=200)
    assert res.exit_code == 0, res.output
    assert "Galactic Empires" in res.output and "Doctor" in res.output and "Moon" in res.output
    data = json.loads((tmp_path / "a" / "results.json").read_text())
    assert data["settings"]["game"] == "ge" and data["settings"]["size"] is None
    assert data["settings"]["edition"] == "quick" and data["game"]["title"] == "Galactic Empires"
    assert sorted(c["card"] for c in data["cards"]) == ["Doctor", "Moon"]
    for c in data["cards"]:  # an interval per card
        assert c["ci_low"] <= c["value"] <= c["ci_high"] and c["games"] == 8 and c["stop"] == "max_games"
        assert c["kind"] == {"Doctor": "crew R/C2", "Moon": "terrain T3"}[c["card"]]
    assert len(data["seat_advantage"]["seats"]) == 2 and data["rules"]["recorded"] is False
    page = (tmp_path / "a" / "report.html").read_text()
    assert "<svg" in page and "Card study of Galactic Empires" in page and "a blank" in page
    assert (tmp_path / "a" / "cards.csv").read_text().startswith("card,kind,value")
    # the same command again resumes: nothing is played twice
    res = CliRunner().invoke(app, args, terminal_width=200)
    assert res.exit_code == 0 and json.loads((tmp_path / "a" / "results.json").read_text())["run"]["pairs_played"] == 0


def test_the_same_seed_gives_the_same_results(tmp_path: Path) -> None:
    one = _results(_spec(tmp_path / "one"))
    assert one == _results(_spec(tmp_path / "two"))
    other = _results(_spec(tmp_path / "three", seed=2))
    assert one["game_length"] != other["game_length"]  # another seed, other deals
    setup = R.setup_of(_spec(tmp_path / "four"))
    assert play_pair(setup, Job("Doctor", 3)) == play_pair(setup, Job("Doctor", 3))


def test_the_stand_in_game_differs_only_in_the_card() -> None:
    """Treated and control game start as one game: the same cards in the same order, only the
    blanks differ (the other seat's copies, or every copy). Played side by side with the same
    choices they stay one game, state for state, until the treated seat may play or swap a real
    copy: the first legal actions that differ are exactly those."""
    parted = 0
    for k in range(6):
        seat = k % 2
        treated, control = (new_game("quick", 77 + k, 40, "Moon", seat, real) for real in
                            (frozenset({seat}), frozenset()))
        t, c = treated.to_json()["state"], control.to_json()["state"]
        moons = [u for u, i in enumerate(t["spec_of"]) if i == BY_NAME["Moon"].index]
        real = {u for u in moons if t["owner_of"][u] == seat}
        assert t.pop("blank") == sorted(set(moons) - real) and c.pop("blank") == moons
        assert t == c
        rnd = random.Random(k)
        while not treated.over:
            lt, lc = treated.legal_actions(), control.legal_actions()
            if lt != lc:
                assert set(lc) < set(lt) and treated.to_move == seat
                assert all(real & set(_cards_played(a)) for a in set(lt) - set(lc))
                parted += 1
                break
            act = lt[rnd.randrange(len(lt))]
            treated.apply(act)
            control.apply(act)
            t, c = treated.to_json()["state"], control.to_json()["state"]
            t.pop("blank"), c.pop("blank")
            assert t == c
        else:
            assert control.over and treated.winner == control.winner
    assert parted >= 3


def test_blanks_are_never_played_but_may_be_discarded() -> None:
    """Random games with every copy of each card blank: no blank ever enters play or the
    chain, and in the full edition a blank in hand may be dropped."""
    dropped = 0
    for card in CARDS:
        g = GalacticEmpires.new("full", seed=card.index, blank=[(0, card.key), (1, card.key)])
        blank = set(g.s.blank)
        assert len(blank) == sum(card.copies)
        rnd = random.Random(card.index)
        while not g.over and g.s.actions < 1500:
            acts = g.legal_actions()
            held = [a for a in acts if a[0] == "drop" and a[1] in blank]
            dropped += bool(held)
            g.apply(held[0] if held and rnd.random() < 0.3 else acts[rnd.randrange(len(acts))])
            assert blank.isdisjoint(g.s.units) and not any(blank & set(i.action[1:3]) for i in g.s.chain)
    assert dropped
    with pytest.raises(ValueError, match="seat"):
        GalacticEmpires.new("full", blank=[(2, "doctor")])
    with pytest.raises(ValueError, match="card key"):
        GalacticEmpires.new("full", blank=[(0, "Doctor")])


def test_a_blank_play_is_refused_with_its_reason() -> None:
    g = GalacticEmpires.new("quick", seed=3, blank=[(0, "moon"), (1, "moon")])
    rnd = random.Random(3)
    while not g.over:
        seat = g.to_move
        moon = [u for u in g.s.players[seat].hand if u in g.s.blank]
        if moon and g.s.phase == "play-a" and g.s.priority is None:
            assert not [a for a in g.legal_actions() if a[0] == "play" and a[1] == moon[0]]
            with pytest.raises(IllegalAction, match="blank"):
                g.apply(("play", moon[0], -1 - seat))
            return
        acts = g.legal_actions()
        g.apply(acts[rnd.randrange(len(acts))])
    pytest.fail("no blank Moon came to hand")


def test_a_card_of_one_deck_is_studied_in_that_deck() -> None:
    typhoon, claw = "Argonian Typhoon Heavy Cruiser", "Krebiz Claw Heavy Cruiser"
    for seat in (0, 1):
        assert empires_for(typhoon, seat)[seat] == "argonian" and empires_for(claw, seat)[seat] == "krebiz"
        assert empires_for("Doctor", seat) == ("argonian", "krebiz")  # in both decks: the seats take turns
    g = new_game("quick", 1, 40, claw, 0, frozenset({0}))
    assert g.s.players[0].empire == "krebiz" and not g.s.blank  # the other deck has no Claw to blank


def test_bad_options_are_refused_with_what_is_allowed(tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["study", "cards", "--game", "ge", "--out", str(tmp_path / "x")]
    for extra, words in ((["--size", "4"], "--size 4: Galactic Empires has no board"),
                         (["--players", "3"], "--players 3: Galactic Empires is for exactly 2 players"),
                         (["--edition", "classic"], "Galactic Empires' editions are full and quick"),
                         (["--cards", "mine.toml"], "--cards mine.toml: Galactic Empires is studied with its own"),
                         (["--turn-limit", "0"], "turn cap (GE-OPT-3) is 1 to 1000"),
                         (["--only", "Frigate"], "no card named 'Frigate' in Galactic Empires' catalogue"),
                         (["--agents", "cunning"], "unknown agent 'cunning'")):
        res = runner.invoke(app, base + extra, terminal_width=200)
        assert res.exit_code == 2 and words in _text(res), (extra, res.output)
    res = runner.invoke(app, ["study", "cards", "--game", "chess"], terminal_width=200)
    assert res.exit_code == 2 and "unknown game 'chess'" in _text(res)
    assert not (tmp_path / "x").exists()  # refused before any game, and before any folder
    with pytest.raises(StudyError, match="no board"):
        _spec(tmp_path, size=3)


def test_the_list_names_every_card_of_the_game() -> None:
    res = CliRunner().invoke(app, ["study", "cards", "--game", "ge", "--list"], terminal_width=200)
    assert res.exit_code == 0 and res.output.splitlines() == [c.name for c in CARDS]
    assert STUDY.studied(None) == [c.name for c in CARDS]  # type: ignore[arg-type]


def test_replays_are_the_games_the_study_counted(tmp_path: Path) -> None:
    """At a turn cap of 2 the games end at the cap: the report flags it with the two games of
    the pair saved, and each saved game played again ends as the study counted it."""
    spec = _spec(tmp_path, only=("Moon",), turn_limit=2)
    outcome = R.run_study(spec)
    data = write(outcome)
    [limit] = [a for a in data["anomalies"] if a["kind"] == "turn_limit"]
    pair = next(r for r in outcome.cards["Moon"].pairs if r.pair == limit["pair"])
    for key, facts in (("treated", pair.treated), ("control", pair.control)):
        record = json.loads((tmp_path / limit["replays"][key]).read_text())
        game = replay(record)
        assert game.over and game.winner == facts.winner == record["result"]["winner"]
        assert game.turn + 1 == facts.turns and game.s.end == "turn cap"
    assert "starcom-ge-study/1" in (tmp_path / "report.html").read_text()


def test_validate_plants_changes_in_ge_ships(tmp_path: Path) -> None:
    """`starcom study validate --game ge`: the same checks as Star Commander's, with Galactic
    Empires' planted changes (a ship's shields and weapons, or its cost). A tiny run: the
    figures come from the command (docs/study.md)."""
    from starcom.ge.study import CHANGES, PANEL, card_of
    from starcom.study.hook import Settings
    base = Settings(2, None, "quick", 40)
    strong = STUDY.planting.plant(base, "Krebiz Pincer Destroyer", "double shields and weapons", 2.0)
    weak = STUDY.planting.plant(base, "Krebiz Pincer Destroyer", "double cost", 2.0)
    before = card_of(base, "Krebiz Pincer Destroyer")
    assert (card_of(strong, "Krebiz Pincer Destroyer").phasers, card_of(strong, "Krebiz Pincer Destroyer").heavy) \
        == (2 * before.phasers, 2 * before.heavy)
    assert card_of(weak, "Krebiz Pincer Destroyer").cost == tuple(2 * n for n in before.cost)
    assert card_of(weak, "Doctor") == card_of(base, "Doctor")  # no other card changed
    assert all(STUDY.planting.plantable(base, c) for c in PANEL) and not STUDY.planting.plantable(base, "Doctor")
    args = ["study", "validate", "--game", "ge", "--part", "aa,planted", "--runs", "2", "--agents", "random",
            "--max-games", "4", "--out", str(tmp_path / "v")]
    res = CliRunner().invoke(app, args, terminal_width=200)
    assert res.exit_code == 0, res.output
    data = json.loads((tmp_path / "v" / "validate.json").read_text())
    assert data["settings"]["game"] == "ge" and data["settings"]["panel"] == list(PANEL)
    assert [(r["card"], r["change"]) for r in data["planted"]["runs"]] == [(PANEL[0], CHANGES[0].name),
                                                                        (PANEL[1], CHANGES[1].name)]
    assert data["aa"]["card_values"] == 2 * len(PANEL) and "Found:" in res.output
    res = CliRunner().invoke(app, ["study", "validate", "--game", "ge", "--panel", "Doctor", "--part", "planted",
                                   "--out", str(tmp_path / "w")])
    assert res.exit_code == 2 and "a ship" in res.output
    res = CliRunner().invoke(app, ["study", "validate", "--game", "ge", "--part", "tune", "--out", str(tmp_path / "t")])
    assert res.exit_code == 2 and "no tune check" in _text(res)
