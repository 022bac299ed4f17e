"""Galactic Empires: points, the Allocation phase, engagement, durations and command slots
(GE-PTS-*, GE-ALLOC-*, GE-ENG-*, GE-DUR-*, GE-CMD-*).

Positions are built with the helpers of ``build.py``; an Allocation phase is started with
``turn.start_turn`` so record keeping and production run as in a game.
"""
from __future__ import annotations

from typing import Any

import pytest

from starcom.ge import board, combat, plays, points, turn
from starcom.ge.cards import BY_KEY, CARDS, POINT_TYPES
from starcom.ge.game import GalacticEmpires, IllegalAction
from starcom.ge.state import ALLOCATE, DISCARD, PLAY_A, PLAY_B

from .build import combine, give, legal, put, table

E, S, N, A, R, P = range(6)  # economy, supply, energy, ammunition, research, repair


def pool(g: GalacticEmpires, seat: int = 0) -> list[int]:
    return list(g.s.players[seat].pool)


def points_of(**kinds: int) -> list[int]:
    """A pool written by name: ``points_of(supply=2, energy=1)``."""
    out = [0] * len(POINT_TYPES)
    for name, n in kinds.items():
        out[POINT_TYPES.index(name)] = n
    return out


def allocation(g: GalacticEmpires, seat: int = 0) -> None:
    """``seat``'s turn begins: record keeping and production (GE-ALLOC-1, GE-ALLOC-4)."""
    turn.start_turn(g.s, seat)


def declare(g: GalacticEmpires) -> None:
    """Declare the plan; the other seat passes any window it is given (GE-ALLOC-15)."""
    g.apply(("allocate",))
    settle(g)


def settle(g: GalacticEmpires) -> None:
    while g.s.priority is not None:
        g.apply(("pass",))


def run_to_allocation(g: GalacticEmpires, seat: int) -> None:
    """Play on (declaring every plan as it stands, passing every window, ending every phase)
    until ``seat``'s next Allocation phase has begun."""
    s = g.s
    begun = s.players[seat].turns
    for _ in range(100):
        if s.priority is not None:
            g.apply(("pass",))
        elif s.phase == ALLOCATE and s.active == seat and s.players[seat].turns > begun:
            return
        elif s.phase == ALLOCATE:
            g.apply(("allocate",))
        else:
            g.apply(("end",))
    raise AssertionError("the game did not reach the Allocation phase")


def why(g: GalacticEmpires, action: tuple[Any, ...]) -> str:
    """The reason an illegal action is refused, checking that the game is left unchanged."""
    before = g.to_json()
    with pytest.raises(IllegalAction) as err:
        g.apply(action)
    assert g.to_json() == before
    return err.value.reason


def hand_play(g: GalacticEmpires, seat: int, uid: int, loc: int) -> None:
    g.apply(("play", uid, loc))
    settle(g)


# =========================================================================== points (PTS)


# RULE: GE-PTS-1
def test_six_resource_point_types_and_command_only_in_the_full_edition() -> None:
    assert POINT_TYPES == ("economy", "supply", "energy", "ammunition", "research", "repair")
    # Card damage is printed on a card but is never a point that goes into a pool.
    assert BY_KEY["ion_storm"].card_damage == 2 and not any(BY_KEY["ion_storm"].generates)
    full, quick = table("full", phase=PLAY_B, active=1), table("quick", phase=PLAY_B, active=1)
    for g in (full, quick):
        g.s.players[0].slots = 0
        put(g, 0, "moon")
        allocation(g)
        assert pool(g) == points_of(supply=2, energy=1)
    assert full.s.players[0].slots == 4  # two command points become two slots
    assert quick.s.players[0].slots == 0  # no command points in the quick edition


# RULE: GE-PTS-2
def test_economy_is_declared_as_whatever_point_a_step_needs() -> None:
    g = table(phase=PLAY_B, active=1)
    system = put(g, 0, "hcsuar_drahcir")  # supply 3, energy 2
    freighter = put(g, 0, "fleet_freighter", on=system, engaged=False)  # +2 economy once paid
    escort = put(g, 0, "argonian_warm_front", engaged=False, shield_damage=3)
    allocation(g)
    g.apply(("pay", freighter))
    g.apply(("pay", escort))
    assert pool(g) == points_of(economy=2, supply=1)
    g.apply(("load", escort))  # one economy point as ammunition ...
    g.apply(("repair", escort, "shield"))  # ... and the other as repair, in the same plan
    assert g.s.units[escort].loaded == 1 and g.s.units[escort].shield_damage == 1
    assert pool(g) == points_of(supply=1)


# RULE: GE-PTS-2
def test_a_modifier_of_another_point_type_never_changes_an_economy_point() -> None:
    g = table(phase=PLAY_B, active=1)
    moon = put(g, 0, "small_moon")
    freighter = put(g, 0, "fleet_freighter", on=moon, engaged=False)
    ship = put(g, 0, "argonian_blizzard", damage=3)
    tech = put(g, 0, "technician", on=ship)
    allocation(g)
    g.apply(("pay", freighter))
    g.apply(("use", tech, "repair"))
    assert pool(g) == points_of(economy=2)
    g.apply(("repair", ship, "hull"))  # an economy point used as repair is not doubled
    assert g.s.units[ship].damage == 2


# RULE: GE-PTS-3
def test_ammunition_loads_each_heavy_weapon_once() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "armory_moon")  # supply 1, ammunition 2
    put(g, 0, "siobhan_7")  # supply 2, energy 1, ammunition 1
    blizzard = put(g, 0, "argonian_blizzard", engaged=False)  # two energy fluxes
    allocation(g)
    g.apply(("pay", blizzard))
    g.apply(("load", blizzard))
    g.apply(("load", blizzard))
    assert g.s.units[blizzard].loaded == 2 and pool(g)[A] == 1
    assert ("load", blizzard) not in g.legal_actions()
    assert why(g, ("load", blizzard)).startswith("GE-ALLOC-8")


# RULE: GE-PTS-4
def test_research_negates_illness_but_no_monster() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "biruks_comet")  # research 2
    ship = put(g, 0, "argonian_sunspot")
    doctor = put(g, 0, "doctor", on=ship)
    tech = put(g, 0, "technician", on=ship)
    illness = put(g, 1, "illness", on=tech)
    vertigo = put(g, 1, "space_vertigo", on=doctor)
    eel = put(g, 1, "small_phaser_eel", on=ship)
    allocation(g)
    assert points.researchable(g.s) == [illness]
    assert ("research", vertigo) not in g.legal_actions() and ("research", eel) not in g.legal_actions()


