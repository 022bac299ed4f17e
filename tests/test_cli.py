"""The ``starcom`` command line, saved games and the readable log."""
from __future__ import annotations

import json
import os
import random
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from starcom.sc.engine.state import Config

from starcom.sc.engine.game import Game
from starcom.errors import ReplayError
from starcom.sc.agents import AGENTS, agent_names
from starcom.sc.cards.catalogue import DEFS
from starcom.cli import serve as serve_cli
from starcom.cli.main import app
from starcom.sc.engine.actions import to_json
from starcom.server.limits import CREATE_LIMIT
from starcom.sc import records as record
from starcom.sim import selfplay
from starcom.sc.text import EVENT_KINDS, Narrator, describe_event

SELFPLAY_KEYS = {"games", "finished", "errors", "invariant_violations", "steps", "steps_per_second",
                 "wins", "draws", "mean_turns", "median_turns", "p90_turns", "conquests", "turn_limit_wins",
                 "action_caps", "conquest_share"}
ENGINE = Path(__file__).resolve().parents[1] / "src" / "starcom" / "sc"

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
    # every game ended exactly one way
    assert data["conquests"] + data["turn_limit_wins"] + data["draws"] + data["action_caps"] + data["errors"] == 3


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

    monkeypatch.setattr(selfplay, "load_checks", lambda entry=None: (check_state, check_step))
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


def test_bench_measures_python_chess_as_its_anchor(monkeypatch):
    pytest.importorskip("chess", reason="python-chess is not installed (pip install chess)")
    res = runner.invoke(app, ["bench", "--steps", "300", "--json"])
    assert res.exit_code == 0, res.output
    data = last_json(res.stdout)
    assert data["chess_steps_per_second"] > 0
    assert data["vs_chess"] == pytest.approx(data["steps_per_second_2p3"] / data["chess_steps_per_second"], rel=0.01)
    assert "as many steps per second as python-chess" in res.output
    import starcom.sim.bench as bench_module
    monkeypatch.setattr(bench_module, "chess_available", lambda: False)
    res = runner.invoke(app, ["bench", "--steps", "300", "--json"])
    assert res.exit_code == 0, res.output
    assert "vs_chess" not in last_json(res.stdout) and "python-chess is not installed" in res.output


def test_bench_by_duration_runs():
    res = runner.invoke(app, ["bench", "--seconds", "0.05", "--json"])
    assert res.exit_code == 0, res.output
    assert last_json(res.stdout)["steps_per_second_4p5"] > 0


def test_bench_ai_counts_search_iterations():
    from starcom.sim.bench import measure_search
    m = measure_search("starcom", {"players": 2, "size": 3}, decisions=3, iterations=25)
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


def test_demo_plays_any_game_through_its_entry():
    res = runner.invoke(app, ["demo", "--game", "ge", "--seed", "3", "--turn-limit", "3", "--agents", "random"])
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("Galactic Empires — ") and "P0: random, P1: random" in res.stdout
    assert "Game over" in res.stdout and "result" in res.stdout  # its table: each seat's result
    res = runner.invoke(app, ["demo", "--game", "chess"])
    assert res.exit_code == 2 and "unknown game 'chess'" in res.output


def test_study_validate_refuses_a_bad_part_or_panel_before_any_game(tmp_path):
    res = runner.invoke(app, ["study", "validate", "--part", "aa,nothing", "--out", str(tmp_path / "a")])
    assert res.exit_code == 2 and "--part 'aa,nothing'" in res.output
    res = runner.invoke(app, ["study", "validate", "--panel", "Frigat", "--out", str(tmp_path / "b")])
    assert res.exit_code == 2 and "no card named 'Frigat'" in res.output
    res = runner.invoke(app, ["study", "validate", "--runs", "0", "--out", str(tmp_path / "c")])
    assert res.exit_code == 2 and "--runs must be at least 1" in res.output
    assert not any((tmp_path / n).exists() for n in "abc")


def test_demo_rejects_a_bad_board_size():
    res = runner.invoke(app, ["demo", "--size", "12"])
    assert res.exit_code == 2 and "board size" in res.output


