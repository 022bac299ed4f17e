"""What the server does for the table (issue 11): passes made for seats that can only pass,
play settings, option labels and card sheets, chat, hints, the game summary and the turn limit."""
from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from starcom.sc.cards.sheets import card_sheets
from starcom.server.limits import CHAT_CHARS, DEFAULT_TURN_LIMIT

from .conftest import claim_all, create, decision, state, tokens, wait_for

PASSES = {"pass", "done"}
# issue 29's settings, at their defaults: single options taken, empty phases not ended
NEW_SETTINGS = {"auto_single": True, "skip_idle": False}


@pytest.fixture
def client(make_client: Any) -> TestClient:
    return make_client(rate_limit=1_000_000)  # the tests play far faster than a person


def only_passes(st: dict[str, Any]) -> bool:
    return bool(st["legal"]) and all(e["action"]["type"] in PASSES for e in st["legal"])


def play_hotseat(c: TestClient, gid: str, toks: dict[int, str], steps: int, seed: int,
                 pick: Any = None) -> list[dict[str, Any]]:
    """Play ``steps`` decisions of a hot-seat game at random (``pick`` may choose instead);
    returns every state the seat to move was shown before deciding."""
    rng = random.Random(seed)
    seen = []
    for _ in range(steps):
        st = decision(c, gid, toks)
        if st is None:
            break
        seen.append(st)
        entry = pick(st, rng) if pick else rng.choice(st["legal"])
        r = c.post(f"/api/games/{gid}/actions", json={"seat": toks[st["seat"]], "action": entry["action"],
                                                      "expect_step": st["step"]})
        assert r.status_code == 200, r.text
    return seen


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (state messages of AI moves may come first)."""
    for _ in range(200):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def settings(c: TestClient, gid: str, token: str, **values: bool) -> dict[str, Any]:
    r = c.post(f"/api/games/{gid}/settings", json={"seat": token, **values})
    assert r.status_code == 200, r.text
    return r.json()["settings"]


def lively(st: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random choice that plays cards and builds more often than it ends the phase, so response
    windows come up."""
    legal = st["legal"]
    busy = [e for e in legal if e["action"]["type"] in ("play", "build", "develop", "jump")]
    return rng.choice(busy) if busy and rng.random() < 0.8 else rng.choice(legal)


def test_seats_that_can_only_pass_are_passed_for(client: TestClient) -> None:
    g = create(client, mode="hotseat", seed=11)
    gid, toks = g["game_id"], tokens(g)
    seen = play_hotseat(client, gid, toks, 120, 1, lively)
    assert seen, "the game gave nobody a decision"
    assert not [st["view"]["decision"] for st in seen if only_passes(st)]
    made_by_server = state(client, gid)["step"] - len(seen)
    assert made_by_server > 0, "the server passed for nobody: the test game has no response windows"
    assert not [st for st in seen if st["passing"]]
    # The message the seat got just before each pass the server made for it says "passing", so
    # clients leave it alone; no message where the seat decides itself does.
    from dataclasses import replace
    from starcom.server.sessions import Session
    rec = client.app.state.store.load(gid)
    made = [i for i, a in enumerate(rec.actions) if a["by_ai"]]
    assert made
    for i in made[:10]:
        before = Session(replace(rec, actions=rec.actions[:i]))
        seat = rec.actions[i]["seat"]
        assert before.game.to_move == seat and before.state_message(seat)["passing"]
        assert not before.state_message(1 - seat)["passing"] and not before.state_message(None)["passing"]


def test_without_auto_pass_a_seat_is_asked_even_when_it_can_only_pass(client: TestClient) -> None:
    g = create(client, mode="hotseat", seed=11)
    gid, toks = g["game_id"], tokens(g)
    for t in toks.values():
        assert settings(client, gid, t, auto_pass=False) == {"auto_pass": False, "stop_at_responses": True,
                                                                      **NEW_SETTINGS}
    seen = play_hotseat(client, gid, toks, 120, 1, lively)
    assert any(only_passes(st) for st in seen)
    assert not [st for st in seen if st["passing"]]


def test_not_stopping_at_responses_passes_every_response_window(client: TestClient) -> None:
    g = create(client, mode="hotseat", seed=11)
    gid, toks = g["game_id"], tokens(g)
    for t in toks.values():
        settings(client, gid, t, stop_at_responses=False)
    seen = play_hotseat(client, gid, toks, 120, 1, lively)
    assert not [st for st in seen if any(e["action"]["type"] == "pass" for e in st["legal"])]


