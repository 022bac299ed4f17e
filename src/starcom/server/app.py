"""The FastAPI application: REST and WebSocket API of docs/protocol.md plus the static pages."""
from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .limits import MAX_MESSAGE, MAX_RATE, RateWindow
from .sessions import ApiError, Conn, Manager, Session
from .store import Store

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
DEFAULT_DB = "sqlite:///starcom.db"


async def _read_json(request: Request) -> dict[str, Any]:
    """The request body as a JSON object; 413 past the size limit, 400 if it is not JSON."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_MESSAGE:
        raise ApiError(413, f"message too large (over {MAX_MESSAGE} bytes)")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_MESSAGE:
            raise ApiError(413, f"message too large (over {MAX_MESSAGE} bytes)")
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "malformed JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def _page(name: str, static_dir: Path) -> Response:
    path = static_dir / name
    if not path.is_file():
        return JSONResponse({"error": f"{name} is not there yet", "rule": None}, status_code=404)
    return FileResponse(path, media_type="text/html")


def create_app(db_url: str = DEFAULT_DB, takeover_seconds: float = 60.0, static_dir: Path | None = None,
               rate_limit: int = MAX_RATE) -> FastAPI:
    """The server app over the database at ``db_url`` (any SQLAlchemy URL). ``takeover_seconds``:
    how long a disconnected human seat of an ``ai_takeover`` game waits before the AI plays it."""
    static = static_dir or STATIC
    store = Store(db_url)
    manager = Manager(store, takeover_seconds)
    http_windows: dict[tuple[str, str], RateWindow] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        await manager.shutdown()
        store.close()

    app = FastAPI(title="Star Commander", lifespan=lifespan)
    app.state.manager = manager
    app.state.store = store

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    def _throttle(game_id: str, token: Any) -> None:
        key = (game_id, str(token))
        win = http_windows.setdefault(key, RateWindow(rate_limit))
        if len(http_windows) > 10000:  # forget old callers rather than grow without bound
            http_windows.clear()
            http_windows[key] = win
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

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")

    # ------------------------------------------------------------------ REST
    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> JSONResponse:
        body = await _read_json(request)
        session, answer = manager.create(body)
        if any(session.is_ai(q) for q in range(session.cfg.players)):
            manager._spawn(manager.drive_ai(session))
        return JSONResponse(answer, status_code=201)

    @app.get("/api/games")
    async def list_games(open: int = 0) -> dict[str, Any]:  # noqa: A002  (the protocol's name)
        return {"games": manager.open_games(bool(open))}

    @app.get("/api/games/{game_id}")
    async def get_state(game_id: str, seat: str | None = None) -> dict[str, Any]:
        s = manager.get(game_id)
        return s.state_message(s.seat_of(seat))

    async def _seat_request(game_id: str, request: Request) -> tuple[dict[str, Any], Any, int | None]:
        """The JSON body, the game's session and the seat its token names (throttled per token)."""
        body = await _read_json(request)
        s = manager.get(game_id)
        token = body.get("seat")
        _throttle(game_id, token)
        return body, s, s.seat_of(token if isinstance(token, str) else None)

    @app.post("/api/games/{game_id}/actions")
    async def post_action(game_id: str, request: Request) -> dict[str, Any]:
        body, s, seat = await _seat_request(game_id, request)
        step = await manager.act(s, seat, body.get("action"), body.get("expect_step"))
        return {"ok": True, "step": step}

    @app.post("/api/games/{game_id}/undo")
    async def post_undo(game_id: str, request: Request) -> dict[str, Any]:
        _body, s, seat = await _seat_request(game_id, request)
        step = await manager.undo(s, seat)
        return {"ok": True, "step": step}

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(game_id: str) -> dict[str, Any]:
        s = manager.get(game_id)
        if not s.game.over:
            raise ApiError(409, "the game is not finished; replays are for finished games")
        return {"config": dict(s.rec.config), "actions": [h["action"] for h in s.history], "over": True,
                "seats": [{"seat": x["seat"], "kind": x["kind"]} for x in s.rec.seats]}

    @app.get("/api/games/{game_id}/replay/{step}")
    async def get_replay_step(game_id: str, step: str) -> dict[str, Any]:
        return manager.get(game_id).replay_step(step)

    @app.post("/api/games/{game_id}/join")
    async def post_join(game_id: str, request: Request) -> dict[str, Any]:
        await _read_json(request)
        return manager.join(manager.get(game_id))

    # ------------------------------------------------------------------ WebSocket
    @app.websocket("/ws/games/{game_id}")
    async def ws_game(websocket: WebSocket, game_id: str, seat: str | None = None) -> None:
        await websocket.accept()
        try:
            s = manager.get(game_id)
            me = s.seat_of(seat)
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
            manager.disconnect(manager.sessions.get(game_id) or s, conn)
            conn.close(1000)
            try:
                await asyncio.wait_for(writer, 2.0)
            except (asyncio.TimeoutError, Exception):
                writer.cancel()

    return app


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
            raw = (msg.get("bytes") or b"").decode("utf-8", "replace")
        if not window.hit():
            conn.send({"type": "error", "error": f"too many messages (more than {rate_limit} a second)",
                       "rule": None})
            conn.close(1008)
            return
        if len(raw.encode("utf-8")) > MAX_MESSAGE:
            conn.send({"type": "error", "error": f"message too large (over {MAX_MESSAGE} bytes)", "rule": None})
            conn.close(1009)
            return
        try:
            data = json.loads(raw)
            if not isinstance(data, dict):
                raise ValueError
        except ValueError:
            conn.send({"type": "error", "error": "malformed JSON", "rule": None})
            continue
        try:
            s: Session = manager.get(game_id)
            kind = data.get("type")
            if kind == "ping":
                conn.send({"type": "pong"})
            elif kind == "action":
                await manager.act(s, me, data.get("action"), data.get("expect_step"))
            elif kind == "undo":
                await manager.undo(s, me)
            else:
                raise ApiError(400, f"unknown message type {kind!r}: use action, undo or ping")
        except ApiError as exc:
            conn.send({"type": "error", **exc.body()})