# RULE: GE-PTS-5
def test_repair_reaches_own_shields_structure_and_terrain_only() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "biruks_comet")
    g.s.players[0].hq = 5
    ship = put(g, 0, "argonian_whirlwind", shield_damage=2, damage=1)
    moon = put(g, 0, "moon", damage=1)
    belt = put(g, 0, "benakis_belt", card_damage=1)  # card damage: repair cannot touch it
    guardian = put(g, 0, "invinco_guardian", on=ship, damage=1)
    enemy = put(g, 1, "krebiz_claw", damage=2)
    allocation(g)
    g.s.players[0].pool[P] = 5
    assert sorted(points.repairable(g.s)) == sorted([(ship, "hull"), (ship, "shield"), (moon, "hull")])
    for never in ((belt, "hull"), (guardian, "hull"), (enemy, "hull")):
        assert ("repair", *never) not in g.legal_actions()
    g.apply(("repair", ship, "hull"))
    g.apply(("repair", moon, "hull"))
    assert g.s.units[ship].damage == 0 and g.s.units[moon].damage == 0
    assert g.s.units[belt].card_damage == 1 and g.s.players[0].hq == 5


# RULE: GE-PTS-6
def test_points_not_assigned_are_lost_when_the_phase_ends() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "hcsuar_drahcir")
    allocation(g)
    assert pool(g) == points_of(supply=3, energy=2)
    declare(g)
    assert g.s.phase == PLAY_A and pool(g) == [0] * 6
    run_to_allocation(g, 0)
    assert pool(g) == points_of(supply=3, energy=2)  # only this turn's production, nothing saved


# =========================================================================== allocation (ALLOC)


# RULE: GE-ALLOC-1
def test_record_keeping_runs_its_five_steps() -> None:
    g = table(phase=PLAY_B, active=1)
    p = g.s.players[0]
    comet = put(g, 0, "biruks_comet", age=1)
    ship = put(g, 0, "argonian_blizzard", shield_damage=2, loaded=2, used=True)
    crew = put(g, 0, "boarding_party", on=ship, used=True)
    p.plays, p.slots = 2, 0
    allocation(g)
    assert comet not in g.s.units and g.s.players[0].discard[-1] == comet  # (a) expired ...
    assert pool(g)[R] == 2  # ... after producing for this phase
    assert g.s.units[ship].shield_damage == 1  # (b)
    assert g.s.units[ship].loaded == 0  # (c)
    assert not g.s.units[ship].used and not g.s.units[crew].used and p.plays == 0  # (d)
    assert p.slots == 4  # (e)


# RULE: GE-ALLOC-2
def test_shields_regenerate_one_point_only_on_the_active_players_cards() -> None:
    g = table(phase=PLAY_B, active=1)
    mine = put(g, 0, "argonian_typhoon", shield_damage=3)
    theirs = put(g, 1, "krebiz_medium_capsule", shield_damage=3)
    allocation(g)
    assert g.s.units[mine].shield_damage == 2
    assert g.s.units[theirs].shield_damage == 3


# RULE: GE-ALLOC-3
def test_a_ship_played_this_turn_waits_for_the_next_allocation() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "moon")
    allocation(g)
    declare(g)
    ship, = give(g, 0, "argonian_sunspot")
    hand_play(g, 0, ship, -1)
    assert ship in g.s.units and not g.s.units[ship].engaged
    g.apply(("end",))  # to Weapons Fire (and on: nothing can fire)
    assert not g.s.units[ship].engaged
    run_to_allocation(g, 0)
    assert ("pay", ship) in g.legal_actions()  # it takes part like any other card now
    g.apply(("pay", ship))
    declare(g)
    assert g.s.units[ship].engaged


# RULE: GE-ALLOC-4
def test_production_counts_terrain_and_working_crew_and_equipment() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "moon")
    ship = put(g, 0, "argonian_sunspot", engaged=False)
    put(g, 0, "laboratory", on=ship)  # passive: produces on a disengaged ship
    put(g, 0, "doctor", on=ship)
    other = put(g, 0, "argonian_blizzard")
    tech = put(g, 0, "technician", on=other)
    allocation(g)
    assert pool(g) == points_of(supply=2, energy=1, research=3)
    g.apply(("use", tech, "research"))  # the Technician produces only by its option
    assert pool(g)[R] == 4


# RULE: GE-ALLOC-4
def test_a_doctor_that_may_not_function_produces_nothing() -> None:
    g = table(phase=PLAY_B, active=1)
    ship = put(g, 0, "argonian_sunspot")
    doctor = put(g, 0, "doctor", on=ship)
    put(g, 1, "malpractice", on=doctor)
    allocation(g)
    assert pool(g)[R] == 0


# RULE: GE-ALLOC-4
# RULE: GE-ALLOC-5
def test_the_freighter_bonus_exists_only_if_paid_and_may_pay_the_freighter() -> None:
    g = table(phase=PLAY_B, active=1)
    comet = put(g, 0, "biruks_comet")  # research only: no supply, no energy
    freighter = put(g, 0, "fleet_freighter", on=comet, engaged=False)
    allocation(g)
    assert pool(g) == points_of(research=2)  # no bonus before it is paid
    assert ("pay", freighter) in g.legal_actions()
    g.apply(("pay", freighter))  # its own +2 economy, declared as supply and energy
    assert pool(g) == points_of(research=2)
    declare(g)
    assert g.s.units[freighter].engaged


# RULE: GE-ALLOC-6
def test_two_freighters_on_one_terrain_add_two_economy_not_four() -> None:
    g = table(phase=PLAY_B, active=1)
    s = g.s
    moon = put(g, 0, "small_moon")
    first = put(g, 0, "fleet_freighter", on=moon, engaged=False)
    second = put(g, 1, "fleet_freighter", on=moon, engaged=False)
    # Deck A holds one freighter a deck: the opponent's copy is handed over to make a second.
    s.owner_of[second] = s.units[second].owner = 0
    s.units[second].against = False
    put(g, 0, "rabuff_locttoor")  # supply 1, energy 2, ammunition 1
    allocation(g)
    g.apply(("pay", first))
    assert pool(g) == points_of(economy=2, supply=1, energy=2, ammunition=1)
    g.apply(("pay", second))  # the terrain's modifier is already counted: nothing is added
    assert pool(g) == points_of(economy=2, energy=1, ammunition=1)


# RULE: GE-ALLOC-7
def test_one_pool_pays_any_card_of_the_fleet() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "small_moon")  # supply 1, energy 1
    put(g, 1, "hcsuar_drahcir")  # the opponent's output is not ours
    alone = put(g, 0, "argonian_sunspot", engaged=False)  # on no terrain
    allocation(g)
    assert pool(g) == points_of(supply=1, energy=1)
    g.apply(("pay", alone))
    assert pool(g) == [0] * 6