def test_scenario_command_delegates_to_run_files(monkeypatch, tmp_path):
    import starcom.scenarios
    calls = []
    monkeypatch.setattr(starcom.scenarios, "run_files", lambda paths: calls.append(list(paths)) or 3)
    res = runner.invoke(app, ["scenario", "a.yaml", "b.yaml"])
    assert res.exit_code == 3
    assert calls == [["a.yaml", "b.yaml"]]


def test_scenario_command_hands_each_scenario_to_its_game(monkeypatch, tmp_path):
    """Each scenario goes to the runner of the game its ``game`` names (none: the legacy game's)."""
    import dataclasses

    from starcom import games
    ran: list[tuple[str, str]] = []
    for name in ("starcom", "ge"):
        entry = games.get(name)
        monkeypatch.setitem(games._REGISTRY, name, dataclasses.replace(entry, tools=dataclasses.replace(
            entry.tools, scenario=lambda spec, name=name: ran.append((name, spec["name"])) or
            (["it failed"] if spec["name"] == "bad" else []))))
    path = tmp_path / "mixed.yaml"
    path.write_text("- name: plain\n- name: other\n  game: ge\n- name: bad\n  game: ge\n"
                    "- name: unknown\n  game: chess\n")
    res = runner.invoke(app, ["scenario", str(path)])
    assert res.exit_code == 1, res.output
    assert ran == [("starcom", "plain"), ("ge", "other"), ("ge", "bad")]
    assert "it failed" in res.stdout and "unknown game 'chess'" in res.stdout
    assert res.stdout.strip().splitlines()[-1] == "2 passed, 2 failed"


# --------------------------------------------------------------------------- readable text


def test_every_emitted_event_kind_has_its_own_sentence():
    sources = list((ENGINE / "engine").glob("*.py")) + [ENGINE / "cards" / "effects.py"]
    emitted = set()
    for src in sources:
        emitted |= set(re.findall(r'emit\(g, E\.\w+\("(\w+)"', src.read_text()))
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


# --------------------------------------------------------------------------- replay: default view, --json


@pytest.fixture(scope="module")
def unfinished_game(tmp_path_factory) -> Path:
    """A game saved part-way, after both seats have drawn cards the other may not see."""
    from starcom.sc.agents import make_agent
    g = Game.new(players=2, size=3, seed=11)
    bot, rng = make_agent("greedy"), random.Random(11)
    actions: list[tuple] = []
    drew: set[int] = set()
    while drew != {0, 1} or g.turn < 6:
        a = bot.choose(g, rng)
        actions.append(a)
        drew |= {e[1] for e in g.apply(a) if e[0] == "draw"}
    assert not g.over
    return record.save(tmp_path_factory.mktemp("unfinished") / "g.json", g.cfg, actions, ["greedy", "greedy"],
                       record.result_of(g))


NAMED_DRAW = r"P(\d) draws (?!an? )\w"   # a draw that names the card


def test_replay_of_an_unfinished_game_shows_the_spectators_view_by_default(unfinished_game):
    default = runner.invoke(app, ["replay", str(unfinished_game)])
    spectator = runner.invoke(app, ["replay", str(unfinished_game), "--viewer", "spectator"])
    everything = runner.invoke(app, ["replay", str(unfinished_game), "--viewer", "all"])
    assert default.exit_code == spectator.exit_code == everything.exit_code == 0, default.output
    assert re.search(NAMED_DRAW, everything.stdout), "nobody drew a card in the unfinished game"
    assert not re.search(NAMED_DRAW, default.stdout)
    assert re.search(r"P\d draws an? (Industry|Statecraft|Science) card", default.stdout)
    assert not re.search(r"\bseed\b", default.stdout) and re.search(r"\bseed 11\b", everything.stdout)
    assert "--viewer all shows every card" in default.stdout
    assert default.stdout.replace("(shown as a spectator sees it; --viewer all shows every card)\n", "") \
        == spectator.stdout


def _text_lines(out: str) -> list[str]:
    """The log lines of ``starcom replay`` text output: no header, no notes, no indentation."""
    lines = [ln.strip() for ln in out.splitlines()[1:] if ln.strip()]
    return [ln for ln in lines if not ln.startswith("(") and not re.fullmatch(r"(P\d: \w+(, )?)+", ln)]


