"""Galactic Empires rule tests for card plays, card functions, the reaction chain, crew transport
and Krebiz combining (GE-PLAY-*, GE-ACT-*, GE-REACT-*, GE-MISSION-*, GE-KREB-*).

Seat 0 plays the Argonian deck, seat 1 the Krebiz deck (``build.table``). Positions are built by
moving real cards; the game is then driven through ``legal_actions``/``apply`` as a player would.
"""
from __future__ import annotations

from typing import Any

import pytest

from starcom.ge import board, chain, combat, plays, turn
from starcom.ge.cards import BY_KEY
from starcom.ge.game import GalacticEmpires, IllegalAction
from starcom.ge.state import ALLOCATE, DISCARD, FIRE, PLAY_A, PLAY_B

from .build import combine, give, legal, put, strength, table, take

# --------------------------------------------------------------------------- helpers


def to_reserve(g: GalacticEmpires, seat: int, key: str) -> int:
    uid = take(g, seat, key)
    g.s.players[seat].reserve.append(uid)
    g.s.players[seat].reserve_public = True
    return uid


def bury(g: GalacticEmpires, seat: int, key: str) -> int:
    """Put a card on its owner's discard pile, where both seats can see it."""
    uid = take(g, seat, key)
    g.s.players[seat].discard.append(uid)
    return uid


def pass_all(g: GalacticEmpires) -> None:
    """Both seats pass until the window is closed and the chain has resolved."""
    for _ in range(40):
        if g.s.priority is None:
            return
        g.apply(("pass",))
    raise AssertionError("the window never closed")


def crew_places(g: GalacticEmpires, seat: int, crew: str = "civilian_captain") -> tuple[int, int, int]:
    """Two terrains of ``seat`` with a crew on the first: a position in which ``seat`` could
    react with a Transporter from hand (moving that crew), as far as anyone can tell."""
    a = put(g, seat, "hcsuar_drahcir")
    b = put(g, seat, "kalins_nebula")
    c = put(g, seat, crew, on=a)
    return a, b, c


def played(g: GalacticEmpires, action: tuple[Any, ...]) -> None:
    """Apply ``action`` (it must be legal) and let every window close unanswered."""
    assert action in g.legal_actions(), (action, g.legal_actions())
    g.apply(action)
    pass_all(g)


def to_play_b(g: GalacticEmpires) -> None:
    """End Play Cards A and Weapons Fire without firing."""
    g.apply(("end",))
    if g.s.phase == FIRE:
        g.apply(("end",))
    assert g.s.phase == PLAY_B


def plays_left(g: GalacticEmpires, seat: int) -> int:
    return 3 - g.s.players[seat].plays


# =========================================================================== card plays (PLAY)


# RULE: GE-PLAY-1
def test_three_card_plays_per_turn_across_the_three_phases() -> None:
    g = table()
    lands = give(g, 0, "small_moon", "moon", "armory_moon", "siobhan_7")
    played(g, ("play", lands[0], -1))
    played(g, ("play", lands[1], -1))
    g.apply(("end",))  # Play Cards A -> Weapons Fire (nothing can fire: it ends by itself)
    assert g.s.phase == PLAY_B
    assert plays_left(g, 0) == 1
    played(g, ("play", lands[2], -1))
    assert g.s.players[0].plays == 3
    assert legal(g, "play") == [] and legal(g, "swap") == []
    with pytest.raises(IllegalAction) as err:
        g.apply(("play", lands[3], -1))
    assert err.value.rule == "GE-PLAY-1"


# RULE: GE-PLAY-1
def test_functions_are_not_card_plays_and_a_swap_is_one() -> None:
    g = table()
    ship = put(g, 0, "argonian_sunspot")
    a, b, tech = crew_places(g, 0)
    t = put(g, 0, "transporter", on=a)
    played(g, ("use", t, "move", a, b, 1))
    assert g.s.units[tech].parent == b
    assert g.s.players[0].plays == 0  # a function is not a card play
    to_reserve(g, 0, "small_moon")
    big = give(g, 0, "argonian_blizzard")[0]
    played(g, next(a for a in legal(g, "swap") if a[1] == big))
    assert g.s.players[0].plays == 1
    assert ship in g.s.units


# RULE: GE-PLAY-1
def test_krebiz_pair_combine_and_separate_are_one_card_play_each() -> None:
    g = table(active=1, edition="quick")
    cruiser, capsule = give(g, 1, "krebiz_pincer", "krebiz_medium_capsule")
    played(g, ("pair", cruiser, capsule, -2))
    assert g.s.players[1].plays == 1
    assert g.s.units[cruiser].partner == capsule
    clip = put(g, 1, "krebiz_clipper")
    light = put(g, 1, "krebiz_light_capsule")
    played(g, ("combine", clip, light))
    assert g.s.players[1].plays == 2
    assert g.s.units[clip].partner == light
    g.s.units[cruiser].locked = g.s.units[capsule].locked = False
    played(g, ("separate", cruiser, 0, 0, 0))
    assert g.s.players[1].plays == 3
    assert g.s.units[cruiser].partner is None


# RULE: GE-PLAY-2
def test_cards_are_played_only_in_the_play_cards_phases_of_ones_own_turn() -> None:
    for phase in (FIRE, DISCARD):
        g = table(phase=phase)
        give(g, 0, "moon", "doctor")
        put(g, 0, "argonian_sunspot")
        assert legal(g, "play") == []
    g = table(phase=PLAY_B)
    moon = give(g, 0, "moon")[0]
    assert ("play", moon, -1) in g.legal_actions()
    # a card that is not R/ is never a reaction, even when a window is open for its holder
    g = table(active=1)
    crew_places(g, 0)
    own = give(g, 0, "moon", "boarding_party", "illness")
    g.apply(("play", give(g, 1, "small_moon")[0], -2))
    assert g.s.priority == 0
    assert not [a for a in g.legal_actions() if a[0] == "play" and a[1] in own]


# RULE: GE-PLAY-3
def test_where_each_type_of_card_goes() -> None:
    g = table()
    s = g.s
    planet = put(g, 0, "siobhan_7")
    system = put(g, 0, "rabuff_locttoor")
    ship = put(g, 0, "argonian_sunspot")
    base = put(g, 0, "defensive_satellites", on=system)
    foe_land = put(g, 1, "moon")
    foe_ship = put(g, 1, "krebiz_claw")
    foe_capsule = put(g, 1, "krebiz_light_capsule")
    foe_crew = put(g, 1, "technician", on=foe_ship)
    carrier = put(g, 0, "indirigan_light_carrier")
    hand = dict(zip(("terrain", "ship", "freighter", "shield", "sats", "crew", "cargo", "transporter",
                     "fuser", "storm", "illness"),
                    give(g, 0, "small_moon", "argonian_blizzard", "fleet_freighter", "planetary_shield",
                         "civilian_captain", "boarding_party", "cargo", "transporter", "fuser_mechanism",
                         "ion_storm", "illness")))

    def where(key: str) -> set[int]:
        return set(plays.placements(s, 0, hand[key]))

    assert where("terrain") == {-1}  # alone, in its player's own fleet
    assert where("ship") == {-1, planet, system}  # alone or on an own terrain
    assert where("freighter") == {planet, system}  # only on a terrain
    assert where("shield") == {planet}  # a base on a planet or moon of its own fleet
    assert where("crew") == {planet, system, ship, base, carrier}  # ship, base or terrain
    assert where("cargo") == {ship, base, carrier}  # equipment needs a unit of its own side
    assert where("transporter") == {planet, system, ship, base, carrier}  # also on terrain
    assert where("fuser") == {carrier}  # only on an Indirigan ship
    assert where("storm") == {ship, base, foe_ship, foe_capsule, carrier}  # against what it affects
    assert where("illness") == {foe_crew}
    assert foe_land not in where("crew") | where("ship") | where("transporter")
    armor = give(g, 1, "krebiz_armor")[0]
    assert set(plays.placements(s, 1, armor)) == {foe_ship}  # a Krebiz cruiser, not the capsule


# RULE: GE-PLAY-4
def test_a_card_played_against_the_opponent_stays_in_its_players_fleet() -> None:
    g = table()
    s = g.s
    foe_ship = put(g, 1, "krebiz_claw")
    foe_crew = put(g, 1, "technician", on=foe_ship)
    sick = give(g, 0, "illness")[0]
    played(g, ("play", sick, foe_crew))
    u = s.units[sick]
    assert (u.owner, u.parent, u.against) == (0, foe_crew, True)
    assert sick in {x.uid for x in board.fleet(s, 0)} and sick not in {x.uid for x in board.fleet(s, 1)}
    board.leave(s, foe_ship)  # its location goes: the Illness goes home to its owner's pile
    assert sick in s.players[0].discard and sick not in s.players[1].discard
    # a card aimed at cards never names a Sector HQ as its target
    storm = give(g, 0, "ion_storm")[0]
    put(g, 1, "krebiz_mandible")
    assert plays.placements(s, 0, storm) and all(loc >= 0 for loc in plays.placements(s, 0, storm))


# RULE: GE-PLAY-5
def test_a_card_on_the_chain_is_not_in_play_and_cannot_be_targeted() -> None:
    g = table(active=1)
    s = g.s
    ship = put(g, 0, "argonian_sunspot")
    crew = put(g, 0, "technician", on=ship)
    sick = give(g, 1, "illness")[0]
    mal, = give(g, 1, "malpractice")
    crew_places(g, 1)  # seat 1 might hold a Transporter: it is asked after the Doctor
    doctor = give(g, 0, "doctor")[0]
    g.apply(("play", sick, crew))
    assert sick not in s.units  # announced, not yet in play
    assert ("play", doctor, ship) in g.legal_actions()
    g.apply(("play", doctor, ship))
    assert s.priority == 1 and doctor not in s.units
    # the Doctor is on the chain, not in play: Malpractice has nothing to be played against
    assert not [a for a in g.legal_actions() if a[0] == "play" and a[1] == mal]
    pass_all(g)
    assert doctor in s.units
    assert [a for a in chain.reactions(s, 1) if a[1] == mal] == []  # nothing on the chain now


