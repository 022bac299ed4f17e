"""End-to-end: play the first turns of a vs-AI game by clicking in real headless Chromium."""
from __future__ import annotations

import shutil
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from . import api

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

STATE = "() => window.__starcom ? window.__starcom.state : null"


def state(page) -> dict:
    return page.evaluate(STATE)


def wait_state(page, predicate: str, timeout: float = 20000) -> dict:
    """Wait until ``predicate`` (JS, over ``s`` = the last state message) holds; return the state."""
    page.wait_for_function(f"() => {{ const s = window.__starcom && window.__starcom.state; return !!s && ({predicate}); }}",
                           timeout=timeout)
    return state(page)


def my_turn(seat: int) -> str:
    return f"s.to_move === {seat} && s.legal.length > 0 && s.view.decision === 'command'"


def click_tile(page, pos: int) -> None:
    """Click a board system away from the ship tokens (near its left corner)."""
    shape = page.locator(f'g.tile[data-pos="{pos}"] polygon.tile-shape')
    box = shape.bounding_box()
    assert box is not None
    shape.click(position={"x": box["width"] * 0.22, "y": box["height"] * 0.5})


def settle_interrupts(page, seat: int, until: str, timeout: float = 60.0) -> dict:
    """Answer whatever the engine asks of this seat (choices, passes) until ``until`` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        # The condition and the state it held for are read together: the page may take a new
        # state message between two separate reads.
        held, s = page.evaluate(f"() => {{ const s = window.__starcom.state; return [!!({until}), s]; }}")
        if held:
            return s
        if s["to_move"] == seat and s["legal"] and not page.locator("#pass").is_visible():
            step = s["step"]
            if page.locator("#choice").is_visible():
                page.locator("#choice-box button").first.click()
            else:
                kinds = [e["action"]["type"] for e in s["legal"]]
                kind = next((k for k in ("pass", "done", "decline", "end") if k in kinds), None)
                assert kind is not None, f"unexpected decision {s['view']['decision']}: {kinds}"
                button = page.locator(f'#main-btns button[data-type="{kind}"]').first
                try:
                    button.click(timeout=3000)
                except PlaywrightTimeout:
                    continue  # the state read was already stale (a newer one redrew the buttons): read again
            page.wait_for_function(f"() => window.__starcom.state.step !== {step}", timeout=20000)
        else:
            page.wait_for_timeout(100)
    last = state(page)
    raise AssertionError(f"timed out waiting for {until}: seat {last['to_move']} to move, decision "
                         f"{last['view']['decision']}, turn {last['view']['turn']}, log {last['log'][-6:]}")


def screenshot(page, tmp_path: Path, name: str) -> Path:
    out = tmp_path / "screenshots"
    out.mkdir(exist_ok=True)
    path = out / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def test_vs_ai_game_by_clicking(page, server: str, tmp_path: Path) -> None:
    page.goto("/")
    page.get_by_role("button", name="Play against the AI").click()
    page.wait_for_url("**/game/**?seat=*")
    token = parse_qs(urlparse(page.url).query)["seat"][0]
    game_id = urlparse(page.url).path.split("/")[-1]
    s = wait_state(page, "s.seat !== null")
    seat = s["seat"]
    s = wait_state(page, my_turn(seat))
    turn0 = s["view"]["turn"]
    home = s["view"]["players"][seat]["homeworld"]
    screenshot(page, tmp_path, "start")

    # Jump the Scout: click it, then one of the systems that light up.
    scout = next(v for v in s["view"]["vessels"] if v["owner"] == seat and v["name"] == "Scout")
    page.locator(f'g.vessel[data-vessel="{scout["id"]}"]').click()
    page.wait_for_selector("g.tile.dest")
    dests = page.eval_on_selector_all("g.tile.dest", "els => els.map(e => Number(e.dataset.pos))")
    legal_dests = {e["action"]["to"] for e in s["legal"]
                   if e["action"]["type"] == "jump" and e["action"]["vessel"] == scout["id"]}
    assert set(dests) == legal_dests and dests
    screenshot(page, tmp_path, "scout-selected")
    step = s["step"]
    click_tile(page, dests[0])
    if page.locator("#menu").is_visible():  # several ways to jump there (exploring or not)
        page.locator('#menu button[data-type="jump"]').first.click()
    s = wait_state(page, f"s.step > {step}")
    s = settle_interrupts(page, seat, f"s.to_move === {seat} && s.view.decision === 'command'")
    moved = next(v for v in s["view"]["vessels"] if v["id"] == scout["id"])
    assert moved["pos"] == dests[0]

    # Develop the homeworld from the menu of its system.
    devs = s["view"]["board"][home]["devs"]
    click_tile(page, home)
    page.locator('#menu button[data-type="develop"]').click()
    s = wait_state(page, f"s.view.board[{home}].devs === {devs + 1}")
    assert page.locator(f'g.tile[data-pos="{home}"] circle.pip.on').count() == devs + 1

    # Build a ship there the same way.
    ships = len([v for v in s["view"]["vessels"] if v["owner"] == seat])
    click_tile(page, home)
    page.locator('#menu button[data-type="build"]').first.click()
    s = wait_state(page, f"s.view.vessels.filter(v => v.owner === {seat}).length === {ships + 1}")
    built = [v for v in s["view"]["vessels"] if v["owner"] == seat and v["id"] != scout["id"]]
    assert built and built[0]["pos"] == home
    screenshot(page, tmp_path, "built")

    # End the turn; the AI plays; we answer any question until our next Command phase.
    page.locator('#main-btns button[data-type="end"]').click()
    s = settle_interrupts(page, seat, f"s.to_move === {seat} && s.view.decision === 'command' && s.view.turn > {turn0}")
    assert any("P1" in line for line in s["log"]), "the AI's moves appear in the log"
    board_png = screenshot(page, tmp_path, "board")
    shutil.copy(board_png, "/tmp/board.png")

    # A rejected action shows the engine's reason.
    page.evaluate("() => send({type: 'develop', at: 99})")
    page.wait_for_selector("#toast:not(.hidden)")
    assert page.locator("#toast").inner_text().strip()

    # Reload: the same position comes back from the server.
    before = state(page)
    page.reload()
    after = wait_state(page, f"s.step === {before['step']} && s.legal.length > 0")
    assert after["view"]["board"] == before["view"]["board"]
    assert after["view"]["vessels"] == before["view"]["vessels"]
    server_view = api.get(f"{server}/api/games/{game_id}", params={"seat": token}).json()
    assert server_view["step"] == after["step"]
    assert server_view["view"]["board"] == after["view"]["board"]
    assert page.locator("g.tile").count() == 9
    assert page.locator("g.vessel").count() == len(after["view"]["vessels"])


def test_spectator_sees_no_hand_and_no_orders(page, server: str) -> None:
    made = api.post(f"{server}/api/games", json={"players": 2, "size": 4, "edition": "classic", "seed": 3,
                                                   "turn_limit": None, "seats": ["human", "ai:greedy"],
                                                   "mode": "vs_ai", "ai_takeover": False}).json()
    page.goto(made["links"]["spectate"])
    s = wait_state(page, "true")
    assert s["seat"] is None and s["legal"] == []
    assert page.locator("g.tile").count() == 16
    assert page.locator("#actions").is_hidden()
    assert "spectating" in page.locator("#hand-title").text_content().lower()
    assert page.locator("#hand .card").count() == 0


def test_hotseat_hides_the_hand_between_players(page, server: str) -> None:
    page.goto("/")
    page.locator('#mode button[data-v="hotseat"]').click()
    assert page.locator("#seats select").evaluate_all("els => els.map(e => e.value)") == ["human", "human"]
    page.locator("#create").click()
    page.wait_for_url("**/game/**?seats=*")
    s = wait_state(page, "s.seat !== null && s.to_move !== null")
    first = s["to_move"]
    if s["seat"] != first:  # the first player to move is not P0: hand the device over first
        page.locator("#pass-ready").click()
        s = wait_state(page, f"s.seat === {first}")
    wait_state(page, my_turn(first))
    page.locator('#main-btns button[data-type="end"]').click()
    # Passing through the turn of the other human shows the pass screen, hands hidden behind it.
    page.wait_for_selector("#pass:not(.hidden)", timeout=20000)
    other = 1 - first
    assert f"P{other}" in page.locator("#pass-title").inner_text()
    assert page.locator("#hand .card").count() == 0
    page.locator("#pass-ready").click()
    s = wait_state(page, f"s.seat === {other}")
    assert page.locator("#pass").is_hidden()
