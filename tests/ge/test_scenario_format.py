"""Galactic Empires' scenario format (src/starcom/ge/scenario.py, docs/scenarios.md "Galactic
Empires"): the setup keys, the expectations, clear errors for bad files, the plain ``on`` key,
``xfail``, and the worked example of the docs."""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from starcom.ge.scenario import build, check
from starcom.scenarios import Scenario, ScenarioError, load, run, run_files

DOCS = Path(__file__).resolve().parents[2] / "docs" / "scenarios.md"


def scenario(setup: dict[str, Any] | None = None, actions: list[Any] | None = None,
             expect: dict[str, Any] | None = None, **extra: Any) -> Scenario:
    spec: dict[str, Any] = {"game": "ge", "setup": setup or {}, "actions": actions or [], "expect": expect or {}}
    return Scenario("test", {**spec, **extra}, "test.yaml")


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), "utf-8")
    return path


FIRE = {"phase": "fire", "hands": {1: ["small_moon"]},
        "cards": [{"card": "argonian_typhoon", "owner": 0, "label": "typhoon"},
                  {"card": "krebiz_clipper", "owner": 1, "label": "clipper"}]}
VOLLEY = ["aim $clipper", "add $typhoon phaser", "fire", "pass"]


# --------------------------------------------------------------------------- the `on` key


def test_the_on_key_may_be_written_plain_or_quoted(tmp_path: Path) -> None:
    """YAML reads a plain ``on:`` as the boolean true; the runner takes it as ``on``."""
    for key in ("on", '"on"'):
        path = write(tmp_path, f"""\
            - name: crew on a ship
              game: ge
              setup:
                cards:
                  - {{card: argonian_sunspot, owner: 0, label: sunspot}}
                  - card: doctor
                    owner: 0
                    {key}: sunspot
              expect:
                {key}: {{doctor: sunspot}}
            """)
        sc, = load(path)
        assert run(sc) == []
        g, labels = build(sc.spec)
        assert g.s.units[labels["doctor"]].parent == labels["sunspot"]


def test_other_boolean_keys_are_refused_with_a_hint() -> None:
    problems = run(scenario({"cards": [{"card": "moon", False: 1}]}))
    assert len(problems) == 1
    assert problems[0].startswith("setup: cards[0]: unknown key False") and "quote it" in problems[0]


# --------------------------------------------------------------------------- setup


def test_turns_may_be_given_per_seat() -> None:
    g, _ = build({"setup": {"turns": {0: 3, 1: 2}}})
    assert [p.turns for p in g.s.players] == [3, 2]


def test_an_empty_deck_and_a_deck_from_the_top() -> None:
    g, labels = build({"setup": {"deck": {0: [], 1: ["doctor", {"card": "moon", "label": "m"}]}}})
    s = g.s
    assert s.players[0].deck == []
    assert s.players[1].deck == [labels["m"], labels["doctor"]]  # the top is the end of the list
    # nothing is lost: every card of a seat is somewhere
    for seat, p in enumerate(s.players):
        assert len(p.deck) + len(p.discard) + len(p.hand) + len(p.reserve) == s.owner_of.count(seat)


def test_reserve_cards_get_labels() -> None:
    g, labels = build({"setup": {"reserve": {0: [{"card": "siobhan_7", "label": "planet"}, "moon"]}}})
    assert sorted(g.s.players[0].reserve) == sorted([labels["planet"], labels["moon"]])
    assert g.s.players[0].reserve_public


def test_a_combined_krebiz_ship() -> None:
    g, labels = build({"setup": {"active": 1, "cards": [
        {"card": "krebiz_clipper", "owner": 1, "label": "c"},
        {"card": "krebiz_light_capsule", "owner": 1, "label": "k", "partner": "c"}]}})
    c, k = g.s.units[labels["c"]], g.s.units[labels["k"]]
    assert (c.partner, k.partner, k.parent) == (labels["k"], labels["c"], labels["c"])
    assert not c.locked and not k.locked


def test_plays_already_used_and_the_pool() -> None:
    g, _ = build({"setup": {"phase": "allocate", "plays": {0: 2}, "pool": {0: {"energy": 2}}}})
    assert g.s.players[0].plays == 2 and g.s.players[0].pool[2] == 2


