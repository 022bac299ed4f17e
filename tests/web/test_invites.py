"""Online games in the browser (issue 10): the creator gets a link for their own seat and a
one-time invite link for each other human seat; a page opened with an invite claims the seat,
replaces its address with the seat link and plays that seat; a used or wrong invite says so, with
a way on. Also the lobby's lists (join from the open games, the newest games to watch)."""
from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse


from . import api
from .test_browser import wait_state

MOCK_INVITE = "AAAAAAAAAAAAAAAAAAAAAAAA"  # looks like a real invite code


def create_online(server: str, seats: list[str], listed: bool = False) -> dict[str, Any]:
    """An online game; ``listed``: open to anyone (in the lobby), else by invite only."""
    r = api.post(f"{server}/api/games", json={"players": len(seats), "size": 3, "edition": "standard",
                                                "seats": seats, "mode": "online", "listed": listed})
    assert r.status_code == 201, r.text
    return r.json()


def query(url: str) -> dict[str, list[str]]:
    return parse_qs(urlparse(url).query)


def test_lobby_shows_own_link_invites_and_spectate_link(page, server: str) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/")
    page.locator('#mode button[data-v="online"]').click()
    page.locator('#players button[data-v="3"]').click()
    page.locator('#seats select[data-seat="2"]').select_option("ai:easy")
    page.locator("#create").click()
    page.wait_for_selector("#links:not(.hidden) .link-row.own a")
    gid = page.locator("#links").get_attribute("data-game")

    own = page.locator("#links .link-row.own a")
    assert own.count() == 1
    assert "P0" in page.locator("#links .link-row.own").inner_text()
    href = own.get_attribute("href")
    assert href.startswith(f"/game/{gid}?seat=")

    # One invite for the other human seat (none for the AI seat), in a box with a copy button.
    invites = page.locator("#links .link-row.invite")
    assert invites.count() == 1
    assert "P1" in invites.inner_text()
    url = invites.locator("input").input_value()
    assert url.startswith(f"{server}/game/{gid}?")
    invites.locator("button.copy").click()
    page.wait_for_function("() => document.querySelector('#links .link-row.invite button.copy').textContent === 'Copied'")
    assert page.evaluate("() => navigator.clipboard.readText()") == url

    spectate = page.locator("#links .link-row.spectate")
    assert spectate.locator("input").input_value() == f"{server}/game/{gid}"
    assert spectate.locator("a").get_attribute("href") == f"/game/{gid}"


def test_invite_link_claims_the_seat(page, server: str) -> None:
    """Needs the server's invite links (POST /join with {"invite"})."""
    made = create_online(server, ["human", "human"])
    gid = made["game_id"]
    assert list(made["links"]["seats"]) == ["0"], "only the creator's seat comes with a token"
    assert "token" not in made["seats"][1]
    invite = made["links"]["invites"]["1"]
    assert query(invite)["invite"]

    # The creator's page shows P1's seat as free until the friend arrives.
    creator = page.context.new_page()
    creator.goto(made["links"]["seats"]["0"])
    wait_state(creator, "s.seat === 0")
    creator.wait_for_selector('#players .player-card[data-seat="1"] .seat-status.free')
    assert "waiting for a player" in creator.locator('#players .player-card[data-seat="1"]').inner_text()

    page.goto(invite)
    s = wait_state(page, "s.seat === 1")
    assert s["seat"] == 1
    # The address is now the seat link: reloading (or bookmarking) keeps the seat.
    assert "invite" not in query(page.url) and query(page.url)["seat"]
    assert page.locator("#join-failed").is_hidden()
    page.reload()
    wait_state(page, "s.seat === 1")

    # The creator's page learns the seat is taken.
    creator.wait_for_selector('#players .player-card[data-seat="1"] .seat-status.free', state="detached")
    creator.close()

    # The same invite a second time: refused, with a way on.
    other = page.context.browser.new_context(base_url=server)
    again = other.new_page()
    again.goto(invite)
    again.wait_for_selector("#join-failed:not(.hidden)")
    assert again.locator("#join-error").inner_text().strip()
    assert "once" in again.locator("#join-why").inner_text()
    assert again.get_by_role("link", name="Spectate this game").get_attribute("href") == f"/game/{gid}"
    assert again.get_by_role("link", name="Back to the lobby").get_attribute("href") == "/"
    assert "invite" in query(again.url)  # nothing claimed: the address stays as it was
    again.get_by_role("link", name="Spectate this game").click()
    s = wait_state(again, "true")
    assert s["seat"] is None
    other.close()


