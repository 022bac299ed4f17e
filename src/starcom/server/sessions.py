"""Live games: the engine state of each game, its connections, AI seats and persistence order.

Every accepted action is committed to the store before any client hears of it; a game not in
memory is rebuilt from its stored setup and actions (the engine is deterministic). AI seats think
in worker threads so one slow decision never holds up the other games.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from typing import Any

from ..agents import DIFFICULTIES, agent_names, make_agent
from ..engine.actions import to_json, validate
from ..engine.errors import IllegalAction
from ..engine.game import Game
from ..engine.setup import check_config
from ..engine.state import Config
from ..text import Narrator, describe_action
from .store import GameRecord, Store

HUMAN = "human"
MODES = ("vs_ai", "hotseat", "online")
DEFAULT_LEVEL = "normal"   # new AI seats and takeovers unless the request names another
AI_WORKERS = 4             # AI decisions computed at once (each in its own thread)
LOG_LINES = 200
_CLOSE = object()
log = logging.getLogger("starcom.server")


def _think(name: str, game: Game, rng: random.Random) -> Any:
    """One decision of a new ``name`` agent on ``game`` (a private copy: this runs in a worker
    thread). An agent that fails is logged and answered with the first legal action."""
    try:
        return make_agent(name).choose(game, rng)
    except Exception:
        log.exception("AI %s failed to decide; it plays its first legal action", name)
        return game.legal_actions()[0]


class ApiError(Exception):
    """A rejected request: HTTP status, a readable message and the rule ID (if a rule forbids it)."""

    def __init__(self, status: int, error: str, rule: str | None = None) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.rule = rule

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "rule": self.rule}


class Conn:
    """One WebSocket: messages go through a queue so broadcasts never wait on a slow client and
    always arrive in the order they were produced."""

    def __init__(self, ws: Any, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.closed = False

    def send(self, msg: dict[str, Any] | str) -> None:
        if not self.closed:
            self.queue.put_nowait(msg)

    def close(self, code: int) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait((_CLOSE, code))

    async def writer(self) -> None:
        """Send queued messages until closed or the client is gone."""
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, tuple) and item and item[0] is _CLOSE:
                    await self.ws.close(code=item[1])
                    return
                await self.ws.send_text(item if isinstance(item, str) else json.dumps(item))
        except Exception:  # the client went away; the reader notices and cleans up
            self.closed = True


def ai_choices() -> list[str]:
    """What may follow ``ai:`` in a seat kind (and be a takeover level): levels first, then agents."""
    return list(DIFFICULTIES) + [n for n in agent_names() if n not in DIFFICULTIES]


def _ai_name(name: Any) -> str | None:
    """``name`` as a known level or agent name (lower case), or None."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower()
    return key if key in ai_choices() else None


def _seat_kind(kind: Any) -> str:
    """The normalised seat kind: ``human`` or ``ai:<level or agent>``; 400 lists the choices."""
    if kind == HUMAN:
        return HUMAN
    if isinstance(kind, str) and kind[:3].lower() == "ai:":
        name = _ai_name(kind[3:])
        if name is not None:
            return f"ai:{name}"
    raise ApiError(400, f"seat kind {kind!r}: use 'human' or 'ai:<level>' with level one of "
                        f"{', '.join(ai_choices())}")


def _takeover_level(level: Any) -> str:
    """The AI level asked for a departed player's seat (default: normal); 400 lists the choices."""
    if level is None:
        return DEFAULT_LEVEL
    name = _ai_name(level)
    if name is None:
        raise ApiError(400, f"takeover_level {level!r}: use one of {', '.join(ai_choices())}")
    return name


