"""Game storage: one row per game (setup, seats, summary) and one row per accepted action.

Only portable SQLAlchemy Core types are used (strings, integers, booleans, text holding JSON),
so any SQLAlchemy URL works: the embedded SQLite file by default, PostgreSQL as well.

What the store guarantees beyond that:

- **One server per database.** A :class:`Store` holds a lock on its database for as long as it is
  open; a second Store on the same database raises :class:`StoreLocked`. SQLite files are locked
  with ``flock`` on ``<file>.lock`` (the kernel drops it when the process dies, even by SIGKILL);
  PostgreSQL with a session-level advisory lock on a dedicated connection (dropped when that
  connection ends). In-memory SQLite and other databases are not locked, and neither is anything
  on a platform without ``fcntl`` (Windows).
- **Chained actions.** Every action row carries ``chain = sha256(previous chain | the row)``, from a
  genesis value made of the game id and its setup; the games row keeps the last value (``head``)
  and the action count (``step``). :meth:`Store.load` recomputes the chain, so a missing, altered,
  extra or dropped row is found and named (:class:`DamagedGame`). The hash has no secret key: it
  catches damage and clumsy edits, not someone who knows this scheme and rewrites the chain.
- **Seat tokens are not stored.** The server keeps :func:`token_hash` of each token instead.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import socket
import time
from dataclasses import dataclass, field
from typing import IO, Any, Sequence

from sqlalchemy import (Boolean, bindparam, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table,
                        Text, create_engine, delete, event, func, insert, inspect, select, text, update)
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.pool import NullPool

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock: SQLite files stay unlocked there
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger("starcom.server")

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("game_id", String(40), primary_key=True),
    Column("config", Text, nullable=False),          # JSON of the engine Config
    Column("mode", String(16), nullable=False),
    Column("seats", Text, nullable=False),           # JSON list of seats; the server's business, not the store's
    Column("ai_takeover", Boolean, nullable=False, default=False),
    Column("takeover_level", String(40), nullable=True),  # AI level for departed seats; NULL: default
    Column("created", Float, nullable=False),
    Column("step", Integer, nullable=False, default=0),
    Column("turn", Integer, nullable=False, default=0),
    Column("over", Boolean, nullable=False, default=False),
    Column("winner", Integer, nullable=True),
    Column("head", String(64), nullable=True),       # chain value of the last action; NULL: stored before chains
    Column("damaged", Text, nullable=True),          # why verification failed; NULL: not found damaged
    # human seats nobody has claimed (open_seats()), kept with the seats so the lobby's filter of
    # open games runs in the database; NULL only until a database made before it is opened
    Column("open_seats", Integer, nullable=True),
    # whether the lobby lists the game among open games (its creator chose "open to anyone") or
    # seats players by invite only; NULL: stored before the choice existed, when every online game
    # with a free seat was listed, so such games stay listed (nothing changes for them)
    Column("listed", Boolean, nullable=True),
)
# The lobby's open games: the few rows with a free seat, newest first, without reading the rest.
Index("games_open_seats", games.c.open_seats, games.c.created)

actions = Table(
    "actions", metadata,
    Column("game_id", String(40), ForeignKey("games.game_id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("action", Text, nullable=False),          # JSON form of the action
    Column("seat", Integer, nullable=False),
    Column("by_ai", Boolean, nullable=False, default=False),
    Column("chain", String(64), nullable=True),      # see _link; NULL only in rows stored before chains
)


# The two statements of every action, compiled once per Store for its database (see _Hot).
_INSERT_ACTION = insert(actions)
_ACTION_KEYS = ["game_id", "seq", "action", "seat", "by_ai", "chain"]
# The summary update only matches while the games row has the head this store believes it has
# (and was not found damaged): a stale belief then fails the append instead of forking the chain.
# The head stands for the step too; the step itself is checked in memory, which costs nothing.
_UPDATE_SUMMARY = update(games).where(
    games.c.game_id == bindparam("gid"), games.c.head == bindparam("prev"), games.c.damaged.is_(None),
).values(step=bindparam("step"), turn=bindparam("turn"), over=bindparam("over"), winner=bindparam("winner"),
         head=bindparam("head"))



class _Hot:
    """A statement run on every action, compiled once for one dialect and run through
    ``exec_driver_sql``. That skips SQLAlchemy's per-call compile-cache lookup and parameter
    processing, about a third of an append's CPU time: enough to pay for the chain and the guard.
    Only for parameters the drivers take as they are (str, int, bool, None)."""

    def __init__(self, statement: Any, dialect: Any, keys: list[str] | None = None) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=keys)
        self.sql = str(compiled)
        # Positional paramstyles (SQLite's "?") take a tuple in the compiled order; named ones a dict.
        self.order: tuple[str, ...] | None = tuple(compiled.positiontup or ()) if dialect.positional else None

    def run(self, conn: Connection, params: dict[str, Any]) -> Any:
        return conn.exec_driver_sql(self.sql, params if self.order is None
                                    else tuple(params[k] for k in self.order))


# Name of the database lock; the PostgreSQL advisory key is derived from it so it never changes
# between versions and is unlikely to meet another application's (often small) integer keys.
LOCK_NAME = "starcom-server"
_PG_LOCK_KEY = int.from_bytes(hashlib.sha256(LOCK_NAME.encode()).digest()[:8], "big", signed=True)


class StoreLocked(RuntimeError):
    """Another open Store (normally another starcom server) holds this database's lock. The
    message names the database and the holder and says what to do."""


class DamagedGame(RuntimeError):
    """A stored game failed verification. ``reason`` names the first bad thing found, e.g.
    ``"action 17 is missing"``; it is also kept in the games row, so the game stays damaged."""

    def __init__(self, game_id: str, reason: str) -> None:
        super().__init__(f"game {game_id} is damaged: {reason}")
        self.game_id = game_id
        self.reason = reason


class _Unreadable(Exception):
    """A games row whose fields do not decode to a GameRecord; ``reason`` holds no field values."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def token_hash(token: str) -> str:
    """Hex SHA-256 of a seat or invite token: what is stored instead of the token. Tokens are long
    random strings, so a plain (unsalted) hash cannot be reversed by guessing."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: Any, stored_hash: str | None) -> bool:
    """Whether ``token`` (as a client sent it: maybe not even a string) is the one whose
    :func:`token_hash` is ``stored_hash``; compares in constant time."""
    if not isinstance(token, str) or not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


# One encoder for every call: json.dumps builds a new encoder whenever options are passed.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


def _canonical(value: Any) -> str:
    """The one JSON text of a value that is hashed (and stored): sorted keys, no spaces."""
    return _CANONICAL(value)


def genesis(game_id: str, config: dict[str, Any]) -> str:
    """The chain value before a game's first action: ties the chain to the game and its setup."""
    return hashlib.sha256(f"starcom-genesis|{game_id}|{_canonical(config)}".encode()).hexdigest()


