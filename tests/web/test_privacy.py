"""Online privacy in the lobby (issue 30, item 4): the creator chooses "By invite only" (the
default) or "Open to anyone (listed in the lobby)"; only the second is listed under Open online
games, and the invite text after creation says what each choice means. On a phone (390x844) the
creator's seat link is in view right after creating the game, without scrolling."""
from __future__ import annotations

from pathlib import Path
from typing import Any


from . import api
from .test_game_page import shoot, sized_page


def _create_online(page: Any, access: str | None) -> str:
    """Create a 2-player online game from the form; ``access`` None leaves the default choice."""
    page.locator('#mode button[data-v="online"]').click()
    page.wait_for_selector("#access-row:not(.hidden)")
    if access is not None:
        page.locator(f'#access button[data-v="{access}"]').click()
    page.locator('#players button[data-v="2"]').click()
    before = page.locator("#links").get_attribute("data-game") or ""
    page.locator("#create").click()
    page.wait_for_function("id => (document.querySelector('#links').dataset.game || id) !== id || "
                           "!document.querySelector('#home-error-box').classList.contains('hidden')", arg=before)
    assert page.locator("#home-error-box").is_hidden(), page.locator("#home-error-box").inner_text()
    return str(page.locator("#links").get_attribute("data-game"))


def _open_ids(server: str) -> list[str]:
    return [g["game_id"] for g in api.get(f"{server}/api/games", params={"open": 1}).json()["games"]]


def test_invite_only_is_the_default_and_is_not_listed_while_an_open_game_is(page: Any, server: str) -> None:
    page.goto("/")
    page.wait_for_selector("#new-game:not(.hidden)")
    assert page.locator("#access-row").is_hidden()  # vs AI: nobody joins
    page.locator('#mode button[data-v="online"]').click()
    assert page.locator("#access button.on").inner_text() == "By invite only"
    assert "Open to anyone (listed in the lobby)" in page.locator("#access").inner_text()

    private = _create_online(page, None)
    assert page.locator("#links").get_attribute("data-listed") == "false"
    words = page.locator("#links .invite-words").inner_text()
    assert "not listed" in words and "Keep them private" in words
    assert private not in _open_ids(server)

    public = _create_online(page, "open")
    assert page.locator("#links").get_attribute("data-listed") == "true"
    words = page.locator("#links .invite-words").inner_text()
    assert "anyone can take a free seat from the lobby" in words and "Keep them private" not in words
    assert _open_ids(server)[0] == public

    # The lobby's list: the open game with its Join button, never the invite-only one.
    page.reload()
    page.wait_for_selector("#open-games li button")
    listed = page.locator("#open-games li")
    texts = listed.all_inner_texts()
    assert any("free: P1" in t for t in texts)
    joins = page.eval_on_selector_all("#open-games li button", "els => els.length")
    assert joins == len(_open_ids(server))
    # both can be watched (spectating stays open to all)
    for gid in (private, public):
        page.wait_for_selector(f'#all-games a[href="/game/{gid}"]')
    # a join without an invite is refused with the server's words
    r = api.post(f"{server}/api/games/{private}/join", json={})
    assert r.status_code == 403 and "invite only" in r.json()["error"]


def test_seat_link_in_view_after_creating_on_a_phone_and_a_laptop(browser: Any, server: str, tmp_path: Path) -> None:
    for access, (width, height) in (("invite", (390, 844)), ("open", (390, 844)), ("open", (1366, 768))):
        with sized_page(browser, server, width, height, phone=width < 500) as page:
            page.goto("/")
            page.wait_for_selector("#new-game:not(.hidden)")
            page.locator('#mode button[data-v="online"]').click()
            # the choice fits the phone: both buttons inside the screen
            for b in page.locator("#access button").all():
                bb = b.bounding_box()
                assert bb is not None and bb["x"] >= 0 and bb["x"] + bb["width"] <= width, bb
            page.locator("#access-row").scroll_into_view_if_needed()
            shoot(page, tmp_path, f"lobby-access-{width}x{height}")
            _create_online(page, access)
            page.wait_for_timeout(300)  # let the scroll settle
            own = page.locator("#links .link-row.own a")
            box = own.bounding_box()
            assert box is not None
            # the whole seat link and the heading above it are on screen, nothing to scroll
            assert 0 <= box["y"] and box["y"] + box["height"] <= height, box
            head = page.locator("#links h2").bounding_box()
            assert head is not None and head["y"] >= 0
            # the invite words, the invite and the spectators' link are in view too
            for part in ("#links .invite-words", "#links .link-row.invite", "#links .link-row.spectate"):
                bb = page.locator(part).bounding_box()
                assert bb is not None and 0 <= bb["y"] and bb["y"] + bb["height"] <= height, (part, bb)
            shoot(page, tmp_path, f"lobby-links-{access}-{width}x{height}")
