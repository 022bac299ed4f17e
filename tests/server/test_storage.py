"""Storage you can trust (issue 10): one server per database, chained action rows that reveal a
missing, altered or extra row, a game list that survives a bad row, and databases from before
all this that keep loading.

Every test runs on an SQLite file and, where the PostgreSQL server binaries are installed, on a
fresh database of the throwaway cluster of ``pg_cluster`` (tests/server/conftest.py).
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import NullPool

from starcom.server.store import DamagedGame, GameRecord, Store, StoreLocked, token_hash, token_matches

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="file locks and SIGKILL are POSIX")

CONFIG = {"players": 2, "size": 3, "edition": "standard", "seed": 7, "turn_limit": None}


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: an SQLite file, or a new database of the session's PostgreSQL cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    new_database: Callable[[], str] = request.getfixturevalue("pg_cluster")
    return new_database()


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = Store(store_url)
    yield s
    s.close()


def sql(url: str, statement: str, **params: Any) -> None:
    """Change the database behind the store's back, as a person with a database shell would."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(text(statement), params)
    finally:
        engine.dispose()


def action(i: int) -> dict[str, Any]:
    if i % 3 == 0:
        return {"type": "end"}
    return {"type": "jump", "vessel": 90 + i % 5, "to": i % 9, "explore": i % 2, "carry": 0}


