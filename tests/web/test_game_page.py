"""The game page as a table that fits and explains itself (issue 11), in real headless Chromium.

At 1366×768 the board, the hand, the orders and the log are on screen with no page scroll and no
board text under 11 px; a phone held upright plays a whole game by tapping; every control that
sends an action carries it in data-action; amounts come as one slider; each seat sees its
homeworld at the bottom; the board zooms and pans; chat, the hint, the settings, the guide, the
card popups, the highlights of other players' moves and the error screens work as described."""
from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from . import api
from .conftest import CSP_CONSOLE
from .test_browser import my_turn, state, wait_state
from .test_play_screens import api_state, create_hotseat

WS = re.compile(r".*/ws/games/.*")
# Screenshots are also copied here, to be looked at (and for the docs).
SHOTS = Path("/tmp/starcom-game-page")
EVIL = "<img src=x onerror=alert(1)>"

# The smallest text drawn on the board, in screen pixels: font size times the SVG's scale.
MIN_BOARD_FONT = """() => {
  let min = Infinity, which = null;
  for (const t of document.querySelectorAll('#board text')) {
    const px = parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a;
    if (px < min) { min = px; which = t.textContent; }
  }
  return [min, which, document.querySelectorAll('#board text').length];
}"""
# Each element's box in the viewport.
BOXES = """(ids) => Object.fromEntries(ids.map(id => {
  const r = document.getElementById(id).getBoundingClientRect();
  return [id, {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height}];
}))"""
PAGE_SCROLL = "() => [document.scrollingElement.scrollHeight, innerHeight, document.scrollingElement.scrollWidth, innerWidth]"


