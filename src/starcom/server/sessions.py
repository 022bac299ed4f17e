"""Live games: the engine state of each game, its seats, connections, AI seats and storage order.

Every accepted action is committed to the store before any client hears of it; a game not in
memory is rebuilt from its stored setup and actions (the engine is deterministic), off the event
loop. Games nobody is using leave memory. What each seat and spectator is told is built from
the engine's per-seat view and the observer's event filter only (docs/security.md).
"""
from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from ..errors import IllegalAction
from . import inputs
from ..games import LEGACY_GAME, default_game
from .adapter import EntryAdapter, adapter_for
from .ai_pool import AiPool
from .errors import ApiError
from .inputs import HUMAN, ai_choices  # noqa: F401  (ai_choices: part of this module's API)
from .limits import FINISHED_SECONDS, IDLE_SECONDS, REPLAY_BUILDS, SEED_MAX, SEND_QUEUE
from .replays import ReplayBook, ReplayCache
from .store import DamagedGame, GameRecord, Store, token_hash, token_matches

# A server game keeps no clock for a bot: the bridge gives it a minute a decision (docs/bot-protocol.md).
BOT_LINK_CLOCK = {"move_ms": 60000, "bank_ms": 0}
BOT_LINK_RETRIES = 2

LOG_LINES = 200
CHAT_KEPT = 50        # chat lines a (re)connecting seat is shown
# A seat's play settings and their defaults (docs/protocol.md, "Settings").
SEAT_SETTINGS = {"auto_pass": True, "stop_at_responses": True, "auto_single": False, "skip_idle": False}
# What a new game's human seats start with where it differs from the above (a game stored before a
# setting existed goes on as it was played: its seats hold no value, so they get SEAT_SETTINGS').
NEW_SEAT_SETTINGS = {"auto_single": True}
# Seconds a decision whose options may be private stays open before the server passes for its
# seat, and the least time before anyone's pass in it is played (docs/security.md, "Decisions
# held open"): long enough that a pass made for a seat looks like one its player chose.
WINDOW_HOLD = 0.6
_CLOSE = object()
log = logging.getLogger("starcom.server")

