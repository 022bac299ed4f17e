"""Every refusal of Galactic Empires names the rule that forbids the action (GE-DIG-3), and the
right one.

``CASES`` holds one refused action for each place in the engine that words a refusal, with the
rule it must cite. The places are found in the source, not listed by hand: every string that
starts with a rule ID (``"GE-FIRE-9: ..."``) outside a docstring is a refusal reason, and
:func:`test_every_refusal_site_is_covered_by_a_case` runs the cases under a line tracer and
fails for a reason no case reaches, so a new refusal needs a case here. A refusal worded
without a rule ID fails :func:`test_no_refusal_is_worded_without_a_rule_id`.
"""
from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from starcom.ge import combat, entry
from starcom.ge.game import GalacticEmpires, IllegalAction
from starcom.ge.state import ALLOCATE, DISCARD, FIRE, OVER, PLAY_A, SETUP

from .build import combine, give, put, table, take

GE = Path(entry.__file__).resolve().parent  # (entry stays Python: a compiled module's __file__ is its extension)
RULE_ID = re.compile(r"^GE-[A-Z]+-\d+: ")
# Modules that word refusals. Another module's string that starts with a rule ID is no refusal
# (scenario.py words the scenario files' errors, the web package words nothing the engine refuses).
SKIP = {"scenario.py"}

Thunk = Callable[[], Any]
CASES: dict[str, tuple[str, Callable[[], Thunk]]] = {}


def case(rule: str) -> Callable[[Callable[[], Thunk]], Callable[[], Thunk]]:
    """Register a case: the builder returns a call that must raise IllegalAction citing ``rule``."""
    def register(build: Callable[[], Thunk]) -> Callable[[], Thunk]:
        CASES[build.__name__] = (rule, build)
        return build
    return register


def refuse(g: GalacticEmpires, action: Any, player: int | None = None) -> Thunk:
    return lambda: g.apply(action, player)


def window() -> GalacticEmpires:
    """Seat 1's turn; its play of a terrain is on the chain and seat 0, holding a Crewman that
    could stand in for its Illness-bound Technician, has priority."""
    g = table(active=1)
    ship = put(g, 0, "argonian_sunspot")
    tech = put(g, 0, "technician", on=ship)
    put(g, 1, "illness", on=tech)
    g.s.units[tech].engaged = False
    give(g, 0, "crewman")
    land, = give(g, 1, "small_moon")
    g.apply(("play", land, -2))
    assert g.s.priority == 0
    return g


def fire_phase(edition: str = "full") -> GalacticEmpires:
    return table(edition, phase=FIRE)


# =========================================================================== the game as a whole


@case("GE-DIG-1")
def wrong_seat() -> Thunk:
    return refuse(table(), ("end",), player=1)


@case("GE-DIG-1")
def wrong_seat_through_the_entry() -> Thunk:
    g = table()
    return lambda: entry.decode(g, ["end"], 1)


@case("GE-DIG-1")
def not_a_list() -> Thunk:
    return refuse(table(), 5)


@case("GE-DIG-1")
def a_float_argument() -> Thunk:
    return refuse(table(), ("play", 1.5))


@case("GE-DIG-1")
def an_empty_text() -> Thunk:
    g = table()
    return lambda: g.parse("   ")


@case("GE-DIG-1")
def a_text_naming_no_seat() -> Thunk:
    g = table()
    return lambda: g.parse("aim hq:5")


@case("GE-DIG-1")
def a_text_naming_no_card() -> Thunk:
    g = table()
    return lambda: g.parse("play moon#99999")


@case("GE-DIG-1")
def a_text_naming_the_wrong_card() -> Thunk:
    g = table()
    return lambda: g.parse("play krebiz_claw#0")  # card 0 is an Argonian card


@case("GE-DIG-1")
def a_kind_with_the_wrong_number_of_values() -> Thunk:
    return refuse(table(phase=ALLOCATE), ("allocate", 5))


@case("GE-DIG-1")
def a_word_where_a_card_goes() -> Thunk:
    return refuse(table(), ("play", "moon", "there"))


@case("GE-WIN-1")
def over_by_the_hq() -> Thunk:
    g = table()
    g.s.phase, g.s.winner, g.s.end = OVER, 0, "hq"
    return refuse(g, ("end",))


