"""Seats belong to their holders (invites, one claim each, tokens act for their own seat only)
and undo never crosses information (issue 10, items 2 and 3)."""
from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .conftest import claim_all, create, invite_code, state, tokens, wait_for


def test_online_creator_gets_only_their_own_token_and_invites_for_the_others(client: TestClient) -> None:
    g = create(client, mode="online", players=3, seats=["human", "human", "ai:random"], listed=True)
    with_token = [s["seat"] for s in g["seats"] if "token" in s]
    assert with_token == [0]
    assert set(g["links"]["seats"]) == {"0"} and set(g["links"]["invites"]) == {"1"}
    assert tokens(g)[0] not in g["links"]["invites"]["1"]
    listed = client.get("/api/games", params={"open": 1}).json()["games"]
    assert listed[0]["free_seats"] == [1]


def test_hotseat_and_vs_ai_creators_hold_every_human_seat(client: TestClient) -> None:
    hot = create(client, mode="hotseat", players=3)
    assert sorted(tokens(hot)) == [0, 1, 2] and hot["links"]["invites"] == {}
    solo = create(client, mode="vs_ai")
    assert sorted(tokens(solo)) == [0] and solo["links"]["invites"] == {}


def test_an_invite_gives_a_fresh_token_once_and_takes_the_seat_at_once(client: TestClient) -> None:
    g = create(client, mode="online")
    gid, code = g["game_id"], invite_code(g, 1)
    r = client.post(f"/api/games/{gid}/join", json={"invite": code})
    assert r.status_code == 200
    claim = r.json()
    assert claim["seat"] == 1 and claim["token"] not in (code, tokens(g)[0])
    assert claim["link"] == f"/game/{gid}?seat={claim['token']}"
    assert state(client, gid, claim["token"])["seat"] == 1
    # taken over HTTP alone: no longer free in the lobby, and shown as claimed
    assert client.get("/api/games", params={"open": 1}).json()["games"] == []
    assert state(client, gid)["seats"][1]["claimed"] is True
    again = client.post(f"/api/games/{gid}/join", json={"invite": code})
    assert again.status_code == 409 and "claimed" in again.json()["error"]
    assert client.post(f"/api/games/{gid}/join", json={}).status_code == 403  # by invite only (the default)
    wrong = client.post(f"/api/games/{gid}/join", json={"invite": "C" * 24})
    assert wrong.status_code == 403


def test_an_invite_can_be_claimed_over_the_websocket(client: TestClient) -> None:
    g = create(client, mode="online")
    gid, code = g["game_id"], invite_code(g, 1)
    with client.websocket_connect(f"/ws/games/{gid}?invite={code}") as ws:
        seat = ws.receive_json()
        assert seat["type"] == "seat" and seat["seat"] == 1 and seat["token"]
        st = ws.receive_json()
        assert st["type"] == "state" and st["seat"] == 1 and st["seats"][1]["connected"] is True
    assert state(client, gid, seat["token"])["seat"] == 1
    with client.websocket_connect(f"/ws/games/{gid}?invite={code}") as ws:
        err = ws.receive_json()
        assert err["type"] == "error" and "claimed" in err["error"]
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4409


def test_two_visitors_racing_for_one_seat_get_it_once(client: TestClient) -> None:
    g = create(client, mode="online", players=3, seats=["human", "human", "human"], listed=True)
    gid = g["game_id"]
    answers = [client.post(f"/api/games/{gid}/join", json={}) for _ in range(5)]
    won = [a.json()["seat"] for a in answers if a.status_code == 200]
    assert sorted(won) == [1, 2] and [a.status_code for a in answers].count(409) == 3


def test_a_token_acts_only_for_its_own_seat(client: TestClient) -> None:
    g = create(client, mode="online")
    gid, toks = g["game_id"], claim_all(client, g)
    st = state(client, gid)
    mover = st["to_move"]
    action = state(client, gid, toks[mover])["legal"][0]["action"]
    r = client.post(f"/api/games/{gid}/actions", json={"seat": toks[1 - mover], "action": action})
    assert r.status_code == 403
    other = create(client, mode="hotseat")
    r = client.post(f"/api/games/{other['game_id']}/actions", json={"seat": toks[mover], "action": action})
    assert r.status_code == 403  # a token of another game is no token here
    assert state(client, gid)["step"] == st["step"]