# RULE: GE-ALLOC-8
def test_a_cost_is_paid_symbol_by_symbol_with_matching_points() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "kalins_nebula")  # energy 2
    put(g, 0, "biruks_comet")  # research 2
    ship = put(g, 0, "argonian_sunspot", engaged=False)  # supply + energy
    allocation(g)
    assert ("pay", ship) not in g.legal_actions()
    assert why(g, ("pay", ship)).startswith("GE-ALLOC-8")


# RULE: GE-ALLOC-8
def test_heavy_weapons_load_only_on_a_card_paid_this_phase() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "armory_moon")
    put(g, 0, "kalins_nebula")
    ship = put(g, 0, "argonian_sunspot")  # engaged last turn, not yet paid this turn
    allocation(g)
    assert ("load", ship) not in g.legal_actions()
    assert why(g, ("load", ship)).startswith("GE-ALLOC-8")
    g.apply(("pay", ship))
    g.apply(("load", ship))
    assert g.s.units[ship].loaded == 1


# RULE: GE-ALLOC-8
def test_research_goes_onto_an_illness_against_own_crew_and_negates_it() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "biruks_comet")
    ship = put(g, 0, "argonian_sunspot")
    crew = put(g, 0, "technician", on=ship)
    illness = put(g, 1, "illness", on=crew)
    allocation(g)
    assert ("research", illness) in g.legal_actions()
    g.apply(("research", illness))
    assert illness in g.s.units  # negated when the plan resolves, after the opponent's window
    declare(g)
    assert illness not in g.s.units and g.s.players[1].discard[-1] == illness


# RULE: GE-ALLOC-9
def test_a_cost_is_paid_whole_or_not_at_all_with_nothing_carried_over() -> None:
    g = table(phase=PLAY_B, active=1)
    armory = put(g, 0, "armory_moon")  # supply, but no energy
    ship = put(g, 0, "argonian_sunspot", engaged=False)
    allocation(g)
    assert ("pay", ship) not in g.legal_actions()
    declare(g)
    assert not g.s.units[ship].engaged
    board.leave(g.s, armory)
    put(g, 0, "kalins_nebula")  # energy, but no supply
    run_to_allocation(g, 0)
    assert ("pay", ship) not in g.legal_actions()  # last turn's supply left no credit


# RULE: GE-ALLOC-9
def test_krebiz_split_payment_is_the_one_partial_payment() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 1, "moon")  # supply 2, energy 1
    cruiser = put(g, 1, "krebiz_pincer", engaged=False)  # supply + energy
    capsule = put(g, 1, "krebiz_medium_capsule", engaged=False)  # energy
    combine(g, cruiser, capsule)
    allocation(g, 1)
    assert ("pay", cruiser) not in g.legal_actions()  # the whole needs supply + 2 energy
    assert ("pay-part", cruiser) in g.legal_actions()
    g.apply(("pay-part", cruiser))
    assert g.s.units[cruiser].split_paid and pool(g, 1) == points_of(supply=1)
    declare(g)
    assert not g.s.units[cruiser].engaged  # the combination itself stays unpaid


# RULE: GE-ALLOC-9
def test_after_a_split_payment_the_whole_combination_is_not_paid_as_well() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 1, "hcsuar_drahcir")
    put(g, 1, "kalins_nebula")
    cruiser = put(g, 1, "krebiz_pincer", engaged=False)
    capsule = put(g, 1, "krebiz_medium_capsule", engaged=False)
    combine(g, cruiser, capsule)
    allocation(g, 1)
    assert ("pay", cruiser) in g.legal_actions()
    g.apply(("pay-part", cruiser))
    assert ("pay", cruiser) not in g.legal_actions() and ("pay-part", capsule) not in g.legal_actions()


# RULE: GE-ALLOC-10
def test_crew_and_equipment_cost_nothing_and_crew_work_on_a_disengaged_ship() -> None:
    for spec in CARDS:
        if spec.kind in ("crew", "equipment"):
            assert not spec.has_cost, spec.key
    g = table(phase=PLAY_B, active=1)
    ship = put(g, 0, "argonian_sunspot", engaged=False)
    tech = put(g, 0, "technician", on=ship)
    allocation(g)
    assert ("use", tech, "research") in g.legal_actions()
    declare(g)
    assert not g.s.units[ship].engaged and g.s.units[tech].engaged


# RULE: GE-ALLOC-11
def test_an_opponent_card_receives_points_once_per_allocation() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "biruks_comet")  # two research points
    ship = put(g, 0, "argonian_sunspot")
    crew = put(g, 0, "technician", on=ship)
    illness = put(g, 1, "illness", on=crew)
    allocation(g)
    g.apply(("research", illness))
    assert pool(g)[R] == 1
    assert ("research", illness) not in g.legal_actions()
    why(g, ("research", illness))


# RULE: GE-ALLOC-11
def test_a_second_application_is_refused_naming_the_once_per_phase_rule() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "biruks_comet")
    ship = put(g, 0, "argonian_sunspot")
    crew = put(g, 0, "technician", on=ship)
    illness = put(g, 1, "illness", on=crew)
    allocation(g)
    g.apply(("research", illness))
    assert why(g, ("research", illness)).startswith("GE-ALLOC-11")


# RULE: GE-ALLOC-11
# RULE: GE-ALLOC-15
def test_a_reaction_taking_the_doctors_point_leaves_the_illness_with_no_more_points() -> None:
    g = table(phase=PLAY_B, active=1)
    moon = put(g, 0, "moon")
    ship = put(g, 0, "argonian_sunspot")
    doctor = put(g, 0, "doctor", on=moon)
    crew = put(g, 0, "technician", on=ship)
    illness = put(g, 1, "illness", on=crew)
    malpractice, = give(g, 1, "malpractice")
    allocation(g)
    assert pool(g)[R] == 1
    g.apply(("research", illness))
    g.apply(("pay", ship))
    g.apply(("allocate",))
    assert g.s.priority == 1  # the opponent may answer the declared plan
    g.apply(("play", malpractice, doctor))
    settle(g)
    # The plan had spent the Doctor's point: it is planned again, and nothing can pay research.
    assert g.s.phase == ALLOCATE and g.to_move == 0
    assert ("research", illness) not in g.legal_actions()
    g.apply(("pay", ship))
    g.apply(("allocate",))  # a second plan opens no second window
    assert g.s.phase == PLAY_A
    assert illness in g.s.units  # the point it was given is gone, and none came instead
    assert pool(g) == [0] * 6


# RULE: GE-ALLOC-15
def test_with_points_to_spare_the_plan_survives_the_reaction() -> None:
    g = table(phase=PLAY_B, active=1)
    system = put(g, 0, "hcsuar_drahcir")
    freighter = put(g, 0, "fleet_freighter", on=system, engaged=False)
    doctor = put(g, 0, "doctor", on=system)
    crew = put(g, 0, "technician", on=system)
    illness = put(g, 1, "illness", on=crew)
    malpractice, = give(g, 1, "malpractice")
    allocation(g)
    g.apply(("research", illness))
    g.apply(("pay", freighter))  # two economy points left over
    g.apply(("allocate",))
    g.apply(("play", malpractice, doctor))
    settle(g)
    assert illness not in g.s.units  # an economy point stood in for the Doctor's research
    assert g.s.units[freighter].engaged