@case("GE-WIN-5")
def over_by_the_stall_guard() -> Thunk:
    g = table()
    g.s.phase, g.s.winner, g.s.end = OVER, 0, "stall"
    return refuse(g, ("end",))


@case("GE-OPT-3")
def over_by_the_turn_cap() -> Thunk:
    g = table()
    g.s.phase, g.s.winner, g.s.end = OVER, 1, "turn cap"
    return refuse(g, ("end",))


@case("GE-WIN-6")
def over_by_another_tie_break() -> Thunk:
    g = table()
    g.s.phase, g.s.winner, g.s.end = OVER, 1, "agreed"
    return refuse(g, ("end",))


@case("GE-DIG-1")
def a_blank_played() -> Thunk:
    g = table()
    moon, = give(g, 0, "moon")
    g.s.blank = [moon]
    return refuse(g, ("play", moon, -1))


# =========================================================================== reactions


@case("GE-REACT-6")
def pass_with_no_window() -> Thunk:
    return refuse(table(), ("pass",))


@case("GE-REACT-6")
def end_the_phase_in_a_window() -> Thunk:
    return refuse(window(), ("end",))


@case("GE-REACT-3")
def a_card_without_r_played_in_a_window() -> Thunk:
    g = window()
    moon, = give(g, 0, "moon")
    return refuse(g, ("play", moon, -1))


@case("GE-REACT-3")
def a_reaction_card_with_nothing_to_answer() -> Thunk:
    g = window()
    crewman = next(u for u in g.s.players[0].hand if g.s.spec(u).key == "crewman")
    return refuse(g, ("play", crewman, -1))


@case("GE-REACT-4")
def a_card_in_play_used_in_a_window() -> Thunk:
    g = window()
    ship = next(u.uid for u in g.s.units.values() if g.s.spec(u.uid).key == "argonian_sunspot")
    return refuse(g, ("use", ship, "cure"))


# RULE: GE-REACT-8
@case("GE-REACT-4")
def a_ship_firing_back() -> Thunk:
    g = table(active=1, phase=FIRE)
    mine = put(g, 0, "argonian_sunspot")
    foe = put(g, 1, "krebiz_claw")
    give(g, 0, "shuttlecraft")
    g.apply(("aim", mine))
    g.apply(("add", foe, "phaser"))
    g.apply(("fire",))
    assert g.s.priority == 0
    return refuse(g, ("shoot", mine, foe))


# =========================================================================== card plays


@case("GE-ZONE-1")
def a_card_not_in_hand() -> Thunk:
    g = table()
    return refuse(g, ("play", take(g, 0, "moon"), -1))


@case("GE-PLAY-2")
def a_card_played_in_the_discard_phase() -> Thunk:
    g = table(phase=DISCARD)
    moon, = give(g, 0, "moon")
    return refuse(g, ("play", moon, -1))


@case("GE-PLAY-1")
def a_fourth_card_play() -> Thunk:
    g = table()
    moon, = give(g, 0, "moon")
    g.s.players[0].plays = 3
    return refuse(g, ("play", moon, -1))


@case("GE-TURN-5")
def a_ship_in_turn_one() -> Thunk:
    g = table(turns=1)
    ship, = give(g, 0, "argonian_sunspot")
    return refuse(g, ("play", ship, -1))


@case("GE-TURN-6")
def a_second_ship_in_turn_two() -> Thunk:
    g = table(turns=2)
    g.s.players[g.s.first].turns = 2
    ship, = give(g, 0, "argonian_sunspot")
    g.s.players[0].ships_turn2 = 1
    return refuse(g, ("play", ship, -1))


@case("GE-PLAY-8")
def a_card_sent_back_by_forced_retreat() -> Thunk:
    g = table()
    moon, = give(g, 0, "moon")
    g.s.players[0].retreated.append(moon)
    return refuse(g, ("play", moon, -1))


@case("GE-CMD-4")
def a_ship_with_no_free_slot() -> Thunk:
    g = table()
    ship, = give(g, 0, "argonian_sunspot")
    g.s.players[0].slots = 0
    return refuse(g, ("play", ship, -1))