@pytest.mark.parametrize("viewer", ["all", "0", "spectator"])
def test_replay_json_tells_the_same_story_as_the_text(saved_game, unfinished_game, viewer):
    for path in (saved_game, unfinished_game):
        text = runner.invoke(app, ["replay", str(path), "--viewer", viewer])
        res = runner.invoke(app, ["replay", str(path), "--viewer", viewer, "--json"])
        assert res.exit_code == 0, res.output
        data = json.loads(res.stdout)
        cfg, actions, meta = record.load(path)
        game = meta["game"]
        assert data["viewer"] == (int(viewer) if viewer.isdigit() else viewer)
        assert (data["over"], data["steps"], data["turns"]) == (game.over, len(actions), game.turn + 1)
        assert data["winner"] == (game.winner if game.over else None)
        assert data["agents"] == meta["agents"]
        assert ("seed" in data["config"]) == (viewer == "all" or game.over)
        history = data["history"]
        assert [h["step"] for h in history] == list(range(len(actions) + 1))
        assert [ln for h in history for ln in h["lines"]] == _text_lines(text.stdout)
        if viewer == "all":
            assert [h["action"] for h in history[1:]] == [to_json(a) for a in actions]
        # who acted is public; the rules engine says who was to move before each action
        g = Game.from_config(cfg)
        for h, a in zip(history[1:], actions):
            assert h["by"] == g.to_move and h["text"]
            g.apply(a)


def test_replay_json_of_an_unfinished_game_hides_what_the_viewer_may_not_see(unfinished_game):
    seat0 = json.loads(runner.invoke(app, ["replay", str(unfinished_game), "--viewer", "0", "--json"]).stdout)
    lines = [ln for h in seat0["history"] for ln in h["lines"]]
    assert not any(re.match(r"P1 draws (?!an? )\w", ln) for ln in lines)
    assert any(re.match(r"P0 draws (?!an? )\w", ln) for ln in lines)
    assert "seed" not in seat0["config"] and "seed" not in json.dumps(seat0)


def test_replay_rejects_a_viewer_outside_the_game(saved_game):
    res = runner.invoke(app, ["replay", str(saved_game), "--viewer", "5"])
    assert res.exit_code == 2 and "seat 5 is not in this 2-player game" in re.sub(r"[\s│]+", " ", res.output)


# --------------------------------------------------------------------------- --help of every command


def _commands() -> list[tuple[str, Any]]:
    group = typer.main.get_command(app)
    ctx = group.context_class(group)
    return [("", group)] + [(name, group.get_command(ctx, name)) for name in group.list_commands(ctx)]


def _parses(words: list[str]) -> None:
    """Parse ``starcom ...`` as the command line would (options, types, ranges), without running it."""
    assert words[0] == "starcom", words
    args = words[1:]
    if "COMMAND" in args:  # "starcom COMMAND --help": stands for any command
        return
    group = typer.main.get_command(app)
    if not args or args[0].startswith("-"):  # what Commands.parse_args does
        args = ["serve", *args]
    parent = group.context_class(group, info_name="starcom")
    command = group.get_command(parent, args[0])
    assert command is not None, words
    command.make_context(args[0], args[1:], parent=parent)


def _example_lines(epilog: str) -> list[str]:
    """The command lines of an epilog of examples: comment lines and comments left out, a line
    cut with the shell's continuation joined again."""
    joined = re.sub(r"\s*\\\n\s*", " ", "\n".join(ln.rstrip() for ln in epilog.splitlines()))
    lines = [ln.split(" # ")[0].strip() for ln in joined.splitlines()[1:]]
    return [ln for ln in lines if ln and not ln.startswith("#")]


def _examples(epilog: str) -> list[list[str]]:
    """Each example of an epilog as the words of its command line (a redirection left out)."""
    return [shlex.split(re.split(r"\s[<>]\s", ln)[0]) for ln in _example_lines(epilog)]


def _all_commands() -> list[tuple[str, Any]]:
    """Every command of ``starcom``, the subcommands of a group (``study cards``) included."""
    group = typer.main.get_command(app)
    out: list[tuple[str, Any]] = []

    def walk(path: str, command: Any) -> None:
        out.append((path, command))
        ctx = command.context_class(command)
        for name in getattr(command, "list_commands", lambda _ctx: [])(ctx):
            walk(f"{path} {name}".strip(), command.get_command(ctx, name))

    walk("", group)
    return out