# RULE: GE-ALLOC-4
# RULE: GE-ALLOC-15
def test_malpractice_takes_no_point_a_silenced_doctor_never_produced() -> None:
    g = table(phase=PLAY_B, active=1)
    ship = put(g, 0, "argonian_sunspot")
    doctor = put(g, 0, "doctor", on=ship)
    tech = put(g, 0, "technician", on=ship)
    crew = put(g, 0, "boarding_party", on=ship)
    put(g, 1, "space_vertigo", on=doctor)
    illness = put(g, 1, "illness", on=crew)
    malpractice, = give(g, 1, "malpractice")
    allocation(g)
    assert pool(g) == [0] * 6  # the Doctor produced nothing
    g.apply(("use", tech, "research"))
    g.apply(("research", illness))
    g.apply(("allocate",))
    g.apply(("play", malpractice, doctor))
    settle(g)
    assert illness not in g.s.units  # the Technician's point was never the Doctor's


# RULE: GE-ALLOC-15
def test_a_plan_made_impossible_by_a_reaction_is_planned_again_by_its_player() -> None:
    g = table(phase=PLAY_B, active=1)
    moon = put(g, 0, "small_moon")  # supply 1, energy 1
    freighter = put(g, 0, "fleet_freighter", on=moon, engaged=False)
    escort = put(g, 0, "argonian_warm_front", engaged=False)
    doctor = put(g, 0, "doctor", on=moon)
    crew = put(g, 0, "technician", on=moon)
    illness = put(g, 1, "illness", on=crew)
    malpractice, = give(g, 1, "malpractice")
    allocation(g)
    g.apply(("research", illness))
    g.apply(("pay", freighter))
    g.apply(("pay", escort))  # every point is now spent
    g.apply(("allocate",))
    g.apply(("play", malpractice, doctor))
    settle(g)
    assert g.s.phase == ALLOCATE and g.to_move == 0
    assert not g.s.units[freighter].paid and not g.s.units[escort].paid  # every step undone
    g.apply(("pay", freighter))  # its terrain bonus brings two economy points back
    # The new plan may keep the Illness's one point (an economy point instead of the escort) ...
    g.apply(("research", illness))
    # ... but never give it more than the first plan did (GE-ALLOC-11).
    assert ("research", illness) not in g.legal_actions()
    assert ("pay", escort) not in g.legal_actions()
    declare(g)
    assert illness not in g.s.units and not g.s.units[escort].engaged


# RULE: GE-ALLOC-12
def test_cargo_supply_pays_only_its_own_unit() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "kalins_nebula")  # energy 2: no supply at all
    carrier = put(g, 0, "argonian_sunspot", engaged=False)
    other = put(g, 0, "argonian_blizzard", engaged=False)
    cargo = put(g, 0, "cargo", on=carrier)
    allocation(g)
    assert points.payable(g.s) == []
    g.apply(("use", cargo, "supply"))
    assert cargo not in g.s.units and g.s.players[0].discard[-1] == cargo
    assert pool(g) == points_of(energy=2)  # the point is not in the pool for anyone
    assert ("pay", other) not in g.legal_actions()
    assert ("pay", carrier) in g.legal_actions()
    g.apply(("pay", carrier))
    assert pool(g) == points_of(energy=1)


# RULE: GE-ALLOC-12
def test_cargo_supply_may_pay_a_part_of_its_combined_unit() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 1, "kalins_nebula")  # energy only
    cruiser = put(g, 1, "krebiz_pincer", engaged=False)
    capsule = put(g, 1, "krebiz_light_capsule", engaged=False)
    combine(g, cruiser, capsule)
    cargo = put(g, 1, "cargo", on=cruiser)
    allocation(g, 1)
    assert ("pay-part", cruiser) not in g.legal_actions()
    g.apply(("use", cargo, "supply"))
    assert ("pay-part", cruiser) in g.legal_actions()
    g.apply(("pay-part", cruiser))
    assert pool(g, 1) == points_of(energy=1)


# RULE: GE-ALLOC-12
def test_cargo_gives_nothing_outside_its_owners_allocation() -> None:
    g = table(phase=PLAY_B, active=1)
    ship = put(g, 0, "argonian_sunspot", engaged=False)
    cargo = put(g, 0, "cargo", on=ship)
    allocation(g, 1)  # the opponent's Allocation phase
    assert all(a[1] != cargo for a in legal(g, "use"))
    allocation(g, 0)
    assert ("use", cargo, "supply") in g.legal_actions()


# RULE: GE-ALLOC-13
def test_technician_offers_its_three_options_once() -> None:
    g = table(phase=PLAY_B, active=1)
    ship = put(g, 0, "argonian_sunspot")
    tech = put(g, 0, "technician", on=ship)
    allocation(g)
    assert sorted(a for a in legal(g, "use") if a[1] == tech) == [
        ("use", tech, "energy"), ("use", tech, "repair"), ("use", tech, "research")]
    g.apply(("use", tech, "research"))
    assert pool(g) == points_of(research=1)
    assert not [a for a in legal(g, "use") if a[1] == tech]


# RULE: GE-ALLOC-13
def test_technician_energy_point_counts_twice_only_where_it_helps() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "moon")  # supply 2, energy 1
    lone = put(g, 0, "argonian_sunspot", engaged=False)  # supply + energy
    tech = put(g, 0, "technician", on=lone)
    allocation(g)
    g.apply(("use", tech, "energy"))
    # One energy point needed, one assigned: doubling it saves nothing.
    assert points.price(g.s, lone) == points_of(supply=1, energy=1)

    g = table(phase=PLAY_B, active=1)
    put(g, 1, "moon")  # supply 2, energy 1
    cruiser = put(g, 1, "krebiz_pincer", engaged=False)
    capsule = put(g, 1, "krebiz_light_capsule", engaged=False)
    combine(g, cruiser, capsule)  # supply + 2 energy
    tech = put(g, 1, "technician", on=cruiser)
    allocation(g, 1)
    assert ("pay", cruiser) not in g.legal_actions()
    g.apply(("use", tech, "energy"))
    g.apply(("pay", cruiser))  # the one energy point counted as two
    assert pool(g, 1) == points_of(supply=1)


