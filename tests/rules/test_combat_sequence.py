"""Combat phase structure: which systems fight and in what order (COMBAT-1), the steps of a
fight (COMBAT-2), who assigns and how (COMBAT-3), and the "had combat" mark (COMBAT-8)."""
from __future__ import annotations


import pytest

from starcom.errors import IllegalAction
from starcom.sc.engine import lasting

from .helpers import setup, act, at, vessel










# --------------------------------------------------------------------------- COMBAT-1


def test_only_systems_with_two_players_fight_and_the_active_player_picks_the_order() -> None:
    # RULE: COMBAT-1 two systems qualify (a2, b2), b3 (P0 alone) does not; P0 picks a2 first,
    # and a2 is fought to the end before b2 begins.
    g, L = setup(setup={"active": 0, "phase": "combat", "vessels": [
        vessel("Frigate", 0, "b2", "f0"), vessel("Corvette", 1, "b2", "c1"),
        vessel("Frigate", 0, "a2", "fa"), vessel("Corvette", 1, "a2", "ca"),
        vessel("Frigate", 0, "b3", "alone")]})
    assert (g.decision, g.to_move) == ("combat_pick", 0)
    assert sorted(g.legal_actions()) == sorted([("fight", at(g, "a2")), ("fight", at(g, "b2"))])
    with pytest.raises(IllegalAction) as exc:
        act(g, L, "fight b3")
    assert exc.value.rule == "COMBAT-1"
    with pytest.raises(IllegalAction):
        act(g, L, "fight b2", player=1)
    log = act(g, L, "fight a2")
    assert g.combat_pos == at(g, "a2")
    log += act(g, L, "assign $fa $ca 3")
    assert g.to_move == 1
    log += act(g, L, "done")
    # a2 resolved completely (P1's Corvette there is gone) before b2 became the fight
    assert L["ca"] not in g.vessels
    assert g.combat_pos == at(g, "b2") and g.decision == "assign" and g.to_move == 0
    log += act(g, L, "done")
    fights = [e[1] for e in log if e[0] == "combat"]
    assert fights == [at(g, "a2"), at(g, "b2")]
    assert L["c1"] in g.vessels and g.vessels[L["c1"]].damage == 0


def test_the_active_player_picks_in_a_three_player_game() -> None:
    # RULE: COMBAT-1 with P1 active, P1 (not P0) chooses which system is fought first.
    g, L = setup(players=3, setup={"active": 1, "phase": "combat", "vessels": [
        vessel("Corvette", 0, "b2"), vessel("Corvette", 2, "b2"),
        vessel("Corvette", 1, "b1"), vessel("Corvette", 2, "b1")]})
    assert (g.decision, g.to_move) == ("combat_pick", 1)
    act(g, L, "fight b2")
    assert g.combat_pos == at(g, "b2")


def test_fighting_is_never_forced() -> None:
    # RULE: COMBAT-1 both sides decline: nothing is damaged and the turn moves on.
    g, L = setup(setup={"active": 0, "phase": "combat", "vessels": [
        vessel("Frigate", 0, "b2", "f0"), vessel("Frigate", 1, "b2", "f1")]})
    assert g.decision == "assign" and ("done",) in g.legal_actions()
    act(g, L, "done")
    assert g.to_move == 1 and g.decision == "assign"
    act(g, L, "done")
    assert g.vessels[L["f0"]].damage == g.vessels[L["f1"]].damage == 0
    assert g.active == 1 and g.phase == "command"


def test_a_single_qualifying_system_is_fought_without_asking() -> None:
    # RULE: COMBAT-1 with one system there is no order to choose; none at all ends the phase.
    g, L = setup(setup={"active": 0, "phase": "combat", "vessels": [
        vessel("Frigate", 0, "b2"), vessel("Frigate", 1, "b2")]})
    assert g.decision == "assign" and g.combat_pos == at(g, "b2")
    g2, _ = setup(setup={"active": 0, "phase": "combat", "vessels": [
        vessel("Frigate", 0, "b2"), vessel("Frigate", 1, "b1")]})
    assert g2.active == 1 and g2.decision == "command"


