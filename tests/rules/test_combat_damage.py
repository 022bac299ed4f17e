"""Dividing damage (COMBAT-4), redirects (COMBAT-5) and resolution (COMBAT-6), in both editions'
lethal-damage rules."""
from __future__ import annotations

from typing import Any

import pytest

from starcom.sc.engine.game import Game
from starcom.errors import IllegalAction

from .helpers import setup, act, at, vessel










def damage_events(events: list[tuple]) -> dict[int, int]:
    out: dict[int, int] = {}
    for e in events:
        if e[0] == "damage":
            out[e[1]] = out.get(e[1], 0) + e[2]
    return out


def settle(g: Game, events: list[tuple] | None = None) -> list[tuple]:
    """Pass every open window; returns ``events`` plus everything that happened meanwhile."""
    out = list(events or [])
    while g.decision == "priority":
        out += g.apply(("pass",))
    return out


def fight(vessels: list[dict], edition: str = "standard", hands: list[list[str]] | None = None,
          techs: list[list[str]] | None = None) -> tuple[Game, dict[str, int]]:
    """A combat at b2 with P0 active; P1 has no cards unless given some."""
    hands = hands or [[], []]
    techs = techs or [[], []]
    return setup(edition=edition, setup={
        "active": 0, "phase": "combat",
        "players": [{"hand": hands[i], "technologies": techs[i]} for i in range(2)],
        "vessels": vessels})


def three_targets(attacker: str, **kw: Any) -> tuple[Game, dict[str, int]]:
    return fight([vessel(attacker, 0, "b2", "x"), vessel("Destroyer", 1, "b2", "a"),
                  vessel("Destroyer", 1, "b2", "b"), vessel("Destroyer", 1, "b2", "c")], **kw)


# --------------------------------------------------------------------------- COMBAT-4


def test_corvette_divides_between_two_targets() -> None:
    # RULE: COMBAT-4 Corvette, 2 attack: 1 to each of two Destroyers.
    g, L = three_targets("Corvette")
    act(g, L, "assign $x $a 1")
    assert g.to_move == 0, "1 attack is still to assign"
    act(g, L, "assign $x $b 1")
    assert g.to_move == 1
    events = settle(g, act(g, L, "done"))
    assert damage_events(events) == {L["a"]: 1, L["b"]: 1}


def test_battleship_divides_between_at_most_two_targets() -> None:
    # RULE: COMBAT-4 a third target is refused; the rest may go to a chosen target.
    g, L = three_targets("Battleship")
    act(g, L, "assign $x $a 2")
    act(g, L, "assign $x $b 2")
    with pytest.raises(IllegalAction) as exc:
        act(g, L, "assign $x $c 2")
    assert exc.value.rule == "COMBAT-4"
    assert {a[2] for a in g.legal_actions() if a[0] == "assign"} == {L["a"], L["b"]}
    act(g, L, "assign $x $a 2")
    events = settle(g, act(g, L, "done"))
    assert damage_events(events) == {L["a"]: 4, L["b"]: 2}


def test_targeting_systems_divides_among_any_number() -> None:
    # RULE: COMBAT-4 with Targeting Systems the Battleship hits all three.
    g, L = three_targets("Battleship", techs=[["Targeting Systems"], []])
    for t in ("a", "b", "c"):
        act(g, L, f"assign $x ${t} 2")
    events = settle(g, act(g, L, "done"))
    assert damage_events(events) == {L["a"]: 2, L["b"]: 2, L["c"]: 2}


def test_a_single_target_vessel_cannot_divide() -> None:
    # RULE: COMBAT-4 only vessels that may select an additional target divide (Frigate cannot).
    g, L = three_targets("Frigate")
    with pytest.raises(IllegalAction):
        act(g, L, "assign $x $a 1")
    assert {a[3] for a in g.legal_actions() if a[0] == "assign"} == {3}


def test_maximum_firepower_adds_attack_and_a_target() -> None:
    # RULE: COMBAT-4 Frigate +2 attack (5), split over two targets.
    g, L = three_targets("Frigate", hands=[["Maximum Firepower", "Evasion"], []])
    act(g, L, "play Maximum Firepower $x")
    while g.decision == "priority":
        act(g, L, "pass")
    act(g, L, "assign $x $a 3")
    act(g, L, "assign $x $b 1")
    with pytest.raises(IllegalAction) as exc:
        act(g, L, "assign $x $c 1")
    assert exc.value.rule == "COMBAT-4"
    act(g, L, "assign $x $b 1")
    assert g.to_move == 1
    events = settle(g, act(g, L, "done"))
    assert damage_events(events) == {L["a"]: 3, L["b"]: 2}