def test_wrong_invite_is_refused_with_a_way_on(page, server: str) -> None:
    """Needs the server's invite links (403 for a code of no seat)."""
    gid = create_online(server, ["human", "human"])["game_id"]
    page.goto(f"/game/{gid}?invite={MOCK_INVITE}")
    page.wait_for_selector("#join-failed:not(.hidden)")
    assert page.locator("#join-error").inner_text().strip()
    assert "not valid" in page.locator("#join-why").inner_text()
    assert page.get_by_role("link", name="Spectate this game").is_visible()
    assert page.get_by_role("link", name="Back to the lobby").is_visible()


def test_invite_page_posts_the_code_and_takes_the_seat_link(page, server: str) -> None:
    """The client side alone: the join answer is made up (it hands out the creator's seat)."""
    made = create_online(server, ["human", "human"])
    gid = made["game_id"]
    token = made["seats"][0]["token"]
    bodies: list[Any] = []

    def join(route: Any) -> None:
        bodies.append(route.request.post_data_json)
        route.fulfill(status=200, content_type="application/json",
                      json={"seat": 0, "token": token, "link": f"/game/{gid}?seat={token}"})

    page.route(lambda url: url.endswith(f"/api/games/{gid}/join"), join)
    page.goto(f"/game/{gid}?invite={MOCK_INVITE}")
    s = wait_state(page, "s.seat === 0")
    assert bodies == [{"invite": MOCK_INVITE}]
    assert query(page.url) == {"seat": [token]}
    assert s["seat"] == 0


def test_refused_invite_shows_the_servers_words(page, server: str) -> None:
    """The client side alone: a made-up 409 answer."""
    gid = create_online(server, ["human", "human"])["game_id"]
    page.route(lambda url: url.endswith(f"/api/games/{gid}/join"),
               lambda route: route.fulfill(status=409, content_type="application/json",
                                           json={"error": "seat 1 has been claimed already", "rule": None}))
    page.goto(f"/game/{gid}?invite={MOCK_INVITE}")
    page.wait_for_selector("#join-failed:not(.hidden)")
    assert page.locator("#join-error").inner_text() == "seat 1 has been claimed already"
    assert page.get_by_role("link", name="Spectate this game").get_attribute("href") == f"/game/{gid}"
    assert page.locator("#conn").inner_text() == "offline"


def test_join_from_the_open_games_list(page, server: str) -> None:
    gid = create_online(server, ["human", "human"], listed=True)["game_id"]
    page.goto("/")
    page.wait_for_selector("#open-games li button")
    bodies: list[Any] = []
    page.on("request", lambda r: bodies.append(r.post_data_json) if r.url.endswith(f"/api/games/{gid}/join") else None)
    # The newest open game (this one) is listed first.
    page.locator("#open-games li button").first.click()
    page.wait_for_url(f"**/game/{gid}?seat=*")
    s = wait_state(page, "s.seat !== null")
    assert s["seat"] == 1 and bodies == [{}]


def test_watch_list_shows_the_newest_games(page, server: str) -> None:
    made = [create_online(server, ["human", "human"])["game_id"] for _ in range(13)]
    page.goto("/")
    page.wait_for_selector(f'#all-games a[href="/game/{made[-1]}"]')
    listed = page.eval_on_selector_all("#all-games a", "els => els.map(e => e.getAttribute('href'))")
    assert len(listed) == 12
    assert listed == [f"/game/{g}" for g in reversed(made[1:])]