@case("GE-OPT-4")
def a_pre_paired_cruiser_alone() -> Thunk:
    g = table(active=1, options={"prepaired": True})
    p = g.s.players[1]
    cruiser = p.pairs[0][0]
    p.deck.remove(cruiser)
    p.hand.append(cruiser)
    return refuse(g, ("play", cruiser, -2))


@case("GE-PLAY-3")
def a_terrain_played_on_a_ship() -> Thunk:
    g = table()
    ship = put(g, 0, "argonian_sunspot")
    moon, = give(g, 0, "moon")
    return refuse(g, ("play", moon, ship))


@case("GE-ZONE-1")
def a_pair_without_its_capsule_in_hand() -> Thunk:
    g = table(active=1)
    cruiser, = give(g, 1, "krebiz_clipper")
    return refuse(g, ("pair", cruiser, take(g, 1, "krebiz_light_capsule"), -2))


@case("GE-KREB-3")
def a_pair_that_does_not_fit() -> Thunk:
    g = table(active=1)
    cruiser, capsule = give(g, 1, "krebiz_clipper", "krebiz_heavy_capsule")
    return refuse(g, ("pair", cruiser, capsule, -2))


@case("GE-ZONE-1")
def a_swap_of_a_card_not_in_hand() -> Thunk:
    g = table()
    reserve = take(g, 0, "moon")
    g.s.players[0].reserve.append(reserve)
    return refuse(g, ("swap", take(g, 0, "argonian_typhoon"), reserve))


@case("GE-ZONE-1")
def a_swap_for_a_card_not_in_the_reserve() -> Thunk:
    g = table()
    ship, = give(g, 0, "argonian_typhoon")
    return refuse(g, ("swap", ship, take(g, 0, "moon")))


@case("GE-PLAY-2")
def a_swap_in_the_discard_phase() -> Thunk:
    g = table(phase=DISCARD)
    ship, = give(g, 0, "argonian_typhoon")
    reserve = take(g, 0, "moon")
    g.s.players[0].reserve.append(reserve)
    return refuse(g, ("swap", ship, reserve))


@case("GE-PLAY-1")
def a_swap_with_no_card_play_left() -> Thunk:
    g = table()
    ship, = give(g, 0, "argonian_typhoon")
    reserve = take(g, 0, "moon")
    g.s.players[0].reserve.append(reserve)
    g.s.players[0].plays = 3
    return refuse(g, ("swap", ship, reserve))


@case("GE-PLAY-8")
def a_swap_of_a_card_sent_back() -> Thunk:
    g = table()
    ship, = give(g, 0, "argonian_typhoon")
    reserve = take(g, 0, "moon")
    g.s.players[0].reserve.append(reserve)
    g.s.players[0].retreated.append(ship)
    return refuse(g, ("swap", ship, reserve))


@case("GE-PLAY-6")
def a_swap_for_a_stronger_card() -> Thunk:
    g = table()
    weak, = give(g, 0, "small_moon")
    reserve = take(g, 0, "argonian_typhoon")
    g.s.players[0].reserve.append(reserve)
    return refuse(g, ("swap", weak, reserve))


# =========================================================================== Krebiz ships


def krebiz(locked: bool = False, heavy: bool = False) -> tuple[GalacticEmpires, int, int]:
    """Seat 1's turn, a combined Krebiz ship of seat 1 in play: (game, cruiser, capsule)."""
    g = table(active=1)
    cruiser = put(g, 1, "krebiz_claw" if heavy else "krebiz_clipper")
    capsule = put(g, 1, "krebiz_heavy_capsule" if heavy else "krebiz_light_capsule")
    combine(g, cruiser, capsule)
    g.s.units[cruiser].locked = g.s.units[capsule].locked = locked
    return g, cruiser, capsule


@case("GE-KREB-5")
def combining_cards_not_in_play() -> Thunk:
    g = table(active=1)
    return refuse(g, ("combine", take(g, 1, "krebiz_clipper"), take(g, 1, "krebiz_light_capsule")))


@case("GE-PLAY-2")
def combining_in_the_discard_phase() -> Thunk:
    g = table(active=1, phase=DISCARD)
    return refuse(g, ("combine", put(g, 1, "krebiz_clipper"), put(g, 1, "krebiz_light_capsule")))


