"""Command-phase actions through the public API: an illegal action raises IllegalAction whose
``rule`` is the rule that forbids it (per edition), and leaves the game untouched."""
from __future__ import annotations

from typing import Any

import pytest

from starcom.sc.engine.game import Game
from starcom.errors import IllegalAction
from starcom.sc.scenario import build, parse_action

# (edition, setup, action, rule): each action is legal in the other edition or a neighbouring
# position, and illegal here because of exactly that rule.
CASES: list[tuple[str, dict[str, Any], str, str]] = [
    # RULE: MOVE-4 standard only
    ("standard", {"board": {"b1": {"system": "Trade World", "owner": 1}},
                  "vessels": [{"card": "Corvette", "owner": 0, "at": "b1", "label": "v"}]},
     "jump $v a1 0 0", "MOVE-4"),
    # RULE: EXPLORE-1 standard: exploring is mandatory
    ("standard", {"board": {"b3": {"system": "Empty System", "face_up": False}},
                  "vessels": [{"card": "Corvette", "owner": 0, "at": "c3", "label": "v"}]},
     "jump $v b3 0 0", "EXPLORE-1"),
    # RULE: BUILD-4 standard: two developments, two Corvettes
    ("standard", {"players": [{"credits": 9}], "board": {"c3": {"devs": 2}},
                  "vessels": [{"card": "Corvette", "owner": 0, "at": "c3"},
                              {"card": "Corvette", "owner": 0, "at": "c3"}]},
     "build Corvette c3", "BUILD-4"),
    # RULE: BUILD-6 classic: one development, one fighter there
    ("classic", {"players": [{"credits": 9}], "board": {"b3": {"system": "Trade World", "owner": 0, "devs": 3}},
                 "vessels": [{"card": "Strike Fighter", "owner": 0, "at": "c3"}]},
     "build Strike Fighter c3", "BUILD-6"),
    # RULE: BUILD-5 classic: contested
    ("classic", {"players": [{"credits": 9}],
                 "board": {"b3": {"system": "Forsei", "owner": 0, "devs": 2, "combat_this_turn": True}}},
     "build Corvette b3", "BUILD-5"),
    # RULE: DEV-1 standard: a fighter cannot develop
    ("standard", {"board": {"b3": {"system": "Empty System", "face_up": True}},
                  "vessels": [{"card": "Strike Fighter", "owner": 0, "at": "b3"}]},
     "develop b3", "DEV-1"),
    # RULE: REPAIR-1 standard: no repairs at all
    ("standard", {"players": [{"credits": 9}],
                  "vessels": [{"card": "Destroyer", "owner": 0, "at": "c3", "label": "v", "damage": 1}]},
     "repair $v", "REPAIR-1"),
    # RULE: TRADE-1 standard: full hand
    ("standard", {"players": [{"credits": 9, "hand": ["Ram", "Barrage", "Evasion", "Sabotage", "Bribery"]}],
                  "board": {"b3": {"system": "Alien System", "owner": 0}}},
     "buy", "TRADE-1"),
    # RULE: SCRAP-1 both editions: contested
    ("classic", {"board": {"b3": {"system": "Empty System", "owner": 0, "combat_this_turn": True}},
                 "vessels": [{"card": "Corvette", "owner": 0, "at": "b3", "label": "v"}]},
     "scrap $v", "SCRAP-1"),
    # RULE: DEV-3 both editions
    ("classic", {"players": [{"credits": 9}], "board": {"b3": {"system": "Empty System", "owner": 0}}},
     "develop b3", "DEV-3"),
]
OTHER = {"standard": "classic", "classic": "standard"}
EDITION_RULES = {"MOVE-4", "EXPLORE-1", "BUILD-4", "BUILD-6", "BUILD-5", "DEV-1", "REPAIR-1", "TRADE-1"}


def _position(edition: str, setup: dict[str, Any]) -> tuple[Game, dict[str, int]]:
    return build({"edition": edition, "setup": {"active": 0, **setup}})


@pytest.mark.parametrize("edition,setup,text,rule", CASES, ids=[f"{c[3]}-{c[0]}" for c in CASES])
def test_illegal_action_names_its_rule_and_changes_nothing(edition: str, setup: dict[str, Any],
                                                           text: str, rule: str) -> None:
    g, labels = _position(edition, setup)
    action = parse_action(g, text, labels)
    before = g.to_json()
    assert action not in g.legal_actions()
    with pytest.raises(IllegalAction) as info:
        g.apply(action)
    assert info.value.rule == rule, info.value.reason
    assert g.to_json() == before


@pytest.mark.parametrize("edition,setup,text,rule",
                         [c for c in CASES if c[3] in EDITION_RULES],
                         ids=[f"{c[3]}-{OTHER[c[0]]}" for c in CASES if c[3] in EDITION_RULES])
def test_the_same_action_is_legal_in_the_other_edition(edition: str, setup: dict[str, Any],
                                                       text: str, rule: str) -> None:
    # The edition switches of RULES.md ("Editions"): what one edition forbids, the other allows.
    g, labels = _position(OTHER[edition], setup)
    action = parse_action(g, text, labels)
    assert action in g.legal_actions()
    g.apply(action)


def test_the_same_card_cannot_be_sold_twice() -> None:
    # RULE: TRADE-2 two different cards from your own hand.
    g, labels = _position("standard", {"players": [{"credits": 0, "hand": ["Evasion", "Ram"]}]})
    evasion = parse_action(g, "sell Evasion Ram", labels)[1]
    with pytest.raises(IllegalAction) as info:
        g.apply(("sell", evasion, evasion))
    assert info.value.rule == "TRADE-2"
    assert g.credits[0] == 0 and len(g.hands[0]) == 2
    assert ("sell", evasion, evasion) not in g.legal_actions()
