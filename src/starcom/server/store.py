"""Game storage: one row per game (setup, seats, summary) and one row per accepted action.

Only portable SQLAlchemy Core types are used (strings, integers, booleans, text holding JSON),
so any SQLAlchemy URL works: the embedded SQLite file by default, PostgreSQL as well.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (Boolean, bindparam, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text,
                        create_engine, delete, event, func, insert, inspect, select, text, update)
from sqlalchemy.engine import Engine

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("game_id", String(40), primary_key=True),
    Column("config", Text, nullable=False),          # JSON of the engine Config
    Column("mode", String(16), nullable=False),
    Column("seats", Text, nullable=False),           # JSON list of {seat, kind, token, claimed}
    Column("ai_takeover", Boolean, nullable=False, default=False),
    Column("takeover_level", String(40), nullable=True),  # AI level for departed seats; NULL: default
    Column("created", Float, nullable=False),
    Column("step", Integer, nullable=False, default=0),
    Column("turn", Integer, nullable=False, default=0),
    Column("over", Boolean, nullable=False, default=False),
    Column("winner", Integer, nullable=True),
)

actions = Table(
    "actions", metadata,
    Column("game_id", String(40), ForeignKey("games.game_id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("action", Text, nullable=False),          # JSON form of the action
    Column("seat", Integer, nullable=False),
    Column("by_ai", Boolean, nullable=False, default=False),
)


# Built once: statements with bound parameters hit SQLAlchemy's compiled cache on every action.
_INSERT_ACTION = insert(actions)
_UPDATE_SUMMARY = update(games).where(games.c.game_id == bindparam("gid")).values(
    step=bindparam("step"), turn=bindparam("turn"), over=bindparam("over"), winner=bindparam("winner"))


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


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL + NORMAL: a committed action survives the process being killed, and commits stay cheap.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _row_record(row: Any) -> GameRecord:
    return GameRecord(game_id=row.game_id, config=json.loads(row.config), mode=row.mode,
                      seats=json.loads(row.seats), ai_takeover=bool(row.ai_takeover),
                      takeover_level=row.takeover_level, created=row.created,
                      step=row.step, turn=row.turn, over=bool(row.over), winner=row.winner)


def _add_missing_columns(engine: Engine) -> None:
    """Databases made before a nullable column of ``games`` existed get it added (NULL in the old
    rows), so their games keep loading; create_all only makes tables that are missing."""
    have = {c["name"] for c in inspect(engine).get_columns("games")}
    for col in games.columns:
        if col.name not in have and col.nullable:
            kind = col.type.compile(dialect=engine.dialect)
            with engine.begin() as conn:
                conn.execute(text(f'ALTER TABLE games ADD COLUMN {col.name} {kind}'))


class Store:
    """Repository of games and their action lists over one SQLAlchemy engine."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        _add_missing_columns(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create(self, rec: GameRecord) -> None:
        """Store a new game (no actions yet)."""
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(
                game_id=rec.game_id, config=json.dumps(rec.config), mode=rec.mode, seats=json.dumps(rec.seats),
                ai_takeover=rec.ai_takeover, takeover_level=rec.takeover_level, created=rec.created or time.time(), step=0, turn=0, over=False,
                winner=None))

    def load(self, game_id: str) -> GameRecord | None:
        """The game with its actions in order, or None if there is no such game."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.game_id == game_id)).first()
            if row is None:
                return None
            rec = _row_record(row)
            rows = conn.execute(select(actions).where(actions.c.game_id == game_id).order_by(actions.c.seq))
            for i, a in enumerate(rows):
                if a.seq != i:
                    raise RuntimeError(f"game {game_id}: action {i} is missing from the database")
                rec.actions.append({"action": json.loads(a.action), "seat": a.seat, "by_ai": bool(a.by_ai)})
        return rec

    def summaries(self, limit: int = 200) -> list[GameRecord]:
        """The most recent games, newest first, without their actions."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(games).order_by(games.c.created.desc()).limit(limit))
            return [_row_record(r) for r in rows]

    def append(self, game_id: str, seq: int, action: dict[str, Any], seat: int, by_ai: bool,
               turn: int, over: bool, winner: int | None) -> None:
        """Record action number ``seq`` and the game's new summary in one transaction. A second
        writer of the same ``seq`` fails on the primary key instead of forking the game."""
        with self.engine.begin() as conn:
            conn.execute(_INSERT_ACTION, {"game_id": game_id, "seq": seq, "action": json.dumps(action),
                                          "seat": seat, "by_ai": by_ai})
            conn.execute(_UPDATE_SUMMARY, {"gid": game_id, "step": seq + 1, "turn": turn, "over": over,
                                           "winner": winner})

    def truncate(self, game_id: str, keep: int, turn: int) -> None:
        """Drop every action from number ``keep`` on (undo), in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(delete(actions).where(actions.c.game_id == game_id, actions.c.seq >= keep))
            conn.execute(update(games).where(games.c.game_id == game_id).values(
                step=keep, turn=turn, over=False, winner=None))

    def set_seats(self, game_id: str, seats: list[dict[str, Any]]) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(games).where(games.c.game_id == game_id).values(seats=json.dumps(seats)))

    def count_actions(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(actions)
                                    .where(actions.c.game_id == game_id)).scalar_one())
