"""AI seats: difficulty levels and agents as seat kinds, the takeover level of online games, and
AI decisions computed off the event loop (the server keeps answering while an AI thinks)."""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from starcom.sc import agents
from starcom.server.app import create_app
from starcom.server.sessions import ai_choices
from starcom.server.store import Store

from .conftest import claim_all, create, state, tokens, wait_for


class GatedAgent:
    """Plays the first legal action, but only once the test opens its gate: stands in for a
    strong AI that thinks for a long time, without the test depending on how long."""

    name = "gated"

    def __init__(self) -> None:
        self.started = threading.Event()
        self.gate = threading.Event()
        self.calls = 0
        self.finished = 0

    def choose(self, game: Any, rng: Any) -> tuple:
        self.calls += 1
        self.started.set()
        self.gate.wait(30)  # if the test never opens it, count it finished anyway so the test fails
        self.finished += 1
        return game.legal_actions()[0]


@pytest.fixture
def gated(monkeypatch: pytest.MonkeyPatch) -> GatedAgent:
    """Registers the agent ``gated`` (one shared instance) for the length of a test."""
    agent = GatedAgent()
    monkeypatch.setitem(agents.AGENTS, "gated", lambda think, iterations: agent)
    yield agent
    agent.gate.set()  # never leave a worker thread waiting


def kinds_of(st: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(s["kind"], s["ai"]) for s in st["seats"]]


# ---------------------------------------------------------------------- seat kinds
@pytest.fixture
def cheap_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard level's search with a small fixed number of iterations instead of 1 s a move."""
    agent, _think = agents.DIFFICULTIES["hard"]
    search = agents.AGENTS[agent]
    monkeypatch.setitem(agents.AGENTS, agent, lambda think, iterations: search(None, 20))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_difficulty_seats_are_accepted_shown_and_play(client, cheap_hard, caplog, level):
    g = create(client, seats=[f"ai:{level}", "human"], seed=3)
    assert [s["kind"] for s in g["seats"]] == [f"ai:{level}", "human"]
    gid, tok = g["game_id"], tokens(g)[1]
    st = state(client, gid, tok)
    assert kinds_of(st) == [(f"ai:{level}", level), ("human", None)]
    # the human ends each turn; the AI at that level plays its own turns in between
    for _ in range(40):
        wait_for(lambda: state(client, gid)["to_move"] == 1 or state(client, gid)["over"])
        now = state(client, gid, tok)
        if now["view"]["turn"] >= 3 or now["over"]:  # a passive human can lose that fast
            break
        kinds = {e["action"]["type"]: e["action"] for e in now["legal"]}
        action = next((kinds[k] for k in ("end", "pass", "done", "decline") if k in kinds), now["legal"][0]["action"])
        r = client.post(f"/api/games/{gid}/actions", json={"seat": tok, "action": action, "expect_step": now["step"]})
        assert r.status_code == 200, r.text
    assert state(client, gid)["view"]["turn"] >= 3 or state(client, gid)["over"]
    history = client.app.state.store.load(gid).actions
    assert any(h["by_ai"] and h["seat"] == 0 for h in history)
    assert not [r for r in caplog.records if r.name == "starcom.server"], "the AI failed and fell back"


def test_agent_names_are_seat_kinds_too_and_case_is_normalised(client):
    g = create(client, players=3, seats=["AI:Random", "human", "ai:greedy"], seed=2)
    assert [s["kind"] for s in g["seats"]] == ["ai:random", "human", "ai:greedy"]


def test_bad_seat_kinds_list_the_choices(client):
    for kind in ("ai:wizard", "ai:", "robot", "greedy", 7, None):
        r = client.post("/api/games", json={"seats": ["human", kind]})
        assert r.status_code == 400, kind
        err = r.json()["error"]
        for name in ("easy", "normal", "hard", "greedy", "random"):
            assert name in err, (kind, err)
    assert client.get("/api/games").json()["games"] == []  # nothing was created


def test_choices_are_levels_then_agents():
    choices = ai_choices()
    assert choices[:3] == ["easy", "normal", "hard"]
    assert set(choices) == set(agents.agent_names())


def test_quick_game_defaults_to_normal(client):
    g = create(client, players=3, mode="vs_ai")
    assert [s["kind"] for s in g["seats"]] == ["human", "ai:normal", "ai:normal"]


