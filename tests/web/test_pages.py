"""The pages around the game, in real headless Chromium: How to play, the card glossary, the
lobby's turn limit and errors, and the replay (its log follows the slider; the summary of the
finished game at its end)."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from . import api


def shot(page, tmp_path: Path, name: str) -> None:
    """Keep a screenshot of the page in the test's temporary folder, for people to look at."""
    out = tmp_path / "screenshots"
    out.mkdir(exist_ok=True)
    page.screenshot(path=str(out / f"{name}.png"))


@pytest.fixture(scope="module")
def finished(server: str) -> dict[str, Any]:
    """A finished all-AI game (2 players, 3x3, turn limit 8): its id, its number of steps and
    its summary."""
    r = api.post(server + "/api/games", json={"seats": ["ai:greedy", "ai:greedy"], "turn_limit": 8, "seed": 5})
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    end = time.monotonic() + 60
    while not api.get(f"{server}/api/games/{gid}").json()["over"]:
        assert time.monotonic() < end, "the all-AI game did not finish"
        time.sleep(0.05)
    steps = len(api.get(f"{server}/api/games/{gid}/replay").json()["actions"])
    summary = api.get(f"{server}/api/games/{gid}/summary")
    assert summary.status_code == 200, summary.text
    return {"id": gid, "steps": steps, "summary": summary.json()}


# ------------------------------------------------------------------ How to play

def test_help_page_has_its_pictures_and_sections(page, server: str, tmp_path: Path) -> None:
    page.goto("/")
    page.locator("#help-link").click()
    page.wait_for_url("**/help")
    assert page.locator("h1").inner_text() == "How to play"
    headings = page.locator("section.help-section h2").all_inner_texts()
    for wanted in ("The aim", "The board", "A turn", "Your Command phase", "Combat", "Responses and auto-pass"):
        assert wanted in headings, headings
    # The phases, in the engine's order.
    assert page.locator("ol.phases .phase-name").all_inner_texts() == ["Ready", "Command", "Combat", "End"]
    # Every picture loaded (a broken one has naturalWidth 0) and has a text alternative.
    page.wait_for_function("() => [...document.images].every((i) => i.complete)")
    images = page.evaluate("() => [...document.images].map((i) => [i.src, i.naturalWidth, i.alt])")
    assert len(images) >= 4
    for src, width, alt in images:
        assert width > 0, f"{src} did not load"
        assert alt.strip(), f"{src} has no alt text"
    # Every link inside the page leads to a part of it that exists.
    anchors = page.evaluate("() => [...document.querySelectorAll('a[href^=\"#\"]')].map((a) => a.getAttribute('href'))")
    assert anchors and all(page.locator(a).count() == 1 for a in anchors), anchors
    shot(page, tmp_path, "help")
    # On a phone the page fits its width (no sideways scrolling).
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, tmp_path, "help-phone")


# ------------------------------------------------------------------ card glossary

def _shown_keys(page) -> list[str]:
    return page.locator("#card-grid .card-tile").evaluate_all("els => els.map((e) => e.dataset.key)")


def _unique_name(cards: list[dict[str, Any]]) -> dict[str, Any]:
    """A card whose name appears in no other card's name, text, domain or kind (so a search for
    it must show that card alone)."""
    def hay(c: dict[str, Any]) -> str:
        return " ".join([c["name"], c["text"], c["domain"], c["kind"], c.get("size") or ""]).lower()
    for card in cards:
        if not any(card["name"].lower() in hay(o) for o in cards if o is not card):
            return card
    raise AssertionError("every card name appears in another card")