@pytest.mark.parametrize("setup,needle", [
    ({"phase": "lunch"}, "phase: unknown phase 'lunch'"),
    ({"turnz": 3}, "unknown key 'turnz'"),
    ({"turns": {0: 0}}, "turns: seat 0: 0 is not a turn number"),
    ({"turns": {2: 3}}, "turns: 2 is not a seat"),
    ({"cards": [{"card": "moonn"}]}, "cards[0]: unknown card 'moonn' (did you mean moon"),
    ({"cards": [{"card": "moon", "lable": "m"}]}, "cards[0]: unknown key 'lable'"),
    ({"cards": [{"card": "moon", "on": "nowhere"}]}, "cards[0]: on: unknown label 'nowhere'"),
    ({"cards": [{"card": "moon", "damage": "lots"}]}, "cards[0]: damage: 'lots' is not a whole number"),
    ({"cards": [{"card": "moon", "label": "x"}, {"card": "small_moon", "label": "x"}]}, "label 'x' is given twice"),
    ({"cards": [{"card": "krebiz_clipper", "owner": 1, "label": "c"},
                {"card": "krebiz_heavy_capsule", "owner": 1, "partner": "c"}]}, "cards[1]: partner: krebiz_heavy_capsule cannot combine"),
    ({"hands": {0: ["krebiz_claw"]}}, "hands: 0[0]: seat 0 has no krebiz_claw"),
    ({"deck": {0: ["krebiz_claw"]}}, "deck: 0[0]: seat 0 has no krebiz_claw left in its deck or discard pile"),
    ({"pool": {0: {"energy": 1}}}, "pool: points exist only in the allocate phase"),
    ({"phase": "allocate", "pool": {0: {"enrgy": 1}}}, "pool: 0: unknown key 'enrgy'"),
    ({"hq": {0: -1}}, "hq: 0: -1 is not a whole number"),
])
def test_bad_setups_name_the_key(setup: dict[str, Any], needle: str) -> None:
    problems = run(scenario(setup))
    assert len(problems) == 1 and problems[0].startswith("setup: ") and needle in problems[0], problems


def test_a_misspelt_scenario_key_is_refused() -> None:
    problems = run(Scenario("typo", {"game": "ge", "expext": {"hq": {1: 3}}}))
    assert problems and "unknown key 'expext'" in problems[0]


def test_a_key_given_as_label_to_two_cards_names_neither() -> None:
    problems = run(scenario({"hands": {0: ["argonian_sunspot"]},
                             "cards": [{"card": "argonian_sunspot", "owner": 0}]},
                            ["play $argonian_sunspot fleet:0"]))
    assert problems == ["step 1: action: '$argonian_sunspot' names two cards of that key: give each a 'label'"]


# --------------------------------------------------------------------------- expectations


def test_new_expectations_hold_after_a_volley() -> None:
    sc = scenario(FIRE, VOLLEY, {
        "damage": {"clipper": 1}, "plays": {0: 0}, "deck_size": {0: 46 - 2}, "hand": {1: ["small_moon"]},
        "where": {"clipper": "play", "small_moon": "hand"},
        "events": ["volley", {"kind": "volley", "player": 0, "target": "$clipper", "amount": 1}],
        "no_events": [{"kind": "volley", "amount": 2}, "destroyed"]})
    assert run(sc) == []


@pytest.mark.parametrize("expect,needle", [
    ({"damage": {"clipper": 2}}, "damage of clipper: expected 2, got 1"),
    ({"plays": {0: 1}}, "plays of P0: expected 1, got 0"),
    ({"discard": {0: []}}, "discard of P0: expected [], got ['fleet_freighter']"),
    ({"discard_top": {1: ["moon"]}}, "top of P1's discard pile: expected ['moon'], got ['doctor']"),
    ({"deck_size": {1: 0}}, "deck_size of P1: expected 0"),
    ({"events": [{"kind": "volley", "amount": 3}]}, "expected an event {'kind': 'volley', 'amount': 3}"),
    ({"no_events": ["volley"]}, "expected no event 'volley'"),
    ({"where": {"clipper": "hand"}}, "where clipper is: expected 'hand', got 'play'"),
])
def test_failing_expectations_say_what_failed(expect: dict[str, Any], needle: str) -> None:
    problems = run(scenario(FIRE, VOLLEY, expect))
    assert len(problems) == 1 and needle in problems[0], problems


def test_the_pool_and_plays_in_allocation() -> None:
    sc = scenario({"phase": "allocate", "cards": [{"card": "moon", "owner": 0}]},
                  expect={"pool": {0: {"supply": 2, "energy": 1}}})
    assert run(sc) == []
    sc = scenario({"phase": "allocate", "cards": [{"card": "moon", "owner": 0}]},
                  expect={"pool": {0: {"supply": 2}}})
    assert run(sc) == ["pool of P0: expected {'supply': 2}, got {'supply': 2, 'energy': 1}"]


