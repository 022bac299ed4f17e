"""What the browser asks of each game, over HTTP (issue 28): the game's own browser files, served
from its package and listed with its settings; the guide sentence in the state message; and
Galactic Empires' option labels and game summary. No browser here: the pages that use all this
are tested in test_ge_table.py and the Star Commander page tests."""
from __future__ import annotations

import dataclasses
import random
import re
import time
from html.parser import HTMLParser

import pytest

from starcom.games import get as get_game
from starcom.games import list_games
from starcom.ge.server import option_labels
from starcom.server.adapter import adapter_for
from starcom.web.assets import PAGES, asset_file, page_assets, page_file

from . import api


def _settings(server: str) -> dict[str, dict]:
    return {g["name"]: g for g in api.get(f"{server}/api/settings").json()["games"]}


def test_each_game_lists_and_serves_its_own_table(server: str) -> None:
    games = _settings(server)
    for name in ("starcom", "ge"):
        game = games[name]
        assert game["scripts"], f"{name} lists no table script"
        assert game["tagline"]
        for url in game["scripts"] + game["styles"]:
            assert url.startswith(f"/static/games/{name}/")
            r = api.get(server + url)
            assert r.status_code == 200, url
            kind = "javascript" if url.endswith(".js") else "css"
            assert kind in r.headers["content-type"], (url, r.headers["content-type"])
            assert r.text == asset_file(get_game(name), url.rsplit("/", 1)[1]).read_text("utf-8")
    # A game installed without browser files is listed with none (the pages draw it plainly).
    for name in list_games():
        if get_game(name).serving.web is None:
            assert games[name]["scripts"] == [] and games[name]["styles"] == []


@pytest.mark.parametrize("path", ["../entry.py", "%2e%2e/entry.py", "web/../../games.py", ".hidden", "nothing.js",
                                  "", "..%2F..%2Fgames.py"])
def test_nothing_else_is_served_from_a_game_package(server: str, path: str) -> None:
    r = api.get(f"{server}/static/games/ge/{path}")
    assert r.status_code == 404, (path, r.status_code)
    assert "error" in r.json()


def test_an_unknown_game_has_no_files(server: str) -> None:
    r = api.get(f"{server}/static/games/nosuchgame/table.js")
    assert r.status_code == 404 and "no game" in r.json()["error"]


def test_asset_file_refuses_what_leaves_the_directory() -> None:
    ge = get_game("ge")
    for bad in ("../entry.py", "a//b.js", ".secret", "sub/../../entry.py", "/etc/passwd", ""):
        with pytest.raises(ValueError, match="no file"):
            asset_file(ge, bad)
    assert asset_file(ge, "ge-table.js").name == "ge-table.js"
    assert page_assets(ge)["scripts"] == ["/static/games/ge/ge-table.js"]


@pytest.mark.parametrize("game", ["starcom", "ge"])
def test_the_state_message_guides_the_seat_to_move_only(server: str, game: str) -> None:
    made = api.post(f"{server}/api/games", json={"game": game, "mode": "hotseat", "seed": 2}).json()
    gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    spectator = api.get(f"{server}/api/games/{gid}").json()
    first = spectator["to_move"]
    mine = api.get(f"{server}/api/games/{gid}", params={"seat": tokens[first]}).json()
    assert isinstance(mine["guide"], str) and len(mine["guide"].split()) > 8
    other = api.get(f"{server}/api/games/{gid}", params={"seat": tokens[1 - first]}).json()
    assert other["guide"] is None and spectator["guide"] is None


# The notation's card words, numbers standing for cards or fields, JSON.
RAW = re.compile(r"#|\b(?:fleet|hq):\d|[\[\]{}\"]|\(\d")


def test_galactic_empires_labels_are_distinct_words() -> None:
    """Every decision of a few random games: one label per option, none alike, each in words."""
    adapter = adapter_for("ge")
    for seed, edition in ((1, "full"), (2, "quick"), (3, "full")):
        game = adapter.entry.rules.new(edition=edition, seed=seed)
        rng = random.Random(seed)
        while not game.over and game.s.actions < 1500:
            actions = game.legal_actions()
            labels = option_labels(game, actions, game.to_move)
            assert len(set(labels)) == len(labels), [l for l in labels if labels.count(l) > 1][:4]
            for label in labels:
                assert label and not RAW.search(label), label
            adapter.play(game, rng.choice(actions))


