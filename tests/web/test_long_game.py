"""A long Star Commander game against the hard AI in headless Chromium at 1366×768, played as a
newcomer who follows the Hint would play it: at every decision it asks for the hint and clicks
the button the hint marks (through the second step when the mark is on a card's or a ship's
step button). Nothing is sent to the server but clicks on visible buttons.

At every decision the page shows: at most 25 option buttons, a real choice (the server takes
passes and single options itself, so a seat is never asked to decide nothing), a banner in
words, a price on every visible option that costs, and the hinted option within reach of
clicks. At the end the game-over table says on which turn a beaten player went out.

CI plays a short game; the issue's walkthrough (60 turns, the default turn limit) is
``STARCOM_LONG_GAME_TURNS=60 pytest -s tests/web/test_long_game.py`` (about an hour), which
prints its figures."""
from __future__ import annotations

import os
import re
import time
from typing import Any

import pytest

from . import api
from .test_browser import state as page_state, wait_state
from .test_options_panel import PRICE, check_labels

pytest.importorskip("playwright.sync_api")

TURNS = int(os.environ.get("STARCOM_LONG_GAME_TURNS", "8"))
SIZE = int(os.environ.get("STARCOM_LONG_GAME_SIZE", "5"))
SEED = int(os.environ.get("STARCOM_LONG_GAME_SEED", "30"))
COSTLY_TEXT = re.compile(r"^(Develop|Build|Repair|Scrap) ")
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")
# A decision the server makes for the seat (`passing`: an automatic pass) is not offered.
MINE = "s.over || (s.to_move === 0 && s.legal.length > 0 && !s.passing)"
# Every option button the player can see and reach now: the choice dialog's when it is up (it
# covers the rest), else the order panel's and an open menu's.
VISIBLE_BUTTONS = """() => {
  const dialog = !document.getElementById('choice').classList.contains('hidden');
  const where = dialog ? '#choice-box button' : '#actions button, #menu button';
  return [...document.querySelectorAll(where)]
    .filter((b) => b.offsetParent !== null && b.getClientRects().length > 0)
    .filter((b) => !b.classList.contains('danger') && !b.closest('.dialog-tools'))
    .map((b) => b.innerText.trim()); }"""


def create(server: str) -> tuple[str, str]:
    r = api.post(f"{server}/api/games", json={"players": 2, "size": SIZE, "seed": SEED, "turn_limit": TURNS,
                                                "seats": ["human", "ai:hard"], "mode": "vs_ai"})
    assert r.status_code == 201, r.text
    made = r.json()
    return made["game_id"], made["seats"][0]["token"]


def settled(page: Any) -> dict[str, Any]:
    """The state once the seat has something to decide (or the game is over) and the page has
    drawn it (nothing being sent)."""
    s = wait_state(page, MINE, timeout=300000)
    page.wait_for_function("() => document.getElementById('banner').textContent !== 'Sending…'")
    return page_state(page)


def check_decision(page: Any, s: dict[str, Any], figures: dict[str, Any]) -> None:
    legal = s["legal"]
    figures["decisions"] += 1
    figures["most_legal"] = max(figures["most_legal"], len(legal))
    # A real choice: something other than passing, and more than one thing (single options are
    # taken by the server, with "Done for you" in the log).
    assert any(e["action"]["type"] != "pass" for e in legal), f"a prompt to pass only: {s['view']['decision']}"
    assert len(legal) >= 2, f"a prompt with one option: {legal}"
    check_labels(s)
    shown = page.evaluate(VISIBLE_BUTTONS)
    figures["most_visible"] = max(figures["most_visible"], len(shown))
    assert len(shown) <= 25, f"{len(shown)} buttons of {len(legal)} options: {shown}"
    costly = [t for t in shown if COSTLY_TEXT.match(t)]
    assert all(PRICE.search(t.rstrip(" ▸")) or " credit" in t for t in costly), costly
    banner = page.locator("#banner").inner_text().strip()
    assert banner.startswith("Your decision — ") and len(banner) > len("Your decision — ") + 3, banner
    assert not IDENTIFIER.search(banner), f"an identifier in the banner: {banner}"
    figures["decisions_by_kind"][s["view"]["decision"]] = figures["decisions_by_kind"].get(s["view"]["decision"], 0) + 1


def follow_hint(page: Any, s: dict[str, Any], figures: dict[str, Any]) -> None:
    """Ask for the hint and click what it marks; one or two clicks on visible buttons."""
    step = s["step"]
    # A choice dialog covers the top bar and carries its own Hint button.
    in_dialog = page.locator("#choice").is_visible()
    page.locator("#choice-box .dialog-hint" if in_dialog else "#hint-btn").click()
    figures["dialog_hints"] += in_dialog
    page.wait_for_function("() => /The AI would: /.test(document.getElementById('hint-answer').innerText)",
                           timeout=90000)
    marked = page.locator("#choice .hinted:visible" if in_dialog else "#actions .hinted:visible").first
    assert marked.count() == 1, f"the hint marks nothing visible: {page.locator('#hint-answer').inner_text()}"
    if marked.get_attribute("data-step") is not None:
        marked.click()
        figures["clicks"] += 1
        figures["second_steps"] += 1
        marked = page.locator("#actions .picking .hinted:visible").first
        assert marked.count() == 1, "the second step does not show the hinted order"
        assert len(page.evaluate(VISIBLE_BUTTONS)) <= 25
    if marked.get_attribute("data-action") is None:   # a slider's control: its confirm button
        marked = marked.locator("button.confirm")
    marked.click()
    figures["clicks"] += 2   # the hint, the order
    page.wait_for_function(f"() => {{ const s = window.__starcom.state; return s.over || s.step > {step}; }}",
                           timeout=60000)


def check_game_over(page: Any, out_turn: dict[int, int]) -> None:
    """The game-over table: every beaten player's 'out on turn N' is the turn it went out."""
    page.wait_for_selector(".out-note, table", timeout=30000)
    notes = page.locator(".out-note").all_inner_texts()
    assert sorted(notes) == sorted(f"out on turn {t + 1}" for t in out_turn.values()), (notes, out_turn)


def test_a_long_game_against_the_hard_ai_by_clicking(browser, server: str) -> None:
    game_id, token = create(server)
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=server)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    figures: dict[str, Any] = {"turns": TURNS, "size": SIZE, "decisions": 0, "clicks": 0, "second_steps": 0, "dialog_hints": 0,
                               "most_legal": 0, "most_visible": 0, "decisions_by_kind": {}}
    started = time.monotonic()
    try:
        page.goto(f"/game/{game_id}?seat={token}")
        while True:
            s = settled(page)
            if s["over"]:
                break
            check_decision(page, s, figures)
            follow_hint(page, s, figures)
        final = api.get(f"{server}/api/games/{game_id}", params={"seat": token}).json()
        figures["turn_reached"] = final["view"]["turn"] + 1
        figures["winner"] = final["winner"]
        # Two players: a player out ends the game, on the turn it went out.
        out_turn = {p["seat"]: final["view"]["turn"] for p in final["view"]["players"] if not p["alive"]}
        check_game_over(page, out_turn)
        page.screenshot(path=str(os.environ.get("STARCOM_LONG_GAME_SHOT", "/tmp/long-game-end.png")))
    finally:
        ctx.close()
    figures["minutes"] = round((time.monotonic() - started) / 60, 1)
    print(f"\nlong game against the hard AI: {figures}")
    assert not errors, errors
    assert figures["decisions"] >= TURNS, figures   # it was played, not skipped over