class Conn:
    """One WebSocket. Messages wait in a bounded queue so a broadcast never waits on a slow
    client; a client that falls :data:`SEND_QUEUE` messages behind is disconnected (1013) and
    resynchronises from one snapshot when it reconnects."""

    def __init__(self, ws: Any, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[Any] = asyncio.Queue(SEND_QUEUE + 1)  # + room for the close
        self.closed = False
        self.hinting = False   # a hint for this connection is being worked out

    def send(self, msg: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= SEND_QUEUE:
            self.close(1013, drop_pending=True)  # too slow to read: it resyncs on reconnect
            return
        self.queue.put_nowait(msg)

    def close(self, code: int, drop_pending: bool = False) -> None:
        """Close after the queued messages (or instead of them, when ``drop_pending``)."""
        if not self.closed:
            self.closed = True
            while drop_pending and not self.queue.empty():
                self.queue.get_nowait()
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


class Session:
    """One game in memory: game state, action history, per-viewer logs and connections.

    Everything about the game itself goes through ``adapter`` (:mod:`.adapter`; by default the
    one the stored config names): building it, checking, playing and narrating actions, and (through its
    observer) what each viewer may see."""

    def __init__(self, rec: GameRecord, adapter: EntryAdapter | None = None) -> None:
        self.rec = rec
        self.game_id = rec.game_id
        self.config: dict[str, Any] = rec.config
        self.adapter: EntryAdapter = adapter or adapter_for(rec.config)
        self.game = self.adapter.create(rec.config)
        self.history: list[dict[str, Any]] = []
        self.viewers: list[int | None] = [*range(self.game.players), None]
        self.narrators = {v: self.adapter.narrator(self.game, v) for v in self.viewers}
        self.logs: dict[int | None, deque[str]] = {v: deque(maxlen=LOG_LINES) for v in self.viewers}
        for v in self.viewers:
            self.logs[v].extend(self.narrators[v].setup_lines(self.game))
        for entry in rec.actions:
            act = self.adapter.decode(self.game, entry["action"], None)
            note = None
            if entry["by_ai"] and rec.seats[entry["seat"]]["kind"] == HUMAN and not self.adapter.is_pass(act):
                note = self.forced_note(act, entry["seat"])  # the server took it for the seat
            self.play(act, entry["seat"], entry["by_ai"], note)
        self.conns: dict[int | None, set[Conn]] = {v: set() for v in self.viewers}
        self.lock = asyncio.Lock()
        self.taken_over: set[int] = set()
        self.timers: dict[int, asyncio.Task[None]] = {}
        self.ai_status: dict[int, str] = {}   # AI seat to move -> "queued" | "thinking"
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self.touched = time.monotonic()
        self.decision_since = self.touched   # when the decision now pending was opened

    @property
    def takeover_level(self) -> str:
        """The AI level that plays departed seats (records older than the option: normal)."""
        return self.rec.takeover_level or self.adapter.default_level

    @property
    def step(self) -> int:
        return len(self.history)

    def play(self, act: tuple[Any, ...], seat: int, by_ai: bool, note: str | None = None) -> None:
        """Apply a checked action and narrate it for every viewer; ``note``: a line for the
        seat's own log before the step's lines (an action the server took for it)."""
        g, observer = self.game, self.adapter.observer
        if note is not None:
            self.logs[seat].append(note)
        mark = observer.chance_mark(g)
        events = self.adapter.play(g, act)
        revealed = observer.reveals(events, mark, observer.chance_mark(g))
        self.history.append({"action": self.adapter.encode(act), "seat": seat, "by_ai": by_ai,
                             "revealed": revealed})
        for v in self.viewers:
            self.logs[v].extend(self.narrators[v].step_lines(g, act, events))

    # ------------------------------------------------------------------ seats
    def seat_of(self, token: str | None) -> int | None:
        """The seat holding ``token`` (None without a token); 403 for a token of no seat."""
        if token is None:
            return None
        for s in self.rec.seats:
            if token_matches(token, s.get("token_hash")):
                return int(s["seat"])
        raise ApiError(403, "this seat token belongs to no seat of this game")

    def is_ai(self, seat: int | None) -> bool:
        return seat is not None and (self.rec.seats[seat]["kind"] != HUMAN or seat in self.taken_over)

    def ai_of(self, seat: int) -> str | None:
        """The level or agent playing ``seat`` now: its own for AI seats, the takeover level for a
        departed human's seat, None while a human plays it."""
        kind = str(self.rec.seats[seat]["kind"])
        if kind != HUMAN:
            return kind[3:]
        return self.takeover_level if seat in self.taken_over else None

    def settings(self, seat: int) -> dict[str, bool]:
        """The seat's play settings (docs/protocol.md), defaults where the player set none."""
        stored = self.rec.seats[seat]
        return {k: bool(stored.get(k, default)) for k, default in SEAT_SETTINGS.items()}

    def auto_passes(self, seat: int, legal: Sequence[Any] | None = None) -> bool:
        """Whether the server passes for ``seat`` (to move) now; ``legal``: its legal actions,
        if the caller has them already.

        Passing is all it may do (the legal actions are passes or "done"), or it asked never to
        stop at a response window. AI seats pass at once too: asking a worker to choose among
        one option would only keep the table waiting."""
        if legal is None:
            legal = self.game.legal_actions()
        if not legal:
            return False
        only_passes = all(self.adapter.is_pass(a) for a in legal)
        if self.is_ai(seat):
            return only_passes
        prefs = self.settings(seat)
        if not prefs["auto_pass"]:
            return False
        return only_passes or (any(self.adapter.is_response_pass(a) for a in legal)
                               and not prefs["stop_at_responses"])

    def forced(self, seat: int, legal: Sequence[Any] | None = None) -> Any | None:
        """The action the server takes for the human ``seat`` (to move) on its own, or None: its
        one legal action, when the seat lets the server take single options (``auto_single``,
        the default), or the game's way of letting a decision with nothing worth doing go by
        (the entry's ``rules.idle``), when the seat asked for that (``skip_idle``). Passes are
        :meth:`auto_passes`' business. The seat's own options are its own to see, so taking
        them shows nobody anything; where they may hinge on cards only it sees
        (:meth:`held`), the server waits out the hold first, as for a pass."""
        if self.is_ai(seat):
            return None
        if legal is None:
            legal = self.game.legal_actions()
        if not legal or all(self.adapter.is_pass(a) for a in legal):
            return None
        prefs = self.settings(seat)
        if prefs["auto_single"] and len(legal) == 1:  # on for new games (NEW_SEAT_SETTINGS)
            return legal[0]
        idle = self.adapter.entry.rules.idle
        if prefs["skip_idle"] and idle is not None:
            act = idle(self.game)
            if act is not None and act in legal:
                return act
        return None

    def forced_note(self, act: Any, seat: int) -> str:
        """The line the seat's own log gets for an action the server took for it."""
        return f"Done for you: {self.adapter.describe(self.game, act, seat)}"

    def moves_for(self, seat: int, legal: Sequence[Any] | None = None) -> bool:
        """Whether the server makes the decision now pending for the seat to move (a pass or a
        forced action), so the seat's client must not answer it."""
        if legal is None:
            legal = self.game.legal_actions()
        return self.auto_passes(seat, legal) or self.forced(seat, legal) is not None

    def held(self, seat: int) -> bool:
        """Whether ``seat``'s decision now may hinge on what only it can see (the observer's
        :meth:`~starcom.observer.Observer.private_options`): then the server never passes
        for it at once, and no pass in it is played before the hold is over."""
        return bool(self.adapter.observer.private_options(self.game, seat))

    def decline(self, legal: Sequence[Any]) -> Any:
        """The one pass the server plays for a seat that lets a decision go by, whatever else it
        could have done: AI seats answer with it too, so a declined window looks the same
        whether the seat held an answer or not. A response pass comes before any other way of
        giving a decision away (Star Commander's ``done`` also ends a damage assignment or a
        retreat, which a seat that only declines a response never means)."""
        passes = [a for a in legal if self.adapter.is_pass(a)]
        return next((a for a in passes if self.adapter.is_response_pass(a)), passes[0])

    def server_move(self, seat: int, legal: Sequence[Any] | None = None) -> Any | None:
        """The action the server makes now for the human ``seat`` (to move) of its own accord,
        judged on the current state: the pass of :meth:`auto_passes` or the action of
        :meth:`forced`; None when the seat decides itself."""
        if legal is None:
            legal = self.game.legal_actions()
        if self.auto_passes(seat, legal):
            return self.decline(legal)
        return self.forced(seat, legal)

    def _undo_start(self, seat: int) -> int:
        """Index of the history entry an undo by ``seat`` would go back to: its last action of
        its own choosing, with the passes the server then made for it (see :meth:`auto_passes`)."""
        i = len(self.history) - 1
        while i > 0 and self.history[i]["seat"] == seat and self.history[i]["by_ai"] and not self.is_ai(seat):
            i -= 1
        return i

    def undo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not take back its last action now, or None if it may.

        Undo never crosses information: only the seat's own last action (and the automatic
        passes made for it after), while it still holds the decision (nobody else has acted
        since), and only if none of them showed anything hidden or used randomness (no draw,
        explore, reveal, take or shuffle)."""
        if seat is None:
            return "spectators cannot undo"
        if self.rec.mode == "online":
            return "no undo in online games: the other players have seen your move"
        if self.game.over:
            return "the game is over"
        if not self.history:
            return "there is nothing to undo"
        start = self._undo_start(seat)
        last = self.history[start]
        if last["seat"] != seat or last["by_ai"]:
            return f"P{last['seat']} has acted since your last action"
        if self.game.to_move != seat:
            return f"it is P{self.game.to_move}'s decision now"
        if any(e["revealed"] for e in self.history[start:]):
            return "your last action revealed hidden information (a card, a system or a shuffle)"
        return None

    # ------------------------------------------------------------------ messages
    def state_message(self, seat: int | None) -> dict[str, Any]:
        """The protocol's state message for ``seat`` (None: spectator), built from its view."""
        g = self.game
        legal: list[dict[str, Any]] = []
        passing = False  # the server passes for this seat at once: clients must not answer
        guide: str | None = None  # the game's words on the decision, for the seat to make it
        if seat is not None and not g.over and g.to_move == seat:
            adapter = self.adapter
            guide = adapter.guide(g, seat)
            actions = g.legal_actions()
            passing = self.moves_for(seat, actions)
            labels = adapter.labels(g, actions, seat)
            for a, label in zip(actions, labels):
                entry = {"action": adapter.encode(a), "notation": g.notation(a), "text": adapter.describe(g, a, seat),
                         "label": label}
                entry.update(adapter.extras(g, a))
                legal.append(entry)
        seats = [{"seat": s["seat"], "kind": s["kind"], "claimed": s["kind"] != HUMAN or bool(s.get("claimed")),
                  "connected": s["kind"] != HUMAN or bool(self.conns[s["seat"]]),
                  "ai": self.ai_of(s["seat"]), "ai_status": self.ai_status.get(s["seat"])}
                 for s in self.rec.seats]
        refusal = self.undo_refusal(seat)
        return {
            "type": "state", "game_id": self.game_id, "game": self.adapter.name, "title": self.adapter.entry.title,
            "step": self.step, "seat": seat, "mode": self.rec.mode,
            "seats": seats, "view": self.adapter.observer.view(g, seat), "legal": legal, "passing": passing,
            "to_move": g.to_move,
            "log": list(self.logs[seat]), "over": g.over, "winner": self.adapter.winner(g),
            "can_undo": refusal is None, "undo": {"allowed": refusal is None, "reason": refusal},
            "takeover_level": self.takeover_level if self.rec.ai_takeover else None,
            "turn_limit": self.config.get("turn_limit"), "over_reason": self.adapter.over_reason(g),
            "settings": None if seat is None else self.settings(seat),
            "chat": list(self.chat) if seat is not None else [],
            "guide": guide,
            "table": self.adapter.table_lines(g, seat),
        }

    def decision_message(self, seat: int | None) -> dict[str, Any]:
        """What a bot bridge (``starcom bot-link``, docs/bot-protocol.md) needs for ``seat``:
        the bot protocol's ``newgame`` body and, when the seat must decide (and the server does
        not pass for it), its ``decide`` body, both from the observer like every message."""
        if seat is None:
            raise ApiError(403, "a bot link plays a seat: give the seat's token")
        from ..bots import wire
        g, entry = self.game, self.adapter.entry
        settings = {k: v for k, v in self.config.items() if k in entry.rules.settings}
        legal = g.legal_actions() if not g.over and g.to_move == seat else []
        deciding = bool(legal) and not self.moves_for(seat, legal)
        return {"step": self.step, "over": g.over, "winner": self.adapter.winner(g),
                "over_reason": self.adapter.over_reason(g),
                "game": wire.game_info(entry, settings, seat, g.players, BOT_LINK_CLOCK, BOT_LINK_RETRIES),
                "decide": wire.decision(entry, g, seat, self.step, BOT_LINK_CLOCK, legal) if deciding else None}

    def broadcast(self, skip: Conn | None = None, only: int | None = None) -> None:
        """Queue the current state for every connection (one message built per viewer), or for
        the connections of seat ``only``."""
        for v, conns in self.conns.items():
            if only is not None and v != only:
                continue
            live = [c for c in conns if not c.closed and c is not skip]
            if live:
                msg = json.dumps(self.state_message(v), separators=(",", ":"))  # encoded once per viewer
                for c in live:
                    c.send(msg)

    def idle(self) -> bool:
        """Nobody connected, nothing running: the game may leave memory."""
        return (not any(self.conns.values()) and not self.lock.locked() and not self.timers
                and not self.ai_status)


class Manager:
    """All live games over one store; creates, loads, changes, broadcasts and forgets them."""

    def __init__(self, store: Store, takeover_seconds: float = 60.0, ai_workers: int | None = None,
                 ai_processes: bool = True, idle_seconds: float = IDLE_SECONDS,
                 finished_seconds: float = FINISHED_SECONDS, allow_ai_games: bool = False,
                 adapter: EntryAdapter | None = None, window_hold: float = WINDOW_HOLD) -> None:
        self.store = store
        self.window_hold = window_hold
        # the game new games are made of unless a request names another (stored games name their own)
        self.adapter = adapter or adapter_for(default_game())
        self.allow_ai_games = allow_ai_games
        self.takeover_seconds = takeover_seconds
        self.idle_seconds = idle_seconds
        self.finished_seconds = finished_seconds
        self.sessions: dict[str, Session] = {}
        self.loading: dict[str, asyncio.Future[Session]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.pool = AiPool(ai_workers, ai_processes)
        self.replays = ReplayCache()
        self.replay_builds: dict[str, asyncio.Future[ReplayBook]] = {}   # game id -> its rebuild under way
        self.replay_clients: dict[str, int] = {}   # client address -> rebuilds it started, under way
        self.replay_builds_per_client = REPLAY_BUILDS
        self._sweeper: asyncio.Task[None] | None = None
        self._left = 0   # games that left memory since the last time it was handed back

    # ------------------------------------------------------------------ lifecycle
    def _stored(self, game_id: str) -> GameRecord:
        """A game's stored record (blocking); 409 for a damaged one, 404 for none."""
        try:
            rec = self.store.load(game_id)
        except DamagedGame as exc:
            raise ApiError(409, f"game {game_id} is damaged and cannot be played or replayed: {exc.reason}") from None
        if rec is None:
            raise ApiError(404, f"no game {game_id!r}")
        return rec

    def _read(self, game_id: str) -> Session:
        """Load and rebuild a game (blocking: run in a worker thread)."""
        rec = self._stored(game_id)
        legacy = [seat for seat in rec.seats if "token" in seat]
        for seat in legacy:  # games stored before tokens were hashed: hash them now
            seat["token_hash"] = token_hash(str(seat.pop("token")))
        if legacy:
            self.store.set_seats(game_id, rec.seats)
        return Session(rec, self.adapter_of(rec))

    def adapter_of(self, rec: GameRecord) -> EntryAdapter:
        """The adapter of a stored game: this manager's own for the game it makes, else the
        registered one its config names."""
        if rec.config.get("game", LEGACY_GAME) == self.adapter.name:
            return self.adapter
        return adapter_for(rec.config)

    def get(self, game_id: str) -> Session:
        """The live game, rebuilt on this thread if it is not in memory (tests and tools; the
        server's handlers use :meth:`load`, which rebuilds off the event loop)."""
        s = self.sessions.get(inputs.game_id(game_id))
        if s is None:
            s = self._adopt(self._read(game_id))
        s.touched = time.monotonic()
        return s

    async def load(self, game_id: str) -> Session:
        """The live game; a game not in memory is rebuilt in a worker thread (long games take a
        while) and concurrent requests for it share that one rebuild."""
        s = self.sessions.get(inputs.game_id(game_id))
        if s is None:
            pending = self.loading.get(game_id)
            if pending is None:
                pending = asyncio.ensure_future(asyncio.to_thread(self._read, game_id))
                self.loading[game_id] = pending
                pending.add_done_callback(lambda _f: self.loading.pop(game_id, None))
            s = await asyncio.shield(pending)
            s = self.sessions.get(game_id) or self._adopt(s)
        s.touched = time.monotonic()
        return s

    def _adopt(self, s: Session, resumed: bool = True) -> Session:
        """Make a game live: AI seats move; in a game ``resumed`` from the store, the seats of
        absent players start their takeover clocks (a new game's players are yet to connect)."""
        self.sessions[s.game_id] = s
        self._ensure_sweeper()
        if s.rec.ai_takeover and resumed:
            for seat in s.rec.seats:
                if seat["kind"] == HUMAN and seat.get("claimed"):
                    self._start_takeover_timer(s, seat["seat"])
        self._mark_ai_turn(s)
        self._kick(s)
        return s

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _ensure_sweeper(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            try:
                self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
            except RuntimeError:  # no loop on this thread (a test calling get()): sweep later
                self._sweeper = None

    async def _sweep_forever(self) -> None:
        period = max(0.5, min(self.finished_seconds, self.idle_seconds) / 2)
        while True:
            await asyncio.sleep(period)
            self.sweep()
            if self._left:
                self._left = 0
                _return_free_memory()

    def sweep(self, now: float | None = None) -> int:
        """Forget games nobody uses (finished ones soon, others after the idle time); they come
        back from the store on demand. Returns how many left memory."""
        t = time.monotonic() if now is None else now
        gone = [gid for gid, s in self.sessions.items()
                if s.idle() and t - s.touched >= (self.finished_seconds if s.game.over else self.idle_seconds)]
        for gid in gone:
            self._forget(gid)
        return len(gone)

    def _forget(self, game_id: str) -> None:
        del self.sessions[game_id]
        self.store.forget(game_id)
        self._left += 1

    async def shutdown(self) -> None:
        """Stop AI play, timers and the sweeper; decisions still being computed are abandoned."""
        for t in list(self.tasks):
            t.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for s in self.sessions.values():
            for t in s.timers.values():
                t.cancel()
        self.pool.shutdown()

    # ------------------------------------------------------------------ creating and joining
    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """A new game from a creation request (docs/protocol.md); 400 names a bad setting.

        The creator receives a token for their own seat only (every human seat of a hot-seat
        game, which is one device), and a one-time invite code for each other human seat of an
        online game. Only hashes of tokens and codes are stored."""
        req = inputs.new_game(body, self.allow_ai_games, self.adapter.name)
        adapter = self.adapter if req.game in (None, self.adapter.name) else adapter_for(req.game)
        adapter.check(req)
        seed = req.seed if req.seed is not None else secrets.randbelow(SEED_MAX)
        seats: list[dict[str, Any]] = []
        tokens: dict[int, str] = {}
        invites: dict[int, str] = {}
        for i, kind in enumerate(req.seats):
            seat: dict[str, Any] = {"seat": i, "kind": kind}
            if kind == HUMAN:
                seat.update(NEW_SEAT_SETTINGS)
                if req.mode != "online" or not tokens:
                    tokens[i] = secrets.token_urlsafe(18)
                    seat.update(token_hash=token_hash(tokens[i]), claimed=True)
                else:
                    invites[i] = secrets.token_urlsafe(18)
                    seat.update(invite_hash=token_hash(invites[i]), claimed=False)
            seats.append(seat)
        rec = GameRecord(game_id=secrets.token_hex(6), config=adapter.config(req, seed), mode=req.mode, seats=seats,
                         ai_takeover=req.ai_takeover, takeover_level=req.takeover_level, created=time.time(),
                         listed=req.listed)
        self.store.create(rec)
        self._adopt(Session(rec, adapter), resumed=False)
        gid = rec.game_id
        return {
            "game_id": gid,
            "seats": [{"seat": s["seat"], "kind": s["kind"], **({"token": tokens[s["seat"]]} if s["seat"] in tokens else {})}
                      for s in seats],
            "ai_takeover": rec.ai_takeover, "takeover_level": rec.takeover_level, "listed": rec.listed,
            "links": {"seats": {str(k): f"/game/{gid}?seat={t}" for k, t in tokens.items()},
                      "invites": {str(k): f"/game/{gid}?invite={c}" for k, c in invites.items()},
                      "spectate": f"/game/{gid}"},
        }

    def import_game(self, body: dict[str, Any]) -> dict[str, Any]:
        """A finished game from a saved-game file (docs/protocol.md), stored as a game of mode
        "imported" whose replay opens at ``/replay/{id}``; 400 names what is wrong with the file.
        Its seats are the players the file names (shown only: the game is over)."""
        # the file names its game (no "game": LEGACY_GAME's, a fact of the format); its adapter checks it
        name = body.get("game", LEGACY_GAME) if isinstance(body, dict) else LEGACY_GAME
        if not isinstance(name, str):
            raise ApiError(400, f"not a saved game that can be opened: 'game' must be the name of a game, "
                                f"not {name!r}")
        try:
            adapter = self.adapter if name == self.adapter.name else adapter_for(name)
        except ValueError as exc:
            raise ApiError(400, f"not a saved game that can be opened: {exc}") from None
        imported = adapter.import_record(body)
        players = imported.config["players"]
        names = [_player_name(imported.players[i] if i < len(imported.players) else "") for i in range(players)]
        rec = GameRecord(game_id=secrets.token_hex(6), config=imported.config, mode="imported",
                         seats=[{"seat": i, "kind": f"ai:{names[i]}"} for i in range(players)], created=time.time())
        # one transaction for the game and all its actions: nothing half-stored, one commit
        self.store.create_played(rec, imported.steps, imported.turn, True, imported.winner)
        self.store.forget(rec.game_id)  # not live: its replay reads it back when asked
        gid = rec.game_id
        return {"game_id": gid, "steps": len(imported.steps), "links": {"replay": f"/replay/{gid}"}}

    def open_games(self, only_open: bool) -> list[dict[str, Any]]:
        """The lobby: recent games (newest first), or only online games with a free seat whose
        creator listed them (not those seating by invite only). Damaged games are listed as such;
        rows the store cannot read are left out by it."""
        out = []
        # the database picks the open games among all of them (not among the newest few)
        for rec in self.store.summaries(only_open=only_open):
            free = [s["seat"] for s in rec.seats if s["kind"] == HUMAN and not s.get("claimed")]
            if only_open and (rec.mode != "online" or rec.over or not free or rec.damaged or not rec.listed):
                continue
            name = rec.config.get("game", LEGACY_GAME)
            out.append({"game_id": rec.game_id, "game": name, "title": _title(name),
                        "players": rec.config["players"], "size": rec.config.get("size"),
                        "edition": rec.config.get("edition"), "mode": rec.mode, "free_seats": free,
                        "over": rec.over, "turn": rec.turn, "damaged": rec.damaged,
                        "listed": rec.listed if rec.mode == "online" else False,
                        "takeover_level": (rec.takeover_level or _default_level(name)) if rec.ai_takeover else None})
        return out

    def join(self, s: Session, invite: str | None) -> dict[str, Any]:
        """Claim a seat of an online game: the one ``invite`` names, else (a game its creator
        listed) the first free one; a game seating by invite only refuses a claim without an
        invite (403). The claimant gets a fresh token and holds the seat at once; a second claim
        is 409."""
        if s.rec.mode != "online":
            raise ApiError(409, "only online games can be joined")
        if invite is not None:
            for seat in s.rec.seats:
                if token_matches(invite, seat.get("invite_hash")):
                    if seat.get("claimed"):
                        raise ApiError(409, f"seat {seat['seat']} has been claimed already: an invite works once")
                    return self._claim(s, seat)
            raise ApiError(403, "this invite code belongs to no seat of this game")
        if not s.rec.listed:
            raise ApiError(403, "this game seats players by invite only: open the invite link its creator sent you")
        for seat in s.rec.seats:
            if seat["kind"] == HUMAN and not seat.get("claimed"):
                return self._claim(s, seat)
        raise ApiError(409, "the game is full")

    def _claim(self, s: Session, seat: dict[str, Any]) -> dict[str, Any]:
        token = secrets.token_urlsafe(18)
        seat.update(token_hash=token_hash(token), claimed=True)
        self.store.set_seats(s.game_id, s.rec.seats)
        s.broadcast()
        k = seat["seat"]
        return {"seat": k, "token": token, "link": f"/game/{s.game_id}?seat={token}"}

    # ------------------------------------------------------------------ actions
    def _commit(self, s: Session, act: tuple[Any, ...], seat: int, by_ai: bool) -> None:
        """Apply a checked action, store it, then tell everyone. If storing fails the game is
        dropped from memory (rebuilt from the store on next access) so nothing unstored is shown."""
        s.play(act, seat, by_ai)
        s.decision_since = time.monotonic()
        g = s.game
        try:
            self.store.append(s.game_id, s.step - 1, s.history[-1]["action"], seat, by_ai, s.adapter.turn(g),
                              g.over, s.adapter.winner(g))
        except Exception as exc:
            log.exception("game %s: action %d could not be stored", s.game_id, s.step - 1)
            self.sessions.pop(s.game_id, None)
            for conns in s.conns.values():
                for c in conns:
                    c.close(1011)
            raise ApiError(503, f"the action could not be stored ({type(exc).__name__}); try again") from None
        self._mark_ai_turn(s)
        s.touched = time.monotonic()
        s.broadcast()

    def _settle(self, s: Session) -> None:
        """After a commit: make at once the passes the server makes for seats
        (:meth:`Session.auto_passes`) whose options are public (:meth:`Session.held` is
        False). A held decision is left to :meth:`drive`, which passes after the hold.

        Each pass is committed and told like one the player clicked, so the other seats receive
        the same messages either way (docs/security.md)."""
        g = s.game
        while not g.over and g.to_move is not None and not s.held(g.to_move) and self.sessions.get(s.game_id) is s:
            seat = g.to_move
            if s.is_ai(seat):
                if not s.auto_passes(seat):
                    break
                self._commit(s, s.decline(g.legal_actions()), seat, True)
                continue
            act = s.server_move(seat)
            if act is None or not self._play_for(s, seat, s.step, act):
                break

    def _play_for(self, s: Session, seat: int, step: int, act: Any) -> bool:
        """Commit ``act``, which the server chose for the human ``seat`` at the decision of
        ``step`` (a pass, a single option, an idle phase's end), only if that decision is still
        the one pending (live session, same step, the seat to move) and, judged on the state
        now, it is still what the server makes for the seat (:meth:`Session.server_move`): an
        automatic action scheduled for one decision never lands on another, such as a damage
        assignment that came up meanwhile. Returns whether it was played. A pass that is not
        a response (Star Commander's ``done``) is played only where the seat can do nothing
        else. The seat's own log says what was done for it, if it was not a pass (stored like a
        pass made for it: ``by_ai``)."""
        g = s.game
        if (self.sessions.get(s.game_id) is not s or s.step != step or g.over or g.to_move != seat
                or s.is_ai(seat)):
            return False
        legal = g.legal_actions()
        wanted = s.server_move(seat, legal)
        if wanted is None or wanted != act:
            log.warning("game %s: an automatic action %r for seat %d at step %d no longer fits the "
                        "decision (the server now makes %r); dropped", s.game_id, act, seat, step, wanted)
            return False
        if not s.adapter.is_pass(act):
            s.logs[seat].append(s.forced_note(act, seat))
        self._commit(s, act, seat, True)
        return True

    def _mark_ai_turn(self, s: Session) -> None:
        """Show whether the AI seat to move (if any) waits for a worker or is thinking. In a held
        decision it always shows "thinking": whether the AI needs a worker at all there depends
        on the cards it holds."""
        g = s.game
        s.ai_status = {}
        if not g.over and s.is_ai(g.to_move):
            assert g.to_move is not None
            s.ai_status[g.to_move] = "queued" if self.pool.busy() and not s.held(g.to_move) else "thinking"

    def _moves_itself(self, s: Session) -> bool:
        """Whether the server plays the seat to move: an AI seat, or a seat it passes for."""
        g = s.game
        return (not g.over and g.to_move is not None
                and (s.is_ai(g.to_move) or s.moves_for(g.to_move)))

    def _kick(self, s: Session) -> None:
        """Start :meth:`drive` in the background when the server plays the seat to move; the
        request that got here does not wait for it, however long the AI queue is."""
        if self._moves_itself(s):
            self.spawn(self.drive(s))

    async def _hold(self, s: Session, seat: int) -> None:
        """Wait until the decision now pending has been open :attr:`window_hold` seconds, if its
        options may be private; a pass in it is played no sooner (docs/security.md)."""
        if s.held(seat):
            left = s.decision_since + self.window_hold - time.monotonic()
            if left > 0:
                await asyncio.sleep(left)

    async def act(self, s: Session, seat: int | None, action: Any, expect_step: Any = None) -> int:
        """Play ``action`` for ``seat``; returns the step after it. AI seats then move."""
        if seat is None:
            raise ApiError(403, "a seat token is needed to act")
        step_wanted = inputs.expect_step(expect_step)
        if not isinstance(action, (dict, list)):
            raise ApiError(400, "the action must be a JSON object with a 'type' (or a list)")

        def check_turn() -> None:
            g = s.game
            if g.over:
                raise ApiError(409, "the game is over", "WIN-1")
            if step_wanted is not None and step_wanted != s.step:
                raise ApiError(409, f"stale: the game is at step {s.step}, not {step_wanted}")
            if g.to_move != seat:
                raise ApiError(403, f"it is seat {g.to_move}'s decision, not seat {seat}'s", "RESP-2")

        check_turn()   # answered at once, without queueing behind an AI that is thinking
        async with s.lock:
            if self.sessions.get(s.game_id) is not s:
                # An undo replaced the game while this action waited (the new one shares the
                # lock): what the client saw is gone.
                raise ApiError(409, "stale: the game changed while your action waited (an undo); "
                                    "look again")
            check_turn()
            try:
                act = s.adapter.decode(s.game, action, seat)
            except IllegalAction as exc:
                raise ApiError(400, exc.reason, exc.rule) from None
            except ValueError as exc:  # another game's refusal
                raise ApiError(400, str(exc)) from None
            if s.adapter.is_pass(act):
                # A quick pass would tell the others the seat was asked: it had an answer.
                await self._hold(s, seat)
            s.taken_over.discard(seat)
            self._commit(s, act, seat, False)
            self._settle(s)
            step = s.step
        self._kick(s)
        return step

    async def undo(self, s: Session, seat: int | None) -> int:
        """Take back this seat's last action, if :meth:`Session.undo_refusal` allows it (409
        with the reason otherwise)."""
        if seat is None:
            raise ApiError(403, "a seat token is needed to undo")
        async with s.lock:
            reason = s.undo_refusal(seat)
            if reason is not None:
                raise ApiError(409, f"cannot undo: {reason}")
            keep = s._undo_start(seat)
            rec = GameRecord(**{**s.rec.__dict__, "actions": s.history[:keep]})
            fresh = await asyncio.to_thread(Session, rec, s.adapter)
            try:
                self.store.truncate(s.game_id, keep, fresh.adapter.turn(fresh.game))
            except DamagedGame as exc:
                raise ApiError(409, f"game {s.game_id} is damaged: {exc.reason}") from None
            fresh.conns, fresh.lock, fresh.taken_over, fresh.timers = s.conns, s.lock, s.taken_over, s.timers
            fresh.chat = s.chat
            self.sessions[s.game_id] = fresh
            fresh.broadcast()
            return fresh.step

    async def drive(self, s: Session) -> None:
        """Play the seats the server plays (AI seats, and seats it passes for) until a human must
        decide or the game ends."""
        async with s.lock:
            await self._drive_locked(s)

    async def _drive_locked(self, s: Session) -> None:
        """The caller holds the session lock, so no human action interleaves.

        An AI thinks in the AI pool on a private copy of the game, its random generator seeded
        from the game's secret seed and the step. Where the decision is held
        (:meth:`Session.held`) the pass is played only once the hold is over, and an AI that
        lets it go by answers with the same pass as a seat with nothing to answer
        (:meth:`Session.decline`). A decision is dropped if, when it arrives, the game moved
        on, the session was replaced, or the seat is no longer the AI's (its player came
        back)."""
        g = s.game
        while self._moves_itself(s) and self.sessions.get(s.game_id) is s:
            seat, step = g.to_move, s.step
            assert seat is not None
            name, legal, held = s.ai_of(seat), g.legal_actions(), s.held(seat)
            if name is not None and seat not in s.ai_status:  # e.g. a seat just taken over
                self._mark_ai_turn(s)
            if name is None:  # a human seat: the server passes or takes its single option
                mine = s.server_move(seat, legal)
                if mine is None:
                    break
                await self._hold(s, seat)
                # Judged again on the state now: it is dropped unless the same decision is
                # still pending and still one the server makes (never e.g. `done` at an assign).
                if self._play_for(s, seat, step, mine):
                    self._settle(s)
                elif s.step == step:
                    break   # nothing changed, yet it no longer fits: leave it to the seat
                continue
            if s.auto_passes(seat, legal):
                act = s.decline(legal)
            else:
                act = await self._think(s, seat, step, name)
                if held and s.adapter.is_pass(act) and act in legal:
                    act = s.decline(legal)
            if s.adapter.is_pass(act):
                await self._hold(s, seat)
            if s.step != step or g.to_move != seat or s.ai_of(seat) != name or self.sessions.get(s.game_id) is not s:
                s.ai_status.pop(seat, None)
                continue
            try:
                act = s.adapter.decode(g, act, seat)
            except ValueError:  # IllegalAction, or another game's refusal  # a broken agent must not stall the game: log it, play a legal move
                log.exception("game %s: AI %s chose %r, which the engine refuses", s.game_id, name, act)
                act = legal[0]
            self._commit(s, act, seat, True)
            self._settle(s)
        s.ai_status = {}

    async def _think(self, s: Session, seat: int, step: int, name: str) -> Any:
        """The action the AI ``name`` chooses for ``seat`` (the first legal one if the pool
        fails). In a held decision its status stays "thinking" (see :meth:`_mark_ai_turn`)."""
        g = s.game

        def started() -> None:
            if s.ai_status.get(seat) == "queued":
                s.ai_status[seat] = "thinking"
                s.broadcast()

        try:
            return await self.pool.decide(s.adapter.name, name, g.clone(), f"{s.config['seed']}:{step}", started)
        except Exception:  # the pool itself failed (a worker died, a game that cannot travel)
            log.exception("game %s: the AI pool could not decide for seat %d; it plays its first legal "
                          "action", s.game_id, seat)
            return g.legal_actions()[0]

    # ------------------------------------------------------------------ settings, chat, hints
    async def set_settings(self, s: Session, seat: int | None, body: dict[str, Any]) -> None:
        """Change the seat's play settings (only the ones ``body`` names); stored with the seat.
        A seat that now passes automatically does so at once."""
        if seat is None:
            raise ApiError(403, "a seat token is needed to change settings")
        changes = inputs.seat_settings(body, SEAT_SETTINGS)
        async with s.lock:
            s.rec.seats[seat].update(changes)
            self.store.set_seats(s.game_id, s.rec.seats)
            step = s.step
            self._settle(s)
            if s.step == step:  # nothing was passed: only this seat's message changed
                s.broadcast(only=seat)
        self._kick(s)

    def chat(self, s: Session, seat: int | None, text: Any) -> None:
        """A chat line from a seat of an online game to every seat (not spectators: a line may
        be meant for the players only). Kept in memory only: the last :data:`CHAT_KEPT`."""
        if s.rec.mode != "online":
            raise ApiError(409, "chat is for online games (at one device, just talk)")
        if seat is None:
            raise ApiError(403, "spectators cannot chat; a seat token is needed")
        line = {"type": "chat", "seat": seat, "text": inputs.chat_text(text), "step": s.step}
        s.chat.append({k: line[k] for k in ("seat", "text", "step")})
        msg = json.dumps(line, separators=(",", ":"))
        for v, conns in s.conns.items():
            if v is not None:
                for c in conns:
                    c.send(msg)

    async def hint(self, s: Session, seat: int | None, client: str | None = None) -> dict[str, Any]:
        """What the AI would do in ``seat``'s place and its estimated chance to win, from what
        that seat can see only (the search runs on determinizations of its view). For vs-AI and
        hot-seat games, where the seat to move asks.

        Hints share the AI pool after AI seats' moves (:meth:`AiPool.hint`): one per seat at a
        time, the same position's answer shared, a superseded or stale one 409, a full hint
        queue 503, more than a few in flight from one ``client`` (address) 429."""
        if seat is None:
            raise ApiError(403, "a seat token is needed for a hint")
        if s.rec.mode == "online":
            raise ApiError(409, "no hints in online games: every player plays on their own")
        g = s.game
        if g.over:
            raise ApiError(409, "the game is over", "WIN-1")
        if g.to_move != seat:
            raise ApiError(409, f"hints are for the seat to move; it is P{g.to_move}'s decision")
        if s.adapter.hint is None:
            raise ApiError(409, f"no hints in {s.adapter.entry.title}")
        step = s.step

        def wanted() -> bool:   # the position is still on the table (not moved on, not undone)
            return self.sessions.get(s.game_id) is s and s.step == step

        # The tag names this very position: an undo makes a new session whose step may match.
        try:
            answer = await self.pool.hint((s.game_id, seat), (id(s), step), s.adapter.hint, g.clone(),
                                          f"{s.config['seed']}:{step}:hint", wanted=wanted, client=client)
        except ApiError:
            raise
        except Exception:   # the search failed, or its worker died again and again: not the asker's fault
            log.exception("game %s: no hint for seat %d at step %d", s.game_id, seat, step)
            raise ApiError(503, "the AI could not work out a hint just now; try again in a moment") from None
        if not wanted():
            raise ApiError(409, "the game moved on while the AI was thinking; ask again")
        action, chance = answer
        labels = dict(zip(g.legal_actions(), s.adapter.labels(g, g.legal_actions(), seat)))
        return {"type": "hint", "step": step, "action": s.adapter.encode(action), "label": labels.get(action),
                "win_chance": None if chance is None else round(chance, 3)}

    # ------------------------------------------------------------------ replays
    async def replay_book(self, game_id: str, client: str | None = None) -> ReplayBook:
        """The finished game's replay, built once off the event loop and kept (:class:`ReplayCache`);
        concurrent requests for it share the one rebuild under way, and its checkpoints. 409
        while the game runs; 429 when ``client`` (an address; None: not counted) already has
        :attr:`replay_builds_per_client` rebuilds of other replays under way."""
        gid = inputs.game_id(game_id)
        book = self.replays.get(gid)
        if book is not None:
            return book
        pending = self.replay_builds.get(gid)
        if pending is None:
            live = self.sessions.get(gid)
            if live is not None and not live.game.over:
                raise ApiError(409, "the game is not finished; replays are for finished games")
            if client is not None:
                started = self.replay_clients.get(client, 0)
                if started >= self.replay_builds_per_client:
                    raise ApiError(429, f"too many replays being prepared for one client (at most "
                                        f"{self.replay_builds_per_client} at once); try again when one is ready")
                self.replay_clients[client] = started + 1
            # a live finished game is replayed from its history as it is now; any other from the store
            played = None if live is None else (live.adapter, live.config, list(live.history), live.rec.seats)
            pending = asyncio.ensure_future(asyncio.to_thread(self._build_replay, gid, played))
            self.replay_builds[gid] = pending
            pending.add_done_callback(lambda f: self._replay_built(gid, client, f))
        return await asyncio.shield(pending)

    def _replay_built(self, gid: str, client: str | None, done: asyncio.Future[ReplayBook]) -> None:
        """A rebuild ended: keep its book, and count it off its client."""
        if self.replay_builds.get(gid) is done:
            del self.replay_builds[gid]
        if client is not None:
            left = self.replay_clients.get(client, 1) - 1
            if left > 0:
                self.replay_clients[client] = left
            else:
                self.replay_clients.pop(client, None)
        if not done.cancelled() and done.exception() is None:
            self.replays.put(done.result())
        if gid not in self.sessions and gid not in self.loading:
            self.store.forget(gid)  # the load that verified it left its chain head behind

    def _build_replay(self, gid: str, played: tuple[EntryAdapter, dict[str, Any], list[dict[str, Any]],
                                                     list[dict[str, Any]]] | None) -> ReplayBook:
        """Build a replay (blocking: run in a worker thread) from a live game's ``played`` (adapter,
        config, history, seats), or else from the store, whose summary row says whether the game
        is over before anything is replayed."""
        if played is None:
            rec = self._stored(gid)
            if not rec.over:
                raise ApiError(409, "the game is not finished; replays are for finished games")
            played = (self.adapter_of(rec), rec.config, rec.actions, rec.seats)
        adapter, config, history, seats = played
        book = ReplayBook(gid, adapter, config, history, seats)
        if not book.over:  # the row said over, the actions do not end the game
            raise ApiError(409, f"game {gid} is damaged: its stored actions do not end the game")
        return book

    async def replay_step(self, game_id: str, step: str, client: str | None = None) -> dict[str, Any]:
        """The spectator's picture of a finished game after its first ``step`` actions; 400 for a
        step outside 0..number of actions (``client``: see :meth:`replay_book`)."""
        book = await self.replay_book(game_id, client)
        try:
            n = int(step)
        except ValueError:
            raise ApiError(400, f"step {step[:20]!r} is not a whole number") from None
        if not 0 <= n <= book.steps:
            raise ApiError(400, f"step {n} is outside 0..{book.steps}")
        return await asyncio.to_thread(book.picture, n)

    # ------------------------------------------------------------------ connections
    def connect(self, s: Session, seat: int | None, conn: Conn) -> None:
        """A new WebSocket: it gets one snapshot; the others hear of it only if its seat was
        away until now."""
        arrived = seat is not None and not s.conns[seat]
        s.conns[seat].add(conn)
        s.touched = time.monotonic()
        if seat is not None:
            t = s.timers.pop(seat, None)
            if t is not None:
                t.cancel()
            back = seat in s.taken_over
            s.taken_over.discard(seat)
            arrived = arrived or back
        if arrived:
            s.broadcast(skip=conn)
        conn.send(json.dumps(s.state_message(seat), separators=(",", ":")))

    def disconnect(self, s: Session, conn: Conn) -> None:
        seat = conn.seat
        s.conns[seat].discard(conn)
        live = self.sessions.get(s.game_id)
        if live is not None and live is not s:
            live.conns[seat].discard(conn)
        target = live or s
        target.touched = time.monotonic()
        if seat is not None and not target.conns[seat]:
            self._start_takeover_timer(target, seat)
            target.broadcast()
        if target.game.over and target.idle() and self.sessions.get(s.game_id) is target:
            self._forget(s.game_id)  # the last watcher of a finished game left: free it now

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
            self._kick(live)

        s.timers[seat] = asyncio.get_running_loop().create_task(later())


def _malloc_trim() -> Any:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to do
        return None


_TRIM = _malloc_trim()


def _return_free_memory() -> None:
    """Hand memory freed by games that left back to the system. Messages are large strings
    made and dropped all the time; without this the C heap keeps the holes they leave, and a
    long-running server's resident size creeps up although nothing is kept."""
    if _TRIM is not None:
        _TRIM(0)


def _player_name(name: Any) -> str:
    """A player's name from an opened file as a seat shows it: printable, at most 40 characters."""
    text = "".join(ch for ch in str(name) if ch.isprintable()).strip()[:40]
    return text or "unknown"


def _default_level(name: str) -> str | None:
    """The AI level of the game ``name`` that plays departed seats when its record names none
    (records older than the option); None for a game no longer registered."""
    try:
        return adapter_for(name).default_level
    except ValueError:
        return None


def _title(name: str) -> str:
    """The title of the game ``name`` (the name itself for a game no longer registered)."""
    try:
        return adapter_for(name).entry.title
    except ValueError:
        return name
