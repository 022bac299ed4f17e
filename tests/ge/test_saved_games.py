"""Saved Galactic Empires games: the ``starcom-game/1`` format with ``"game": "ge"``
(:mod:`starcom.sim.record`), written by ``starcom selfplay --game ge --save-dir`` and opened by
the browser lobby (POST /api/replays). Loading replays every action through the registry entry,
so a file that loads is a legal game; a bad file is refused naming what is wrong."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from api_helpers import make_client  # noqa: F401  (the fixture)
from typer.testing import CliRunner

from starcom.cli.main import app
from starcom.errors import ReplayError
from starcom.games import get
from starcom.sim import record

GE = get("ge")
SETTINGS = {"players": 2, "edition": "quick", "seed": 11, "turn_limit": 60}


def play_out(settings: dict[str, Any], seed: int = 0, max_steps: int | None = None) -> tuple[Any, list[Any]]:
    """A game between two random players (the first ``max_steps`` actions of it, if given):
    the live game and its actions."""
    game = GE.rules.new(**settings)
    agents = [GE.ai.make_agent("random"), GE.ai.make_agent("random")]
    rngs = [random.Random(f"{seed}:{s}") for s in range(2)]
    actions: list[Any] = []
    while not game.over and (max_steps is None or len(actions) < max_steps):
        seat = game.to_move
        act = agents[seat].choose(game, rngs[seat])
        GE.rules.play(game, act)
        actions.append(act)
    return game, actions


@pytest.fixture(scope="module")
def finished() -> tuple[Any, dict[str, Any]]:
    """A finished GE game and its record."""
    game, actions = play_out(SETTINGS)
    assert game.over
    rec = record.to_game_record("ge", SETTINGS, actions, ["random", "random"], record.game_result(GE, game))
    return game, json.loads(json.dumps(rec))


def views(game: Any) -> list[Any]:
    return [json.loads(json.dumps(GE.observer.view(game, v))) for v in (None, 0, 1)]


# --------------------------------------------------------------------------- save and load


def test_a_saved_game_loads_back_to_the_same_final_state(tmp_path: Path, finished) -> None:
    game, rec = finished
    assert rec["format"] == "starcom-game/1" and rec["game"] == "ge" and rec["config"] == SETTINGS
    assert rec["result"] == {"over": True, "winner": GE.rules.winner(game), "turns": GE.rules.turn(game) + 1,
                             "steps": len(rec["actions"])}
    path = record.save_game(tmp_path / "sub" / "g.json", GE, SETTINGS, record.from_game_record(rec).actions,
                            ["random", "random"], record.game_result(GE, game))
    assert json.loads(path.read_text()) == rec  # the same file, from the live actions or the loaded ones
    saved = record.load_game_record(path)
    assert saved.name == "ge" and saved.config == SETTINGS and saved.agents == ["random", "random"]
    assert saved.game.over and GE.rules.winner(saved.game) == GE.rules.winner(game) and GE.rules.turn(saved.game) == GE.rules.turn(game)
    assert views(saved.game) == views(game)
    assert saved.game.to_json() == game.to_json()
    assert len(saved.movers) == len(saved.actions) and set(saved.movers) <= {0, 1}


def test_an_unfinished_game_saves_and_loads_too() -> None:
    game, actions = play_out({**SETTINGS, "seed": 3}, max_steps=40)
    assert not game.over
    rec = record.to_game_record(GE, {**SETTINGS, "seed": 3}, actions, result=record.game_result(GE, game))
    saved = record.from_game_record(rec)
    assert not saved.game.over and views(saved.game) == views(game)


def test_star_commander_files_stay_as_they_were(tmp_path: Path) -> None:
    """No ``"game"`` key in Star Commander's files; the generic reader reads them, and Star
    Commander's own reader refuses a GE file by name."""
    from starcom.sc.engine.game import Game
    g = Game.new(2, 3, seed=5)
    actions = []
    for _ in range(8):
        actions.append(g.legal_actions()[0])
        g.apply(actions[-1])
    from starcom.sc import records as sc_records
    path = sc_records.save(tmp_path / "sc.json", g.cfg, actions, ["a", "b"], sc_records.result_of(g))
    assert "game" not in json.loads(path.read_text())
    saved = record.load_game_record(path)
    assert saved.name == "starcom" and saved.actions == actions and saved.movers == sc_records.load(path)[2]["movers"]
    assert record.to_game_record("starcom", saved.config, actions, ["a", "b"],
                                 sc_records.result_of(g)) == json.loads(path.read_text())
    explicit = {**json.loads(path.read_text()), "game": "starcom"}
    assert sc_records.from_record(explicit)[1] == actions
    with pytest.raises(ReplayError, match="saved Galactic Empires game"):
        sc_records.from_record({"format": "starcom-game/1", "game": "ge", "config": SETTINGS, "actions": []})