@pytest.mark.parametrize("name, command", _all_commands(), ids=lambda v: v if isinstance(v, str) else "")
def test_help_examples_fit_80_columns(name, command, monkeypatch):
    """Issue 30: at 80 columns no example of any help screen breaks in the middle of a line: each
    line of the Examples section is a command, a comment line ("# ...") or the rest of a command
    cut with the shell's continuation, and together they are the very commands of the source."""
    if not command.epilog:
        return
    monkeypatch.setenv("COLUMNS", "80")
    res = runner.invoke(app, [*name.split(), "--help"], terminal_width=80)
    assert res.exit_code == 0, res.output
    shown = res.stdout.split("Examples:", 1)[1].splitlines()
    assert all(len(ln) <= 80 for ln in res.stdout.splitlines())
    previous = ""
    for ln in (ln.strip() for ln in shown):
        if ln:
            assert ln.startswith(("starcom", "#")) or previous.endswith("\\"), (name, ln)
        previous = ln
    assert _example_lines("Examples:\n" + "\n".join(shown)) == _example_lines(command.epilog)


def test_fit_examples_leaves_fitting_lines_and_cuts_long_ones():
    from starcom.cli.helptext import fit_examples
    short = "Examples:\n  starcom play          # against the AI"
    assert fit_examples(short) == short
    long = ("Examples:\n  starcom play   # a short one\n"
            "  starcom match --engine \"starcom bot --agent greedy\" --engine \"python3 a/very/long/path/bot.py\" "
            "--games 20  # a comment")
    lines = fit_examples(long).splitlines()
    assert lines == ["Examples:", "  # a short one", "  starcom play", "  # a comment",
                     '  starcom match --engine "starcom bot --agent greedy" \\',
                     '    --engine "python3 a/very/long/path/bot.py" --games 20']
    assert all(len(ln.strip()) <= 78 for ln in lines)


def test_help_lists_every_command():
    names = {name for name, _ in _commands()}
    assert {"serve", "play", "demo", "selfplay", "bench", "replay", "scenario", "loadtest", "arena"} <= names