# RULE: GE-PLAY-5
def test_a_play_whose_location_turned_illegal_is_voided_on_resolution() -> None:
    g = table(active=1)
    s = g.s
    ship = put(g, 0, "argonian_sunspot")
    crew = put(g, 0, "technician", on=ship)
    sick, = give(g, 1, "illness")
    doctor, = give(g, 0, "doctor")
    g.apply(("play", sick, crew))
    g.apply(("play", doctor, ship))  # its rule now keeps Illness off that location
    pass_all(g)
    assert sick not in s.units and sick in s.players[1].discard  # voided: discarded
    assert s.players[1].plays == 1  # the play still counted
    assert board.works(s, crew)


# RULE: GE-PLAY-6
def test_reserve_swap() -> None:
    g = table()
    s = g.s
    p = s.players[0]
    kept = to_reserve(g, 0, "argonian_blizzard")  # S4
    weak, equal, strong = give(g, 0, "argonian_sunspot", "siobhan_7", "argonian_typhoon")  # S3, S4, S6
    swaps = legal(g, "swap")
    assert ("swap", weak, kept) not in swaps  # the card put in must be at least as strong
    assert ("swap", equal, kept) in swaps and ("swap", strong, kept) in swaps
    played(g, ("swap", equal, kept))
    assert p.reserve == [equal] and kept in p.hand and equal not in p.hand
    assert p.plays == 1 and len(p.reserve) == 1
    assert kept in p.shown  # the opponent saw it go into the hand
    assert ("play", kept, -1) in g.legal_actions()
    played(g, ("play", kept, -1))  # playing it is a second card play
    assert p.plays == 2 and kept in s.units


# RULE: GE-PLAY-6
def test_a_reserve_swap_is_allowed_in_turn_one() -> None:
    g = table(turns=1)
    kept = to_reserve(g, 0, "argonian_sunspot")
    ship, land = give(g, 0, "argonian_blizzard", "moon")
    assert plays.stage(g.s, 0) == 1
    assert ("play", ship, -1) not in g.legal_actions()  # turn 1: terrain only
    assert ("play", land, -1) in g.legal_actions()
    played(g, ("swap", ship, kept))
    assert kept in g.s.players[0].hand


# RULE: GE-PLAY-7
def test_full_edition_ship_plays_need_a_free_command_slot() -> None:
    for edition, can in (("full", False), ("quick", True)):
        g = table(edition=edition)
        put(g, 0, "argonian_sunspot")
        put(g, 0, "argonian_blizzard")  # two slots in use: all of them
        ship, freighter, land = give(g, 0, "argonian_whirlwind", "fleet_freighter", "moon")
        played(g, ("play", land, -1))
        assert (("play", ship, -1) in g.legal_actions()) is can
        assert ("play", freighter, land) in g.legal_actions()  # strength 1 needs no slot
        if not can:
            with pytest.raises(IllegalAction) as err:
                g.apply(("play", ship, -1))
            assert err.value.rule == "GE-CMD-4"


# RULE: GE-PLAY-7
def test_krebiz_plays_are_checked_against_the_slots_their_combination_needs() -> None:
    g = table(active=1)
    s = g.s
    put(g, 1, "krebiz_mandible")  # 1 slot
    put(g, 1, "krebiz_heavy_capsule")  # half a slot: half a slot is left
    clip, light = give(g, 1, "krebiz_clipper", "krebiz_light_capsule")
    assert ("play", clip, -2) in g.legal_actions()  # S2 alone: half a slot
    assert ("pair", clip, light, -2) not in g.legal_actions()  # S3 together: a whole slot
    assert ("play", light, -2) in g.legal_actions()  # S1: none
    g = table(active=1)
    s = g.s
    put(g, 1, "krebiz_mandible")
    clip = put(g, 1, "krebiz_clipper")  # half a slot left again
    light, = give(g, 1, "krebiz_light_capsule")
    assert ("play", light, clip) in g.legal_actions()  # S2 -> S3: the last half slot
    s.players[1].slots = 3
    assert ("play", light, clip) not in g.legal_actions()
    assert ("play", light, -2) in g.legal_actions()


# RULE: GE-PLAY-8
def test_cards_sent_back_by_forced_retreat_wait_for_their_owners_next_turn() -> None:
    g = table(active=1)
    s = g.s
    ship = put(g, 0, "argonian_sunspot")
    doctor = put(g, 0, "doctor", on=ship)
    other = put(g, 0, "argonian_blizzard")
    crew = put(g, 0, "technician", on=other)
    retreat, sick = give(g, 1, "forced_retreat", "illness")
    give(g, 0, "moon")
    played(g, ("play", retreat, ship))
    assert ship in s.players[0].hand and doctor in s.players[0].hand
    why = plays.restriction(s, 0, doctor)
    assert why is not None and why.startswith("GE-PLAY-8")
    g.apply(("play", sick, crew))
    # the Doctor could void this Illness, but it may not be played before seat 0's next turn
    assert not [a for a in chain.reactions(s, 0) if a[0] == "play" and a[1] == doctor]
    pass_all(g)
    turn.start_turn(s, 0)
    assert plays.restriction(s, 0, doctor) is None and plays.restriction(s, 0, ship) is None


# RULE: GE-PLAY-9
def test_turn_restrictions_bind_reactions_too() -> None:
    for turns, window in ((1, False), (2, True)):
        g = table(active=1, turns=turns)
        g.s.first = 1
        _a, _b, _tech = crew_places(g, 0)
        t, = give(g, 0, "transporter")
        land, = give(g, 1, "small_moon")
        g.apply(("play", land, -2))
        assert (g.s.priority == 0) is window
        assert bool([x for x in chain.reactions(g.s, 0) if x[:2] == ("play", t)]) is window
    # in turn 2 the one ship has been played: no capsule onto a cruiser, no pair
    g = table(active=1, turns=2)
    s = g.s
    s.players[1].ships_turn2 = 1
    clip = put(g, 1, "krebiz_clipper")
    _pincer, light = give(g, 1, "krebiz_pincer", "krebiz_light_capsule")
    assert ("play", light, clip) not in g.legal_actions() and legal(g, "pair") == []


# =========================================================================== card functions (ACT)


def _argonian_transport(g: GalacticEmpires) -> tuple[int, int, int, int]:
    """Two Argonian ships, a Transporter and a Technician on the first."""
    a = put(g, 0, "argonian_sunspot")
    b = put(g, 0, "argonian_blizzard")
    t = put(g, 0, "transporter", on=a)
    tech = put(g, 0, "technician", on=a)
    return a, b, t, tech


# RULE: GE-ACT-1
def test_a_function_is_used_once_per_complete_turn() -> None:
    g = table()
    s = g.s
    a, b, t, tech = _argonian_transport(g)
    played(g, ("use", t, "move", a, b, 1))
    assert s.units[tech].parent == b
    assert not [x for x in legal(g, "use") if x[1] == t]  # no second use this turn
    to_play_b(g)
    assert not [x for x in legal(g, "use") if x[1] == t]  # nor in Play Cards B
    turn.start_turn(s, 1)  # the opponent's turn is still the same complete turn of seat 0
    assert s.units[t].used
    turn.start_turn(s, 0)  # seat 0's next Allocation phase: a new complete turn
    assert not s.units[t].used


# RULE: GE-ACT-1
def test_reaction_mode_use_spends_the_once_a_turn_function() -> None:
    g = table()
    s = g.s
    a, b, tech = crew_places(g, 0)
    t, _moon = give(g, 0, "transporter", "moon")
    foe = put(g, 1, "krebiz_claw")
    foe_crew = put(g, 1, "technician", on=foe)
    crew_places(g, 1)
    stand_in, = give(g, 1, "crewman")
    sick, = give(g, 0, "illness")
    g.apply(("play", sick, foe_crew))
    g.apply(("play", stand_in, foe_crew))  # seat 1 answers with its Crewman
    assert s.priority == 0
    react = ("play", t, b, "move", a, b, 1)
    assert react in g.legal_actions()  # seat 0 may answer a reaction on its own turn
    g.apply(react)
    pass_all(g)
    assert s.units[t].used and s.units[tech].parent == b
    to_play_b(g)
    assert not [x for x in legal(g, "use") if x[1] == t]


# RULE: GE-ACT-1
# RULE: GE-ACT-6
def test_a_voided_function_still_counts_as_used() -> None:
    g = table()
    s = g.s
    ship = put(g, 0, "argonian_sunspot")
    doctor = put(g, 0, "doctor", on=ship)
    crew = put(g, 0, "technician", on=ship)
    sick = put(g, 1, "illness", on=crew)
    mal, = give(g, 1, "malpractice")
    g.apply(("use", doctor, "cure"))
    assert s.priority == 1
    g.apply(("play", mal, doctor))  # the Doctor stops working before its function resolves
    pass_all(g)
    assert sick in s.units  # the cure was voided
    assert s.units[doctor].used
    assert not [x for x in legal(g, "use") if x[1] == doctor]


# RULE: GE-ACT-2
def test_functions_are_used_in_the_owners_play_cards_phases() -> None:
    g = table(phase=FIRE)
    a, b, t, tech = _argonian_transport(g)
    assert legal(g, "use") == []
    g = table(phase=PLAY_B)
    a, b, t, tech = _argonian_transport(g)
    assert ("use", t, "move", a, b, 1) in g.legal_actions()
    # on the opponent's turn an ordinary function is not a reaction
    g = table(active=1)
    a, b, t, tech = _argonian_transport(g)
    land, = give(g, 1, "moon")
    g.apply(("play", land, -2))
    assert not [x for x in chain.reactions(g.s, 0) if x[0] == "use"]
    # a point function (the Technician's) acts in its owner's Allocation phase
    g = table(phase=ALLOCATE)
    ship = put(g, 0, "argonian_sunspot")
    tech = put(g, 0, "technician", on=ship)
    assert ("use", tech, "research") in g.legal_actions()
    g = table()
    ship = put(g, 0, "argonian_sunspot")
    tech = put(g, 0, "technician", on=ship)
    assert [x for x in legal(g, "use") if x[1] == tech] == []


