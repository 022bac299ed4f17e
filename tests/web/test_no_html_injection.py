"""Issue 10 (trust), web side: nothing the server or another player sends can become markup.

The static files never hand strings to the HTML parser and contain nothing a strict
Content-Security-Policy would block (inline script, inline style, event handler attributes). In
Chromium, error messages, lobby entries, log lines, card texts, seat kinds and order texts that
look like HTML show up as text, and no element is made from them."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Callable


from . import api
from .test_browser import wait_state
from .test_play_screens import api_state, create_hotseat

STATIC = Path(__file__).resolve().parents[2] / "src" / "starcom" / "web" / "static"
# Each game's own browser files (its entry's serving.web), which the same pages load.
GAME_WEB = [STATIC.parents[1] / game / "web" for game in ("sc", "ge")]
# An element made from this would show up as <img> with an onerror attribute.
EVIL = '<img src=x onerror="window.__pwned=1">'
EVIL_RULE = "<b>R-1</b>"
# Nothing made from data: no <img> anywhere on our pages, no element carrying an on... attribute.
NO_INJECTED = """() => ({
  imgs: document.querySelectorAll('img').length,
  handlers: [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
  pwned: window.__pwned === 1,
})"""
CLEAN = {"imgs": 0, "handlers": 0, "pwned": False}

# Ways to turn a string into markup or code, and the one way to set an inline style from JS that
# the CSP blocks.
FORBIDDEN_JS = [r"\binnerHTML\b", r"\bouterHTML\b", r"\binsertAdjacentHTML\b", r"\bdocument\.write(ln)?\b",
                r"\beval\s*\(", r"\bnew\s+Function\b", r"\bsetTimeout\(\s*[\"'`]", r"\bsetInterval\(\s*[\"'`]",
                r"setAttribute\(\s*[\"']style[\"']", r"\.cssText\b", r"javascript:", r"createContextualFragment",
                r"DOMParser"]


def test_static_js_never_parses_html() -> None:
    files = sorted(STATIC.glob("*.js"))
    assert {p.name for p in files} >= {"dom.js", "seats.js", "tables.js", "index.js", "game.js", "replay.js"}
    games = sorted(p for web in GAME_WEB for p in web.glob("*.js"))
    assert {p.name for p in games} >= {"board.js", "table.js", "ge-table.js"}
    files += games
    found = []
    for path in files:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for pattern in FORBIDDEN_JS:
                if re.search(pattern, line):
                    found.append(f"{path.name}:{n}: {pattern}: {line.strip()}")
    assert not found, "HTML parsing / inline code in the static JS:\n" + "\n".join(found)


class _InlineFinder(HTMLParser):
    """Collects what a strict CSP would block in a page: inline scripts, style blocks and
    attributes, event handler attributes, javascript: URLs; and scripts loaded from elsewhere."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        where = f"line {self.getpos()[0]} <{tag}>"
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"{where}: event handler attribute {name}")
            if name == "style":
                self.problems.append(f"{where}: style attribute")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"{where}: javascript: URL in {name}")
        if tag == "style":
            self.problems.append(f"{where}: <style> block")
        if tag == "script":
            src = dict(attrs).get("src")
            if not src:
                self.problems.append(f"{where}: inline <script>")
            elif not src.startswith("/static/"):
                self.problems.append(f"{where}: script from {src}")
            else:
                self.scripts.append(src)
            self._in_script = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.problems.append(f"line {self.getpos()[0]}: code inside <script src>")


def test_pages_have_nothing_inline() -> None:
    for name in ("index.html", "game.html", "replay.html"):
        finder = _InlineFinder()
        finder.feed((STATIC / name).read_text())
        assert not finder.problems, f"{name}: " + "; ".join(finder.problems)
        # dom.js first: the page scripts use its helpers at load time.
        assert finder.scripts[0] == "/static/dom.js", (name, finder.scripts)
    # Each game's own pages (How to play, the card glossary), among its browser files.
    pages = sorted(p for web in GAME_WEB for p in web.glob("*.html"))
    assert {p.name for p in pages} >= {"help.html", "cards.html", "ge-help.html", "ge-cards.html"}
    for path in pages:
        finder = _InlineFinder()
        finder.feed(path.read_text())
        assert not finder.problems, f"{path.name}: " + "; ".join(finder.problems)
        assert not finder.scripts or finder.scripts[0] == "/static/dom.js", (path.name, finder.scripts)
    for css_file in [STATIC / "app.css", *(p for web in GAME_WEB for p in web.glob("*.css"))]:
        css = css_file.read_text()
        assert "expression(" not in css and "javascript:" not in css, css_file.name


def _json_route(status: int, body: Any) -> Callable[[Any], None]:
    return lambda route: route.fulfill(status=status, content_type="application/json", body=json.dumps(body))