# --------------------------------------------------------------------------- bad files


def _illegal_at(rec: dict[str, Any], k: int) -> dict[str, Any]:
    """``rec`` with step ``k`` replaced by an action that is not legal there."""
    bad = copy.deepcopy(rec)
    bad["actions"][k - 1] = ["attack", 999, 999]
    return bad


@pytest.mark.parametrize("change, reason", [
    (lambda r: _illegal_at(r, 30), r"step 30: action \['attack', 999, 999\] is illegal"),
    (lambda r: _illegal_at(r, 1), r"step 1: action .* is illegal"),
    (lambda r: {**r, "actions": r["actions"][:29] + [{"type": "end"}] + r["actions"][30:]},
     r"step 30: .*is illegal: GE-DIG-1"),
    (lambda r: {**r, "actions": r["actions"][:29] + [["end", [1]]] + r["actions"][30:]}, r"step 30: .*GE-DIG-1"),
    (lambda r: {**r, "actions": r["actions"] + [["end"]]}, r"step \d+: .*after the end of the game"),
    (lambda r: {**r, "game": "chess"}, r"unknown game 'chess': the games are .*ge.*starcom"),
    (lambda r: {**r, "game": 7}, r"'game' must be the name of a game"),
    (lambda r: {**r, "config": {**r["config"], "edition": "deluxe"}},
     r"unknown edition 'deluxe' of Galactic Empires: choose one of full, quick"),
    (lambda r: {**r, "config": {**r["config"], "edition": 3}}, r"'edition' must be a string"),
    (lambda r: {**r, "config": {**r["config"], "seed": "11"}}, r"'seed' must be an integer"),
    (lambda r: {**r, "config": {**r["config"], "turn_limit": "60"}}, r"'turn_limit' must be an integer or null"),
    (lambda r: {**r, "config": {**r["config"], "turn_limit": 0}}, r"bad config for Galactic Empires: turn_cap"),
    (lambda r: {**r, "config": {**r["config"], "players": 3}}, r"Galactic Empires is for 2 players, not 3"),
    (lambda r: {**r, "config": {**r["config"], "size": 3}}, r"unknown config field\(s\) for Galactic Empires: size"),
    (lambda r: {**r, "config": {"players": 2, "edition": "quick"}}, r"lacks the field 'seed'"),
    (lambda r: {**r, "config": [2, "quick"]}, r"'config' must be an object"),
    (lambda r: {k: v for k, v in r.items() if k != "config"}, r"no 'config'"),
    (lambda r: {**r, "actions": "end"}, r"'actions' must be a list"),
    (lambda r: {**r, "agents": [1, 2]}, r"'agents' must be a list of names"),
    (lambda r: {**r, "result": []}, r"'result' must be an object"),
    (lambda r: {**r, "result": {**r["result"], "winner": 1 - r["result"]["winner"]}},
     r"recorded winner .* does not match"),
    (lambda r: {**r, "actions": r["actions"][:50]}, r"says the game is over, but its replay is not"),
    (lambda r: {**r, "format": "starcom-game/2"}, r"unsupported format"),
    (lambda r: {**r, "variant": {"stand_ins": [], "real_for": []}}, r"'variant'"),
])
def test_a_bad_file_names_what_is_wrong(finished, change, reason) -> None:
    with pytest.raises(ReplayError, match=reason):
        record.from_game_record(change(copy.deepcopy(finished[1])))


def test_a_bad_file_on_disk_names_the_file(tmp_path: Path, finished) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_illegal_at(finished[1], 12)))
    with pytest.raises(ReplayError, match=r"bad\.json: step 12: "):
        record.load_game_record(path)
    path.write_text("{\"format\": ")
    with pytest.raises(ReplayError, match="not valid JSON"):
        record.load_game_record(path)
    with pytest.raises(ReplayError, match="no such file"):
        record.load_game_record(tmp_path / "nothing.json")


# --------------------------------------------------------------------------- the command line