@pytest.mark.parametrize("amount", [0, 3, -1])
def test_damage_is_whole_numbers_within_the_attack(amount: int) -> None:
    # RULE: COMBAT-4 Corvette (2 attack): no 0, no more than is left, no negatives.
    g, L = three_targets("Corvette")
    with pytest.raises(IllegalAction) as exc:
        g.apply(("assign", L["x"], L["a"], amount))
    assert exc.value.rule == "COMBAT-4"


def test_fractional_damage_is_refused() -> None:
    # RULE: COMBAT-4 damage is whole numbers.
    g, L = three_targets("Corvette")
    with pytest.raises(IllegalAction):
        g.apply(("assign", L["x"], L["a"], 1.5))
    assert g.assigned == []


# --------------------------------------------------------------------------- COMBAT-5


def redirect_fight(redirector: str = "Destroyer", **kw: Any) -> tuple[Game, dict[str, int]]:
    """P0: two Frigates; P1: a redirecting vessel, a Scout and a Corvette, all at b2."""
    return fight([vessel("Frigate", 0, "b2", "f"), vessel("Frigate", 0, "b2", "g"),
                  vessel(redirector, 1, "b2", "r"), vessel("Scout", 1, "b2", "s"),
                  vessel("Corvette", 1, "b2", "c")], **kw)


def test_destroyer_takes_all_damage_assigned_to_another_vessel() -> None:
    # RULE: COMBAT-5 both Frigates hit the Scout (6); the Destroyer takes all of it.
    g, L = redirect_fight()
    act(g, L, "assign $f $s 3")
    act(g, L, "assign $g $s 3")
    act(g, L, "assign $r $f 4")
    act(g, L, "assign $c $g 2")
    assert (g.decision, g.to_move) == ("priority", 1)
    events = settle(g, act(g, L, "redirect $r $s"))
    assert L["s"] in g.vessels
    assert L["r"] not in g.vessels  # 6 damage on 5 hit points
    assert L["s"] not in damage_events(events)


def test_redirect_only_once_per_combat_and_only_before_resolution() -> None:
    # RULE: COMBAT-5 one redirect per combat; none before assignment or after resolution.
    g, L = redirect_fight(hands=[[], ["Evasion"]])
    # window before assignment: P0 has nothing, P1 may not redirect yet
    assert (g.decision, g.to_move) == ("priority", 1)
    assert not [a for a in g.legal_actions() if a[0] == "redirect"]
    act(g, L, "pass")
    act(g, L, "assign $f $s 3")
    act(g, L, "assign $g $c 3")
    act(g, L, "done")
    act(g, L, "redirect $r $s")
    with pytest.raises(IllegalAction) as exc:
        act(g, L, "redirect $r $c")
    assert exc.value.rule == "COMBAT-5"
    events = act(g, L, "pass")
    assert damage_events(events) == {L["r"]: 3, L["c"]: 3}
    assert g.decision == "priority"  # window after resolution
    assert not [a for a in g.legal_actions() if a[0] == "redirect"]


def test_redirect_needs_damage_on_another_own_vessel() -> None:
    # RULE: COMBAT-5 not from an opposing vessel, not from a vessel with nothing assigned.
    g, L = redirect_fight()
    act(g, L, "assign $f $s 3")
    act(g, L, "done")
    act(g, L, "done")
    for text in ("redirect $r $f", "redirect $r $c", "redirect $r $r"):
        with pytest.raises(IllegalAction) as exc:
            act(g, L, text)
        assert exc.value.rule == "COMBAT-5"
    assert g.legal_actions() == [("pass",), ("redirect", L["r"], L["s"])]


def test_defense_station_redirects() -> None:
    # RULE: COMBAT-5 Defense Station (1/4) takes the Scout's 3 damage and survives.
    g, L = redirect_fight("Defense Station")
    act(g, L, "assign $f $s 3")
    act(g, L, "done")
    act(g, L, "done")
    events = act(g, L, "redirect $r $s")
    assert damage_events(events) == {L["r"]: 3}
    assert L["s"] in g.vessels


def test_raise_shields_lets_any_vessel_redirect_this_turn() -> None:
    # RULE: COMBAT-5 a Corvette with Raise Shields (2+2 hit points) redirects the Scout's damage.
    g, L = redirect_fight("Corvette", hands=[[], ["Raise Shields"]])
    act(g, L, "play Raise Shields $r")
    act(g, L, "assign $f $s 3")
    act(g, L, "done")
    act(g, L, "done")
    assert ("redirect", L["r"], L["s"]) in g.legal_actions()
    assert ("redirect", L["c"], L["s"]) not in g.legal_actions()
    events = act(g, L, "redirect $r $s")
    assert damage_events(events) == {L["r"]: 3}
    assert L["r"] in g.vessels and L["s"] in g.vessels