# --------------------------------------------------------------------------- COMBAT-2


def test_each_fight_runs_window_assign_window_resolve_window_retreat_window() -> None:
    # RULE: COMBAT-2 every window opens with the active player and goes clockwise.
    g, L = setup(setup={
        "active": 0, "phase": "combat",
        "players": [{"hand": ["Evasion"]}, {"hand": ["Evasion"]}],
        "board": {"c2": {"owner": 0, "devs": 1}},
        "vessels": [vessel("Frigate", 0, "b2", "f0"), vessel("Corvette", 1, "b2", "c1")]})
    trace: list[tuple[str, int, int]] = []
    script = {"assign": {0: "assign $f0 $c1 3", 1: "assign $c1 $f0 2"}}
    while g.active == 0:
        d, p = g.decision, g.to_move
        trace.append((d, p, g.vessels[L["f0"]].damage))
        if d == "priority":
            act(g, L, "pass")
        elif d == "assign":
            act(g, L, script["assign"][p])
        elif d == "retreat":
            act(g, L, "done")
        else:
            raise AssertionError(f"unexpected decision {d}")
    steps = [(d, p) for d, p, _ in trace]
    assert steps == [("priority", 0), ("priority", 1),  # window
                     ("assign", 0), ("assign", 1),  # assign, active player first
                     ("priority", 0), ("priority", 1),  # window (redirects)
                     # resolve happens here
                     ("priority", 0), ("priority", 1),  # window
                     ("retreat", 0),  # retreat (P1's Corvette is gone)
                     ("priority", 0), ("priority", 1)]  # window
    damage_seen = [dmg for _, _, dmg in trace]
    assert damage_seen == [0] * 6 + [2] * 5  # the damage landed at "resolve"
    assert L["c1"] not in g.vessels


def test_damage_lands_between_the_second_and_third_windows() -> None:
    # RULE: COMBAT-2 a response in the window after assignment still comes before resolution,
    # one in the window after resolution sees the damage dealt.
    g, L = setup(setup={
        "active": 0, "phase": "combat",
        "players": [{"hand": ["Evasion", "Raise Shields"]}, {"hand": []}],
        "vessels": [vessel("Frigate", 0, "b2", "f0"), vessel("Destroyer", 1, "b2", "d1")]})
    act(g, L, "pass")  # window before assignment
    act(g, L, "assign $f0 $d1 3")
    act(g, L, "assign $d1 $f0 4")
    assert g.decision == "priority" and g.vessels[L["f0"]].damage == 0
    act(g, L, "play Evasion $f0")  # answered before resolution: prevents the damage
    act(g, L, "pass")
    assert lasting.shielded(g, L["f0"]) and g.decision == "priority"  # the window reopens
    act(g, L, "pass")
    assert g.vessels[L["f0"]].damage == 0 and g.vessels[L["d1"]].damage == 3
    assert g.decision == "priority" and g.to_move == 0  # the window after resolution


# --------------------------------------------------------------------------- COMBAT-3


def test_assignment_goes_active_player_first_then_clockwise_among_those_in_the_system() -> None:
    # RULE: COMBAT-3 active P1, then P2, (P3 has only a Scout: nothing to assign), then P0.
    g, L = setup(players=4, setup={"active": 1, "phase": "combat", "vessels": [
        vessel("Corvette", 0, "b2", "c0"), vessel("Corvette", 1, "b2", "c1"),
        vessel("Corvette", 2, "b2", "c2"), vessel("Scout", 3, "b2", "s3")]})
    order = []
    while g.decision == "assign":
        order.append(g.to_move)
        act(g, L, "done")
    assert order == [1, 2, 0]


