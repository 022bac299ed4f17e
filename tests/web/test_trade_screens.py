"""Browser tests of the trade screens: in a hot-seat game the active player prepares an offer by
clicking (open it, give 1 credit, propose), then the other seat's page shows the offer with Accept
and Decline buttons, and the answer clicked there is checked through the HTTP API."""
from __future__ import annotations

import re

import pytest

from .test_browser import wait_state
from .test_play_screens import api_state, create_hotseat

GIVE_CREDIT = {"type": "give", "item": "credit", "value": 1}


def _click(page, selector: str, step: int) -> dict:
    """Click the only element matching ``selector`` and wait for the server to apply it."""
    loc = page.locator(selector)
    assert loc.count() == 1, f"{selector}: {loc.count()} matches"
    loc.click()
    return wait_state(page, f"s.step === {step + 1}")


@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_trade_offer_built_by_clicking_and_answered(page, server: str, answer: str) -> None:
    game_id, tokens = create_hotseat(server, seed=1)
    start = api_state(server, game_id, tokens[0])
    assert start["to_move"] == 0 and start["view"]["decision"] == "command"
    credits0 = [p["credits"] for p in start["view"]["players"]]

    # --- P0 prepares the offer -------------------------------------------------------------
    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    s = wait_state(page, "s.seat === 0 && s.view.decision === 'command' && s.legal.length > 0")
    assert page.locator("#trade").is_hidden()
    offer = page.locator("#actions #groups button[data-type='offer']")
    assert offer.count() == 1
    label = next(e["label"] for e in s["legal"] if e["action"]["type"] == "offer")
    assert offer.inner_text() == label and "P1" in label  # the server's short label, unique in the decision
    s = _click(page, "#actions #groups button[data-type='offer']", s["step"])
    assert s["view"]["decision"] == "trade_build" and s["view"]["trade"]["to"] == 1
    page.wait_for_selector("#trade:not(.hidden)")
    panel = page.locator("#trade").inner_text()
    assert "trade being prepared" in panel.lower() and "P0" in panel and "P1" in panel
    assert re.search(r"Gives: nothing", panel), panel
    # Nothing given yet: no Propose button.
    assert page.locator("#main-btns button[data-type='propose']").count() == 0

    # the ways to offer credits come as a second step (issue 30: a panel that scales)
    page.locator("#actions button").filter(has_text="Offer credits").first.click()
    give = page.locator("#actions button[data-type='give']:visible").filter(has_text="1 credit")
    assert give.count() == 1
    step = s["step"]
    give.click()
    s = wait_state(page, f"s.step === {step + 1}")
    assert s["view"]["trade"]["give_credits"] == 1
    page.wait_for_function("() => /Gives: 1 credit\\b/.test(document.getElementById('trade').innerText)")

    assert page.locator("#main-btns button[data-type='propose']").count() == 1
    s = _click(page, "#main-btns button[data-type='propose']", s["step"])
    assert s["to_move"] == 1 and s["legal"] == []
    after_propose = api_state(server, game_id, tokens[1])
    assert after_propose["view"]["decision"] == "trade_answer"
    assert after_propose["view"]["trade"]["proposed"] is True
    assert after_propose["view"]["trade"]["give_credits"] == 1

    # --- P1 answers ---------------------------------------------------------------------------
    page.goto(f"/game/{game_id}?seat={tokens[1]}")
    s = wait_state(page, "s.seat === 1 && s.view.decision === 'trade_answer' && s.legal.length > 0")
    page.wait_for_selector("#trade:not(.hidden)")
    panel = page.locator("#trade").inner_text()
    assert "trade proposed" in panel.lower(), panel  # the h2 is upper-cased by CSS
    assert re.search(r"Gives: 1 credit\b", panel), panel
    assert re.search(r"Asks: nothing", panel), panel
    assert "answer p0's trade offer" in page.locator("#banner").inner_text().lower()
    accept = page.locator("#main-btns button[data-type='accept']")
    decline = page.locator("#main-btns button[data-type='decline']")
    assert accept.count() == 1 and decline.count() == 1
    assert "accept" in accept.inner_text().lower() and "decline" in decline.inner_text().lower()

    s = _click(page, f"#main-btns button[data-type='{answer}']", s["step"])
    final = api_state(server, game_id, tokens[0])
    credits = [p["credits"] for p in final["view"]["players"]]
    if answer == "accept":
        assert credits == [credits0[0] - 1, credits0[1] + 1]
    else:
        assert credits == credits0
    assert final["to_move"] == 0 and final["view"]["decision"] == "command"
    assert final["view"]["trade"] is None
    assert any(e["action"]["type"] == "end" for e in final["legal"])
    # P1's page no longer shows the offer.
    page.wait_for_selector("#trade", state="hidden")