# ---------------------------------------------------------------------- takeover level
def test_takeover_level_is_validated_and_stored(tmp_path: Path):
    from starlette.testclient import TestClient
    db = f"sqlite:///{tmp_path / 'games.db'}"
    with TestClient(create_app(db, ai_processes=False)) as c:
        r = c.post("/api/games", json={"mode": "online", "seats": ["human", "human"], "ai_takeover": True,
                                       "takeover_level": "genius"})
        assert r.status_code == 400 and "easy, normal, hard" in r.json()["error"]
        g = create(c, mode="online", seats=["human", "human"], ai_takeover=True, takeover_level="hard")
        assert g["ai_takeover"] is True and g["takeover_level"] == "hard"
        plain = create(c, mode="online", seats=["human", "human"], ai_takeover=True)
        assert plain["takeover_level"] == "normal"
        # takeover is for online games: asking for it elsewhere is refused, not silently dropped
        r = c.post("/api/games", json={"mode": "hotseat", "ai_takeover": True, "takeover_level": "easy"})
        assert r.status_code == 400 and "online" in r.json()["error"]
        offline = create(c, mode="hotseat")
        assert offline["ai_takeover"] is False and offline["takeover_level"] is None
        assert state(c, g["game_id"])["takeover_level"] == "hard"
        assert state(c, offline["game_id"])["takeover_level"] is None

    # round trip through the database: the next server on the same file reads it back
    store = Store(db)
    rec = store.load(g["game_id"])
    store.close()
    assert rec is not None and rec.ai_takeover and rec.takeover_level == "hard"
    with TestClient(create_app(db, ai_processes=False)) as again:
        assert state(again, g["game_id"])["takeover_level"] == "hard"
        assert state(again, plain["game_id"])["takeover_level"] == "normal"


def test_records_from_before_the_takeover_level_still_load(tmp_path: Path):
    from starlette.testclient import TestClient
    path = tmp_path / "old.db"
    with TestClient(create_app(f"sqlite:///{path}", ai_processes=False)) as c:
        g = create(c, mode="online", seats=["human", "human"], ai_takeover=True, takeover_level="easy")
        toks = claim_all(c, g)
        tok = toks[0]
        mover = state(c, g["game_id"])["to_move"]
        end = {"type": "end"}
        assert c.post(f"/api/games/{g['game_id']}/actions",
                      json={"seat": toks[mover], "action": end}).status_code == 200
    with sqlite3.connect(path) as db:  # the table as it was before the column existed
        db.execute("ALTER TABLE games DROP COLUMN takeover_level")
    with TestClient(create_app(f"sqlite:///{path}", ai_processes=False)) as c:
        st = state(c, g["game_id"], tok)
        assert st["step"] == 1 and st["takeover_level"] == "normal"  # absent: the default
        created = create(c, mode="online", seats=["human", "human"], ai_takeover=True, takeover_level="hard")
        assert state(c, created["game_id"])["takeover_level"] == "hard"


# ---------------------------------------------------------------------- takeover
def test_takeover_plays_the_gone_seat_at_its_level_until_the_player_returns(make_client, monkeypatch):
    c = make_client(takeover_seconds=0.1)
    g = create(c, mode="online", seats=["human", "human"], ai_takeover=True, takeover_level="easy")
    gid, toks = g["game_id"], claim_all(c, g)
    st = state(c, gid)
    mover = st["to_move"]
    other = 1 - mover
    assert st["seats"][mover]["ai"] is None
    with c.websocket_connect(f"/ws/games/{gid}?seat={toks[mover]}") as ws:
        assert ws.receive_json()["seats"][mover]["connected"] is True
    # gone: after the timeout the easy AI plays the seat until the other player must decide
    wait_for(lambda: state(c, gid)["step"] > st["step"] and state(c, gid)["to_move"] == other)
    away = state(c, gid)
    assert away["seats"][mover]["ai"] == "easy" and away["seats"][mover]["connected"] is False
    assert away["seats"][mover]["kind"] == "human"

    with c.websocket_connect(f"/ws/games/{gid}?seat={toks[mover]}") as ws:
        back = ws.receive_json()
        assert back["seats"][mover]["ai"] is None and back["seats"][mover]["connected"] is True
        # the other player plays on; when the returned player must decide, nobody decides for them
        for _ in range(200):
            now = state(c, gid, toks[other])
            if now["to_move"] == mover:
                break
            kinds = {e["action"]["type"]: e["action"] for e in now["legal"]}
            action = next((kinds[k] for k in ("end", "pass", "done", "decline") if k in kinds), now["legal"][0]["action"])
            r = c.post(f"/api/games/{gid}/actions", json={"seat": toks[other], "action": action,
                                                          "expect_step": now["step"]})
            assert r.status_code == 200, r.text
            last = r.json()["step"]
        else:
            raise AssertionError("the returned player never had to decide")
        settled = state(c, gid, toks[mover])
        assert settled["step"] == last and settled["legal"]  # the AI moved nothing for them