@case("GE-KREB-5")
def combining_parts_separated_this_turn() -> Thunk:
    g = table(active=1)
    cruiser, capsule = put(g, 1, "krebiz_clipper"), put(g, 1, "krebiz_light_capsule")
    g.s.units[cruiser].locked = g.s.units[capsule].locked = True
    return refuse(g, ("combine", cruiser, capsule))


@case("GE-CMD-4")
def combining_with_no_slot_for_the_whole() -> Thunk:
    g = table(active=1)
    cruiser, capsule = put(g, 1, "krebiz_clipper"), put(g, 1, "krebiz_light_capsule")
    g.s.players[1].slots = 1  # the Clipper's half slot; together they need a whole one
    return refuse(g, ("combine", cruiser, capsule))


@case("GE-KREB-5")
def combining_parts_that_do_not_fit() -> Thunk:
    g = table(active=1)
    return refuse(g, ("combine", put(g, 1, "krebiz_clipper"), put(g, 1, "krebiz_heavy_capsule")))


@case("GE-KREB-6")
def separating_a_ship_that_is_not_combined() -> Thunk:
    g = table(active=1)
    return refuse(g, ("separate", put(g, 1, "krebiz_clipper"), 0, 0, 0))


@case("GE-KREB-6")
def separating_in_the_discard_phase() -> Thunk:
    g, cruiser, _ = krebiz()
    g.s.phase = DISCARD
    return refuse(g, ("separate", cruiser, 0, 0, 0))


@case("GE-PLAY-1")
def separating_with_no_card_play_left() -> Thunk:
    g, cruiser, _ = krebiz()
    g.s.players[1].plays = 3
    return refuse(g, ("separate", cruiser, 0, 0, 0))


# RULE: GE-KREB-6
@case("GE-KREB-6")
def separating_in_the_combining_turn() -> Thunk:
    g, cruiser, _ = krebiz(locked=True)
    return refuse(g, ("separate", cruiser, 0, 0, 0))


@case("GE-CMD-4")
def separating_with_no_slot_for_the_parts() -> Thunk:
    g, cruiser, _ = krebiz(heavy=True)  # strength 7 needs one slot; 5 and 2 apart need one and a half
    g.s.players[1].slots = 2
    return refuse(g, ("separate", cruiser, 0, 0, 0))


@case("GE-KREB-6")
def separating_with_a_split_the_parts_cannot_take() -> Thunk:
    g, cruiser, _ = krebiz()
    return refuse(g, ("separate", cruiser, 0, 0, 7))  # no movable card on it to send along


# =========================================================================== points


def allocation() -> GalacticEmpires:
    return table(phase=ALLOCATE)


@case("GE-PTS-6")
def paying_outside_the_allocation() -> Thunk:
    g = table()
    return refuse(g, ("pay", put(g, 0, "argonian_sunspot", engaged=False)))


@case("GE-ALLOC-8")
def paying_with_an_empty_pool() -> Thunk:
    g = allocation()
    return refuse(g, ("pay", put(g, 0, "argonian_sunspot", engaged=False)))


@case("GE-KREB-7")
def paying_a_part_of_a_ship_that_is_not_combined() -> Thunk:
    g = table(active=1, phase=ALLOCATE)
    return refuse(g, ("pay-part", put(g, 1, "krebiz_clipper", engaged=False)))


@case("GE-ALLOC-8")
def loading_an_unpaid_card() -> Thunk:
    g = allocation()
    return refuse(g, ("load", put(g, 0, "argonian_sunspot", engaged=False)))


@case("GE-PTS-5")
def repairing_an_undamaged_ship() -> Thunk:
    g = allocation()
    return refuse(g, ("repair", put(g, 0, "argonian_sunspot"), "hull"))


@case("GE-PTS-6")
def research_outside_the_allocation() -> Thunk:
    g = table()
    return refuse(g, ("research", put(g, 0, "argonian_sunspot")))


