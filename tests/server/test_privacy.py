"""Online privacy (issue 30, item 4): the lobby lists an online game only when its creator chose
"open to anyone" (``listed: true``); a game seating by invite only (the default) is not listed and
refuses a join without an invite; games stored before the choice existed (``listed`` NULL) stay
listed, as they were shown before."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from starcom.server.store import GameRecord, Store

from .conftest import create, invite_code


def _open(c: Any) -> list[dict[str, Any]]:
    r = c.get("/api/games", params={"open": "1"})
    assert r.status_code == 200, r.text
    return list(r.json()["games"])


def test_only_games_open_to_anyone_are_listed(make_client: Any) -> None:
    c = make_client()
    private = create(c, mode="online", seats=["human", "human"])
    public = create(c, mode="online", seats=["human", "human"], listed=True)
    assert private["listed"] is False and public["listed"] is True
    assert [g["game_id"] for g in _open(c)] == [public["game_id"]]
    assert _open(c)[0]["listed"] is True
    # the full list says which is which (and shows both, as every game can be watched)
    every = {g["game_id"]: g["listed"] for g in c.get("/api/games").json()["games"]}
    assert every == {private["game_id"]: False, public["game_id"]: True}


def test_an_invite_only_game_refuses_a_join_without_an_invite(make_client: Any) -> None:
    c = make_client()
    g = create(c, mode="online", seats=["human", "human", "human"], players=3)
    gid = g["game_id"]
    r = c.post(f"/api/games/{gid}/join", json={})
    assert r.status_code == 403 and "this game seats players by invite only" in r.json()["error"]
    # the refusal took nothing: the seat is still free for its invite
    assert c.get(f"/api/games/{gid}").json()["seats"][1]["claimed"] is False
    ok = c.post(f"/api/games/{gid}/join", json={"invite": invite_code(g, 2)})
    assert ok.status_code == 200 and ok.json()["seat"] == 2
    assert c.post(f"/api/games/{gid}/join", json={}).status_code == 403  # seat 1 still free: still refused
    assert c.post(f"/api/games/{gid}/join", json={"invite": invite_code(g, 1)}).json()["seat"] == 1


def test_a_listed_game_lets_anyone_take_a_free_seat_and_invites_still_work(make_client: Any) -> None:
    c = make_client()
    g = create(c, mode="online", seats=["human", "human", "human"], players=3, listed=True)
    gid = g["game_id"]
    anyone = c.post(f"/api/games/{gid}/join", json={})
    assert anyone.status_code == 200 and anyone.json()["seat"] == 1
    named = c.post(f"/api/games/{gid}/join", json={"invite": invite_code(g, 2)})
    assert named.status_code == 200 and named.json()["seat"] == 2
    assert _open(c) == []  # full: off the list
    assert c.post(f"/api/games/{gid}/join", json={}).status_code == 409


@pytest.mark.parametrize("value", ["yes", 1, 0, None, [], {"open": True}])
def test_a_bad_listed_value_is_refused_with_400(make_client: Any, value: Any) -> None:
    c = make_client()
    r = c.post("/api/games", json={"mode": "online", "seats": ["human", "human"], "listed": value})
    assert r.status_code == 400, r.text
    assert "listed must be true" in r.json()["error"]
    assert c.get("/api/games").json()["games"] == []  # nothing made


@pytest.mark.parametrize("mode", ["vs_ai", "hotseat"])
def test_listed_is_for_online_games_only(make_client: Any, mode: str) -> None:
    c = make_client()
    r = c.post("/api/games", json={"mode": mode, "listed": True})
    assert r.status_code == 400 and "online games only" in r.json()["error"]
    assert c.post("/api/games", json={"mode": mode, "listed": False}).status_code == 201


def test_many_invite_only_games_do_not_hide_a_listed_one(make_client: Any) -> None:
    c = make_client()
    public = create(c, mode="online", seats=["human", "human"], listed=True)
    for _ in range(205):  # more than a page of the list, each with a free seat but not listed
        create(c, mode="online", seats=["human", "human"])
    assert [g["game_id"] for g in _open(c)] == [public["game_id"]]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.db'}"
    new_database = request.getfixturevalue("pg_cluster")  # skips where PostgreSQL is missing
    return str(new_database())


def test_games_stored_before_the_choice_stay_listed(db_url: str) -> None:
    seats = [{"seat": 0, "kind": "human", "claimed": True}, {"seat": 1, "kind": "human", "claimed": False}]
    config = {"players": 2, "size": 3, "edition": "standard", "seed": 1}
    store = Store(db_url)
    store.create(GameRecord("0123456789ab", config, "online", seats, created=1.0))
    store.close()
    engine = create_engine(db_url, poolclass=NullPool)
    with engine.begin() as conn:  # as a server from before the choice left it
        conn.execute(text("ALTER TABLE games DROP COLUMN listed"))
    engine.dispose()
    store = Store(db_url)  # adds the column back, NULL in the old row
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT listed FROM games")).scalar_one() is None
        store.create(GameRecord("0123456789ac", config, "online", seats, created=2.0, listed=False))
        store.create(GameRecord("0123456789ad", config, "online", seats, created=3.0, listed=True))
        assert [r.game_id for r in store.summaries(only_open=True)] == ["0123456789ad", "0123456789ab"]
        loaded = store.load("0123456789ab")
        assert loaded is not None and loaded.listed is True
        private = store.load("0123456789ac")
        assert private is not None and private.listed is False
    finally:
        store.close()


def test_the_open_list_query_still_uses_the_open_seats_index(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'plan.db'}")
    try:
        from starcom.server.store import games
        from sqlalchemy import select
        query = select(games.c.game_id).where(games.c.open_seats > 0, games.c.mode == "online",
                                              games.c.over.is_(False), games.c.damaged.is_(None),
                                              games.c.listed.is_not(False)).order_by(games.c.created.desc())
        sql = str(query.compile(store.engine, compile_kwargs={"literal_binds": True}))
        with store.engine.connect() as conn:
            plan = " ".join(str(row[-1]) for row in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql))
        assert "games_open_seats" in plan, plan
    finally:
        store.close()
