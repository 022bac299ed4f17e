"""Retreat (COMBAT-7): unmoved ships, to an adjacent system their controller controls, active
player first."""
from __future__ import annotations


import pytest

from starcom.sc.engine.game import Game
from starcom.errors import IllegalAction
from starcom.sc.scenario import build

from .helpers import act, at, vessel








def retreat_position(active: int = 0) -> tuple[Game, dict[str, int]]:
    """A fight at b2. P0 controls c2 (adjacent) and c3 (not); P1 controls b1 (adjacent) and a1."""
    return build({"setup": {
        "active": active, "phase": "combat",
        "board": {"c2": {"system": "Trade World", "owner": 0, "devs": 1},
                  "b1": {"system": "Research World", "owner": 1, "devs": 1},
                  "b3": {"system": "Core World", "face_up": True}},
        "vessels": [vessel("Frigate", 0, "b2", "f"), vessel("Corvette", 0, "b2", "m", moved=True),
                    vessel("Strike Fighter", 0, "b2", "sf"), vessel("Corvette", 1, "b2", "c")]}})


def decline_until_retreat(g: Game, labels: dict[str, int]) -> None:
    while g.decision in ("assign", "priority"):
        act(g, labels, "done" if g.decision == "assign" else "pass")


def test_only_unmoved_ships_retreat_to_adjacent_systems_their_player_controls() -> None:
    # RULE: COMBAT-7 the Frigate may go to c2; not to b3 (uncontrolled) or c3 (not adjacent);
    # the Corvette that jumped this turn and the speed-0 fighter stay.
    g, L = retreat_position()
    decline_until_retreat(g, L)
    assert (g.decision, g.to_move) == ("retreat", 0)
    assert sorted(g.legal_actions()) == sorted([("done",), ("retreat", L["f"], at(g, "c2"))])
    for text in ("retreat $m c2", "retreat $f b3", "retreat $f c3", "retreat $sf c2"):
        with pytest.raises(IllegalAction) as exc:
            act(g, L, text)
        assert exc.value.rule == "COMBAT-7"
    act(g, L, "retreat $f c2")
    assert g.to_move == 1 and g.decision == "retreat"
    assert g.legal_actions() == [("retreat", L["c"], at(g, "b1")), ("done",)]
    act(g, L, "retreat $c b1")
    assert g.vessels[L["f"]].pos == at(g, "c2") and g.vessels[L["c"]].pos == at(g, "b1")
    assert g.vessels[L["m"]].pos == g.vessels[L["sf"]].pos == at(g, "b2")


def test_retreat_order_starts_with_the_active_player() -> None:
    # RULE: COMBAT-7 with P1 active, P1 retreats first.
    g, L = retreat_position(active=1)
    decline_until_retreat(g, L)
    assert (g.decision, g.to_move) == ("retreat", 1)
    act(g, L, "done")
    assert (g.decision, g.to_move) == ("retreat", 0)


def test_stations_never_retreat() -> None:
    # RULE: COMBAT-7 retreat moves ships; a Defense Station in b2 stays.
    g, L = build({"setup": {
        "active": 0, "phase": "combat",
        "board": {"b2": {"owner": 0, "devs": 1}, "c2": {"owner": 0, "devs": 1}},
        "vessels": [vessel("Defense Station", 0, "b2", "ds"), vessel("Scout", 0, "b2", "s"),
                    vessel("Corvette", 1, "b2", "c")]}})
    decline_until_retreat(g, L)
    assert g.decision == "retreat"
    assert {a[1] for a in g.legal_actions() if a[0] == "retreat"} == {L["s"]}


def test_a_retreated_ship_has_moved_and_brings_combat_with_it() -> None:
    # RULE: COMBAT-7 RULE: COMBAT-1 the Frigate retreats into c2, where P1 has a ship: c2 now
    # qualifies for combat and is fought next; there the Frigate (moved) cannot retreat again.
    g, L = build({"setup": {
        "active": 0, "phase": "combat",
        "board": {"c2": {"owner": 0, "devs": 1}, "b3": {"owner": 0, "devs": 1}},
        "vessels": [vessel("Frigate", 0, "b2", "f"), vessel("Corvette", 1, "b2", "c"),
                    vessel("Scout", 1, "c2", "s")]}})
    decline_until_retreat(g, L)
    act(g, L, "retreat $f c2")
    assert g.vessels[L["f"]].moved
    assert g.combat_pos == at(g, "c2") and g.decision == "assign"
    decline_until_retreat(g, L)
    assert g.decision != "retreat" and g.active == 1
