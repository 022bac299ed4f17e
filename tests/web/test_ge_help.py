"""Galactic Empires' How to play page (/help/ge) and card glossary (/cards/ge), in real headless
Chromium: headings and sections, the turn's phases in the engine's order, every link inside the
page, the glossary listing exactly the cards of GET /api/cards?game=ge (every catalogue card),
the search box and the empire, kind and deck filters, and no console errors."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from starcom.ge.cards import CARDS
from starcom.ge.state import PHASES
from starcom.ge.text import PHASE_NAMES

from . import api

# The seven phases of a turn as the page names them: the engine's steps (starcom.ge.state.PHASES,
# named as starcom.ge.text names them) with its two automatic ones, Engagement and Draw, in place.
TURN = ["Point Allocation", "Engagement", "Play Cards A", "Weapons Fire", "Play Cards B", "Discard", "Draw"]


@pytest.fixture
def console(page) -> Iterator[list[str]]:
    """Every console error of ``page`` (the ``page`` fixture already fails on JavaScript errors
    and CSP violations; this catches the rest, such as a failed request)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield errors


def shot(page, tmp_path: Path, name: str) -> None:
    out = tmp_path / "screenshots"
    out.mkdir(exist_ok=True)
    page.screenshot(path=str(out / f"{name}.png"), full_page=True)


def _anchors(page) -> list[str]:
    return page.evaluate("() => [...document.querySelectorAll('a[href^=\"#\"]')].map((a) => a.getAttribute('href'))")


# ------------------------------------------------------------------ How to play

def test_the_turn_on_the_page_is_the_engines() -> None:
    engine = [PHASE_NAMES[p] for p in PHASES if p in PHASE_NAMES]
    assert [name for name in TURN if name in engine] == engine


def test_help_page_sections_phases_and_links(page, console: list[str], server: str, tmp_path: Path) -> None:
    page.goto("/help/ge")
    assert page.locator("h1").inner_text() == "How to play Galactic Empires"
    assert page.title() == "How to play — Galactic Empires"
    sections = page.locator("section.help-section")
    assert sections.count() >= 12
    # Every section has an id and a heading of its own.
    pairs = sections.evaluate_all("els => els.map((e) => [e.id, e.querySelector('h2') && e.querySelector('h2').textContent])")
    for sid, heading in pairs:
        assert sid and heading and heading.strip(), (sid, heading)
    headings = sections.locator("h2").all_inner_texts()
    for wanted in ("The aim", "Empires and decks", "Where the cards are", "A turn", "Points", "Engaged and disengaged",
                   "Playing cards", "Weapons fire", "Reactions", "Crew and missions", "How the game ends",
                   "Editions and options", "Playing in the browser"):
        assert wanted in headings, headings
    assert page.locator("ol.phases .phase-name").all_inner_texts() == TURN
    text = page.locator("main").inner_text()
    for fact in ("46", "51", "25", "Economy", "Supply", "Energy", "Ammunition", "Research", "Repair",
                 "Stall guard", "Turn cap", "Quick", "Full"):
        assert fact in text, fact

    # The table of contents names every section, and every link inside the page finds its target.
    toc = page.locator("nav.help-toc a").evaluate_all("els => els.map((a) => a.getAttribute('href'))")
    assert sorted(toc) == sorted(f"#{sid}" for sid in sections.evaluate_all("els => els.map((e) => e.id)"))
    anchors = _anchors(page)
    assert len(anchors) > len(toc)  # the sections link to each other too
    for a in anchors:
        assert page.locator(a).count() == 1, a
    # Following one of them scrolls to its section.
    page.locator('nav.help-toc a[href="#reactions"]').click()
    page.wait_for_function("() => location.hash === '#reactions'")
    assert page.locator("#reactions").is_visible()

    # The links out: the glossary, the lobby, and nothing outside this site.
    assert page.locator('a[href="/cards/ge"]').count() >= 2
    assert page.locator('a[href="/"]').count() >= 2
    external = page.evaluate("() => [...document.querySelectorAll('[href],[src]')].map((e) => e.href || e.src)"
                             ".filter((u) => u && !u.startsWith(location.origin) && !u.startsWith('data:'))")
    assert external == []
    shot(page, tmp_path, "ge-help")

    # On a phone the page fits its width (no sideways scrolling).
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.locator('a.button[href="/cards/ge"]').click()
    page.wait_for_url("**/cards/ge")
    page.wait_for_selector("#card-grid .card-entry")
    assert console == []


# ------------------------------------------------------------------ card glossary

def _shown(page) -> list[str]:
    return page.locator("#card-grid .card-entry").evaluate_all("els => els.map((e) => e.dataset.key)")


