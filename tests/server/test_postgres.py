"""The server stores games in PostgreSQL too (``--db`` takes any SQLAlchemy URL).

The test starts a throwaway PostgreSQL cluster of its own (Debian's server binaries, a socket in a
temporary folder, no TCP) and plays through the API on it; a second app on the same database
continues the game exactly where the first left it.
"""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Iterator

import pytest
from fastapi.testclient import TestClient

from starcom.server.app import create_app

BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


def _as_postgres(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its tools as the 'postgres' user then."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    if not BIN:
        pytest.skip("PostgreSQL server binaries not installed (apt-get install postgresql)")
    pytest.importorskip("psycopg", reason="the psycopg driver is part of the dev extra")
    bindir = Path(BIN[-1])
    # Not pytest's tmp folder: its parents are closed to the 'postgres' user.
    root = Path(tempfile.mkdtemp(prefix="starcom-pg-"))
    data, sock = root / "data", root / "sock"
    data.mkdir()
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(data, "postgres")
        shutil.chown(sock, "postgres")
    port = _free_port()
    subprocess.run(_as_postgres([str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                                 "-E", "UTF8"]), check=True, capture_output=True)
    subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-w", "-l", str(root / "log"),
                                 "-o", f"-k {sock} -p {port} -c listen_addresses=''", "start"]),
                   check=True, capture_output=True)
    try:
        yield f"postgresql+psycopg://postgres@/postgres?host={sock}&port={port}"
    finally:
        subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def _first(legal: list[dict], kind: str) -> dict:
    return next(e["action"] for e in legal if e["action"]["type"] == kind)


def test_games_live_in_postgresql_and_survive_a_new_server(pg_url: str) -> None:
    with TestClient(create_app(pg_url)) as client:
        made = client.post("/api/games", json={"players": 2, "size": 3, "seats": ["human", "human"],
                                                "mode": "hotseat", "seed": 5}).json()
        gid = made["game_id"]
        tokens = {s["seat"]: s["token"] for s in made["seats"]}
        for _ in range(6):  # end phases and answer whatever comes, as whoever must decide
            state = client.get(f"/api/games/{gid}").json()
            seat = state["to_move"]
            mine = client.get(f"/api/games/{gid}", params={"seat": tokens[seat]}).json()
            legal = mine["legal"]
            kinds = [e["action"]["type"] for e in legal]
            action = _first(legal, "end") if "end" in kinds else legal[0]["action"]
            r = client.post(f"/api/games/{gid}/actions", json={"seat": tokens[seat], "action": action})
            assert r.status_code == 200, r.text
        before = client.get(f"/api/games/{gid}", params={"seat": tokens[0]}).json()
    assert before["step"] == 6
    with TestClient(create_app(pg_url)) as client:  # a new server process would see the same
        after = client.get(f"/api/games/{gid}", params={"seat": tokens[0]}).json()
    assert after["step"] == before["step"]
    assert after["view"] == before["view"]
    assert after["legal"] == before["legal"]