@contextmanager
def sized_page(browser: Any, server: str, width: int, height: int, phone: bool = False) -> Iterator[Any]:
    """A page of the given size (a touch phone if ``phone``); JavaScript errors fail the test."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=server,
                              is_mobile=phone, has_touch=phone, device_scale_factor=1)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if CSP_CONSOLE in m.text else None)
    try:
        yield pg
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors or CSP violations on the page: {errors}"


def shoot(page: Any, tmp_path: Path, name: str) -> Path:
    out = tmp_path / f"{name}.png"
    page.screenshot(path=str(out))
    SHOTS.mkdir(exist_ok=True)
    shutil.copy(out, SHOTS / out.name)
    return out


def create_vs_ai(server: str, size: int = 3, level: str = "easy", turn_limit: int | None = None) -> tuple[str, str]:
    body: dict[str, Any] = {"players": 2, "size": size, "seats": ["human", f"ai:{level}"], "mode": "vs_ai"}
    if turn_limit is not None:
        body["turn_limit"] = turn_limit
    r = api.post(f"{server}/api/games", json=body)
    assert r.status_code == 201, r.text
    made = r.json()
    return made["game_id"], made["seats"][0]["token"]


def create_online(server: str, players: int = 2) -> dict:
    r = api.post(f"{server}/api/games", json={"players": players, "seats": ["human"] * players, "mode": "online"})
    assert r.status_code == 201, r.text
    return r.json()


def assert_fits(page: Any) -> None:
    """No page scroll; the board, the orders, the hand and the log all inside the window."""
    sh, ih, sw, iw = page.evaluate(PAGE_SCROLL)
    assert sh <= ih and sw <= iw, f"the page scrolls: {sh}x{sw} in a {ih}x{iw} window"
    boxes = page.evaluate(BOXES, ["board", "main-btns", "hand-panel", "log-panel", "info", "banner"])
    for name, b in boxes.items():
        assert b["width"] > 0 and b["height"] > 0, f"{name} is not shown"
        assert b["top"] >= 0 and b["bottom"] <= ih + 0.5 and b["left"] >= 0 and b["right"] <= iw + 0.5, (name, b)


def min_board_font(page: Any) -> float:
    size, which, count = page.evaluate(MIN_BOARD_FONT)
    assert count > 0
    assert size >= 11, f"board text {which!r} is drawn at {size:.1f} px"
    return size


def click_action(page: Any, action: dict, tap: bool = False) -> None:
    """Click (or tap) the first control that carries exactly this action."""
    loc = page.locator(f"[data-action='{json.dumps(action, separators=(',', ':'))}']").first
    loc.tap() if tap else loc.click()


def passive_action(s: dict) -> dict:
    kinds = {e["action"]["type"]: e["action"] for e in s["legal"]}
    for k in ("pass", "done", "decline", "end"):
        if k in kinds:
            return kinds[k]
    return s["legal"][0]["action"]


def as_sent(action: dict) -> str:
    """An action as the page writes it into data-action (JSON.stringify: no spaces)."""
    return json.dumps(action, separators=(",", ":"))


# ---------------------------------------------------------------- the table at 1366×768


def test_table_fits_1366x768_with_readable_5x5_board(browser, server: str, tmp_path: Path) -> None:
    game_id, token = create_vs_ai(server, size=5)
    with sized_page(browser, server, 1366, 768) as page:
        page.goto(f"/game/{game_id}?seat={token}")
        s = wait_state(page, my_turn(0), timeout=30000)
        assert page.locator(".turn").inner_text() == f"Turn {s['view']['turn'] + 1} of {s['turn_limit']}"
        assert_fits(page)
        min_board_font(page)
        shoot(page, tmp_path, "table-1366x768")

        # Build a ship from the homeworld's menu (the option shows the card's numbers), end the turn.
        home = s["view"]["players"][0]["homeworld"]
        shape = page.locator(f'g.tile[data-pos="{home}"] polygon.tile-shape')
        box = shape.bounding_box()
        shape.click(position={"x": box["width"] * 0.22, "y": box["height"] * 0.5})
        build = next(e for e in s["legal"] if e["action"]["type"] == "build" and e.get("card"))
        button = page.locator(f"#menu [data-action='{as_sent(build['action'])}']")
        assert button.locator(".ostats").inner_text().startswith(f"{build['card']['cost']} cr")
        step = s["step"]
        button.click()
        s = wait_state(page, f"s.step > {step}")
        page.locator('#main-btns button[data-type="end"]').click()
        s = wait_state(page, f"{my_turn(0)} && s.view.turn > {s['view']['turn']}", timeout=30000)
        # The AI's move: its lines in the "last move" strip and marked in the log.
        page.wait_for_selector("#last-move:not(.hidden)")
        assert "P1" in page.locator("#last-move").inner_text()
        assert page.locator("#log div.new").count() >= 1
        assert_fits(page)
        min_board_font(page)
        shoot(page, tmp_path, "table-1366x768-turn2")


@pytest.mark.parametrize("width,height", [(1920, 1080), (1600, 900)])
def test_table_fits_larger_screens_too(browser, server: str, width: int, height: int) -> None:
    """"1366x768 and up": on larger windows the table still fits, on 3x3 and on 5x5."""
    for size in (3, 5):
        game_id, token = create_vs_ai(server, size=size)
        with sized_page(browser, server, width, height) as page:
            page.goto(f"/game/{game_id}?seat={token}")
            wait_state(page, my_turn(0), timeout=30000)
            assert_fits(page)
            min_board_font(page)


def test_zoom_buttons_wheel_and_drag_change_the_view(browser, server: str) -> None:
    game_id, token = create_vs_ai(server, size=5)
    with sized_page(browser, server, 1366, 768) as page:
        page.goto(f"/game/{game_id}?seat={token}")
        wait_state(page, "s.seat === 0")

        def vb() -> list[float]:
            return [float(x) for x in page.locator("#board").get_attribute("viewBox").split()]

        page.wait_for_function("() => document.querySelectorAll('#board g.tile').length === 25")
        whole = vb()
        font_before = min_board_font(page)
        page.locator("#zoom-in").click()
        page.wait_for_function(f"() => document.getElementById('board').viewBox.baseVal.width < {whole[2] - 1}")
        zoomed = vb()
        assert zoomed[2] < whole[2] / 1.3 and zoomed[3] < whole[3] / 1.3
        # Zoomed in, the smallest text is still at least 11 px, and tile names are larger on screen.
        name_px = "() => { const t = document.querySelector('#board g.tile text'); return t.getBoundingClientRect().height; }"
        assert min_board_font(page) >= font_before - 0.01
        page.locator("#zoom-in").click()
        page.wait_for_function(f"() => document.getElementById('board').viewBox.baseVal.width < {zoomed[2] - 1}")
        big = page.evaluate(name_px)
        # A drag pans the board.
        before = vb()
        board = page.locator("#board").bounding_box()
        cx, cy = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2
        page.mouse.move(cx, cy)
        page.mouse.down()
        page.mouse.move(cx + 120, cy + 60, steps=6)
        page.mouse.up()
        page.wait_for_function(f"() => document.getElementById('board').viewBox.baseVal.x !== {before[0]}")
        after = vb()
        assert after[0] < before[0] and after[1] < before[1] and after[2] == pytest.approx(before[2])
        # The wheel zooms out again; the fit button shows the whole board.
        page.mouse.wheel(0, 400)
        page.wait_for_function(f"() => document.getElementById('board').viewBox.baseVal.width > {after[2] + 1}")
        page.locator("#zoom-fit").click()
        page.wait_for_function(f"() => Math.abs(document.getElementById('board').viewBox.baseVal.width - {whole[2]}) < 0.5")
        assert page.evaluate(name_px) < big
        min_board_font(page)


def test_each_seat_sees_its_homeworld_at_the_bottom(browser, server: str) -> None:
    centre_y = """(pos) => { const r = document.querySelector(`g.tile[data-pos="${pos}"] polygon.tile-shape`).getBoundingClientRect();
                            return r.top + r.height / 2; }"""
    all_y = "() => [...document.querySelectorAll('g.tile polygon.tile-shape')].map(p => { const r = p.getBoundingClientRect(); return r.top + r.height / 2; })"
    for players in (2, 3):
        r = api.post(f"{server}/api/games", json={"players": players, "size": 4, "seats": ["human"] * players,
                                                    "mode": "hotseat"})
        made = r.json()
        tokens = {s["seat"]: s["token"] for s in made["seats"]}
        homes = api_state(server, made["game_id"], None)["view"]["players"]
        with sized_page(browser, server, 1366, 768) as page:
            for seat in range(players):
                page.goto(f"/game/{made['game_id']}?seat={tokens[seat]}")
                wait_state(page, f"s.seat === {seat}")
                page.wait_for_selector("g.tile")
                home = homes[seat]["homeworld"]
                assert page.evaluate(centre_y, home) == pytest.approx(max(page.evaluate(all_y)), abs=0.5), (players, seat)
            page.goto(f"/game/{made['game_id']}")
            wait_state(page, "s.seat === null")
            page.wait_for_selector("g.tile")
            ys = page.evaluate(all_y)
            assert page.evaluate(centre_y, 0) == pytest.approx(min(ys), abs=0.5)
            assert page.evaluate(centre_y, 15) == pytest.approx(max(ys), abs=0.5)


def test_whole_game_at_1366x768_never_scrolls(browser, server: str) -> None:
    game_id, token = create_vs_ai(server, size=4, level="normal", turn_limit=3)
    with sized_page(browser, server, 1366, 768) as page:
        page.goto(f"/game/{game_id}?seat={token}")
        s = wait_state(page, "s.seat === 0")
        clicks = 0
        while not s["over"]:
            assert clicks < 200, "the game did not end"
            if s["to_move"] != 0 or not s["legal"]:
                page.wait_for_timeout(50)
                s = state(page)
                continue
            assert_fits(page)
            min_board_font(page)
            build = next((e["action"] for e in s["legal"] if e["action"]["type"] == "build"), None)
            step = s["step"]
            click_action(page, build or passive_action(s))
            clicks += 1
            s = wait_state(page, f"s.step !== {step}", timeout=30000)
        page.wait_for_selector("#over:not(.hidden)")
        assert page.locator("#over-reason").inner_text() in (
            "By conquest: the last player still holding their homeworld wins.",
            "The turn limit was reached: most developments wins, then most credits.")
        min_board_font(page)


# ---------------------------------------------------------------- a phone held upright


def test_phone_portrait_plays_a_whole_game_by_tapping(browser, server: str, tmp_path: Path) -> None:
    game_id, token = create_vs_ai(server, size=3, turn_limit=3)
    with sized_page(browser, server, 390, 844, phone=True) as page:
        page.goto(f"/game/{game_id}?seat={token}")
        s = wait_state(page, my_turn(0), timeout=30000)
        # Seat and turn on top without scrolling; the board above the orders; no page scroll.
        boxes = page.evaluate(BOXES, ["info", "banner", "board", "actions", "hand"])
        assert boxes["info"]["bottom"] <= 844 and boxes["banner"]["bottom"] <= 844
        info = page.locator("#info").inner_text()
        assert "you are P0" in info and f"Turn {s['view']['turn'] + 1} of 3" in info
        assert boxes["board"]["bottom"] <= boxes["actions"]["top"]
        sh, ih, sw, iw = page.evaluate(PAGE_SCROLL)
        assert sh <= ih and sw <= iw
        assert page.evaluate("() => getComputedStyle(document.getElementById('hand')).overflowX") == "auto"
        assert page.evaluate("() => getComputedStyle(document.getElementById('hand')).flexWrap") == "nowrap"
        min_board_font(page)
        shoot(page, tmp_path, "table-390x844")
        # A long press on a vessel shows its card.
        scout = next(v for v in s["view"]["vessels"] if v["owner"] == 0)
        ves = page.locator(f'g.vessel[data-vessel="{scout["id"]}"]')
        ves.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True, "bubbles": True})
        page.wait_for_selector("#cardpop:not(.hidden)")
        assert scout["name"] in page.locator("#cardpop").inner_text()
        ves.dispatch_event("pointerup", {"pointerType": "touch", "bubbles": True})

        # Tap through the game: develop when possible, else the do-nothing answer.
        taps = 0
        while not s["over"]:
            assert taps < 200, "the game did not end"
            if page.locator("#pass").is_visible() or s["to_move"] != 0 or not s["legal"]:
                page.wait_for_timeout(50)
                s = state(page)
                continue
            develop = next((e["action"] for e in s["legal"] if e["action"]["type"] == "develop"), None)
            step = s["step"]
            click_action(page, develop or passive_action(s), tap=True)
            taps += 1
            s = wait_state(page, f"s.step !== {step}", timeout=30000)
        page.wait_for_selector("#over:not(.hidden)")
        assert s["over_reason"] == "turn_limit"
        assert "turn limit" in page.locator("#over-reason").inner_text()
        assert page.locator("#over-replay").get_attribute("href") == f"/replay/{game_id}"
        page.wait_for_function("() => /P0/.test(document.getElementById('over-summary').innerText) && "
                               "/P1/.test(document.getElementById('over-summary').innerText)")
        shoot(page, tmp_path, "game-over-390x844")


# ---------------------------------------------------------------- options


def test_every_option_carries_its_action_and_a_unique_label(browser, server: str) -> None:
    game_id, token = create_vs_ai(server, size=4)
    with sized_page(browser, server, 1366, 768) as page:
        page.goto(f"/game/{game_id}?seat={token}")
        s = wait_state(page, my_turn(0), timeout=30000)
        legal = {as_sent(e["action"]): e for e in s["legal"]}
        shown = page.evaluate("""() => [...document.querySelectorAll('#actions [data-action]')].map(b => ({
            action: b.dataset.action, title: b.title,
            label: (b.querySelector('.olabel') || b).textContent }))""")
        assert {x["action"] for x in shown} == set(legal), "every legal action has a control, and nothing else"
        by_label: dict[str, set[str]] = {}
        for x in shown:
            by_label.setdefault(x["label"], set()).add(x["action"])
            entry = legal[x["action"]]
            assert x["title"] == entry["text"]
            if entry.get("label"):
                assert x["label"] == entry["label"]
        assert all(len(v) == 1 for v in by_label.values()), {k: v for k, v in by_label.items() if len(v) > 1}
        # Hovering an option with a card shows the whole card.
        build = next(e for e in s["legal"] if e["action"]["type"] == "build" and e.get("card"))
        page.locator(f"#actions [data-action='{as_sent(build['action'])}']").hover()
        page.wait_for_selector("#cardpop:not(.hidden)")
        pop = page.locator("#cardpop").inner_text()
        assert build["card"]["name"] in pop and build["card"]["text"] in pop
        assert f"{build['card']['cost']}\ncredits" in pop or f"{build['card']['cost']} credits" in pop


SYNTHETIC = """() => {
  const amounts = [];
  for (let x = 1; x <= 300; x++) amounts.push({action: {type: 'ability', source: 7, targets: [41, x]},
    text: `P0 uses Gizmo (P0's Frigate, ${x})`, label: `Gizmo: Frigate +${x}`});
  const few = [1, 2, 3].map(x => ({action: {type: 'assign', vessel: 41, target: 50, amount: x},
    text: `P0's Frigate aims ${x} damage at P1's Scout`}));
  const places = [];
  for (let to = 0; to < 9; to++) places.push({action: {type: 'jump', vessel: 41, to, explore: 0, carry: 0},
    text: `P0 jumps Frigate from a1 to pos${to}`});
  const ids = [];
  for (let v = 60; v < 70; v++) ids.push({action: {type: 'play', card: 9, targets: [v]}, text: `P0 plays Zap (P1's Ship${v})`});
  const shape = (list) => groupOptions(list).map(g => g.kind === 'amount' ? ['amount', g.values.length, g.path.join('.')] : ['single']);
  return {
    amounts: shape(amounts), few: shape(few), places: shape(places), ids: shape(ids),
    mixed: shape([few[0], ...amounts.slice(0, 10), places[0]]),
    labels: distinctLabels([{action: {type: 'jump', to: 3, explore: 1}}, {action: {type: 'jump', to: 3, explore: 0}}], () => 'Jump to a2'),
  };
}"""


def test_amount_grouping_rules(page, server: str) -> None:
    page.goto("/game/000000000000")  # any game page: only its scripts are used
    page.wait_for_function("() => typeof groupOptions === 'function'")
    out = page.evaluate(SYNTHETIC)
    assert out["amounts"] == [["amount", 300, "targets.1"]]
    assert out["few"] == [["single"]] * 3  # three values: three buttons
    assert out["places"] == [["single"]] * 9  # places are clicked on the board, never a slider
    assert out["ids"] == [["single"]] * 10  # the number is an id (the sentence shows a name)
    assert out["mixed"] == [["single"], ["amount", 10, "targets.1"], ["single"]]
    assert out["labels"][0] != out["labels"][1] and all(l.startswith("Jump to a2") for l in out["labels"])


def test_long_amount_choice_is_one_slider_with_a_confirm_button(page, server: str) -> None:
    game_id, tokens = create_hotseat(server, seed=1)
    s = api_state(server, game_id, tokens[0])
    scout = next(v for v in s["view"]["vessels"] if v["owner"] == 0)
    # A made-up decision with 500 amounts (as a card ability that spends credits offers them).
    amounts = [{"action": {"type": "ability", "source": scout["id"], "targets": [scout["id"], x]},
                "text": f"P0 uses Gizmo ({scout['name']}, {x})", "label": f"Gizmo: {scout['name']} +{x}"}
               for x in range(1, 501)]
    s["legal"] = [e for e in s["legal"] if e["action"]["type"] == "end"] + amounts
    sent: list[dict] = []

    def socket(ws: Any) -> None:
        ws.send(json.dumps({**s, "type": "state"}))
        ws.on_message(lambda m: sent.append(json.loads(m)))

    page.route(lambda url: f"/api/games/{game_id}" in url and "summary" not in url,
               lambda route: route.fulfill(status=200, content_type="application/json", json=s))
    page.route_web_socket(WS, socket)
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    wait_state(page, "s.legal.length === 501")
    page.wait_for_selector("#groups .amount")
    assert page.locator("#groups .amount").count() == 1
    assert page.locator("#groups button[data-type='ability']").count() == 1  # not 500 buttons
    confirm = page.locator("#groups .amount button.confirm")
    assert json.loads(confirm.get_attribute("data-action")) == amounts[-1]["action"]
    page.locator("#groups .amount input[type='number']").fill("37")
    assert json.loads(confirm.get_attribute("data-action")) == amounts[36]["action"]
    assert confirm.inner_text().endswith(amounts[36]["label"])
    page.locator("#groups .amount input[type='range']").evaluate(
        "(r) => { r.value = '9'; r.dispatchEvent(new Event('input')); }")
    assert json.loads(confirm.get_attribute("data-action")) == amounts[9]["action"]
    assert page.locator("#groups .amount input[type='number']").input_value() == "10"
    confirm.click()
    page.wait_for_function("() => document.getElementById('banner').textContent === 'Sending…'")
    actions = [m for m in sent if m.get("type") == "action"]
    assert actions and actions[-1]["action"] == amounts[9]["action"]


def test_card_targets_are_picked_on_the_board(page, server: str) -> None:
    game_id, tokens = create_hotseat(server, seed=1)
    s = api_state(server, game_id, tokens[0])
    card = {"id": 9999, "name": "Zap", "text": "Made up: hits a vessel.", "domain": "science", "kind": "command"}
    s["view"]["hand"] = [card]
    plays = [{"action": {"type": "play", "card": 9999, "targets": [v["id"]]},
              "text": f"P0 plays Zap (P{v['owner']}'s {v['name']})", "label": f"Zap P{v['owner']}'s {v['name']}"}
             for v in s["view"]["vessels"]]
    s["legal"] = [e for e in s["legal"] if e["action"]["type"] == "end"] + plays
    sent: list[dict] = []

    def socket(ws: Any) -> None:
        ws.send(json.dumps({**s, "type": "state"}))
        ws.on_message(lambda m: sent.append(json.loads(m)))

    page.route(lambda url: f"/api/games/{game_id}" in url,
               lambda route: route.fulfill(status=200, content_type="application/json", json=s))
    page.route_web_socket(WS, socket)
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    wait_state(page, "s.view.hand.length === 1")
    assert page.locator("#hand .card .cplay").inner_text().strip().lower().endswith("play")
    # The Play mark has its own line at the card's foot: it covers neither the name nor the text.
    boxes = page.evaluate("""() => Object.fromEntries(['cname', 'ctext', 'cplay'].map(c => {
        const r = document.querySelector(`#hand .card .${c}`).getBoundingClientRect(); return [c, [r.top, r.bottom]]; }))""")
    assert boxes["cplay"][0] >= boxes["cname"][1] and boxes["cplay"][0] >= boxes["ctext"][1] - 0.5
    # The orders offer the card once, with how many ways it can be played: its targets are a
    # second step, on the board or in a list.
    step = page.locator("#groups button.step-btn")
    assert step.inner_text().startswith("Play Zap") and f"({len(plays)} ways)" in step.inner_text()
    page.locator('#hand .card[data-card="9999"]').click()
    page.wait_for_selector("g.vessel.pick")
    picks = page.eval_on_selector_all("g.vessel.pick", "els => els.map(e => Number(e.dataset.vessel))")
    assert sorted(picks) == sorted(v["id"] for v in s["view"]["vessels"])
    # The list stays as a fallback, with every option.
    assert page.locator("#groups .picking [data-action]").count() == len(plays)
    theirs = next(v for v in s["view"]["vessels"] if v["owner"] == 1)
    page.locator(f'g.vessel.pick[data-vessel="{theirs["id"]}"]').click()
    page.wait_for_function("() => document.getElementById('banner').textContent === 'Sending…'")
    actions = [m for m in sent if m.get("type") == "action"]
    assert actions and actions[-1]["action"] == {"type": "play", "card": 9999, "targets": [theirs["id"]]}


def test_a_card_from_another_hand_shows_its_text_and_card(page, server: str) -> None:
    """A choice naming a card the seat has only just seen (Spy Network: take a card from another
    player's hand): the button says what the card does, and hovering it shows the whole card."""
    game_id, tokens = create_hotseat(server, seed=1)
    s = api_state(server, game_id, tokens[0])
    sheet = {"name": "Evasion", "domain": "science", "kind": "command", "cost": None,
             "text": "Made up here: a vessel of yours slips out of the fight."}
    s["view"]["decision"] = "choice"
    s["view"]["choice"] = {"player": 0, "kind": "Spy Network", "cards": True}
    s["legal"] = [{"action": {"type": "choose", "value": 9998}, "text": "P0 picks Evasion",
                   "label": "Take Evasion from P1's hand", "card": sheet}]

    def socket(ws: Any) -> None:
        ws.send(json.dumps({**s, "type": "state"}))

    page.route(lambda url: f"/api/games/{game_id}" in url and "summary" not in url,
               lambda route: route.fulfill(status=200, content_type="application/json", json=s))
    page.route_web_socket(WS, socket)
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    wait_state(page, "s.legal.length === 1")
    button = page.locator('#choice-box button[data-type="choose"]')
    button.wait_for()
    assert button.inner_text().startswith("Take Evasion from P1's hand")
    assert sheet["text"] in button.inner_text()
    button.hover()
    page.wait_for_selector("#cardpop:not(.hidden)")
    pop = page.locator("#cardpop").inner_text()
    assert "Evasion" in pop and sheet["text"] in pop


# ---------------------------------------------------------------- talking, helping, settings


def test_chat_shows_markup_as_text(browser, server: str) -> None:
    made = create_online(server)
    with sized_page(browser, server, 1366, 768) as page, sized_page(browser, server, 390, 844, phone=True) as guest:
        page.goto(made["links"]["seats"]["0"])
        guest.goto(made["links"]["invites"]["1"])
        wait_state(page, "s.seat === 0")
        wait_state(guest, "s.seat === 1")
        page.locator("#tab-chat").click()
        box = page.locator("#chat-input")
        assert box.get_attribute("maxlength") == "300"
        box.fill(EVIL)
        box.press("Enter")
        page.wait_for_function("(t) => document.getElementById('chat-lines').innerText.includes(t)", arg=EVIL)
        assert page.locator("#chat-lines .chat-text").last.inner_text() == EVIL
        assert page.evaluate("() => document.querySelectorAll('img').length") == 0
        # The other seat, reading the log: the line shows over the board, and the tab counts it.
        guest.wait_for_selector("#chat-bubble:not(.hidden)")
        assert guest.locator("#chat-bubble").inner_text() == f"P0: {EVIL}"
        assert guest.locator("#tab-chat").text_content() == "Chat (1 new)"
        assert guest.evaluate("() => document.querySelectorAll('img').length") == 0
        guest.locator("#chat-bubble").tap()
        assert guest.locator("#chat-lines .chat-text").inner_text() == EVIL
        assert guest.locator("#tab-chat").text_content() == "Chat" and guest.locator("#chat-bubble").is_hidden()
        # A later state message carries the line too (and it is not shown twice).
        page.reload()
        wait_state(page, f"s.chat.some(m => m.text === {json.dumps(EVIL)})")
        page.locator("#tab-chat").click()
        assert page.locator("#chat-lines .chat-text").all_inner_texts() == [EVIL]
        assert page.locator("#hint-btn").is_hidden()  # no hints in online games


def test_chat_is_only_for_online_games(page, server: str) -> None:
    game_id, tokens = create_hotseat(server, seed=2)
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    wait_state(page, "s.seat === 0")
    assert page.locator("#tab-chat").is_hidden()
    assert page.locator("#tab-log").is_visible()


def test_settings_reach_the_server_and_the_guide_is_kept(page, server: str) -> None:
    game_id, token = create_vs_ai(server)
    page.goto(f"/game/{game_id}?seat={token}")
    s = wait_state(page, my_turn(0), timeout=30000)
    assert s["settings"] == {"auto_pass": True, "stop_at_responses": True, "auto_single": True, "skip_idle": False}
    # The guide is on for a first game: the decision in one sentence, one per kind of order.
    guide = page.locator("#guide")
    assert guide.is_visible() and guide.inner_text().startswith("Your Command phase")
    assert page.locator("#groups .guide-line").count() >= 2
    page.locator("#settings-btn").click()
    assert page.locator("#set-auto").is_checked() and page.locator("#set-stop").is_checked()
    page.locator("#set-auto").uncheck()
    wait_state(page, "s.settings.auto_pass === false")
    assert page.locator("#set-stop").is_disabled()
    page.locator("#set-auto").check()
    page.locator("#set-stop").uncheck()
    s = wait_state(page, "s.settings.auto_pass === true && s.settings.stop_at_responses === false")
    page.locator("#set-guide").uncheck()
    assert guide.is_hidden() and page.locator("#groups .guide-line").count() == 0
    page.reload()
    s = wait_state(page, "s.seat === 0 && s.legal.length > 0")
    assert s["settings"] == {"auto_pass": True, "stop_at_responses": False, "auto_single": True, "skip_idle": False}
    assert page.locator("#guide").is_hidden()
    page.locator("#settings-btn").click()
    assert not page.locator("#set-guide").is_checked() and not page.locator("#set-stop").is_checked()


def test_hint_answer_is_shown_and_its_option_marked(page, server: str) -> None:
    """The client side alone: a made-up server answers the hint request."""
    game_id, tokens = create_hotseat(server, seed=1)
    s = api_state(server, game_id, tokens[0])
    s["mode"] = "vs_ai"
    develop = next(e for e in s["legal"] if e["action"]["type"] == "develop")
    asked: list[dict] = []

    def socket(ws: Any) -> None:
        ws.send(json.dumps({**s, "type": "state"}))

        def answer(m: str | bytes) -> None:
            msg = json.loads(m)
            if msg.get("type") == "hint":
                asked.append(msg)
                # The keys in another order than in legal: the page must still find the option.
                ws.send(json.dumps({"type": "hint", "step": s["step"], "label": develop.get("label", "Develop"),
                                    "action": dict(reversed(list(develop["action"].items()))), "win_chance": 0.634}))
        ws.on_message(answer)

    page.route(lambda url: f"/api/games/{game_id}" in url,
               lambda route: route.fulfill(status=200, content_type="application/json", json=s))
    page.route_web_socket(WS, socket)
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    wait_state(page, "s.legal.length > 0")
    page.locator("#hint-btn").click()
    page.wait_for_selector("#hint-answer:not(.hidden)")
    page.wait_for_function("() => document.getElementById('hint-answer').innerText.includes('63%')")
    assert asked == [{"type": "hint"}]
    assert page.locator("#hint-answer").inner_text() == \
        f"The AI would: {develop.get('label', 'Develop')} — estimated win chance 63%"
    marked = page.locator("#actions .hinted")
    assert marked.count() == 1 and json.loads(marked.get_attribute("data-action")) == develop["action"]
    assert page.locator(f'g.tile.hinted[data-pos="{develop["action"]["at"]}"]').count() == 1


def test_hint_names_the_ai_choice_and_marks_it(page, server: str) -> None:
    game_id, token = create_vs_ai(server)
    page.goto(f"/game/{game_id}?seat={token}")
    s = wait_state(page, my_turn(0), timeout=30000)
    hint = page.locator("#hint-btn")
    assert hint.is_visible()
    hint.click()
    page.wait_for_function("() => /The AI would: .+ — estimated win chance \\d+%/.test(document.getElementById('hint-answer').innerText)",
                           timeout=60000)
    marked = page.locator("#actions .hinted")
    assert marked.count() >= 1
    first = marked.first
    if first.get_attribute("data-step") is not None:
        # The AI's choice is one of several orders of one card or vessel: its step button is
        # marked, and the second step marks the order itself.
        first.click()
        first = page.locator("#actions .hinted[data-action], #actions .hinted button.confirm").first
        first.wait_for(state="visible", timeout=10000)
    action = json.loads(first.get_attribute("data-action")
                        or first.locator("button.confirm").get_attribute("data-action"))
    assert any(e["action"] == action for e in s["legal"])
    label = next(e.get("label") for e in s["legal"] if e["action"] == action)
    if label:
        assert label in page.locator("#hint-answer").inner_text()


def test_spectators_get_no_hint_button_and_no_orders(page, server: str) -> None:
    game_id, _ = create_vs_ai(server)
    page.goto(f"/game/{game_id}")
    wait_state(page, "s.seat === null")
    assert page.locator("#hint-btn").is_hidden() and page.locator("#actions").is_hidden()


# ---------------------------------------------------------------- what the others did


def test_moves_by_others_are_highlighted_for_a_moment(page, server: str) -> None:
    game_id, tokens = create_hotseat(server, seed=1)
    first = api_state(server, game_id, tokens[0])
    first.update(to_move=1, legal=[])
    later = json.loads(json.dumps(first))
    later["step"] = first["step"] + 1
    theirs = next(v for v in later["view"]["vessels"] if v["owner"] == 1)
    old_pos = theirs["pos"]
    theirs["pos"] = next(p for p in range(9) if p != old_pos)
    home = later["view"]["players"][1]["homeworld"]
    later["view"]["board"][home]["devs"] += 1
    later["log"] = first["log"] + ["P1 jumps its ship somewhere new"]
    still = next(p for p in range(9) if p not in (old_pos, theirs["pos"], home))

    def socket(ws: Any) -> None:
        ws.send(json.dumps({**first, "type": "state"}))
        ws.on_message(lambda m: ws.send(json.dumps({**later, "type": "state"})) if "ping" not in str(m) else None)

    page.route(lambda url: f"/api/games/{game_id}" in url,
               lambda route: route.fulfill(status=200, content_type="application/json", json=first))
    page.route_web_socket(WS, socket)
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    wait_state(page, f"s.step === {first['step']}")
    assert page.locator("#last-move").is_hidden()
    page.evaluate("() => ws.send(JSON.stringify({type: 'undo'}))")  # the fake server answers with `later`
    wait_state(page, f"s.step === {later['step']}")
    assert page.locator(f'g.vessel.changed[data-vessel="{theirs["id"]}"]').count() == 1
    assert page.locator(f'g.tile.changed[data-pos="{old_pos}"]').count() == 1
    assert page.locator(f'g.tile.changed[data-pos="{home}"]').count() == 1
    assert page.locator(f'g.tile.changed[data-pos="{still}"]').count() == 0
    assert "P1 jumps its ship somewhere new" in page.locator("#last-move").inner_text()
    assert page.locator("#log div.new").last.inner_text() == "P1 jumps its ship somewhere new"
    # The marks go after a moment; the strip with the last move stays.
    page.wait_for_function("() => !document.querySelector('#board .changed')", timeout=10000)
    assert page.locator("#last-move").is_visible()


# ---------------------------------------------------------------- errors


def test_unknown_game_says_so_with_a_way_back(page, server: str) -> None:
    page.goto("/game/0123456789ab")
    page.wait_for_selector("#lost:not(.hidden)", timeout=20000)
    assert page.locator("#lost h1").inner_text() == "No such game"
    assert "0123456789ab" in page.locator("#lost-text").inner_text()
    assert page.locator("#lost-hint").inner_text().strip()
    assert page.locator("#lost-reload").is_hidden()  # reloading cannot help
    lobby = page.locator("#lost-lobby")
    assert lobby.is_visible() and lobby.get_attribute("href") == "/"


def test_a_finished_game_opened_later_says_so(page, server: str) -> None:
    game_id, tokens = create_hotseat(server, seed=4, turn_limit=1)
    for _ in range(100):
        public = api_state(server, game_id, None)
        if public["over"]:
            break
        mine = api_state(server, game_id, tokens[public["to_move"]])
        r = api.post(f"{server}/api/games/{game_id}/actions",
                       json={"seat": tokens[public["to_move"]], "action": passive_action(mine), "expect_step": mine["step"]})
        assert r.status_code == 200, r.text
    page.goto(f"/game/{game_id}?seat={tokens[1]}")
    s = wait_state(page, "s.over === true")
    page.wait_for_selector("#over:not(.hidden)")
    assert page.locator("#over-sub").inner_text().startswith("This game had already finished when you opened it.")
    assert page.locator("#over-reason").inner_text() != ""
    assert page.locator("#over-replay").get_attribute("href") == f"/replay/{game_id}"
    assert page.locator("#actions #main-btns [data-action]").count() == 0 and page.locator("#hint-btn").is_hidden()
    page.wait_for_function("() => /P1/.test(document.getElementById('over-summary').innerText)")
    assert s["legal"] == []


def test_used_invite_and_wrong_seat_offer_to_spectate(page, server: str) -> None:
    made = create_online(server)
    game_id = made["game_id"]
    code = made["links"]["invites"]["1"].split("invite=")[1]
    assert api.post(f"{server}/api/games/{game_id}/join", json={"invite": code}).status_code == 200
    page.goto(made["links"]["invites"]["1"])
    page.wait_for_selector("#join-failed:not(.hidden)")
    assert "once" in page.locator("#join-why").inner_text()
    spectate = page.locator("#join-spectate")
    assert spectate.is_visible() and spectate.get_attribute("href") == f"/game/{game_id}"
    spectate.click()
    wait_state(page, "s.seat === null")
    assert "spectating" in page.locator("#info").inner_text()

    # A seat link of the right shape that belongs to no seat.
    page.goto(f"/game/{game_id}?seat={'x' * 24}")
    page.wait_for_selector("#lost:not(.hidden)", timeout=20000)
    assert page.locator("#lost h1").inner_text() == "Not your seat"
    assert page.locator("#lost-spectate").is_visible()
    assert page.locator("#lost-spectate").get_attribute("href") == f"/game/{game_id}"
