"""No visitor can hold every socket (issue 27): open WebSockets are capped per client address
and in all; a socket beyond a cap is accepted and closed at once with 1013 ("try again later")
and a reason naming the cap, and a closed socket frees its place."""
from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from starcom.server.app import SocketCount
from starcom.server.limits import WS_CLOSE_BUSY

from .conftest import create, wait_for


def _refusal(c: Any, url: str) -> WebSocketDisconnect:
    with pytest.raises(WebSocketDisconnect) as caught:
        with c.websocket_connect(url) as ws:
            ws.receive_json()
    return caught.value


def test_sockets_per_address_are_capped(make_client: Any) -> None:
    c = make_client(ws_per_address=3)
    gid = create(c, mode="hotseat")["game_id"]
    url = f"/ws/games/{gid}"
    with ExitStack() as stack:
        held = [stack.enter_context(c.websocket_connect(url)) for _ in range(3)]
        for ws in held:
            assert ws.receive_json()["type"] == "state"
        refused = _refusal(c, url)
        assert refused.code == WS_CLOSE_BUSY == 1013
        assert "from your address (at most 3)" in refused.reason
        held[0].close()
        # its place is free once the server has seen it go
        wait_for(lambda: c.app.state.sockets.by_address.get("testclient") == 2)
        with c.websocket_connect(url) as again:
            assert again.receive_json()["type"] == "state"
    wait_for(lambda: c.app.state.sockets.open_now == 0)
    assert c.app.state.sockets.open_now == 0 and c.app.state.sockets.by_address == {}


def test_sockets_in_all_are_capped(make_client: Any) -> None:
    c = make_client(ws_per_address=0, ws_total=2)
    gid = create(c, mode="hotseat")["game_id"]
    with c.websocket_connect(f"/ws/games/{gid}") as a, c.websocket_connect(f"/ws/games/{gid}") as b:
        assert a.receive_json()["type"] == b.receive_json()["type"] == "state"
        refused = _refusal(c, f"/ws/games/{gid}")
        assert refused.code == 1013 and "too many open connections (at most 2)" in refused.reason


def test_a_refused_or_failed_socket_is_not_counted(make_client: Any) -> None:
    c = make_client(ws_per_address=1)
    with pytest.raises(WebSocketDisconnect) as caught:
        with c.websocket_connect("/ws/games/0123456789ab") as ws:  # no such game: refused with 4404
            ws.receive_json()
            ws.receive_json()
    assert caught.value.code == 4404
    gid = create(c, mode="hotseat")["game_id"]
    with c.websocket_connect(f"/ws/games/{gid}") as ws:
        assert ws.receive_json()["type"] == "state"


def test_this_machine_is_not_capped_per_address() -> None:
    """Its own tools (the load test) and a proxy in front come from loopback; the total still counts."""
    count = SocketCount(per_address=1, total=3)
    assert count.open("198.51.100.7") is None and count.open("198.51.100.7") is not None
    assert count.open("127.0.0.1") is None and count.open("127.0.0.1") is None
    assert "at most 3" in (count.open("::1") or "")
    count.close("198.51.100.7")
    assert count.by_address == {"127.0.0.1": 2} and count.open_now == 2