# RULE: GE-ACT-3
def test_disengaged_or_disabled_cards_have_no_functions() -> None:
    g = table()
    s = g.s
    a, _b, t, _tech = _argonian_transport(g)
    assert [x for x in legal(g, "use") if x[1] == t]
    s.units[t].engaged = False
    assert [x for x in legal(g, "use") if x[1] == t] == []
    s.units[t].engaged = True
    foe = put(g, 1, "krebiz_claw")
    party = put(g, 0, "boarding_party", on=a)
    assert ("use", t, "mission", party, foe, "hull") in g.legal_actions()
    put(g, 1, "space_vertigo", on=party)  # the Boarding Party now performs no function
    assert not [x for x in legal(g, "use") if x[2] == "mission" and x[3] == party]


# RULE: GE-ACT-4
def test_card_damage_is_a_function_with_its_own_window_after_the_play() -> None:
    g = table(active=1)
    s = g.s
    target = put(g, 0, "argonian_sunspot")  # 2 shields, strength 3
    crew_places(g, 0)
    give(g, 0, "moon")
    storm, = give(g, 1, "ion_storm")
    g.apply(("play", storm, target))
    assert s.priority == 0 and s.chain[-1].kind == "play"
    g.apply(("pass",))
    # the play resolved: the storm is in play and its card damage is a new event, answerable
    assert storm in s.units and s.priority == 0
    assert s.chain[-1].kind == "use" and s.chain[-1].action == ("use", storm, "damage")
    assert s.units[target].shield_damage == 0
    g.apply(("pass",))
    assert s.units[target].shield_damage == 2 and s.units[target].damage == 0
    assert storm not in s.units and storm in s.players[1].discard  # discarded after use
    assert s.players[1].plays == 1


# RULE: GE-ACT-5
def test_a_card_that_entered_as_a_reaction_works_again_from_its_next_turn() -> None:
    g = table(active=1)
    s = g.s
    a, b, tech = crew_places(g, 0)
    t, = give(g, 0, "transporter")
    land, = give(g, 1, "moon")
    g.apply(("play", land, -2))
    g.apply(("play", t, b, "move", a, b, 1))
    pass_all(g)
    assert s.units[tech].parent == b  # its one function, used as it entered
    assert s.units[t].used and s.units[t].reacted
    assert s.players[0].plays == 0  # free on the opponent's turn
    turn.start_turn(s, 0)
    s.phase = PLAY_A
    assert ("use", t, "move", b, a, 1) in g.legal_actions()


# RULE: GE-ACT-6
def test_a_move_whose_destination_left_play_is_voided() -> None:
    g = table()
    s = g.s
    a, b, t, tech = _argonian_transport(g)
    crew_places(g, 1)
    give(g, 1, "moon")
    g.apply(("use", t, "move", a, b, 1))
    assert s.priority == 1
    board.leave(s, b)  # as if a reaction had destroyed the destination
    pass_all(g)
    assert s.units[tech].parent == a and s.units[t].used
    assert t in s.units  # a voided function leaves a card that is not discarded after use


# RULE: GE-ACT-6
def test_a_mission_whose_destination_became_unreachable_is_voided_at_the_start() -> None:
    g = table()
    s = g.s
    x = _boarding(g)
    capsule = put(g, 1, "krebiz_medium_capsule", shield_damage=4)
    g.apply(("use", x["t"], "mission", x["party"], capsule, "hull"))
    assert s.priority == 1
    s.units[capsule].shield_damage = 3  # as if a reaction had restored one shield
    pass_all(g)
    assert s.units[x["party"]].parent == x["a"] and s.units[capsule].damage == 0
    assert s.units[x["t"]].used and not s.units[x["party"]].used


# RULE: GE-ACT-6
# RULE: GE-REACT-6
def test_a_reaction_card_whose_function_failed_still_enters_play() -> None:
    g = table(active=1)
    s = g.s
    ship = put(g, 0, "argonian_sunspot")
    crew = put(g, 0, "technician", on=ship)
    lucky, sub = give(g, 0, "lucky_crew_action", "crewman")
    sick, = give(g, 1, "illness")
    _watcher(g, 1)
    g.apply(("play", sick, crew))
    g.apply(("play", lucky, crew))  # would cancel the Illness ...
    assert s.priority == 1
    g.apply(("pass",))
    assert s.priority == 0  # seat 0 did not pass before: it may add another reaction
    g.apply(("play", sub, crew))  # ... but the Crewman, resolving first, takes the Illness
    pass_all(g)
    assert s.units[sick].parent == sub  # the Illness was not cancelled: it found its new target
    assert s.units[lucky].parent == crew  # the voided card stays, waiting for the next play
    vertigo, = give(g, 1, "space_vertigo")
    g.apply(("play", vertigo, crew))
    assert ("use", lucky, "cancel") not in g.legal_actions()  # in play it is no reaction (GE-REACT-4)
    pass_all(g)  # its text ignores the Vertigo by itself as the play resolves
    assert vertigo not in s.units and vertigo in s.players[1].discard and lucky not in s.units


# =========================================================================== reactions (REACT)


def _watcher(g: GalacticEmpires, seat: int) -> None:
    """Make ``seat`` a player who might react (a Transporter could be in its hand)."""
    crew_places(g, seat)
    give(g, seat, "small_moon")


# RULE: GE-REACT-1
def test_the_events_that_open_a_window() -> None:
    # a card play, a reserve swap and a function use of the active player
    g = table()
    s = g.s
    _watcher(g, 1)
    a, b, t, _tech = _argonian_transport(g)
    kept = to_reserve(g, 0, "small_moon")
    land, big = give(g, 0, "moon", "argonian_typhoon")
    for action in (("play", land, -1), ("swap", big, kept), ("use", t, "move", a, b, 1)):
        g.apply(action)
        assert s.priority == 1 and s.chain[-1].action == action, action
        pass_all(g)
    # a volley declaration
    g = table(phase=FIRE)
    s = g.s
    _watcher(g, 1)
    ship = put(g, 0, "argonian_sunspot")
    foe = put(g, 1, "krebiz_claw")
    g.apply(("aim", foe))
    g.apply(("add", ship, "phaser"))
    assert s.priority is None  # aiming and adding weapons are not events yet
    g.apply(("fire",))
    assert s.priority == 1 and s.chain[-1].kind == "fire"
    # a voluntary discard
    g = table(phase=DISCARD)
    s = g.s
    _watcher(g, 1)
    ship = put(g, 0, "argonian_sunspot")
    g.apply(("discard", ship))
    assert s.priority == 1 and ship in s.units
    pass_all(g)
    assert ship not in s.units
    # the point allocation: one window; engagement and record keeping open none
    g = table(phase=ALLOCATE)
    s = g.s
    _watcher(g, 1)
    g.apply(("allocate",))
    assert s.priority == 1 and s.phase == ALLOCATE
    pass_all(g)
    assert s.phase == PLAY_A and s.priority is None


# RULE: GE-REACT-1
def test_drawing_and_the_start_of_a_turn_open_no_window() -> None:
    g = table(phase=DISCARD)
    s = g.s
    _watcher(g, 1)
    _watcher(g, 0)
    g.apply(("end",))  # draw, then seat 1's record keeping and production
    assert s.active == 1 and s.phase == ALLOCATE
    assert s.priority is None and s.chain == []


# RULE: GE-REACT-1
def test_krebiz_combining_and_separating_are_answerable() -> None:
    g = table(active=1, edition="quick")
    s = g.s
    _watcher(g, 0)
    clip = put(g, 1, "krebiz_clipper")
    light = put(g, 1, "krebiz_light_capsule")
    g.apply(("combine", clip, light))
    assert s.priority == 0 and s.chain[-1].kind == "combine"
    pass_all(g)
    pincer = put(g, 1, "krebiz_pincer")
    medium = put(g, 1, "krebiz_medium_capsule")
    combine(g, pincer, medium)
    g.apply(("separate", pincer, 0, 0, 0))
    assert s.priority == 0 and s.chain[-1].kind == "separate"


# RULE: GE-REACT-2
def test_the_active_player_reacts_only_to_a_reaction_of_the_opponent() -> None:
    g = table()
    s = g.s
    a, b, _tech = crew_places(g, 0)
    t, land = give(g, 0, "transporter", "moon")
    fa, fb, _fcrew = crew_places(g, 1)
    _shuttle_bay(g, 1)
    ft, = give(g, 1, "transporter")
    g.apply(("play", land, -1))
    assert s.priority == 1
    assert chain.reactions(s, 0) == []  # seat 0 may not answer its own play
    g.apply(("play", ft, fb, "move", fa, fb, 1))  # seat 1 reacts
    assert s.priority == 0  # now seat 0 may answer that reaction
    assert ("play", t, b, "move", a, b, 1) in g.legal_actions()
    give(g, 1, "small_moon")  # seat 1 still holds a card and might answer again
    g.apply(("play", t, b, "move", a, b, 1))
    assert s.priority == 1  # the non-active seat may answer the active seat's reaction


# RULE: GE-REACT-3
def test_a_reaction_card_needs_a_function_or_rule_that_applies_now() -> None:
    g = table(active=1)
    s = g.s
    ship = put(g, 0, "argonian_sunspot")
    other = put(g, 0, "argonian_blizzard")
    doctor, t = give(g, 0, "doctor", "transporter")
    give(g, 0, "moon")
    land, = give(g, 1, "moon")
    # nothing to cure, no illness on its way, no crew to move: neither card may react
    assert [a for a in chain.reactions(s, 0) if a[0] == "play"] == []
    crew = put(g, 0, "technician", on=ship)
    g.apply(("play", land, -2))  # a terrain: the reaction need not concern it
    moves = [a for a in g.legal_actions() if a[:2] == ("play", t)]
    assert moves and all(a[2] in plays.placements(s, 0, t) for a in moves)  # placed as usual
    # entering where the crew is (sending it off) or where it should go (pulling it over)
    assert ("play", t, ship, "move", ship, other, 1) in moves
    assert ("play", t, other, "move", ship, other, 1) in moves
    assert not [a for a in g.legal_actions() if a[:2] == ("play", doctor)]
    pass_all(g)
    sick, = give(g, 1, "illness")
    g.apply(("play", sick, crew))
    assert ("play", doctor, ship) in g.legal_actions()  # its rule would void that Illness
    assert ("play", doctor, other) not in g.legal_actions()


