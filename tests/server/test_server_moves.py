"""Issue 30: the server must never take a real choice away from a human seat. A scripted game
once found `done` stored as made by the server for the human seat at a damage assignment where
`assign` was legal (automatic passes on, "stop at my responses" off).

Every way the server acts for a human seat (the automatic pass, the single option taken for it,
the idle phase ended for it, the drive that plays them in the background after the hold, a
settings change that sets them off) is played at a Star Commander damage assignment with
`assign` legal, under every combination of the seat's settings: the decision must stay the
seat's. An automatic action scheduled for an earlier decision that fires late must be dropped,
and one that no longer fits the decision now must be dropped too. An action that waited behind an
undo is refused as stale instead of landing on the replaced game."""
from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from starcom.server.sessions import SEAT_SETTINGS, Manager, Session

from .conftest import create, decision, server_idle, state, tokens, wait_for


@pytest.fixture
def client(make_client: Any) -> TestClient:
    return make_client(rate_limit=1_000_000)


def fighter(st: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A choice that heads for combat: jumps, fights and builds first."""
    legal = st["legal"]
    busy = [e for e in legal if e["action"]["type"] in ("fight", "jump", "build", "develop")]
    return rng.choice(busy) if busy and rng.random() < 0.85 else rng.choice(legal)


def at_an_assignment(c: TestClient, seed: int = 11) -> tuple[str, dict[int, str], dict[str, Any]]:
    """A hot-seat Star Commander game whose seats never stop at responses, played until a seat
    must assign damage with `assign` among its options: (game id, tokens, that seat's state)."""
    for s in range(seed, seed + 6):
        g = create(c, mode="hotseat", seed=s)
        gid, toks = g["game_id"], tokens(g)
        for tok in toks.values():
            r = c.post(f"/api/games/{gid}/settings", json={"seat": tok, "stop_at_responses": False})
            assert r.status_code == 200, r.text
        rng = random.Random(s)
        for _ in range(400):
            st = decision(c, gid, toks)
            if st is None:
                break
            kinds = {e["action"]["type"] for e in st["legal"]}
            if "assign" in kinds:
                assert "done" in kinds
                return gid, toks, st
            entry = fighter(st, rng)
            r = c.post(f"/api/games/{gid}/actions", json={"seat": toks[st["seat"]], "action": entry["action"],
                                                          "expect_step": st["step"]})
            assert r.status_code == 200, r.text
    raise AssertionError("no damage assignment came up")


def made_by_server_at(c: TestClient, gid: str, step: int) -> list[dict[str, Any]]:
    rec = c.app.state.store.load(gid)  # type: ignore[attr-defined]
    return [a for a in rec.actions[step:] if a["by_ai"]]


def test_no_automatic_path_takes_a_damage_assignment_away(client: TestClient) -> None:
    gid, toks, st = at_an_assignment(client)
    seat, step = st["seat"], st["step"]
    assert not st["passing"], "the seat's message says the server decides its damage assignment"
    manager: Manager = client.app.state.manager  # type: ignore[attr-defined]
    names = list(SEAT_SETTINGS)
    for values in itertools.product((False, True), repeat=len(names)):
        body = dict(zip(names, values))
        r = client.post(f"/api/games/{gid}/settings", json={"seat": toks[seat], **body})
        assert r.status_code == 200, r.text
        s = manager.sessions[gid]
        assert s.server_move(seat) is None, body
        client.portal.call(manager.drive, s)   # the background drive, run to its end
        wait_for(lambda: server_idle(client, gid))
        now = state(client, gid, toks[seat])
        assert now["step"] == step and now["to_move"] == seat, f"the server moved for the seat with {body}"
        assert not now["passing"], body
    # a socket coming and going changes nothing either (no takeover in a game at one device)
    with client.websocket_connect(f"/ws/games/{gid}?seat={toks[seat]}") as ws:
        assert ws.receive_json()["step"] == step
    wait_for(lambda: server_idle(client, gid))
    assert state(client, gid)["step"] == step
    assert not made_by_server_at(client, gid, step)
    # the seat's own `done` is still its to give, and then the game goes on
    r = client.post(f"/api/games/{gid}/actions", json={"seat": toks[seat], "action": {"type": "done"},
                                                       "expect_step": step})
    assert r.status_code == 200, r.text
    rec = client.app.state.store.load(gid)  # type: ignore[attr-defined]
    assert rec.actions[step]["action"]["type"] == "done" and not rec.actions[step]["by_ai"]


def test_a_late_automatic_action_is_dropped_at_an_assignment(client: TestClient) -> None:
    """An automatic action scheduled for an earlier decision (or judged on a state the seat has
    left) that fires at the damage assignment is not played: not for the step it was meant for,
    and not as `done` for this one, which the server would never make while `assign` is legal."""
    gid, toks, st = at_an_assignment(client)
    seat, step = st["seat"], st["step"]
    manager: Manager = client.app.state.manager  # type: ignore[attr-defined]
    s = manager.sessions[gid]

    async def fire(at: int, act: Any) -> bool:
        async with s.lock:
            return manager._play_for(s, seat, at, act)

    for at in (step - 1, step, step + 1):
        for act in (("done",), ("pass",)):
            assert client.portal.call(fire, at, act) is False, (at, act)
    assert s.step == step and s.game.to_move == seat
    assert not made_by_server_at(client, gid, step)
    # what the server makes for a seat at a decision is judged from the seat's legal actions
    # only: here none, whatever the settings
    assert s.server_move(seat) is None


def test_a_pass_waiting_out_the_hold_is_dropped_when_the_decision_moved_on(make_client: Any,
                                                                            monkeypatch: Any) -> None:
    """The drive waits out the hold of a held decision before passing for a seat. If the
    decision is no longer the one pending when the wait ends (here the seat's own answer is
    played during the wait, standing for any change), the pass is dropped."""
    c = make_client(rate_limit=1_000_000, window_hold=0.05)
    g = create(c, mode="hotseat", seed=11)
    gid, toks = g["game_id"], tokens(g)
    manager: Manager = c.app.state.manager  # type: ignore[attr-defined]
    for tok in toks.values():
        c.post(f"/api/games/{gid}/settings", json={"seat": tok, "stop_at_responses": False})
    hold = Manager._hold
    moved: list[int] = []

    async def racing_hold(self: Manager, s: Session, seat: int) -> None:
        await hold(self, s, seat)
        legal = s.game.legal_actions()
        answer = next((a for a in legal if not s.adapter.is_pass(a)), None)
        if answer is not None and not moved and s.game.to_move == seat:
            moved.append(s.step)
            self._commit(s, answer, seat, False)   # the state moved on under the scheduled pass

    monkeypatch.setattr(Manager, "_hold", racing_hold)
    rng = random.Random(3)
    for _ in range(300):
        if moved:
            break
        st = decision(c, gid, toks)
        if st is None:
            break
        r = c.post(f"/api/games/{gid}/actions", json={"seat": toks[st["seat"]], "action": fighter(st, rng)["action"],
                                                      "expect_step": st["step"]})
        assert r.status_code in (200, 409), r.text
    assert moved, "no held decision was passed for a seat: the test proves nothing"
    wait_for(lambda: server_idle(c, gid))
    rec = c.app.state.store.load(gid)  # type: ignore[attr-defined]
    i = moved[0]
    assert not rec.actions[i]["by_ai"], "the scheduled pass landed on the decision it was not meant for"
    assert rec.actions[i]["action"]["type"] not in ("pass", "done")


def test_declining_prefers_the_response_pass_to_done(client: TestClient) -> None:
    """Where a seat lets a decision go by, the server plays the response pass, never Star
    Commander's `done` (which ends an assignment or a retreat) while a `pass` is there."""
    g = create(client, mode="hotseat", seed=11)
    s = client.app.state.manager.sessions[g["game_id"]]  # type: ignore[attr-defined]
    assert s.decline([("done",), ("pass",)]) == ("pass",)
    assert s.decline([("done",)]) == ("done",)


def test_an_action_that_waited_behind_an_undo_is_refused_as_stale(client: TestClient) -> None:
    """An action queued on the session lock while an undo replaced the game is refused (409),
    not played on the replaced game (whose write the store would refuse, dropping the game)."""
    g = create(client, mode="hotseat", seed=11)
    gid, toks = g["game_id"], tokens(g)
    manager: Manager = client.app.state.manager  # type: ignore[attr-defined]
    rng = random.Random(1)
    for _ in range(200):   # until a seat may undo and still holds the decision
        st = decision(client, gid, toks)
        assert st is not None
        if st["can_undo"]:
            break
        r = client.post(f"/api/games/{gid}/actions", json={"seat": toks[st["seat"]],
                                                           "action": fighter(st, rng)["action"],
                                                           "expect_step": st["step"]})
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("no seat could undo")
    seat, step = st["seat"], st["step"]
    action = next(e["action"] for e in st["legal"] if e["action"]["type"] != "end")
    s = manager.sessions[gid]

    async def race() -> tuple[Any, Any]:
        await s.lock.acquire()
        undo = asyncio.ensure_future(manager.undo(s, seat))
        await asyncio.sleep(0)
        act = asyncio.ensure_future(manager.act(s, seat, action, step))
        await asyncio.sleep(0)
        s.lock.release()
        return await asyncio.gather(undo, act, return_exceptions=True)

    undone, acted = client.portal.call(race)
    assert isinstance(undone, int) and undone < step
    assert getattr(acted, "status", None) == 409 and "stale" in str(acted.body()), acted
    assert manager.sessions.get(gid) is not None and manager.sessions[gid] is not s
    assert state(client, gid)["step"] == undone