def _link(prev: str, seq: int, canonical_action: str, seat: int, by_ai: bool) -> str:
    """The chain value of action ``seq`` after the chain value ``prev``. The JSON comes last, so
    the fixed-format fields before it cannot run into each other."""
    return hashlib.sha256(f"{prev}|{seq}|{seat}|{1 if by_ai else 0}|{canonical_action}".encode()).hexdigest()


@dataclass
class GameRecord:
    """A stored game: its setup, seats, and (when loaded in full) its actions in order."""

    game_id: str
    config: dict[str, Any]
    mode: str
    seats: list[dict[str, Any]]
    ai_takeover: bool = False
    takeover_level: str | None = None   # None: the server's default level (records older than the field)
    created: float = 0.0
    step: int = 0
    turn: int = 0
    over: bool = False
    winner: int | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)   # {"action", "seat", "by_ai"}
    damaged: str | None = None   # summaries only: why the game cannot be played (load raises instead)
    listed: bool = True   # in the lobby's open games (False: seats by invite only); old rows (NULL): True


def open_seats(seats: Any) -> int:
    """How many of a game's seats (its stored list) are human seats nobody has claimed: the
    seats the lobby offers. 0 for a list the server could not have written."""
    if not isinstance(seats, list):
        return 0
    return sum(1 for s in seats if isinstance(s, dict) and s.get("kind") == "human" and not s.get("claimed"))


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL + NORMAL: a committed action survives the process being killed, and commits stay cheap.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    # Each pooled connection keeps its own page cache (2 MiB by default); a game server reads
    # little and appends mostly, so a small cache keeps its memory flat as the file grows.
    cur.execute("PRAGMA cache_size=-512")
    cur.close()


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _row_record(row: Row[Any]) -> GameRecord:
    """The GameRecord of a games row, or _Unreadable if a field is not what the server relies on
    (the lobby reads config players/size/edition and each seat's seat/kind; size and edition may be absent)."""
    try:
        config = json.loads(row.config)
    except (TypeError, ValueError):
        raise _Unreadable("its config is not valid JSON") from None
    # a game without board sizes or editions (Galactic Empires has no size) stores none
    if not (isinstance(config, dict) and _is_int(config.get("players"))
            and (config.get("size") is None or _is_int(config.get("size")))
            and (config.get("edition") is None or isinstance(config.get("edition"), str))):
        raise _Unreadable("its config is not a game setup")
    try:
        seats = json.loads(row.seats)
    except (TypeError, ValueError):
        raise _Unreadable("its seats are not valid JSON") from None
    if not (isinstance(seats, list)
            and all(isinstance(s, dict) and _is_int(s.get("seat")) and isinstance(s.get("kind"), str) for s in seats)):
        raise _Unreadable("its seats are not a list of seats")
    if not (isinstance(row.mode, str) and _is_int(row.step) and row.step >= 0 and _is_int(row.turn)
            and isinstance(row.created, (int, float)) and (row.winner is None or _is_int(row.winner))
            and (row.takeover_level is None or isinstance(row.takeover_level, str))):
        raise _Unreadable("a summary column holds a value of the wrong type")
    return GameRecord(game_id=row.game_id, config=config, mode=row.mode, seats=seats,
                      ai_takeover=bool(row.ai_takeover), takeover_level=row.takeover_level,
                      created=float(row.created), step=row.step, turn=row.turn, over=bool(row.over),
                      winner=row.winner, listed=row.listed is None or bool(row.listed))


