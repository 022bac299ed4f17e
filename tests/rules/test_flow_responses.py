"""Responses and targeting: RESP-1..3 and TARGET-1..3, played through the public Game API."""
from __future__ import annotations


import pytest

from starcom.sc.engine.game import Game
from starcom.errors import IllegalAction
from starcom.sc.cards.catalogue import CARD_DEF, DOMAINS
from starcom.sc.engine import lasting

from .helpers import setup, act, at






def card(g: Game, p: int, name: str) -> int:
    """The instance id of ``name`` in player ``p``'s hand or technologies."""
    return next(c for c in g.hands[p] + g.techs[p] if CARD_DEF[c].name == name)


def discard_names(g: Game, domain: str) -> list[str]:
    return sorted(CARD_DEF[c].name for c in g.discards[DOMAINS.index(domain)])




def pass_all(g: Game) -> list[tuple]:
    """Everyone passes until the responses are over; returns the events of the last pass."""
    events: list[tuple] = []
    while g.decision == "priority":
        events = g.apply(("pass",))
    return events


def resolved_names(events: list[tuple]) -> list[str]:
    """Names of the cards whose effect resolved, in the order they resolved."""
    return [CARD_DEF[e[2]].name for e in events if e[0] == "resolve"]


def three_players(hands: list[list[str]], active: int = 0) -> tuple[Game, dict[str, int]]:
    return setup(players=3, setup={
        "active": active, "phase": "command",
        "players": [{"hand": h} for h in hands],
        "board": {"b2": {"system": "Trade World", "owner": 0, "devs": 2}},
    })


# --------------------------------------------------------------------------- RESP-1


def test_priority_goes_active_first_then_clockwise_and_restarts_on_addition() -> None:
    # RULE: RESP-1 the player who played still gets priority first (as active player); an
    # addition restarts the round with the active player; everyone must pass in turn.
    g, L = three_players([["Trade Envoy", "Evasion"], ["Intercept Orders", "Evasion"],
                          ["Evasion"]])
    act(g, L, "play Trade Envoy b2")
    assert (g.decision, g.to_move) == ("priority", 0)
    act(g, L, "pass")
    assert g.to_move == 1
    act(g, L, "play Intercept Orders Trade Envoy")
    assert (g.decision, g.to_move) == ("priority", 0), "an addition restarts with the active player"
    act(g, L, "pass")
    act(g, L, "pass")
    assert (g.decision, g.to_move) == ("priority", 2), "P2 has not passed in this round yet"
    assert len(g.stack) == 2
    events = act(g, L, "pass")
    assert g.stack == [] and g.decision == "command" and g.to_move == 0
    # last in, first out: the Intercept Orders resolved first and cancelled the Trade Envoy
    assert resolved_names(events) == ["Intercept Orders"]
    assert [CARD_DEF[e[1]].name for e in events if e[0] == "countered"] == ["Trade Envoy"]
    assert g.credits[0] == 3
    assert discard_names(g, "industry") == ["Trade Envoy"]
    assert discard_names(g, "statecraft") == ["Intercept Orders"]


def test_whole_stack_resolves_last_in_first_out() -> None:
    # RULE: RESP-1 the active player answers the answer: P0's Intercept Orders (last in)
    # resolves first and cancels P1's, so the Trade Envoy (first in) resolves last, unharmed.
    g, L = three_players([["Trade Envoy", "Intercept Orders", "Evasion"],
                          ["Intercept Orders", "Evasion"], ["Evasion"]])
    envoy = card(g, 0, "Trade Envoy")
    act(g, L, "play Trade Envoy b2")
    act(g, L, "pass")
    p1_intercept = card(g, 1, "Intercept Orders")
    g.apply(("play", p1_intercept, envoy), player=1)
    assert g.to_move == 0
    g.apply(("play", card(g, 0, "Intercept Orders"), p1_intercept), player=0)
    assert [item[2] for item in g.stack][0] == envoy and len(g.stack) == 3
    act(g, L, "pass")
    act(g, L, "pass")
    events = act(g, L, "pass")
    assert resolved_names(events) == ["Intercept Orders", "Trade Envoy"]
    assert g.credits[0] == 3 + 2 * 2
    assert discard_names(g, "statecraft") == ["Intercept Orders", "Intercept Orders"]


