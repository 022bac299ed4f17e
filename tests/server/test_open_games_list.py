"""The lobby's open games cannot be hidden (issue 27): the filter of ``GET /api/games?open=1``
runs in the database over every game, so any number of newer games that are not open leave the
open ones listed; a claimed seat takes a game off the list; a database made before the count of
open seats existed gets it on opening."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from starcom.server.store import GameRecord, Store

from .conftest import create, invite_code


def _open_ids(c: Any) -> list[str]:
    r = c.get("/api/games", params={"open": "1"})
    assert r.status_code == 200, r.text
    return [g["game_id"] for g in r.json()["games"]]


def test_newer_games_do_not_hide_an_open_one(make_client: Any) -> None:
    c = make_client()
    game = create(c, mode="online", seats=["human", "human"])
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


def test_a_database_from_before_the_column_is_counted_on_opening(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store(url)
    seats = [{"seat": 0, "kind": "human", "claimed": True}, {"seat": 1, "kind": "human", "claimed": False}]
    store.create(GameRecord("0123456789ab", {"players": 2, "size": 3, "edition": "standard", "seed": 1},
                            "online", seats, created=1.0))
    store.create(GameRecord("0123456789ac", {"players": 2, "size": 3, "edition": "standard", "seed": 2},
                            "hotseat", [{**s, "claimed": True} for s in seats], created=2.0))
    store.close()
    with sqlite3.connect(tmp_path / "old.db") as db:  # as an older server left it
        db.execute("DROP INDEX games_open_seats")
        db.execute("ALTER TABLE games DROP COLUMN open_seats")
    store = Store(url)
    try:
        assert [r.game_id for r in store.summaries(only_open=True)] == ["0123456789ab"]
        assert [r.game_id for r in store.summaries()] == ["0123456789ac", "0123456789ab"]
    finally:
        store.close()