def test_galactic_empires_summary_counts_the_game(server: str) -> None:
    made = api.post(f"{server}/api/games", json={"game": "ge", "mode": "vs_ai", "seed": 9, "edition": "quick",
                                                   "turn_limit": 3, "seats": ["ai:easy", "ai:easy"]}).json()
    gid = made["game_id"]
    for _ in range(600):
        st = api.get(f"{server}/api/games/{gid}").json()
        if st["over"]:
            break
        time.sleep(0.1)
    assert st["over"] and st["over_reason"] in ("hq", "stall", "turn cap")
    summary = api.get(f"{server}/api/games/{gid}/summary").json()
    assert summary["winner"] == st["winner"] and summary["reason"] == st["over_reason"]
    assert [p["empire"] for p in summary["players"]] == ["argonian", "krebiz"]
    for p in summary["players"]:
        assert p["hq_damage"] == st["view"]["players"][p["seat"]]["hq"]
        assert p["hq_by_turn"][-1] == p["hq_damage"] and len(p["hq_by_turn"]) >= 2
    assert sum(p["cards_played"] for p in summary["players"]) > 0
    assert summary["steps"] == st["step"]


# ------------------------------------------------------------------ each game's own pages

class _Loads(HTMLParser):
    """The URLs a page loads (scripts, styles, images) and the links it has to this site."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag in ("script", "img") and a.get("src"):
            self.loads.append(a["src"] or "")
        if tag == "link" and a.get("rel") == "stylesheet":
            self.loads.append(a.get("href") or "")
        if tag == "a" and (a.get("href") or "").startswith("/"):
            self.links.append(a["href"] or "")


def test_each_games_pages_come_from_its_own_files(server: str) -> None:
    """A game's How-to-play page and card glossary are files among its browser files (its entry's
    serving hooks), served at /help/GAME and /cards/GAME (the server's own game's also at /help and
    /cards); everything they load is there, and their links to pages of a game go to their own
    game's (never to /help or /cards, which are another game's on a server whose own game it is not)."""
    games = _settings(server)
    own = api.get(f"{server}/api/settings").json()["game"]
    for name in ("starcom", "ge"):
        entry = get_game(name)
        for which in PAGES:
            path = page_file(entry, which)
            assert path is not None and path.parent == entry.serving.web.directory, (name, which)
            assert games[name][which] == (f"/{which}" if name == own else f"/{which}/{name}")
            r = api.get(f"{server}/{which}/{name}")
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
            assert r.text == path.read_text("utf-8")
            page = _Loads()
            page.feed(r.text)
            assert page.loads and page.links
            for url in page.loads:
                assert api.get(server + url).status_code == 200, (name, which, url)
            for link in page.links:
                if link.split("#")[0].split("/")[1] in PAGES:
                    assert link.split("#")[0] in (f"/help/{name}", f"/cards/{name}"), (name, which, link)
    # Nothing of one game is left among the site's shared files.
    for old in ("help.html", "cards.html", "cards.js", "ge-help.html", "ge-cards.html", "ge-cards.js"):
        assert api.get(f"{server}/static/{old}").status_code == 404, old


def test_a_page_the_game_does_not_have_is_404(server: str) -> None:
    from starcom.games import Serving
    ge = get_game("ge")
    none = dataclasses.replace(ge, serving=Serving(web=ge.serving.web))  # no pages named
    assert page_file(none, "help") is None and page_file(none, "cards") is None
    missing = dataclasses.replace(ge, serving=Serving(web=ge.serving.web, help_page="nothing.html"))
    assert page_file(missing, "help") is None
    assert page_file(ge, "nothing") is None


def test_the_lobby_is_told_each_games_defaults(server: str) -> None:
    """The form starts from what the server says of the chosen game (index.js names no game)."""
    for name, game in _settings(server).items():
        rules = get_game(name).rules
        assert game["defaults"] == rules.defaults()
        assert game["defaults"]["players"] == rules.player_counts[0]
        assert game["defaults"].get("size") == (rules.sizes[0] if rules.sizes else None)
        assert game["defaults"].get("edition") == (rules.editions[0] if rules.editions else None)
        assert game["default_level"] in game["levels"]