class Session:
    """One game in memory: engine state, action history, per-viewer logs and connections."""

    def __init__(self, rec: GameRecord) -> None:
        self.rec = rec
        self.game_id = rec.game_id
        self.cfg = Config(**rec.config)
        self.game = Game.from_config(self.cfg)
        self.history: list[dict[str, Any]] = []
        self.viewers: list[int | None] = [*range(self.cfg.players), None]
        self.narrators = {v: Narrator(self.game, v) for v in self.viewers}
        self.logs: dict[int | None, deque[str]] = {v: deque(maxlen=LOG_LINES) for v in self.viewers}
        for v in self.viewers:
            self.logs[v].extend(self.narrators[v].setup_lines(self.game))
        for entry in rec.actions:
            act = validate(self.game, entry["action"])
            self._advance(act, entry["seat"], entry["by_ai"], self.game.apply_unchecked(act))
        self.conns: dict[int | None, set[Conn]] = {v: set() for v in self.viewers}
        self.lock = asyncio.Lock()
        self.taken_over: set[int] = set()
        self.timers: dict[int, asyncio.Task[None]] = {}

    @property
    def takeover_level(self) -> str:
        """The AI level that plays departed seats (records older than the option: normal)."""
        return self.rec.takeover_level or DEFAULT_LEVEL

    # ------------------------------------------------------------------ seats
    @property
    def step(self) -> int:
        return len(self.history)

    def seat_of(self, token: str | None) -> int | None:
        """The seat holding ``token`` (None without a token); 403 for a token of no seat."""
        if token is None or token == "":
            return None
        for s in self.rec.seats:
            if s.get("token") and secrets.compare_digest(str(s["token"]), str(token)):
                return int(s["seat"])
        raise ApiError(403, "wrong seat token")

    def is_ai(self, seat: int | None) -> bool:
        return seat is not None and (self.rec.seats[seat]["kind"] != HUMAN or seat in self.taken_over)

    def ai_of(self, seat: int) -> str | None:
        """The level or agent playing ``seat`` now: its own for AI seats, the takeover level for a
        departed human's seat, None while a human plays it."""
        kind = self.rec.seats[seat]["kind"]
        if kind != HUMAN:
            return kind[3:]
        return self.takeover_level if seat in self.taken_over else None

    def undo_allowed(self, seat: int | None) -> bool:
        """Undo needs the seat to be the only human seat of the game."""
        humans = [s["seat"] for s in self.rec.seats if s["kind"] == HUMAN]
        return seat is not None and humans == [seat]

    def last_human_action(self) -> int | None:
        for i in range(len(self.history) - 1, -1, -1):
            if not self.history[i]["by_ai"]:
                return i
        return None

    def can_undo(self, seat: int | None) -> bool:
        return self.undo_allowed(seat) and not self.game.over and self.last_human_action() is not None

    # ------------------------------------------------------------------ messages
    def _advance(self, act: tuple, seat: int, by_ai: bool, events: list[tuple]) -> None:
        self.history.append({"action": to_json(act), "seat": seat, "by_ai": by_ai})
        for v in self.viewers:
            self.logs[v].extend(self.narrators[v].step_lines(self.game, act, events))

    def state_message(self, seat: int | None) -> dict[str, Any]:
        """The protocol's state message for ``seat`` (None: spectator), built from its view."""
        g = self.game
        legal: list[dict[str, Any]] = []
        if seat is not None and not g.over and g.to_move == seat:
            legal = [{"action": to_json(a), "text": describe_action(g, a, seat)} for a in g.legal_actions()]
        seats = [{"seat": s["seat"], "kind": s["kind"],
                  "connected": s["kind"] != HUMAN or bool(self.conns[s["seat"]]),
                  "ai": self.ai_of(s["seat"])} for s in self.rec.seats]
        return {
            "type": "state", "game_id": self.game_id, "step": self.step, "seat": seat, "mode": self.rec.mode,
            "seats": seats, "view": g.view(seat), "legal": legal, "to_move": g.to_move,
            "log": list(self.logs[seat]), "over": g.over, "winner": g.winner if g.over else None,
            "can_undo": self.can_undo(seat),
            "takeover_level": self.takeover_level if self.rec.ai_takeover else None,
        }

    def replay_step(self, step: Any) -> dict[str, Any]:
        """The spectator's picture of this finished game after its first ``step`` actions: the
        view, the readable log so far and the action that led there. 409 unless the game is over,
        400 for a step outside 0..number of actions. Rebuilt from setup, so no full state leaks."""
        if not self.game.over:
            raise ApiError(409, "the game is not finished; replays are for finished games")
        total = len(self.history)
        try:
            n = int(step)
        except (TypeError, ValueError):
            raise ApiError(400, f"step {step!r} is not a whole number") from None
        if not 0 <= n <= total:
            raise ApiError(400, f"step {n} is outside 0..{total}")
        g = Game.from_config(self.cfg)
        narrator = Narrator(g, None)
        log = narrator.setup_lines(g)
        last_text: str | None = None
        last_seat: int | None = None
        added = len(log)
        for entry in self.history[:n]:
            act = validate(g, entry["action"])
            last_text, last_seat = describe_action(g, act, None), entry["seat"]
            lines = narrator.step_lines(g, act, g.apply_unchecked(act))
            log.extend(lines)
            added = len(lines)
        return {
            "game_id": self.game_id, "step": n, "steps": total, "view": g.view(None), "log": log,
            "new_lines": added, "action": last_text, "by": last_seat, "to_move": g.to_move,
            "over": g.over, "winner": g.winner if g.over else None,
            "seats": [{"seat": x["seat"], "kind": x["kind"]} for x in self.rec.seats],
        }

    def broadcast(self) -> None:
        """Queue the current state for every connection (one message built per viewer)."""
        for v, conns in self.conns.items():
            live = [c for c in conns if not c.closed]
            if live:
                msg = json.dumps(self.state_message(v), separators=(",", ":"))  # encoded once per viewer
                for c in live:
                    c.send(msg)


