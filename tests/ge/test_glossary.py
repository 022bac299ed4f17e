"""The Galactic Empires glossary (``GameEntry.glossary``, ``GET /api/cards?game=ge``): every card
of both decks once, with its catalogue facts and its copies per deck; the API serves it and
refuses an unknown game; the help and glossary pages are served; the help page's prose is in
the project's own words (no long run of words shared with the spec)."""
from __future__ import annotations

import json
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from api_helpers import make_client  # noqa: F401  (the fixture)

from starcom.games import get
from starcom.ge.cards import BY_KEY, CARDS, EMPIRES, POINT_TYPES, deck_list
from starcom.ge.glossary import glossary

PROJECT = Path(__file__).resolve().parents[2]
GE_WEB = PROJECT / "src" / "starcom" / "ge" / "web"  # its pages are among its own browser files
SPEC = PROJECT.parent / "shared" / "ge"
SPEC_FILES = [SPEC / name for name in ("README.md", "RULES.md", "cards.md", "decks.md")]


def test_every_card_of_the_catalogue_once_in_catalogue_order() -> None:
    cards = glossary()
    assert [c["key"] for c in cards] == [c.key for c in CARDS]
    assert len({c["key"] for c in cards}) == len(cards) == 49


def test_copies_per_deck_add_up_to_the_deck_lists() -> None:
    cards = glossary()
    assert sum(c["copies"]["argonian"] for c in cards) == 46
    assert sum(c["copies"]["krebiz"] for c in cards) == 51
    for empire in EMPIRES:
        counted = Counter(spec.key for spec in deck_list(empire))
        assert {c["key"]: c["copies"][empire] for c in cards if c["copies"][empire]} == dict(counted)


def test_each_entry_carries_the_catalogue_facts() -> None:
    for card in glossary():
        spec = BY_KEY[card["key"]]
        facts = (card["name"], card["kind"], card["class"], card["empire"])
        assert facts == (spec.name, spec.kind, spec.cls, spec.empire)
        assert card["text"] == spec.text and card["text"].strip()
        assert card["reaction"] is spec.reaction and card["label"] == spec.label
        for field in ("strength", "card_damage", "shields", "phasers", "heavy", "one_shot", "passive", "duration",
                      "slots"):
            assert card[field] == getattr(spec, field), (card["key"], field)
        # Points: only the nonzero types, by name.
        assert card["cost"] == {t: n for t, n in zip(POINT_TYPES, spec.cost) if n}
        assert card["generates"] == {t: n for t, n in zip(POINT_TYPES, spec.generates) if n}
        # Numbers that belong to one group of kinds only are None elsewhere.
        assert (card["slots"] is not None) == (card["kind"] in ("ship", "base"))
        assert (card["passive"] is not None) == (card["kind"] == "equipment")
    assert BY_KEY["doctor"].generates and glossary()[BY_KEY["doctor"].index]["generates"] == {"research": 1}


def test_the_glossary_is_json_and_fresh_each_call() -> None:
    cards = glossary()
    assert json.loads(json.dumps(cards)) == cards
    cards[0]["name"] = "changed"
    assert glossary()[0]["name"] == CARDS[0].name


def test_the_registry_entry_offers_the_glossary() -> None:
    entry = get("ge")
    assert entry.words.glossary is not None
    assert entry.words.glossary() == glossary()


# --------------------------------------------------------------------------- over HTTP

def test_the_api_serves_the_glossary_and_refuses_an_unknown_game(make_client) -> None:  # noqa: F811
    c = make_client()
    r = c.get("/api/cards", params={"game": "ge"})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["game"] == "ge"
    assert data["cards"] == glossary()
    assert {card["key"] for card in data["cards"]} == {spec.key for spec in CARDS}

    r = c.get("/api/cards", params={"game": "nope"})
    assert r.status_code == 404, r.text
    error = r.json()["error"]
    assert "nope" in error and "ge" in error and "starcom" in error  # names the bad game and the choices

    # Star Commander's glossary is unchanged by the game parameter's absence.
    plain = c.get("/api/cards")
    assert plain.status_code == 200 and "game" not in plain.json()


def test_the_pages_are_served(make_client) -> None:  # noqa: F811
    c = make_client()
    for path, heading in (("/help/ge", "<h1>How to play Galactic Empires</h1>"),
                          ("/cards/ge", "<h1>Galactic Empires card glossary</h1>")):
        r = c.get(path)
        assert r.status_code == 200, (path, r.text[:200])
        assert r.headers["content-type"].startswith("text/html")
        assert heading in r.text
    assert c.get("/static/games/ge/ge-cards.js").status_code == 200
    assert c.get("/help/nope").status_code == 404


# --------------------------------------------------------------------------- own words

RUN = 8  # this many words in a row shared with the spec counts as copied (as test_catalogue.py)


class _Text(HTMLParser):
    """The visible text of a page (script and style left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def _words(text: str) -> list[str]:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).split()


def _runs(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}


@pytest.mark.skipif(not all(p.exists() for p in SPEC_FILES), reason="the GE spec folder (shared/ge) is not here")
@pytest.mark.parametrize("page", ["ge-help.html", "ge-cards.html"])
def test_the_pages_are_in_our_own_words(page: str) -> None:
    spec_runs: set[tuple[str, ...]] = set()
    for path in SPEC_FILES:
        spec_runs |= _runs(_words(path.read_text("utf-8")))
    parser = _Text()
    parser.feed((GE_WEB / page).read_text("utf-8"))
    copied = sorted(" ".join(run) for run in _runs(_words(" ".join(parser.parts))) if run in spec_runs)
    assert not copied, f"{page} shares {RUN}+ words in a row with the spec: {copied}"
