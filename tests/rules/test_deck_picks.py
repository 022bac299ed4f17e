"""Deck picks say what each deck holds (issue 30): how many cards are left, and the share of each
kind among its domain's cards out of public view, which is all anyone may know of it."""
from __future__ import annotations

import random
import re
from collections import Counter

import starcom
from starcom.sc.cards.catalogue import DOMAINS
from starcom.sc.engine.game import Game
from starcom.sc.engine.view import deck_outlook
from starcom.sc.options import option_labels

from .helpers import setup

INDUSTRY, SCIENCE = DOMAINS.index("industry"), DOMAINS.index("science")


def draw_choice(hands: list[list[str]]) -> Game:
    """P0 draws in its Ready phase holding an Industry and a Science system: it picks the deck."""
    g, _ = setup(setup={"active": 0, "phase": "ready",
                        "board": {"b3": {"system": "Trade World", "owner": 0, "devs": 1},
                                  "c2": {"system": "Research World", "owner": 0, "devs": 1}},
                        "players": [{"hand": hands[0]}, {"hand": hands[1]}]})
    assert g.decision == "choice" and g.choice is not None and g.choice.kind == "deck"
    return g


def labels(g: Game, viewer: int = 0) -> list[str]:
    return option_labels(g, g.legal_actions(), viewer)


def shares(label: str) -> dict[str, int]:
    return {kind: int(pct) for pct, kind in re.findall(r"(\d+)% (\w+)", label)}


def test_a_deck_pick_says_cards_left_and_the_share_of_each_kind() -> None:
    # RULE: DRAW-1 each deck on offer is one of P0's domains; its label counts the cards left and
    # gives each kind's share. No hand holds a Science card, so the Science shares are the deck's
    # own (exact); P1 holds an Industry card, so Industry's are "about".
    g = draw_choice([[], ["Barrage"]])
    industry, science = labels(g)
    assert industry.startswith(f"Draw from the Industry deck: {len(g.decks[INDUSTRY])} cards left, about ")
    assert science.startswith(f"Draw from the Science deck: {len(g.decks[SCIENCE])} cards left, ")
    assert "about" not in science
    deck = Counter(str(g.rules.cards[c].kind) for c in g.decks[SCIENCE])
    plural = {"command": "commands", "station": "stations", "technology": "technologies"}
    expected = {plural[k]: 100 * n / len(g.decks[SCIENCE]) for k, n in deck.items()}
    got = shares(science)
    assert set(got) == set(expected) and sum(got.values()) == 100
    assert all(abs(got[k] - expected[k]) < 1 for k in got)


def test_the_shares_follow_cards_that_leave_in_public() -> None:
    # RULE: DRAW-1 a Science technology taken out of the deck into P0's technology row (public)
    # lowers the technologies' share of the Science deck.
    g = draw_choice([[], []])
    before = shares(labels(g)[1])["technologies"]
    tech = next(c for c in g.decks[SCIENCE] if g.rules.cards[c].kind == "technology")
    g.decks[SCIENCE].remove(tech)
    g.techs[0].append(tech)
    after = shares(labels(g)[1])
    assert after["technologies"] < before
    assert labels(g)[1].startswith(f"Draw from the Science deck: {len(g.decks[SCIENCE])} cards left")


def test_deck_words_do_not_depend_on_which_hidden_card_is_where() -> None:
    # RULE: DRAW-1 twins that differ only in which Industry card P1 holds (swapped with one of
    # the deck, of another kind) and in the deck's order give P0 the same labels: the label shows
    # nothing of P1's hand, nor of the next card.
    g = draw_choice([[], ["Barrage"]])
    twin = g.clone()
    held = twin.hands[1][0]
    j = next(i for i, c in enumerate(twin.decks[INDUSTRY])
             if twin.rules.cards[c].kind != twin.rules.cards[held].kind)
    twin.hands[1][0], twin.decks[INDUSTRY][j] = twin.decks[INDUSTRY][j], held
    random.Random(1).shuffle(twin.decks[INDUSTRY])
    assert twin.hands[1] != g.hands[1] and twin.decks[INDUSTRY] != g.decks[INDUSTRY]
    assert labels(twin) == labels(g)
    for d in range(len(DOMAINS)):
        assert deck_outlook(twin, d) == deck_outlook(g, d)


def test_deck_outlook_is_the_same_in_every_redeal_a_seat_could_imagine() -> None:
    """Along random playouts, every determinization (for every seat) of the position gives the
    same outlook for every deck, so it is built from public facts only."""
    for seed in range(3):
        g = starcom.load_game("starcom", players=3, size=4, seed=seed, turn_limit=30)
        rng = random.Random(seed)
        checked = 0
        for step in range(300):
            if g.over:
                break
            if step % 10 == 0:
                truth = [deck_outlook(g, d) for d in range(len(DOMAINS))]
                for seat in range(3):
                    other = g.determinize(seat, random.Random(step))
                    assert [deck_outlook(other, d) for d in range(len(DOMAINS))] == truth
                checked += 1
            g.apply(rng.choice(g.legal_actions()))
        assert checked > 5