# RULE: GE-REACT-4
def test_cards_in_play_react_only_through_an_as_a_reaction_function_while_engaged() -> None:
    for engaged in (True, False):
        g = table(active=1, phase=FIRE)
        s = g.s
        ship = put(g, 0, "argonian_sunspot", shield_damage=2, damage=2)  # one point from death
        crew = put(g, 0, "technician", on=ship)
        pod = put(g, 0, "escape_pod", on=ship, engaged=engaged)
        refuge = put(g, 0, "moon")
        t = put(g, 0, "transporter", on=refuge)  # an R/ card in play: no reaction rights
        foe = put(g, 1, "krebiz_claw")
        g.apply(("aim", ship))
        g.apply(("add", foe, "phaser"))
        g.apply(("fire",))
        answers = chain.reactions(s, 0)
        assert (("use", pod, "evacuate", refuge, 1) in answers) is engaged
        assert not [a for a in answers if a[:2] == ("use", t)]
        if engaged:
            g.apply(("use", pod, "evacuate", refuge, 1))
            pass_all(g)
            assert ship not in s.units and s.units[crew].parent == refuge


# RULE: GE-REACT-5
def test_a_reaction_on_ones_own_turn_costs_a_card_play() -> None:
    for used, can in ((1, True), (2, False)):
        g = table()
        s = g.s
        s.players[0].plays = used
        x = _exchange(g)
        g.apply(("play", x["land"], -1))
        g.apply(("play", x["ft"], x["fb"], "move", x["fa"], x["fb"], 1))  # seat 1 reacts
        react = ("play", x["t"], x["b"], "move", x["a"], x["b"], 1)
        assert (react in chain.reactions(s, 0)) is can
        if can:
            assert s.priority == 0
            g.apply(react)
            assert s.players[0].plays == 3
        else:
            assert s.priority == 1  # seat 0, with no card play left, was passed for
            with pytest.raises(IllegalAction):
                g.apply(react, player=0)


# RULE: GE-REACT-5
def test_a_reaction_on_the_opponents_turn_is_free() -> None:
    g = table(active=1)
    s = g.s
    s.players[0].plays = 3  # even with none left from its own turn
    a, b, _tech = crew_places(g, 0)
    t, = give(g, 0, "transporter")
    land, = give(g, 1, "moon")
    g.apply(("play", land, -2))
    g.apply(("play", t, b, "move", a, b, 1))
    assert s.players[0].plays == 3


def _shuttle_bay(g: GalacticEmpires, seat: int) -> None:
    """A ship of ``seat`` with a crew on it: a Shuttlecraft from hand could carry that crew."""
    ship = put(g, seat, "argonian_sunspot" if seat == 0 else "krebiz_claw")
    put(g, seat, "boarding_party", on=ship)


def _exchange(g: GalacticEmpires) -> dict[str, int]:
    """Seat 0 (active) has a terrain to play; both seats hold a Transporter with crew to move,
    and after playing it each might still hold a Shuttlecraft with crew to carry."""
    a, b, c = crew_places(g, 0)
    t, land = give(g, 0, "transporter", "moon")
    fa, fb, fc = crew_places(g, 1, "technician")
    ft, = give(g, 1, "transporter")
    give(g, 1, "small_moon")
    give(g, 0, "small_moon")
    _shuttle_bay(g, 0)
    _shuttle_bay(g, 1)
    return {"a": a, "b": b, "c": c, "t": t, "land": land, "fa": fa, "fb": fb, "fc": fc, "ft": ft}


# RULE: GE-REACT-6
def test_the_window_closes_at_once_when_the_opponent_passes_on_the_active_players_event() -> None:
    g = table()
    s = g.s
    x = _exchange(g)
    g.apply(("play", x["land"], -1))
    assert s.priority == 1
    events = g.apply(("pass",))
    assert s.priority is None and s.chain == []  # seat 0 was not asked
    assert ("enter", 0, x["land"], -1) in events


# RULE: GE-REACT-6
def test_priority_after_a_reaction_and_after_passes() -> None:
    g = table()
    s = g.s
    x = _exchange(g)
    g.apply(("play", x["land"], -1))
    g.apply(("play", x["ft"], x["fb"], "move", x["fa"], x["fb"], 1))  # seat 1 reacts
    assert s.priority == 0  # after a reaction, to the other seat
    g.apply(("pass",))
    assert s.priority == 1  # seat 1 reacted last rather than passing: it may add more
    assert len(s.chain) == 2
    events = g.apply(("pass",))  # seat 1 passes after seat 0 passed: the window closes
    assert s.priority is None and s.chain == []
    entered = [e[2] for e in events if e[0] == "enter"]
    assert entered == [x["ft"], x["land"]]  # the newest first, the original event last


# RULE: GE-REACT-6
def test_after_a_reaction_the_reacting_seat_may_go_on_if_the_other_cannot_answer() -> None:
    g = table()
    s = g.s
    a, b, _c = crew_places(g, 1)
    _shuttle_bay(g, 1)
    t, _land = give(g, 1, "transporter", "moon")
    mine, = give(g, 0, "small_moon")
    g.apply(("play", mine, -1))
    g.apply(("play", t, b, "move", a, b, 1))
    # seat 0 has an empty hand and nothing in play that reacts: it passes at once, unasked
    assert s.priority == 1 and s.passed == 0
    assert len(s.chain) == 2
    events = g.apply(("pass",))
    assert s.priority is None and [e[2] for e in events if e[0] == "enter"] == [t, mine]


# RULE: GE-REACT-6
def test_seat_zero_answers_a_reaction_and_then_seat_one_is_asked_again() -> None:
    g = table()
    s = g.s
    x = _exchange(g)
    g.apply(("play", x["land"], -1))
    g.apply(("play", x["ft"], x["fb"], "move", x["fa"], x["fb"], 1))
    g.apply(("play", x["t"], x["b"], "move", x["a"], x["b"], 1))  # seat 0 answers on its own turn
    assert s.priority == 1 and len(s.chain) == 3
    g.apply(("pass",))
    assert s.priority == 0  # seat 0 added a reaction, did not pass: it is asked again
    events = g.apply(("pass",))
    assert [e[2] for e in events if e[0] == "enter"] == [x["t"], x["ft"], x["land"]]
    assert s.priority is None


# RULE: GE-REACT-6
def test_resolving_a_chain_asks_nobody_between_its_items() -> None:
    g = table()
    s = g.s
    x = _exchange(g)
    g.apply(("play", x["land"], -1))
    g.apply(("play", x["ft"], x["fb"], "move", x["fa"], x["fb"], 1))
    g.apply(("pass",))
    g.apply(("pass",))
    # the reaction resolved, then the terrain play, with no window in between, although seat 1
    # still holds cards and seat 0 a Transporter with crew to move
    assert s.chain == [] and s.priority is None and x["land"] in s.units


# RULE: GE-REACT-7
def test_the_answer_resolves_ahead_of_the_answered_event() -> None:
    g = table()
    s = g.s
    foe = put(g, 1, "krebiz_claw")
    foe_crew = put(g, 1, "technician", on=foe)
    sub, = give(g, 1, "crewman")
    sick, = give(g, 0, "illness")
    g.apply(("play", sick, foe_crew))
    g.apply(("play", sub, foe_crew))  # the Crewman stands in for the targeted crew
    pass_all(g)
    assert s.units[sick].parent == sub  # when the Illness resolved, its target had changed
    assert board.works(s, foe_crew) and not board.works(s, sub)


# RULE: GE-REACT-8
# RULE: GE-REACT-4
# RULE: GE-REACT-3
def test_cards_in_play_never_fire_back_only_a_reaction_card_from_hand_may() -> None:
    """In the opponent's Weapons Fire phase, once a volley is declared, a ship of seat 0 in play
    with phasers left is offered no shot: a card in play has no reaction rights of its own (R/
    cards included), and only a reaction card played from hand may fire then."""
    g = table(active=1, phase=FIRE)
    s = g.s
    mine = put(g, 0, "argonian_sunspot", loaded=1)  # 3 phasers and a load left from its turn
    sats = put(g, 0, "defensive_satellites", on=put(g, 0, "siobhan_7"))  # a base with 4 phasers
    parked = put(g, 1, "shuttlecraft", on=mine)  # an R/ card in play, its one-shot phaser loaded:
    s.owner_of[parked] = s.units[parked].owner = 0  # seat 0's (its deck has one copy, for the hand)
    shuttle, = give(g, 0, "shuttlecraft")
    foe = put(g, 1, "krebiz_claw")
    other = put(g, 1, "krebiz_mandible")
    g.apply(("aim", mine))
    g.apply(("add", foe, "phaser"))
    g.apply(("fire",))
    assert s.priority == 0  # the Shuttlecraft in hand could answer: a window opens
    offered = g.legal_actions()
    assert not [a for a in offered if a[0] == "shoot"]
    assert not [a for a in offered if a[0] == "use" and a[1] in (mine, sats, parked)]
    assert ("play", shuttle, mine, "fire", other) in offered  # the reaction card from hand may
    for shot in (("shoot", mine, other), ("shoot", sats, other), ("shoot", parked, other)):
        with pytest.raises(IllegalAction) as refused:
            g.apply(shot)
        assert refused.value.rule == "GE-REACT-4"
    g.apply(("pass",))
    assert s.units[other].damage == 0 and s.units[mine].fired_phasers == 0


