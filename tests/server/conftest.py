"""Fixtures for the server tests: an app over a temporary SQLite file, driven by TestClient."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from api_helpers import TestClient, create, decision, make_client, server_idle, state, tokens, wait_for

__all__ = ["claim_all", "create", "decision", "invite_code", "make_client", "server_idle", "state", "tokens", "wait_for"]


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    return make_client()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Callable[[], str]]:
    """A throwaway PostgreSQL cluster, started once per test session (Debian's server binaries,
    a socket in a temporary folder, no TCP). Yields ``new_database()``, which creates an empty
    database in it and returns its SQLAlchemy URL, so tests do not see each other's games or
    locks. Skips where the server binaries or the psycopg driver are missing."""
    import glob
    import itertools
    import os
    import shutil
    import socket
    import subprocess
    import tempfile

    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not bins:
        pytest.skip("PostgreSQL server binaries not installed (apt-get install postgresql)")
    pytest.importorskip("psycopg", reason="the psycopg driver is part of the dev extra")
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    def as_postgres(cmd: list[str]) -> list[str]:
        # PostgreSQL refuses to run as root: run its tools as the 'postgres' user then.
        return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd

    bindir = Path(bins[-1])
    # Not pytest's tmp folder: its parents are closed to the 'postgres' user.
    root = Path(tempfile.mkdtemp(prefix="starcom-pg-"))
    data, sock = root / "data", root / "sock"
    data.mkdir()
    sock.mkdir()
    if os.geteuid() == 0:
        for p in (root, data, sock):
            shutil.chown(p, "postgres")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    subprocess.run(as_postgres([str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                                "-E", "UTF8"]), check=True, capture_output=True)
    subprocess.run(as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-w", "-l", str(root / "log"),
                                "-o", f"-k {sock} -p {port} -c listen_addresses=''", "start"]),
                   check=True, capture_output=True)
    url = f"postgresql+psycopg://postgres@/{{}}?host={sock}&port={port}"
    admin = create_engine(url.format("postgres"), poolclass=NullPool, isolation_level="AUTOCOMMIT")
    numbers = itertools.count()

    def new_database() -> str:
        name = f"starcom_test_{next(numbers)}"
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        return url.format(name)

    try:
        yield new_database
    finally:
        admin.dispose()
        subprocess.run(as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def invite_code(game: dict[str, Any], seat: int) -> str:
    """The invite code of ``seat`` from a create answer (online games)."""
    return game["links"]["invites"][str(seat)].split("invite=", 1)[1]


def claim_all(c: TestClient, game: dict[str, Any]) -> dict[int, str]:
    """Every human seat's token: the creator's, plus a claim of each invite (online games)."""
    out = tokens(game)
    for seat in game["links"].get("invites", {}):
        r = c.post(f"/api/games/{game['game_id']}/join", json={"invite": invite_code(game, int(seat))})
        assert r.status_code == 200, r.text
        out[int(seat)] = r.json()["token"]
    return out
