"""REST and WebSocket API of docs/protocol.md, through Starlette's TestClient."""
from __future__ import annotations

import json

import pytest
from starlette.websockets import WebSocketDisconnect

from starcom.sc.engine.game import Game
from starcom.sc.engine.actions import from_json
from starcom.sc.engine.state import Config
from starcom.server.limits import ACTION_LIMIT, DEFAULT_TURN_LIMIT

from .conftest import claim_all, create, state, tokens, wait_for


def far_jump(st: dict) -> dict:
    """A jump of the mover's first vessel to its own position: never adjacent, so illegal."""
    me = st["to_move"]
    v = next(x for x in st["view"]["vessels"] if x["owner"] == me)
    return {"type": "jump", "vessel": v["id"], "to": v["pos"], "explore": 0, "carry": 0}


def test_create_vs_ai_defaults_and_state(client):
    g = create(client)
    kinds = [s["kind"] for s in g["seats"]]
    assert kinds == ["human", "ai:normal"]
    tok = tokens(g)[0]
    assert g["links"]["seats"]["0"] == f"/game/{g['game_id']}?seat={tok}"
    assert g["links"]["spectate"] == f"/game/{g['game_id']}"
    wait_for(lambda: state(client, g["game_id"])["to_move"] == 0)  # the AI thinks in the background
    st = state(client, g["game_id"], tok)
    # the AI moved until the human must decide
    assert st["to_move"] == 0 and st["seat"] == 0 and st["mode"] == "vs_ai"
    assert st["legal"] and all(isinstance(e["text"], str) and e["text"] for e in st["legal"])
    assert st["view"]["viewer"] == 0 and isinstance(st["view"]["hand"], list)
    assert st["log"] and st["over"] is False and st["winner"] is None


