"""Durability under load: while several games are played at once (over HTTP and over WebSockets),
the server process is killed with SIGKILL; started again on the same SQLite file, it still has
every action it acknowledged, and exactly the actions that were sent."""
from __future__ import annotations

import http.client
import json
import random
import sqlite3
import sys
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import websockets
from websockets.sync.client import ClientConnection, connect

from starcom.server.loadtest import ServerProcess, request_json

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL")

HTTP_GAMES = 3
WS_GAMES = 3
KILL_AFTER = 90          # acknowledged actions in all before the kill
GAP = 0.06               # seconds between one player's actions: under the server's 20 a second


@dataclass
class Played:
    """One game as its player saw it: the action sent at each step (the last one, if a refused
    action was sent again) and the highest step the server acknowledged."""

    game_id: str
    tokens: dict[int, str]
    sent: dict[int, dict[str, Any]] = field(default_factory=dict)
    acked: int = 0
    problems: list[str] = field(default_factory=list)


def play_http(base: str, g: Played, stop: threading.Event) -> None:
    """Random legal actions over REST; an acknowledgement is ``200 {"ok": true, "step": n}``."""
    rng = random.Random(g.game_id)
    try:
        while not stop.is_set():
            _, any_seat = request_json("GET", f"{base}/api/games/{g.game_id}?seat={g.tokens[0]}")
            if any_seat["over"]:
                return
            tok = g.tokens[any_seat["to_move"]]
            _, st = request_json("GET", f"{base}/api/games/{g.game_id}?seat={tok}")
            action = rng.choice(st["legal"])["action"]
            g.sent[st["step"]] = action
            status, ans = request_json("POST", f"{base}/api/games/{g.game_id}/actions",
                                       {"seat": tok, "action": action, "expect_step": st["step"]})
            if status == 200:
                assert ans == {"ok": True, "step": st["step"] + 1}, ans
                g.acked = max(g.acked, ans["step"])
            elif status != 429:   # too many messages: not applied, try again
                g.problems.append(f"HTTP {status}: {ans}")
                return
            time.sleep(GAP)
    except (OSError, http.client.HTTPException):
        return   # the server is gone


def _state_at(conn: ClientConnection, step: int) -> dict[str, Any]:
    """The first state message on ``conn`` at ``step`` or later (older ones are skipped)."""
    while True:
        msg = json.loads(conn.recv(timeout=30))
        if msg.get("type") == "error":
            raise AssertionError(f"refused: {msg}")
        if msg.get("type") == "state" and msg["step"] >= step:
            return msg


def play_ws(base: str, g: Played, stop: threading.Event) -> None:
    """Random legal actions over one WebSocket per seat; an acknowledgement is a state message
    showing the next step, received on the sender's connection (sent after the commit)."""
    rng = random.Random(g.game_id)
    ws = "ws" + base[4:]
    try:
        with ExitStack() as stack:
            conns: dict[int, ClientConnection] = {
                seat: stack.enter_context(connect(f"{ws}/ws/games/{g.game_id}?seat={tok}", proxy=None,
                                                  max_size=1 << 24))
                for seat, tok in g.tokens.items()}
            st = _state_at(conns[0], 0)
            step, to_move = st["step"], st["to_move"]
            while not stop.is_set():
                st = _state_at(conns[to_move], step)
                if st["over"]:
                    return
                action = rng.choice(st["legal"])["action"]
                g.sent[step] = action
                conns[to_move].send(json.dumps({"type": "action", "action": action, "expect_step": step}))
                st = _state_at(conns[to_move], step + 1)
                g.acked = max(g.acked, st["step"])
                step, to_move = st["step"], st["to_move"]
                time.sleep(GAP)
    except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
        return   # the server is gone
    except AssertionError as exc:
        g.problems.append(str(exc))


def stored_actions(db: Path, game_id: str) -> list[dict[str, Any]]:
    """The game's actions as the database holds them, in order of their step."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
    assert [seq for seq, _ in rows] == list(range(len(rows))), "the stored steps have a gap"
    return [json.loads(a) for _, a in rows]


def test_sigkill_under_load_keeps_every_acknowledged_action(tmp_path: Path) -> None:
    db = tmp_path / "kill9.db"
    server = ServerProcess(db=db).start()
    try:
        games = []
        for i in range(HTTP_GAMES + WS_GAMES):
            status, g = request_json("POST", f"{server.url}/api/games", {"mode": "hotseat", "seed": 100 + i})
            assert status == 201, g
            played = Played(g["game_id"], {s["seat"]: s["token"] for s in g["seats"]})
            # Every action is the player's own: with automatic passes or single options taken the
            # server would add actions nobody sent, and a step would acknowledge more than one action.
            for tok in played.tokens.values():
                status, ans = request_json("POST", f"{server.url}/api/games/{g['game_id']}/settings",
                                           {"seat": tok, "auto_pass": False, "auto_single": False})
                assert status == 200, ans
            games.append(played)
        stop = threading.Event()
        threads = [threading.Thread(target=play_http if i < HTTP_GAMES else play_ws, args=(server.url, g, stop),
                                    daemon=True) for i, g in enumerate(games)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while sum(g.acked for g in games) < KILL_AFTER and time.monotonic() < deadline:
            time.sleep(0.01)
        server.kill()    # SIGKILL while the players are still sending
        stop.set()
        for t in threads:
            t.join(30)
        assert not any(t.is_alive() for t in threads)
        assert [p for g in games for p in g.problems] == []
        assert sum(g.acked for g in games) >= KILL_AFTER, "the load did not get going before the deadline"
        assert all(g.acked > 0 for g in games)

        server = ServerProcess(db=db).start()    # the same file, a fresh process
        for g in games:
            stored = stored_actions(db, g.game_id)
            # every acknowledged action is there; at most the one action in flight beyond them
            assert g.acked <= len(stored) <= g.acked + 1, (g.game_id, g.acked, len(stored))
            assert stored == [g.sent[i] for i in range(len(stored))]
            status, st = request_json("GET", f"{server.url}/api/games/{g.game_id}?seat={g.tokens[0]}")
            assert status == 200 and st["step"] == len(stored)
            if st["over"]:
                continue
            # and the game goes on from there
            tok = g.tokens[st["to_move"]]
            _, mine = request_json("GET", f"{server.url}/api/games/{g.game_id}?seat={tok}")
            status, ans = request_json("POST", f"{server.url}/api/games/{g.game_id}/actions",
                                       {"seat": tok, "action": mine["legal"][0]["action"], "expect_step": st["step"]})
            assert status == 200 and ans["step"] == st["step"] + 1, ans
    finally:
        server.stop()
