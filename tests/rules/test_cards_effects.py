"""Card effects that YAML scenarios cannot reach easily: answers to answers on the stack, an
empty supply, and setup facts across player counts."""
from __future__ import annotations

from typing import Any

import pytest

from starcom.sc.engine import lasting as L
from starcom.sc.engine.game import Game
from starcom.sc.cards.catalogue import CARD_DEF, INSTANCES
from starcom.sc.scenario import build, parse_action


def play(g: Game, labels: dict[str, int], *args: Any) -> list[tuple]:
    return g.apply(parse_action(g, list(args), labels))


def in_hand(g: Game, p: int, name: str) -> int:
    return next(c for c in g.hands[p] if CARD_DEF[c].name == name)


def stack_card(g: Game, player: int, name: str) -> int:
    return next(item[2] for item in g.stack
                if item[0] == "card" and item[1] == player and CARD_DEF[item[2]].name == name)


def sabotage_position() -> tuple[Game, dict[str, int]]:
    return build({"setup": {
        "active": 0,
        "players": [{"hand": ["Sabotage", "Intercept Orders"]}, {"hand": ["Intercept Orders"]}],
        "vessels": [{"card": "Scout", "owner": 0, "at": "b2"},
                    {"card": "Corvette", "owner": 1, "at": "b2", "label": "c"}],
    }})


# RULE: CARD-Intercept-Orders RULE: RESP-1
def test_intercept_orders_can_counter_an_intercept_orders() -> None:
    g, labels = sabotage_position()
    play(g, labels, "play", in_hand(g, 0, "Sabotage"), "$c")
    play(g, labels, "pass")
    assert g.to_move == 1 and g.decision == "priority"
    play(g, labels, "play", in_hand(g, 1, "Intercept Orders"), stack_card(g, 0, "Sabotage"))
    # any addition restarts the round with the active player, who answers the answer
    assert g.to_move == 0
    their_io = stack_card(g, 1, "Intercept Orders")
    # both hands are now empty, so everyone passes at once and the stack resolves
    events = play(g, labels, "play", in_hand(g, 0, "Intercept Orders"), their_io)
    assert ("countered", their_io) in events
    assert labels["c"] not in g.vessels, "the Sabotage was not countered, so it destroyed the Corvette"
    assert sorted(CARD_DEF[c].name for c in g.discards[1]) == [
        "Intercept Orders", "Intercept Orders", "Sabotage"]
    assert g.stack == []


# RULE: CARD-Intercept-Orders
def test_intercept_orders_needs_a_command_on_the_stack() -> None:
    g, labels = build({"setup": {"active": 0, "players": [{"hand": ["Intercept Orders"]}]}})
    io = INSTANCES["Intercept Orders"]
    assert not [a for a in g.legal_actions() if a[0] == "play" and a[1] in io]


# RULE: CARD-Intercept-Orders RULE: RESP-3
def test_intercept_orders_whose_target_already_resolved_is_void() -> None:
    """Two answers to one Sabotage: the later one resolves first and counters it, so the
    earlier Intercept Orders finds no target and is void."""
    g, labels = build({"setup": {
        "active": 0,
        "players": [{"hand": ["Sabotage", "Trade Envoy"]}, {"hand": ["Intercept Orders", "Intercept Orders"]}],
        "vessels": [{"card": "Scout", "owner": 0, "at": "b2"},
                    {"card": "Corvette", "owner": 1, "at": "b2", "label": "c"}],
    }})
    play(g, labels, "play", in_hand(g, 0, "Sabotage"), "$c")
    play(g, labels, "pass")
    sab = stack_card(g, 0, "Sabotage")
    first, second = g.hands[1]
    play(g, labels, "play", first, sab)
    play(g, labels, "pass")  # P0
    play(g, labels, "play", second, sab)
    events = play(g, labels, "pass")
    assert ("countered", sab) in events
    assert any(e[0] == "void" and e[2] == first for e in events)
    assert labels["c"] in g.vessels


# RULE: CARD-Military-Base RULE: COMP-2
def test_military_base_with_an_empty_supply_builds_nothing() -> None:
    stations = [{"card": "Defense Station", "owner": 1, "at": "a1"} for _ in range(20)]
    g, labels = build({"setup": {
        "active": 0,
        "board": {"b3": {"system": "Military Base"}},
        "vessels": [{"card": "Corvette", "owner": 0, "at": "b3"}, *stations],
    }})
    assert g.supply["Defense Station"] == []
    play(g, labels, "develop", "b3")
    b3 = parse_action(g, ["x", "b3"], labels)[1]
    assert g.sites[b3].owner == 0 and g.sites[b3].devs == 1
    assert [v.d.name for v in g.vessels.values() if v.pos == b3] == ["Corvette"]


# RULE: CARD-Scout RULE: SETUP-2
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_starts_with_exactly_one_scout_at_home(players: int) -> None:
    g = Game.new(players=players, size=4, seed=3)
    for p in range(players):
        mine = [v for v in g.vessels.values() if v.owner == p]
        assert [v.d.name for v in mine] == ["Scout"]
        assert mine[0].pos == g.homeworld[p]
    assert len(g.supply["Scout"]) == 4 - players


# RULE: CARD-Filibuster RULE: TURN-1
def test_filibuster_extra_turn_has_a_ready_phase() -> None:
    g, labels = build({"setup": {
        "active": 0,
        "players": [{"credits": 0, "hand": ["Filibuster"]}],
    }})
    play(g, labels, "play", in_hand(g, 0, "Filibuster"))
    events = play(g, labels, "end")
    assert g.active == 0 and g.decision == "command"
    assert ("phase", "ready") in events
    assert g.credits[0] == 1  # the Homeworld's development paid again


# RULE: CARD-Experimental-Shields RULE: TARGET-2
def test_experimental_shields_may_target_an_opponents_vessel_and_its_text_says_so() -> None:
    """Issue 30, item 6: the card says "a target vessel", and TARGET-2 lets such a card pick a
    vessel anywhere, whoever owns it; so an opponent's Corvette is a legal target (unlike
    Railgun Turrets, whose "your target vessel" keeps to your own). The engine offered it
    rightly; the card's own wording ("a vessel of yours") was wrong and is now fixed."""
    g, labels = build({"setup": {
        "active": 0,
        "players": [{"hand": ["Evasion"], "technologies": ["Experimental Shields", "Railgun Turrets"],
                     "credits": 3}],
        "vessels": [{"card": "Corvette", "owner": 1, "at": "a2", "label": "foe"},
                    {"card": "Frigate", "owner": 0, "at": "b2", "label": "mine"}],
    }})
    shields = next(c for c in g.techs[0] if CARD_DEF[c].name == "Experimental Shields")
    railgun = next(c for c in g.techs[0] if CARD_DEF[c].name == "Railgun Turrets")
    targets = {a[2] for a in g.legal_actions() if a[0] == "ability" and a[1] == shields}
    assert {labels["foe"], labels["mine"]} <= targets
    assert labels["foe"] not in {a[2] for a in g.legal_actions() if a[0] == "ability" and a[1] == railgun}
    text = CARD_DEF[shields].text
    assert "of yours" not in text and "another player" in text
    play(g, labels, "ability", shields, "$foe")
    play(g, labels, "choose", in_hand(g, 0, "Evasion"))
    while g.stack:  # the ability resolves once everyone passes
        play(g, labels, "pass")
    assert L.shielded(g, labels["foe"]) and L.untargetable(g, labels["foe"])