def _wait_count(page, n: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#card-grid .card-entry').length === {n}")


def _hay(card: dict[str, Any]) -> str:
    return " ".join([card["name"], card["text"], card["kind"], card["class"], card["empire"], card["label"]]).lower()


def test_glossary_lists_every_card_with_its_facts(page, console: list[str], server: str, tmp_path: Path) -> None:
    data = api.get(server + "/api/cards", params={"game": "ge"}).json()
    cards = data["cards"]
    assert data["game"] == "ge"
    assert {c["key"] for c in cards} == {spec.key for spec in CARDS}  # the API has every catalogue card
    page.goto("/cards/ge")
    _wait_count(page, len(cards))
    assert _shown(page) == [c["key"] for c in cards]
    assert page.locator("#card-count").inner_text() == f"{len(cards)} cards"
    assert page.locator("h1").inner_text() == "Galactic Empires card glossary"

    tiles = page.locator("#card-grid .card-entry").evaluate_all(
        "els => els.map((e) => [e.querySelector('.tile-name').textContent, e.querySelector('.tile-text').textContent,"
        " e.querySelector('.tile-kind').textContent, e.querySelector('.tile-copies').textContent,"
        " e.querySelector('.tile-stats').textContent, e.dataset.empire, e.dataset.kind])")
    for card, (name, text, kind_line, copies, stats, empire, kind) in zip(cards, tiles):
        assert (name, text, empire, kind) == (card["name"], card["text"], card["empire"], card["kind"])
        assert card["kind"] in kind_line
        for deck in ("argonian", "krebiz"):
            n = card["copies"][deck]
            assert (f"{deck.title()} deck ×{n}" in copies) == (n > 0), (card["key"], copies)
        if card["shields"]:
            assert f"{card['shields']} shield" in stats, (card["key"], stats)
        for point, n in card["cost"].items():
            assert f"{n} {point}" in stats, (card["key"], stats)
    # The Doctor, a reaction card: its printed code and its research.
    doctor = page.locator('#card-grid .card-entry[data-key="doctor"]')
    assert doctor.locator(".tile-cost").inner_text().startswith("R/C2")
    assert "reaction" in doctor.locator(".tile-kind").inner_text().lower()
    assert "1 research" in doctor.locator(".tile-stats").inner_text()
    shot(page, tmp_path, "ge-glossary")

    # A link to one card marks it, on arrival and when the address's #key changes.
    page.goto("/cards/ge?deck=krebiz#krebiz_claw")
    page.wait_for_selector("#card-krebiz_claw.picked")
    page.evaluate("() => { location.hash = 'krebiz_pincer'; }")
    page.wait_for_selector("#card-krebiz_pincer.picked")
    assert page.locator(".card-entry.picked").count() == 1
    assert console == []


def test_glossary_search_and_filters(page, console: list[str], server: str, tmp_path: Path) -> None:
    cards = api.get(server + "/api/cards", params={"game": "ge"}).json()["cards"]
    page.goto("/cards/ge")
    _wait_count(page, len(cards))

    # Typing a name leaves the cards whose name or text holds it.
    page.locator("#card-search").fill("invinco")
    want = [c["key"] for c in cards if "invinco" in _hay(c)]
    assert "invinco_guardian" in want and len(want) < len(cards)
    _wait_count(page, len(want))
    assert _shown(page) == want
    assert page.locator("#card-count").inner_text() == f"{len(want)} of {len(cards)} cards match"
    # Words of the text count too, every one of them.
    page.locator("#card-search").fill("research turn")
    want = [c["key"] for c in cards if "research" in _hay(c) and "turn" in _hay(c)]
    _wait_count(page, len(want))
    assert _shown(page) == want
    # The search is kept in the address: a reload shows the same.
    page.reload()
    _wait_count(page, len(want))
    assert page.locator("#card-search").input_value() == "research turn"

    # The empire chips.
    page.locator("#card-clear").click()
    _wait_count(page, len(cards))
    page.locator('#empire-chips button[data-value="krebiz"]').click()
    want = [c["key"] for c in cards if c["empire"] == "krebiz"]
    assert len(want) == 8  # seven ships and the armor
    _wait_count(page, len(want))
    assert _shown(page) == want
    page.locator('#empire-chips button[data-value="argonian"]').click()  # a second empire adds its cards
    want = [c["key"] for c in cards if c["empire"] in ("krebiz", "argonian")]
    _wait_count(page, len(want))
    assert _shown(page) == want
    # ... then a kind within them.
    page.locator('#kind-chips button[data-value="equipment"]').click()
    _wait_count(page, 1)
    assert _shown(page) == ["krebiz_armor"]
    shot(page, tmp_path, "ge-glossary-filtered")

    # The deck: only cards with copies in it.
    page.locator("#card-clear").click()
    _wait_count(page, len(cards))
    page.locator("#card-deck").select_option("argonian")
    want = [c["key"] for c in cards if c["copies"]["argonian"] > 0]
    assert len(want) == 41
    _wait_count(page, len(want))
    assert _shown(page) == want
    assert "deck=argonian" in page.url

    # Nothing matches: a note says so and offers every card again.
    page.locator("#card-search").fill("zzz no such card zzz")
    page.wait_for_selector(".empty-note")
    assert _shown(page) == []
    page.locator(".empty-note button").click()
    _wait_count(page, len(cards))
    assert page.locator("#card-search").input_value() == ""
    assert page.locator("#card-deck").input_value() == ""
    assert console == []