@pytest.mark.parametrize("name, command", _commands(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_command_explains_itself_and_each_option(name, command):
    """A one-line summary, a paragraph saying more, examples, and help text for every option
    and argument; ``-h`` and ``--help`` both show it."""
    summary, *more = (command.help or "").split("\n\n")
    assert summary and "\n" not in summary and len(summary) <= 90, summary
    assert more and len(more[0].split()) >= 12, f"{name or 'starcom'}: no paragraph after the summary"
    assert command.epilog and command.epilog.startswith("Examples:\n")
    examples = _examples(command.epilog)
    assert any(words[:2] == ["starcom", name] or words == ["starcom"] for words in examples), examples
    for words in examples:  # every example is a command line that starcom accepts
        _parses(words)
    missing = [p.name for p in command.params
               if p.name != "help" and len((getattr(p, "help", None) or "").split()) < 3]
    assert not missing, f"{name or 'starcom'}: options without help text: {missing}"
    for flag in ("-h", "--help"):
        res = runner.invoke(app, [*([name] if name else []), flag], terminal_width=200)
        assert res.exit_code == 0, res.output
        flat = re.sub(r"[\s│]+", " ", res.stdout)
        assert summary in flat and "Examples:" in flat
        for p in command.params:
            assert p.opts[0] in flat or p.human_readable_name.lower() in flat.lower(), p.opts


def test_demo_agents_help_names_every_ai():
    res = runner.invoke(app, ["demo", "--help"], terminal_width=200)
    flat = re.sub(r"[\s│]+", " ", res.stdout)
    for name in agent_names():
        assert re.search(rf"\b{name}\b", flat.split("--agents", 1)[1].split("--turn-limit")[0]), name


# --------------------------------------------------------------------------- serve: options, busy port


class _Served:
    """Stand-ins for the server app and uvicorn, recording what ``starcom serve`` asked for."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import uvicorn

        import starcom.server.app as server_app
        self.created: list[tuple[str, dict]] = []
        self.ran: list[tuple[object, list[int]]] = []
        self.timers: list[float] = []
        self.opened: list[str] = []
        monkeypatch.setattr(server_app, "create_app", lambda db, **kw: self.created.append((db, kw)) or "app")
        monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets=None: self.ran.append(
            (server.config.app, [s.getsockname()[1] for s in sockets or []])))
        monkeypatch.setattr(serve_cli.webbrowser, "open", self.opened.append)

        served = self

        class Timer:  # runs the browser opener at once instead of a second later
            def __init__(self, delay: float, fn) -> None:
                served.timers.append(delay)
                self.fn = fn

            def start(self) -> None:
                self.fn()

        monkeypatch.setattr(serve_cli.threading, "Timer", Timer)
        monkeypatch.delenv("CI", raising=False)


def test_options_before_any_command_go_to_serve(monkeypatch, tmp_path):
    served = _Served(monkeypatch)
    db = f"sqlite:///{tmp_path / 'g.db'}"
    res = runner.invoke(app, ["--no-browser", "--port", "0", "--db", db, "--create-limit", "3"])
    assert res.exit_code == 0, res.output
    assert served.created == [(db, {"takeover_seconds": 60.0, "ai_workers": None, "allow_ai_games": False,
                                     "allowed_origins": (), "create_limit": 3})]
    ((web_app, ports),) = served.ran
    assert web_app == "app" and len(ports) == 1 and ports[0] > 0
    assert f"open http://localhost:{ports[0]}/ in your browser" in res.stdout
    assert served.opened == [] and served.timers == []
    # the same with the command named, and this time the browser opens on the printed address
    res = runner.invoke(app, ["serve", "--port", "0", "--db", db])
    assert res.exit_code == 0, res.output
    port = served.ran[-1][1][0]
    assert served.opened == [f"http://localhost:{port}/"]
    assert served.created[-1][1]["create_limit"] == CREATE_LIMIT  # the server's own default


def test_starcom_alone_serves_on_the_default_port(monkeypatch):
    served = _Served(monkeypatch)
    asked: list[tuple[str, int]] = []
    real = serve_cli.listen_socket

    def listen(host: str, port: int) -> socket.socket:
        asked.append((host, port))
        return real(host, 0)  # port 8000 may be in use on the test machine

    monkeypatch.setattr(serve_cli, "listen_socket", listen)
    res = runner.invoke(app, [])
    assert res.exit_code == 0, res.output
    assert asked == [("127.0.0.1", 8000)] and served.created[0][0] == "sqlite:///starcom.db"
    assert len(served.opened) == 1


def test_a_busy_port_is_named_with_a_free_one_to_use(monkeypatch, tmp_path):
    import starcom.server.app as server_app
    monkeypatch.setattr(server_app, "create_app", lambda *a, **k: pytest.fail("the database must not be opened"))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        res = runner.invoke(app, ["serve", "--port", str(port), "--no-browser", "--db", f"sqlite:///{tmp_path}/x.db"])
        assert res.exit_code == 2 and isinstance(res.exception, SystemExit)
        (line,) = res.stderr.splitlines()
        assert line.startswith(f"error: port {port} is already in use on 127.0.0.1")
        free = int(re.search(r"--port (\d+) \(free now\)", line).group(1))
        assert free != port
        with socket.socket() as s:  # the suggested port can indeed be had
            s.bind(("127.0.0.1", free))


@pytest.mark.parametrize("args, words", [
    (["--host", "no-such-host.invalid"], "cannot listen on --host 'no-such-host.invalid'"),
    (["--port", "70000"], "--port"),
    (["--ai-workers", "99"], "use 0 (automatic) to 64"),
    (["--create-limit", "-1"], "use 0 (no limit) or more"),
    (["--window-hold", "-0.5"], "use 0 to 10 seconds"),
    (["--window-hold", "60"], "use 0 to 10 seconds"),
])
def test_serve_refuses_bad_options_in_one_clear_message(monkeypatch, args, words):
    import starcom.server.app as server_app
    monkeypatch.setattr(server_app, "create_app", lambda *a, **k: pytest.fail("the database must not be opened"))
    res = runner.invoke(app, ["serve", "--no-browser", *args])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit)
    assert words in re.sub(r"[\s│╭╮╰╯─]+", " ", res.output)


STARCOM = Path(sys.executable).with_name("starcom")


@pytest.mark.skipif(not STARCOM.exists(), reason="the starcom script is not installed next to this Python")
def test_a_second_server_hears_that_the_port_is_taken_not_that_the_database_is(tmp_path):
    """A real server process, started as `starcom --no-browser --port 0`: it serves its page; a
    second one on the same port and database is told about the port, and Ctrl+C stops the first."""
    import signal
    import threading
    import urllib.request
    db = f"sqlite:///{tmp_path / 'games.db'}"
    env = {**os.environ, "CI": "1"}
    first = subprocess.Popen([str(STARCOM), "--no-browser", "--port", "0", "--db", db], env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    watchdog = threading.Timer(120, first.kill)  # never hang the suite if the server does not start
    watchdog.start()
    try:
        line = first.stdout.readline()
        port = int(re.search(r"http://localhost:(\d+)/", line).group(1))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
            assert page.status == 200
        second = subprocess.run([str(STARCOM), "serve", "--no-browser", "--port", str(port), "--db", db], env=env,
                                check=False, capture_output=True, text=True, timeout=60)
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr.startswith(f"error: port {port} is already in use") and "--port" in second.stderr
        assert "Traceback" not in second.stderr and "database" not in second.stderr
        first.send_signal(signal.SIGINT)
        _, err = first.communicate(timeout=60)
        assert first.returncode == 0 and "Traceback" not in err, err
    finally:
        watchdog.cancel()
        if first.poll() is None:
            first.kill()
            first.wait()


# --------------------------------------------------------------------------- scripts/setup.sh


SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
# A stand-in for python3: `-c` (the version check) succeeds; `-m venv DIR` makes DIR/bin/python,
# a stand-in that logs its arguments and fails when the file FAIL_PIP exists.
FAKE_PYTHON = """#!/usr/bin/env bash
if [[ $1 == -m && $2 == venv ]]; then
  [[ -e FAIL_VENV ]] && { mkdir -p "$3/bin"; exit 1; }
  mkdir -p "$3/bin"
  printf '#!/usr/bin/env bash\\necho "$*" >> pip.log\\n[[ ! -e FAIL_PIP ]]\\n' > "$3/bin/python"
  chmod +x "$3/bin/python"
fi
exit 0
"""


@pytest.fixture
def clone(tmp_path) -> Path:
    """A directory laid out like a fresh clone, with a stand-in Python."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "setup.sh").write_text((SCRIPTS / "setup.sh").read_text())
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "starcom"\n')
    fake = tmp_path / "fake-python"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    return tmp_path


def _setup(clone: Path, extras: str = "") -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if k != "STARCOM_PURE"}, "PYTHON": str(clone / "fake-python"),
           "EXTRAS": extras}
    return subprocess.run(["bash", "scripts/setup.sh"], check=False, cwd=clone, env=env, capture_output=True, text=True,
                          timeout=60)