def _verify(rec: GameRecord, head: str | None, rows: Sequence[Row[Any, Any, Any, Any, Any]]) -> tuple[str, list[tuple[int, str]]]:
    """Check a game's action rows (in seq order) against its games row and fill ``rec.actions``.

    Returns the chain value after the last action and, for a game stored before chains existed
    (``head`` is None), the chain values its rows should get. Raises DamagedGame naming the first
    problem: a gap in 0..step-1, a row whose content no longer matches its chain value, more or
    fewer rows than ``step``, or a last chain value that is not the head.

    A game without a head is taken as it is (nothing recorded what it was, so nothing can be
    checked beyond the row numbers and count); the caller stores its chain so that from then on it
    is verified like any other. A game without a head whose rows do have chain values is not such
    a game: its head was removed, and it is damaged.
    """
    gid = rec.game_id
    legacy = head is None
    prev = genesis(gid, rec.config)
    fills: list[tuple[int, str]] = []
    # Rows unpacked as tuples (seq, action, seat, by_ai, chain): attribute access per field costs
    # more than the hashing on a long game.
    for i, (seq, stored, seat, by_ai, chain) in enumerate(rows):
        if i >= rec.step:
            break  # extra rows: reported by the count below
        if seq != i:
            raise DamagedGame(gid, f"action {i} is missing" if seq > i else f"an action is numbered {seq}")
        try:
            action = json.loads(stored)
        except (TypeError, ValueError):
            raise DamagedGame(gid, f"action {i} was altered (it is not valid JSON)") from None
        if not _is_int(seat):
            raise DamagedGame(gid, f"action {i} was altered (its seat is not a number)")
        by_ai = bool(by_ai)
        if legacy:
            if chain is not None:
                raise DamagedGame(gid, "the game's head hash was removed")
            link = _link(prev, i, _canonical(action), seat, by_ai)
            fills.append((i, link))
        else:
            # append stores the canonical text itself, so hashing the text as stored is enough
            # unless someone re-wrote the JSON; the same action in other spacing is still no damage.
            link = _link(prev, i, stored, seat, by_ai)
            if link != chain:
                link = _link(prev, i, _canonical(action), seat, by_ai)
                if link != chain:
                    raise DamagedGame(gid, f"action {i} was altered" + (" (or the game's setup was)" if i == 0 else ""))
        prev = link
        rec.actions.append({"action": action, "seat": seat, "by_ai": by_ai})
    if len(rows) != rec.step:
        raise DamagedGame(gid, f"the game should have {rec.step} actions but {len(rows)} are stored")
    if not legacy and prev != head:
        raise DamagedGame(gid, "the game's setup was altered" if rec.step == 0
                          else f"action {rec.step - 1} does not match the game's head hash")
    return prev, fills