class Manager:
    """All live games over one store; creates, loads, changes and broadcasts them."""

    def __init__(self, store: Store, takeover_seconds: float = 60.0, ai_workers: int = AI_WORKERS) -> None:
        self.store = store
        self.takeover_seconds = takeover_seconds
        self.sessions: dict[str, Session] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        # AI decisions run here, off the event loop, so a searching AI never stalls other games.
        self.executor = ThreadPoolExecutor(max_workers=ai_workers, thread_name_prefix="starcom-ai")

    # ------------------------------------------------------------------ lifecycle
    def get(self, game_id: str) -> Session:
        """The live game, rebuilt from the store on first access; 404 if there is none."""
        s = self.sessions.get(game_id)
        if s is not None:
            return s
        rec = self.store.load(game_id) if len(game_id) <= 40 else None
        if rec is None:
            raise ApiError(404, f"no game {game_id!r}")
        s = Session(rec)
        self.sessions[game_id] = s
        if rec.ai_takeover:
            for seat in rec.seats:
                if seat["kind"] == HUMAN and seat.get("claimed"):
                    self._start_takeover_timer(s, seat["seat"])
        if any(s.is_ai(q) for q in range(s.cfg.players)):
            self._spawn(self.drive_ai(s))
        return s

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def shutdown(self) -> None:
        """Stop AI play and takeover timers; decisions still being computed are abandoned."""
        for t in list(self.tasks):
            t.cancel()
        for s in self.sessions.values():
            for t in s.timers.values():
                t.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)

    def create(self, body: dict[str, Any]) -> tuple[Session, dict[str, Any]]:
        """A new game from a creation request (see docs/protocol.md); 400 names a bad setting."""
        mode = body.get("mode") or "vs_ai"
        if mode not in MODES:
            raise ApiError(400, f"mode {mode!r}: use one of {', '.join(MODES)}")
        try:
            players = int(body.get("players") or 2)
            size = int(body.get("size") or 3)
            seed = body.get("seed")
            seed = secrets.randbelow(2 ** 31) if seed is None else int(seed)
            limit = body.get("turn_limit")
            limit = None if limit in (None, 0) else int(limit)
        except (TypeError, ValueError):
            raise ApiError(400, "players, size, seed and turn_limit must be integers") from None
        cfg = Config(players, size, str(body.get("edition") or "standard"), seed, limit)
        try:
            check_config(cfg)
        except ValueError as exc:
            raise ApiError(400, str(exc)) from None
        kinds = body.get("seats")
        if mode == "hotseat":
            kinds = [HUMAN] * players
        elif kinds is None:
            kinds = [HUMAN] + [f"ai:{DEFAULT_LEVEL}"] * (players - 1) if mode == "vs_ai" else [HUMAN] * players
        if not isinstance(kinds, list) or len(kinds) != players:
            raise ApiError(400, f"seats must list one kind for each of the {players} players")
        kinds = [_seat_kind(k) for k in kinds]
        takeover = bool(body.get("ai_takeover")) and mode == "online"
        level = _takeover_level(body.get("takeover_level"))
        seats: list[dict[str, Any]] = []
        first_human = True
        for i, k in enumerate(kinds):
            seat: dict[str, Any] = {"seat": i, "kind": k}
            if k == HUMAN:
                seat["token"] = secrets.token_urlsafe(18)
                # online: the creator holds the first human seat; the others wait for players
                seat["claimed"] = mode != "online" or first_human
                first_human = False
            seats.append(seat)
        rec = GameRecord(game_id=secrets.token_hex(6), config=asdict(cfg), mode=mode, seats=seats,
                         ai_takeover=takeover, takeover_level=level if takeover else None, created=time.time())
        self.store.create(rec)
        session = Session(rec)
        self.sessions[rec.game_id] = session
        links = {str(s["seat"]): f"/game/{rec.game_id}?seat={s['token']}" for s in seats if s["kind"] == HUMAN}
        answer = {"game_id": rec.game_id,
                  "seats": [{k: v for k, v in s.items() if k != "claimed"} for s in seats],
                  "ai_takeover": takeover, "takeover_level": rec.takeover_level,
                  "links": {"seats": links, "spectate": f"/game/{rec.game_id}"}}
        return session, answer

    def open_games(self, only_open: bool) -> list[dict[str, Any]]:
        out = []
        for rec in self.store.summaries():
            free = [s["seat"] for s in rec.seats if s["kind"] == HUMAN and not s.get("claimed")]
            if only_open and (rec.mode != "online" or rec.over or not free):
                continue
            out.append({"game_id": rec.game_id, "players": rec.config["players"], "size": rec.config["size"],
                        "edition": rec.config["edition"], "mode": rec.mode, "free_seats": free,
                        "over": rec.over, "turn": rec.turn,
                        "takeover_level": (rec.takeover_level or DEFAULT_LEVEL) if rec.ai_takeover else None})
        return out

    def join(self, session: Session) -> dict[str, Any]:
        if session.rec.mode != "online":
            raise ApiError(409, "only online games can be joined")
        for s in session.rec.seats:
            if s["kind"] == HUMAN and not s.get("claimed"):
                s["claimed"] = True
                self.store.set_seats(session.game_id, session.rec.seats)
                return {"seat": s["seat"], "token": s["token"]}
        raise ApiError(409, "the game is full")

    # ------------------------------------------------------------------ actions
    def _commit(self, s: Session, act: tuple, seat: int, by_ai: bool) -> None:
        """Apply a validated action, store it, then tell everyone. If storing fails the game is
        dropped from memory (rebuilt from the store on next access) so nothing unstored is shown."""
        g = s.game
        events = g.apply_unchecked(act)
        try:
            self.store.append(s.game_id, s.step, to_json(act), seat, by_ai, g.turn, g.over,
                              g.winner if g.over else None)
        except Exception as exc:
            self.sessions.pop(s.game_id, None)
            for conns in s.conns.values():
                for c in conns:
                    c.close(1011)
            raise ApiError(500, f"the action could not be stored: {type(exc).__name__}") from exc
        s._advance(act, seat, by_ai, events)
        s.broadcast()

    async def act(self, s: Session, seat: int | None, action: Any, expect_step: Any = None) -> int:
        """Play ``action`` for ``seat``; returns the step after it. AI seats then move."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ApiError(400, "the action must be a JSON object with a 'type'")
        if seat is None:
            raise ApiError(403, "a seat token is needed to act")
        if expect_step is not None and (not isinstance(expect_step, int) or isinstance(expect_step, bool)):
            raise ApiError(400, "expect_step must be an integer")
        async with s.lock:
            if expect_step is not None and expect_step != s.step:
                raise ApiError(409, f"stale: the game is at step {s.step}, not {expect_step}")
            g = s.game
            if not g.over and g.to_move != seat:
                raise ApiError(403, f"it is seat {g.to_move}'s decision, not seat {seat}'s")
            try:
                act = validate(g, action, seat)
            except IllegalAction as exc:
                raise ApiError(400, exc.reason, exc.rule) from None
            except Exception as exc:  # odd values the checks did not expect; the state is untouched
                raise ApiError(400, f"malformed action: {type(exc).__name__}") from None
            if seat in s.taken_over:
                s.taken_over.discard(seat)
            self._commit(s, act, seat, False)
            step = s.step
            await self._drive_locked(s)
        return step

    async def undo(self, s: Session, seat: int | None) -> int:
        """Take back this seat's last action and the AI moves after it (single-human games only)."""
        if seat is None:
            raise ApiError(403, "a seat token is needed to undo")
        async with s.lock:
            if not s.undo_allowed(seat):
                raise ApiError(409, "undo is only possible when no other human plays in the game")
            if s.game.over:
                raise ApiError(409, "the game is over")
            keep = s.last_human_action()
            if keep is None:
                raise ApiError(409, "there is nothing to undo")
            rec = GameRecord(**{**s.rec.__dict__, "actions": s.history[:keep]})
            fresh = Session(rec)
            self.store.truncate(s.game_id, keep, fresh.game.turn)
            fresh.conns, fresh.lock, fresh.taken_over, fresh.timers = s.conns, s.lock, s.taken_over, s.timers
            self.sessions[s.game_id] = fresh
            fresh.broadcast()
            await self._drive_locked(fresh)
            return fresh.step

    async def drive_ai(self, s: Session) -> None:
        async with s.lock:
            await self._drive_locked(s)

    async def _drive_locked(self, s: Session) -> None:
        """AI seats move until a human must decide or the game ends (rng fixed by game and step).

        The caller holds the session lock, so no human action interleaves; the agent thinks in a
        worker thread on a private copy of the game, so the server keeps serving meanwhile. A
        decision is dropped if, when it arrives, the game moved on, the session was replaced, or
        the seat is no longer the AI's (its player came back)."""
        g = s.game
        while not g.over and s.is_ai(g.to_move) and self.sessions.get(s.game_id) is s:
            seat, step, name = g.to_move, s.step, s.ai_of(g.to_move)
            assert name is not None
            rng = random.Random(f"{s.game_id}:{step}")
            act = await asyncio.get_running_loop().run_in_executor(self.executor, _think, name, g.clone(), rng)
            if s.step != step or g.to_move != seat or s.ai_of(seat) != name or self.sessions.get(s.game_id) is not s:
                continue
            try:
                act = validate(g, act, seat)
            except Exception:  # a broken agent must not stall the game: log it, play a legal move
                log.exception("game %s: AI %s chose %r, which the engine refuses", s.game_id, name, act)
                act = g.legal_actions()[0]
            self._commit(s, act, seat, True)

    # ------------------------------------------------------------------ connections
    def connect(self, s: Session, seat: int | None, conn: Conn) -> None:
        s.conns[seat].add(conn)
        if seat is not None:
            t = s.timers.pop(seat, None)
            if t is not None:
                t.cancel()
            s.taken_over.discard(seat)
            info = s.rec.seats[seat]
            if info["kind"] == HUMAN and not info.get("claimed"):
                info["claimed"] = True
                self.store.set_seats(s.game_id, s.rec.seats)
        s.broadcast()

    def disconnect(self, s: Session, conn: Conn) -> None:
        seat = conn.seat
        s.conns[seat].discard(conn)
        live = self.sessions.get(s.game_id)
        if live is not None and live is not s:
            live.conns[seat].discard(conn)
        target = live or s
        if seat is not None and not target.conns[seat]:
            self._start_takeover_timer(target, seat)
        target.broadcast()

    def _start_takeover_timer(self, s: Session, seat: int) -> None:
        if not s.rec.ai_takeover or s.rec.seats[seat]["kind"] != HUMAN or seat in s.timers:
            return

        async def later() -> None:
            await asyncio.sleep(self.takeover_seconds)
            s.timers.pop(seat, None)
            live = self.sessions.get(s.game_id)
            if live is None or live.conns[seat]:
                return
            live.taken_over.add(seat)
            live.broadcast()
            self._spawn(self.drive_ai(live))

        s.timers[seat] = asyncio.get_running_loop().create_task(later())
