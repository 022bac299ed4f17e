"""HTTP helpers shared by the server tests and the seam tests (a plain module, which both
conftests import, rather than one conftest importing another): a server app over a temporary
SQLite file, driven by Starlette's TestClient, and the requests the tests make of it."""
from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from starcom.server.app import create_app  # noqa: E402


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """``make_client(**create_app options)`` -> a started TestClient over a fresh database.
    AI decisions run in threads (tests patch agents in this process), game creation is not
    rate-limited, games between AIs are allowed and held decisions are passed as soon as the
    server gets to them (``window_hold=0``: the tests play whole games, and the passes are
    still made in the background, as with the real hold), unless the options say otherwise."""
    clients: list[TestClient] = []

    def make(**opts: Any) -> TestClient:
        opts = {"ai_processes": False, "create_limit": 0, "allow_ai_games": True, "window_hold": 0.0, **opts}
        app = create_app(f"sqlite:///{tmp_path / f'games{len(clients)}.db'}", **opts)
        c = TestClient(app)
        c.__enter__()
        clients.append(c)
        return c

    yield make
    for c in clients:
        c.__exit__(None, None, None)


def create(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def state(c: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}", params={"seat": token} if token else None)
    assert r.status_code == 200, r.text
    return r.json()


def tokens(game: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in game["seats"] if "token" in s}


def wait_for(pred: Callable[[], bool], seconds: float = 20.0) -> None:
    """Poll until ``pred()`` (for work the server does in the background, e.g. all-AI games)."""
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "the server did not get there in time"
        time.sleep(0.02)


def server_idle(c: TestClient, gid: str) -> bool:
    """Whether the server plays no seat of game ``gid`` by itself now: no AI deciding, no pass
    it makes or holds for a seat (those go on in the background after a request returns)."""
    manager = c.app.state.manager  # type: ignore[attr-defined]
    s = manager.sessions[gid]
    return not s.lock.locked() and not manager._moves_itself(s)


def decision(c: TestClient, gid: str, toks: dict[int, str], seconds: float = 20.0) -> dict[str, Any] | None:
    """The state of the seat (one of ``toks``) that must decide now, once the server is not
    passing for it (its message says ``passing`` while the server will, and a client leaves it
    alone then); None when the game is over."""
    end = time.monotonic() + seconds
    while True:
        st = state(c, gid)
        if st["over"]:
            return None
        seat = st["to_move"]
        if seat in toks:
            mine = state(c, gid, toks[seat])
            if mine["over"]:
                return None
            if mine["to_move"] == seat and not mine["passing"]:
                return mine
        assert time.monotonic() < end, "no seat of these tokens came to decide"
        time.sleep(0.01)