def test_spectators_never_get_a_token(client: TestClient) -> None:
    g = create(client, mode="online")
    gid = g["game_id"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        first = ws.receive_json()
    assert first["type"] == "state" and first["seat"] is None
    assert "token" not in str(first) and "invite" not in str(first)
    assert "token" not in str(client.get("/api/games").json())


# ---------------------------------------------------------------------- undo
def _post(client: TestClient, gid: str, tok: str, action: dict[str, Any]) -> None:
    r = client.post(f"/api/games/{gid}/actions", json={"seat": tok, "action": action})
    assert r.status_code == 200, r.text


def _own_decision(client: TestClient, seed: int) -> tuple[str, str, dict[str, Any]]:
    g = create(client, seed=seed, seats=["human", "ai:random"])
    gid, tok = g["game_id"], tokens(g)[0]
    wait_for(lambda: state(client, gid)["to_move"] == 0)
    return gid, tok, state(client, gid, tok)


def test_undo_takes_back_an_action_that_showed_nothing(client: TestClient) -> None:
    gid, tok, before = _own_decision(client, 11)
    build = next(e["action"] for e in before["legal"] if e["action"]["type"] == "build")
    _post(client, gid, tok, build)
    after = state(client, gid, tok)
    assert after["to_move"] == 0 and after["undo"] == {"allowed": True, "reason": None}
    r = client.post(f"/api/games/{gid}/undo", json={"seat": tok})
    assert r.status_code == 200 and r.json()["step"] == before["step"]
    back = state(client, gid, tok)
    assert (back["view"], back["legal"], back["log"]) == (before["view"], before["legal"], before["log"])


def _revealing(action: dict[str, Any]) -> bool:
    return action["type"] == "buy" or (action["type"] == "jump" and action["explore"] == 1)


def test_undo_refuses_to_take_back_a_draw_or_an_explore(client: TestClient) -> None:
    for seed in range(1, 30):
        gid, tok, before = _own_decision(client, seed)
        act = next((e["action"] for e in before["legal"] if _revealing(e["action"])), None)
        if act is not None:
            break
    else:
        pytest.fail("no deal offered a draw or an explore on the first decision")
    _post(client, gid, tok, act)
    after = state(client, gid, tok)
    assert after["undo"]["allowed"] is False and "hidden" in after["undo"]["reason"]
    r = client.post(f"/api/games/{gid}/undo", json={"seat": tok})
    assert r.status_code == 409 and "hidden" in r.json()["error"]
    assert state(client, gid, tok)["step"] == after["step"]


def test_undo_never_goes_back_past_another_seats_action(client: TestClient) -> None:
    gid, tok, before = _own_decision(client, 5)
    _post(client, gid, tok, {"type": "end"})
    wait_for(lambda: state(client, gid)["to_move"] == 0 and state(client, gid)["step"] > before["step"] + 1)
    now = state(client, gid, tok)
    assert now["undo"]["allowed"] is False and now["undo"]["reason"]
    r = client.post(f"/api/games/{gid}/undo", json={"seat": tok})
    assert r.status_code == 409
    assert state(client, gid, tok)["step"] == now["step"]


def test_no_undo_in_online_games_nor_for_spectators(client: TestClient) -> None:
    g = create(client, mode="online")
    gid, toks = g["game_id"], claim_all(client, g)
    mover = state(client, gid)["to_move"]
    st = state(client, gid, toks[mover])
    build = next((e["action"] for e in st["legal"] if e["action"]["type"] == "build"), st["legal"][0]["action"])
    _post(client, gid, toks[mover], build)
    assert "online" in state(client, gid, toks[mover])["undo"]["reason"]
    assert client.post(f"/api/games/{gid}/undo", json={"seat": toks[mover]}).status_code == 409
    assert state(client, gid)["undo"] == {"allowed": False, "reason": "spectators cannot undo"}
    assert client.post(f"/api/games/{gid}/undo", json={}).status_code == 403