def test_glossary_lists_every_card_and_filters_as_you_type(page, server: str, tmp_path: Path) -> None:
    cards = api.get(server + "/api/cards").json()["cards"]
    assert cards
    page.goto("/")
    page.locator("#cards-link").click()
    page.wait_for_url("**/cards")
    page.wait_for_function(f"() => document.querySelectorAll('#card-grid .card-tile').length === {len(cards)}")
    assert _shown_keys(page) == [c["key"] for c in cards]
    # Each tile shows the card's name and its text exactly (as text), and its numbers.
    tiles = page.locator("#card-grid .card-tile").evaluate_all(
        "els => els.map((e) => [e.querySelector('.tile-name').textContent, e.querySelector('.tile-text').textContent,"
        " e.querySelector('.tile-cost') ? e.querySelector('.tile-cost').textContent : null])")
    for card, (name, text, cost) in zip(cards, tiles):
        assert (name, text) == (card["name"], card["text"])
        assert cost == (f"{card['cost']} cr" if card["cost"] is not None else None)
    shot(page, tmp_path, "glossary")

    # Typing a card's name leaves that card alone.
    one = _unique_name(cards)
    page.locator("#card-search").fill(one["name"].lower())
    page.wait_for_function("() => document.querySelectorAll('#card-grid .card-tile').length === 1")
    assert _shown_keys(page) == [one["key"]]
    assert page.locator("#card-count").inner_text() == f"1 of {len(cards)} cards match"
    # The filter is kept in the address: a reload shows the same.
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#card-grid .card-tile').length === 1")
    assert page.locator("#card-search").input_value() == one["name"].lower()

    # The chips: a domain, then a kind within it.
    page.locator("#card-clear").click()
    domain = cards[0]["domain"]
    page.locator(f'#domain-chips button[data-value="{domain}"]').click()
    want = [c["key"] for c in cards if c["domain"] == domain]
    page.wait_for_function(f"() => document.querySelectorAll('#card-grid .card-tile').length === {len(want)}")
    assert _shown_keys(page) == want
    kind = next(c["kind"] for c in cards if c["domain"] == domain)
    page.locator(f'#kind-chips button[data-value="{kind}"]').click()
    want = [c["key"] for c in cards if c["domain"] == domain and c["kind"] == kind]
    page.wait_for_function(f"() => document.querySelectorAll('#card-grid .card-tile').length === {len(want)}")
    assert _shown_keys(page) == want
    shot(page, tmp_path, "glossary-filtered")

    # Nothing matches: a note says so and offers the way back to every card.
    page.locator("#card-search").fill("zzz no such card zzz")
    page.wait_for_selector(".empty-note")
    assert _shown_keys(page) == []
    page.locator(".empty-note button").click()
    page.wait_for_function(f"() => document.querySelectorAll('#card-grid .card-tile').length === {len(cards)}")
    assert page.locator("#card-search").input_value() == ""


def test_glossary_says_when_the_cards_cannot_be_loaded(page, server: str) -> None:
    calls = []

    def refuse(route: Any) -> None:
        calls.append(route.request.url)
        if len(calls) == 1:
            route.fulfill(status=503, content_type="application/json",
                          body=json.dumps({"error": "the card catalogue is resting", "rule": None}))
        else:
            route.fallback()

    page.route(re.compile(r"/api/cards(\?|$)"), refuse)  # the page asks for its game's: ?game=starcom
    page.goto("/cards")
    page.wait_for_selector(".load-error")
    assert "the card catalogue is resting" in page.locator(".load-error").inner_text()
    page.locator(".load-error button").click()  # try again: this time the server answers
    page.wait_for_selector("#card-grid .card-tile")
    assert len(calls) == 2


# ------------------------------------------------------------------ lobby

def test_lobby_shows_and_sends_the_turn_limit(page, server: str, tmp_path: Path) -> None:
    settings = api.get(server + "/api/settings").json()
    quick = settings.get("quick_turn_limit", settings["default_turn_limit"])
    page.goto("/")
    page.wait_for_selector("#quick-limit")
    assert f"turn limit {quick}" in page.locator("#quick-desc").inner_text()
    assert page.locator("#turn-limit").input_value() == str(settings["default_turn_limit"])
    assert page.locator('a[href="/help"]').is_visible() and page.locator('a[href="/cards"]').is_visible()
    shot(page, tmp_path, "lobby")

    # The quick game asks for that limit explicitly, and gets it.
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/games")) as req:
        page.get_by_role("button", name="Play against the AI").click()
    assert json.loads(req.value.post_data)["turn_limit"] == quick
    page.wait_for_url("**/game/**?seat=*")
    gid = page.url.split("/game/")[1].split("?")[0]
    assert api.get(f"{server}/api/games/{gid}").json()["view"]["config"]["turn_limit"] == quick

    # The form's limit goes into the new game; a bad one is refused before anything is sent.
    page.goto("/")
    page.wait_for_selector("#quick-limit")
    page.locator('#mode button[data-v="hotseat"]').click()
    page.locator("#turn-limit").fill("0")
    page.locator("#create").click()
    page.wait_for_selector("#home-error:not(.hidden)")
    assert "turn limit" in page.locator("#home-error").inner_text().lower()
    assert page.url.endswith("/")
    page.locator("#turn-limit").fill("12")
    page.locator("#create").click()
    page.wait_for_url("**/game/**?seats=*")
    gid = page.url.split("/game/")[1].split("?")[0]
    assert api.get(f"{server}/api/games/{gid}").json()["view"]["config"]["turn_limit"] == 12