def test_priority_order_with_four_players_starts_at_the_active_seat() -> None:
    # RULE: RESP-1 active player 2 first, then clockwise 3, 0, 1.
    g, L = setup(players=4, setup={
        "active": 2, "phase": "command",
        "players": [{"hand": ["Evasion"]}, {"hand": ["Evasion"]},
                    {"hand": ["Trade Envoy", "Evasion"]}, {"hand": ["Evasion"]}],
        "board": {"b2": {"system": "Trade World", "owner": 2, "devs": 1}},
    })
    act(g, L, "play Trade Envoy b2")
    seen = []
    while g.decision == "priority":
        seen.append(g.to_move)
        act(g, L, "pass")
    assert seen == [2, 3, 0, 1]
    assert g.credits[2] == 3 + 2


def test_players_who_cannot_respond_are_passed_over() -> None:
    # RULE: RESP-1 a player with no card in hand and nothing to use is passed automatically,
    # so the round closes once every player who could act has passed.
    g, L = three_players([["Trade Envoy", "Evasion"], [], ["Evasion"]])
    act(g, L, "play Trade Envoy b2")
    assert g.to_move == 0
    act(g, L, "pass")
    assert g.to_move == 2
    act(g, L, "pass")
    assert g.decision == "command" and g.credits[0] == 7


# --------------------------------------------------------------------------- RESP-2


def test_no_commands_outside_your_turn_except_as_responses() -> None:
    # RULE: RESP-2 during P0's Command phase P1 cannot just play a Command.
    g, L = three_players([["Trade Envoy", "Evasion"], ["Trade Envoy"], []])
    with pytest.raises(IllegalAction) as exc:
        g.apply(("play", card(g, 1, "Trade Envoy"), at(g, "b2")), player=1)
    assert exc.value.rule == "RESP-2"
    # once P0 plays, P1 may answer with a Command
    act(g, L, "play Trade Envoy b2")
    act(g, L, "pass")
    assert g.to_move == 1
    act(g, L, "play Trade Envoy b2")
    assert len(g.stack) == 2


def test_responses_are_commands_or_abilities_only() -> None:
    # RULE: RESP-2 technologies and station cards are not responses; abilities are.
    g, L = setup(setup={
        "active": 0, "phase": "command",
        "players": [{"hand": ["Trade Envoy", "Evasion"], "credits": 5},
                    {"hand": ["Advanced Shields", "Refinery"], "technologies": ["Railgun Turrets"],
                     "credits": 5}],
        "board": {"b2": {"system": "Trade World", "owner": 0, "devs": 2},
                  "a2": {"system": "Core World", "owner": 1, "devs": 2}},
        "vessels": [{"card": "Corvette", "owner": 1, "at": "a2", "label": "c1"}],
    })
    act(g, L, "play Trade Envoy b2")
    act(g, L, "pass")
    assert g.to_move == 1
    for name, targets in (("Advanced Shields", ()), ("Refinery", (at(g, "a2"),))):
        with pytest.raises(IllegalAction) as exc:
            g.apply(("play", card(g, 1, name), *targets))
        assert exc.value.rule == "RESP-2"
    kinds = {a[0] for a in g.legal_actions()}
    assert kinds == {"pass", "ability"}
    g.apply(("ability", card(g, 1, "Railgun Turrets"), L["c1"], 2))
    assert g.credits[1] == 3 and len(g.stack) == 2
    act(g, L, "pass")
    act(g, L, "pass")
    assert lasting.attack_bonus(g, L["c1"]) == 2 and g.credits[0] == 5 + 2 * 2


def test_non_active_player_acts_in_a_combat_window_without_a_stack() -> None:
    # RULE: RESP-2 the combat windows are open to every player, even with nothing to answer.
    g, L = setup(setup={
        "active": 0, "phase": "combat",
        "players": [{"hand": []}, {"hand": ["Evasion"]}],
        "vessels": [{"card": "Frigate", "owner": 0, "at": "b2", "label": "f0"},
                    {"card": "Corvette", "owner": 1, "at": "b2", "label": "c1"}],
    })
    assert (g.decision, g.to_move, g.stack) == ("priority", 1, [])
    act(g, L, "play Evasion $c1")
    assert lasting.shielded(g, L["c1"])
    assert g.decision == "assign" and g.to_move == 0