# RULE: GE-ALLOC-13
def test_technician_energy_is_not_doubled_from_economy_or_elsewhere() -> None:
    g = table(phase=PLAY_B, active=1)
    moon = put(g, 1, "small_moon")  # supply 1, energy 1
    freighter = put(g, 1, "fleet_freighter", on=moon, engaged=False)
    cruiser = put(g, 1, "krebiz_pincer", engaged=False)
    capsule = put(g, 1, "krebiz_light_capsule", engaged=False)
    combine(g, cruiser, capsule)
    tech = put(g, 1, "technician", on=cruiser)
    allocation(g, 1)
    g.apply(("use", tech, "energy"))
    g.apply(("pay", freighter))  # spends the real energy; two economy points left
    assert pool(g, 1) == points_of(economy=2)
    assert ("pay", cruiser) not in g.legal_actions()  # needs 3: economy is never doubled


# RULE: GE-ALLOC-13
def test_technician_repair_point_counts_twice_at_its_location_only() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "biruks_comet")
    ship = put(g, 0, "argonian_whirlwind", damage=1, shield_damage=2)
    elsewhere = put(g, 0, "argonian_blizzard", damage=2)
    tech = put(g, 0, "technician", on=ship)
    allocation(g)
    g.apply(("use", tech, "repair"))
    g.s.players[0].pool[P] = 3
    g.apply(("repair", elsewhere, "hull"))
    assert g.s.units[elsewhere].damage == 1
    g.apply(("repair", ship, "hull"))  # counts as two: the second goes to the shields
    assert g.s.units[ship].damage == 0 and g.s.units[ship].shield_damage == 0  # 2 - 1 regen - 1
    g.apply(("repair", elsewhere, "hull"))
    assert g.s.units[elsewhere].damage == 0


# RULE: GE-ALLOC-13
def test_technician_doubling_is_used_once() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "biruks_comet")
    ship = put(g, 0, "argonian_typhoon", damage=5)
    tech = put(g, 0, "technician", on=ship)
    allocation(g)
    g.apply(("use", tech, "repair"))
    g.s.players[0].pool[P] = 2
    g.apply(("repair", ship, "hull"))
    g.apply(("repair", ship, "hull"))
    assert g.s.units[ship].damage == 2  # 2 + 1, not 2 + 2


# RULE: GE-ALLOC-13
def test_a_technician_that_may_not_function_offers_nothing() -> None:
    g = table(phase=PLAY_B, active=1)
    ship = put(g, 0, "argonian_sunspot")
    tech = put(g, 0, "technician", on=ship)
    put(g, 1, "space_vertigo", on=tech)
    allocation(g)
    assert not [a for a in legal(g, "use") if a[1] == tech]


# RULE: GE-ALLOC-14
def test_an_illegal_step_is_refused_with_its_rule_and_changes_nothing() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "small_moon")
    big = put(g, 0, "argonian_typhoon", engaged=False)  # two supply + energy
    allocation(g)
    assert why(g, ("pay", big)).startswith("GE-ALLOC-8")
    assert why(g, ("repair", big, "hull")).startswith("GE-PTS-5")
    g.apply(("allocate",))
    assert why(g, ("pay", big)).startswith("GE-PTS-6")  # the phase is over


# RULE: GE-ALLOC-14
def test_the_plan_helper_engages_the_largest_then_loads_then_repairs() -> None:
    g = table(phase=PLAY_B, active=1)
    system = put(g, 0, "hcsuar_drahcir")  # supply 3, energy 2
    put(g, 0, "armory_moon")  # supply 1, ammunition 2
    put(g, 0, "siobhan_7")  # supply 2, energy 1, ammunition 1
    put(g, 0, "biruks_comet")  # research 2
    freighter = put(g, 0, "fleet_freighter", on=system, engaged=False)
    small = put(g, 0, "argonian_sunspot", engaged=False)
    big = put(g, 0, "argonian_typhoon", engaged=False, damage=1)
    crew = put(g, 0, "boarding_party", on=small)
    illness = put(g, 1, "illness", on=crew)
    allocation(g)
    before = g.to_json()
    plan = points.propose(g.s)
    assert g.to_json() == before  # only a proposal
    assert plan == [("research", illness), ("pay", big), ("pay", small), ("pay", freighter),
                    ("load", big), ("load", big), ("load", small), ("repair", big, "hull")]
    for step in plan:
        g.apply(step)  # every proposed step is legal in turn
    assert pool(g) == points_of(economy=1, supply=2, research=1)
    declare(g)
    assert all(g.s.units[u].engaged for u in (big, small, freighter))
    assert illness not in g.s.units and g.s.units[big].damage == 0


# RULE: GE-ALLOC-15
def test_the_declared_plan_opens_one_window_then_the_phase_ends() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "moon")
    ship = put(g, 0, "argonian_sunspot")
    doctor = put(g, 0, "doctor", on=ship)
    give(g, 1, "malpractice")
    allocation(g)
    g.apply(("pay", ship))
    g.apply(("allocate",))
    assert g.s.phase == ALLOCATE and g.s.priority == 1 and g.to_move == 1
    assert ("play", g.s.players[1].hand[0], doctor) in g.legal_actions()
    g.apply(("pass",))
    assert g.s.priority is None and g.s.phase == PLAY_A
    assert pool(g) == [0] * 6 and g.s.units[ship].engaged


# =========================================================================== engagement (ENG)


# RULE: GE-ENG-1
def test_engagement_follows_payment_and_costless_cards_engage() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "moon")
    paid = put(g, 0, "argonian_sunspot", engaged=False)
    unpaid = put(g, 0, "argonian_blizzard", engaged=True)  # engaged last turn
    carrier = put(g, 0, "indirigan_light_carrier", engaged=True)
    fuser = put(g, 0, "fuser_mechanism", on=carrier, engaged=True)
    crew = put(g, 0, "boarding_party", on=unpaid, engaged=False)
    lab = put(g, 0, "laboratory", on=unpaid, engaged=False)
    allocation(g)
    g.apply(("pay", paid))
    declare(g)
    u = g.s.units
    assert u[paid].engaged and not u[unpaid].engaged and not u[carrier].engaged
    assert u[crew].engaged and u[lab].engaged
    assert not u[fuser].engaged  # non-passive equipment on a disengaged unit


# RULE: GE-ENG-2
def test_the_engaged_state_lasts_through_the_opponents_turn() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "moon")
    paid = put(g, 0, "argonian_sunspot", engaged=False)
    unpaid = put(g, 0, "argonian_blizzard", engaged=True)
    allocation(g)
    g.apply(("pay", paid))
    declare(g)
    run_to_allocation(g, 1)
    declare(g)  # the opponent's own Engagement phase leaves our cards alone
    assert g.s.active == 1 and g.s.phase == PLAY_A
    assert g.s.units[paid].engaged and not g.s.units[unpaid].engaged
    run_to_allocation(g, 0)
    assert g.s.units[paid].engaged  # still so during our next allocation ...
    declare(g)
    assert not g.s.units[paid].engaged  # ... until our Engagement phase, unpaid this time


