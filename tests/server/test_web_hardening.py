"""Web hardening (issue 10, item 7): security headers on every answer, WebSocket Origin checked,
seat tokens and invite codes never written to a log."""
from __future__ import annotations

import logging
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from starcom.server.app import RedactSecrets

from .conftest import claim_all, create, state


@pytest.mark.parametrize("path", ["/", "/game/0123456789ab", "/replay/0123456789ab", "/api/games",
                                  "/api/settings", "/api/nothing", "/static/app.css"])
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    h = client.get(path).headers
    csp = h["content-security-policy"]
    for part in ("default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'"):
        assert part in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert h["x-content-type-options"] == "nosniff"
    assert h["referrer-policy"] == "no-referrer"  # seat tokens sit in page URLs
    assert h["x-frame-options"] == "DENY"
    if path.startswith("/api/"):
        assert h["cache-control"] == "no-store"


def test_websocket_from_a_foreign_origin_is_refused(client: TestClient) -> None:
    g = create(client, mode="hotseat")
    gid = g["game_id"]
    with pytest.raises(WebSocketDisconnect) as exc:
        with client.websocket_connect(f"/ws/games/{gid}", headers={"origin": "https://evil.example"}) as ws:
            ws.receive_json()
    assert exc.value.code == 4403
    # the server's own pages, and clients that are not browsers (no Origin), are served
    with client.websocket_connect(f"/ws/games/{gid}", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        assert ws.receive_json()["type"] == "state"


def test_an_allowed_origin_may_connect(make_client: Any) -> None:
    c = make_client(allowed_origins=("https://friends.example",))
    gid = create(c, mode="hotseat")["game_id"]
    with c.websocket_connect(f"/ws/games/{gid}", headers={"origin": "https://friends.example"}) as ws:
        assert ws.receive_json()["type"] == "state"


def test_no_token_or_invite_code_reaches_a_log(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    g = create(client, mode="online", players=3, seats=["human", "human", "human"])
    gid = g["game_id"]
    codes = [link.split("invite=")[1] for link in g["links"]["invites"].values()]
    toks = claim_all(client, g)
    mover = state(client, gid)["to_move"]
    client.post(f"/api/games/{gid}/actions", json={"seat": toks[(mover + 1) % 3], "action": {"type": "end"}})
    client.get(f"/api/games/{gid}", params={"seat": toks[mover]})
    with client.websocket_connect(f"/ws/games/{gid}?seat={toks[mover]}") as ws:
        ws.receive_json()
    # and what an access log would print for those requests is blanked by the filter
    access = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1", "GET", f"/api/games/{gid}?seat={toks[0]}", "1.1", 200), None)
    RedactSecrets().filter(access)
    # (httpx, the test's own HTTP client, logs its requests: that is the visitor's side)
    server_side = [r.getMessage() for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    text = "\n".join(server_side) + access.getMessage()
    for secret in [*toks.values(), *codes]:
        assert secret not in text
    assert "seat=…" in access.getMessage()
