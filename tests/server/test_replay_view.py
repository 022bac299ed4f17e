"""Per-step replay views of finished games: GET /api/games/{id}/replay/{step}."""
from __future__ import annotations

import json
from typing import Any

from starcom.sc.engine.state import Config

from starcom.sc.engine.game import Game

from .conftest import create, state, wait_for


def _as_json(x: Any) -> Any:
    return json.loads(json.dumps(x))


def _finished(client) -> tuple[str, dict[str, Any]]:
    g = create(client, seats=["ai:greedy", "ai:greedy"], turn_limit=3, seed=11)
    gid = g["game_id"]
    wait_for(lambda: state(client, gid)["over"])
    return gid, client.get(f"/api/games/{gid}/replay").json()


def test_step_views_follow_the_recorded_actions(client) -> None:
    gid, rep = _finished(client)
    cfg, actions = Config(**rep["config"]), rep["actions"]
    n = len(actions)
    assert n > 2

    first = client.get(f"/api/games/{gid}/replay/0").json()
    assert first["step"] == 0 and first["steps"] == n and first["action"] is None
    assert first["view"] == _as_json(Game.from_config(cfg).view(None))
    assert first["over"] is False and first["log"]

    mid = n // 2
    middle = client.get(f"/api/games/{gid}/replay/{mid}").json()
    assert middle["view"] == _as_json(Game.replay(cfg, actions[:mid]).view(None))
    assert isinstance(middle["action"], str) and middle["action"]
    assert middle["by"] in (0, 1)
    assert len(middle["log"]) >= len(first["log"])

    last = client.get(f"/api/games/{gid}/replay/{n}").json()
    final = state(client, gid)
    assert last["over"] is True and last["view"]["over"] is True
    assert last["winner"] == final["winner"]
    assert last["view"] == final["view"]
    assert last["log"][-1] == final["log"][-1]


def test_step_views_hide_hands(client) -> None:
    gid, rep = _finished(client)
    cfg = Config(**rep["config"])
    hidden_seen = False
    for step in (0, len(rep["actions"]) // 2, len(rep["actions"])):
        view = client.get(f"/api/games/{gid}/replay/{step}").json()["view"]
        assert view["viewer"] is None and view.get("hand") is None
        full = Game.replay(cfg, rep["actions"][:step])
        hidden_seen = hidden_seen or any(full.hands)
        for p in view["players"]:
            assert "hand" not in p and p["hand_size"] == len(full.hands[p["seat"]])
    assert hidden_seen, "the test needs hidden cards to exist at some step"


def test_step_errors(client) -> None:
    gid, rep = _finished(client)
    n = len(rep["actions"])
    for bad in (-1, n + 1, "x", "1.5"):
        r = client.get(f"/api/games/{gid}/replay/{bad}")
        assert r.status_code == 400, (bad, r.text)
        assert r.json()["error"]
    assert client.get("/api/games/nosuchgame/replay/0").status_code == 404
    playing = create(client)["game_id"]
    r = client.get(f"/api/games/{playing}/replay/0")
    assert r.status_code == 409 and "not finished" in r.json()["error"]


def test_replay_page_is_served(client) -> None:
    gid, _ = _finished(client)
    r = client.get(f"/replay/{gid}")
    assert r.status_code == 200 and "replay.js" in r.text and "tables.js" in r.text
    assert client.get("/static/tables.js").status_code == 200
    # the game's own table drawing, which the page loads from the game's settings
    game = next(g for g in client.get("/api/settings").json()["games"] if g["name"] == "starcom")
    assert game["scripts"] and all(client.get(src).status_code == 200 for src in game["scripts"])
