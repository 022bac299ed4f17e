"""The options panel through a long Star Commander game in headless Chromium: a hot-seat game on a
5×5 board played to turn 40 by a scripted player that builds, develops and plays whatever it can
(so the board fills up and the legal lists grow to hundreds of options), looked at through the
page of the seat to move every few decisions. At every look: no more than 25 option buttons are
visible at once, every option that costs shows its price, and every vessel aimed at is named
with its owner and system. Once, mid-game: a group opened or closed by the player stays so after
an action, and the orders of one card come as a second step."""
from __future__ import annotations

import random
import re
from typing import Any

import pytest

from . import api
from .test_browser import wait_state

pytest.importorskip("playwright.sync_api")

TURNS = 40
# Kinds the scripted player likes (it ends its Command phase now and then, or nothing happens).
WEIGHT = {"build": 6, "develop": 5, "play": 3, "jump": 2, "ability": 2, "fight": 9, "assign": 6, "buy": 1}
COSTLY = {"build", "develop", "repair", "scrap"}
PRICE = re.compile(r" — \d+ credits?( back)?$")
# Every option button the player can see now, on the panel, in a menu or in a choice dialog.
VISIBLE_BUTTONS = """() => [...document.querySelectorAll('#actions button, #menu button, #choice-box button')]
  .filter((b) => b.offsetParent !== null && b.getClientRects().length > 0)
  .filter((b) => !b.classList.contains('danger'))
  .map((b) => b.innerText.trim())"""
OPEN_GROUPS = """() => Object.fromEntries([...document.querySelectorAll('#groups details.group')]
  .map((d) => [d.dataset.kind, d.open]))"""


def create(server: str, seed: int) -> tuple[str, list[str]]:
    r = api.post(f"{server}/api/games", json={"players": 2, "size": 5, "edition": "standard", "seed": seed,
                                                "turn_limit": None, "seats": ["human", "human"],
                                                "mode": "hotseat", "ai_takeover": False})
    assert r.status_code == 201, r.text
    made = r.json()
    return made["game_id"], [s["token"] for s in sorted(made["seats"], key=lambda s: s["seat"])]


