"""High Card in the browser, in real headless Chromium: the test game is a separate package
(tests/plugins/highcard) that starcom's browser scripts never name, yet a user finds it in the
lobby, plays it to the showdown against the AI and hot-seat by clicking only what the page
shows, and watches the replay. Any JavaScript error fails the test (the ``page`` fixture)."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from .page_scripts import MARK, SHOWN, STATE

pytest.importorskip("playwright.sync_api")

try:
    from starcom_highcard.game import ROUNDS
except ModuleNotFoundError as exc:  # scripts/test.sh installs it; say how when it is missing
    raise ModuleNotFoundError(f"{exc}: install the test game first: pip install -e tests/plugins/highcard") from exc

TITLE = "High Card"
MY_TURN_OR_END = """() => { const s = window.__starcom && window.__starcom.state;
  return s && (s.over || (s.to_move === s.seat && !s.passing && s.legal.length > 0)); }"""


def take_the_device(page: Any) -> None:
    """In a hot-seat game, answer the page's "pass the device" screen when it shows."""
    ready = page.locator("#pass-ready")
    if ready.is_visible():
        ready.click()


def wait_for_a_decision_or_the_end(page: Any, hotseat: bool) -> dict[str, Any]:
    for _ in range(600):
        if hotseat:
            take_the_device(page)
        st = page.evaluate(STATE)
        if st and (st["over"] or (st["to_move"] == st["seat"] and not st.get("passing") and st["legal"])):
            if st["over"] or not hotseat or not page.locator("#pass").is_visible():
                return st
        page.wait_for_timeout(50)
    raise AssertionError(f"no decision and no end in 30 s: {page.evaluate(STATE)}")


def play_to_the_end(page: Any, rng: random.Random, hotseat: bool = False, limit: int = 4 * ROUNDS) -> dict[str, Any]:
    """Click a random legal option at each of the seat's decisions until the game is over; every
    option must have an element that sends it. Returns the last state."""
    for _ in range(limit + 1):
        st = wait_for_a_decision_or_the_end(page, hotseat)
        if st["over"]:
            return st
        legal = [e["action"] for e in st["legal"]]
        assert sorted(json.dumps(a) for a in legal) == [json.dumps({"type": "keep"}), json.dumps({"type": "swap"})]
        labels = [e["label"] for e in st["legal"]]
        assert len(set(labels)) == 2 and all(labels), f"options without telling labels: {labels}"
        shown = [json.loads(a) for a in page.evaluate(SHOWN)]
        assert all(a in shown for a in legal), f"legal options with no control on the page: {legal} vs {shown}"
        step = st["step"]
        i = rng.randrange(len(legal))
        assert page.evaluate(MARK, i) >= 1
        target = page.locator('[data-test-target="0"]')
        target.evaluate("(e) => { const d = e.closest('details'); if (d) d.open = true; }")
        target.click()
        page.wait_for_function(f"() => window.__starcom.state.step > {step}", timeout=30000)
    raise AssertionError(f"the game did not end within {limit} decisions")


def check_the_showdown(page: Any, st: dict[str, Any]) -> None:
    """Every card is shown, the highest wins, and the page says so."""
    hands = st["view"]["hands"]
    assert st["over"] and None not in hands and st["winner"] == hands.index(max(hands))
    page.locator("#over").wait_for(state="visible", timeout=10000)
    assert page.locator("#over-title").inner_text().strip()
    assert "wins" in page.locator("#banner").inner_text()
    assert f"Game over: P{st['winner']} wins" in page.locator("#log").text_content()


def test_a_new_user_finds_high_card_in_the_lobby_plays_it_then_watches_the_replay(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#game-choice button")
    page.locator("#game-choice button", has_text=TITLE).click()
    # The form follows the game's entry: its player counts and sizes, no editions, no pages.
    assert page.locator(".home .title").text_content() == TITLE
    assert page.locator("#players button").all_inner_texts() == ["2", "3", "4"]
    assert page.locator("#help-link").is_hidden() and page.locator("#cards-link").is_hidden()
    assert TITLE in page.locator("#quick-desc").inner_text()
    page.locator("#play-ai").click()
    page.wait_for_url("**/game/**")
    page.wait_for_function("() => window.__starcom && window.__starcom.state")
    st = page.evaluate(STATE)
    assert st["game"] == "highcard" and st["seat"] == 0
    own = st["view"]["hands"][0]
    assert isinstance(own, int) and st["view"]["hands"][1] is None  # the AI's card stays hidden
    # The page is High Card's: its title, its table (no Star Commander board), the seat's card.
    page.wait_for_function(f"() => document.querySelector('.brand-word').textContent === {json.dumps(TITLE)}")
    assert TITLE in page.title()
    assert page.locator("#board").count() == 0  # no Star Commander board
    table = page.locator("#table .plain-table")  # the game's own words.table lines, as this seat sees them
    assert table.is_visible() and f"P0 (you): the {own}" in table.inner_text()
    assert f"P0 is dealt the {own}" in page.locator("#log").text_content()
    st = play_to_the_end(page, random.Random(1))
    check_the_showdown(page, st)
    # The replay steps through the same game, to the same end.
    page.locator("#over-replay").click()
    page.wait_for_url("**/replay/**")
    page.wait_for_selector("#slider")
    page.wait_for_function("() => +document.querySelector('#slider').max > 0")  # the steps have loaded
    total = int(page.locator("#slider").get_attribute("max"))
    assert total == st["step"] == 2 * ROUNDS
    page.locator("#step-last").click()
    page.wait_for_function(f"() => window.__starcom && window.__starcom.replay && "
                           f"window.__starcom.replay.step === {total}")
    assert page.evaluate("() => window.__starcom.replay.over")
    assert f"P{st['winner']} wins" in page.locator("#banner").inner_text()
    assert page.locator("#board").is_hidden()
    # The replay is High Card's too, not a page titled after Star Commander.
    assert TITLE in page.title() and page.locator(".brand-word").text_content() == TITLE


def test_a_hot_seat_game_of_three_from_the_form(page: Any) -> None:
    page.goto("/")
    page.wait_for_selector("#game-choice button")
    page.locator("#game-choice button", has_text=TITLE).click()
    page.locator('#mode button[data-v="hotseat"]').click()
    page.locator('#players button[data-v="3"]').click()
    page.locator("#create").click()
    page.wait_for_url("**/game/**")
    page.wait_for_function("() => window.__starcom && window.__starcom.state")
    st = play_to_the_end(page, random.Random(2), hotseat=True, limit=3 * ROUNDS)
    assert len(st["view"]["hands"]) == 3 and st["step"] == 3 * ROUNDS
    check_the_showdown(page, st)
