"""The game page's connection and the state message's newer fields (issue 10).

A socket the server closes (flooding 1008/4429, 4409, too slow to read 1013) is reopened and the
first state message on it is the whole truth; a socket that keeps failing stops the page with a
clear message and a Reload button instead of looping. The Undo button of vs-AI and hot-seat games
is always there, greyed with the server's reason when undo is not allowed. Seats show "AI queued",
"thinking…" and "free · waiting for a player"."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest

from . import api
from .test_browser import my_turn, wait_state
from .test_play_screens import api_state, create_hotseat

WS = re.compile(r".*/ws/games/.*")


def create_vs_ai(server: str, level: str = "easy") -> tuple[str, str]:
    r = api.post(f"{server}/api/games", json={"players": 2, "size": 3, "seats": ["human", f"ai:{level}"],
                                                "mode": "vs_ai"})
    assert r.status_code == 201, r.text
    made = r.json()
    return made["game_id"], made["seats"][0]["token"]


@pytest.mark.parametrize("code", [4429, 1008, 4409, 1013])
def test_reconnects_after_the_server_closes_and_takes_the_fresh_state(page, server: str, code: int) -> None:
    game_id, tokens = create_hotseat(server, seed=1)
    opened: list[int] = []

    def socket(ws: Any) -> None:
        opened.append(len(opened))
        if len(opened) == 1:
            # The first connection gets a stale picture, then the server drops it.
            ws.send(json.dumps({**stale, "type": "state"}))
            ws.close(code=code, reason="")
        else:
            ws.connect_to_server()

    stale = api_state(server, game_id, tokens[0])
    stale["log"] = ["a stale line"]
    page.route_web_socket(WS, socket)
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    s = wait_state(page, "s.log.every(l => l !== 'a stale line') && s.log.length > 1")
    assert s["step"] == 0 and len(opened) == 2
    page.wait_for_function("() => document.getElementById('conn').textContent === 'connected'")
    assert page.locator("#lost").is_hidden()
    if code in (4429, 1008, 1013):  # closes made on purpose are explained
        assert "Reconnecting" in page.locator("#toast").inner_text()
    # The new socket works: an action goes through it.
    page.locator('#main-btns button[data-type="end"]').click()
    wait_state(page, "s.step > 0")


def test_gives_up_after_repeated_closes_with_a_reload_button(page, server: str) -> None:
    game_id, tokens = create_hotseat(server, seed=1)
    opened: list[int] = []

    def socket(ws: Any) -> None:
        opened.append(1)
        ws.close(code=1013, reason="")

    page.clock.install()
    page.route_web_socket(WS, socket)
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    for _ in range(60):
        if page.locator("#lost").is_visible():
            break
        page.clock.run_for(1000)
        page.wait_for_timeout(20)
    page.wait_for_selector("#lost:not(.hidden)")
    tries = len(opened)
    assert 3 <= tries <= 8, tries
    assert "Connection lost" in page.locator("#lost h1").inner_text()
    assert "fell behind" in page.locator("#lost-text").inner_text()
    assert page.locator("#conn").inner_text() == "offline"
    # No more tries once the page has given up.
    page.clock.run_for(60000)
    page.wait_for_timeout(200)
    assert len(opened) == tries
    # The picture from HTTP is still there behind the message.
    assert page.locator("g.tile").count() == 9

    page.unroute_all(behavior="ignoreErrors")
    reload = page.get_by_role("button", name="Reload")
    with page.expect_navigation():
        reload.click()


def test_no_such_game_stops_at_once(page, server: str) -> None:
    page.goto("/game/000000000000")
    page.wait_for_selector("#lost:not(.hidden)", timeout=20000)
    assert page.locator("#lost h1").inner_text() == "No such game"
    page.wait_for_selector("#toast:not(.hidden)")


def test_undo_button_greyed_with_reason_then_usable(page, server: str) -> None:
    game_id, token = create_vs_ai(server)
    page.goto(f"/game/{game_id}?seat={token}")
    s = wait_state(page, my_turn(0), timeout=60000)
    undo = page.locator("#undo")
    assert undo.is_visible()
    if not s.get("undo", {"allowed": s["can_undo"]})["allowed"]:
        assert undo.is_disabled()
        why = page.locator("#undo-why")
        assert why.is_visible() and why.inner_text().strip()
        assert why.inner_text() in undo.get_attribute("title")
        if s.get("undo") and s["undo"]["reason"]:
            assert why.inner_text() == s["undo"]["reason"]
    step = s["step"]
    develop = next(e["action"] for e in s["legal"] if e["action"]["type"] == "develop")
    page.evaluate("(a) => send(a)", develop)
    s = wait_state(page, f"s.step === {step + 1}")
    page.wait_for_function("() => !document.getElementById('undo').disabled")
    assert page.locator("#undo-why").is_hidden()
    undo.click()
    s = wait_state(page, f"s.step === {step}")
    assert s["to_move"] == 0


def test_undo_button_in_hotseat_games_is_visible(page, server: str) -> None:
    game_id, tokens = create_hotseat(server, seed=1)
    page.goto(f"/game/{game_id}?seats={','.join(tokens)}")
    s = wait_state(page, "s.seat === 0")
    assert page.locator("#undo").is_visible()
    allowed = s.get("undo", {"allowed": s["can_undo"]})["allowed"]
    assert page.locator("#undo").is_disabled() != allowed


def test_undo_hidden_for_spectators_and_online_seats(page, server: str) -> None:
    game_id, tokens = create_hotseat(server, seed=1)
    page.goto(f"/game/{game_id}")
    wait_state(page, "s.seat === null")
    assert page.locator("#undo").is_hidden()
    r = api.post(f"{server}/api/games", json={"players": 2, "seats": ["human", "human"], "mode": "online"})
    page.goto(r.json()["links"]["seats"]["0"])
    wait_state(page, "s.seat === 0")
    assert page.locator("#undo").is_hidden()


def test_undo_reason_and_seat_statuses_from_the_state(page, server: str) -> None:
    """The client side alone: a made-up state message with the new fields."""
    game_id, tokens = create_hotseat(server, seed=1)
    s = api_state(server, game_id, tokens[0])
    s.update(undo={"allowed": False, "reason": "your last action revealed hidden information"}, can_undo=True,
             mode="vs_ai", to_move=1, legal=[])
    s["seats"] = [{"seat": 0, "kind": "human", "claimed": True, "connected": True, "ai": None, "ai_status": None},
                  {"seat": 1, "kind": "ai:hard", "claimed": True, "connected": True, "ai": "hard", "ai_status": "queued"}]
    s["view"]["config"].pop("seed", None)  # a running game's config has no seed

    def socket(ws: Any) -> None:
        ws.send(json.dumps({**s, "type": "state"}))
        thinking = json.loads(json.dumps(s))
        thinking["seats"][1]["ai_status"] = "thinking"
        ws.on_message(lambda m: ws.send(json.dumps({**thinking, "type": "state"})) if "ping" not in str(m) else None)

    page.route(lambda url: f"/api/games/{game_id}" in url,
               lambda route: route.fulfill(status=200, content_type="application/json", json=s))
    page.route_web_socket(WS, socket)
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    wait_state(page, "s.undo && s.undo.allowed === false")
    undo = page.locator("#undo")
    assert undo.is_visible() and undo.is_disabled()  # the new field wins over can_undo
    assert "revealed hidden information" in undo.get_attribute("title")
    assert page.locator("#undo-why").inner_text() == "your last action revealed hidden information"

    status = page.locator('#players .player-card[data-seat="1"] .seat-status')
    assert status.inner_text() == "AI queued"
    assert "worker" in status.get_attribute("title")
    assert "waits for a free AI worker" in page.locator("#banner").inner_text()

    # Any message from the page makes the fake server answer with the next state.
    page.evaluate("() => ws.send(JSON.stringify({type: 'undo'}))")
    page.wait_for_function("() => window.__starcom.state.seats[1].ai_status === 'thinking'")
    assert status.inner_text() == "thinking…"
    assert "is thinking" in page.locator("#banner").inner_text()