def test_with_no_reaction_card_in_hand_a_volley_opens_no_window_for_ships_in_play() -> None:
    """The same position without the Shuttlecraft: seat 0's ships in play give it nothing to
    answer with, so the volley resolves at once (GE-REACT-10: no legal reaction, no window)."""
    g = table(active=1, phase=FIRE)
    s = g.s
    mine = put(g, 0, "argonian_sunspot")
    foe = put(g, 1, "krebiz_claw")
    s.players[0].hand.clear()
    s.players[0].deck.clear()  # no reaction card of seat 0 left unaccounted for
    g.apply(("aim", mine))
    g.apply(("add", foe, "phaser"))
    g.apply(("fire",))
    assert s.priority is None and s.units[mine].damage + s.units[mine].shield_damage == 1


# RULE: GE-REACT-8
def test_a_shuttlecraft_played_in_reaction_fires_its_phaser_as_it_enters() -> None:
    g = table(active=1, phase=FIRE)
    s = g.s
    mine = put(g, 0, "argonian_sunspot")
    shuttle, = give(g, 0, "shuttlecraft")
    foe = put(g, 1, "krebiz_claw")
    g.apply(("aim", mine))
    g.apply(("add", foe, "phaser"))
    g.apply(("fire",))
    fire = ("play", shuttle, mine, "fire", foe)
    assert fire in g.legal_actions()
    assert ("play", shuttle, mine, "fire", -1) not in g.legal_actions()  # never its own HQ
    g.apply(fire)
    pass_all(g)
    assert s.units[foe].damage == 1 and s.units[shuttle].empty and s.units[shuttle].used
    g2 = table(active=1)
    put(g2, 0, "argonian_sunspot")
    sh2, = give(g2, 0, "shuttlecraft")
    put(g2, 1, "krebiz_claw")
    land, = give(g2, 1, "moon")
    g2.apply(("play", land, -2))
    assert not [a for a in chain.reactions(g2.s, 0) if a[:2] == ("play", sh2) and a[3] == "fire"]


# RULE: GE-REACT-9
def test_a_doctor_played_in_reaction_spends_its_research_on_an_illness() -> None:
    g = table(active=1)
    s = g.s
    far = put(g, 0, "argonian_blizzard")
    crew = put(g, 0, "technician", on=far)
    sick = put(g, 1, "illness", on=crew)
    near = put(g, 0, "argonian_sunspot")
    doctor, = give(g, 0, "doctor")
    land, = give(g, 1, "moon")
    g.apply(("play", land, -2))
    research = ("play", doctor, near, "research", sick)
    assert research in g.legal_actions()
    g.apply(research)
    pass_all(g)
    assert sick not in s.units and sick in s.players[1].discard
    assert s.units[doctor].parent == near
    assert s.players[0].pool == [0] * 6  # the point went to the Illness, nowhere else


# RULE: GE-REACT-9
def test_a_doctor_played_normally_makes_points_only_in_allocation() -> None:
    g = table()
    s = g.s
    far = put(g, 0, "argonian_blizzard")
    crew = put(g, 0, "technician", on=far)
    sick = put(g, 1, "illness", on=crew)
    near = put(g, 0, "argonian_sunspot")
    doctor, = give(g, 0, "doctor")
    played(g, ("play", doctor, near))
    assert sick in s.units and s.players[0].pool == [0] * 6


# RULE: GE-REACT-10
def test_a_seat_that_cannot_react_is_passed_for_at_once() -> None:
    g = table()
    s = g.s
    land, = give(g, 0, "moon")
    g.apply(("play", land, -1))  # seat 1: empty hand, nothing in play
    assert s.priority is None and land in s.units


# RULE: GE-REACT-10
def test_a_reaction_card_already_played_no_longer_keeps_a_window_open() -> None:
    g = table()
    s = g.s
    a, b, _c = crew_places(g, 1)
    t, _land = give(g, 1, "transporter", "moon")
    mine, = give(g, 0, "small_moon")
    g.apply(("play", mine, -1))
    assert s.priority == 1
    g.apply(("play", t, b, "move", a, b, 1))
    # the Transporter is on the chain for all to see; nothing else seat 1 could hold would
    # help it now, so it is not asked again
    assert s.priority is None and s.chain == [] and t in s.units


def _twins(hand: tuple[str, ...]) -> GalacticEmpires:
    """Seat 0 to play a terrain; seat 1 has crew to move and holds ``hand``."""
    g = table()
    crew_places(g, 1)
    give(g, 1, *hand)
    a = put(g, 0, "argonian_sunspot")
    b = put(g, 0, "argonian_blizzard")
    put(g, 0, "transporter", on=a)
    put(g, 0, "technician", on=a)
    give(g, 0, "moon", "small_moon")
    del b
    return g


def _seen_by_seat_zero(g: GalacticEmpires) -> list[tuple[Any, ...]]:
    """Drive a fixed script for seat 0; seat 1 always passes. What seat 0 observes: who is to
    move at each step and, when it is seat 0, its legal actions."""
    s = g.s
    a = next(u.uid for u in board.fleet(s, 0) if s.spec(u.uid).key == "argonian_sunspot")
    b = next(u.uid for u in board.fleet(s, 0) if s.spec(u.uid).key == "argonian_blizzard")
    t = next(u.uid for u in board.fleet(s, 0) if s.spec(u.uid).key == "transporter")
    lands = sorted(uid for uid in s.players[0].hand)
    script = [("play", lands[0], -1), ("use", t, "move", a, b, 1), ("play", lands[1], -1)]
    seen: list[tuple[Any, ...]] = []
    for action in script:
        g.apply(action)
        while g.to_move == 1:
            seen.append(("seat 1 to move", len(s.chain)))
            g.apply(("pass",))
        seen.append(("seat 0", tuple(sorted(map(str, g.legal_actions())))))
    return seen


# RULE: GE-REACT-10
def test_windows_do_not_reveal_what_the_hidden_hand_holds() -> None:
    with_reaction = _twins(("transporter", "moon"))
    without = _twins(("biruks_comet", "moon"))  # the Transporter is still in the deck
    assert [a for a in chain.reactions(with_reaction.s, 1) if a[0] == "play"]
    assert chain.reactions(without.s, 1) == []
    first = _seen_by_seat_zero(with_reaction)
    second = _seen_by_seat_zero(without)
    assert first == second
    assert ("seat 1 to move", 1) in first  # seat 1 was asked each time, reaction or not
    # once the Transporter is known to be elsewhere (in the discard pile), nobody is asked
    g = _twins(("biruks_comet", "moon"))
    bury(g, 1, "transporter")
    bury(g, 1, "shuttlecraft")
    assert ("seat 1 to move", 1) not in _seen_by_seat_zero(g)


# RULE: GE-REACT-10
def test_a_seat_may_choose_never_to_react_this_turn() -> None:
    g = table()
    s = g.s
    _watcher(g, 1)
    land, other = give(g, 0, "moon", "small_moon")
    g.apply(("play", land, -1))
    assert s.priority == 1
    assert ("quiet",) in g.legal_actions()
    g.apply(("quiet",))
    g.apply(("play", other, -1))
    assert s.priority is None


# =========================================================================== missions (MISSION)


def _boarding(g: GalacticEmpires) -> dict[str, int]:
    """Seat 0: a ship with a Transporter and a Boarding Party, a second ship. Seat 1: a lone
    Clipper (no shields) with a Crewman aboard, and a position from which it might react."""
    x = {"a": put(g, 0, "argonian_sunspot"), "b": put(g, 0, "argonian_blizzard")}
    x["t"] = put(g, 0, "transporter", on=x["a"])
    x["party"] = put(g, 0, "boarding_party", on=x["a"])
    x["clip"] = put(g, 1, "krebiz_clipper")
    x["mate"] = put(g, 1, "crewman", on=x["clip"])
    x["fa"], x["fb"], x["fc"] = crew_places(g, 1)
    give(g, 1, "small_moon")
    return x


# RULE: GE-MISSION-1
def test_crew_work_where_they_sit_and_travel_by_transport_to_work_elsewhere() -> None:
    g = table()
    s = g.s
    a = put(g, 0, "argonian_sunspot")
    b = put(g, 0, "argonian_blizzard")
    doctor = put(g, 0, "doctor", on=a)
    patient = put(g, 0, "technician", on=b)
    put(g, 1, "illness", on=patient)
    assert [x for x in legal(g, "use") if x[1] == doctor] == []  # the Illness is elsewhere
    t = put(g, 0, "transporter", on=a)
    assert ("use", t, "mission", doctor, b, "cure") in g.legal_actions()
    g2 = table()
    a2 = put(g2, 0, "argonian_sunspot")
    doctor2 = put(g2, 0, "doctor", on=a2)
    patient2 = put(g2, 0, "technician", on=a2)
    put(g2, 1, "illness", on=patient2)
    assert ("use", doctor2, "cure") in g2.legal_actions()  # at home, no transport needed
    del s


# RULE: GE-MISSION-2
def test_the_transporter_moves_any_number_of_crew_to_or_from_its_own_location() -> None:
    g = table()
    a = put(g, 0, "argonian_sunspot")
    b = put(g, 0, "argonian_blizzard")
    c = put(g, 0, "moon")
    t = put(g, 0, "transporter", on=a)
    crew = [put(g, 0, key, on=a) for key in ("technician", "civilian_captain", "boarding_party", "crewman")]
    moves = [x for x in legal(g, "use") if x[1] == t and x[2] == "move"]
    assert {x[5] for x in moves if x[3:5] == (a, b)} == set(range(1, 16))  # any of the 4, all 4
    assert not [x for x in moves if a not in x[3:5]]  # one end is always its own location
    played(g, ("use", t, "move", a, c, 15))
    assert all(g.s.units[x].parent == c for x in crew)


# RULE: GE-MISSION-2
def test_the_transporter_cannot_reach_an_opponent_card_with_shields_up() -> None:
    g = table()
    s = g.s
    a = put(g, 0, "argonian_sunspot")
    t = put(g, 0, "transporter", on=a)
    party = put(g, 0, "boarding_party", on=a)
    capsule = put(g, 1, "krebiz_medium_capsule", shield_damage=3)  # one of 4 shields still up
    cruiser = put(g, 1, "krebiz_claw")  # a lone cruiser has no shields at all
    land = put(g, 1, "moon")  # terrain has none either
    targets = {x[4] for x in legal(g, "use") if x[1] == t and x[2] == "mission"}
    assert capsule not in targets and cruiser in targets
    assert ("use", t, "mission", party, cruiser, "hull") in g.legal_actions()
    del land
    s.units[capsule].shield_damage = 4
    assert ("use", t, "mission", party, capsule, "hull") in g.legal_actions()


