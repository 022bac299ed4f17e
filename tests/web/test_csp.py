"""Issue 10 (trust): the pages work under the strict Content-Security-Policy the server sends.

Chromium reports every blocked inline script, inline style or eval both on the console and as a
``securitypolicyviolation`` event; the lobby, a game and a replay are used under the policy and
neither may appear. (The test server adds the policy when the server itself does not send it:
see conftest.py; ``test_server_sends_the_policy_itself`` checks the server's own header.)"""
from __future__ import annotations

from typing import Any

import pytest

from . import api
from .conftest import CSP, CSP_ADDED_HEADER, CSP_CONSOLE
from .test_browser import my_turn, wait_state
from .test_replay import _at, _finished_game

DIRECTIVES = [d.strip() for d in CSP.split(";")]
REPORT = """document.addEventListener('securitypolicyviolation', (e) =>
  window.__cspViolation(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`));"""


def _directives(header: str) -> list[str]:
    return [d.strip() for d in header.split(";") if d.strip()]


@pytest.fixture
def csp_page(browser, server: str) -> Any:
    """A page that records CSP violations (event and console) in ``page.violations``."""
    ctx = browser.new_context(viewport={"width": 1600, "height": 1000}, base_url=server)
    violations: list[str] = []
    errors: list[str] = []
    ctx.expose_binding("__cspViolation", lambda _source, text: violations.append(text))
    ctx.add_init_script(REPORT)
    pg = ctx.new_page()
    pg.on("console", lambda m: violations.append("console: " + m.text) if CSP_CONSOLE in m.text else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.violations = violations  # type: ignore[attr-defined]
    yield pg
    ctx.close()
    assert not errors, errors


def test_lobby_game_and_replay_without_violations(csp_page, server: str) -> None:
    page = csp_page
    response = page.goto("/")
    assert response is not None
    assert set(DIRECTIVES) <= set(_directives(response.headers["content-security-policy"]))

    # Lobby: the form, an online game's links box (inputs, copy buttons), the lists.
    page.wait_for_selector("#seats select")
    page.locator('#mode button[data-v="online"]').click()
    page.locator('#players button[data-v="3"]').click()
    page.locator("#create").click()
    page.wait_for_selector("#links .link-row.invite")
    page.locator("#links .link-row.invite button.copy").first.click()
    page.wait_for_selector("#all-games li a")

    # A game: the board, selecting a ship, a menu of orders, the players' cards.
    page.get_by_role("button", name="Play against the AI").click()
    page.wait_for_url("**/game/**?seat=*")
    s = wait_state(page, "s.seat !== null")
    s = wait_state(page, my_turn(s["seat"]), timeout=60000)
    scout = next(v for v in s["view"]["vessels"] if v["owner"] == s["seat"] and v["name"] == "Scout")
    page.locator(f'g.vessel[data-vessel="{scout["id"]}"]').click()
    page.wait_for_selector("g.tile.dest")
    home = s["view"]["players"][s["seat"]]["homeworld"]
    page.keyboard.press("Escape")
    shape = page.locator(f'g.tile[data-pos="{home}"] polygon.tile-shape')
    box = shape.bounding_box()
    shape.click(position={"x": box["width"] * 0.22, "y": box["height"] * 0.5})
    page.wait_for_selector("#menu:not(.hidden)")
    page.locator("#menu button.danger").click()
    assert page.locator("#players .player-card").count() == 2

    # A replay: step forward and to the end.
    gid, total = _finished_game(server)
    page.goto(f"/replay/{gid}")
    _at(page, 0, total)
    page.locator("#step-forward").click()
    _at(page, 1, total)
    page.locator("#step-last").click()
    _at(page, total, total)

    assert page.violations == [], page.violations

    # The detector works: a style attribute set from script is blocked and reported.
    page.evaluate("() => document.body.setAttribute('style', 'outline: 1px solid red')")
    page.wait_for_timeout(300)
    assert any("style-src" in v for v in page.violations), page.violations


def test_server_sends_the_policy_itself(server: str) -> None:
    """Waits for the server's security headers (issue 10): without them the wrapper adds its copy."""
    for path in ("/", "/game/abc", "/replay/abc", "/static/game.js", "/static/app.css", "/api/games"):
        r = api.get(server + path)
        assert CSP_ADDED_HEADER not in r.headers, f"{path}: the server sent no Content-Security-Policy"
        assert set(DIRECTIVES) <= set(_directives(r.headers["content-security-policy"])), path
