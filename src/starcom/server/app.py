"""The FastAPI application: REST and WebSocket API of docs/protocol.md plus the static pages.

Every answer to bad input is a 4xx ``{"error", "rule"}`` (docs/security.md): input is read by
:mod:`.inputs`, refusals are :class:`ApiError`, and handlers below turn framework errors (no
such route, bad query string) into the same form.
"""
from __future__ import annotations

import asyncio
import logging
import re
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, MutableMapping
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..games import GameEntry
from ..games import get as get_game
from ..games import list_games as game_names
from ..web.assets import PAGES, asset_file, page_assets, page_file
from . import inputs
from .errors import ApiError
from .limits import (ACTION_LIMIT, CHAT_CHARS, CREATE_LIMIT, DEFAULT_TURN_LIMIT, FINISHED_SECONDS, IDLE_SECONDS,
                     MAX_IMPORT, MAX_MESSAGE, MAX_RATE, REPLAY_BUILDS, TURN_LIMITS, WS_CLOSE_BUSY, WS_PER_ADDRESS,
                     RateWindow, ws_total_default)
from .sessions import SEAT_SETTINGS, WINDOW_HOLD, Conn, Manager, Session
from .store import Store

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
DEFAULT_DB = "sqlite:///starcom.db"
log = logging.getLogger("starcom.server")

# Sent with every HTTP answer. The pages load scripts and styles from this server only, so an
# injected tag cannot run; no-referrer keeps seat tokens in page URLs from reaching other sites.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; "
                                 b"img-src 'self' data:; connect-src 'self'; object-src 'none'; "
                                 b"base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
_SECRET_IN_URL = re.compile(r"((?:seat|invite)=)[^&\s\"]+")


class RedactSecrets(logging.Filter):
    """Blanks seat tokens and invite codes in log records (access logs print query strings)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(_SECRET_IN_URL.sub(r"\1…", a) if isinstance(a, str) else a
                                for a in (record.args if isinstance(record.args, tuple) else (record.args,)))
        if isinstance(record.msg, str):
            record.msg = _SECRET_IN_URL.sub(r"\1…", record.msg)
        return True


def _install_redaction() -> None:
    for name in ("uvicorn.access", "uvicorn.error", "starcom.server"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` (and no-store for the API) to HTTP answers."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope.get("path", "").startswith("/api/")

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + SECURITY_HEADERS
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


async def _read_json(request: Request, limit: int = MAX_MESSAGE) -> dict[str, Any]:
    """The request body as a JSON object (see :func:`inputs.parse_json`), read at most up to
    ``limit`` bytes."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise ApiError(413, f"message too large (over {limit} bytes)")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ApiError(413, f"message too large (over {limit} bytes)")
    return inputs.parse_json(body, limit)


def _page(name: str, static_dir: Path) -> Response:
    path = static_dir / name
    if not path.is_file():
        return JSONResponse({"error": f"{name} is not there yet", "rule": None}, status_code=404)
    return FileResponse(path, media_type="text/html")


def _game_settings(name: str, own: str) -> dict[str, Any]:
    """What the lobby offers of the game ``name``: its title, player counts, board sizes and
    editions, the settings a form starts from (``defaults``: its entry's ``rules.defaults()``),
    AI levels and the default one, what its turn limit counts, its help and glossary pages
    (None: none; the server's ``own`` game's are the site's /help and /cards), and what a page
    loads to draw it (:func:`..web.assets.page_assets`)."""
    entry = get_game(name)
    base = {which: (f"/{which}" if name == own else f"/{which}/{name}") if page_file(entry, which) else None
            for which in PAGES}
    return {"name": name, "title": entry.title, "players": list(entry.rules.player_counts), "sizes": list(entry.rules.sizes),
            "editions": list(entry.rules.editions), "defaults": entry.rules.defaults(), "levels": list(entry.ai.levels),
            "default_level": entry.ai.default_level, "turn_limit_words": entry.words.turn_limit_words, **base,
            **page_assets(entry)}


def _known_game(name: str) -> str:
    """``name`` if a game of that name is registered; 404 listing the games otherwise."""
    if name not in game_names():
        raise ApiError(404, f"no game {name[:40]!r}: the games are {', '.join(game_names())}")
    return name


def _origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Browsers send Origin with every WebSocket: only this server's own pages (or an origin the
    operator allowed) may open one. Clients without Origin (bots, tools) are not browsers."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    return bool(host) and urlsplit(origin).netloc.lower() == str(host).lower()


