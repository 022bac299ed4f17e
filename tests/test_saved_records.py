"""Saved games (``starcom-game/1``) go through one codec for every game (starcom.sim.record):
each game's entry says how its settings sit in a file, and files written before still open.

tests/data/saved/ holds Star Commander files written by the code before the codec was shared:
a self-play game, a balance study's game (with its ``variant``) and an unfinished game; an
older file without ``action_limit`` is made from the last one.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from starcom import games
from starcom.cli.main import app
from starcom.errors import ReplayError
from starcom.sc import records as sc_records
from starcom.sim import record
from starcom.sim.selfplay import run_settings

SAVED = Path(__file__).resolve().parent / "data" / "saved"
FILES = sorted(SAVED.glob("*.json"))


def test_the_fixtures_are_there() -> None:
    assert [f.name for f in FILES] == ["starcom-game.json", "starcom-study-game.json", "starcom-unfinished.json"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_file_saved_before_loads_and_writes_back_byte_for_byte(path: Path) -> None:
    text = path.read_text("utf-8")
    data = json.loads(text)
    saved = record.load_game_record(path)
    assert saved.name == games.LEGACY_GAME == "starcom"
    assert len(saved.actions) == data["result"]["steps"] == len(saved.movers)
    assert saved.game.over == data["result"]["over"]
    assert ("variant" in saved.config) == ("variant" in data)
    again = record.to_game_record(saved.name, saved.config, saved.actions, saved.agents, saved.result)
    assert json.dumps(again, indent=1) + "\n" == text
    cfg, actions, meta = sc_records.load(path)
    assert actions == saved.actions and meta["movers"] == saved.movers
    assert sc_records.to_record(cfg, actions, meta["agents"], meta["result"], meta["variant"]) == data


def test_an_older_file_without_an_action_limit_loads(tmp_path: Path) -> None:
    data = json.loads((SAVED / "starcom-unfinished.json").read_text("utf-8"))
    del data["config"]["action_limit"]
    saved = record.from_game_record(data)
    assert saved.config["action_limit"] is None and not saved.game.over
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    res = CliRunner().invoke(app, ["replay", str(path), "--viewer", "all", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["steps"] == len(data["actions"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_starcom_replay_reads_a_file_saved_before(path: Path) -> None:
    res = CliRunner().invoke(app, ["replay", str(path), "--viewer", "all", "--json"])
    assert res.exit_code == 0, res.output
    shown = json.loads(res.stdout)
    assert shown["steps"] == json.loads(path.read_text("utf-8"))["result"]["steps"]


def _random_game(name: str, seed: int, steps: int = 40) -> tuple[dict[str, Any], list[Any], Any]:
    """The settings, the first ``steps`` actions (fewer if it ends) and the position of a random
    game of ``name``."""
    entry = games.get(name)
    settings = run_settings(entry, seed=seed)
    game = entry.rules.new(**settings)
    rng = random.Random(seed)
    actions: list[Any] = []
    while not game.over and len(actions) < steps:
        act = rng.choice(game.legal_actions())
        entry.rules.play(game, act)
        actions.append(act)
    return settings, actions, game


@pytest.mark.parametrize("name", games.list_games())
def test_every_game_reads_back_what_it_writes(name: str) -> None:
    """Whatever a game keeps in a file (its store_settings), the file names it (or is the
    legacy game's), and reading it gives the same settings and actions."""
    entry = games.get(name)
    settings, actions, game = _random_game(name, seed=4)
    rec = json.loads(json.dumps(record.to_game_record(name, settings, actions, ["a", "b"],
                                                      record.game_result(entry, game))))
    assert rec.get("game", games.LEGACY_GAME) == name
    assert list(rec)[:1] == ["format"] and list(rec).index("actions") < list(rec).index("result")
    saved = record.from_game_record(rec)
    assert saved.name == name and saved.actions == actions
    assert {k: v for k, v in saved.config.items() if k in settings} == settings
    assert record.to_game_record(name, saved.config, saved.actions, saved.agents, saved.result) == rec


def test_a_setting_the_game_does_not_take_is_refused() -> None:
    with pytest.raises(ValueError, match=r"ge takes no setting 'size'"):
        record.to_game_record("ge", {"players": 2, "size": 3, "seed": 0}, [])


def test_star_commanders_reader_refuses_a_file_of_another_game_by_name() -> None:
    with pytest.raises(ReplayError, match=r"saved Galactic Empires game \(\"game\": \"ge\"\)"):
        sc_records.from_record({"format": "starcom-game/1", "game": "ge", "config": {}, "actions": []})
    with pytest.raises(ReplayError, match="unknown game 'chess'"):
        sc_records.from_record({"format": "starcom-game/1", "game": "chess", "config": {}, "actions": []})


def test_a_result_the_replay_does_not_reach_is_named() -> None:
    data = json.loads((SAVED / "starcom-game.json").read_text("utf-8"))
    cut = {**data, "actions": data["actions"][:10]}
    with pytest.raises(ReplayError, match=r"says the game is over, but its replay is not \(after 10 actions\): "
                                          r"the recorded winner \d does not match"):
        record.from_game_record(cut)