# RULE: GE-MISSION-3
def test_the_shuttlecraft_carries_up_to_three_crew_and_goes_along() -> None:
    g = table()
    s = g.s
    a = put(g, 0, "argonian_sunspot")
    land = put(g, 0, "moon")
    shuttle = put(g, 0, "shuttlecraft", on=a)
    crew = [put(g, 0, key, on=a) for key in ("technician", "civilian_captain", "boarding_party", "crewman")]
    masks = {x[4] for x in legal(g, "use") if x[1] == shuttle and x[2] == "move" and x[3] == land}
    assert masks == {m for m in range(16) if (m).bit_count() <= 3}  # 0 to 3 of the 4
    played(g, ("use", shuttle, "move", land, 0b0111))  # the mask counts over crew by uid
    by_uid = sorted(crew)
    assert [s.units[c].parent for c in by_uid] == [land, land, land, a]
    assert s.units[shuttle].parent == land  # it travels with them, onto a terrain too


# RULE: GE-MISSION-3
def test_a_shuttlecraft_ignores_shields_and_its_shot_is_its_function() -> None:
    g = table()
    s = g.s
    a = put(g, 0, "argonian_sunspot")
    shuttle = put(g, 0, "shuttlecraft", on=a)
    party = put(g, 0, "boarding_party", on=a)
    capsule = put(g, 1, "krebiz_medium_capsule")  # all 4 shields up
    assert ("use", shuttle, "mission", party, capsule, "hull") in g.legal_actions()
    g.apply(("end",))
    assert s.phase == FIRE
    g.apply(("aim", capsule))
    g.apply(("add", shuttle, "phaser"))
    g.apply(("fire",))
    pass_all(g)
    assert s.units[capsule].shield_damage == 1
    if s.phase == FIRE:
        g.apply(("end",))
    assert s.phase == PLAY_B
    assert [x for x in legal(g, "use") if x[1] == shuttle] == []  # its one function is spent
    # and the other way round: a shuttlecraft that carried crew does not fire
    g = table()
    a = put(g, 0, "argonian_sunspot")
    b = put(g, 0, "argonian_blizzard")
    shuttle = put(g, 0, "shuttlecraft", on=a)
    put(g, 1, "krebiz_claw")
    played(g, ("use", shuttle, "move", b, 0))
    g.apply(("end",))
    assert g.s.phase == FIRE
    g.apply(("aim", next(t for t in [x[1] for x in legal(g, "aim")])))
    assert ("add", shuttle, "phaser") not in g.legal_actions()


# RULE: GE-MISSION-4
def test_plain_moves_stay_inside_the_movers_own_fleet() -> None:
    g = table()
    s = g.s
    a = put(g, 0, "argonian_sunspot")
    t = put(g, 0, "transporter", on=a)
    shuttle = put(g, 0, "shuttlecraft", on=a)
    put(g, 0, "technician", on=a)
    own = {a, put(g, 0, "moon"), put(g, 0, "argonian_blizzard")}
    put(g, 1, "krebiz_claw")
    put(g, 1, "moon")
    for x in legal(g, "use"):
        if x[2] == "move":
            ends = x[3:5] if x[1] == t else (x[3],)
            assert set(ends) <= own, x
    del s, shuttle


# RULE: GE-MISSION-5
# RULE: GE-REACT-1
def test_a_mission_is_three_answerable_steps_and_uses_both_functions() -> None:
    g = table()
    s = g.s
    x = _boarding(g)
    mission = ("use", x["t"], "mission", x["party"], x["clip"], "capture", x["mate"])
    g.apply(mission)
    assert s.priority == 1 and s.chain[-1].kind == "use"  # (1) the trip out
    g.apply(("pass",))
    assert s.units[x["party"]].parent == x["clip"]
    assert s.priority == 1 and s.chain[-1].kind == "act"  # (2) its function there
    assert x["mate"] in s.units
    g.apply(("pass",))
    assert x["mate"] not in s.units and x["mate"] in s.players[1].discard
    assert s.priority == 1 and s.chain[-1].kind == "back"  # (3) the trip home
    assert s.units[x["party"]].parent == x["clip"]
    g.apply(("pass",))
    assert s.units[x["party"]].parent == x["a"] and s.priority is None
    assert s.units[x["t"]].used and s.units[x["party"]].used


# RULE: GE-MISSION-5
def test_a_mission_may_go_to_any_location_but_the_crews_own() -> None:
    g = table()
    a = put(g, 0, "argonian_sunspot")
    b = put(g, 0, "argonian_blizzard")
    t = put(g, 0, "transporter", on=a)
    doctor = put(g, 0, "doctor", on=a)
    for where in (a, b):
        patient = put(g, 0, "technician" if where == a else "civilian_captain", on=where)
        put(g, 1, "illness" if where == b else "space_vertigo", on=patient)
    foe = put(g, 1, "krebiz_claw")
    foe_crew = put(g, 1, "technician", on=foe)
    put(g, 0, "illness", on=foe_crew)  # an illness at an opponent location: reachable too
    targets = {x[4] for x in legal(g, "use") if x[1] == t and x[2] == "mission" and x[3] == doctor}
    assert targets == {b, foe}


# RULE: GE-MISSION-6
def test_a_crew_is_carried_disengaged_but_acts_only_while_working() -> None:
    g = table()
    s = g.s
    a = put(g, 0, "argonian_sunspot")
    b = put(g, 0, "argonian_blizzard")
    t = put(g, 0, "transporter", on=a)
    party = put(g, 0, "boarding_party", on=a)
    put(g, 1, "illness", on=party)
    foe = put(g, 1, "krebiz_claw")
    assert not [x for x in legal(g, "use") if x[2] == "mission"]  # it could not act there
    played(g, ("use", t, "move", a, b, 1))  # but it may be carried
    assert s.units[party].parent == b
    del foe


# RULE: GE-MISSION-6
# RULE: GE-MISSION-7
def test_a_crew_disabled_during_its_mission_is_voided_and_still_comes_home() -> None:
    g = table()
    s = g.s
    a = put(g, 0, "argonian_sunspot")
    b = put(g, 0, "argonian_blizzard")
    t = put(g, 0, "transporter", on=a)
    doctor = put(g, 0, "doctor", on=a)
    patient = put(g, 0, "technician", on=b)
    sick = put(g, 1, "illness", on=patient)
    mal, = give(g, 1, "malpractice")
    give(g, 1, "moon")
    g.apply(("use", t, "mission", doctor, b, "cure"))
    g.apply(("pass",))  # the Doctor arrives; its cure is the next event
    assert s.chain[-1].kind == "act" and s.priority == 1
    assert ("play", mal, doctor) in g.legal_actions()
    g.apply(("play", mal, doctor))
    pass_all(g)
    assert sick in s.units  # the cure was voided
    assert s.units[doctor].parent == a  # and the Doctor travelled back


# RULE: GE-MISSION-7
def test_a_function_that_became_impossible_is_voided_and_the_crew_returns() -> None:
    g = table()
    s = g.s
    x = _boarding(g)
    ft, = give(g, 1, "transporter")
    g.apply(("use", x["t"], "mission", x["party"], x["clip"], "capture", x["mate"]))
    g.apply(("play", ft, x["fb"], "move", x["clip"], x["fb"], 1))  # the Crewman is pulled away
    pass_all(g)
    assert s.units[x["mate"]].parent == x["fb"] and x["mate"] in s.units  # nothing captured
    assert s.units[x["party"]].parent == x["a"]
    assert s.units[x["party"]].used and s.units[x["t"]].used


# RULE: GE-MISSION-7
def test_a_crew_whose_home_left_play_goes_elsewhere_or_is_discarded() -> None:
    for spare in (True, False):
        g = table()
        s = g.s
        x = _boarding(g)
        board.leave(s, x["b"])
        if spare:
            refuge = put(g, 0, "moon")
        g.apply(("use", x["t"], "mission", x["party"], x["clip"], "hull"))
        g.apply(("pass",))
        assert s.chain[-1].kind == "act"
        board.leave(s, x["a"])  # its home goes while it is away
        pass_all(g)
        if spare:
            assert s.units[x["party"]].parent == refuge
        else:
            assert x["party"] not in s.units and x["party"] in s.players[0].discard


# RULE: GE-MISSION-3
# RULE: GE-MISSION-7
def test_a_shuttlecraft_flies_home_even_if_its_crew_is_lost() -> None:
    g = table()
    s = g.s
    a = put(g, 0, "argonian_sunspot")
    shuttle = put(g, 0, "shuttlecraft", on=a)
    party = put(g, 0, "boarding_party", on=a)
    foe = put(g, 1, "krebiz_claw")
    _watcher(g, 1)
    g.apply(("use", shuttle, "mission", party, foe, "hull"))
    g.apply(("pass",))
    assert s.units[shuttle].parent == foe and s.chain[-1].kind == "act"
    assert not combat.is_target(s, shuttle, 1)  # aboard, never a free-flying target
    board.leave(s, party)  # as if the crew were lost at the destination
    pass_all(g)
    assert s.units[shuttle].parent == a and s.units[foe].damage == 0