# RULE: GE-ENG-3
def test_cards_enter_play_engaged_or_disengaged_by_their_printed_cost() -> None:
    g = table(active=0)
    s = g.s
    moon = put(g, 0, "moon")
    engaged_ship = put(g, 0, "indirigan_nomads", engaged=True)
    idle_ship = put(g, 0, "indirigan_light_carrier", engaged=False)
    freighter, crew, lab = give(g, 0, "fleet_freighter", "boarding_party", "laboratory")
    hand_play(g, 0, freighter, moon)  # its terrain bonus could pay it: it still enters idle
    assert not s.units[freighter].engaged
    hand_play(g, 0, crew, idle_ship)
    assert s.units[crew].engaged
    hand_play(g, 0, lab, idle_ship)  # passive equipment: always engaged
    assert s.units[lab].engaged
    s.players[0].plays = 0
    fuser, = give(g, 0, "fuser_mechanism")
    hand_play(g, 0, fuser, idle_ship)  # non-passive: takes its unit's state
    assert not s.units[fuser].engaged
    board.leave(s, fuser)
    s.players[0].discard.remove(fuser)
    s.players[0].hand.append(fuser)
    hand_play(g, 0, fuser, engaged_ship)
    assert s.units[fuser].engaged
    terrain, = give(g, 0, "small_moon")
    hand_play(g, 0, terrain, -1)
    assert s.units[terrain].engaged


# RULE: GE-ENG-3
def test_krebiz_ships_from_hand_enter_disengaged() -> None:
    g = table(active=1)
    s = g.s
    cruiser, capsule, heavy = give(g, 1, "krebiz_clipper", "krebiz_light_capsule", "krebiz_heavy_capsule")
    g.apply(("pair", cruiser, capsule, -2))
    settle(g)
    assert not s.units[cruiser].engaged and not s.units[capsule].engaged
    hand_play(g, 1, heavy, -2)
    assert not s.units[heavy].engaged


# RULE: GE-ENG-4
def test_a_disengaged_ship_still_defends_and_protects_but_does_nothing() -> None:
    g = table(active=0, phase="fire")
    s = g.s
    idle = put(g, 1, "krebiz_pincer", engaged=False, loaded=2)
    capsule = put(g, 1, "krebiz_medium_capsule", engaged=False)  # 4 shields
    moon = put(g, 1, "moon")
    base = put(g, 1, "defensive_satellites", on=moon, engaged=False)
    put(g, 0, "argonian_sunspot", loaded=1)  # something of ours that can fire
    assert combat.weapons(s, idle) == [] and combat.weapons(s, base) == []  # fires nothing
    assert not board.hq_open(s, 1)  # still protects its Sector HQ
    targets = combat.aims(s, 0)
    assert idle in targets and capsule in targets  # still a target
    assert moon not in targets  # the idle base still keeps its terrain from being targeted
    combat.hit(s, capsule, 3, "weapons", 0)
    assert s.units[capsule].shield_damage == 3 and s.units[capsule].damage == 0  # shields work
    crew, = give(g, 1, "technician")
    assert idle in plays.placements(s, 1, crew)  # cards may be played on it
    s.units[idle].damage = 1
    allocation(g, 1)
    s.players[1].pool[P] = 1
    assert ("repair", idle, "hull") in g.legal_actions()  # and it may be repaired


# RULE: GE-ENG-4
def test_passive_equipment_and_engaged_crew_work_on_a_disengaged_unit() -> None:
    g = table(phase=PLAY_B, active=1)
    idle = put(g, 0, "argonian_sunspot", engaged=False)
    put(g, 0, "laboratory", on=idle)
    tech = put(g, 0, "technician", on=idle)
    allocation(g)
    assert pool(g)[R] == 2
    assert ("use", tech, "research") in g.legal_actions()


# RULE: GE-ALLOC-4
# RULE: GE-ENG-4
def test_a_freighter_not_yet_paid_this_turn_generates_nothing() -> None:
    g = table(phase=PLAY_B, active=1)
    moon = put(g, 0, "small_moon")
    freighter = put(g, 0, "fleet_freighter", on=moon, engaged=True)  # engaged last turn
    allocation(g)
    assert pool(g) == points_of(supply=1, energy=1)  # no bonus carried from last turn
    declare(g)
    assert not g.s.units[freighter].engaged
    run_to_allocation(g, 0)
    assert pool(g) == points_of(supply=1, energy=1)  # nor from a disengaged freighter


# RULE: GE-ENG-5
def test_rules_of_a_card_that_may_not_function_reach_no_other_card() -> None:
    g = table(phase=PLAY_B, active=1)
    moon = put(g, 0, "moon")
    freighter = put(g, 0, "fleet_freighter", on=moon, engaged=False)
    captain = put(g, 0, "civilian_captain", on=freighter)
    assert board.cost(g.s, freighter) == points_of(energy=1)
    put(g, 1, "illness", on=captain)
    assert board.cost(g.s, freighter) == points_of(supply=1, energy=1)


# RULE: GE-ENG-5
def test_rules_of_a_disengaged_card_about_itself_keep_applying() -> None:
    g = table(active=0)
    moon = put(g, 1, "moon")
    base = put(g, 1, "defensive_satellites", on=moon, engaged=False, damage=1)
    assert board.phasers(g.s, base) == 2  # its own limit holds while it is disengaged
    combat.hit(g.s, base, 1, "weapons", 0)
    assert base not in g.s.units  # and its strength still decides when it is destroyed


# RULE: GE-ENG-6
def test_a_card_that_may_not_function_acts_disengaged_without_being_turned() -> None:
    g = table(phase=PLAY_B, active=1)
    ship = put(g, 0, "argonian_sunspot")
    tech = put(g, 0, "technician", on=ship)
    vertigo = put(g, 1, "space_vertigo", on=tech)
    allocation(g)
    assert not [a for a in legal(g, "use") if a[1] == tech]
    declare(g)
    assert g.s.units[tech].engaged and not board.works(g.s, tech)
    board.leave(g.s, vertigo)
    assert board.works(g.s, tech)


# RULE: GE-ENG-6
def test_illness_actually_disengages_its_crew() -> None:
    g = table(active=1)
    ship = put(g, 0, "argonian_sunspot")
    tech = put(g, 0, "technician", on=ship)
    illness, = give(g, 1, "illness")
    hand_play(g, 1, illness, tech)
    assert not g.s.units[tech].engaged
    run_to_allocation(g, 0)
    declare(g)  # its owner's Engagement phase does not engage it while the Illness lasts
    assert not g.s.units[tech].engaged
    board.leave(g.s, illness)
    assert g.s.units[tech].engaged  # GE-DUR-5


# =========================================================================== durations (DUR)