def _pip_log(clone: Path) -> list[str]:
    """What the stand-in Python was asked to do with pip (it logs every call)."""
    return [line for line in (clone / "pip.log").read_text().splitlines() if "-m pip " in f"{line} "]


def test_setup_says_what_it_installs_the_first_time_and_nothing_after(clone):
    first = _setup(clone)
    assert first.returncode == 0 and first.stdout == "", first.stderr
    said = first.stderr.splitlines()
    assert said[0] == "Creating a virtual environment in .venv…"
    assert said[1] == "Installing starcom and its dependencies into .venv (first start only, about 30 s)…"
    assert re.fullmatch(r"Installed in \d+ s; later starts skip this step\.", said[-1])
    log = _pip_log(clone)
    assert log[-1].endswith("install --quiet --disable-pip-version-check -e .")
    # ... and then makes the compiled build of the rules (quiet when it is there: docs/build.md)
    assert "starcom.build" in (clone / "pip.log").read_text().splitlines()[-1]
    again = _setup(clone)
    assert again.returncode == 0 and again.stderr == "" and _pip_log(clone) == log
    dev = _setup(clone, "dev")
    assert "Installing starcom with its extra packages (dev)" in dev.stderr
    assert _pip_log(clone)[-1].endswith("-e .[dev]")
    assert _setup(clone).stderr == ""   # the dev install includes the base packages
    (clone / "pyproject.toml").write_text('[project]\nname = "starcom"\nversion = "2"\n')
    changed = _setup(clone)
    assert changed.stderr.startswith("pyproject.toml changed: updating starcom's dependencies")


