"""Bad input of every kind gets a clear 4xx ``{"error", "rule"}`` and changes nothing (issue 10,
item 5): odd tokens, non-finite and huge numbers, deep nesting, unknown fields, wrong types,
settings out of range, unknown routes, and a fuzz of random bodies on every route."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from .conftest import create, state, tokens


def _refused(r: Any, status: int | tuple[int, ...] = 400) -> dict[str, Any]:
    wanted = (status,) if isinstance(status, int) else status
    assert r.status_code in wanted, (r.status_code, r.text)
    body = r.json()
    assert set(body) == {"error", "rule"} and isinstance(body["error"], str) and body["error"]
    return body


@pytest.fixture
def game(client: TestClient) -> tuple[str, str, dict[str, Any]]:
    g = create(client, mode="hotseat", seed=3)
    gid = g["game_id"]
    mover = state(client, gid)["to_move"]
    return gid, tokens(g)[mover], state(client, gid)


@pytest.mark.parametrize("token", ["ünïcödé-token-abcdef", "x" * 65, "a b c d e f g h i j", "短い", "\x00" * 20])
def test_odd_tokens_are_400_not_500(client: TestClient, game: Any, token: str) -> None:
    gid, _tok, before = game
    _refused(client.get(f"/api/games/{gid}", params={"seat": token}))
    _refused(client.post(f"/api/games/{gid}/actions", json={"seat": token, "action": {"type": "end"}}))
    _refused(client.post(f"/api/games/{gid}/undo", json={"seat": token}))
    _refused(client.post(f"/api/games/{gid}/join", json={"invite": token}))
    assert state(client, gid) == before


@pytest.mark.parametrize("raw", [
    b'{"seat": "%s", "action": {"type": "develop", "at": NaN}}',
    b'{"seat": "%s", "action": {"type": "develop", "at": Infinity}}',
    b'{"seat": "%s", "action": {"type": "develop", "at": -Infinity}}',
    b'{"seat": "%s", "action": {"type": "develop", "at": 1e400}}',
    b'{"seat": "%s", "action": {"type": "develop", "at": 123456789012345678901234567890}}',
    b'{"seat": "%s", "action": {"type": "develop", "at": 1}, "expect_step": 1e400}',
    b'{"seat": "%s", "action": {"type": "develop", "at": 1}' + b', "x": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    b'{"seat": "%s", "action": ' + b'{"a": ' * 30 + b"1" + b"}" * 30 + b"}",
    b'{"seat": "%s", "action": {"type": "develop", "at": 1}, "surprise": 1}',
    b'{"seat": "%s", "action": "end"}',
    b'{"seat": "%s", "action": {"type": "develop", "at": true}}',
    b'{"seat": "%s", "action": {"type": "develop", "at": 1}, "expect_step": "0"}',
    b'{"seat": "%s", "action": {"type": "develop", "at": 1}, "expect_step": -1}',
    b'["not", "an", "object"]',
    b'\xff\xfe not utf-8',
])
def test_malformed_bodies_are_400_and_change_nothing(client: TestClient, game: Any, raw: bytes) -> None:
    gid, tok, before = game
    body = raw.replace(b"%s", tok.encode()) if b"%s" in raw else raw
    _refused(client.post(f"/api/games/{gid}/actions", content=body, headers={"content-type": "application/json"}))
    assert state(client, gid) == before


def test_the_same_over_the_websocket(client: TestClient, game: Any) -> None:
    gid, tok, before = game
    with client.websocket_connect(f"/ws/games/{gid}?seat={tok}") as ws:
        ws.receive_json()
        for text in ('{"type": "action", "action": {"type": "develop", "at": NaN}}',
                     '{"type": "action", "action": {"type": "end"}, "extra": 1}',
                     '{"type": "ping", "x": ' + "[" * 3000 + "]" * 3000 + "}",
                     '{"type": 5}', "[1, 2]", '{"type": "action", "action": {"type": "end"}, "expect_step": 1e999}'):
            ws.send_text(text)
            err = ws.receive_json()
            assert err["type"] == "error" and err["error"], text
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}  # still connected after all that
    assert state(client, gid) == before


@pytest.mark.parametrize("body, words", [
    ({"players": 0}, "players must be from 2 to 4"),
    ({"players": 5}, "players must be from 2 to 4"),
    ({"players": "3"}, "players must be an integer"),
    ({"players": True}, "players must be an integer"),
    ({"players": 2.5}, "players must be an integer"),
    ({"size": 2}, "size must be from 3 to 5"),
    ({"size": 9}, "size must be from 3 to 5"),
    ({"turn_limit": 0}, "turn_limit must be from 1 to 500"),
    ({"turn_limit": 10 ** 6}, "turn_limit must be from 1 to 500"),
    ({"seed": -1}, "seed must be from 0"),
    ({"mode": "online", "seed": 4}, "online games choose their own secret seed"),
    ({"edition": "deluxe"}, "standard"),
    ({"seats": ["ai:random", "ai:random"]}, "at least one human seat"),
    ({"mode": "hotseat", "seats": ["human", "ai:easy"]}, "only human seats"),
    ({"colour": "red"}, "unknown field 'colour'"),
    ({"ai_takeover": "yes"}, "ai_takeover must be true or false"),
])
def test_create_settings_out_of_range_are_refused_with_the_range(make_client: Any, body: dict[str, Any],
                                                                 words: str) -> None:
    c = make_client(allow_ai_games=False)
    assert words in _refused(c.post("/api/games", json=body))["error"]
    assert c.get("/api/games").json()["games"] == []


def test_settings_endpoint_publishes_the_ranges(client: TestClient) -> None:
    s = client.get("/api/settings").json()
    own = next(g for g in s["games"] if g["name"] == s["game"])  # each game's choices are its own
    assert own["players"] == [2, 3, 4] and own["sizes"] == [3, 4, 5] and "standard" in own["editions"]
    assert not {"players", "sizes", "editions"} & set(s)  # no game's choices at the top level
    assert s["default_turn_limit"] >= 1 and s["action_limit"] >= 1 and "hard" in s["levels"]


def test_framework_errors_have_the_same_shape(client: TestClient) -> None:
    _refused(client.get("/api/nothing-here"), 404)
    _refused(client.get("/api/games/zzz"), 404)
    _refused(client.delete("/api/games"), 405)
    _refused(client.get("/api/games", params={"open": "maybe"}))
    _refused(client.get("/api/games/0123456789ab/replay/abc"), 404)


def test_a_corrupt_row_does_not_break_the_lobby(client: TestClient) -> None:
    good = create(client, mode="hotseat")
    bad = create(client, mode="hotseat")
    store = client.app.state.store
    from sqlalchemy import text
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE games SET config = '{broken' WHERE game_id = :g"), {"g": bad["game_id"]})
    r = client.get("/api/games")
    assert r.status_code == 200
    listed = [x["game_id"] for x in r.json()["games"]]
    assert good["game_id"] in listed and bad["game_id"] not in listed


# A fuzz over every route: whatever the body, the answer is JSON with error and rule, never 5xx.
_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                     lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                     max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_json, route=st.sampled_from(["", "/actions", "/undo", "/join"]), as_text=st.booleans())
def test_fuzzed_bodies_never_get_a_5xx(client: TestClient, game: Any, body: Any, route: str, as_text: bool) -> None:
    gid, tok, before = game
    url = f"/api/games/{gid}{route}" if route else "/api/games"
    payload = json.dumps(body) if not as_text else random.Random(str(body)).choice(["{", "}", "\"", "nul", json.dumps(body)[:5]])
    r = client.post(url, content=payload, headers={"content-type": "application/json"})
    assert r.status_code < 500, (url, payload, r.text)
    if r.status_code >= 400:
        _refused(r, r.status_code)
    if route:
        assert state(client, gid)["step"] == before["step"]
