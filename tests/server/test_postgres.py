"""The server stores games in PostgreSQL too (``--db`` takes any SQLAlchemy URL).

The test plays through the API on a database of the throwaway PostgreSQL cluster the
``pg_cluster`` fixture (tests/server/conftest.py) starts; a second app on the same database, once
the first has stopped, continues the game exactly where the first left it. (The storage guarantees
themselves are tested on PostgreSQL too, in test_storage.py.)
"""
from __future__ import annotations

from typing import Callable

import pytest
from fastapi.testclient import TestClient

from starcom.server.app import create_app


@pytest.fixture(scope="module")
def pg_url(pg_cluster: Callable[[], str]) -> str:
    return pg_cluster()


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


def test_a_second_server_on_the_same_postgresql_database_is_refused(pg_url: str) -> None:
    from starcom.server.store import StoreLocked
    with TestClient(create_app(pg_url)):
        with pytest.raises(StoreLocked, match="another starcom server is using postgresql"):
            create_app(pg_url)
    with TestClient(create_app(pg_url)) as client:  # the first has stopped: the lock went with it
        assert client.get("/api/games").status_code == 200