def test_setup_failures_say_what_to_do_and_leave_no_half_install(clone):
    (clone / "FAIL_VENV").touch()
    venv = _setup(clone)
    assert venv.returncode == 1 and "could not create .venv" in venv.stderr and "python3-venv" in venv.stderr
    assert not (clone / ".venv").exists()
    (clone / "FAIL_VENV").unlink()
    (clone / "FAIL_PIP").touch()
    pip = _setup(clone)
    assert pip.returncode == 1 and "the installation failed" in pip.stderr
    assert not list((clone / ".venv").glob(".installed-*"))
    (clone / "FAIL_PIP").unlink()
    assert "Installing starcom and its dependencies" in _setup(clone).stderr


def test_play_text_mode_plays_a_game_from_numbers_and_notation():
    # Answers: a bad one (refused, asked again), then a notation, then "1" (the first choice).
    # --yes: "1" (ending the Command phase with actions left) is played without a question.
    res = runner.invoke(app, ["play", "--text", "--yes", "--seed", "3", "--seats", "human,easy", "--turn-limit", "2"],
                        input="zzz\nend\n" + "1\n" * 300)
    assert res.exit_code == 0, res.output
    assert "1. P0 ends the Command phase  [end]" in res.output
    assert "'zzz' is not one of the choices" in res.output
    assert "Turn 2" in res.output and "wins" in res.output.lower()


def test_play_text_mode_left_unfinished_says_so():
    res = runner.invoke(app, ["play", "--text", "--seed", "3"], input="")
    assert res.exit_code == 1 and "left unfinished" in res.output


def _listing(output: str) -> list[dict[str, int]]:
    """Each list of choices in a text game's output, as notation -> number."""
    lists: list[dict[str, int]] = []
    current: dict[str, int] | None = None
    for line in output.splitlines():
        m = re.match(r"\s+(\d+)\. .*\[(.+)\]$", line)
        if m:
            if current is None:
                current = {}
                lists.append(current)
            current[m.group(2)] = int(m.group(1))
        elif not line.startswith(" "):
            current = None
    return lists


def test_play_text_keeps_numbers_confirms_and_answers_commands():
    """Issue 30: within a decision a number keeps its option (a "7" typed twice never lands on
    another one); a scrap picked by number asks first; board, hand, card and help answer."""
    answers = ["7",            # develop c3 (2 credits of 3)
               "7",            # refused: develop is gone, and 7 is given to no other option
               "8", "n",       # scrap the only Scout: asked, and declined
               "board", "hand", "card corvete", "card evasion", "help", "list scrap",
               "build Strike Fighter c3",   # the notation works as the numbers do
               "quit"]
    res = runner.invoke(app, ["play", "--text", "--seed", "3", "--seats", "human,easy"],
                        input="\n".join(answers) + "\n")
    out = res.output
    assert res.exit_code == 1 and "left unfinished" in out
    first, second, *_ = _listing(out)
    assert first["develop c3"] == 7 and first["scrap Scout#93"] == 8
    assert "develop c3" not in second and all(first[k] == n for k, n in second.items() if k in first)
    assert "P0 develops c3 (costs 2 credits; you have 3)" in out
    assert "7 is no longer a choice (it was: P0 develops c3" in out
    assert "It is your only ship." in out and "Not played; choose again." in out
    assert not re.search(r"^(P0> )*P0 scraps", out, re.M)  # a log line, not an option: never played
    assert "c3: Homeworld, P0's, 2/6 developments:" in out and "P0 Scout #93 (attack 0, 2 hp)" in out
    assert "P0 (you): 1 credit" in out and "Your hand is empty." in out
    assert "did you mean Corvette?" in out and "Damage to the chosen ship is prevented" in out
    assert "Commands:" in out and "card NAME" in out
    assert "P0 builds Strike Fighter at c3" in out


def test_play_text_yes_plays_an_irreversible_pick_at_once():
    res = runner.invoke(app, ["play", "--text", "--yes", "--seed", "3", "--seats", "human,easy"],
                        input="8\nquit\n")
    assert re.search(r"^(P0> )*P0 scraps Scout", res.output, re.M) and "Play it?" not in res.output
