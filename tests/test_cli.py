"""The ``starcom`` command line, saved games and the readable log."""
from __future__ import annotations

import json
import random
import re
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from starcom import Config, Game, ReplayError
from starcom.agents import AGENTS
from starcom.cards.catalogue import DEFS
from starcom.cli.main import app
from starcom.engine.actions import to_json
from starcom.sim import record, selfplay
from starcom.text import EVENT_KINDS, Narrator, describe_event

SELFPLAY_KEYS = {"games", "finished", "errors", "invariant_violations", "steps", "steps_per_second",
                 "wins", "draws", "mean_turns"}
ENGINE = Path(__file__).resolve().parents[1] / "src" / "starcom"

runner = CliRunner()


def last_json(text: str) -> dict:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return json.loads(lines[-1])


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory) -> Path:
    """One greedy-vs-random game saved by ``selfplay --save-dir``."""
    out = tmp_path_factory.mktemp("games")
    res = runner.invoke(app, ["selfplay", "--games", "1", "--agents", "greedy,random", "--turn-limit", "16",
                              "--seed", "3", "--save-dir", str(out), "--json"])
    assert res.exit_code == 0, res.output
    return out / "game-0000.json"


# --------------------------------------------------------------------------- selfplay


def test_selfplay_json_has_exactly_the_keys_and_no_errors():
    res = runner.invoke(app, ["selfplay", "--games", "3", "--agents", "random", "--turn-limit", "20",
                              "--seed", "5", "--json"])
    assert res.exit_code == 0, res.output
    data = last_json(res.stdout)
    assert set(data) == SELFPLAY_KEYS
    assert data["games"] == 3 and data["finished"] == 3
    assert data["errors"] == 0 and data["invariant_violations"] == 0
    assert data["steps"] > 0 and data["steps_per_second"] > 0
    assert sum(data["wins"].values()) + data["draws"] == 3
    assert 1 <= data["mean_turns"] <= 20


def test_selfplay_is_deterministic_from_the_seed():
    args = ["selfplay", "--games", "2", "--agents", "greedy,random", "--turn-limit", "12", "--seed", "9", "--json"]
    a, b = (last_json(runner.invoke(app, args).stdout) for _ in range(2))
    a.pop("steps_per_second"), b.pop("steps_per_second")
    assert a == b


@pytest.mark.parametrize("args, words", [
    (["--players", "3", "--agents", "greedy,random"], "2 agents for 3 players"),
    (["--agents", "nobody"], "unknown agent 'nobody'"),
    (["--edition", "deluxe"], "unknown edition"),
    (["--players", "5"], "players must be 2 to 4"),
    (["--games", "0"], "at least one game"),
])
def test_selfplay_rejects_bad_options_clearly(args, words):
    res = runner.invoke(app, ["selfplay", *args])
    assert res.exit_code == 2
    assert words in re.sub(r"[\s│╭╮╰╯─]+", " ", res.output)


def test_selfplay_counts_agent_errors_and_exits_nonzero(monkeypatch):
    class Broken:
        name = "broken"

        def choose(self, game, rng):
            return ("develop", 999)

    monkeypatch.setitem(AGENTS, "broken", lambda think, iterations: Broken())
    res = runner.invoke(app, ["selfplay", "--games", "2", "--agents", "broken", "--json"])
    assert res.exit_code == 1
    data = last_json(res.stdout)
    assert data["errors"] == 2 and data["finished"] == 0
    assert "IllegalAction" in res.stderr


def test_selfplay_counts_invariant_violations(monkeypatch):
    seen = []

    def check_state(game):
        return ["too many credits"] if max(game.credits) > 4 else []

    def check_step(before, action, after):
        seen.append(action)
        return []

    monkeypatch.setattr(selfplay, "load_checks", lambda: (check_state, check_step))
    res = runner.invoke(app, ["selfplay", "--games", "1", "--agents", "greedy", "--turn-limit", "10", "--json"])
    data = last_json(res.stdout)
    assert res.exit_code == 1
    assert data["invariant_violations"] > 0
    assert len(seen) == data["steps"]
    assert "too many credits" in res.stderr