def test_lobby_error_keeps_the_servers_words_and_offers_a_retry(page, server: str) -> None:
    posts = []

    def busy(route: Any) -> None:
        if route.request.method == "POST" and route.request.url.endswith("/api/games"):
            posts.append(route.request.post_data)
            route.fulfill(status=429, content_type="application/json",
                          body=json.dumps({"error": "too many new games; try again in a minute", "rule": None}))
        else:
            route.fallback()

    page.route("**/api/games", busy)
    page.goto("/")
    page.get_by_role("button", name="Play against the AI").click()
    page.wait_for_selector("#home-error:not(.hidden)")
    assert page.locator("#home-error").inner_text() == "too many new games; try again in a minute"
    assert "Could not start the game" in page.locator("#home-error-box").inner_text()
    page.locator("#home-error-retry").click()
    page.wait_for_function("() => !document.getElementById('home-error-box').classList.contains('hidden')")
    assert len(posts) == 2  # the retry sent the same request again
    page.locator("#home-error-close").click()
    assert page.locator("#home-error-box").is_hidden()


def test_the_lobby_form_starts_from_what_the_server_says_of_the_game(page, server: str) -> None:
    """index.js names no game: every default of the form (players, board size, edition, AI
    levels) is the server's word on the chosen game. Here the server's answer is changed to give
    its own game other defaults and levels than the first of each list, and the form follows."""
    real = api.get(server + "/api/settings").json()
    own = next(g for g in real["games"] if g["name"] == real["game"])
    players, sizes, editions = own["players"], own["sizes"], own["editions"]
    assert len(players) > 1 and len(sizes) > 1 and len(editions) > 1, "the test needs a game with choices"
    told = {"players": players[-1], "size": sizes[-1], "edition": editions[-1]}
    levels = list(reversed(own["levels"]))
    changed = {**real, "games": [{**g, "defaults": told, "levels": levels, "default_level": levels[0]}
                                 if g["name"] == own["name"] else g for g in real["games"]]}
    page.route("**/api/settings", lambda route: route.fulfill(status=200, content_type="application/json",
                                                              body=json.dumps(changed)))
    page.goto("/")
    page.wait_for_selector("#quick-limit")
    on = lambda seg: page.locator(f"#{seg} button.on").get_attribute("data-v")  # noqa: E731
    assert (on("players"), on("size"), on("edition")) == (str(told["players"]), str(told["size"]), told["edition"])
    desc = page.locator("#quick-desc").inner_text()
    assert f"{told['players']} players, {told['size']}×{told['size']}, {told['edition']} edition" in desc
    assert on("quick-level") == levels[0]
    assert page.locator("#quick-level button").evaluate_all("bs => bs.map((b) => b.dataset.v)") == levels
    seat1 = page.locator('#seats select[data-seat="1"]')
    assert seat1.input_value() == f"ai:{levels[0]}"
    assert seat1.locator("option").evaluate_all("os => os.map(o => o.value)") == ["human"] + [f"ai:{x}" for x in levels]
    assert page.locator("#takeover-level").input_value() == levels[0]
    # The form's request carries them.
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/games")) as req:
        page.locator("#create").click()
    body = json.loads(req.value.post_data)
    assert {k: body[k] for k in told} == told and body["seats"][1:] == [f"ai:{levels[0]}"] * (told["players"] - 1)


def test_the_lobby_without_the_servers_settings_offers_to_ask_again(page, server: str) -> None:
    """No game's values stand in for the server's answer: the form waits for it, the error says
    so, and asking again fills the form."""
    calls: list[str] = []

    def first_fails(route: Any) -> None:
        calls.append(route.request.url)
        if len(calls) == 1:
            route.fulfill(status=503, content_type="application/json",
                          body=json.dumps({"error": "the server is starting", "rule": None}))
        else:
            route.fallback()

    page.route("**/api/settings", first_fails)
    page.goto("/")
    page.wait_for_selector("#home-error:not(.hidden)")
    assert "the server is starting" in page.locator("#home-error").inner_text()
    assert page.locator("#new-game").is_hidden() and page.locator("#play-ai").is_disabled()
    assert page.locator("#players button").count() == 0
    page.locator("#home-error-retry").click()
    page.wait_for_selector("#quick-limit")
    assert page.locator("#new-game").is_visible() and page.locator("#play-ai").is_enabled()
    assert page.locator("#players button.on").count() == 1 and len(calls) == 2


# ------------------------------------------------------------------ replay

def _replay_step(server: str, gid: str, n: int) -> dict[str, Any]:
    return api.get(f"{server}/api/games/{gid}/replay/{n}").json()


