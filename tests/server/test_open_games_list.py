"""The lobby's open games cannot be hidden (issue 27): the filter of ``GET /api/games?open=1``
runs in the database over every game, so any number of newer games that are not open leave the
open ones listed; a claimed seat takes a game off the list; a database made before the count of
open seats existed gets it on opening."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from starcom.server.store import GameRecord, Store

from .conftest import create, invite_code


def _open_ids(c: Any) -> list[str]:
    r = c.get("/api/games", params={"open": "1"})
    assert r.status_code == 200, r.text
    return [g["game_id"] for g in r.json()["games"]]


def test_newer_games_do_not_hide_an_open_one(make_client: Any) -> None:
    c = make_client()
    game = create(c, mode="online", seats=["human", "human"], listed=True)
    gid = game["game_id"]
    for _ in range(205):  # more than one page of the plain list, none of them open
        create(c, mode="hotseat")
    assert gid not in [g["game_id"] for g in c.get("/api/games").json()["games"]]  # off the newest 200
    assert _open_ids(c) == [gid]
    r = c.post(f"/api/games/{gid}/join", json={"invite": invite_code(game, 1)})
    assert r.status_code == 200, r.text
    assert _open_ids(c) == []  # full now


def test_finished_imported_and_vs_ai_games_are_never_open(make_client: Any) -> None:
    c = make_client()
    create(c, mode="vs_ai")
    create(c, mode="hotseat")
    create(c, mode="online", seats=["human", "ai:random"])  # no seat left for anyone else
    assert _open_ids(c) == []


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    new_database = request.getfixturevalue("pg_cluster")  # skips where PostgreSQL is missing
    return str(new_database())


def test_a_database_from_before_the_column_is_counted_on_opening(db_url: str) -> None:
    store = Store(db_url)
    seats = [{"seat": 0, "kind": "human", "claimed": True}, {"seat": 1, "kind": "human", "claimed": False}]
    config = {"players": 2, "size": 3, "edition": "standard", "seed": 1}
    store.create(GameRecord("0123456789ab", config, "online", seats, created=1.0))
    store.create(GameRecord("0123456789ac", config, "hotseat", [{**s, "claimed": True} for s in seats], created=2.0))
    # a finished online game with a seat nobody took, stored in one piece, is not open either
    store.create_played(GameRecord("0123456789ad", config, "online", seats, created=3.0), [({"type": "end"}, 0)],
                        0, True, 0)
    store.close()
    engine = create_engine(db_url, poolclass=NullPool)
    with engine.begin() as conn:  # as an older server left it (PostgreSQL drops the index with it)
        if engine.dialect.name == "sqlite":
            conn.execute(text("DROP INDEX games_open_seats"))
        conn.execute(text("ALTER TABLE games DROP COLUMN open_seats"))
    engine.dispose()
    store = Store(db_url)
    try:
        assert [r.game_id for r in store.summaries(only_open=True)] == ["0123456789ab"]
        assert [r.game_id for r in store.summaries()] == ["0123456789ad", "0123456789ac", "0123456789ab"]
        assert store.load("0123456789ad").step == 1  # its chain verifies
        store.set_seats("0123456789ab", [{**s, "claimed": True} for s in seats])
        assert store.summaries(only_open=True) == []
    finally:
        store.close()