@pytest.mark.parametrize("expect,needle", [
    ({"hp": 3}, "unknown key 'hp'"),
    ({"events": [{"kind": "volley", "size": 1}]}, "a 'volley' event has no field 'size'"),
    ({"events": [{"amount": 1}]}, "neither an event kind nor a mapping with a 'kind'"),
    ({"damage": {"nobody": 1}}, "unknown label 'nobody'"),
    ({"where": {"clipper": "space"}}, "'space' is not a zone"),
])
def test_malformed_expectations_name_the_key(expect: dict[str, Any], needle: str) -> None:
    problems = run(scenario(FIRE, VOLLEY, expect))
    assert len(problems) == 1 and problems[0].startswith("expect: malformed expectation") and needle in problems[0]
    step = run(scenario(FIRE, [*VOLLEY, {"expect": expect}]))
    assert len(step) == 1 and step[0].startswith("step 5: ") and needle in step[0]


def test_step_events_are_those_of_the_last_action_final_ones_of_all() -> None:
    sc = scenario(FIRE, [*VOLLEY, {"expect": {"events": ["volley"], "no_events": ["aim"]}}],
                  {"events": ["aim", "volley"]})
    assert run(sc) == []


def test_check_is_usable_from_python() -> None:
    g, labels = build({"setup": FIRE})
    assert check(g, {"on": {"clipper": None}, "hq": {1: 0}}, labels) == []
    with pytest.raises(ScenarioError, match="unknown key"):
        check(g, {"nothing": 1}, labels)


# --------------------------------------------------------------------------- steps and files


def test_bad_steps_fail_with_a_message() -> None:
    assert run(scenario(FIRE, ["aim $nobody"]))[0].startswith("step 1: action: unknown label '$nobody'")
    assert run(scenario(FIRE, [{"dont": "x"}]))[0].startswith("step 1: a step is an action")
    assert run(scenario(FIRE, ["aim hq:1"]))[0].startswith("step 1: GE-FIRE-10")
    illegal = run(scenario(FIRE, [{"illegal": "aim $clipper"}]))
    assert illegal == ["step 1: expected 'aim krebiz_clipper#76' to be illegal, but it was applied"]
    other = run(scenario(FIRE, [{"illegal": "aim hq:1", "rule": "GE-FIRE-3"}]))
    assert other[0].startswith("step 1: 'aim hq:1' was illegal, but for another reason: GE-FIRE-10")


def test_a_list_action_reads_as_its_words() -> None:
    assert run(scenario(FIRE, [["aim", "$clipper"], ["add", "$typhoon", "phaser"], ["fire"], ["pass"]],
                        {"damage": {"clipper": 1}})) == []


def test_run_files_names_file_and_scenario_and_counts_xfail(tmp_path: Path) -> None:
    path = write(tmp_path, """\
        - name: broken on purpose
          game: ge
          setup: {cards: [{card: moon, lable: m}]}
        - name: known bug
          game: ge
          xfail: the engine gets it wrong
          expect: {hq: {1: 9}}
        - name: fixed bug
          game: ge
          xfail: it was wrong once
          expect: {hq: {1: 0}}
        """)
    lines: list[str] = []
    assert run_files([str(path)], echo=lines.append) == 1
    assert lines[0] == f"FAIL {path}: broken on purpose"
    assert lines[1].strip().startswith("setup: cards[0]: unknown key 'lable'")
    assert lines[2] == f"xfail {path}: known bug (the engine gets it wrong)"
    assert lines[3].startswith(f"XPASS {path}: fixed bug")
    assert lines[-1] == "0 passed, 2 failed, 1 known bugs (xfail)"


def test_the_documented_example_runs(tmp_path: Path) -> None:
    """The worked Galactic Empires example of docs/scenarios.md passes as written."""
    doc = DOCS.read_text("utf-8")
    start = doc.index("<!-- ge-example -->")
    block = doc[doc.index("```yaml", start) + len("```yaml"):]
    block = block[:block.index("```")]
    path = write(tmp_path, block, "example.yaml")
    scenarios = load(path)
    assert scenarios and all(sc.game == "ge" for sc in scenarios)
    assert "on" in block.split("expect:")[0] and "'on'" not in block  # the plain key, as a newcomer writes it
    lines: list[str] = []
    assert run_files([str(path)], echo=lines.append) == 0, "\n".join(lines)


def test_a_label_given_is_never_taken_over_by_a_card_key() -> None:
    g, labels = build({"setup": {"cards": [{"card": "moon", "owner": 0, "label": "small_moon"},
                                           {"card": "small_moon", "owner": 0}]}})
    assert g.s.spec(labels["small_moon"]).key == "moon"
    problems = run(scenario({"cards": [{"card": "moon", "owner": 0},
                                       {"card": "small_moon", "owner": 0, "label": "moon"}]}))
    assert problems == ["setup: cards[1]: the label 'moon' is already the key of another card: label that card too"]