def _slide_to(page, n: int) -> None:
    """Move the slider the way a hand does: set its value and send the input event."""
    page.evaluate(f"() => {{ const s = document.getElementById('slider'); s.value = '{n}';"
                  " s.dispatchEvent(new Event('input', {bubbles: true})); }")
    page.wait_for_function(f"() => document.body.dataset.step === '{n}'", timeout=15000)


def _highlight_in_view(page) -> list[str]:
    """The highlighted log lines, after checking that they are inside the log's visible box."""
    box = page.locator("#log").bounding_box()
    lines = page.locator("#log div.new")
    assert lines.count() > 0
    for i in (0, lines.count() - 1):
        r = lines.nth(i).bounding_box()
        assert r is not None and box is not None
        assert r["y"] >= box["y"] - 1 and r["y"] + r["height"] <= box["y"] + box["height"] + 1, (r, box)
    return lines.all_inner_texts()


def test_replay_log_follows_the_slider(page, server: str, finished: dict[str, Any], tmp_path: Path) -> None:
    gid, total = finished["id"], finished["steps"]
    # Two steps that add log lines, one early and the last one that does.
    early = next(_replay_step(server, gid, n) for n in range(total // 4, total)
                 if _replay_step(server, gid, n)["new_lines"])
    late = next(_replay_step(server, gid, n) for n in range(total, 0, -1) if _replay_step(server, gid, n)["new_lines"])
    assert late["step"] > early["step"]
    page.goto(f"/replay/{gid}")
    page.wait_for_function("() => document.body.dataset.step === '0'")

    _slide_to(page, late["step"])
    assert page.locator("#log div").count() == len(late["log"])
    assert _highlight_in_view(page) == late["log"][-late["new_lines"]:]
    scrolled_late = page.evaluate("() => document.getElementById('log').scrollTop")
    # The whole log does not fit its box, so following it means scrolling inside the box.
    assert page.evaluate("() => { const l = document.getElementById('log'); return l.scrollHeight > l.clientHeight; }")

    _slide_to(page, early["step"])
    assert page.locator("#log div").count() == len(early["log"])
    assert _highlight_in_view(page) == early["log"][-early["new_lines"]:]
    assert page.evaluate("() => document.getElementById('log').scrollTop") != scrolled_late
    assert page.evaluate("() => window.scrollY") == 0  # the log scrolled, not the page
    shot(page, tmp_path, "replay-middle")

    # The keyboard moves the same slider, and the log follows it too.
    page.locator("#slider").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => document.body.dataset.step === '{early['step'] + 1}'")
    after = _replay_step(server, gid, early["step"] + 1)
    assert page.locator("#log div").count() == len(after["log"])


def test_replay_ends_with_the_summary_chart(page, server: str, finished: dict[str, Any], tmp_path: Path) -> None:
    gid, total, summary = finished["id"], finished["steps"], finished["summary"]
    page.goto(f"/replay/{gid}")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    assert page.locator("#summary-panel").is_hidden()
    page.locator("#step-last").click()
    page.wait_for_function(f"() => document.body.dataset.step === '{total}'")
    page.wait_for_selector("#summary svg.credits-chart")
    players = summary["players"]
    rows = page.locator("#summary tbody tr")
    assert rows.count() == len(players)
    for i, p in enumerate(players):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0].startswith(f"P{p['seat']}")
        assert cells[1:] == [str(p[k]) for k in ("systems", "developments", "credits", "vessels_built", "cards_played")]
    if summary["winner"] is not None and summary["winner"] >= 0:
        assert rows.nth(summary["winner"]).get_attribute("class") == "winner"
    # One line per player, in the seat's colour, one point per entry of credits_by_turn.
    lines = page.evaluate("() => [...document.querySelectorAll('#summary polyline.series')].map((l) => "
                          "[Number(l.dataset.seat), l.getAttribute('stroke'),"
                          " l.getAttribute('points').trim().split(/\\s+/).length])")
    colours = page.evaluate("() => SEAT_COLOURS")
    assert lines == [[p["seat"], colours[p["seat"]], len(p["credits_by_turn"])] for p in players]
    labels = page.locator("#summary svg text").evaluate_all("els => els.map((e) => e.textContent)")
    assert "credits" in labels and "turns played" in labels
    box = page.locator("#summary svg.credits-chart").bounding_box()
    assert box is not None and box["width"] > 150 and box["height"] > 60
    shot(page, tmp_path, "replay-summary")

    page.locator("#step-back").click()
    page.wait_for_function(f"() => document.body.dataset.step === '{total - 1}'")
    assert page.locator("#summary-panel").is_hidden()
