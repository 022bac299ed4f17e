"""Tests of engine internals that the rule scenarios would not notice."""
from __future__ import annotations

from starcom.sc.cards.catalogue import INSTANCES

from .helpers import setup, vessel


def test_every_start_of_turn_source_resolves_once() -> None:
    # RULE: READY-3 RULE: CARD-Refinery
    # The pending start-of-turn effects sit in a task beside a status flag; instance ids as small
    # as the flag (Refinery #0 and #1) must each resolve exactly once.
    assert 1 in INSTANCES["Refinery"]
    g, _ = setup(setup={"active": 0, "phase": "ready", "players": [{"credits": 0}],
                        "board": {"c3": {"owner": 0, "devs": 1}},
                        "vessels": [vessel("Refinery", 0, "c3") for _ in range(4)]})
    assert sorted(v.id for v in g.vessels.values()) == INSTANCES["Refinery"]
    assert g.credits[0] == 1 + 4 * 2  # income of one development, then four Refineries


def test_clone_copies_every_field() -> None:
    # Vessel.copy lists its fields by hand for speed: a field left out would silently reset.
    g, _ = setup(setup={"vessels": [vessel("Corvette", 0, "b2", damage=1, jumps=1, moved=True,
                                           atk_bonus=2, hp_bonus=1, shielded=True, no_attack=True)]})
    assert g.clone().to_json() == g.to_json()


def test_view_marks_which_choices_offer_cards() -> None:
    # RULE: DRAW-1 RULE: HAND-1
    # Deck choices offer 0/1/2 and must not be shown as the cards with those ids.
    g, _ = setup(setup={"active": 0, "phase": "ready",
                        "board": {"b3": {"system": "Trade World", "owner": 0},
                                  "c2": {"system": "Research World", "owner": 0}}})
    assert g.choice.kind == "deck"
    assert g.view(0)["choice"]["cards"] is False
    full = ["Barrage", "Ram", "Evasion", "Sabotage", "Filibuster"]
    g, _ = setup(setup={"active": 0, "phase": "ready", "players": [{"hand": full}],
                        "board": {"b3": {"system": "Trade World", "owner": 0}}})
    assert g.choice.kind == "hand_full"
    assert g.view(0)["choice"]["cards"] is True
    assert "options" not in g.view(1)["choice"]