def test_settings_are_checked_and_kept(client: TestClient) -> None:
    g = create(client, mode="vs_ai")
    gid, tok = g["game_id"], tokens(g)[0]
    assert state(client, gid, tok)["settings"] == {"auto_pass": True, "stop_at_responses": True, **NEW_SETTINGS}
    assert state(client, gid)["settings"] is None
    for body, words in [({"auto_pass": "yes"}, "true or false"), ({"autopass": True}, "autopass"),
                        ({}, "at least one")]:
        r = client.post(f"/api/games/{gid}/settings", json={"seat": tok, **body})
        assert r.status_code == 400 and words in r.json()["error"], r.text
    assert client.post(f"/api/games/{gid}/settings", json={"auto_pass": False}).status_code == 403
    settings(client, gid, tok, auto_pass=False)
    with client.websocket_connect(f"/ws/games/{gid}?seat={tok}") as ws:
        assert ws.receive_json()["settings"]["auto_pass"] is False
        ws.send_json({"type": "settings", "auto_pass": True, "stop_at_responses": False})
        assert next_of(ws, "state")["settings"] == {"auto_pass": True, "stop_at_responses": False, **NEW_SETTINGS}
        ws.send_json({"type": "settings", "colour": "red"})
        err = next_of(ws, "error")
        assert err["type"] == "error" and "colour" in err["error"]


def test_undo_takes_back_the_passes_made_for_the_seat_with_its_action(client: TestClient) -> None:
    # Find a step where a seat's own action is followed by passes the server made for it, and
    # the seat then decides again: undo goes back to before that action.
    for seed in range(20):
        g = create(client, mode="hotseat", seed=seed)
        gid, toks = g["game_id"], tokens(g)
        rng = random.Random(seed)
        for _ in range(150):
            public = state(client, gid)
            if public["over"]:
                break
            st = state(client, gid, toks[public["to_move"]])
            entry = lively(st, rng)
            client.post(f"/api/games/{gid}/actions", json={"seat": toks[st["seat"]], "action": entry["action"]})
            after = state(client, gid, toks[st["seat"]])
            if after["step"] > st["step"] + 1 and after["to_move"] == st["seat"] and after["undo"]["allowed"]:
                r = client.post(f"/api/games/{gid}/undo", json={"seat": toks[st["seat"]]})
                assert r.status_code == 200 and r.json()["step"] == st["step"]
                back = state(client, gid, toks[st["seat"]])
                assert back["view"] == st["view"] and back["legal"] == st["legal"]
                return
    pytest.skip("no seed gave an own action followed by automatic passes and the same seat again")


def test_option_labels_are_unique_and_builds_carry_their_card(client: TestClient) -> None:
    g = create(client, mode="hotseat", seed=3, edition="classic")
    gid, toks = g["game_id"], tokens(g)
    seen = play_hotseat(client, gid, toks, 80, 2, lively)
    builds = 0
    for st in seen:
        labels = [e["label"] for e in st["legal"]]
        assert all(labels) and len(set(labels)) == len(labels), labels
        notations = [e["notation"] for e in st["legal"]]  # the engine's notation, unique too
        assert len(set(notations)) == len(notations), notations
        assert all(n.split()[0] == e["action"]["type"] for n, e in zip(notations, st["legal"]))
        for e in st["legal"]:
            if e["action"]["type"] == "build":
                builds += 1
                card = e["card"]
                assert card["cost"] is not None and card["attack"] is not None and card["hp"] is not None
                assert card["name"] in e["label"] and card["text"]
    assert builds


def test_card_catalogue_is_served(client: TestClient) -> None:
    r = client.get("/api/cards")
    assert r.status_code == 200 and r.json()["cards"] == card_sheets(None)
    assert client.get("/api/cards", params={"edition": "classic"}).json()["cards"] == card_sheets("classic")
    bad = client.get("/api/cards", params={"edition": "<b>"})
    assert bad.status_code == 400 and "edition" in bad.json()["error"]


def test_each_games_cards_and_pages_come_from_its_entry(client: TestClient) -> None:
    """Without ``game`` the server's own game's cards and pages; with it, that game's (its
    entry's glossary and pages), the answer naming the game."""
    own = client.get("/api/settings").json()["game"]
    named = client.get("/api/cards", params={"game": own, "edition": "classic"}).json()
    assert named == {"game": own, "cards": card_sheets("classic")}
    ge = client.get("/api/cards", params={"game": "ge", "edition": "quick"})
    assert ge.status_code == 200 and ge.json()["game"] == "ge" and ge.json()["cards"]
    bad = client.get("/api/cards", params={"game": "ge", "edition": "classic"})
    assert bad.status_code == 400 and "full, quick" in bad.json()["error"]
    for path, other in (("/help", f"/help/{own}"), ("/cards", f"/cards/{own}")):
        plain, by_name = client.get(path), client.get(other)
        assert plain.status_code == by_name.status_code == 200 and plain.text == by_name.text
    assert client.get("/help/ge").text != client.get("/help").text
    missing = client.get("/help/nothing")
    assert missing.status_code == 404 and "ge" in missing.json()["error"]