def create_app(db_url: str = DEFAULT_DB, takeover_seconds: float = 60.0, static_dir: Path | None = None,
               rate_limit: int = MAX_RATE, create_limit: int = CREATE_LIMIT, ai_workers: int | None = None,
               ai_processes: bool = True, allowed_origins: tuple[str, ...] = (),
               idle_seconds: float | None = None, finished_seconds: float | None = None,
               allow_ai_games: bool = False, ws_per_address: int = WS_PER_ADDRESS, ws_total: int | None = None,
               replay_builds: int = REPLAY_BUILDS, window_hold: float = WINDOW_HOLD) -> FastAPI:
    """The server app over the database at ``db_url`` (any SQLAlchemy URL; StoreLocked if another
    server uses it). ``takeover_seconds``: how long a disconnected human seat of an
    ``ai_takeover`` game waits before the AI plays it; ``create_limit``: games one client may
    create per minute (0: no limit); ``ai_workers``/``ai_processes``: the AI pool (threads
    only for tests that patch agents in this process); ``allow_ai_games``: accept games with
    no human seat (an operator's choice: each keeps an AI worker busy until its caps end it);
    ``ws_per_address``: open WebSockets of one client address (0: no cap; this machine's own
    loopback address is not capped); ``ws_total``: open WebSockets in all (None: from the
    limit on open files, :func:`.limits.ws_total_default`; 0: no cap); ``replay_builds``:
    replays one client address may have being built at once; ``window_hold``: seconds a
    decision whose options may be private stays open before the server passes for its seat
    (docs/security.md)."""
    static = static_dir or STATIC
    store = Store(db_url)
    manager = Manager(store, takeover_seconds, ai_workers, ai_processes, allow_ai_games=allow_ai_games,
                      window_hold=window_hold,
                      idle_seconds=IDLE_SECONDS if idle_seconds is None else idle_seconds,
                      finished_seconds=FINISHED_SECONDS if finished_seconds is None else finished_seconds)
    manager.replay_builds_per_client = replay_builds
    http_windows: dict[tuple[str, str], RateWindow] = {}
    create_windows: dict[str, RateWindow] = {}
    sockets = SocketCount(ws_per_address, ws_total_default() if ws_total is None else ws_total)
    _install_redaction()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        await manager.shutdown()
        store.close()

    app = FastAPI(title="starcom", lifespan=lifespan)
    app.add_middleware(SecurityHeaders)
    app.state.manager = manager
    app.state.store = store
    app.state.sockets = sockets

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail), "rule": None}, status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _query_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()))
        return JSONResponse({"error": f"bad request: {where}: {first.get('msg', 'invalid')}", "rule": None},
                            status_code=400)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        # A bug, not bad input (that is always an ApiError): logged, answered without details.
        log.error("unexpected error: %s", type(exc).__name__, exc_info=exc)
        return JSONResponse({"error": "internal error; the game is unchanged", "rule": None}, status_code=500)

    def _forget_idle(windows: dict[Any, RateWindow]) -> None:
        if len(windows) > 10_000:  # forget callers who went quiet rather than grow without bound
            now = time.monotonic()
            for key in [k for k, w in windows.items() if w.idle(now)]:
                del windows[key]

    def _throttle(game_id: str, token: str | None) -> None:
        key = (game_id, token or "")
        win = http_windows.setdefault(key, RateWindow(rate_limit))
        _forget_idle(http_windows)
        if not win.hit():
            raise ApiError(429, f"too many messages (more than {rate_limit} a second)")

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return _page("index.html", static)

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> Response:
        return _page("game.html", static)

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> Response:
        return _page("replay.html", static)

    def _game_page(entry: GameEntry[Any, Any], which: str) -> Response:
        """``entry``'s page ``which``, from its own browser files (its serving hook names the
        file: starcom.web.assets.page_file); 404 when it has none."""
        path = page_file(entry, which)
        if path is None:
            words = "How-to-play page" if which == "help" else "card glossary"
            raise ApiError(404, f"{entry.title} has no {words}")
        return FileResponse(path, media_type="text/html")

    # The server's own game's How-to-play page and card glossary, and each game's.
    @app.get("/help", include_in_schema=False)
    async def help_page() -> Response:
        return _game_page(manager.adapter.entry, "help")

    @app.get("/cards", include_in_schema=False)
    async def cards_page() -> Response:
        return _game_page(manager.adapter.entry, "cards")

    @app.get("/help/{game}", include_in_schema=False)
    async def game_help_page(game: str) -> Response:
        return _game_page(get_game(_known_game(game)), "help")

    @app.get("/cards/{game}", include_in_schema=False)
    async def game_cards_page(game: str) -> Response:
        return _game_page(get_game(_known_game(game)), "cards")

    # Each game's own browser files (its table drawing), from its package: starcom.web.assets.
    @app.get("/static/games/{game}/{path:path}", include_in_schema=False)
    async def game_asset(game: str, path: str) -> Response:
        try:
            return FileResponse(asset_file(get_game(_known_game(game)), path))
        except ValueError as exc:
            raise ApiError(404, str(exc)) from None

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")

    # ------------------------------------------------------------------ REST
    @app.get("/api/settings")
    async def settings() -> dict[str, Any]:
        """What a new game may be: each game's choices (``games``), the game made when a request
        names none (``game``, whose AIs ``levels`` lists: levels, then agents), and the limits."""
        own = manager.adapter.entry
        return {"games": [_game_settings(name, own.name) for name in game_names()],
                "game": own.name,
                "modes": list(inputs.MODES), "levels": inputs.ai_choices(own), "default_level": own.ai.default_level,
                "turn_limits": list(TURN_LIMITS), "default_turn_limit": DEFAULT_TURN_LIMIT,
                "quick_turn_limit": DEFAULT_TURN_LIMIT, "chat_chars": CHAT_CHARS,
                "action_limit": ACTION_LIMIT}

    @app.get("/api/cards")
    async def cards(edition: str | None = None, game: str | None = None) -> dict[str, Any]:
        """The cards of ``game`` (None: the server's own game) as its glossary lists them (its
        entry's ``glossary``; docs/protocol.md), all editions or one: a card that lists its
        ``editions`` is in those, one that lists none in every edition. The answer names the
        game when the request did."""
        entry = get_game(_known_game(game)) if game is not None else manager.adapter.entry
        if entry.words.glossary is None:
            raise ApiError(404, f"{entry.title} has no card glossary")
        if edition is not None and edition not in entry.rules.editions:
            if not entry.rules.editions:
                raise ApiError(400, f"edition {edition[:40]!r}: {entry.title} has no editions; leave it out")
            raise ApiError(400, f"edition {edition[:40]!r}: use one of {', '.join(entry.rules.editions)}")
        sheets = [c for c in entry.words.glossary() if edition is None or edition in c.get("editions", (edition,))]
        return {"game": game, "cards": sheets} if game is not None else {"cards": sheets}

    def _count_new_game(request: Request) -> None:
        """429 once a client has made more than ``create_limit`` games within a minute."""
        if create_limit:
            client = _client(request)
            win = create_windows.setdefault(client, RateWindow(create_limit, 60.0))
            _forget_idle(create_windows)
            if not win.hit():
                raise ApiError(429, f"too many new games from one client (at most {create_limit} a minute); "
                                    "try again in a minute")

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> JSONResponse:
        _count_new_game(request)
        body = await _read_json(request)
        return JSONResponse(manager.create(body), status_code=201)

    @app.post("/api/replays", status_code=201)
    async def import_game(request: Request) -> JSONResponse:
        """Open a saved game (a ``starcom-game/1`` file) as a finished game with a replay page."""
        _count_new_game(request)
        body = await _read_json(request, MAX_IMPORT)
        return JSONResponse(await asyncio.to_thread(manager.import_game, body), status_code=201)

    @app.get("/api/games")
    async def list_games(open: str = "0") -> dict[str, Any]:  # noqa: A002  (the protocol's name)
        if open not in ("0", "1", "true", "false"):
            raise ApiError(400, "open must be 1 or 0")
        games = await asyncio.to_thread(manager.open_games, open in ("1", "true"))
        return {"games": games}

    @app.get("/api/games/{game_id}")
    async def get_state(game_id: str, seat: str | None = None) -> dict[str, Any]:
        token = inputs.secret(seat, "seat token")
        s = await manager.load(game_id)
        return s.state_message(s.seat_of(token))

    @app.get("/api/games/{game_id}/decision")
    async def get_decision(game_id: str, seat: str | None = None) -> dict[str, Any]:
        token = inputs.secret(seat, "seat token")
        s = await manager.load(game_id)
        return s.decision_message(s.seat_of(token))

    async def _seat_request(game_id: str, request: Request,
                            fields: tuple[str, ...]) -> tuple[dict[str, Any], Session, int | None]:
        """The JSON body, the game's session and the seat its token names (throttled per token)."""
        body = await _read_json(request)
        inputs.check_fields(body, fields, "this request")
        token = inputs.secret(body.get("seat"), "seat token")
        _throttle(inputs.game_id(game_id), token)
        s = await manager.load(game_id)
        return body, s, s.seat_of(token)

    @app.post("/api/games/{game_id}/actions")
    async def post_action(game_id: str, request: Request) -> dict[str, Any]:
        body, s, seat = await _seat_request(game_id, request, ("seat", "action", "expect_step"))
        step = await manager.act(s, seat, body.get("action"), body.get("expect_step"))
        return {"ok": True, "step": step}

    @app.post("/api/games/{game_id}/undo")
    async def post_undo(game_id: str, request: Request) -> dict[str, Any]:
        _body, s, seat = await _seat_request(game_id, request, ("seat",))
        step = await manager.undo(s, seat)
        return {"ok": True, "step": step}

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(game_id: str, request: Request) -> dict[str, Any]:
        book = await manager.replay_book(game_id, _client(request))
        return {"config": book.config, "actions": [book.adapter.encode(a) for a in book.actions], "over": True,
                "seats": book.seats, "steps": book.steps}

    @app.get("/api/games/{game_id}/summary")
    async def get_summary(game_id: str, request: Request) -> dict[str, Any]:
        book = await manager.replay_book(game_id, _client(request))
        return book.summary

    @app.post("/api/games/{game_id}/settings")
    async def post_settings(game_id: str, request: Request) -> dict[str, Any]:
        body, s, seat = await _seat_request(game_id, request, ("seat", *SEAT_SETTINGS))
        await manager.set_settings(s, seat, {k: v for k, v in body.items() if k != "seat"})
        return {"ok": True, "settings": s.settings(seat) if seat is not None else None}

    @app.post("/api/games/{game_id}/hint")
    async def post_hint(game_id: str, request: Request) -> dict[str, Any]:
        _body, s, seat = await _seat_request(game_id, request, ("seat",))
        return await manager.hint(s, seat, _client(request))

    @app.get("/api/games/{game_id}/replay/{step}")
    async def get_replay_step(game_id: str, step: str, request: Request) -> dict[str, Any]:
        return await manager.replay_step(game_id, step, _client(request))

    @app.post("/api/games/{game_id}/join")
    async def post_join(game_id: str, request: Request) -> dict[str, Any]:
        body = await _read_json(request)
        inputs.check_fields(body, ("invite",), "a join request")
        invite = inputs.secret(body.get("invite"), "invite code")
        return manager.join(await manager.load(game_id), invite)

    # ------------------------------------------------------------------ WebSocket
    @app.websocket("/ws/games/{game_id}")
    async def ws_game(websocket: WebSocket, game_id: str) -> None:
        if not _origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), allowed_origins):
            await websocket.close(code=4403)  # before accepting: the browser sees a refused handshake
            return
        address = _client(websocket)
        refusal = sockets.open(address)
        if refusal is not None:
            # Accepted, then closed: a handshake refused before accepting reaches the page as a
            # bare 1006 with no reason, and the page could not say why.
            await websocket.accept()
            await websocket.close(code=WS_CLOSE_BUSY, reason=refusal)
            return
        try:
            await _ws_game(websocket, game_id)
        finally:
            sockets.close(address)

    async def _ws_game(websocket: WebSocket, game_id: str) -> None:
        """One game's WebSocket, counted already (:class:`SocketCount`)."""
        await websocket.accept()
        try:
            params = websocket.query_params
            unknown = sorted(set(params) - {"seat", "invite"})
            if unknown:
                raise ApiError(400, f"unknown query parameter {unknown[0]!r}; use seat or invite")
            token = inputs.secret(params.get("seat"), "seat token")
            invite = inputs.secret(params.get("invite"), "invite code")
            s = await manager.load(game_id)
            if invite is not None:
                claim = manager.join(s, invite)
                await websocket.send_json({"type": "seat", **claim})
                token = claim["token"]
            me = s.seat_of(token)
        except ApiError as exc:
            await websocket.send_json({"type": "error", **exc.body()})
            await websocket.close(code=4000 + exc.status)
            return
        conn = Conn(websocket, me)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        manager.connect(s, me, conn)
        try:
            await _serve_ws(websocket, conn, manager, game_id, me, rate_limit)
        finally:
            manager.disconnect(manager.sessions.get(s.game_id) or s, conn)
            conn.close(1000)
            try:
                await asyncio.wait_for(writer, 2.0)
            except (asyncio.TimeoutError, Exception):
                writer.cancel()

    return app