def _add_missing_columns(engine: Engine) -> None:
    """Databases made before a nullable column of ``games`` or ``actions`` existed get it added
    (NULL in the old rows), so their games keep loading; create_all only makes missing tables."""
    insp = inspect(engine)
    for table in (games, actions):
        have = {c["name"] for c in insp.get_columns(table.name)}
        for col in table.columns:
            if col.name not in have and col.nullable:
                kind = col.type.compile(dialect=engine.dialect)
                with engine.begin() as conn:
                    conn.execute(text(f'ALTER TABLE {table.name} ADD COLUMN {col.name} {kind}'))
    for index in games.indexes:  # create_all makes the indexes of new tables only
        index.create(engine, checkfirst=True)
    _count_open_seats(engine)


def _count_open_seats(engine: Engine, batch: int = 1000) -> None:
    """Fill ``open_seats`` of rows stored before the column existed (once: afterwards every
    write of the seats keeps it), a batch of rows per transaction."""
    while True:
        with engine.begin() as conn:
            rows = conn.execute(select(games.c.game_id, games.c.seats).where(games.c.open_seats.is_(None))
                                .limit(batch)).all()
            if not rows:
                return
            counts = []
            for row in rows:
                try:
                    seats = json.loads(row.seats)
                except (TypeError, ValueError):  # an unreadable row is not listed anyway
                    seats = None
                counts.append({"gid": row.game_id, "n": open_seats(seats)})
            conn.execute(update(games).where(games.c.game_id == bindparam("gid")).values(open_seats=bindparam("n")),
                         counts)


def _lock_sqlite_file(path: str, shown: str) -> IO[bytes]:
    """Take the flock of ``path`` (made if missing) without waiting and write our pid into it.
    The lock lasts while the returned file is open: close() or the process's death ends it."""
    assert fcntl is not None
    f = os.fdopen(os.open(path, os.O_RDWR | os.O_CREAT, 0o644), "r+b", buffering=0)
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = f.read(32).decode("ascii", "replace").strip()
        f.close()
        who = f"pid {holder}" if holder.isdigit() else "another process"
        raise StoreLocked(f"another starcom server is using {shown} (lock file {path} held by {who}); "
                          "stop it or use another --db") from None
    except BaseException:
        f.close()
        raise
    f.truncate(0)
    f.write(f"{os.getpid()}\n".encode())
    return f