def state(server: str, game_id: str, token: str | None) -> dict[str, Any]:
    r = api.get(f"{server}/api/games/{game_id}", params={"seat": token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def pick(s: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = [e["action"] for e in s["legal"]]
    if s["view"]["decision"] == "command" and rng.random() < 0.25:
        ends = [a for a in legal if a["type"] == "end"]
        if ends:
            return ends[0]
    w = [WEIGHT.get(a["type"], 1) * rng.random() for a in legal]
    return legal[max(range(len(legal)), key=w.__getitem__)]


def check_labels(s: dict[str, Any]) -> None:
    """Prices and named targets, in the server's labels of the seat to move."""
    for e in s["legal"]:
        a, label = e["action"], e["label"]
        station = a["type"] == "play" and (e.get("card") or {}).get("kind") == "station"
        if a["type"] in COSTLY or station:
            assert PRICE.search(label), f"no price: {label}"
        if a["type"] in ("play", "ability") and ": " in label:
            said = label.split(": ", 1)[1]
            bare = [m for m in re.finditer(r"#\d+", said)
                    if not said[:m.start()].endswith("copy ") and not said[m.end():].startswith(" at ")]
            assert not bare, f"a vessel without its system: {label}"
        if a["type"] == "assign":
            assert re.search(r"→ (your|P\d's) .+ #\d+ at [a-e][1-5]$", label), label


def look(page: Any, step: int) -> list[str]:
    wait_state(page, f"s.step >= {step}", timeout=30000)
    page.wait_for_function("() => !document.querySelector('#banner') || "
                           "document.getElementById('banner').textContent !== 'Sending…'")
    return page.evaluate(VISIBLE_BUTTONS)


def test_long_game_never_shows_more_than_25_options(browser, server: str) -> None:
    game_id, tokens = create(server, seed=3)
    rng = random.Random(3)
    ctxs = [browser.new_context(viewport={"width": 1366, "height": 768}, base_url=server) for _ in tokens]
    pages = [c.new_page() for c in ctxs]
    errors: list[str] = []
    for p, token in zip(pages, tokens):
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.goto(f"/game/{game_id}?seat={token}")
    figures = {"looks": 0, "most_legal": 0, "most_visible": 0, "decisions": 0}
    kept_open = stepped = False
    try:
        while True:
            s0 = state(server, game_id, None)
            if s0["over"] or s0["view"]["turn"] + 1 > TURNS:
                break
            mover = s0["to_move"]
            s = state(server, game_id, tokens[mover])
            if not s["legal"]:
                continue
            check_labels(s)
            figures["decisions"] += 1
            figures["most_legal"] = max(figures["most_legal"], len(s["legal"]))
            big = len(s["legal"]) > 25
            if big or figures["decisions"] % 9 == 0:
                shown = look(pages[mover], s["step"])
                figures["looks"] += 1
                figures["most_visible"] = max(figures["most_visible"], len(shown))
                assert len(shown) <= 25, f"{len(shown)} buttons of {len(s['legal'])} options: {shown}"
                costly = [t for t in shown if re.match(r"(Develop|Build|Repair|Scrap) ", t)]
                assert all(" credit" in t for t in costly), costly
                if big and not kept_open and s["view"]["decision"] == "command":
                    kept_open = groups_stay_open_across_an_action(pages[mover], s)
                    continue
                if big and not stepped and s["view"]["decision"] == "command":
                    stepped = second_step_lists_one_card(pages[mover], s)
            a = pick(s, rng)
            r = api.post(f"{server}/api/games/{game_id}/actions",
                           json={"seat": tokens[mover], "action": a, "expect_step": s["step"]})
            # The server may have passed for the seat meanwhile (automatic passes): look again.
            assert r.status_code == 200 or (r.status_code == 409 and "stale" in r.text), r.text
    finally:
        for c in ctxs:
            c.close()
    print(f"\noptions panel over {TURNS} turns: {figures}")
    assert not errors, errors
    assert figures["most_legal"] > 100, figures  # the game grew big enough to test anything
    assert kept_open and stepped, (kept_open, stepped)


def groups_stay_open_across_an_action(page: Any, s: dict[str, Any]) -> bool:
    """Close the Jumps group and open another, take an order by clicking: both stay as left."""
    groups = page.evaluate(OPEN_GROUPS)
    if "jump" not in groups or len(groups) < 3:
        return False
    assert groups["jump"], "Jumps starts open"
    page.locator('#groups details[data-kind="jump"] > summary').click()
    other = next(k for k in groups if k not in ("jump",))
    if not page.evaluate(OPEN_GROUPS)[other]:
        page.locator(f'#groups details[data-kind="{other}"] > summary').click()
    page.wait_for_function("(k) => document.querySelector(`#groups details[data-kind=\"${k}\"]`).open", arg=other)
    left = page.evaluate(OPEN_GROUPS)
    assert left["jump"] is False and left[other] is True
    # An order that keeps the Command phase going: a single visible button in the groups.
    button = page.locator("#groups button.option[data-action]:not(.step-btn):visible").first
    assert button.count() == 1
    button.click()
    wait_state(page, f"s.step > {s['step']}", timeout=30000)
    after = page.evaluate(OPEN_GROUPS)
    assert after.get("jump") is not True, after
    if other in after:
        assert after[other] is True, after
    page.locator('#groups details[data-kind="jump"] > summary').click()  # back as it was
    return True


def second_step_lists_one_card(page: Any, s: dict[str, Any]) -> bool:
    """A step button says how many ways; a click lists just those (lit up on the board)."""
    steps = page.locator('#groups button.step-btn[data-step^="card"]:visible, #groups button.step-btn[data-step^="def"]:visible')
    if steps.count() == 0:
        return False
    b = steps.first
    ways = int(b.get_attribute("data-ways"))
    b.click()
    page.wait_for_selector("#groups .picking")
    listed = page.locator("#groups .picking [data-action]").count()
    assert listed == ways, (listed, ways)
    assert len(page.evaluate(VISIBLE_BUTTONS)) <= 25
    page.locator("#groups .picking button.danger").click()
    page.wait_for_function("() => !document.querySelector('#groups .picking')")
    return True