def test_selfplay_save_dir_writes_loadable_records(saved_game):
    cfg, actions, meta = record.load(saved_game)
    assert cfg == Config(2, 3, "standard", 3, 16)
    assert meta["agents"] == ["greedy", "random"]
    assert meta["game"].over and meta["result"]["winner"] == meta["game"].winner
    assert len(actions) == meta["result"]["steps"] > 0


# --------------------------------------------------------------------------- bench


def test_bench_json_reports_both_setups():
    res = runner.invoke(app, ["bench", "--steps", "300", "--json"])
    assert res.exit_code == 0, res.output
    data = last_json(res.stdout)
    assert {"steps_per_second_2p3", "steps_per_second_4p5", "ratio"} <= set(data)
    assert data["steps_per_second_2p3"] > 0 and data["steps_per_second_4p5"] > 0
    assert data["ratio"] == pytest.approx(data["steps_per_second_2p3"] / data["steps_per_second_4p5"], rel=0.01)


def test_bench_by_duration_runs():
    res = runner.invoke(app, ["bench", "--seconds", "0.05", "--json"])
    assert res.exit_code == 0, res.output
    assert last_json(res.stdout)["steps_per_second_4p5"] > 0


def test_bench_ai_counts_search_iterations():
    from starcom.sim.bench import measure_search
    m = measure_search(2, 3, decisions=3, iterations=25)
    assert m.decisions == 3 and m.iterations == 75 and m.seconds > 0
    res = runner.invoke(app, ["bench", "--ai", "--steps", "10", "--json"])
    assert res.exit_code == 0, res.output
    data = last_json(res.stdout)
    assert data["ismcts_iterations_per_second_2p3"] > 0 and data["ismcts_iterations_per_second_4p5"] > 0


# --------------------------------------------------------------------------- save / replay


def test_record_round_trip(tmp_path):
    g = Game.new(players=3, size=4, seed=4, turn_limit=6)
    rng = random.Random(4)
    actions = []
    while not g.over:
        a = rng.choice(g.legal_actions())
        actions.append(a)
        g.apply(a)
    path = record.save(tmp_path / "sub" / "g.json", g.cfg, actions, ["x", "y", "z"], record.result_of(g))
    data = json.loads(path.read_text())
    assert data["format"] == "starcom-game/1" and data["actions"][0] == to_json(actions[0])
    cfg, loaded, meta = record.load(path)
    assert cfg == g.cfg and loaded == actions
    assert meta["game"].to_json() == g.to_json()


def test_replay_prints_the_real_events(saved_game):
    _, actions, meta = record.load(saved_game)
    game = meta["game"]
    res = runner.invoke(app, ["replay", str(saved_game)])
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert out.count("Turn ") == game.turn + 1
    assert "Turn 1 — P" in out
    assert f"Game over: P{game.winner} wins" in out
    developed = sum(1 for a in actions if a[0] == "develop")
    assert out.count(" develops ") >= developed > 0


def test_replay_hides_other_players_cards_from_a_viewer(saved_game):
    everyone = runner.invoke(app, ["replay", str(saved_game)]).stdout
    drawer = re.search(r"P(\d) draws (?!an? )\w", everyone)
    assert drawer, "nobody drew a card in the saved game"
    q = int(drawer.group(1))
    other = runner.invoke(app, ["replay", str(saved_game), "--viewer", str(1 - q)]).stdout
    own = runner.invoke(app, ["replay", str(saved_game), "--viewer", str(q)]).stdout
    assert not re.search(rf"P{q} draws (?!an? )\w", other)
    assert re.search(rf"P{q} draws an? (Industry|Statecraft|Science) card", other)
    assert re.findall(rf"P{q} draws .*", own) == re.findall(rf"P{q} draws .*", everyone)


@pytest.mark.parametrize("content, words", [
    ('{"format": "starcom-game/1", "config": ', "not valid JSON"),
    ('{"format": "chess-pgn", "config": {}, "actions": []}', "unsupported format"),
    ('[1, 2]', "must be a JSON object"),
    ('{"format": "starcom-game/1", "config": {"players": 2}, "actions": []}', "config lacks"),
    ('{"format": "starcom-game/1", "config": {"players": 9, "size": 3, "edition": "standard", "seed": 0},'
     ' "actions": []}', "players must be 2 to 4"),
    ('{"format": "starcom-game/1", "config": {"players": 2, "size": 3, "edition": "standard", "seed": 0},'
     ' "actions": [{"type": "warp"}]}', "step 1"),
])
def test_corrupt_save_file_exits_2_with_a_message(tmp_path, content, words):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    res = runner.invoke(app, ["replay", str(bad)])
    assert res.exit_code == 2
    assert words in res.stderr
    with pytest.raises(ReplayError, match=re.escape(words)):
        record.load(bad)