def test_no_takeover_without_the_option(make_client):
    c = make_client(takeover_seconds=0.01)
    g = create(c, mode="online", seats=["human", "human"])
    gid, toks = g["game_id"], claim_all(c, g)
    mover = state(c, gid)["to_move"]
    with c.websocket_connect(f"/ws/games/{gid}?seat={toks[mover]}") as ws:
        ws.receive_json()
    session = c.app.state.manager.sessions[gid]
    assert session.timers == {} and session.taken_over == set()
    assert state(c, gid)["seats"][mover]["ai"] is None and state(c, gid)["takeover_level"] is None


def test_a_returning_player_voids_the_takeover_decision_in_progress(make_client, gated):
    c = make_client(takeover_seconds=0.05)
    g = create(c, mode="online", seats=["human", "human"], ai_takeover=True, takeover_level="gated")
    gid, toks = g["game_id"], claim_all(c, g)
    mover = state(c, gid)["to_move"]
    with c.websocket_connect(f"/ws/games/{gid}?seat={toks[mover]}") as ws:
        ws.receive_json()
    assert gated.started.wait(20), "the takeover AI never started"
    assert state(c, gid)["seats"][mover]["ai"] == "gated"
    with c.websocket_connect(f"/ws/games/{gid}?seat={toks[mover]}") as ws:
        assert ws.receive_json()["seats"][mover]["ai"] is None
        gated.gate.set()
        # the player's own move is accepted at step 0: the AI's decision was dropped, not played
        legal = state(c, gid, toks[mover])["legal"]
        r = c.post(f"/api/games/{gid}/actions", json={"seat": toks[mover], "action": legal[-1]["action"],
                                                      "expect_step": 0})
        assert r.status_code == 200, r.text
        assert gated.finished == 1
        history = c.app.state.store.load(gid).actions
        assert [h["by_ai"] for h in history] == [False]


# ---------------------------------------------------------------------- thinking off the event loop
def test_server_answers_while_an_ai_thinks(client, gated):
    slow = create(client, seats=["ai:gated", "ai:gated"], seed=5, turn_limit=2)
    assert gated.started.wait(20), "the AI never started thinking"
    # while it thinks: the same game, another game, a new game and a WebSocket are all served
    st = state(client, slow["game_id"])
    assert st["step"] == 0 and st["seats"][st["to_move"]]["ai"] == "gated"
    other = create(client, mode="hotseat", seed=6)
    oid, otoks = other["game_id"], tokens(other)
    mover = state(client, oid)["to_move"]
    r = client.post(f"/api/games/{oid}/actions", json={"seat": otoks[mover], "action": {"type": "end"}})
    assert r.status_code == 200 and r.json()["step"] == 1
    with client.websocket_connect(f"/ws/games/{slow['game_id']}") as ws:
        assert ws.receive_json()["step"] == 0
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    assert gated.finished == 0, "the server only answered after the AI had decided"
    gated.gate.set()
    wait_for(lambda: state(client, slow["game_id"])["step"] >= 2)
    first = client.app.state.store.load(slow["game_id"]).actions[0]
    assert first["by_ai"] is True


def test_a_decision_for_a_replaced_session_is_dropped(client, gated):
    g = create(client, seats=["ai:gated", "ai:gated"], seed=5, turn_limit=2)
    gid = g["game_id"]
    assert gated.started.wait(20)
    manager = client.app.state.manager
    old = manager.sessions[gid]
    client.portal.call(manager.sessions.pop, gid)  # as after a failed write: rebuilt on next access
    gated.gate.set()
    wait_for(lambda: gated.finished >= 1 and not manager.tasks)
    assert client.app.state.store.count_actions(gid) == 0 and old.step == 0
    # the next access rebuilds the game from the store, and its AI seats play on
    wait_for(lambda: state(client, gid)["step"] >= 1)
    assert manager.sessions[gid] is not old


def test_shutdown_does_not_wait_for_a_thinking_ai(tmp_path: Path, gated):
    from starlette.testclient import TestClient
    db = f"sqlite:///{tmp_path / 'g.db'}"
    with TestClient(create_app(db, ai_processes=False, allow_ai_games=True)) as c:
        g = create(c, seats=["ai:gated", "ai:gated"], seed=5, turn_limit=2)
        assert gated.started.wait(20)
    assert gated.finished == 0  # the server stopped while the AI was still thinking
    gated.gate.set()
    wait_for(lambda: gated.finished == 1)
    store = Store(db)
    assert store.count_actions(g["game_id"]) == 0  # and its late decision was not stored
    store.close()