def _client(connection: Request | WebSocket) -> str:
    """The client's address (behind a proxy on this machine, uvicorn puts the forwarded one here)."""
    return connection.client.host if connection.client else "?"


# Addresses of this machine: its own tools (``starcom loadtest``, bots) and a proxy in front of
# the server, whose visitors uvicorn shows by their forwarded address, not this one.
_LOOPBACK = ("127.0.0.1", "::1", "localhost")


class SocketCount:
    """Open WebSockets per client address and in all, each under its cap (0: none). A socket
    is counted from before it is accepted until its handler ends, so a client that opens many
    at once is refused past its cap however fast it opens them."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total = total
        self.by_address: dict[str, int] = {}
        self.open_now = 0

    def open(self, address: str) -> str | None:
        """Count a new socket of ``address``, or say why it is refused (then it is not counted)."""
        if self.total and self.open_now >= self.total:
            return f"the server has too many open connections (at most {self.total}); try again later"
        mine = self.by_address.get(address, 0)
        if self.per_address and mine >= self.per_address and address not in _LOOPBACK:
            return (f"too many open connections from your address (at most {self.per_address}); "
                    "close a game's tab or try again later")
        self.by_address[address] = mine + 1
        self.open_now += 1
        return None

    def close(self, address: str) -> None:
        """A counted socket of ``address`` ended."""
        left = self.by_address.get(address, 1) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)
        self.open_now -= 1


async def _answer_hint(conn: Conn, manager: Manager, s: Session, me: int | None) -> None:
    conn.hinting = True
    try:
        conn.send(await manager.hint(s, me, _client(conn.ws)))
    except ApiError as exc:
        conn.send({"type": "error", **exc.body()})
    finally:
        conn.hinting = False


async def _serve_ws(websocket: WebSocket, conn: Conn, manager: Manager, game_id: str, me: int | None,
                    rate_limit: int) -> None:
    """Read client messages until the client leaves or is closed for breaking the limits."""
    window = RateWindow(rate_limit)
    while not conn.closed:
        msg = await websocket.receive()
        if msg["type"] == "websocket.disconnect":
            conn.closed = True
            return
        raw = msg.get("text")
        if raw is None:
            raw = msg.get("bytes") or b""
        if not window.hit():
            conn.send({"type": "error", "error": f"too many messages (more than {rate_limit} a second)",
                       "rule": None})
            conn.close(1008)
            return
        try:
            data = inputs.parse_json(raw)
            kind = data.get("type")
            if kind == "ping":
                inputs.check_fields(data, ("type",), "a ping")
                conn.send({"type": "pong"})
            elif kind == "action":
                inputs.check_fields(data, ("type", "action", "expect_step"), "an action message")
                await manager.act(await manager.load(game_id), me, data.get("action"), data.get("expect_step"))
            elif kind == "undo":
                inputs.check_fields(data, ("type",), "an undo message")
                await manager.undo(await manager.load(game_id), me)
            elif kind == "settings":
                inputs.check_fields(data, ("type", *SEAT_SETTINGS), "a settings message")
                await manager.set_settings(await manager.load(game_id), me, data)
            elif kind == "chat":
                inputs.check_fields(data, ("type", "text"), "a chat message")
                manager.chat(await manager.load(game_id), me, data.get("text"))
            elif kind == "hint":
                inputs.check_fields(data, ("type",), "a hint request")
                if conn.hinting:
                    raise ApiError(429, "the AI is still working out your last hint")
                # Answered in the background: the search takes a moment, and this connection's
                # other messages must not wait behind it.
                manager.spawn(_answer_hint(conn, manager, await manager.load(game_id), me))
            else:
                raise ApiError(400, f"unknown message type {str(kind)[:40]!r}: "
                                    "use action, undo, settings, chat, hint or ping")
        except ApiError as exc:
            if exc.status == 413:
                conn.send({"type": "error", **exc.body()})
                conn.close(1009)
                return
            conn.send({"type": "error", **exc.body()})