def test_chat_between_the_seats_of_an_online_game(client: TestClient) -> None:
    g = create(client, mode="online")
    gid = g["game_id"]
    toks = claim_all(client, g)
    with client.websocket_connect(f"/ws/games/{gid}?seat={toks[0]}") as ws0, \
            client.websocket_connect(f"/ws/games/{gid}?seat={toks[1]}") as ws1, \
            client.websocket_connect(f"/ws/games/{gid}") as watcher:
        for ws in (ws0, ws1, watcher):
            assert ws.receive_json()["type"] == "state"
        ws0.receive_json()  # seat 1 arrived after seat 0
        line = "<img src=x onerror=alert(1)>  hello\n there"
        ws0.send_json({"type": "chat", "text": line})
        for ws in (ws0, ws1):
            msg = ws.receive_json()
            assert msg == {"type": "chat", "seat": 0, "text": "<img src=x onerror=alert(1)> hello there",
                           "step": 0}
        ws1.send_json({"type": "chat", "text": "x" * (CHAT_CHARS + 1)})
        err = ws1.receive_json()
        assert err["type"] == "error" and str(CHAT_CHARS) in err["error"]
        ws1.send_json({"type": "chat", "text": "abc\u202edef"})
        assert "control" in ws1.receive_json()["error"]
        watcher.send_json({"type": "chat", "text": "hi"})
        assert "spectators" in watcher.receive_json()["error"]
        ws0.send_json({"type": "ping"})
        assert ws0.receive_json()["type"] == "pong"
        watcher.send_json({"type": "ping"})
        assert watcher.receive_json()["type"] == "pong", "the spectator should not receive seats' chat"
    assert state(client, gid, toks[1])["chat"][-1]["text"].endswith("hello there")
    assert state(client, gid)["chat"] == []


def test_chat_is_for_online_games(client: TestClient) -> None:
    g = create(client, mode="vs_ai")
    with client.websocket_connect(f"/ws/games/{g['game_id']}?seat={tokens(g)[0]}") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "hi"})
        assert "online" in next_of(ws, "error")["error"]


def test_hint_answers_the_seat_to_move_with_a_legal_action(client: TestClient) -> None:
    g = create(client, mode="vs_ai", seed=4)
    gid, tok = g["game_id"], tokens(g)[0]
    wait_for(lambda: state(client, gid, tok)["to_move"] == 0)
    st = state(client, gid, tok)
    r = client.post(f"/api/games/{gid}/hint", json={"seat": tok})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["step"] == st["step"] and 0.0 <= hint["win_chance"] <= 1.0
    legal = {e["label"]: e["action"] for e in st["legal"]}
    assert legal[hint["label"]] == hint["action"]
    with client.websocket_connect(f"/ws/games/{gid}?seat={tok}") as ws:
        ws.receive_json()
        ws.send_json({"type": "hint"})
        assert next_of(ws, "hint") == hint   # same position, same answer
    online = create(client, mode="online")
    r = client.post(f"/api/games/{online['game_id']}/hint", json={"seat": tokens(online)[0]})
    assert r.status_code == 409 and "online" in r.json()["error"]
    assert client.post(f"/api/games/{gid}/hint", json={}).status_code == 403


def test_finished_games_have_a_summary_and_a_reason(client: TestClient) -> None:
    g = create(client, seats=["ai:greedy", "ai:greedy"], seed=8, turn_limit=6)
    gid = g["game_id"]
    running = client.get(f"/api/games/{gid}/summary")
    assert running.status_code in (200, 409)
    wait_for(lambda: state(client, gid)["over"])
    st = state(client, gid)
    assert st["turn_limit"] == 6 and st["over_reason"] in ("conquest", "turn_limit")
    s = client.get(f"/api/games/{gid}/summary").json()
    assert s["winner"] == st["winner"] and s["reason"] == st["over_reason"] and s["turn_limit"] == 6
    assert [p["seat"] for p in s["players"]] == [0, 1]
    for p, info in zip(s["players"], st["view"]["players"]):
        assert p["credits"] == info["credits"] == p["credits_by_turn"][-1]
        assert p["developments"] == info["developments"]
        assert len(p["credits_by_turn"]) >= 2
        assert p["systems"] == sum(1 for site in st["view"]["board"] if site["owner"] == p["seat"])
    built = sum(1 for line in st["log"] if " builds " in line)
    assert sum(p["vessels_built"] for p in s["players"]) >= min(built, 1)
    fresh = create(client, mode="vs_ai")
    assert client.get(f"/api/games/{fresh['game_id']}/summary").status_code == 409


def test_games_get_the_default_turn_limit(client: TestClient) -> None:
    g = create(client, mode="vs_ai")
    st = state(client, g["game_id"], tokens(g)[0])
    assert st["turn_limit"] == DEFAULT_TURN_LIMIT == st["view"]["config"]["turn_limit"]
    assert client.get("/api/settings").json()["quick_turn_limit"] == DEFAULT_TURN_LIMIT
    assert st["over_reason"] is None