@case("GE-ALLOC-11")
def research_twice_on_one_card() -> Thunk:
    g = allocation()
    tech = put(g, 0, "technician", on=put(g, 0, "argonian_sunspot"))
    sick = put(g, 1, "illness", on=tech)
    g.s.players[0].negating.append(sick)
    return refuse(g, ("research", sick))


@case("GE-ALLOC-8")
def research_on_a_card_research_does_not_negate() -> Thunk:
    g = allocation()
    return refuse(g, ("research", put(g, 1, "krebiz_claw")))


@case("GE-PHASE-1")
def declaring_the_allocation_in_play_cards() -> Thunk:
    return refuse(table(), ("allocate",))


@case("GE-ALLOC-14")
def ending_the_allocation_without_a_plan() -> Thunk:
    return refuse(allocation(), ("end",))


@case("GE-SETUP-2")
def ending_a_phase_before_the_reserve_is_chosen() -> Thunk:
    return refuse(GalacticEmpires.new(), ("end",))


# =========================================================================== weapons fire


@case("GE-FIRE-2")
def ending_the_phase_with_a_volley_declared() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    g.apply(("aim", put(g, 1, "krebiz_claw")))
    return refuse(g, ("end",))


@case("GE-PHASE-4")
def aiming_outside_weapons_fire() -> Thunk:
    return refuse(table(), ("aim", combat.hq(1)))


@case("GE-FIRE-2")
def aiming_twice() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    claw, pincer = put(g, 1, "krebiz_claw"), put(g, 1, "krebiz_pincer")
    g.apply(("aim", claw))
    return refuse(g, ("aim", pincer))


@case("GE-FIRE-3")
def a_second_volley_at_one_target() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    claw = put(g, 1, "krebiz_claw")
    g.s.volleyed.append(claw)
    return refuse(g, ("aim", claw))


@case("GE-DIG-1")
def aiming_at_the_hq_of_no_seat() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    return refuse(g, ("aim", -5))


@case("GE-FIRE-10")
def aiming_at_ones_own_hq() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    return refuse(g, ("aim", combat.hq(0)))


@case("GE-FIRE-10")
def aiming_at_a_protected_hq() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    put(g, 1, "krebiz_claw")
    return refuse(g, ("aim", combat.hq(1)))


@case("GE-FIRE-8")
def aiming_at_a_card_not_in_play() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    return refuse(g, ("aim", take(g, 1, "krebiz_claw")))


# RULE: GE-FIRE-9
@case("GE-FIRE-9")
def aiming_at_a_terrain_under_a_base() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_typhoon", loaded=2)  # heavy weapons: terrain is in reach
    planet = put(g, 1, "siobhan_7")
    put(g, 1, "defensive_satellites", on=planet)
    return refuse(g, ("aim", planet))


@case("GE-KREB-4")
def aiming_at_a_combined_capsule() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    cruiser, capsule = put(g, 1, "krebiz_clipper"), put(g, 1, "krebiz_light_capsule")
    combine(g, cruiser, capsule)
    return refuse(g, ("aim", capsule))


@case("GE-FIRE-8")
def aiming_at_a_crew() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    return refuse(g, ("aim", put(g, 1, "technician", on=put(g, 1, "krebiz_claw"))))


@case("GE-FIRE-4")
def aiming_with_no_weapon_left() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot", fired_phasers=3)
    return refuse(g, ("aim", put(g, 1, "krebiz_claw")))


@case("GE-FIRE-9")
def aiming_at_ones_only_armed_ship() -> Thunk:
    g = fire_phase()
    return refuse(g, ("aim", put(g, 0, "argonian_sunspot")))


# RULE: GE-IND-2
@case("GE-IND-2")
def an_indirigan_ship_aiming_at_a_ship_of_another_empire() -> Thunk:
    g = fire_phase()
    put(g, 0, "indirigan_nomads")
    put(g, 1, "indirigan_light_carrier")  # the opponent fields an Indirigan ship
    return refuse(g, ("aim", put(g, 1, "krebiz_claw")))


@case("GE-PHASE-4")
def adding_a_weapon_outside_weapons_fire() -> Thunk:
    g = table()
    return refuse(g, ("add", put(g, 0, "argonian_sunspot"), "phaser"))