# RULE: GE-MISSION-8
# RULE: GE-REACT-6
def test_a_transport_and_a_reaction_crew_card_played_together_as_one_reaction() -> None:
    g = table(active=1)
    s = g.s
    a = put(g, 0, "argonian_sunspot")
    b = put(g, 0, "argonian_blizzard")
    patient = put(g, 0, "technician", on=b)
    sick = put(g, 1, "illness", on=patient)
    t, doctor = give(g, 0, "transporter", "doctor")
    _shuttle_bay(g, 1)
    give(g, 1, "small_moon")
    land, = give(g, 1, "moon")
    g.apply(("play", land, -2))
    pair = ("play", t, a, "with", doctor, b, "cure")
    assert pair in g.legal_actions()
    g.apply(pair)
    assert t not in s.players[0].hand and doctor not in s.players[0].hand
    assert s.players[0].plays == 0  # one reaction, free on the opponent's turn
    while s.chain and s.chain[-1].kind != "act":
        g.apply(("pass",))
    # the steps of a mission a reaction started are reactions too: the active seat may answer
    assert s.chain[-1].reaction and s.priority == 1
    # the Doctor entered with the Transporter and travelled; its cure is the next event, and
    # it comes before the terrain play it answered, which is still on the chain
    assert s.units[doctor].parent == b and s.units[t].parent == a
    assert land not in s.units and s.chain[0].action == ("play", land, -2)
    pass_all(g)
    assert sick not in s.units
    assert s.units[doctor].parent == a and land in s.units
    assert s.units[t].used and s.units[doctor].used


# RULE: GE-MISSION-8
def test_a_crew_without_r_slash_never_acts_on_the_opponents_turn() -> None:
    for transporter_in_hand in (False, True):
        g = table(active=1)
        s = g.s
        a = put(g, 0, "argonian_sunspot")
        party = put(g, 0, "boarding_party", on=a)
        put(g, 1, "krebiz_claw")  # no shields: a Boarding Party could hit it on seat 0's turn
        if transporter_in_hand:
            _t, = give(g, 0, "transporter")
        else:
            put(g, 0, "transporter", on=a)
        crew_places(g, 0)
        give(g, 0, "moon")
        give(g, 1, "moon")
        land, = give(g, 1, "small_moon")
        g.apply(("play", land, -2))
        assert s.priority == 0
        options = chain.reactions(s, 0)
        assert bool(options) is transporter_in_hand  # a plain move, from hand only
        assert not [x for x in options if "with" in x or "mission" in x]
        del party


# RULE: GE-MISSION-8
def test_only_a_reaction_crew_card_can_be_paired_with_a_transport() -> None:
    g = table(active=1)
    s = g.s
    a = put(g, 0, "argonian_sunspot")
    put(g, 1, "krebiz_claw")
    t, party = give(g, 0, "transporter", "boarding_party")
    assert s.effect_of(t).pair_plays(s, 0, t, party) == []
    del a


# =========================================================================== Krebiz ships (KREB)


# RULE: GE-KREB-1
def test_every_krebiz_part_plays_alone_as_a_full_ship() -> None:
    keys = ("krebiz_clipper", "krebiz_pincer", "krebiz_mandible", "krebiz_claw",
            "krebiz_light_capsule", "krebiz_medium_capsule", "krebiz_heavy_capsule")
    assert [BY_KEY[k].strength for k in keys] == [2, 3, 4, 5, 1, 1, 2]
    for key in keys:
        g = table(active=1, edition="quick")
        s = g.s
        uid, = give(g, 1, key)
        played(g, ("play", uid, -2))
        assert uid in s.units and board.is_ship(s, uid) and board.protects_hq(s, uid)
        assert strength(g, uid) == BY_KEY[key].strength and not board.hq_open(s, 1)


# RULE: GE-KREB-2
def test_small_capsules_fit_small_cruisers_and_the_heavy_capsule_heavy_ones() -> None:
    g = table(active=1, edition="quick")
    s = g.s
    small = {put(g, 1, "krebiz_clipper"), put(g, 1, "krebiz_pincer")}
    heavy = {put(g, 1, "krebiz_mandible"), put(g, 1, "krebiz_claw")}
    light, medium, big = give(g, 1, "krebiz_light_capsule", "krebiz_medium_capsule", "krebiz_heavy_capsule")
    for capsule in (light, medium):
        assert set(plays.placements(s, 1, capsule)) == {-2} | small
    assert set(plays.placements(s, 1, big)) == {-2} | heavy
    # one part of each kind per combination: a joined ship takes no further part
    clip = min(small)
    played(g, ("play", light, clip))
    assert s.units[clip].partner == light
    assert clip not in plays.placements(s, 1, medium)
    spare = put(g, 1, "krebiz_light_capsule")
    assert ("combine", clip, spare) not in g.legal_actions()
    assert not [a for a in legal(g, "combine") if a[1] in heavy and a[2] in (spare, light)]


# RULE: GE-KREB-3
def test_a_cruiser_and_a_capsule_from_hand_are_one_play_and_one_ship() -> None:
    g = table(active=1, turns=2)
    s = g.s
    cruiser, capsule, other = give(g, 1, "krebiz_claw", "krebiz_heavy_capsule", "krebiz_clipper")
    assert plays.stage(s, 1) == 2
    assert ("pair", cruiser, capsule, -2) in g.legal_actions()
    assert ("pair", other, capsule, -2) not in g.legal_actions()  # not a fitting capsule
    played(g, ("pair", cruiser, capsule, -2))
    assert s.players[1].plays == 1 and s.players[1].ships_turn2 == 1
    assert s.units[cruiser].partner == capsule and s.units[capsule].partner == cruiser
    assert not [a for a in g.legal_actions() if a[0] == "play" and a[1] == other]  # the turn-2 ship


# RULE: GE-KREB-4
def test_a_combination_is_one_ship_with_the_sums_of_both_parts() -> None:
    g = table(active=1)
    s = g.s
    cruiser = put(g, 1, "krebiz_pincer")  # S3 ●✸, 0 shields, 1 phaser, 2 sabots
    capsule = put(g, 1, "krebiz_medium_capsule")  # S1 ✸, 4 shields, 1 phaser
    assert board.slots_needed(s, 1) == 2
    combine(g, cruiser, capsule)
    assert strength(g, cruiser) == 4 and board.shields(s, cruiser) == 4
    assert board.phasers(s, cruiser) == 2 and board.heavy(s, cruiser) == 2
    assert board.cost(s, cruiser) == [0, 1, 2, 0, 0, 0]
    assert board.basis(s, capsule) == cruiser  # stack-wise the cruiser is the basis
    assert board.slots_needed(s, 1) == 2  # [F] one S4 ship: one slot
    assert combat.is_target(s, cruiser, 0) and not combat.is_target(s, capsule, 0)
    combat.hit(s, cruiser, 7, "weapons", 0)  # 4 on the shared shields, 3 on the shared hull
    assert s.units[cruiser].damage == 3 and cruiser in s.units
    combat.hit(s, cruiser, 1, "structural", 0)
    assert cruiser not in s.units and capsule not in s.units


# RULE: GE-KREB-5
def test_a_part_from_hand_joins_a_part_in_play_and_the_combination_is_disengaged() -> None:
    g = table(active=1, turns=2)
    s = g.s
    land = put(g, 1, "moon")
    clip = put(g, 1, "krebiz_clipper")  # engaged
    capsule = put(g, 1, "krebiz_medium_capsule", on=land)
    light, pincer = give(g, 1, "krebiz_light_capsule", "krebiz_pincer")
    played(g, ("play", light, clip))  # a capsule onto a cruiser: one play, one ship
    assert s.players[1].plays == 1 and s.players[1].ships_turn2 == 1
    assert s.units[clip].partner == light
    assert not s.units[clip].engaged and not s.units[light].engaged  # just played: disengaged
    s.players[1].ships_turn2 = 0
    played(g, ("play", pincer, capsule))  # a cruiser onto a capsule takes its place
    assert s.units[pincer].partner == capsule and s.units[pincer].parent == land
    assert s.units[capsule].parent == pincer and s.players[1].plays == 2


# RULE: GE-KREB-5
def test_two_parts_in_play_combine_for_one_play_engaged_only_if_both_were() -> None:
    for both in (True, False):
        g = table(active=1, edition="quick")
        s = g.s
        cruiser = put(g, 1, "krebiz_claw")
        capsule = put(g, 1, "krebiz_heavy_capsule", engaged=both)
        played(g, ("combine", cruiser, capsule))
        assert s.players[1].plays == 1 and s.units[cruiser].partner == capsule
        assert s.units[cruiser].engaged is both and s.units[capsule].engaged is both
        assert [a for a in legal(g, "separate") if a[1] == cruiser] == []  # combined this turn


# RULE: GE-KREB-5
# RULE: GE-KREB-6
def test_parts_separated_this_turn_do_not_combine_again() -> None:
    g = table(active=1, edition="quick")
    s = g.s
    cruiser = put(g, 1, "krebiz_claw")
    capsule = put(g, 1, "krebiz_heavy_capsule")
    combine(g, cruiser, capsule)
    played(g, ("separate", cruiser, 0, 0, 0))
    assert s.units[cruiser].partner is None
    assert ("combine", cruiser, capsule) not in g.legal_actions()
    again, = give(g, 1, "krebiz_heavy_capsule")
    assert cruiser not in plays.placements(s, 1, again)
    turn.start_turn(s, 1)
    s.phase = PLAY_A
    assert ("combine", cruiser, capsule) in g.legal_actions()


# RULE: GE-KREB-6
def test_parting_is_for_the_owner_in_its_own_play_cards_phases() -> None:
    g = table(active=0)
    s = g.s
    cruiser = put(g, 1, "krebiz_claw")
    capsule = put(g, 1, "krebiz_heavy_capsule")
    combine(g, cruiser, capsule)
    _watcher(g, 1)
    land, = give(g, 0, "moon")
    g.apply(("play", land, -1))
    assert s.priority == 1
    assert not [a for a in g.legal_actions() if a[0] == "separate"]
    g = table(active=1, phase=FIRE)
    cruiser = put(g, 1, "krebiz_claw")
    capsule = put(g, 1, "krebiz_heavy_capsule")
    combine(g, cruiser, capsule)
    assert legal(g, "separate") == []
    g.s.phase = PLAY_B
    assert legal(g, "separate")