def _lock_postgres(url: str, shown: str) -> tuple[Engine, Connection]:
    """Take the session-level advisory lock on a connection of its own (not pooled: the lock must
    end exactly when this connection does). Autocommit, so the connection never idles inside a
    transaction for the server's lifetime. Does not work through a transaction-pooling proxy."""
    eng = create_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        conn = eng.connect()
    except BaseException:
        eng.dispose()
        raise
    try:
        # Shown in pg_stat_activity, so whoever is refused can be told who holds the lock.
        me = f"{LOCK_NAME} pid {os.getpid()} on {socket.gethostname()}"[:63]
        conn.execute(text("SELECT set_config('application_name', :me, false)"), {"me": me})
        if not conn.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": _PG_LOCK_KEY}).scalar_one():
            raise StoreLocked(f"another starcom server is using {shown} (PostgreSQL advisory lock {LOCK_NAME!r} "
                              f"held by {_pg_lock_holder(conn)}); stop it or use another --db")
    except BaseException:
        conn.close()
        eng.dispose()
        raise
    return eng, conn


def _pg_lock_holder(conn: Connection) -> str:
    """Who holds our advisory lock in this database, as well as PostgreSQL lets us see."""
    key = _PG_LOCK_KEY & 0xFFFF_FFFF_FFFF_FFFF  # pg_locks splits the bigint key into two unsigned halves
    try:
        row = conn.execute(text(
            "SELECT l.pid, a.application_name FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
            "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND l.classid = CAST(:hi AS oid) AND l.objid = CAST(:lo AS oid)"),
            {"hi": key >> 32, "lo": key & 0xFFFF_FFFF}).first()
    except Exception:  # e.g. no right to read pg_locks: the message just says less
        return "another connection"
    if row is None:
        return "another connection"
    if isinstance(row.application_name, str) and row.application_name.startswith(LOCK_NAME):
        return row.application_name
    return f"the connection of PostgreSQL backend {row.pid}"


