"""The scenario runner itself (src/starcom/sc/scenario.py): passing and failing scenarios, clear
messages for malformed ones, the text action syntax, and ``run_files``' exit code and summary."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from starcom.sc.cards.catalogue import BY_NAME, CARD_DEF
from starcom.sc.scenario import Scenario, ScenarioError, build, load, parse_action, run, run_files

# A small position used throughout: P0 to act with a Corvette next to an unexplored b3.
BASE: dict[str, Any] = {
    "setup": {"active": 0, "players": [{"credits": 5}],
              "board": {"b3": {"system": "Empty System", "face_up": False}},
              "vessels": [{"card": "Corvette", "owner": 0, "at": "c3", "label": "corv"}]},
}


def scenario(**extra: Any) -> Scenario:
    return Scenario("test", {**BASE, **extra})


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), "utf-8")
    return path


# --------------------------------------------------------------------------- run()


def test_a_scenario_whose_expectations_hold_passes() -> None:
    sc = scenario(actions=["jump $corv b3 1 0", {"expect": {"vessel": {"corv": {"pos": "b3"}}}}],
                  expect={"vessel": {"corv": {"pos": "b3", "jumps": 1}}, "credits": {0: 5},
                          "site": {"b3": {"face_up": True}}, "events": ["move", "explore"]})
    assert run(sc) == []


def test_a_wrong_final_expectation_fails_naming_what_and_both_values() -> None:
    problems = run(scenario(actions=["jump $corv b3 1 0"], expect={"credits": {0: 99}}))
    assert problems == ["credits of P0: expected 99, got 5"]


def test_a_wrong_expectation_in_a_step_fails_naming_the_step() -> None:
    problems = run(scenario(actions=["jump $corv b3 1 0", {"expect": {"vessel": {"corv": {"pos": "c2"}}}}]))
    assert len(problems) == 1
    assert problems[0].startswith("step 2: pos of corv: expected")


def test_every_mismatch_is_reported() -> None:
    problems = run(scenario(expect={"credits": {0: 1}, "hand_size": {0: 3}}))
    assert len(problems) == 2
    assert any("credits of P0" in p for p in problems) and any("hand size of P0" in p for p in problems)


@pytest.mark.parametrize("expect,needle", [
    ({"credit": {0: 5}}, "unknown expectation 'credit'"),
    ({"vessel": {"corvette": {"pos": "c3"}}}, "unknown label"),
    ({"vessel": {"corv": "destroyed"}}, "expected destroyed"),
    ({"legal": ["jump $corv b2 1 0"]}, "to be legal"),
    ({"not_legal": ["end"]}, "not to be legal"),
    ({"events": ["combat"]}, "expected an event 'combat'"),
])
def test_failing_expectations_say_what_failed(expect: dict[str, Any], needle: str) -> None:
    problems = run(scenario(expect=expect))
    assert problems and needle in problems[0]


def test_a_malformed_expectation_is_a_failure_not_a_crash() -> None:
    problems = run(scenario(expect={"site": {"b3": {"no_such_field": 1}}}))
    assert problems and "malformed expectation" in problems[0]
    problems = run(scenario(expect={"site": {"z9": {"devs": 1}}}))
    assert problems and "z9" in problems[0]


def test_an_engine_choice_left_unanswered_fails() -> None:
    # two domains: the Ready phase asks which deck to draw from
    spec = {"setup": {"active": 0, "phase": "ready",
                      "board": {"b3": {"system": "Trade World", "owner": 0},
                                "c2": {"system": "Alien System", "owner": 0}}}}
    problems = run(Scenario("choice", {**spec, "actions": ["end"]}))
    assert len(problems) == 1 and "unscripted choice 'deck' for P0" in problems[0]
    assert problems[0].startswith("step 1")
    problems = run(Scenario("choice", spec))
    assert len(problems) == 1 and problems[0].startswith("end: unscripted choice 'deck'")
    assert run(Scenario("choice", {**spec, "actions": [["choose", 2]]})) == []
    assert run(Scenario("choice", {**spec, "allow_pending_choice": True})) == []


def test_an_illegal_step_that_is_legal_fails() -> None:
    problems = run(scenario(actions=[{"illegal": "jump $corv b3 1 0"}]))
    assert len(problems) == 1 and "to be illegal, but it was applied" in problems[0]


def test_an_illegal_step_for_another_rule_fails() -> None:
    problems = run(scenario(actions=[{"illegal": "jump $corv b2 0 0", "rule": "MOVE-4"}]))
    assert len(problems) == 1 and "for another reason" in problems[0] and "MOVE-1" in problems[0]
    assert run(scenario(actions=[{"illegal": "jump $corv b2 0 0", "rule": "MOVE-1"}])) == []


def test_an_action_that_turns_out_illegal_fails_with_the_engines_reason() -> None:
    problems = run(scenario(actions=["build Battleship c3"]))
    assert len(problems) == 1 and problems[0].startswith("step 1") and "BUILD-1" in problems[0]


@pytest.mark.parametrize("setup,needle", [
    ({"players": [{"hand": ["Death Star"]}]}, "unknown card 'Death Star'"),
    ({"vessels": [{"card": "Evasion", "owner": 0, "at": "c3"}]}, "not a ship or station"),
    ({"board": {"b3": {"system": "Corvette"}}}, "not a system card"),
    ({"board": {"q7": {"devs": 1}}}, "q7"),
    ({"phase": "lunch"}, "unknown phase"),
    ({"decks": {"military": ["Evasion"]}}, "unknown deck"),
    ({"credits": 5}, "unknown setup keys: credits"),
    ({"players": [{"credit": 5}]}, "unknown player 0 keys: credit"),
    ({"board": {"b3": {"dev": 1}}}, "unknown board keys: dev"),
    ({"vessels": [{"card": "Corvette", "at": "c3", "lable": "x"}]}, "unknown vessel keys: lable"),
    ({"players": [{"hand": ["Jump Stabilization"] * 3}]}, "no free copy"),
])
def test_malformed_setups_fail_with_a_clear_message(setup: dict[str, Any], needle: str) -> None:
    problems = run(Scenario("bad", {"setup": setup}))
    assert len(problems) == 1 and problems[0].startswith("setup:") and needle in problems[0], problems


def test_misspelt_scenario_keys_are_rejected_rather_than_silently_ignored() -> None:
    problems = run(Scenario("typo", {"expext": {"credits": {0: 99}}}))
    assert problems == ["setup: unknown scenario keys: expext"]
    with pytest.raises(ScenarioError, match="unknown scenario keys"):
        build({"playerz": 3})


def test_a_scenario_may_name_its_game() -> None:
    """``game: starcom`` is what the platform reads to pick the runner; the runner accepts it."""
    from starcom.scenarios import run as run_any
    assert run_any(Scenario("named", {"game": "starcom", "setup": {"active": 0},
                                      "expect": {"credits": {0: 3}}})) == []


def test_a_bad_step_fails_with_a_message() -> None:
    assert "unknown label '$nope'" in run(scenario(actions=["jump $nope b3 1 0"]))[0]
    assert "malformed step" in run(scenario(actions=[{"dont": "end"}]))[0]
    assert "no 'Evasion' found" in run(scenario(actions=["play Evasion $corv"]))[0]


# --------------------------------------------------------------------------- action syntax


def test_text_actions_join_card_names_and_read_numbers() -> None:
    g, labels = build({"setup": {"active": 0, "players": [{"hand": ["Trade Envoy", "Evasion", "Evasion"]}],
                                 "vessels": [{"card": "Corvette", "owner": 0, "at": "c3", "label": "corv"}]}})
    kind, card, pos = parse_action(g, "play Trade Envoy b2", labels)
    assert (kind, CARD_DEF[card].name, pos) == ("play", "Trade Envoy", 4)
    assert parse_action(g, "jump $corv b3 1 0", labels) == ("jump", labels["corv"], 7, 1, 0)
    assert parse_action(g, ["jump", "$corv", "b3", 1, 0], labels) == ("jump", labels["corv"], 7, 1, 0)
    assert parse_action(g, "build Corvette c3", labels) == ("build", BY_NAME["Corvette"].index, 8)
    _, a, b = parse_action(g, "sell Evasion Evasion", labels)
    assert a != b and {CARD_DEF[a].name, CARD_DEF[b].name} == {"Evasion"}
    assert parse_action(g, {"type": "develop", "at": 8}, labels) == ("develop", 8)
    assert parse_action(g, "choose skip", labels) == ("choose", "skip")


# --------------------------------------------------------------------------- files


GOOD = """\
    - name: good one
      setup: {active: 0}
      expect: {credits: {0: 3}}
    - name: bad one
      setup: {active: 0}
      expect: {credits: {0: 4}}
    """


def test_load_reads_lists_and_several_documents(tmp_path: Path) -> None:
    path = write(tmp_path, "two.yaml", """\
        name: first
        expect: {credits: {0: 3}}
        ---
        - name: second
        - {}
        """)
    scenarios = load(path)
    assert [sc.name for sc in scenarios] == ["first", "second", "two.yaml#3"]
    assert all(sc.source == str(path) for sc in scenarios)


@pytest.mark.parametrize("text,needle", [
    ("- name: [unclosed\n", "not valid YAML"),
    ("- just a string\n", "must be a mapping"),
    ("42\n", "must be a mapping"),
])
def test_load_rejects_malformed_files(tmp_path: Path, text: str, needle: str) -> None:
    with pytest.raises(ScenarioError, match=needle):
        load(write(tmp_path, "bad.yaml", text))


def test_load_names_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read"):
        load(tmp_path / "nowhere.yaml")


def test_run_files_returns_zero_when_all_pass_and_prints_the_summary(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.yaml", "- name: fine\n  setup: {active: 0}\n  expect: {credits: {0: 3}}\n")
    lines: list[str] = []
    assert run_files([str(path)], echo=lines.append) == 0
    assert lines[-1] == "1 passed, 0 failed"
    assert lines[0].startswith("ok ") and "fine" in lines[0]


def test_run_files_returns_one_on_failure_and_reports_each_scenario(tmp_path: Path) -> None:
    path = write(tmp_path, "mixed.yaml", GOOD)
    lines: list[str] = []
    assert run_files([str(path)], echo=lines.append) == 1
    assert lines[-1] == "1 passed, 1 failed"
    fail = next(i for i, line in enumerate(lines) if line.startswith("FAIL"))
    assert "bad one" in lines[fail] and "credits of P0: expected 4, got 3" in lines[fail + 1]


def test_run_files_counts_unreadable_files_as_failures(tmp_path: Path) -> None:
    good = write(tmp_path, "ok.yaml", "- name: fine\n")
    broken = write(tmp_path, "broken.yaml", "- name: [\n")
    lines: list[str] = []
    code = run_files([str(good), str(tmp_path / "missing.yaml"), str(broken)], echo=lines.append)
    assert code == 1
    assert lines[-1] == "1 passed, 2 failed"
    errors = [line for line in lines if line.startswith("ERROR")]
    assert len(errors) == 2 and "missing.yaml" in errors[0] and "not valid YAML" in errors[1]


def test_run_files_prints_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "ok.yaml", "- name: fine\n")
    assert run_files([str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 0 failed"


def test_the_command_line_runs_scenario_files(tmp_path: Path) -> None:
    path = write(tmp_path, "mixed.yaml", GOOD)
    exe = Path(sys.executable).with_name("starcom")
    if not exe.exists():
        pytest.skip("the starcom command is not installed next to this Python")
    done = subprocess.run([str(exe), "scenario", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stdout.strip().splitlines()[-1] == "1 passed, 1 failed"


def test_the_documented_example_runs(tmp_path: Path) -> None:
    """The worked example of docs/scenarios.md passes as written."""
    doc = (Path(__file__).parent.parent / "docs" / "scenarios.md").read_text("utf-8")
    start = doc.index("<!-- example -->")
    block = doc[doc.index("```yaml", start) + len("```yaml"):]
    block = block[:block.index("```")]
    path = write(tmp_path, "example.yaml", block)
    scenarios = load(path)
    assert scenarios and yaml.safe_load(block)
    lines: list[str] = []
    assert run_files([str(path)], echo=lines.append) == 0, "\n".join(lines)