def test_selfplay_saves_ge_games_that_load(tmp_path: Path) -> None:
    out = tmp_path / "games"
    res = CliRunner().invoke(app, ["selfplay", "--game", "ge", "-n", "2", "--edition", "quick",
                                   "--save-dir", str(out), "--json"])
    assert res.exit_code == 0, res.output
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files] == ["game-0000.json", "game-0001.json"]
    for i, f in enumerate(files):
        data = json.loads(f.read_text())
        assert data["game"] == "ge" and data["config"] == {"players": 2, "edition": "quick", "seed": i,
                                                           "turn_limit": 60}
        saved = record.load_game_record(f)
        assert saved.name == "ge" and len(saved.actions) == data["result"]["steps"]
        assert saved.game.over == data["result"]["over"]
        assert GE.rules.winner(saved.game) == data["result"]["winner"]
        assert GE.rules.turn(saved.game) + 1 == data["result"]["turns"]
    # `starcom replay` reads it: the whole log, or one seat's share as JSON (no seed: it would
    # give the other hand away)
    res = CliRunner().invoke(app, ["replay", str(files[0])])
    assert res.exit_code == 0, res.output
    assert "Galactic Empires" in res.output and "Game over" in res.output
    res = CliRunner().invoke(app, ["replay", str(files[0]), "--viewer", "0", "--json"])
    assert res.exit_code == 0, res.output
    seen = json.loads(res.output)
    assert seen["game"] == "ge" and seen["viewer"] == 0 and "seed" not in seen["config"]
    assert len(seen["history"]) == len(record.load_game_record(files[0]).actions) + 1
    # an edited file is refused, naming the step
    data = json.loads(files[0].read_text())
    data["actions"][5] = ["fire"]
    files[0].write_text(json.dumps(data))
    res = CliRunner().invoke(app, ["replay", str(files[0])])
    assert res.exit_code == 2 and "step 6" in res.output


# --------------------------------------------------------------------------- the server


def test_the_server_opens_a_finished_ge_file(make_client, finished) -> None:  # noqa: F811
    game, rec = finished
    c = make_client()
    r = c.post("/api/replays", json=rec)
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    steps = len(rec["actions"])
    assert r.json()["steps"] == steps and r.json()["links"]["replay"] == f"/replay/{gid}"
    book = c.get(f"/api/games/{gid}/replay").json()
    assert book["config"]["game"] == "ge" and book["steps"] == steps and book["actions"] == rec["actions"]
    assert {k: book["config"][k] for k in SETTINGS} == SETTINGS
    assert [s["kind"] for s in book["seats"]] == ["ai:random", "ai:random"]
    replayed, _ = play_out(SETTINGS, max_steps=0)
    for n in range(steps + 1):
        picture = c.get(f"/api/games/{gid}/replay/{n}").json()
        assert picture["game"] == "ge" and picture["step"] == n
        if n in (0, steps // 2, steps):
            assert picture["view"] == views(replayed)[0]
        if n < steps:
            GE.rules.play(replayed, GE.rules.decode(replayed, rec["actions"][n], None))
    assert picture["over"] and picture["winner"] == GE.rules.winner(game)
    assert views(replayed) == views(game)
    listed = {g["game_id"]: g for g in c.get("/api/games").json()["games"]}
    assert listed[gid]["game"] == "ge" and listed[gid]["mode"] == "imported" and listed[gid]["over"]
    assert listed[gid]["turn"] == GE.rules.turn(game) and listed[gid]["edition"] == "quick"


@pytest.mark.parametrize("change, reason", [
    (lambda r: _illegal_at(r, 30), r"not a saved game that can be opened: step 30: .*illegal"),
    (lambda r: {**r, "config": {**r["config"], "edition": "deluxe"}}, r"unknown edition 'deluxe'"),
    (lambda r: {**r, "game": "chess"}, r"not a saved game that can be opened: unknown game 'chess'"),
    (lambda r: {**r, "game": ["ge"]}, r"'game' must be the name of a game"),
    (lambda r: {**r, "actions": r["actions"][:50], "result": {"over": False}},
     r"not finished: only finished games can be replayed"),
    (lambda r: {**r, "actions": r["actions"][:50]}, r"says the game is over, but its replay is not"),
])
def test_the_server_refuses_a_bad_or_unfinished_ge_file(make_client, finished, change, reason) -> None:  # noqa: F811
    import re
    c = make_client()
    r = c.post("/api/replays", json=change(copy.deepcopy(finished[1])))
    assert r.status_code == 400, r.text
    assert re.search(reason, r.json()["error"]), r.json()["error"]
    assert c.get("/api/games").json()["games"] == []


def test_a_bot_match_saves_ge_games_that_replay(tmp_path: Path) -> None:
    """``starcom match --game ge --save DIR``: each game between two bot programs is saved and
    loads back to the winner the match reported."""
    import sys
    bot = f"{sys.executable} -m starcom.cli.main bot --game ge --agent"
    res = CliRunner().invoke(app, ["match", "--game", "ge", "-e", f"{bot} greedy", "-e", f"{bot} random",
                                   "--games", "2", "--save", str(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 2
    for f in files:
        saved = record.load_game_record(f)
        assert saved.name == "ge" and saved.game.over
        assert GE.rules.winner(saved.game) == json.loads(f.read_text())["result"]["winner"]