def play(store: Store, game_id: str, n: int, seats: list[dict[str, Any]] | None = None) -> None:
    """A game with ``n`` actions of varied content, seats and AI flags."""
    store.create(GameRecord(game_id=game_id, config=CONFIG, mode="hotseat",
                            seats=seats or [{"seat": 0, "kind": "human"}, {"seat": 1, "kind": "human"}]))
    for i in range(n):
        store.append(game_id, i, action(i), i % 2, i % 4 == 3, i // 8, False, None)


def damage(store: Store) -> dict[str, str | None]:
    return {r.game_id: r.damaged for r in store.summaries()}


# ---------------------------------------------------------------------- one server per database
def test_a_second_store_on_the_same_database_is_refused_until_the_first_closes(store_url: str) -> None:
    first = Store(store_url)
    try:
        with pytest.raises(StoreLocked) as info:
            Store(store_url)
        msg = str(info.value)
        assert msg.startswith(f"another starcom server is using {store_url.split(':')[0]}")
        assert f"pid {os.getpid()}" in msg and msg.endswith("; stop it or use another --db")
        if store_url.startswith("sqlite"):
            db = store_url[len("sqlite:///"):]
            assert f"(lock file {db}.lock held by pid {os.getpid()})" in msg
        play(first, "g", 3)  # the refused Store changed nothing: the first works on
    finally:
        first.close()
    second = Store(store_url)
    try:
        rec = second.load("g")
        assert rec is not None and len(rec.actions) == 3
    finally:
        second.close()
    second.close()  # closing twice is harmless


def test_in_memory_sqlite_takes_no_lock() -> None:
    a, b = Store("sqlite://"), Store("sqlite://")  # two separate databases, nothing to share
    a.close()
    b.close()


HOLD = "import sys, time\nfrom starcom.server.store import Store\nstore = Store(sys.argv[1])\nprint('ready', flush=True)\ntime.sleep(120)\n"


def test_the_lock_of_a_killed_server_does_not_block_a_new_one(store_url: str) -> None:
    holder = subprocess.Popen([sys.executable, "-c", HOLD, store_url], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready", holder.stderr
        with pytest.raises(StoreLocked, match=f"pid {holder.pid}"):
            Store(store_url)
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(10)
    finally:
        holder.kill()
        holder.wait(10)
    # The kernel drops a file lock at once; PostgreSQL ends the dead client's session a moment later.
    deadline = time.monotonic() + 10
    while True:
        try:
            Store(store_url).close()
            break
        except StoreLocked:
            assert time.monotonic() < deadline, "the dead server's lock was never released"
            time.sleep(0.1)


def test_serve_says_plainly_that_another_server_has_the_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    running = Store(url)
    try:
        done = subprocess.run([sys.executable, "-m", "starcom.cli.main", "serve", "--db", url, "--port", str(port),
                               "--no-browser"], env={**os.environ, "CI": "1"}, capture_output=True, text=True,
                              timeout=60)
    finally:
        running.close()
    assert done.returncode == 2
    assert f"another starcom server is using {url}" in done.stderr
    assert "stop it or use another --db" in done.stderr and "Traceback" not in done.stderr


# ---------------------------------------------------------------------- chained actions
TAMPERING = {
    # name: (statement on game 'hurt' (40 actions), reason load gives, whether summaries sees it unloaded)
    "a row deleted": ("DELETE FROM actions WHERE game_id = 'hurt' AND seq = 17", "action 17 is missing", True),
    "an action changed": ("""UPDATE actions SET action = '{"type":"end"}' WHERE game_id = 'hurt' AND seq = 17""",
                          "action 17 was altered", False),
    "an action respaced and changed": (
        """UPDATE actions SET action = '{"carry": 0, "explore": 1, "to": 8, "type": "jump", "vessel": 93}'
           WHERE game_id = 'hurt' AND seq = 17""", "action 17 was altered", False),
    "a seat changed": ("UPDATE actions SET seat = 1 - seat WHERE game_id = 'hurt' AND seq = 17",
                       "action 17 was altered", False),
    "by_ai flipped": ("UPDATE actions SET by_ai = NOT by_ai WHERE game_id = 'hurt' AND seq = 17",
                      "action 17 was altered", False),
    "the last row deleted": ("DELETE FROM actions WHERE game_id = 'hurt' AND seq = 39",
                             "the game should have 40 actions but 39 are stored", True),
    "a row added": ("""INSERT INTO actions (game_id, seq, action, seat, by_ai, chain)
                       VALUES ('hurt', 40, '{"type":"end"}', 0, false, NULL)""",
                    "the game should have 40 actions but 41 are stored", True),
    "the setup changed": ("""UPDATE games SET config = '{"players": 2, "size": 3, "edition": "standard",
                             "seed": 8, "turn_limit": null}' WHERE game_id = 'hurt'""",
                          "action 0 was altered (or the game's setup was)", False),
    "the step lowered": ("UPDATE games SET step = 39 WHERE game_id = 'hurt'",
                         "the game should have 39 actions but 40 are stored", True),
    "the head removed": ("UPDATE games SET head = NULL WHERE game_id = 'hurt'",
                         "the game's head hash was removed", False),
    "the last row rechained": ("UPDATE actions SET chain = (SELECT chain FROM actions WHERE game_id = 'fine' "
                               "AND seq = 11) WHERE game_id = 'hurt' AND seq = 39",
                               "action 39 was altered", True),
}


@pytest.mark.parametrize("case", list(TAMPERING))
def test_damage_is_found_named_and_kept(store_url: str, case: str) -> None:
    statement, reason, seen_unloaded = TAMPERING[case]
    store = Store(store_url)
    try:
        play(store, "hurt", 40)
        play(store, "fine", 12)
        sql(store_url, statement)
        unloaded = damage(store)
        assert unloaded["fine"] is None
        assert (unloaded["hurt"] is not None) == seen_unloaded, unloaded
        with pytest.raises(DamagedGame) as info:
            store.load("hurt")
        assert (info.value.game_id, info.value.reason) == ("hurt", reason)
        assert str(info.value) == f"game hurt is damaged: {reason}"
        assert damage(store) == {"hurt": reason, "fine": None}
        with pytest.raises(DamagedGame, match=reason.replace("(", r"\(").replace(")", r"\)")):
            store.append("hurt", 40, {"type": "end"}, 0, False, 5, False, None)
        loaded = store.load("fine")
        assert loaded is not None and [a["action"] for a in loaded.actions] == [action(i) for i in range(12)]
    finally:
        store.close()
    restarted = Store(store_url)  # the damage is on record, not just in that server's memory
    try:
        with pytest.raises(DamagedGame) as info:
            restarted.load("hurt")
        assert info.value.reason == reason
        assert damage(restarted)["hurt"] == reason
    finally:
        restarted.close()


def test_the_same_action_in_other_json_spacing_and_key_order_is_not_damage(store: Store, store_url: str) -> None:
    play(store, "g", 20)
    assert action(17) == {"type": "jump", "vessel": 92, "to": 8, "explore": 1, "carry": 0}
    sql(store_url, """UPDATE actions SET action = '{ "to": 8, "vessel": 92, "type": "jump", "carry": 0, "explore": 1 }'
                      WHERE game_id = 'g' AND seq = 17""")
    rec = store.load("g")
    assert rec is not None and rec.actions[17]["action"] == action(17)


def test_a_clean_game_verifies_after_a_restart(store_url: str) -> None:
    with_store = Store(store_url)
    try:
        play(with_store, "g", 25)
    finally:
        with_store.close()
    again = Store(store_url)
    try:
        rec = again.load("g")
        assert rec is not None and rec.step == 25 and rec.damaged is None
        assert rec.actions == [{"action": action(i), "seat": i % 2, "by_ai": i % 4 == 3} for i in range(25)]
        again.append("g", 25, {"type": "end"}, 1, False, 3, True, 1)  # the head came from the database
    finally:
        again.close()
    last = Store(store_url)
    try:
        rec = last.load("g")
        assert rec is not None and rec.step == 26 and rec.over and rec.winner == 1
    finally:
        last.close()


def test_undo_then_append_verifies(store_url: str) -> None:
    store = Store(store_url)
    try:
        play(store, "g", 10)
        store.truncate("g", 6, turn=0)
        for i in range(6, 9):
            store.append("g", i, {"type": "undo-then", "i": i}, 1, True, 1, False, None)
        rec = store.load("g")
        assert rec is not None and [a["action"] for a in rec.actions][5:] == [
            action(5), {"type": "undo-then", "i": 6}, {"type": "undo-then", "i": 7}, {"type": "undo-then", "i": 8}]
    finally:
        store.close()
    fresh = Store(store_url)  # knows no head yet: undo to the very start, then play again
    try:
        fresh.truncate("g", 0, turn=0)
        fresh.append("g", 0, {"type": "end"}, 0, False, 0, False, None)
        assert damage(fresh) == {"g": None}
    finally:
        fresh.close()
    last = Store(store_url)
    try:
        rec = last.load("g")
        assert rec is not None and rec.actions == [{"action": {"type": "end"}, "seat": 0, "by_ai": False}]
    finally:
        last.close()


def test_a_forgotten_game_is_verified_again_before_it_grows(store: Store, store_url: str) -> None:
    play(store, "g", 5)
    play(store, "h", 5)
    store.forget("g")
    store.append("g", 5, {"type": "end"}, 1, False, 1, False, None)
    rec = store.load("g")
    assert rec is not None and len(rec.actions) == 6
    sql(store_url, "UPDATE actions SET seat = 1 - seat WHERE game_id = 'h' AND seq = 2")
    store.forget("h")
    with pytest.raises(DamagedGame, match="action 2 was altered"):
        store.append("h", 5, {"type": "end"}, 1, False, 1, False, None)
    assert store.count_actions("h") == 5


def test_an_append_that_does_not_follow_the_stored_game_is_refused(store: Store, store_url: str) -> None:
    play(store, "g", 5)
    with pytest.raises(RuntimeError, match="action 7 does not follow the stored game"):
        store.append("g", 7, {"type": "end"}, 0, False, 1, False, None)
    with pytest.raises(RuntimeError, match="action 4 does not follow the stored game"):
        store.append("g", 4, {"type": "end"}, 0, False, 1, False, None)
    store.append("g", 5, {"type": "end"}, 0, False, 1, False, None)  # nothing was left half-done
    rec = store.load("g")
    assert rec is not None and len(rec.actions) == 6
    # The head is no longer the one this store holds (only a hand in the database does that):
    # refused, nothing stored, and the next load tells what is wrong.
    sql(store_url, "UPDATE games SET head = :h WHERE game_id = 'g'", h="0" * 64)
    with pytest.raises(RuntimeError, match="its head hash is not the one this store holds"):
        store.append("g", 6, {"type": "end"}, 0, False, 1, False, None)
    assert store.count_actions("g") == 6
    with pytest.raises(DamagedGame, match="action 5 does not match the game's head hash"):
        store.load("g")
    with pytest.raises(RuntimeError, match="no such game"):
        store.append("nope", 0, {"type": "end"}, 0, False, 0, False, None)


# ---------------------------------------------------------------------- the game list
def test_a_corrupt_games_row_is_left_out_of_the_list(store_url: str, store: Store,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    secret = "SeCrEt-seat-token-0123456789"
    seats = [{"seat": 0, "kind": "human", "token": secret}, {"seat": 1, "kind": "ai:normal"}]
    for gid in ("good1", "badjson", "badseats", "badsetup", "good2"):
        play(store, gid, 3, seats)
    sql(store_url, """UPDATE games SET config = '{"players": 2, "size":' WHERE game_id = 'badjson'""")
    sql(store_url, "UPDATE games SET seats = :s WHERE game_id = 'badseats'",
        s=json.dumps({"seat": 0, "kind": "human", "token": secret}))  # an object, not a list
    sql(store_url, """UPDATE games SET config = '{"players": "two", "size": 3, "edition": "standard"}'
                      WHERE game_id = 'badsetup'""")
    bad = ["badjson", "badseats", "badsetup"]
    if store_url.startswith("sqlite"):  # SQLite keeps whatever it is given, even in an INTEGER column
        sql(store_url, "UPDATE games SET step = 'many' WHERE game_id = 'good2'")
        bad.append("good2")
    with caplog.at_level(logging.WARNING, logger="starcom.server"):
        listed = store.summaries()
    assert sorted(r.game_id for r in listed) == sorted({"good1", "good2"} - set(bad))
    assert all(r.damaged is None for r in listed)
    lines = [r.getMessage() for r in caplog.records if r.name == "starcom.server"]
    for gid in bad:
        assert any(line.startswith(f"game {gid} left out of the game list") for line in lines), lines
    assert secret not in caplog.text
    with pytest.raises(DamagedGame, match="the game's record cannot be read: its config is not valid JSON"):
        store.load("badjson")
    assert secret not in caplog.text


# ---------------------------------------------------------------------- databases from before
OLD_SCHEMA = [  # the tables as store.py made them before chains, damage marks and token hashes
    """CREATE TABLE games (game_id VARCHAR(40) NOT NULL, config TEXT NOT NULL, mode VARCHAR(16) NOT NULL,
       seats TEXT NOT NULL, ai_takeover BOOLEAN NOT NULL, takeover_level VARCHAR(40), created FLOAT NOT NULL,
       step INTEGER NOT NULL, turn INTEGER NOT NULL, "over" BOOLEAN NOT NULL, winner INTEGER,
       PRIMARY KEY (game_id))""",
    """CREATE TABLE actions (game_id VARCHAR(40) NOT NULL, seq INTEGER NOT NULL, action TEXT NOT NULL,
       seat INTEGER NOT NULL, by_ai BOOLEAN NOT NULL, PRIMARY KEY (game_id, seq),
       FOREIGN KEY(game_id) REFERENCES games (game_id))""",
]


def old_game(conn: Any, game_id: str, n: int, step: int | None = None) -> None:
    seats = [{"seat": 0, "kind": "human", "token": "old-token", "claimed": True}, {"seat": 1, "kind": "ai:normal"}]
    conn.execute(text("""INSERT INTO games (game_id, config, mode, seats, ai_takeover, takeover_level, created,
                         step, turn, "over", winner) VALUES (:g, :c, 'vs_ai', :s, false, NULL, :t, :n, 2, false, NULL)"""),
                 {"g": game_id, "c": json.dumps(CONFIG), "s": json.dumps(seats), "t": time.time(),
                  "n": n if step is None else step})
    for i in range(n):  # json.dumps with its default spacing, as the old store wrote actions
        conn.execute(text("INSERT INTO actions (game_id, seq, action, seat, by_ai) VALUES (:g, :i, :a, :s, :b)"),
                     {"g": game_id, "i": i, "a": json.dumps(action(i)), "s": i % 2, "b": i % 2 == 1})


def test_a_database_from_before_chains_opens_and_loads(store_url: str) -> None:
    engine = create_engine(store_url, poolclass=NullPool)
    with engine.begin() as conn:
        for ddl in OLD_SCHEMA:
            conn.execute(text(ddl))
        old_game(conn, "old", 8)
        old_game(conn, "short", 4, step=5)
    engine.dispose()
    store = Store(store_url)
    try:
        cols = inspect(store.engine)
        assert {"head", "damaged"} <= {c["name"] for c in cols.get_columns("games")}
        assert "chain" in {c["name"] for c in cols.get_columns("actions")}
        assert damage(store) == {"old": None, "short": "action 4 is missing"}
        rec = store.load("old")
        assert rec is not None and rec.actions == [{"action": action(i), "seat": i % 2, "by_ai": i % 2 == 1}
                                                   for i in range(8)]
        with pytest.raises(DamagedGame, match="the game should have 5 actions but 4 are stored"):
            store.load("short")
        store.append("old", 8, {"type": "end"}, 0, False, 3, False, None)
    finally:
        store.close()
    again = Store(store_url)
    try:
        rec = again.load("old")
        assert rec is not None and len(rec.actions) == 9
    finally:
        again.close()
    # chained on its first load: from then on an edit is caught like in any other game
    sql(store_url, """UPDATE actions SET action = '{"type": "end"}' WHERE game_id = 'old' AND seq = 4""")
    last = Store(store_url)
    try:
        with pytest.raises(DamagedGame, match="action 4 was altered"):
            last.load("old")
    finally:
        last.close()


def test_a_game_from_before_chains_can_be_played_on_without_a_load_first(store_url: str) -> None:
    engine = create_engine(store_url, poolclass=NullPool)
    with engine.begin() as conn:
        for ddl in OLD_SCHEMA:
            conn.execute(text(ddl))
        old_game(conn, "old", 6)
    engine.dispose()
    store = Store(store_url)
    try:
        store.truncate("old", 3, turn=1)
        store.append("old", 3, {"type": "end"}, 1, True, 1, False, None)
        rec = store.load("old")
        assert rec is not None and [a["action"] for a in rec.actions] == [action(0), action(1), action(2),
                                                                           {"type": "end"}]
    finally:
        store.close()


# ---------------------------------------------------------------------- tokens
def test_token_hash_is_what_is_stored_instead_of_the_token() -> None:
    assert token_hash("abc") == hashlib.sha256(b"abc").hexdigest()
    stored = token_hash("seat-token")
    assert token_matches("seat-token", stored)
    assert not token_matches("seat-tokeN", stored)
    assert not token_matches(None, stored) and not token_matches(12, stored) and not token_matches("x", None)