# --------------------------------------------------------------------------- RESP-3


def combat_pair(hands: list[list[str]], extra: list[dict] | None = None, credits: int = 3,
                techs: list[str] | None = None) -> tuple[Game, dict[str, int]]:
    return setup(setup={
        "active": 0, "phase": "command",
        "players": [{"hand": hands[0], "credits": credits, "technologies": techs or []},
                    {"hand": hands[1], "credits": credits}],
        "vessels": [{"card": "Corvette", "owner": 0, "at": "b2", "label": "c0"},
                    {"card": "Corvette", "owner": 1, "at": "b2", "label": "c1"},
                    *(extra or [])],
    })


def test_card_whose_target_is_gone_is_void_and_discarded() -> None:
    # RULE: RESP-3 Maximum Firepower on a Corvette that a Sabotage destroys first: no effect.
    g, L = combat_pair([["Maximum Firepower", "Evasion"], ["Sabotage"]])
    act(g, L, "play Maximum Firepower $c0")
    act(g, L, "pass")
    act(g, L, "play Sabotage $c0")
    events = pass_all(g)
    assert L["c0"] not in g.vessels
    voids = [e for e in events if e[0] == "void"]
    assert [CARD_DEF[e[2]].name for e in voids] == ["Maximum Firepower"]
    assert resolved_names(events) == ["Sabotage"]
    assert discard_names(g, "industry") == ["Maximum Firepower"]
    assert discard_names(g, "statecraft") == ["Sabotage"]


def test_card_whose_target_is_still_there_resolves() -> None:
    # RULE: RESP-3 (control) the same Maximum Firepower, unanswered, takes effect.
    g, L = combat_pair([["Maximum Firepower", "Evasion"], ["Sabotage"]])
    act(g, L, "play Maximum Firepower $c0")
    events = pass_all(g)
    assert resolved_names(events) == ["Maximum Firepower"]
    assert lasting.attack_bonus(g, L["c0"]) == 2


def test_ram_with_its_target_gone_leaves_the_rammer_alive() -> None:
    # RULE: RESP-3 P1 rams first (LIFO), destroying the vessel P0's Ram wanted to hit; P0's Ram is
    # void, so P0's Frigate is not sacrificed.
    g, L = combat_pair([["Ram", "Evasion"], ["Ram"]], extra=[
        {"card": "Frigate", "owner": 0, "at": "a2", "label": "f0"},
        {"card": "Corvette", "owner": 1, "at": "a2", "label": "c1b"},
        {"card": "Destroyer", "owner": 0, "at": "a2", "label": "d0"}])
    act(g, L, "play Ram $f0 $c1b")
    act(g, L, "pass")
    act(g, L, "play Ram $c1b $d0")
    events = pass_all(g)
    assert L["c1b"] not in g.vessels
    assert g.vessels[L["d0"]].damage == 2
    assert L["f0"] in g.vessels and g.vessels[L["f0"]].damage == 0
    assert [CARD_DEF[e[2]].name for e in events if e[0] == "void"] == ["Ram"]
    assert discard_names(g, "industry") == ["Ram", "Ram"]


def test_void_ability_keeps_its_paid_cost() -> None:
    # RULE: RESP-3 an ability whose target is gone does nothing; what was paid stays paid.
    g, L = combat_pair([["Evasion"], ["Sabotage"]], credits=5, techs=["Railgun Turrets"])
    railgun = card(g, 0, "Railgun Turrets")
    act(g, L, "ability Railgun Turrets $c0 3")
    assert g.credits[0] == 2
    act(g, L, "pass")
    act(g, L, "play Sabotage $c0")
    events = pass_all(g)
    assert L["c0"] not in g.vessels and g.credits[0] == 2
    assert [e[2] for e in events if e[0] == "void"] == [railgun]
    assert railgun in g.techs[0]


# --------------------------------------------------------------------------- TARGET-1..3