def test_create_rejects_bad_settings(client):
    for body in ({"players": 7}, {"edition": "nope"}, {"mode": "solo"}, {"seats": ["human"]},
                 {"seats": ["human", "ai:nobody"]}, {"size": "big"}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, body
        assert r.json()["error"]


def test_action_applies_and_state_matches_engine(client):
    g = create(client, mode="hotseat", seed=5)
    gid, toks = g["game_id"], tokens(g)
    st = state(client, gid, toks[0])
    mover = st["to_move"]
    st = state(client, gid, toks[mover])
    action = st["legal"][1]["action"]
    r = client.post(f"/api/games/{gid}/actions", json={"seat": toks[mover], "action": action, "expect_step": 0})
    assert r.status_code == 200 and r.json() == {"ok": True, "step": 1}
    expected = Game.replay(Config(2, 3, "standard", 5, DEFAULT_TURN_LIMIT, ACTION_LIMIT), [from_json(action)])
    after = state(client, gid, toks[mover])
    assert after["step"] == 1
    assert after["view"] == json.loads(json.dumps(expected.view(mover)))


def test_illegal_unknown_malformed_and_stale_leave_game_unchanged(client):
    g = create(client, mode="hotseat", seed=2)
    gid, toks = g["game_id"], tokens(g)
    mover = state(client, gid)["to_move"]
    tok = toks[mover]
    before = state(client, gid, tok)
    url = f"/api/games/{gid}/actions"
    r = client.post(url, json={"seat": tok, "action": far_jump(before)})
    assert r.status_code == 400 and r.json()["rule"] == "MOVE-1" and "adjacent" in r.json()["error"]
    r = client.post(url, json={"seat": tok, "action": {"type": "teleport"}})
    assert r.status_code == 400 and "unknown action" in r.json()["error"]
    r = client.post(url, json={"seat": tok, "action": {"type": "develop"}})
    assert r.status_code == 400 and "missing" in r.json()["error"]
    r = client.post(url, json={"seat": tok, "action": {"type": "develop", "at": {"x": [1]}}})
    assert r.status_code == 400
    r = client.post(url, content=b'{"seat": "x", "action": ', headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith("malformed JSON")
    r = client.post(url, json={"seat": tok, "action": before["legal"][0]["action"], "expect_step": 7})
    assert r.status_code == 409 and "stale" in r.json()["error"]
    assert state(client, gid, tok) == before


def test_out_of_turn_wrong_and_missing_token(client):
    g = create(client, mode="online")
    gid, toks = g["game_id"], claim_all(client, g)
    st = state(client, gid)
    mover = st["to_move"]
    other = 1 - mover
    action = state(client, gid, toks[mover])["legal"][0]["action"]
    url = f"/api/games/{gid}/actions"
    r = client.post(url, json={"seat": toks[other], "action": action})
    assert r.status_code == 403 and f"seat {mover}" in r.json()["error"]
    well_formed_but_wrong = "A" * 24
    assert client.post(url, json={"seat": well_formed_but_wrong, "action": action}).status_code == 403
    assert client.post(url, json={"seat": "not-a-token", "action": action}).status_code == 400
    assert client.post(url, json={"action": action}).status_code == 403
    assert client.get(f"/api/games/{gid}", params={"seat": well_formed_but_wrong}).status_code == 403
    assert client.get("/api/games/nosuchgame").status_code == 404
    assert client.get("/api/games/0123456789ab").status_code == 404
    assert state(client, gid)["step"] == st["step"]


def test_oversized_http_body(client):
    g = create(client, mode="hotseat")
    big = json.dumps({"seat": "x", "action": {"type": "end"}, "pad": "z" * 70000})
    r = client.post(f"/api/games/{g['game_id']}/actions", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert client.post("/api/games", content=big).status_code == 413
    assert state(client, g["game_id"])["step"] == 0


def test_http_flood_gets_429(make_client):
    c = make_client(rate_limit=5)
    g = create(c, mode="hotseat")
    gid = g["game_id"]
    tok = tokens(g)[state(c, gid)["to_move"]]
    codes = [c.post(f"/api/games/{gid}/actions", json={"seat": tok, "action": {"type": "nope"}}).status_code
             for _ in range(12)]
    assert 429 in codes and codes[0] == 400
    assert state(c, gid)["step"] == 0


def test_list_and_join_open_games(client):
    g = create(client, mode="online", players=3, seats=["human", "human", "human"], listed=True)
    gid = g["game_id"]
    create(client)  # a vs-AI game is never open
    open_games = client.get("/api/games", params={"open": 1}).json()["games"]
    assert [x["game_id"] for x in open_games] == [gid]
    assert open_games[0]["free_seats"] == [1, 2] and open_games[0]["players"] == 3
    j1 = client.post(f"/api/games/{gid}/join", json={}).json()
    assert client.get("/api/games", params={"open": 1}).json()["games"][0]["free_seats"] == [2]
    j2 = client.post(f"/api/games/{gid}/join", json={}).json()
    assert (j1["seat"], j2["seat"]) == (1, 2)
    assert state(client, gid, j1["token"])["seat"] == 1 and state(client, gid, j2["token"])["seat"] == 2
    assert client.post(f"/api/games/{gid}/join", json={}).status_code == 409
    assert client.get("/api/games", params={"open": 1}).json()["games"] == []
    assert len(client.get("/api/games").json()["games"]) == 2


def test_spectator_sees_public_view_only(client):
    g = create(client, mode="hotseat", seed=4)
    gid = g["game_id"]
    st = state(client, gid)
    assert st["seat"] is None and st["legal"] == [] and st["view"]["hand"] is None
    assert st["can_undo"] is False
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "state" and msg["seat"] is None and msg["view"]["hand"] is None
        ws.send_json({"type": "action", "action": {"type": "end"}})
        err = ws.receive_json()
        assert err["type"] == "error" and err["error"]


def test_undo_vs_ai(client):
    g = create(client, seed=11)
    gid, tok = g["game_id"], tokens(g)[0]
    wait_for(lambda: state(client, gid)["to_move"] == 0)
    before = state(client, gid, tok)
    assert before["undo"]["allowed"] is False and before["undo"]["reason"]
    assert client.post(f"/api/games/{gid}/undo", json={"seat": tok}).status_code == 409
    build = next(e["action"] for e in before["legal"] if e["action"]["type"] == "build")
    r = client.post(f"/api/games/{gid}/actions", json={"seat": tok, "action": build, "expect_step": before["step"]})
    assert r.status_code == 200
    after = state(client, gid, tok)
    if after["to_move"] == 0:  # still the human's decision: the build showed nothing hidden
        assert after["can_undo"] is True and after["undo"] == {"allowed": True, "reason": None}
        r = client.post(f"/api/games/{gid}/undo", json={"seat": tok})
        assert r.status_code == 200 and r.json()["step"] == before["step"]
        undone = state(client, gid, tok)
        assert undone["view"] == before["view"] and undone["legal"] == before["legal"]
        assert undone["log"] == before["log"]
    # after the human ends the phase the AI acts: nothing before that can be taken back
    cur = state(client, gid, tok)
    end = next(e["action"] for e in cur["legal"] if e["action"]["type"] == "end")
    assert client.post(f"/api/games/{gid}/actions", json={"seat": tok, "action": end}).status_code == 200
    wait_for(lambda: state(client, gid)["step"] > cur["step"] + 1)
    r = client.post(f"/api/games/{gid}/undo", json={"seat": tok})
    assert r.status_code == 409 and "cannot undo" in r.json()["error"]


@pytest.mark.parametrize("mode", ["online", "hotseat"])
def test_undo_refused_with_other_humans(client, mode):
    g = create(client, mode=mode, seats=["human", "human"])
    gid, toks = g["game_id"], claim_all(client, g)
    mover = state(client, gid)["to_move"]
    end = {"type": "end"}
    assert client.post(f"/api/games/{gid}/actions", json={"seat": toks[mover], "action": end}).status_code == 200
    assert state(client, gid, toks[mover])["can_undo"] is False
    r = client.post(f"/api/games/{gid}/undo", json={"seat": toks[mover]})
    assert r.status_code == 409 and state(client, gid)["step"] == 1


def test_replay_of_finished_ai_game(make_client):
    client = make_client(allow_ai_games=True)
    g = create(client, seats=["ai:greedy", "ai:greedy"], turn_limit=3, seed=8)
    gid = g["game_id"]
    wait_for(lambda: state(client, gid)["over"])
    rep = client.get(f"/api/games/{gid}/replay").json()
    assert rep["over"] is True
    replayed = Game.replay(Config(**rep["config"]), rep["actions"])
    final = state(client, gid)
    assert replayed.over and final["step"] == len(rep["actions"])
    assert final["winner"] == replayed.winner
    assert final["view"] == json.loads(json.dumps(replayed.view(None)))


def test_replay_refused_while_playing(client):
    g = create(client)
    assert client.get(f"/api/games/{g['game_id']}/replay").status_code == 409


def test_websocket_play_ping_and_errors(client):
    g = create(client, mode="hotseat", seed=6)
    gid, toks = g["game_id"], tokens(g)
    mover = state(client, gid)["to_move"]
    with client.websocket_connect(f"/ws/games/{gid}?seat={toks[mover]}") as ws:
        st = ws.receive_json()
        assert st["type"] == "state" and st["seat"] == mover and st["legal"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_text("{not json")
        assert ws.receive_json()["error"].startswith("malformed JSON")
        ws.send_json({"type": "action", "action": far_jump(st)})
        err = ws.receive_json()
        assert err["type"] == "error" and err["rule"] == "MOVE-1"
        ws.send_json({"type": "action", "action": st["legal"][0]["action"], "expect_step": st["step"] + 3})
        assert "stale" in ws.receive_json()["error"]
        ws.send_json({"type": "action", "action": st["legal"][0]["action"], "expect_step": st["step"]})
        nxt = ws.receive_json()
        assert nxt["type"] == "state" and nxt["step"] == st["step"] + 1


@pytest.mark.parametrize("token, code", [("B" * 24, 4403), ("bogus", 4400), ("ünïcödé-token-xx", 4400)])
def test_websocket_wrong_token_closes(client, token, code):
    g = create(client, mode="hotseat")
    with client.websocket_connect(f"/ws/games/{g['game_id']}?seat={token}") as ws:
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == code


def test_websocket_oversize_and_flood_close(client):
    g = create(client, mode="hotseat")
    gid, tok = g["game_id"], tokens(g)[0]
    with client.websocket_connect(f"/ws/games/{gid}?seat={tok}") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 70000}))
        assert "too large" in ws.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 1009
    with client.websocket_connect(f"/ws/games/{gid}?seat={tok}") as ws:
        ws.receive_json()
        for _ in range(40):
            ws.send_json({"type": "action", "action": {"type": "end"}, "expect_step": 999})
        with pytest.raises(WebSocketDisconnect) as exc:
            while True:
                ws.receive_json()
        assert exc.value.code == 1008
    assert state(client, gid)["step"] == 0


def test_ai_takes_over_a_gone_seat(make_client):
    c = make_client(takeover_seconds=0.2)
    g = create(c, mode="online", seats=["human", "human"], ai_takeover=True)
    gid, toks = g["game_id"], claim_all(c, g)
    st = state(c, gid)
    mover = st["to_move"]
    with c.websocket_connect(f"/ws/games/{gid}?seat={toks[mover]}") as ws:
        assert ws.receive_json()["seats"][mover]["connected"] is True
    wait_for(lambda: state(c, gid)["step"] > st["step"])


def test_a_damaged_game_is_shown_and_refused_never_replayed_shorter(tmp_path) -> None:
    import sqlite3

    from starlette.testclient import TestClient

    from starcom.server.app import create_app
    db = tmp_path / "g.db"
    with TestClient(create_app(f"sqlite:///{db}", ai_processes=False)) as c:
        g = create(c, mode="hotseat", seed=7)
        gid, toks = g["game_id"], tokens(g)
        for _ in range(6):
            st = state(c, gid)
            legal = state(c, gid, toks[st["to_move"]])["legal"]
            assert c.post(f"/api/games/{gid}/actions",
                          json={"seat": toks[st["to_move"]], "action": legal[0]["action"]}).status_code == 200
    with sqlite3.connect(db) as conn:  # someone deletes the newest actions behind the server's back
        conn.execute("DELETE FROM actions WHERE game_id = ? AND seq >= 4", (gid,))
    with TestClient(create_app(f"sqlite:///{db}", ai_processes=False)) as c:
        listed = {x["game_id"]: x for x in c.get("/api/games").json()["games"]}
        assert "missing" in listed[gid]["damaged"]  # shown before anyone opens the game
        r = c.get(f"/api/games/{gid}")
        assert r.status_code == 409 and "damaged" in r.json()["error"]
        r = c.post(f"/api/games/{gid}/actions", json={"seat": toks[0], "action": {"type": "end"}})
        assert r.status_code == 409
