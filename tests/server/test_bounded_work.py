"""No visitor can make the server do unbounded work (issue 10, item 4): caps on every game, AI
decisions in a bounded pool with a queue, a creation rate limit, games leaving memory, bounded
send queues, one snapshot per connect, replays built once."""
from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from starcom.sc.engine.game import Game
from starcom.sc.engine.state import Config
from starcom.server.adapter import adapter_for
from starcom.server.limits import ACTION_LIMIT, DEFAULT_TURN_LIMIT, SEND_QUEUE
from starcom.server.replays import ReplayBook
from starcom.server.sessions import Conn

from .conftest import create, state, tokens, wait_for
from .test_ai_seats import GatedAgent, gated  # noqa: F401  (fixture)

STARCOM_ADAPTER = adapter_for("starcom")  # the server's one adapter of Star Commander


def test_every_game_gets_the_caps(client: TestClient) -> None:
    g = create(client, mode="hotseat")
    cfg = state(client, g["game_id"])["view"]["config"]
    assert cfg["turn_limit"] == DEFAULT_TURN_LIMIT and cfg["action_limit"] == ACTION_LIMIT
    mine = create(client, mode="hotseat", turn_limit=12)
    assert state(client, mine["game_id"])["view"]["config"]["turn_limit"] == 12


# RULE: WIN-2
def test_the_action_cap_ends_the_game_by_score() -> None:
    for seed in range(5):
        g = Game.from_config(Config(2, 3, "standard", seed, None, 40))
        rng = random.Random(seed)
        while not g.over:
            g.apply(rng.choice(g.legal_actions()))
        assert g.actions_played <= 40
        if g.actions_played == 40:  # ended by the cap (not by a homeworld falling first)
            devs = [sum(s.devs for s in g.sites if s.owner == q) for q in range(2)]
            best = max((devs[q], g.credits[q]) for q in range(2))
            top = [q for q in range(2) if (devs[q], g.credits[q]) == best]
            assert g.winner == (top[0] if len(top) == 1 else -1)


def test_game_creation_is_rate_limited_per_client(make_client: Any) -> None:
    c = make_client(create_limit=3)
    codes = [c.post("/api/games", json={"mode": "hotseat"}).status_code for _ in range(5)]
    assert codes[:3] == [201, 201, 201] and codes[3:] == [429, 429]
    r = c.post("/api/games", json={"mode": "hotseat"})
    assert "a minute" in r.json()["error"]


def _until_ai_turn(c: TestClient, gid: str, tok: str) -> None:
    """Seat 0 (human) plays passively until the AI seat must decide."""
    for _ in range(100):
        st = state(c, gid, tok)
        if st["to_move"] != 0:
            return
        kinds = {e["action"]["type"]: e["action"] for e in st["legal"]}
        action = next((kinds[k] for k in ("end", "pass", "done", "decline") if k in kinds), st["legal"][0]["action"])
        assert c.post(f"/api/games/{gid}/actions", json={"seat": tok, "action": action}).status_code == 200
    raise AssertionError("the AI never had to decide")


def test_ai_decisions_run_in_worker_processes(make_client: Any) -> None:
    c = make_client(ai_processes=True, ai_workers=1)
    g = create(c, seed=2, seats=["human", "ai:random"])
    gid, tok = g["game_id"], tokens(g)[0]
    wait_for(lambda: state(c, gid)["to_move"] == 0, 60)  # the worker process starts on first use
    start = state(c, gid)["step"]
    _until_ai_turn(c, gid, tok)
    wait_for(lambda: state(c, gid)["to_move"] == 0 and state(c, gid)["step"] > start + 1, 60)
    assert any(a["by_ai"] for a in c.app.state.store.load(gid).actions)