@case("GE-FIRE-2")
def adding_a_weapon_before_aiming() -> Thunk:
    g = fire_phase()
    return refuse(g, ("add", put(g, 0, "argonian_sunspot"), "phaser"))


@case("GE-FIRE-2")
def adding_an_opponents_weapon() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    claw, pincer = put(g, 1, "krebiz_claw"), put(g, 1, "krebiz_pincer")
    g.apply(("aim", claw))
    return refuse(g, ("add", pincer, "phaser"))


@case("GE-FIRE-9")
def adding_the_targets_own_weapon() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    mine = put(g, 0, "argonian_blizzard")
    g.apply(("aim", mine))  # friendly fire is allowed, by the other ship
    return refuse(g, ("add", mine, "phaser"))


@case("GE-QUICK-5")
def a_shuttlecraft_at_an_hq_in_the_quick_edition() -> Thunk:
    g = fire_phase("quick")
    shuttle = put(g, 0, "shuttlecraft", on=put(g, 0, "argonian_sunspot"))
    g.apply(("aim", combat.hq(1)))
    return refuse(g, ("add", shuttle, "phaser"))


@case("GE-FIRE-10")
def a_base_at_an_hq() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    sats = put(g, 0, "defensive_satellites", on=put(g, 0, "siobhan_7"))
    g.apply(("aim", combat.hq(1)))
    return refuse(g, ("add", sats, "phaser"))


# RULE: GE-IND-2
@case("GE-IND-2")
def an_indirigan_weapon_added_against_a_ship_of_another_empire() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    nomads = put(g, 0, "indirigan_nomads")
    put(g, 1, "indirigan_light_carrier")
    g.apply(("aim", put(g, 1, "krebiz_claw")))
    return refuse(g, ("add", nomads, "phaser"))


@case("GE-ENG-4")
def a_disengaged_ships_weapon() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    idle = put(g, 0, "argonian_blizzard", engaged=False)
    g.apply(("aim", put(g, 1, "krebiz_claw")))
    return refuse(g, ("add", idle, "phaser"))


@case("GE-FIRE-5")
def an_unloaded_heavy_weapon() -> Thunk:
    g = fire_phase()
    ship = put(g, 0, "argonian_sunspot")
    g.apply(("aim", put(g, 1, "krebiz_claw")))
    return refuse(g, ("add", ship, "heavy"))


@case("GE-FIRE-7")
def an_empty_shuttlecraft() -> Thunk:
    g = fire_phase()
    ship = put(g, 0, "argonian_sunspot")
    shuttle = put(g, 0, "shuttlecraft", on=ship, empty=True)
    g.apply(("aim", put(g, 1, "krebiz_claw")))
    return refuse(g, ("add", shuttle, "phaser"))


@case("GE-FIRE-4")
def a_phaser_fired_already() -> Thunk:
    g = fire_phase()
    ship = put(g, 0, "argonian_sunspot", fired_phasers=2)
    g.apply(("aim", put(g, 1, "krebiz_claw")))
    g.apply(("add", ship, "phaser"))
    return refuse(g, ("add", ship, "phaser"))


@case("GE-PHASE-4")
def firing_outside_weapons_fire() -> Thunk:
    return refuse(table(), ("fire",))


@case("GE-FIRE-2")
def firing_a_volley_with_no_weapon() -> Thunk:
    g = fire_phase()
    put(g, 0, "argonian_sunspot")
    g.apply(("aim", put(g, 1, "krebiz_claw")))
    return refuse(g, ("fire",))


# =========================================================================== card functions


@case("GE-ACT-2")
def using_an_opponents_card() -> Thunk:
    g = table()
    return refuse(g, ("use", put(g, 1, "transporter", on=put(g, 1, "krebiz_claw")), "move", 0, 0, 0))


@case("GE-ACT-2")
def using_a_function_in_the_discard_phase() -> Thunk:
    g = table(phase=DISCARD)
    doctor = put(g, 0, "doctor", on=put(g, 0, "argonian_sunspot"))
    return refuse(g, ("use", doctor, "cure"))


@case("GE-ACT-3")
def using_a_disengaged_card() -> Thunk:
    g = table()
    doctor = put(g, 0, "doctor", on=put(g, 0, "argonian_sunspot"), engaged=False)
    return refuse(g, ("use", doctor, "cure"))