def test_lobby_error_and_lists_are_text(page) -> None:
    fake = {"game_id": EVIL, "players": 2, "size": 3, "edition": EVIL, "mode": "online", "free_seats": [1],
            "over": False, "turn": 0, "takeover_level": EVIL}

    def lists(route: Any) -> None:
        url = route.request.url
        if route.request.method == "GET" and "/api/games" in url and "/api/games/" not in url:
            route.fulfill(status=200, content_type="application/json", body=json.dumps({"games": [fake]}))
        elif route.request.method == "POST" and url.endswith("/api/games"):
            _json_route(400, {"error": EVIL, "rule": EVIL_RULE})(route)
        else:
            route.fallback()

    page.route(lambda url: "/api/games" in url, lists)
    page.goto("/")
    page.wait_for_function("() => document.getElementById('all-games').innerText.includes('<img')")
    assert EVIL in page.locator("#open-games").inner_text()
    assert EVIL in page.locator("#all-games").inner_text()
    # The id only ever reaches a link as an encoded path segment.
    href = page.locator("#all-games a").first.get_attribute("href")
    assert href.startswith("/game/") and "<" not in href and '"' not in href

    page.get_by_role("button", name="Play against the AI").click()
    page.wait_for_selector("#home-error:not(.hidden)")
    assert page.locator("#home-error").inner_text() == f"[{EVIL_RULE}] {EVIL}"
    assert page.evaluate(NO_INJECTED) == CLEAN


def test_game_page_shows_server_text_as_text(page, server: str) -> None:
    """A state message (over HTTP and the socket) full of markup-like text, and a socket error."""
    game_id, tokens = create_hotseat(server, seed=1)
    s = api_state(server, game_id, tokens[0])
    assert s["to_move"] == 0 and s["legal"]
    s["log"] = [EVIL, f"P1 says {EVIL_RULE}"]
    # (The hand is empty at the start: one made-up card.)
    s["view"]["hand"] = [{"id": 9999, "name": EVIL, "text": EVIL_RULE, "domain": "science", "kind": EVIL}]
    for entry in s["legal"]:
        entry["text"] = entry["label"] = EVIL
    s["view"]["board"][0]["name"] = EVIL
    s["seats"][1]["kind"] = "ai:" + EVIL
    s["seats"][1]["ai"] = EVIL
    state = {**s, "type": "state"}
    sent: list[dict] = []

    def socket(ws: Any) -> None:
        ws.send(json.dumps(state))

        def answer(message: str | bytes) -> None:
            msg = json.loads(message)
            sent.append(msg)
            if msg.get("type") == "action":
                ws.send(json.dumps({"type": "error", "error": EVIL, "rule": EVIL_RULE}))
        ws.on_message(answer)

    page.route(lambda url: f"/api/games/{game_id}" in url, _json_route(200, s))
    page.route_web_socket(re.compile(r".*/ws/games/.*"), socket)
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    wait_state(page, "s.log[0].startsWith('<img')")
    page.wait_for_function("() => document.getElementById('log').innerText.includes('<img')")
    assert page.locator("#log div").first.inner_text() == EVIL
    assert page.locator("#hand .card .cname").first.inner_text() == EVIL
    assert page.locator("#hand .card .ctext").first.inner_text() == EVIL_RULE
    assert EVIL in page.locator("#players").inner_text()
    assert page.locator('g.tile[data-pos="0"] text').first.text_content() == EVIL
    assert page.evaluate("() => [...document.querySelectorAll('#actions button')].some(b => b.textContent.includes('<img'))")
    assert page.evaluate(NO_INJECTED) == CLEAN

    # An error from the server: shown with its rule, as text.
    page.evaluate("() => send({type: 'end'})")
    page.wait_for_selector("#toast:not(.hidden)")
    assert page.locator("#toast").inner_text() == f"[{EVIL_RULE}] {EVIL}"
    assert any(m.get("type") == "action" for m in sent)
    assert page.evaluate(NO_INJECTED) == CLEAN


def test_engine_error_echoing_the_input_is_text(page, server: str) -> None:
    """End to end: the engine's refusal names the unknown action type it was sent."""
    game_id, tokens = create_hotseat(server, seed=1)
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    wait_state(page, "s.seat === 0 && s.legal.length > 0")
    page.evaluate("(evil) => send({type: evil})", EVIL)
    page.wait_for_selector("#toast:not(.hidden)")
    toast = page.locator("#toast").inner_text()
    assert "<img" in toast, toast  # the refusal quotes what it was sent, as text
    assert page.evaluate(NO_INJECTED) == CLEAN


def test_refused_invite_error_is_text(page, server: str) -> None:
    r = api.post(f"{server}/api/games", json={"players": 2, "seats": ["human", "human"], "mode": "online"})
    game_id = r.json()["game_id"]
    page.route(lambda url: url.endswith(f"/api/games/{game_id}/join"), _json_route(409, {"error": EVIL, "rule": None}))
    page.goto(f"/game/{game_id}?invite=AAAAAAAAAAAAAAAAAAAAAAAA")
    page.wait_for_selector("#join-failed:not(.hidden)")
    assert page.locator("#join-error").inner_text() == EVIL
    assert page.evaluate(NO_INJECTED) == CLEAN