def test_vessels_assign_damage_only_in_their_own_system() -> None:
    # RULE: TARGET-1 in combat at b2, a vessel at a2 is out of reach.
    g, L = setup(setup={
        "active": 0, "phase": "combat",
        "vessels": [{"card": "Frigate", "owner": 0, "at": "b2", "label": "f0"},
                    {"card": "Corvette", "owner": 1, "at": "b2", "label": "c1"},
                    {"card": "Corvette", "owner": 1, "at": "a2", "label": "far"},
                    {"card": "Scout", "owner": 0, "at": "a2"}],
    })
    assert g.decision == "combat_pick"
    act(g, L, "fight b2")
    assert g.decision == "assign"
    with pytest.raises(IllegalAction) as exc:
        act(g, L, "assign $f0 $far 3")
    assert exc.value.rule == "TARGET-1"
    targets = {a[2] for a in g.legal_actions() if a[0] == "assign"}
    assert targets == {L["c1"]}


def test_barrage_and_ram_act_only_in_their_vessel_system() -> None:
    # RULE: TARGET-1 an ability making your vessel act on others acts in that vessel's system.
    g, L = setup(setup={
        "active": 0, "phase": "command",
        "players": [{"hand": ["Barrage", "Ram"]}, {"hand": []}],
        "vessels": [{"card": "Frigate", "owner": 0, "at": "b2", "label": "f0"},
                    {"card": "Corvette", "owner": 1, "at": "b2", "label": "near"},
                    {"card": "Corvette", "owner": 1, "at": "a2", "label": "far"},
                    {"card": "Scout", "owner": 0, "at": "a2"}],
    })
    with pytest.raises(IllegalAction):
        act(g, L, "play Ram $f0 $far")
    act(g, L, "play Barrage $f0")
    pass_all(g)
    assert L["near"] not in g.vessels
    assert g.vessels[L["far"]].damage == 0


def test_target_cards_reach_any_system() -> None:
    # RULE: TARGET-2 Evasion and Maximum Firepower target vessels where P0 has nothing at all;
    # Sabotage ("a system where you have a vessel") does not.
    g, L = setup(setup={
        "active": 0, "phase": "command",
        "players": [{"hand": ["Evasion", "Maximum Firepower", "Sabotage"]}, {"hand": []}],
        "vessels": [{"card": "Scout", "owner": 0, "at": "c3"},
                    {"card": "Corvette", "owner": 1, "at": "a1", "label": "far"}],
    })
    legal = set(g.legal_actions())
    assert ("play", card(g, 0, "Sabotage"), L["far"]) not in legal
    act(g, L, "play Evasion $far")
    pass_all(g)
    act(g, L, "play Maximum Firepower $far")
    pass_all(g)
    assert lasting.shielded(g, L["far"]) and lasting.attack_bonus(g, L["far"]) == 2


def test_vessel_means_ship_or_station() -> None:
    # RULE: TARGET-3 "vessel" cards take stations as well as ships; "ship" cards do not.
    g, L = setup(setup={
        "active": 0, "phase": "command",
        "players": [{"hand": ["Sabotage", "Evasion", "Maximum Firepower"]}, {"hand": []}],
        "board": {"b2": {"system": "Trade World", "owner": 1, "devs": 2}},
        "vessels": [{"card": "Corvette", "owner": 0, "at": "b2", "label": "c0"},
                    {"card": "Defense Station", "owner": 1, "at": "b2", "label": "ds"},
                    {"card": "Corvette", "owner": 1, "at": "b2", "label": "c1"}],
    })
    legal = set(g.legal_actions())
    sab, eva = card(g, 0, "Sabotage"), card(g, 0, "Evasion")
    assert ("play", sab, L["ds"]) in legal and ("play", sab, L["c1"]) in legal
    assert ("play", eva, L["c1"]) in legal and ("play", eva, L["ds"]) not in legal
    act(g, L, "play Maximum Firepower $ds")
    pass_all(g)
    assert lasting.attack_bonus(g, L["ds"]) == 2
    act(g, L, "play Sabotage $ds")
    pass_all(g)
    assert L["ds"] not in g.vessels and L["c1"] in g.vessels
