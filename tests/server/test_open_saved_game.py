"""Opening a saved game file on the server (POST /api/replays): a study's replay, with its
stand-in cards, becomes a finished game whose replay the browser shows; bad files are refused
with the reason and store nothing."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from starcom.sc.cards.stand_ins import Variant
from starcom.sc.engine.state import Config
from starcom.sc.records import replay, to_record
from starcom.study.pairs import Job, Setup, pair_records


@pytest.fixture(scope="module")
def study_games() -> tuple[dict[str, Any], dict[str, Any]]:
    """The two games of a study pair in which the Frigate is the treated seat's card."""
    setup = Setup("", "built-in", ("Frigate",), ("random",), 2, 3, "standard", 10, 3)
    return pair_records(setup, Job("Frigate", 1))


def test_a_study_game_opens_with_its_own_cards(client, study_games) -> None:
    treated, control = study_games
    assert treated["variant"]["stand_ins"] == ["Frigate"] and treated["variant"]["real_for"] == [1]
    assert control["variant"]["real_for"] == []
    r = client.post("/api/replays", json=treated)
    assert r.status_code == 201, r.text
    opened = r.json()
    gid = opened["game_id"]
    assert opened["links"]["replay"] == f"/replay/{gid}" and opened["steps"] == len(treated["actions"])
    book = client.get(f"/api/games/{gid}/replay").json()
    assert book["steps"] == len(treated["actions"]) and book["config"]["variant"] == treated["variant"]
    assert [s["kind"] for s in book["seats"]] == ["ai:random", "ai:random"]
    # every step's picture is the game replayed with the study's cards
    cfg = Config(**treated["config"])
    rules = Variant.from_json(treated["variant"])
    for step in (0, len(treated["actions"]) // 2, len(treated["actions"])):
        picture = client.get(f"/api/games/{gid}/replay/{step}").json()
        expected = replay(cfg, [a for a in _actions(treated)[:step]], rules).view(None)
        assert picture["view"] == json.loads(json.dumps(expected))
    listed = {g["game_id"]: g for g in client.get("/api/games").json()["games"]}
    assert listed[gid]["mode"] == "imported" and listed[gid]["over"]


def _actions(record: dict[str, Any]) -> list[Any]:
    from starcom.sc.engine.actions import from_json
    return [from_json(a) for a in record["actions"]]


def test_the_stand_in_is_named_in_the_replay(client) -> None:
    """In this control game P0 builds a Frigate and, like every seat there, gets the stand-in:
    the replay's log and board name the vessel as such (the game's own ruleset names cards)."""
    setup = Setup("", "built-in", ("Frigate",), ("random",), 2, 3, "standard", 10, 3)
    _treated, control = pair_records(setup, Job("Frigate", 3))
    gid = client.post("/api/replays", json=control).json()["game_id"]
    steps = len(control["actions"])
    log = client.get(f"/api/games/{gid}/replay/{steps}").json()["log"]
    assert any("builds Frigate (stand-in)" in line for line in log), log
    assert not any("Frigate" in line and "Frigate (stand-in)" not in line for line in log)
    vessels = [v["name"] for n in range(steps + 1)
               for v in client.get(f"/api/games/{gid}/replay/{n}").json()["view"]["vessels"]]
    assert "Frigate (stand-in)" in vessels and "Frigate" not in vessels


@pytest.mark.parametrize("change, reason", [
    (lambda r: r.update(format="chess-pgn"), "unsupported format"),
    (lambda r: r.pop("config"), "no 'config'"),
    (lambda r: r["actions"].append({"type": "jump", "vessel": 1, "to": 3, "explore": 0, "carry": 0}), "step"),
    (lambda r: r.update(actions=r["actions"][:5]), "not finished|does not match"),
    (lambda r: r.update(variant={"stand_ins": ["Warp Gate"], "real_for": [0]}), "unknown card 'Warp Gate'"),
    (lambda r: r.update(variant={"stand_ins": ["Frigate"], "real_for": [7]}), "seat numbers"),
    (lambda r: r.update(variant={"stand_ins": ["Frigate"], "real_for": [], "catalogue": "[Scout\nspeed=1"}),
     "variant|catalogue|line"),
    (lambda r: r.update(variant=None), "variant"),
])
def test_a_bad_file_is_refused_with_its_reason_and_stores_nothing(client, study_games, change, reason) -> None:
    import re
    record = copy.deepcopy(study_games[0])
    change(record)
    before = len(client.get("/api/games").json()["games"])
    r = client.post("/api/replays", json=record)
    assert r.status_code == 400, r.text
    assert re.search(reason, r.json()["error"]), r.json()["error"]
    assert len(client.get("/api/games").json()["games"]) == before


def test_an_unfinished_game_is_refused(client) -> None:
    from starcom.sc.engine.game import Game
    g = Game.new(2, 3, seed=4)
    actions = []
    for _ in range(6):
        a = g.legal_actions()[0]
        g.apply(a)
        actions.append(a)
    r = client.post("/api/replays", json=to_record(g.cfg, actions))
    assert r.status_code == 400 and "not finished" in r.json()["error"]


def test_not_json_and_too_large_are_refused(client) -> None:
    r = client.post("/api/replays", content=b"{\"format\": ", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "malformed JSON" in r.json()["error"]
    from starcom.server.limits import MAX_IMPORT
    r = client.post("/api/replays", content=b" " * (MAX_IMPORT + 1), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]
