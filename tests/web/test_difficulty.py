"""Difficulty levels in the browser: picked per AI seat in the lobby (and for the quick game),
shown in the game page's players panel; the takeover option of online games with its level."""
from __future__ import annotations

from urllib.parse import urlparse


from . import api
from .test_browser import my_turn, settle_interrupts, wait_state


def seat_tags(page) -> list[str]:
    """The kind label of every player card, in seat order."""
    page.wait_for_selector("#players .player-card .seat-kind")
    return [t.strip() for t in page.locator("#players .player-card .seat-kind").all_inner_texts()]


def game_id_of(url: str) -> str:
    return urlparse(url).path.split("/")[-1]


def test_lobby_seat_difficulty_reaches_the_game_and_the_ai_moves(page, server: str) -> None:
    page.goto("/")
    seat1 = page.locator('#seats select[data-seat="1"]')
    assert seat1.input_value() == "ai:normal"  # a new AI seat starts at normal
    offered = seat1.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert offered == ["human", "ai:easy", "ai:normal", "ai:hard"]
    seat1.select_option("ai:hard")
    assert page.locator("#takeover-row").is_hidden()  # only online games can be left
    page.locator("#create").click()
    page.wait_for_url("**/game/**?seat=*")
    s = wait_state(page, "s.seat !== null")
    seat = s["seat"]
    assert [x["kind"] for x in s["seats"]] == ["human", "ai:hard"]
    tags = seat_tags(page)
    assert tags[1] == "AI · hard" and tags[0] == "human"

    # End our turn; the hard AI plays its turn and we are asked again (or, against a player who
    # does nothing, it may already have besieged and taken our Homeworld: the game is then over).
    s = wait_state(page, my_turn(seat), timeout=60000)
    turn0 = s["view"]["turn"]
    page.locator('#main-btns button[data-type="end"]').click()
    s = settle_interrupts(page, seat, f"(s.to_move === {seat} && s.view.decision === 'command' && s.view.turn > {turn0})"
                                      " || s.over", timeout=120)
    assert any(line.startswith("Turn") and "P1" in line for line in s["log"]), s["log"][-20:]
    server_state = api.get(f"{server}/api/games/{game_id_of(page.url)}").json()
    assert server_state["seats"][1]["ai"] == "hard"
    assert "AI · hard" in seat_tags(page)[1]


def test_quick_game_at_the_chosen_level(page) -> None:
    page.goto("/")
    assert page.locator("#quick-level button.on").get_attribute("data-v") == "normal"
    page.locator('#quick-level button[data-v="easy"]').click()
    page.get_by_role("button", name="Play against the AI").click()
    page.wait_for_url("**/game/**?seat=*")
    s = wait_state(page, "s.seat !== null")
    assert [x["kind"] for x in s["seats"]] == ["human", "ai:easy"]
    assert seat_tags(page)[1] == "AI · easy"


def test_online_game_with_takeover_level(page, server: str) -> None:
    page.goto("/")
    page.locator('#mode button[data-v="online"]').click()
    assert page.locator("#takeover-row").is_visible()
    level = page.locator("#takeover-level")
    assert level.is_disabled()  # nothing to choose until the option is on
    page.locator("#takeover").check()
    assert level.is_enabled() and level.input_value() == "normal"
    level.select_option("hard")
    page.locator('#access button[data-v="open"]').click()  # listed, so the open-games list shows it
    page.locator("#create").click()
    link = page.locator("#links a").first
    link.wait_for()
    gid = game_id_of(link.get_attribute("href"))
    st = api.get(f"{server}/api/games/{gid}").json()
    assert st["mode"] == "online" and st["takeover_level"] == "hard"
    listed = next(g for g in api.get(f"{server}/api/games", params={"open": 1}).json()["games"]
                  if g["game_id"] == gid)
    assert listed["takeover_level"] == "hard"
    # the open-games list tells joiners that an AI stands in for players who leave
    page.wait_for_function("() => document.getElementById('open-games').innerText.includes('AI (hard)')",
                           timeout=15000)

    # without the box ticked the game has no takeover
    page.locator("#takeover").uncheck()
    page.locator("#create").click()
    page.wait_for_function(f"() => !document.querySelector('#links a').href.includes('{gid}')", timeout=15000)
    other = game_id_of(page.locator("#links a").first.get_attribute("href"))
    assert api.get(f"{server}/api/games/{other}").json()["takeover_level"] is None