@case("GE-ACT-1")
def using_a_function_twice_in_a_turn() -> Thunk:
    g = table()
    doctor = put(g, 0, "doctor", on=put(g, 0, "argonian_sunspot"), used=True)
    return refuse(g, ("use", doctor, "cure"))


# RULE: GE-MISSION-2
@case("GE-MISSION-2")
def a_transporter_mission_onto_shields_up() -> Thunk:
    g = table()
    ship = put(g, 0, "argonian_sunspot")
    transporter = put(g, 0, "transporter", on=ship)
    party = put(g, 0, "boarding_party", on=ship)
    foe = put(g, 1, "indirigan_nomads")  # 4 shields, none damaged
    return refuse(g, ("use", transporter, "mission", party, foe, "hull"))


@case("GE-DIG-1")
def a_function_the_card_does_not_have() -> Thunk:
    g = table()
    doctor = put(g, 0, "doctor", on=put(g, 0, "argonian_sunspot"))
    return refuse(g, ("use", doctor, "fly"))


# =========================================================================== discards and setup


@case("GE-PHASE-6")
def discarding_in_play_cards() -> Thunk:
    g = table()
    return refuse(g, ("discard", put(g, 0, "moon")))


@case("GE-DISC-1")
def discarding_an_opponents_card() -> Thunk:
    g = table(phase=DISCARD)
    return refuse(g, ("discard", put(g, 1, "moon")))


@case("GE-QUICK-3")
def dropping_a_hand_card_in_the_quick_edition() -> Thunk:
    g = table("quick", phase=DISCARD)
    moon, = give(g, 0, "moon")
    return refuse(g, ("drop", moon))


@case("GE-PHASE-6")
def dropping_a_hand_card_in_play_cards() -> Thunk:
    g = table()
    moon, = give(g, 0, "moon")
    return refuse(g, ("drop", moon))


@case("GE-ZONE-1")
def dropping_a_card_not_in_hand() -> Thunk:
    g = table(phase=DISCARD)
    return refuse(g, ("drop", take(g, 0, "moon")))


@case("GE-DISC-2")
def dropping_with_no_card_play_left() -> Thunk:
    g = table(phase=DISCARD)
    moon, = give(g, 0, "moon")
    g.s.players[0].plays = 3
    return refuse(g, ("drop", moon))


@case("GE-SETUP-2")
def choosing_a_reserve_after_the_setup() -> Thunk:
    return refuse(table(), ("reserve",))


@case("GE-QUICK-2")
def a_quick_reserve_of_one_card() -> Thunk:
    g = GalacticEmpires.new(edition="quick")
    assert g.s.phase == SETUP
    return refuse(g, ("reserve", "moon"))


@case("GE-SETUP-2")
def a_reserve_of_three_cards() -> Thunk:
    g = GalacticEmpires.new()
    return refuse(g, ("reserve", "moon", "moon", "small_moon"))


# =========================================================================== the checks


def _state(thunk: Thunk) -> str:
    """The position the call would change, as text (the game the call closes over)."""
    for cell in getattr(thunk, "__closure__", None) or ():
        value = cell.cell_contents
        if isinstance(value, GalacticEmpires):
            return json.dumps(value.to_json(), sort_keys=True)
    return ""


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_refusal_cites_the_rule_that_forbids_it(name: str) -> None:
    # RULE: GE-DIG-3
    rule, build = CASES[name]
    thunk = build()
    before = _state(thunk)
    with pytest.raises(IllegalAction) as refused:
        thunk()
    assert refused.value.rule == rule, f"{name}: {refused.value.reason}"
    assert _state(thunk) == before  # refused: the game is as it was