def test_missing_save_file_exits_2(tmp_path):
    res = runner.invoke(app, ["replay", str(tmp_path / "nothing.json")])
    assert res.exit_code == 2
    assert "no such file" in res.stderr


def test_illegal_action_in_a_save_names_its_step(saved_game, tmp_path):
    data = json.loads(saved_game.read_text())
    steps = len(data["actions"])
    k = steps // 2
    data["actions"][k] = {"type": "build", "card": DEFS.index(next(d for d in DEFS if d.name == "Battleship")),
                          "at": 0}
    bad = tmp_path / "illegal.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ReplayError, match=rf"step {k + 1}: .*illegal"):
        record.load(bad)
    res = runner.invoke(app, ["replay", str(bad)])
    assert res.exit_code == 2 and f"step {k + 1}" in res.stderr


def test_wrong_recorded_winner_is_reported(saved_game, tmp_path):
    data = json.loads(saved_game.read_text())
    data["result"]["winner"] = 1 - data["result"]["winner"]
    bad = tmp_path / "w.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ReplayError, match="does not match"):
        record.load(bad)


# --------------------------------------------------------------------------- demo, scenario


def test_demo_game_prints_a_log_and_standings():
    res = runner.invoke(app, ["demo", "--seed", "2", "--turn-limit", "6", "--agents", "greedy,random"])
    assert res.exit_code == 0, res.output
    assert "P0: greedy, P1: random" in res.stdout
    assert "Turn 1 — P" in res.stdout and "Game over" in res.stdout
    assert "developments" in res.stdout


def test_demo_rejects_a_bad_board_size():
    res = runner.invoke(app, ["demo", "--size", "12"])
    assert res.exit_code == 2 and "board size" in res.output


def test_scenario_command_delegates_to_run_files(monkeypatch, tmp_path):
    calls = []
    fake = types.ModuleType("starcom.scenario")
    fake.run_files = lambda paths: calls.append(list(paths)) or 3
    monkeypatch.setitem(sys.modules, "starcom.scenario", fake)
    res = runner.invoke(app, ["scenario", "a.yaml", "b.yaml"])
    assert res.exit_code == 3
    assert calls == [["a.yaml", "b.yaml"]]


# --------------------------------------------------------------------------- readable text


def test_every_emitted_event_kind_has_its_own_sentence():
    sources = list((ENGINE / "engine").glob("*.py")) + [ENGINE / "cards" / "effects.py"]
    emitted = set()
    for src in sources:
        emitted |= set(re.findall(r'emit\(g, "(\w+)"', src.read_text()))
    assert emitted and emitted <= EVENT_KINDS, emitted - EVENT_KINDS


def test_real_events_read_as_english():
    """Every event of a few games gets a sentence of its own (not the raw fallback)."""
    for seed in range(3):
        g = Game.new(players=3, size=4, seed=seed, turn_limit=20)
        narrator = Narrator(g, verbose=True, reveal_all=True)
        kinds = set()
        lines = narrator.setup_lines(g)
        rng = random.Random(seed)
        while not g.over:
            events = g.apply(rng.choice(g.legal_actions()))
            for e in events:
                kinds.add(e[0])
                text = describe_event(e, 4, None, narrator.owners.get)
                assert text != " ".join(str(x) for x in e), e
            lines += narrator.step_lines(g, None, events)
        assert kinds <= EVENT_KINDS
        assert any(ln.startswith("Turn ") for ln in lines)


def test_jump_and_explore_read_as_one_line():
    g = Game.new(players=2, size=3, seed=0)
    narrator = Narrator(g, reveal_all=True)
    jump = next(a for a in g.legal_actions() if a[0] == "jump")
    events = g.apply(jump)
    lines = narrator.step_lines(g, jump, events)
    dest = g.vessels[jump[1]].pos
    site = g.sites[dest].d.name
    assert any(re.match(rf"P{g.active} jumps Scout from \w\d to \w\d \(explores: {site}\)", ln) for ln in lines), lines