class Store:
    """Repository of games and their action lists over one SQLAlchemy engine.

    Holds the database's lock from construction to :meth:`close` (see the module docstring), and
    the chain head of every game it created or loaded, so that appending an action costs the
    same one transaction of one INSERT and one UPDATE as before chains existed.
    """

    def __init__(self, url: str) -> None:
        """Open the database at ``url``, lock it, and create or extend its tables.

        Raises StoreLocked if another open Store (in this or another process) has the database."""
        self.url = url
        self.engine: Engine = create_engine(url)
        self._lock_file: IO[bytes] | None = None
        self._lock_engine: Engine | None = None
        self._lock_conn: Connection | None = None
        # game_id -> (chain value of its last stored action, number of stored actions)
        self._heads: dict[str, tuple[str, int]] = {}
        try:
            if self.engine.dialect.name == "sqlite":
                event.listen(self.engine, "connect", _sqlite_pragmas)
            self._lock()  # before touching the schema: a refused Store must change nothing
            self._insert_action = _Hot(_INSERT_ACTION, self.engine.dialect, _ACTION_KEYS)
            self._update_summary = _Hot(_UPDATE_SUMMARY, self.engine.dialect)
            metadata.create_all(self.engine)
            _add_missing_columns(self.engine)
        except BaseException:
            self.close()
            raise

    def _lock(self) -> None:
        """Take this database's lock (see the module docstring) or raise StoreLocked."""
        shown = self.engine.url.render_as_string(hide_password=True)
        if self.engine.dialect.name == "sqlite":
            path = self.engine.url.database
            if self.engine.url.query.get("uri") and path and path.startswith("file:"):
                path = path[len("file:"):].split("?", 1)[0]
            in_memory = path in (None, "", ":memory:") or self.engine.url.query.get("mode") == "memory"
            if not in_memory and fcntl is not None:
                self._lock_file = _lock_sqlite_file(f"{path}.lock", shown)
        elif self.engine.dialect.name == "postgresql":
            self._lock_engine, self._lock_conn = _lock_postgres(self.url, shown)

    def close(self) -> None:
        """Release the connections and the database lock; calling it again does nothing."""
        self.engine.dispose()
        if self._lock_conn is not None:
            conn, self._lock_conn = self._lock_conn, None
            try:
                # Unlock first: the lock would also end with the session, but the server process
                # behind a closed connection exits a moment later, and a server started at once
                # on the same database (a restart) could find the lock still held.
                try:
                    conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _PG_LOCK_KEY})
                except Exception:  # the database went away: the lock went with its session
                    log.debug("could not release the advisory lock explicitly", exc_info=True)
                conn.close()  # not pooled: this ends the session
            finally:
                if self._lock_engine is not None:
                    self._lock_engine.dispose()
                self._lock_engine = None
        if self._lock_file is not None:
            f, self._lock_file = self._lock_file, None
            f.close()  # the lock file itself stays: removing it would race a Store opening it now

    def create(self, rec: GameRecord) -> None:
        """Store a new game (no actions yet)."""
        self.create_played(rec, [], 0, False, None)

    def create_played(self, rec: GameRecord, steps: Sequence[tuple[Any, int]], turn: int, over: bool,
                      winner: int | None) -> None:
        """Store a new game together with actions already played (``(action JSON, seat)``, each
        stored as the AI's) and its summary after them, in one transaction: what
        :meth:`append` would store action by action, chained the same way, at the cost of one
        commit (an opened saved game of 20,000 actions no longer makes 20,000)."""
        head = genesis(rec.game_id, rec.config)
        rows = []
        for seq, (action, seat) in enumerate(steps):
            canonical = _canonical(action)
            head = _link(head, seq, canonical, seat, True)
            rows.append({"game_id": rec.game_id, "seq": seq, "action": canonical, "seat": seat, "by_ai": True,
                         "chain": head})
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(
                game_id=rec.game_id, config=json.dumps(rec.config), mode=rec.mode, seats=json.dumps(rec.seats),
                ai_takeover=rec.ai_takeover, takeover_level=rec.takeover_level, created=rec.created or time.time(),
                step=len(rows), turn=turn, over=over, winner=winner, head=head, open_seats=open_seats(rec.seats),
                listed=rec.listed))
            if rows:
                conn.execute(insert(actions), rows)
        self._heads[rec.game_id] = (head, len(rows))

    def load(self, game_id: str) -> GameRecord | None:
        """The game with its actions in order, verified; None if there is no such game.

        Raises DamagedGame if the game was found damaged before or fails verification now (see
        _verify); the reason is then stored in the games row, so the game stays damaged until
        someone clears that column. A game stored before chains existed (no head) loads with only
        its row numbers and count checked, since nothing recorded what its rows were; its chain is
        stored on this first load, and from then on it is verified like any other."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.game_id == game_id)).first()
            if row is None:
                return None
            if row.damaged is not None:
                raise DamagedGame(game_id, row.damaged)
            rows = conn.execute(select(actions.c.seq, actions.c.action, actions.c.seat, actions.c.by_ai,
                                       actions.c.chain)  # the order _verify unpacks
                                .where(actions.c.game_id == game_id).order_by(actions.c.seq)).all()
        try:
            try:
                rec = _row_record(row)
            except _Unreadable as exc:
                raise DamagedGame(game_id, f"the game's record cannot be read: {exc.reason}") from None
            head, fills = _verify(rec, row.head, rows)
        except DamagedGame as exc:
            self._mark_damaged(game_id, exc.reason)
            raise
        if row.head is None:
            self._store_chain(game_id, head, fills)
        self._heads[game_id] = (head, rec.step)
        return rec

    def _mark_damaged(self, game_id: str, reason: str) -> None:
        self._heads.pop(game_id, None)
        log.error("game %s is damaged: %s", game_id, reason)
        try:
            with self.engine.begin() as conn:  # the first reason found is the one kept
                conn.execute(update(games).where(games.c.game_id == game_id, games.c.damaged.is_(None))
                             .values(damaged=reason))
        except Exception:  # the game is refused all the same; it will be verified again next time
            log.exception("game %s: could not record the damage", game_id)

    def _store_chain(self, game_id: str, head: str, fills: list[tuple[int, str]]) -> None:
        """Give a game stored before chains its chain values and head, in one transaction."""
        with self.engine.begin() as conn:
            if fills:
                conn.execute(update(actions).where(actions.c.game_id == bindparam("gid"),
                                                   actions.c.seq == bindparam("at"))
                             .values(chain=bindparam("link")),
                             [{"gid": game_id, "at": seq, "link": link} for seq, link in fills])
            conn.execute(update(games).where(games.c.game_id == game_id, games.c.head.is_(None)).values(head=head))
        log.info("game %s: stored before action chains; chained now (%d actions)", game_id, len(fills))

    def summaries(self, limit: int = 200, only_open: bool = False) -> list[GameRecord]:
        """The most recent games, newest first, without their actions; with ``only_open``, the
        most recent of the games a visitor could join (online, listed by its creator or stored
        before that choice existed, not over, not found damaged, a human seat unclaimed), chosen
        by the database among every game.

        A games row that cannot be decoded is left out (and logged) rather than failing the whole
        list. ``damaged`` is the stored reason, or one found by a check run with the listing, in
        the same query: whether the row of the last action is there with the head's chain value,
        whether rows beyond it exist, and whether the number of rows is the game's step (a gap in
        the middle). Counting reads the index entries of every listed game's actions (some 70 ms
        for 200 games of 1000 actions, off the event loop); an altered row in the middle shows
        once :meth:`load` verifies the chain."""
        later = actions.alias("later")
        # '' for a last row without a chain value (stored before chains), NULL for no row at all.
        last_chain = select(func.coalesce(actions.c.chain, "")).where(
            actions.c.game_id == games.c.game_id, actions.c.seq == games.c.step - 1).scalar_subquery()
        beyond = select(later.c.seq).where(later.c.game_id == games.c.game_id, later.c.seq >= games.c.step).exists()
        counted = select(func.count()).select_from(later).where(later.c.game_id == games.c.game_id).scalar_subquery()
        query = select(games, last_chain.label("last_chain"), beyond.label("beyond"), counted.label("counted"))
        if only_open:
            # listed IS NOT false: NULL (a game older than the choice) counts as listed
            query = query.where(games.c.open_seats > 0, games.c.mode == "online", games.c.over.is_(False),
                                games.c.damaged.is_(None), games.c.listed.is_not(False))
        query = query.order_by(games.c.created.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        out = []
        for r in rows:
            try:
                rec = _row_record(r)
            except _Unreadable as exc:  # the reason names the field, never its content (tokens)
                log.warning("game %s left out of the game list: %s", r.game_id, exc.reason)
                continue
            rec.damaged = r.damaged
            if rec.damaged is None:
                if r.beyond:
                    rec.damaged = f"the game should have {rec.step} actions but more are stored"
                elif rec.step > 0 and r.last_chain is None:
                    rec.damaged = f"action {rec.step - 1} is missing"
                elif rec.step > 0 and r.head is not None and r.last_chain != r.head:
                    rec.damaged = f"action {rec.step - 1} does not match the game's head hash"
                elif r.counted != rec.step:
                    rec.damaged = f"the game should have {rec.step} actions but {r.counted} are stored"
            out.append(rec)
        return out

    def append(self, game_id: str, seq: int, action: dict[str, Any], seat: int, by_ai: bool,
               turn: int, over: bool, winner: int | None) -> None:
        """Record action number ``seq`` and the game's new summary and chain head in one
        transaction. ``seq`` must be the number of stored actions (else RuntimeError; a second
        writer of the same ``seq`` fails on the primary key), and the game must not have been found
        damaged (else DamagedGame): nothing is stored then. The first append to a game this Store
        neither created nor loaded (or was told to forget) loads, and so verifies, it first."""
        if game_id not in self._heads and self.load(game_id) is None:
            raise RuntimeError(f"game {game_id}: there is no such game to append to")
        prev, step = self._heads[game_id]
        if seq != step:
            self._heads.pop(game_id, None)
            raise RuntimeError(f"game {game_id}: action {seq} does not follow the stored game (it has {step} actions)")
        canonical = _canonical(action)
        head = _link(prev, seq, canonical, seat, by_ai)
        try:
            with self.engine.begin() as conn:
                self._insert_action.run(conn, {"game_id": game_id, "seq": seq, "action": canonical,
                                               "seat": seat, "by_ai": bool(by_ai), "chain": head})
                if self._update_summary.run(conn, {"gid": game_id, "prev": prev, "step": seq + 1, "turn": turn,
                                                   "over": bool(over), "winner": winner,
                                                   "head": head}).rowcount != 1:
                    raise self._refusal(conn, game_id, seq)  # raising here rolls the insert back
        except BaseException:
            self._heads.pop(game_id, None)  # whatever went wrong, believe the database next time
            raise
        self._heads[game_id] = (head, seq + 1)

    @staticmethod
    def _refusal(conn: Connection, game_id: str, seq: int) -> Exception:
        """Why the guarded summary update of an append matched no row."""
        row = conn.execute(select(games.c.step, games.c.damaged).where(games.c.game_id == game_id)).first()
        if row is None:
            return RuntimeError(f"game {game_id}: there is no such game to append to")
        if row.damaged is not None:
            return DamagedGame(game_id, row.damaged)
        return RuntimeError(f"game {game_id}: action {seq} does not follow the stored game "
                            f"(it has {row.step} actions; its head hash is not the one this store holds)")

    def truncate(self, game_id: str, keep: int, turn: int) -> None:
        """Drop every action from number ``keep`` on (undo), in one transaction; the chain head
        goes back to the value of action ``keep - 1`` (the genesis value for ``keep == 0``)."""
        if game_id not in self._heads and self.load(game_id) is None:
            raise RuntimeError(f"game {game_id}: there is no such game to undo in")
        try:
            with self.engine.begin() as conn:
                if keep == 0:
                    config = conn.execute(select(games.c.config).where(games.c.game_id == game_id)).scalar_one()
                    head = genesis(game_id, json.loads(config))
                else:
                    found = conn.execute(select(actions.c.chain).where(
                        actions.c.game_id == game_id, actions.c.seq == keep - 1)).first()
                    if found is None or found.chain is None:
                        raise DamagedGame(game_id, f"action {keep - 1} is missing")
                    head = found.chain
                conn.execute(delete(actions).where(actions.c.game_id == game_id, actions.c.seq >= keep))
                conn.execute(update(games).where(games.c.game_id == game_id).values(
                    step=keep, turn=turn, over=False, winner=None, head=head))
        except DamagedGame as exc:
            self._mark_damaged(game_id, exc.reason)  # after the rollback: nothing was deleted
            raise
        except BaseException:
            self._heads.pop(game_id, None)
            raise
        self._heads[game_id] = (head, keep)

    def forget(self, game_id: str) -> None:
        """Drop the chain head held for a game (e.g. when the server evicts it from memory), so
        memory does not grow with every game ever played; the next append or undo loads it again."""
        self._heads.pop(game_id, None)

    def set_seats(self, game_id: str, seats: list[dict[str, Any]]) -> None:
        """Store a game's seats (and how many are open: :func:`open_seats`)."""
        with self.engine.begin() as conn:
            conn.execute(update(games).where(games.c.game_id == game_id).values(
                seats=json.dumps(seats), open_seats=open_seats(seats)))

    def count_actions(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(actions)
                                    .where(actions.c.game_id == game_id)).scalar_one())