def test_a_destroyer_redirects_again_in_a_later_combat() -> None:
    # RULE: COMBAT-5 "once per combat", not once per game: next turn it may redirect again.
    g, L = fight([vessel("Frigate", 0, "b2", "f"), vessel("Destroyer", 1, "b2", "r"),
                  vessel("Scout", 1, "b2", "s")])
    act(g, L, "assign $f $s 3")
    act(g, L, "done")
    act(g, L, "redirect $r $s")
    assert g.active == 1 and g.decision == "command"
    act(g, L, "end")
    assert g.decision == "assign" and g.to_move == 1
    act(g, L, "done")
    act(g, L, "assign $f $s 3")
    assert ("redirect", L["r"], L["s"]) in g.legal_actions()


# --------------------------------------------------------------------------- COMBAT-6


@pytest.mark.parametrize("edition,survive", [("standard", False), ("classic", True)])
def test_damage_lands_simultaneously(edition: str, survive: bool) -> None:
    # RULE: COMBAT-6 two Frigates (3/3) shoot each other: both are hit, whatever the order.
    # Lethal damage: standard 3 >= 3 destroys both; classic needs more than 3.
    g, L = fight([vessel("Frigate", 0, "b2", "a"), vessel("Frigate", 1, "b2", "b")],
                 edition=edition)
    act(g, L, "assign $a $b 3")
    events = act(g, L, "assign $b $a 3")
    assert damage_events(events) == {L["a"]: 3, L["b"]: 3}
    assert (L["a"] in g.vessels, L["b"] in g.vessels) == (survive, survive)
    if survive:  # classic damage stays after the turn (END-3)
        assert g.vessels[L["a"]].damage == g.vessels[L["b"]].damage == 3


@pytest.mark.parametrize("edition,hits_to_kill", [("standard", 2), ("classic", 3)])
def test_lethal_damage_by_edition(edition: str, hits_to_kill: int) -> None:
    # RULE: COMBAT-6 a Corvette (2 hit points) hit by 1-damage Strike Fighters.
    fighters = [vessel("Strike Fighter", 0, "b2", f"s{i}") for i in range(3)]
    g, L = fight([*fighters, vessel("Corvette", 1, "b2", "c", damage=0)], edition=edition)
    for i in range(hits_to_kill - 1):
        act(g, L, f"assign $s{i} $c 1")
    act(g, L, "done")
    events = act(g, L, "done")
    assert L["c"] in g.vessels and damage_events(events) == {L["c"]: hits_to_kill - 1}
    g2, L2 = fight([*fighters, vessel("Corvette", 1, "b2", "c")], edition=edition)
    for i in range(hits_to_kill):
        act(g2, L2, f"assign $s{i} $c 1")
    if g2.decision == "assign" and g2.to_move == 0:
        act(g2, L2, "done")
    act(g2, L2, "done")
    assert L2["c"] not in g2.vessels


def test_an_attacker_destroyed_by_a_response_deals_no_damage() -> None:
    # RULE: COMBAT-6 P1's Frigate, Sabotaged after assigning, never hits P0's Corvette.
    g, L = fight([vessel("Corvette", 0, "b2", "c"), vessel("Frigate", 1, "b2", "f")],
                 hands=[["Sabotage"], []])
    act(g, L, "pass")
    act(g, L, "assign $c $f 2")
    act(g, L, "assign $f $c 3")
    assert g.decision == "priority" and g.to_move == 0
    events = act(g, L, "play Sabotage $f")
    assert L["f"] not in g.vessels
    assert L["c"] in g.vessels and L["c"] not in damage_events(events)


def test_a_vessel_moved_away_before_resolution_neither_deals_nor_takes_damage() -> None:
    # RULE: COMBAT-6 RULE: TARGET-1 (RULING) after assignment P1 bribes P0's Frigate into b1:
    # it is no longer in the fight, so its damage and the damage assigned to it do not land.
    g, L = fight([vessel("Frigate", 0, "b2", "f"), vessel("Destroyer", 1, "b2", "d")],
                 hands=[[], ["Bribery"]])
    act(g, L, "pass")
    act(g, L, "assign $f $d 3")
    act(g, L, "assign $d $f 4")
    events = act(g, L, "play Bribery $f b1 1")
    assert g.vessels[L["f"]].pos == at(g, "b1")
    assert damage_events(events) == {}
    assert L["f"] in g.vessels and L["d"] in g.vessels


def test_damage_to_one_vessel_from_several_sources_adds_up() -> None:
    # RULE: COMBAT-6 Corvette (2) + Corvette (2) on a Frigate (3): destroyed.
    g, L = fight([vessel("Corvette", 0, "b2", "a"), vessel("Corvette", 0, "b2", "b"),
                  vessel("Frigate", 1, "b2", "f")], edition="classic")
    act(g, L, "assign $a $f 2")
    act(g, L, "assign $b $f 2")
    act(g, L, "done")
    assert L["f"] not in g.vessels