# RULE: GE-KREB-6
def test_separating_splits_damage_within_each_parts_limits() -> None:
    g = table(active=1, edition="quick")
    s = g.s
    cruiser = put(g, 1, "krebiz_pincer")  # S3, no shields
    capsule = put(g, 1, "krebiz_medium_capsule")  # S1, 4 shields
    combine(g, cruiser, capsule)
    s.units[cruiser].shield_damage, s.units[cruiser].damage = 3, 2
    splits = {a[2:4] for a in legal(g, "separate")}
    # all 3 shield points must go to the capsule (the cruiser has no shields); the capsule
    # can take no structural point (1 would destroy it); the cruiser keeps both (2 < 3)
    assert splits == {(3, 0)}
    played(g, ("separate", cruiser, 3, 0, 0))
    assert (s.units[capsule].shield_damage, s.units[capsule].damage) == (3, 0)
    assert (s.units[cruiser].shield_damage, s.units[cruiser].damage) == (0, 2)
    # with one more structural point there is no legal split: the ship cannot part
    g = table(active=1, edition="quick")
    cruiser = put(g, 1, "krebiz_pincer")
    capsule = put(g, 1, "krebiz_medium_capsule")
    combine(g, cruiser, capsule)
    g.s.units[cruiser].damage = 3
    assert legal(g, "separate") == []


# RULE: GE-KREB-6
# RULE: GE-KREB-9
def test_cards_on_the_combination_are_shared_out_but_krebiz_armor_stays_on_the_cruiser() -> None:
    g = table(active=1, edition="quick")
    s = g.s
    cruiser = put(g, 1, "krebiz_pincer")
    capsule = put(g, 1, "krebiz_medium_capsule")
    combine(g, cruiser, capsule)
    armor = put(g, 1, "krebiz_armor", on=cruiser)
    crew = put(g, 1, "technician", on=cruiser)
    s.units[cruiser].damage = 3  # survivable only thanks to the Armor (S3 + 1)
    options = legal(g, "separate")
    assert {a[4] for a in options} == {0, 1}  # one movable card: the Technician
    played(g, ("separate", cruiser, 0, 0, 1))
    assert s.units[crew].parent == capsule and s.units[armor].parent == cruiser
    assert strength(g, cruiser) == 4 and cruiser in s.units


# RULE: GE-KREB-6
def test_a_split_made_illegal_before_resolving_voids_the_parting() -> None:
    g = table(active=1, edition="quick")
    s = g.s
    cruiser = put(g, 1, "krebiz_pincer")
    capsule = put(g, 1, "krebiz_medium_capsule")
    combine(g, cruiser, capsule)
    _watcher(g, 0)
    g.apply(("separate", cruiser, 0, 0, 0))
    assert s.priority == 0
    s.units[cruiser].damage = 3  # as if damage had come in first: no part may now take it
    pass_all(g)
    assert s.units[cruiser].partner == capsule and s.players[1].plays == 1


# RULE: GE-KREB-6
def test_separating_needs_free_command_slots_in_the_full_edition() -> None:
    for edition, can in (("full", False), ("quick", True)):
        g = table(active=1, edition=edition)
        put(g, 1, "krebiz_claw")  # 1 slot
        cruiser = put(g, 1, "krebiz_mandible")
        capsule = put(g, 1, "krebiz_heavy_capsule")
        combine(g, cruiser, capsule)  # S6: 1 slot. Apart: 1 + 1/2
        assert bool(legal(g, "separate")) is can


# RULE: GE-KREB-6
def test_both_parts_keep_the_combinations_engaged_state() -> None:
    for engaged in (True, False):
        g = table(active=1, edition="quick")
        s = g.s
        cruiser = put(g, 1, "krebiz_claw", engaged=engaged)
        capsule = put(g, 1, "krebiz_heavy_capsule", engaged=engaged)
        combine(g, cruiser, capsule)
        played(g, ("separate", cruiser, 0, 0, 0))
        assert s.units[cruiser].engaged is engaged and s.units[capsule].engaged is engaged


def _split_paid(ammo: int = 1) -> tuple[GalacticEmpires, int, int]:
    """Seat 1's allocation: an unpaid Pincer + Medium Capsule; the pool pays only the Pincer."""
    g = table(active=1, phase=ALLOCATE, edition="quick")
    s = g.s
    cruiser = put(g, 1, "krebiz_pincer", engaged=False)
    capsule = put(g, 1, "krebiz_medium_capsule", engaged=False)
    combine(g, cruiser, capsule)
    s.players[1].pool = [0, 1, 1, ammo, 0, 0]
    assert ("pay", cruiser) not in g.legal_actions()  # the whole ship costs ●✸✸
    g.apply(("pay-part", cruiser))
    return g, cruiser, capsule


# RULE: GE-KREB-7
def test_a_part_paid_alone_is_engaged_when_it_separates_in_play_cards_a() -> None:
    g, cruiser, capsule = _split_paid()
    s = g.s
    assert ("load", cruiser) in g.legal_actions()  # its heavy weapons may be loaded now, like a fully paid card
    g.apply(("load", cruiser))
    played(g, ("allocate",))
    assert s.phase == PLAY_A
    assert not s.units[cruiser].engaged  # the combination itself was not paid
    played(g, ("separate", cruiser, 0, 0, 0))
    assert s.units[cruiser].engaged and not s.units[capsule].engaged
    assert s.units[cruiser].loaded == 1


# RULE: GE-KREB-7
def test_the_part_payment_lapses_when_play_cards_a_ends_still_joined() -> None:
    g, cruiser, capsule = _split_paid()
    s = g.s
    g.apply(("load", cruiser))
    played(g, ("allocate",))
    to_play_b(g)
    played(g, ("separate", cruiser, 0, 0, 0))
    assert not s.units[cruiser].engaged and not s.units[capsule].engaged
    assert s.units[cruiser].loaded == 0


# RULE: GE-KREB-8
def test_a_combination_leaves_play_as_two_cards() -> None:
    g = table(active=0)
    s = g.s
    cruiser = put(g, 1, "krebiz_clipper")
    capsule = put(g, 1, "krebiz_light_capsule")
    combine(g, cruiser, capsule)  # S3: Forced Retreat may take it
    retreat, = give(g, 0, "forced_retreat")
    played(g, ("play", retreat, cruiser))
    assert {cruiser, capsule} <= set(s.players[1].hand)
    assert cruiser not in s.units and capsule not in s.units
    g = table(active=0)
    s = g.s
    cruiser = put(g, 1, "krebiz_clipper")
    capsule = put(g, 1, "krebiz_light_capsule")
    combine(g, cruiser, capsule)
    board.leave(s, cruiser)
    assert s.players[1].discard[-2:] == [capsule, cruiser]  # two cards, the basis on top


# RULE: GE-KREB-9
def test_krebiz_armor_goes_on_a_cruiser_alone_or_combined_never_a_lone_capsule() -> None:
    g = table(active=1)
    s = g.s
    alone_cruiser = put(g, 1, "krebiz_clipper")
    lone_capsule = put(g, 1, "krebiz_heavy_capsule")
    cruiser = put(g, 1, "krebiz_pincer")
    capsule = put(g, 1, "krebiz_medium_capsule")
    combine(g, cruiser, capsule)
    armor, = give(g, 1, "krebiz_armor")
    where = set(plays.placements(s, 1, armor))
    assert where == {alone_cruiser, cruiser}
    assert lone_capsule not in where and capsule not in where
    played(g, ("play", armor, alone_cruiser))
    assert strength(g, alone_cruiser) == 3


# RULE: GE-DUR-5
def test_a_crewman_taking_an_ill_crews_place_frees_it_and_is_held_down_itself() -> None:
    g = table(active=1)
    s = g.s
    ship = put(g, 0, "argonian_sunspot")
    tech = put(g, 0, "technician", on=ship)
    illness = put(g, 1, "illness", on=tech)
    s.units[tech].engaged = False
    mate, = give(g, 0, "crewman")
    land, = give(g, 1, "small_moon")
    g.apply(("play", land, -2))  # seat 1's play opens a window in which seat 0 may answer
    assert s.priority == 0 and ("play", mate, tech) in g.legal_actions()
    g.apply(("play", mate, tech))
    while s.priority is not None:
        g.apply(("pass",))
    assert s.units[illness].parent == mate
    assert s.units[tech].engaged and not s.units[mate].engaged


# RULE: GE-REACT-4
# RULE: GE-REACT-3
def test_lucky_crew_action_in_play_ignores_the_first_play_against_its_crew_by_itself() -> None:
    """Already in play, Lucky Crew Action has no reaction rights (its text has no "as a reaction"
    function): its owner is never offered it, and the window on the play is not opened for it.
    Its text works by itself: the first opponent card play against its crew is ignored as it
    resolves (the card discarded, the play counted) and Lucky Crew Action goes with it; the
    next play against that crew lands."""
    g = table()
    s = g.s
    ship = put(g, 1, "krebiz_clipper")
    crew = put(g, 1, "technician", on=ship)
    lucky = put(g, 1, "lucky_crew_action", on=crew)
    s.players[1].hand.clear()
    s.players[1].deck.clear()  # seat 1 holds no reaction card: only the Lucky Crew Action could answer
    vertigo, sick = give(g, 0, "space_vertigo", "illness")
    events = g.apply(("play", vertigo, crew))
    assert s.priority is None  # no window: nothing of seat 1 may react
    assert not [a for a in g.legal_actions() if a[1:2] == (lucky,)]
    assert vertigo not in s.units and vertigo in s.players[0].discard and lucky not in s.units
    assert lucky in s.players[1].discard and ("lucky", lucky, vertigo) in events
    assert s.players[0].plays == 1  # the ignored play still counted
    g.apply(("play", sick, crew))  # the second play against the crew: nothing stops it
    assert s.units[sick].parent == crew


# RULE: GE-REACT-4
def test_lucky_crew_action_never_ignores_its_own_sides_play() -> None:
    g = table(active=1)
    s = g.s
    ship = put(g, 1, "krebiz_clipper")
    crew = put(g, 1, "technician", on=ship)
    lucky = put(g, 1, "lucky_crew_action", on=crew)
    other = take(g, 0, "lucky_crew_action")  # a second copy (seat 0's one), for the same side to play
    s.owner_of[other] = 1
    s.players[1].hand.append(other)
    g.apply(("play", other, crew))
    while s.priority is not None:
        g.apply(("pass",))
    assert s.units[other].parent == crew and lucky in s.units