# RULE: GE-DUR-1
def test_a_duration_counts_its_controllers_allocations_only() -> None:
    g = table(active=1)
    ship = put(g, 0, "argonian_sunspot")
    tech = put(g, 0, "technician", on=ship)
    illness, = give(g, 1, "illness")
    hand_play(g, 1, illness, tech)
    run_to_allocation(g, 0)  # the crew's owner's turn: the Illness does not age
    assert g.s.units[illness].age == 0 and not board.works(g.s, tech)
    run_to_allocation(g, 1)  # its controller's next allocation: one complete turn is over
    assert illness not in g.s.units and g.s.players[1].discard[-1] == illness
    assert board.works(g.s, tech)


# RULE: GE-DUR-1
def test_a_card_played_on_the_opponents_turn_lasts_to_its_controllers_next_allocation() -> None:
    g = table(phase=PLAY_A, active=0)
    ship = put(g, 0, "argonian_sunspot")
    doctor = put(g, 0, "doctor", on=ship)
    malpractice = put(g, 1, "malpractice", on=doctor)  # as if played as a reaction just now
    run_to_allocation(g, 1)
    assert malpractice not in g.s.units and board.works(g.s, doctor)


# RULE: GE-DUR-2
def test_an_expiring_producer_produces_before_it_goes() -> None:
    g = table(active=0)
    comet, = give(g, 0, "biruks_comet")
    hand_play(g, 0, comet, -1)
    run_to_allocation(g, 0)
    assert comet in g.s.units and pool(g)[R] == 2
    run_to_allocation(g, 0)
    assert comet not in g.s.units and pool(g)[R] == 2  # its second and last output
    run_to_allocation(g, 0)
    assert pool(g)[R] == 0


# RULE: GE-DUR-2
def test_expired_cards_go_first_so_the_rest_of_the_phase_is_free_of_them() -> None:
    g = table(phase=PLAY_B, active=1)
    ship = put(g, 0, "argonian_sunspot")
    doctor = put(g, 0, "doctor", on=ship)
    tech = put(g, 0, "technician", on=ship)
    put(g, 0, "space_vertigo", on=tech)  # the player's own, on the own Technician
    put(g, 0, "malpractice", on=doctor)
    allocation(g)
    assert pool(g)[R] == 1  # the Doctor produced: the Malpractice left before production
    assert ("use", tech, "energy") in g.legal_actions()


# RULE: GE-DUR-3
def test_a_timed_card_discarded_after_use_stays_until_its_time_runs_out() -> None:
    g = table(active=0)
    theirs = put(g, 1, "krebiz_pincer")
    anomaly, = give(g, 0, "divergent_anomaly")
    hand_play(g, 0, anomaly, theirs)
    assert board.hq_open(g.s, 1)
    run_to_allocation(g, 1)
    assert anomaly in g.s.units  # through the opponent's whole turn
    run_to_allocation(g, 0)
    assert anomaly not in g.s.units and not board.hq_open(g.s, 1)


# RULE: GE-DUR-3
def test_a_card_discarded_after_use_leaves_when_its_function_is_done() -> None:
    g = table(active=0)
    theirs = put(g, 1, "krebiz_medium_capsule")
    storm, = give(g, 0, "ion_storm")
    hand_play(g, 0, storm, theirs)
    assert storm not in g.s.units and g.s.players[0].discard[-1] == storm
    assert g.s.units[theirs].shield_damage == 2


# RULE: GE-DUR-4
def test_the_timed_cards_of_deck_a() -> None:
    durations = {c.key: c.duration for c in CARDS if c.duration is not None}
    assert durations == {"biruks_comet": 2, "illness": 1, "divergent_anomaly": 1, "malpractice": 1,
                         "space_vertigo": 1, "fuser_mechanism": 0}


# RULE: GE-DUR-4
def test_an_unused_fuser_mechanism_goes_at_the_end_of_the_draw_phase() -> None:
    g = table(active=1)
    carrier = put(g, 1, "indirigan_light_carrier")
    fuser, = give(g, 1, "fuser_mechanism")
    hand_play(g, 1, fuser, carrier)
    while g.s.phase != DISCARD:
        g.apply(("end",))
    assert fuser in g.s.units
    g.apply(("end",))
    assert fuser not in g.s.units and g.s.players[1].discard[-1] == fuser
    assert g.s.active == 0


# RULE: GE-DUR-5
def test_a_crew_works_again_as_soon_as_its_illness_is_negated() -> None:
    g = table(phase=PLAY_B, active=1)
    put(g, 0, "biruks_comet")
    ship = put(g, 0, "argonian_sunspot")
    tech = put(g, 0, "technician", on=ship)
    illness = put(g, 1, "illness", on=tech)
    allocation(g)
    g.apply(("research", illness))
    declare(g)
    assert illness not in g.s.units
    assert board.works(g.s, tech) and g.s.units[tech].engaged


# RULE: GE-DUR-5
def test_a_timed_card_whose_card_leaves_play_ends_with_it() -> None:
    g = table(active=0)
    theirs = put(g, 1, "krebiz_pincer")
    anomaly = put(g, 0, "divergent_anomaly", on=theirs)
    assert board.hq_open(g.s, 1)
    board.leave(g.s, theirs)
    assert anomaly not in g.s.units and g.s.players[0].discard[-1] == anomaly


# =========================================================================== command (CMD)


# RULE: GE-CMD-1
def test_each_allocation_renews_two_command_slots() -> None:
    g = table(phase=PLAY_B, active=1)
    g.s.players[0].slots = 1
    allocation(g)
    assert g.s.players[0].slots == 4  # in half slots: two whole slots


# RULE: GE-CMD-2
def test_slot_needs_follow_modified_and_combined_strength() -> None:
    assert [board.half_slots(n) for n in range(1, 8)] == [0, 1, 2, 2, 2, 2, 2]
    g = table(active=1)
    s = g.s
    clipper = put(g, 1, "krebiz_clipper")
    assert board.slots_needed(s, 1) == 1
    put(g, 1, "krebiz_armor", on=clipper)
    assert board.slots_needed(s, 1) == 2  # strength 3 now
    cruiser = put(g, 1, "krebiz_pincer")
    capsule = put(g, 1, "krebiz_medium_capsule")
    combine(g, cruiser, capsule)
    assert board.slots_needed(s, 1) == 4  # the combination is one S4 ship: one slot
    put(g, 1, "boarding_party", on=cruiser)
    put(g, 1, "moon")
    assert board.slots_needed(s, 1) == 4  # crew and terrain need none