def test_assignment_order_when_the_active_player_is_not_in_the_fight() -> None:
    # RULE: COMBAT-3 RULE: COMBAT-1 P2 is active but has nothing at b2: P2 still picks the
    # order of the fights, and at b2 the order is clockwise from P2: P0, then P1.
    g, L = setup(players=3, setup={"active": 2, "phase": "combat", "vessels": [
        vessel("Corvette", 1, "b2"), vessel("Corvette", 0, "b2"),
        vessel("Corvette", 1, "b1"), vessel("Corvette", 0, "b1"), vessel("Scout", 2, "a1")]})
    assert (g.decision, g.to_move) == ("combat_pick", 2)
    act(g, L, "fight b2")
    order = []
    while g.decision == "assign" and g.combat_pos == at(g, "b2"):
        order.append(g.to_move)
        act(g, L, "done")
    assert order == [0, 1]
    assert g.combat_pos == at(g, "b1")  # then the remaining fight, without asking


def test_a_vessel_deals_its_whole_attack_to_one_opposing_vessel_or_none() -> None:
    # RULE: COMBAT-3 a Frigate cannot split its 3 attack, nor hit its own side; a Scout (attack 0)
    # assigns nothing; a station with attack assigns like a ship.
    g, L = setup(setup={"active": 0, "phase": "combat",
                        "board": {"b2": {"system": "Trade World", "owner": 0, "devs": 2}},
                        "vessels": [
        vessel("Frigate", 0, "b2", "f0"), vessel("Scout", 0, "b2", "s0"),
        vessel("Defense Station", 0, "b2", "ds"),
        vessel("Corvette", 1, "b2", "c1"), vessel("Destroyer", 1, "b2", "d1")]})
    for text, rule in (("assign $f0 $c1 2", "COMBAT-3"), ("assign $s0 $c1 1", "COMBAT-3"),
                       ("assign $f0 $s0 3", "TARGET-1")):
        with pytest.raises(IllegalAction) as exc:
            act(g, L, text)
        assert exc.value.rule == rule
    sources = {a[1] for a in g.legal_actions() if a[0] == "assign"}
    assert sources == {L["f0"], L["ds"]}
    act(g, L, "assign $ds $d1 1")
    act(g, L, "assign $f0 $c1 3")
    assert g.to_move == 1  # everything assigned: P0 is done
    act(g, L, "done")  # P1 declines
    events = act(g, L, "pass")  # P1 could redirect with its Destroyer, but does not
    assert ("damage", L["d1"], 1) in events and ("destroyed", 1, L["c1"], at(g, "b2")) in events
    assert not any(e[0] == "damage" and e[1] in (L["f0"], L["s0"]) for e in events)
    assert g.vessels[L["f0"]].damage == 0


def test_a_player_may_leave_some_vessels_idle() -> None:
    # RULE: COMBAT-3 "or to none": P0 assigns one Frigate and stops.
    g, L = setup(setup={"active": 0, "phase": "combat", "vessels": [
        vessel("Frigate", 0, "b2", "a"), vessel("Frigate", 0, "b2", "b"),
        vessel("Destroyer", 1, "b2", "d1")]})
    act(g, L, "assign $a $d1 3")
    assert g.to_move == 0
    act(g, L, "done")
    assert g.to_move == 1
    events = act(g, L, "done")
    assert [e for e in events if e[0] == "damage"] == [("damage", L["d1"], 3)]


# --------------------------------------------------------------------------- COMBAT-8


@pytest.mark.parametrize("assign", [True, False])
def test_assigning_damage_marks_the_system_as_having_had_combat(assign: bool) -> None:
    # RULE: COMBAT-8 the mark comes from assigning damage, not from vessels meeting.
    g, L = setup(setup={"active": 0, "phase": "combat",
                        "board": {"b2": {"system": "Trade World", "owner": 1, "devs": 2}},
                        "vessels": [vessel("Frigate", 0, "b2", "f0"),
                                    vessel("Destroyer", 1, "b2", "d1")]})
    turn = g.turn
    act(g, L, "assign $f0 $d1 3" if assign else "done")
    act(g, L, "done")
    site = g.sites[at(g, "b2")]
    assert (site.combat_turn == turn) is assign
    # P1 (the controller) now plays its turn in a contested system, or not
    assert g.active == 1
    from starcom.sc.engine.rules import contested
    assert contested(g, at(g, "b2")) is assign
    with_scrap = ("scrap", L["d1"]) in g.legal_actions()
    assert with_scrap is not assign
