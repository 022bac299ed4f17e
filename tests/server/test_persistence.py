"""Persistence: a real server process is killed with SIGKILL mid-game and started again on the same
SQLite file; every game continues exactly where it was."""
from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "CI": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "starcom.cli.main", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--db", f"sqlite:///{db}", "--no-browser"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).raise_for_status()
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("server did not start")


def comparable(st: dict[str, Any]) -> dict[str, Any]:
    """The state message without who is connected right now."""
    return {k: v for k, v in st.items() if k != "seats"}


def settled(c: httpx.Client, game_id: str, human_seats: set[int]) -> dict[str, Any]:
    """The spectator state once a human seat is to move (AI seats think in the background)."""
    deadline = time.monotonic() + 30
    while True:
        st = c.get(f"/api/games/{game_id}").json()
        if st["over"] or st["to_move"] in human_seats:
            return st
        if time.monotonic() > deadline:
            raise AssertionError(f"AI seat {st['to_move']} did not move within 30 s")
        time.sleep(0.05)


def test_sigkill_and_restart_continue_every_game(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db, port)
    try:
        with httpx.Client(base_url=base, timeout=20) as c:
            vs_ai = c.post("/api/games", json={"seed": 21}).json()
            hot = c.post("/api/games", json={"mode": "hotseat", "seed": 22}).json()
            rng = random.Random(3)
            for g in (vs_ai, hot):
                toks = {s["seat"]: s["token"] for s in g["seats"] if s["kind"] == "human"}
                for _ in range(12):
                    st = settled(c, g["game_id"], set(toks))
                    if st["over"]:
                        break
                    tok = toks[st["to_move"]]
                    legal = c.get(f"/api/games/{g['game_id']}", params={"seat": tok}).json()["legal"]
                    r = c.post(f"/api/games/{g['game_id']}/actions",
                               json={"seat": tok, "action": rng.choice(legal)["action"], "expect_step": st["step"]})
                    assert r.status_code == 200, r.text
            for g in (vs_ai, hot):
                settled(c, g["game_id"], {s["seat"] for s in g["seats"] if s["kind"] == "human"})
            before = {g["game_id"]: [c.get(f"/api/games/{g['game_id']}", params={"seat": s.get("token")}).json()
                                     for s in g["seats"]] + [c.get(f"/api/games/{g['game_id']}").json()]
                      for g in (vs_ai, hot)}
        assert all(b[-1]["step"] > 5 for b in before.values())
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)

        proc = start_server(db, port)
        with httpx.Client(base_url=base, timeout=20) as c:
            for g in (vs_ai, hot):
                after = [c.get(f"/api/games/{g['game_id']}", params={"seat": s.get("token")}).json()
                         for s in g["seats"]] + [c.get(f"/api/games/{g['game_id']}").json()]
                for b, a in zip(before[g["game_id"]], after):
                    assert a["step"] == b["step"]
                    assert comparable(a) == comparable(b)
            # and the games go on from there
            hot_st = before[hot["game_id"]][-1]
            tok = {s["seat"]: s["token"] for s in hot["seats"]}[hot_st["to_move"]]
            legal = c.get(f"/api/games/{hot['game_id']}", params={"seat": tok}).json()["legal"]
            r = c.post(f"/api/games/{hot['game_id']}/actions",
                       json={"seat": tok, "action": legal[0]["action"], "expect_step": hot_st["step"]})
            assert r.status_code == 200 and r.json()["step"] == hot_st["step"] + 1
    finally:
        proc.kill()
        proc.wait(10)