def _text(node: ast.AST) -> str | None:
    """A string literal's text, an f-string's with ``{}`` for each value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def refusal_sites() -> list[tuple[Path, int, str, bool]]:
    """Every refusal reason the engine words: (file, line, text, inside a function?). A string
    that starts with a rule ID and is not a docstring is one."""
    out = []
    for path in sorted(GE.rglob("*.py")):
        if path.name in SKIP or "web" in path.relative_to(GE).parts:
            continue
        tree = ast.parse(path.read_text("utf-8"))
        skip: set[int] = set()
        in_function: set[int] = set()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and body \
                    and isinstance(body[0], ast.Expr):
                skip.add(id(body[0].value))  # a docstring
            if isinstance(node, ast.JoinedStr):
                skip.update(id(v) for v in node.values)
            if isinstance(node, ast.FunctionDef):
                in_function.update(id(n) for n in ast.walk(node))
        for node in ast.walk(tree):
            text = _text(node)
            if text is not None and id(node) not in skip and RULE_ID.match(text):
                out.append((path, node.lineno, text, id(node) in in_function))
    return out


def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(".*?".join(re.escape(part) for part in text.split("{}")), re.S)


def test_the_sites_are_found() -> None:
    sites = refusal_sites()
    files = {p.name for p, *_ in sites}
    assert {"actions.py", "game.py", "entry.py", "plays.py"} <= files
    assert len(sites) > 80


def test_every_refusal_site_is_covered_by_a_case() -> None:
    """Run every case under a line tracer: each refusal worded inside a function must be on a
    line some case ran; one worded outside any (a Handler's fixed reason) must be the reason
    some case got. (Compiled rules run no Python lines: under the compiled build this test runs
    itself again on the pure build, in a child process.)"""
    from pure_build import rerun_on_pure
    if rerun_on_pure(__file__, "test_every_refusal_site_is_covered_by_a_case"):
        return
    ran: set[tuple[str, int]] = set()
    reasons: list[str] = []
    root = str(GE)

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        if not frame.f_code.co_filename.startswith(root):
            return None

        def lines(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "line":
                ran.add((frame.f_code.co_filename, frame.f_lineno))
            return lines
        return lines

    for name, (_, build) in sorted(CASES.items()):
        thunk = build()
        old = sys.gettrace()
        sys.settrace(tracer)
        try:
            thunk()
        except IllegalAction as refused:
            reasons.append(refused.reason)
        finally:
            sys.settrace(old)
    missing = []
    for path, line, text, inside in refusal_sites():
        if inside:
            if (str(path), line) not in ran:
                missing.append(f"{path.name}:{line} {text[:70]}")
        elif not any(_pattern(text).fullmatch(r) for r in reasons):
            missing.append(f"{path.name}:{line} {text[:70]}")
    assert not missing, "refusals no case in CASES reaches:\n" + "\n".join(missing)


def test_no_refusal_is_worded_without_a_rule_id() -> None:
    """An IllegalAction raised with a worded reason, and every string a reason function of
    actions.py returns, starts with a rule ID."""
    bad = []
    for path in sorted(GE.rglob("*.py")):
        if path.name in SKIP or "web" in path.relative_to(GE).parts:
            continue
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            worded: list[ast.AST] = []
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction" and node.args:
                worded.append(node.args[0])
            if path.name == "actions.py" and isinstance(node, ast.Return) and node.value is not None:
                worded.append(node.value)
            for value in worded:
                parts = [value] if not isinstance(value, ast.BoolOp) else value.values
                for part in parts:
                    text = _text(part)
                    if text is not None and not RULE_ID.match(text):
                        bad.append(f"{path.name}:{part.lineno} {text[:70]}")
    assert not bad, "refusals without a rule ID:\n" + "\n".join(bad)


def test_the_fixed_refusals_of_issue_29() -> None:
    """The four refusals that used to name the wrong rule now name the right one."""
    # RULE: GE-KREB-6
    # RULE: GE-FIRE-9
    # RULE: GE-IND-2
    # RULE: GE-MISSION-2
    wanted = {"separating_in_the_combining_turn": "GE-KREB-6", "aiming_at_a_terrain_under_a_base": "GE-FIRE-9",
              "an_indirigan_weapon_added_against_a_ship_of_another_empire": "GE-IND-2",
              "an_indirigan_ship_aiming_at_a_ship_of_another_empire": "GE-IND-2",
              "a_transporter_mission_onto_shields_up": "GE-MISSION-2"}
    for name, rule in wanted.items():
        assert CASES[name][0] == rule
        with pytest.raises(IllegalAction) as refused:
            CASES[name][1]()()
        assert refused.value.rule == rule, refused.value.reason
