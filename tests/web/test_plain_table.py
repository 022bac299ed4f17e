"""A game with no browser files of its own plays in the browser all the same (issue 28): the
pages name no game, so a game installed from another package gets the shared page with its
orders as a plain list of buttons (tables.js's PLAIN_TABLE), its title, the log and the
game-over screen, without a line of starcom changed for it."""
from __future__ import annotations

import json

import pytest

from starcom.games import get as get_game
from starcom.games import list_games

pytest.importorskip("playwright.sync_api")

from . import api
from .test_ge_table import wait_for_my_turn_or_end  # noqa: E402


def test_a_game_without_browser_files_plays_on_the_plain_table(page, server: str) -> None:
    """A game installed from its own package with no table drawing of its own (High Card, the
    test suite's game, where it is installed) is played from the same page: its orders as
    buttons, its title on the page, the log, the game-over screen."""
    plain = [name for name in list_games() if get_game(name).serving.web is None]
    if not plain:
        pytest.skip("no installed game comes without browser files")
    settings = {g["name"]: g for g in api.get(f"{server}/api/settings").json()["games"]}
    game = settings[plain[0]]
    assert game["scripts"] == [] and game["styles"] == []
    players = game["players"][0]
    made = api.post(f"{server}/api/games", json={
        "game": game["name"], "mode": "vs_ai", "seed": 3, "players": players,
        "seats": ["human"] + [f"ai:{game['default_level']}"] * (players - 1)}).json()
    page.goto(made["links"]["seats"]["0"])
    st = wait_for_my_turn_or_end(page)
    assert page.title() == f"{st['title']} — game"
    for _ in range(50):
        if st["over"]:
            break
        buttons = page.locator("#main-btns button[data-action]")
        shown = buttons.evaluate_all("(bs) => bs.map((b) => b.dataset.action)")
        assert sorted(shown) == sorted(json.dumps(e["action"], separators=(",", ":")) for e in st["legal"])
        buttons.first.click()
        page.wait_for_function(f"() => window.__starcom.state.step > {st['step']}", timeout=30000)
        st = wait_for_my_turn_or_end(page)
    assert st["over"]
    page.wait_for_selector("#over:not(.hidden)")
    assert page.locator("#over-title").inner_text()
    assert page.locator("#log div").count() > 0
