"""Fixtures for the seam tests: a server app over a temporary SQLite file (as tests/server)."""
from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient

from starcom.server.app import create_app


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """``make_client()`` -> a started TestClient over a fresh database; AI decisions in threads."""
    clients: list[TestClient] = []

    def make(**opts: Any) -> TestClient:
        opts = {"ai_processes": False, "create_limit": 0, "allow_ai_games": True, **opts}
        c = TestClient(create_app(f"sqlite:///{tmp_path / f'games{len(clients)}.db'}", **opts))
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
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "the server did not get there in time"
        time.sleep(0.02)