# RULE: GE-CMD-3
def test_half_slots_add_up_exactly() -> None:
    g = table(active=0)
    put(g, 0, "argonian_warm_front")
    put(g, 0, "argonian_warm_front")
    put(g, 0, "argonian_sunspot")
    assert board.slots_needed(g.s, 0) == 4  # two halves and a whole: two slots, full
    ship, freighter = give(g, 0, "argonian_blizzard", "fleet_freighter")
    moon = put(g, 0, "moon")
    assert plays.restriction(g.s, 0, ship) is not None
    assert ("play", freighter, moon) in g.legal_actions()  # strength 1 needs no slot


# RULE: GE-CMD-4
def test_a_ship_or_base_needs_a_free_slot() -> None:
    g = table(active=0)
    put(g, 0, "argonian_sunspot")
    put(g, 0, "argonian_blizzard")
    moon = put(g, 0, "moon")
    ship, base, escort = give(g, 0, "argonian_whirlwind", "defensive_satellites", "argonian_warm_front")
    assert not [a for a in g.legal_actions() if a[0] == "play" and a[1] in (ship, base, escort)]
    assert why(g, ("play", ship, -1)).startswith("GE-CMD-4")
    assert why(g, ("play", base, moon)).startswith("GE-CMD-4")


# RULE: GE-CMD-4
def test_a_separation_needs_slots_for_both_parts() -> None:
    g = table(active=1)
    s = g.s
    cruiser = put(g, 1, "krebiz_pincer")
    capsule = put(g, 1, "krebiz_heavy_capsule")
    combine(g, cruiser, capsule)  # one S5 ship: one slot; parted, one and a half
    put(g, 1, "krebiz_claw")
    assert board.slots_needed(s, 1) == 4
    assert not legal(g, "separate")
    s.players[1].slots = 5
    assert legal(g, "separate")


# RULE: GE-CMD-4
def test_a_cruiser_and_capsule_played_together_need_the_combined_ships_slot() -> None:
    g = table(active=1)
    put(g, 1, "krebiz_pincer")
    put(g, 1, "krebiz_heavy_capsule")  # three half slots of four in use
    cruiser, capsule = give(g, 1, "krebiz_clipper", "krebiz_light_capsule")
    assert ("play", cruiser, -2) in g.legal_actions()  # alone, a Clipper needs half a slot
    assert not [a for a in legal(g, "pair") if a[1] == cruiser]  # together an S3: a whole one


# RULE: GE-CMD-4
def test_a_capsule_played_onto_a_cruiser_needs_the_slot_the_combination_adds() -> None:
    g = table(active=1)
    clipper = put(g, 1, "krebiz_clipper")
    put(g, 1, "krebiz_pincer")
    put(g, 1, "krebiz_heavy_capsule")  # 1 + 2 + 1: full
    capsule, = give(g, 1, "krebiz_light_capsule")
    assert ("play", capsule, -2) in g.legal_actions()  # alone it needs nothing
    assert ("play", capsule, clipper) not in g.legal_actions()


# RULE: GE-CMD-5
def test_one_indirigan_ship_goes_free_but_not_the_generic_freighter() -> None:
    g = table(active=0)
    s = g.s
    put(g, 0, "argonian_sunspot")
    put(g, 0, "argonian_blizzard")  # full
    carrier, nomads = give(g, 0, "indirigan_light_carrier", "indirigan_nomads")
    assert ("play", carrier, -1) in g.legal_actions()
    hand_play(g, 0, carrier, -1)
    assert board.slots_needed(s, 0) == 4
    assert plays.restriction(s, 0, nomads) is not None  # the second minor-empire ship needs one
    assert BY_KEY["fleet_freighter"].empire == "generic"
    put(g, 0, "fleet_freighter", on=put(g, 0, "moon"))
    assert board.slots_needed(s, 0) == 4  # strength 1: it neither needs nor frees a slot
    s.players[0].slots = 6
    hand_play(g, 0, nomads, -1)
    assert board.slots_needed(s, 0) == 6  # two Indirigans: one of them still free


# RULE: GE-CMD-6
def test_being_over_the_limit_blocks_only_new_slot_using_plays() -> None:
    g = table(active=1)
    s = g.s
    clipper = put(g, 1, "krebiz_clipper")
    put(g, 1, "krebiz_pincer")
    put(g, 1, "krebiz_heavy_capsule")  # 1 + 2 + 1: full
    armor, heavy, light = give(g, 1, "krebiz_armor", "krebiz_heavy_capsule", "krebiz_light_capsule")
    assert ("play", armor, clipper) in g.legal_actions()  # equipment needs no slot
    hand_play(g, 1, armor, clipper)
    assert board.slots_needed(s, 1) == 5 and s.units[clipper].engaged  # over, and nothing else
    assert why(g, ("play", heavy, -2)).startswith("GE-CMD-4")
    assert ("play", light, -2) in g.legal_actions()  # a strength-1 ship takes no slot


# RULE: GE-CMD-6
def test_slots_freed_while_over_the_limit_are_forfeit_until_the_next_allocation() -> None:
    g = table(active=1)
    s = g.s
    clipper = put(g, 1, "krebiz_clipper")
    pincer = put(g, 1, "krebiz_pincer")
    put(g, 1, "krebiz_heavy_capsule")
    put(g, 1, "krebiz_armor", on=clipper)  # 2 + 2 + 1 = 5 of 4: over
    board.leave(s, pincer)  # the way out of play applies the forfeit itself
    assert s.players[1].slots == 2 and board.slots_needed(s, 1) == 3
    heavy, = give(g, 1, "krebiz_heavy_capsule")
    assert plays.restriction(s, 1, heavy) is not None
    own = put(g, 0, "argonian_sunspot")
    board.leave(s, own)
    assert s.players[0].slots == 4  # a seat within its limit keeps what is freed
    allocation(g, 1)
    assert s.players[1].slots == 4  # renewed


# RULE: GE-CMD-6
def test_a_ship_destroyed_while_over_the_limit_frees_no_usable_slot() -> None:
    g = table(active=1)
    s = g.s
    clipper = put(g, 1, "krebiz_clipper")
    pincer = put(g, 1, "krebiz_pincer")
    put(g, 1, "krebiz_heavy_capsule")
    put(g, 1, "krebiz_armor", on=clipper)  # over the limit by half a slot
    heavy, = give(g, 1, "krebiz_heavy_capsule")
    combat.hit(s, pincer, 3, "weapons", 0)  # no shields: destroyed
    assert pincer not in s.units
    assert why(g, ("play", heavy, -2)).startswith("GE-CMD-4")


# RULE: GE-CMD-7
def test_the_quick_edition_has_no_command_limit() -> None:
    g = table("quick", active=0)
    for key in ("argonian_sunspot", "argonian_blizzard", "argonian_whirlwind"):
        put(g, 0, key)
    g.s.players[0].slots = 0
    ship, = give(g, 0, "argonian_typhoon")
    assert plays.restriction(g.s, 0, ship) is None
    hand_play(g, 0, ship, -1)
    assert ship in g.s.units