def test_a_failing_ai_pool_does_not_stall_the_game(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the pool itself fails (a worker died, a game that cannot be sent), the AI seat plays
    its first legal action instead of leaving the game waiting for ever."""
    from starcom.server.ai_pool import AiPool

    async def broken(self: AiPool, *args: Any) -> Any:
        raise RuntimeError("the worker process died")
    monkeypatch.setattr(AiPool, "decide", broken)
    c = make_client(ai_workers=1, rate_limit=10 ** 6)
    g = create(c, seed=2, seats=["human", "ai:random"])
    gid, tok = g["game_id"], tokens(g)[0]
    wait_for(lambda: state(c, gid)["to_move"] == 0)
    def ai_moved() -> bool:
        return any(a["by_ai"] for a in c.app.state.store.load(gid).actions)
    for _ in range(100):  # seat 0 plays passively until the AI seat has had to move
        wait_for(lambda: state(c, gid)["to_move"] == 0 or state(c, gid)["over"])
        if ai_moved() or state(c, gid)["over"]:
            break
        st = state(c, gid, tok)
        kinds = {e["action"]["type"]: e["action"] for e in st["legal"]}
        action = next((kinds[k] for k in ("end", "pass", "done", "decline") if k in kinds), st["legal"][0]["action"])
        c.post(f"/api/games/{gid}/actions", json={"seat": tok, "action": action, "expect_step": st["step"]})
    assert ai_moved()
    wait_for(lambda: state(c, gid)["to_move"] == 0 or state(c, gid)["over"])
    assert state(c, gid)["seats"][1]["ai_status"] is None


def test_excess_ai_decisions_queue_and_are_not_lost(make_client: Any, gated: GatedAgent) -> None:  # noqa: F811
    c = make_client(ai_workers=1)
    busy, waiting = (create(c, seats=["human", "ai:gated"], seed=4) for _ in range(2))
    _until_ai_turn(c, busy["game_id"], tokens(busy)[0])
    assert gated.started.wait(20)
    _until_ai_turn(c, waiting["game_id"], tokens(waiting)[0])
    assert state(c, busy["game_id"])["seats"][1]["ai_status"] == "thinking"
    assert state(c, waiting["game_id"])["seats"][1]["ai_status"] == "queued"  # one worker: it waits
    assert gated.calls == 1
    gated.gate.set()
    wait_for(lambda: all(state(c, gid)["to_move"] == 0 or state(c, gid)["over"]
                         for gid in (busy["game_id"], waiting["game_id"])))
    assert all(state(c, gid)["seats"][1]["ai_status"] is None for gid in (busy["game_id"], waiting["game_id"]))


def test_finished_and_idle_games_leave_memory_and_come_back(make_client: Any) -> None:
    c = make_client(idle_seconds=3600, finished_seconds=0)
    manager = c.app.state.manager
    done = create(c, mode="hotseat", seed=1, turn_limit=1)
    gid, toks = done["game_id"], tokens(done)
    for _ in range(200):
        st = state(c, gid)
        if st["over"]:
            break
        mover = st["to_move"]
        legal = state(c, gid, toks[mover])["legal"]
        kinds = {e["action"]["type"]: e["action"] for e in legal}
        action = next((kinds[k] for k in ("end", "pass", "done", "decline") if k in kinds), legal[0]["action"])
        assert c.post(f"/api/games/{gid}/actions", json={"seat": toks[mover], "action": action}).status_code == 200
    assert state(c, gid)["over"]
    live = create(c, mode="hotseat")
    assert c.portal.call(_sweep, manager) == 1
    assert gid not in manager.sessions and live["game_id"] in manager.sessions
    assert state(c, gid)["over"] and state(c, gid)["step"] > 0  # rebuilt from the store on demand


async def _sweep(manager: Any) -> int:
    return manager.sweep()


def test_a_slow_reader_is_disconnected_not_buffered_for_ever() -> None:
    async def scenario() -> tuple[bool, Any]:
        conn = Conn(ws=None, seat=None)
        for i in range(SEND_QUEUE + 10):
            conn.send({"n": i})
        return conn.closed, conn.queue.get_nowait()

    closed, first = asyncio.run(scenario())
    assert closed and first[1] == 1013  # nothing old is kept; the close comes first


def test_a_connect_sends_one_snapshot_and_disturbs_nobody(client: TestClient) -> None:
    g = create(client, mode="hotseat")
    gid, toks = g["game_id"], tokens(g)
    with client.websocket_connect(f"/ws/games/{gid}") as watcher:
        assert watcher.receive_json()["type"] == "state"
        with client.websocket_connect(f"/ws/games/{gid}") as other:
            assert other.receive_json()["type"] == "state"
            other.send_json({"type": "ping"})
            assert other.receive_json() == {"type": "pong"}
        watcher.send_json({"type": "ping"})
        assert watcher.receive_json() == {"type": "pong"}  # another spectator came and went: no message
        with client.websocket_connect(f"/ws/games/{gid}?seat={toks[0]}") as player:
            assert player.receive_json()["type"] == "state"
            player.send_json({"type": "ping"})
            assert player.receive_json() == {"type": "pong"}  # exactly one snapshot, then nothing
            seen = watcher.receive_json()  # a player arrived: the others are told (connected flag)
            assert seen["type"] == "state" and seen["seats"][0]["connected"] is True


def test_replays_are_built_once_and_match_a_fresh_rebuild(make_client: Any) -> None:
    c = make_client()
    g = create(c, seats=["ai:random", "ai:random"], seed=8, turn_limit=6)
    gid = g["game_id"]
    wait_for(lambda: state(c, gid)["over"])
    rep = c.get(f"/api/games/{gid}/replay").json()
    manager = c.app.state.manager
    book = manager.replays.get(gid)
    assert book is not None and book.steps == len(rep["actions"])
    fresh = ReplayBook(gid, STARCOM_ADAPTER, rep["config"], [{"action": a, "seat": 0} for a in rep["actions"]],
                       rep["seats"])
    for n in sorted({0, 1, book.steps // 2, book.steps - 1, book.steps}):
        served = c.get(f"/api/games/{gid}/replay/{n}").json()
        assert served["view"] == fresh.picture(n)["view"] and served["log"] == fresh.picture(n)["log"]
    assert manager.replays.get(gid) is book  # cached, not rebuilt per step
    with pytest.raises(Exception):
        fresh.picture(book.steps + 1)


def test_rebuilding_a_game_does_not_hold_up_the_server(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from starcom.server import sessions

    slow = create(client, mode="hotseat", seed=3)
    other = create(client, mode="hotseat", seed=4)
    manager = client.app.state.manager
    client.portal.call(_forget, manager, slow["game_id"])  # out of memory: the next request rebuilds it
    entered, release = threading.Event(), threading.Event()
    real_init = sessions.Session.__init__

    def gated_init(self: Any, rec: Any, *args: Any) -> None:
        if rec.game_id == slow["game_id"]:
            entered.set()
            release.wait(30)  # stands in for replaying a very long game
        real_init(self, rec, *args)

    monkeypatch.setattr(sessions.Session, "__init__", gated_init)
    answers: list[int] = []
    waiting = threading.Thread(target=lambda: answers.append(client.get(f"/api/games/{slow['game_id']}").status_code))
    waiting.start()
    try:
        assert entered.wait(20)
        # while the rebuild is under way, other games and the lobby are served
        assert state(client, other["game_id"])["step"] == 0
        assert client.get("/api/games").status_code == 200
        assert not answers  # ... and the rebuilt game's own request is still waiting
    finally:
        release.set()
        waiting.join(30)
    assert answers == [200]


async def _forget(manager: Any, game_id: str) -> None:
    manager._forget(game_id)
