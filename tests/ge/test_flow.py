"""Galactic Empires: the frame of a game. General principles, zones, card anatomy, setup, the
turn and its phases, discarding, drawing, winning, the quick edition, the optional rules and
the digital conventions (GE-GEN, ZONE, CARD, SETUP, TURN, PHASE, DISC, DRAW, WIN, QUICK, OPT
and DIG), plus random play that must never break the engine and secrecy checked by swapping
hidden cards.

Positions are built from real dealt games with the helpers of ``build.py``; most tests then
play real actions through ``GalacticEmpires.apply``.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from starcom.ge import board, combat, plays, turn
from starcom.ge.cards import BY_KEY, CARDS, KREBIZ_PAIRS, deck_list
from starcom.ge.game import GalacticEmpires, IllegalAction
from starcom.ge.state import ALLOCATE, DISCARD, FIRE, PLAY_A, PLAY_B, SETUP, Item

from .build import combine, give, legal, put, table

EDITIONS = ("full", "quick")


# --------------------------------------------------------------------------- helpers


def take(g: GalacticEmpires, seat: int, key: str) -> int:
    """A ``key`` card of ``seat`` taken out of its deck, hand, pile or reserve (not in play)."""
    s = g.s
    p = s.players[seat]
    for zone in (p.deck, p.hand, p.discard, p.reserve):
        for uid in zone:
            if s.spec(uid).key == key:
                zone.remove(uid)
                return uid
    raise LookupError(f"seat {seat} has no {key} left outside play")


def reserve(g: GalacticEmpires, seat: int, *keys: str) -> list[int]:
    """Put cards of ``seat`` into its (public) reserve fleet."""
    uids = [take(g, seat, k) for k in keys]
    g.s.players[seat].reserve.extend(uids)
    g.s.players[seat].reserve_public = True
    return uids


def settle(g: GalacticEmpires) -> list[Any]:
    """Both seats pass until the reaction window closes; the events."""
    events: list[Any] = []
    while g.s.priority is not None and not g.over:
        events += g.apply(("pass",))
    return events


def step(g: GalacticEmpires) -> list[Any]:
    """The plainest move of the seat to move: pass a window, declare the allocation, or end the
    phase (the Weapons Fire phase may end by itself)."""
    s = g.s
    if s.priority is not None:
        return g.apply(("pass",))
    if s.phase == ALLOCATE:
        return g.apply(("allocate",))
    if s.phase == FIRE and s.aim is not None:
        raise AssertionError("a volley is half declared")
    return g.apply(("end",))


def next_turn(g: GalacticEmpires) -> list[Any]:
    """Play plain moves until the other seat's turn has begun (its Allocation phase)."""
    seat = g.s.active
    events: list[Any] = []
    for _ in range(50):
        events += step(g)
        if g.over or (g.s.active != seat and g.s.phase == ALLOCATE):
            return events
    raise AssertionError("the turn did not pass")


def begin(g: GalacticEmpires, seat: int) -> None:
    """Start ``seat``'s turn from its record-keeping step."""
    turn.start_turn(g.s, seat)


def snapshot(g: GalacticEmpires) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def held(s: Any) -> list[int]:
    """Cards on the chain that are in no zone: a play's card (and a crew played with a
    transport), a Krebiz pair, a hand card being dropped."""
    out: list[int] = []
    for item in s.chain + s.queued:
        a = item.action
        if item.kind == "play":
            out += [a[1], a[4]] if len(a) > 4 and a[3] == "with" else [a[1]]
        elif item.kind == "pair":
            out += [a[1], a[2]]
        elif item.kind == "drop":
            out.append(a[1])
    return out


def zone_map(g: GalacticEmpires) -> dict[int, list[str]]:
    """Every uid and the places it is found: ``"<seat>:<zone>"``, ``"play"`` or ``"chain"``."""
    s = g.s
    where: dict[int, list[str]] = {}
    for seat, p in enumerate(s.players):
        for zone in ("deck", "hand", "discard", "reserve", "aside"):
            for uid in getattr(p, zone):
                where.setdefault(uid, []).append(f"{seat}:{zone}")
    for uid in s.units:
        where.setdefault(uid, []).append("play")
    for uid in held(s):
        where.setdefault(uid, []).append("chain")
    return where


def volley(g: GalacticEmpires, target: int, *weapons: tuple[int, str]) -> list[Any]:
    """Declare one volley of the active seat and let it resolve (both seats pass)."""
    events = g.apply(("aim", target))
    for w in weapons:
        events += g.apply(("add", *w))
    events += g.apply(("fire",))
    return events + settle(g)


# --------------------------------------------------------------------------- GEN


# RULE: GE-GEN-1
def test_a_cards_own_text_overrides_where_its_type_may_go() -> None:
    g = table()
    moon = put(g, 0, "moon")
    freighter, sunspot = give(g, 0, "fleet_freighter", "argonian_sunspot")
    offered = legal(g, "play")
    # An ordinary ship may stand alone or sit on a terrain ...
    assert ("play", sunspot, -1) in offered and ("play", sunspot, moon) in offered
    # ... but the freighter's text allows only a terrain of its owner.
    assert ("play", freighter, moon) in offered
    assert ("play", freighter, -1) not in offered


# RULE: GE-GEN-1
def test_the_undashed_sizing_sentences_of_krebiz_cards_bind() -> None:
    g = table(active=1)
    mandible, light, heavy = give(g, 1, "krebiz_mandible", "krebiz_light_capsule", "krebiz_heavy_capsule")
    pairs = [a for a in legal(g, "pair") if a[1] == mandible]
    assert ("pair", mandible, heavy, -2) in pairs
    assert all(a[2] != light for a in pairs)


# RULE: GE-GEN-2
def test_the_primary_typhoon_keeps_strength_six() -> None:
    assert BY_KEY["argonian_typhoon"].strength == 6
    g = table()
    typhoon = put(g, 0, "argonian_typhoon")
    assert board.strength(g.s, typhoon) == 6
    combat.hit(g.s, typhoon, 5, "structural", 1)
    assert typhoon in g.s.units  # a strength-5 card would be gone now
    combat.hit(g.s, typhoon, 1, "structural", 1)
    assert typhoon not in g.s.units


# RULE: GE-GEN-3
def test_the_doctor_errata_strength_two_counts_for_a_reserve_swap() -> None:
    assert BY_KEY["doctor"].strength == 2 and BY_KEY["doctor"].reaction
    g = table()
    comet, moon = reserve(g, 0, "biruks_comet", "moon")
    (doctor,) = give(g, 0, "doctor")
    swaps = legal(g, "swap")
    assert ("swap", doctor, comet) in swaps  # 2 >= 2
    assert ("swap", doctor, moon) not in swaps  # 2 < 3 (a strength-7 misprint would allow it)


# RULE: GE-GEN-3
def test_forced_retreat_is_discarded_after_use() -> None:
    g = table()
    pincer = put(g, 1, "krebiz_pincer")
    (retreat,) = give(g, 0, "forced_retreat")
    g.apply(("play", retreat, pincer))
    settle(g)
    assert retreat not in g.s.units and g.s.players[0].discard[-1] == retreat
    assert pincer in g.s.players[1].hand


# RULE: GE-GEN-4
def test_half_command_slots_add_up_exactly_instead_of_rounding() -> None:
    g = table()
    s = g.s
    put(g, 0, "argonian_warm_front")
    put(g, 0, "argonian_warm_front")  # two halves: one slot
    (blizzard,) = give(g, 0, "argonian_blizzard")
    assert s.players[0].slots == 4  # two slots, counted in halves
    assert board.slots_needed(s, 0) == 2
    assert any(a[1] == blizzard for a in legal(g, "play"))  # 1/2 + 1/2 + 1 = 2 slots: fits
    moon = put(g, 0, "moon")
    put(g, 0, "defensive_satellites", on=moon)  # a third half slot
    assert not any(a[1] == blizzard for a in legal(g, "play"))


# RULE: GE-GEN-5
def test_a_one_turn_card_lasts_through_the_opponents_turn() -> None:
    g = table(phase=DISCARD)
    ship = put(g, 1, "krebiz_pincer")
    crew = put(g, 1, "technician", on=ship)
    vertigo = put(g, 0, "space_vertigo", on=crew)
    next_turn(g)  # seat 1's turn: one player turn is not yet "a turn"
    assert vertigo in g.s.units and board.disabled(g.s, crew)
    next_turn(g)  # seat 0's record keeping: its complete turn is over
    assert vertigo not in g.s.units and vertigo in g.s.players[0].discard
    assert not board.disabled(g.s, crew)


# RULE: GE-GEN-5
def test_a_once_per_turn_function_stays_used_through_the_opponents_turn() -> None:
    g = table(phase=DISCARD)
    moon = put(g, 0, "moon")
    doctor = put(g, 0, "doctor", on=moon, used=True)
    next_turn(g)
    assert g.s.units[doctor].used  # seat 1's turn is part of the same complete turn
    next_turn(g)
    assert not g.s.units[doctor].used


# RULE: GE-GEN-6
def test_a_destroyed_ship_is_discarded_to_its_owners_pile() -> None:
    g = table(phase=FIRE)
    sunspot = put(g, 0, "argonian_sunspot")
    clipper = put(g, 1, "krebiz_clipper")
    volley(g, clipper, (sunspot, "phaser"), (sunspot, "phaser"))
    assert clipper not in g.s.units
    assert g.s.players[1].discard[-1] == clipper


# RULE: GE-GEN-6
def test_a_captured_crew_is_discarded() -> None:
    g = table()
    s = g.s
    moon = put(g, 0, "moon")
    transporter = put(g, 0, "transporter", on=moon)
    party = put(g, 0, "boarding_party", on=moon)
    terrain = put(g, 1, "small_moon")
    crewman = put(g, 1, "crewman", on=terrain)
    mission = [a for a in legal(g, "use") if a[1] == transporter and a[2:4] == ("mission", party)
               and a[4] == terrain and "capture" in a]
    assert mission, "the transporter offers a boarding mission to the opponent's terrain"
    g.apply(mission[0])
    for _ in range(10):
        settle(g)
        if not s.chain and not s.queued:
            break
    assert crewman not in s.units and crewman in s.players[1].discard


# RULE: GE-GEN-7
def test_two_copies_of_one_card_on_one_ship_both_apply() -> None:
    g = table(phase=DISCARD, active=0)
    s = g.s
    ship = put(g, 1, "krebiz_pincer")
    mine = put(g, 0, "divergent_anomaly", on=ship)
    theirs = put(g, 1, "divergent_anomaly", on=ship)
    assert board.hq_open(s, 1)
    next_turn(g)  # seat 1's record keeping ends its own anomaly ...
    assert theirs not in s.units and mine in s.units
    assert board.hq_open(s, 1)  # ... and the other still applies on its own
    next_turn(g)
    assert mine not in s.units and not board.hq_open(s, 1)


# RULE: GE-GEN-8
@pytest.mark.parametrize("edition", EDITIONS)
def test_same_seed_and_same_actions_give_the_same_game(edition: str) -> None:
    def run(seed: int) -> list[str]:
        g = GalacticEmpires.new(edition=edition, seed=seed)
        rng = random.Random(99)
        out = []
        for _ in range(300):
            if g.over:
                break
            g.apply(rng.choice(g.legal_actions()))
            out.append(snapshot(g))
        return out

    assert run(5) == run(5)
    assert run(5) != run(6)


# RULE: GE-GEN-8
def test_the_generator_travels_with_a_saved_game() -> None:
    g = GalacticEmpires.new(seed=3)
    rng = random.Random(4)
    for _ in range(40):
        g.apply(rng.choice(g.legal_actions()))
    copy = GalacticEmpires.from_json(json.loads(json.dumps(g.to_json())))
    for _ in range(400):
        if g.over:
            break
        action = rng.choice(g.legal_actions())
        assert copy.legal_actions() == g.legal_actions()
        g.apply(action)
        copy.apply(action)
    assert snapshot(copy) == snapshot(g)
    assert copy.s.rng.random() == g.s.rng.random()


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_clone_is_the_same_position_and_shares_nothing_that_changes(edition: str) -> None:
    """The hand-written clone against ``deepcopy``: equal at every step of random games, and
    playing on from the clone leaves the original exactly as it was."""
    import copy as copying

    for seed in range(6):
        g = GalacticEmpires.new(edition=edition, seed=seed)
        rng = random.Random(seed)
        while not g.over and g.s.actions < 400:
            twin = g.clone()
            assert twin.s.to_json() == copying.deepcopy(g.s).to_json()
            before = json.dumps(g.to_json())
            for _ in range(8):
                if twin.over:
                    break
                twin.apply(rng.choice(twin.legal_actions()))
            twin.s.rng.random()
            assert json.dumps(g.to_json()) == before
            g.apply(rng.choice(g.legal_actions()))


# --------------------------------------------------------------------------- ZONE


# RULE: GE-ZONE-1
def test_each_seat_has_its_zones_and_a_sector_hq_that_is_only_a_counter() -> None:
    g = GalacticEmpires.new(seed=1)
    while g.s.phase == SETUP:
        g.apply(("reserve",))
    s = g.s
    n = len(s.spec_of)
    where = zone_map(g)
    assert sorted(where) == list(range(n))
    assert all(len(places) == 1 for places in where.values())
    for seat, p in enumerate(s.players):
        assert p.hq == 0
        assert all(s.owner_of[u] == seat for u in p.deck + p.hand + p.discard + p.reserve)
    # the Sector HQ is no card of either deck: the target code of a Sector HQ is never a uid
    assert combat.hq(0) < 0 and combat.hq(1) < 0
    # the discard piles are open: the other seat sees them in full
    assert [c["uid"] for c in g.view(1)["players"][0]["discard"]] == s.players[0].discard
    assert [c["uid"] for c in g.view(0)["players"][1]["discard"]] == s.players[1].discard


# RULE: GE-ZONE-1
def test_no_card_is_ever_played_onto_a_sector_hq() -> None:
    g = table()
    s = g.s
    put(g, 0, "moon")
    put(g, 0, "argonian_sunspot")
    put(g, 1, "krebiz_pincer")
    hand = give(g, 0, "technician", "cargo", "ion_storm", "divergent_anomaly", "illness",
                "small_phaser_eel", "shield_fiend", "forced_retreat", "transporter")
    for a in legal(g, "play"):
        if a[1] in hand:
            loc = a[2]
            # a negative location means "into that fleet", never onto its Sector HQ
            assert loc >= 0 or s.spec(a[1]).kind in ("terrain", "ship", "hazard")
    assert all(a[2] >= 0 for a in legal(g, "play") if s.spec(a[1]).key == "ion_storm")


# RULE: GE-ZONE-1
def test_a_discard_pile_holds_only_its_owners_cards() -> None:
    g = table(phase=FIRE)
    s = g.s
    sunspot = put(g, 0, "argonian_sunspot")
    clipper = put(g, 1, "krebiz_clipper")
    anomaly = put(g, 0, "divergent_anomaly", on=clipper)
    volley(g, clipper, (sunspot, "phaser"), (sunspot, "phaser"))
    assert clipper in s.players[1].discard and anomaly in s.players[0].discard
    for seat, p in enumerate(s.players):
        assert all(s.owner_of[u] == seat for u in p.discard)


# RULE: GE-ZONE-2
def test_a_card_against_an_opponent_stays_in_its_players_fleet_and_goes_home() -> None:
    g = table()
    s = g.s
    pincer = put(g, 1, "krebiz_pincer")
    (anomaly,) = give(g, 0, "divergent_anomaly")
    g.apply(("play", anomaly, pincer))
    settle(g)
    u = s.units[anomaly]
    assert u.owner == 0 and u.parent == pincer and u.against
    assert anomaly in [x.uid for x in board.fleet(s, 0)]
    assert anomaly not in [x.uid for x in board.fleet(s, 1)]
    (retreat,) = give(g, 0, "forced_retreat")
    g.apply(("play", retreat, pincer))
    settle(g)
    # the stack went back to hand: each card to its own owner's hand
    assert pincer in s.players[1].hand and anomaly in s.players[0].hand


# RULE: GE-ZONE-3
def test_locations_are_terrain_ships_and_bases_and_a_combination_is_one() -> None:
    g = table(active=1)
    moon = put(g, 1, "moon")
    base = put(g, 1, "defensive_satellites", on=moon)
    clipper = put(g, 1, "krebiz_clipper")
    capsule = put(g, 1, "krebiz_light_capsule")
    combine(g, clipper, capsule)
    lab = put(g, 1, "laboratory", on=base)
    (crew,) = give(g, 1, "technician")
    places = {a[2] for a in legal(g, "play") if a[1] == crew}
    assert places == {moon, base, clipper}
    assert capsule not in places and lab not in places


# RULE: GE-ZONE-4
def test_a_stack_is_everything_on_or_against_a_card_recursively() -> None:
    g = table()
    s = g.s
    moon = put(g, 0, "moon")
    base = put(g, 0, "planetary_shield", on=moon)
    crew = put(g, 0, "technician", on=base)
    illness = put(g, 1, "illness", on=crew)  # the opponent's card is part of the stack too
    ship = put(g, 0, "argonian_sunspot", on=moon)
    assert {u.uid for u in board.stack(s, moon)} == {moon, base, crew, illness, ship}
    assert {u.uid for u in board.stack(s, base)} == {base, crew, illness}
    board.leave(s, moon)
    assert not {moon, base, crew, illness} & set(s.units)
    assert illness in s.players[1].discard
    assert ship in s.units and s.units[ship].parent is None  # a ship on a terrain stays


# RULE: GE-ZONE-5
def test_the_counters_of_a_card_in_play_are_kept_and_saved() -> None:
    g = table()
    s = g.s
    claw = put(g, 1, "krebiz_claw")
    capsule = put(g, 1, "krebiz_heavy_capsule")
    combine(g, claw, capsule)
    anomaly = put(g, 0, "divergent_anomaly", on=claw, age=1)
    u = s.units[claw]
    u.engaged, u.shield_damage, u.damage, u.loaded, u.used, u.new = True, 2, 1, 2, True, True
    terrain = put(g, 0, "moon", card_damage=1)
    shuttle = put(g, 0, "shuttlecraft", on=put(g, 0, "argonian_sunspot"), empty=True)
    copy = GalacticEmpires.from_json(json.loads(json.dumps(g.to_json())))
    for uid in (claw, capsule, anomaly, terrain, shuttle):
        assert copy.s.units[uid] == s.units[uid]
    c = copy.s.units
    assert (c[claw].partner, c[capsule].partner, c[capsule].parent) == (capsule, claw, claw)
    assert c[anomaly].against and c[anomaly].age == 1 and c[anomaly].owner == 0
    assert c[terrain].card_damage == 1 and c[shuttle].empty
    assert (c[claw].shield_damage, c[claw].damage, c[claw].loaded, c[claw].used) == (2, 1, 2, True)


# RULE: GE-ZONE-5
def test_a_card_is_marked_new_until_its_owners_next_record_keeping() -> None:
    g = table()
    s = g.s
    (moon,) = give(g, 0, "moon")
    g.apply(("play", moon, -1))
    settle(g)
    assert s.units[moon].new
    next_turn(g)
    assert s.units[moon].new  # the opponent's turn does not count
    next_turn(g)
    assert not s.units[moon].new


# RULE: GE-ZONE-6
def test_a_stack_goes_to_the_pile_top_down_so_its_basis_ends_on_top() -> None:
    g = table(phase=DISCARD)
    s = g.s
    moon = put(g, 0, "moon")
    base = put(g, 0, "planetary_shield", on=moon)
    crew = put(g, 0, "technician", on=base)
    before = list(s.players[0].discard)
    g.apply(("discard", moon))
    settle(g)
    assert s.players[0].discard == before + [crew, base, moon]
    # later discards go on top; the order below never changes
    ship = put(g, 0, "argonian_sunspot")
    g.apply(("discard", ship))
    settle(g)
    assert s.players[0].discard == before + [crew, base, moon, ship]


# RULE: GE-ZONE-7
def test_a_ship_stays_where_it_was_played() -> None:
    g = table()
    s = g.s
    moon = put(g, 0, "moon")
    (ship,) = give(g, 0, "argonian_sunspot")
    g.apply(("play", ship, moon))
    settle(g)
    for _ in range(4):
        next_turn(g)
        assert s.units[ship].parent == moon
    # nothing in the action vocabulary moves a ship from one location to another
    assert not any(a[0] in ("move", "transport") for a in g.legal_actions())


# --------------------------------------------------------------------------- CARD


# RULE: GE-CARD-1
def test_type_letter_strength_and_cost_and_the_reaction_mark() -> None:
    doctor, sunspot, claw = BY_KEY["doctor"], BY_KEY["argonian_sunspot"], BY_KEY["krebiz_claw"]
    assert doctor.label == "R/C2 Doctor" and doctor.reaction and doctor.letter == "C"
    assert sunspot.label.startswith("S3 ") and not sunspot.reaction
    assert sunspot.cost == (0, 1, 1, 0, 0, 0) and claw.cost == (0, 2, 1, 0, 0, 0)
    assert all(1 <= c.strength <= 10 for c in CARDS)


# RULE: GE-CARD-1
def test_only_r_cards_are_offered_as_reactions_from_hand() -> None:
    g = table()
    s = g.s
    put(g, 0, "moon")
    their_moon = put(g, 1, "small_moon")
    clipper = put(g, 1, "krebiz_clipper")
    put(g, 1, "technician", on=clipper)
    transporter, lab, cargo = give(g, 1, "transporter", "laboratory", "cargo")
    (terrain,) = give(g, 0, "armory_moon")
    g.apply(("play", terrain, -1))
    assert s.priority == 1
    offered = [a for a in g.legal_actions() if a[0] == "play"]
    assert offered and {a[1] for a in offered} == {transporter}
    assert their_moon in {a[2] for a in offered} | {a[5] for a in offered if len(a) > 5}
    assert lab not in {a[1] for a in offered} and cargo not in {a[1] for a in offered}


# RULE: GE-CARD-2
def test_shields_and_card_damage_symbols_are_not_generated_points() -> None:
    g = table(phase=DISCARD, active=1)
    s = g.s
    moon = put(g, 0, "moon")
    put(g, 0, "planetary_shield", on=moon)  # 3 shields
    put(g, 0, "argonian_warm_front", engaged=False)  # 4 shields
    put(g, 0, "ion_storm", on=put(g, 1, "krebiz_pincer"))  # two card-damage symbols
    begin(g, 0)
    assert s.players[0].pool == [0, 2, 1, 0, 0, 0]  # the moon's output and nothing else


# RULE: GE-CARD-3
def test_the_freighters_symbols_under_the_art_raise_its_terrains_output() -> None:
    g = table(phase=DISCARD, active=1)
    s = g.s
    moon = put(g, 0, "moon")
    freighter = put(g, 0, "fleet_freighter", on=moon, engaged=False)
    begin(g, 0)
    assert s.players[0].pool == [0, 2, 1, 0, 0, 0]
    g.apply(("pay", freighter))  # costs one supply and one energy ...
    assert s.players[0].pool == [2, 1, 0, 0, 0, 0]  # ... and the moon now gives two economy more


# RULE: GE-CARD-4
def test_every_empires_heavy_weapon_is_a_standard_one() -> None:
    g = table()
    s = g.s
    target = put(g, 1, "krebiz_mandible")
    for seat, key in ((0, "argonian_blizzard"), (1, "krebiz_pincer"), (0, "indirigan_nomads")):
        ship = put(g, seat, key, loaded=1)
        assert combat.HEAVY in combat.weapons(s, ship)
        assert combat.damage_of(s, ship, combat.HEAVY, target) == 1
        s.units[ship].loaded = 0
        assert combat.HEAVY not in combat.weapons(s, ship)  # unloaded: it cannot fire
    assert BY_KEY["shuttlecraft"].one_shot and BY_KEY["shuttlecraft"].phasers == 1


# RULE: GE-CARD-4
def test_a_one_shot_phaser_stays_empty_after_it_fired() -> None:
    g = table(phase=FIRE)
    s = g.s
    ship = put(g, 0, "argonian_sunspot")
    shuttle = put(g, 0, "shuttlecraft", on=ship)
    target = put(g, 1, "krebiz_clipper")
    volley(g, target, (shuttle, "phaser"))
    assert s.units[shuttle].empty
    s.units[shuttle].used = False  # even with its function free again, it has no shot left
    assert combat.weapons(s, shuttle) == []


# RULE: GE-CARD-5
def test_passive_equipment_works_on_a_disengaged_unit_and_non_passive_does_not() -> None:
    assert BY_KEY["laboratory"].passive is True and BY_KEY["fuser_mechanism"].passive is False
    g = table(phase=DISCARD, active=1)
    s = g.s
    ship = put(g, 0, "argonian_sunspot", engaged=False)
    put(g, 0, "laboratory", on=ship)
    begin(g, 0)
    assert s.players[0].pool[4] == 2  # research from a lab on a ship that will not be engaged
    g2 = table()
    nomads = put(g2, 0, "indirigan_nomads", engaged=False, loaded=1)
    target = put(g2, 1, "krebiz_pincer")
    (fuser,) = give(g2, 0, "fuser_mechanism")
    g2.apply(("play", fuser, nomads))
    settle(g2)
    assert not g2.s.units[fuser].engaged  # it takes the state of its disengaged ship
    assert combat.damage_of(g2.s, nomads, combat.HEAVY, target) == 1


# RULE: GE-CARD-6
def test_strength_counts_modifiers_and_damage_only_lowers_current_strength() -> None:
    g = table()
    s = g.s
    claw = put(g, 1, "krebiz_claw")
    capsule = put(g, 1, "krebiz_heavy_capsule")
    combine(g, claw, capsule)
    put(g, 1, "krebiz_armor", on=claw)
    assert board.strength(s, claw) == 5 + 2 + 1
    s.units[claw].damage = 3
    assert board.strength(s, claw) == 8 and board.current_strength(s, claw) == 5


# RULE: GE-CARD-7
def test_empire_membership_of_the_special_cards() -> None:
    assert BY_KEY["fleet_freighter"].empire == "generic"
    assert BY_KEY["krebiz_armor"].empire == "krebiz"
    assert BY_KEY["fuser_mechanism"].empire == "indirigan"
    assert BY_KEY["indirigan_light_carrier"].empire == "indirigan"
    g = table()
    s = g.s
    moon = put(g, 0, "moon")
    freighter = put(g, 0, "fleet_freighter", on=moon)
    sunspot = put(g, 0, "argonian_sunspot")
    captain = put(g, 0, "civilian_captain", on=freighter)
    # the captain's rule is for generic ships: the freighter is one ...
    assert board.cost(s, freighter) == [0, 0, 1, 0, 0, 0]
    s.units[captain].parent = sunspot
    # ... an Argonian ship is not
    assert board.cost(s, sunspot) == [0, 1, 1, 0, 0, 0]
    assert board.cost(s, freighter) == [0, 1, 1, 0, 0, 0]


# RULE: GE-CARD-7
def test_each_players_indirigan_ships_are_their_own_tribe() -> None:
    g = table(phase=FIRE)
    s = g.s
    nomads = put(g, 0, "indirigan_nomads")
    carrier = put(g, 1, "indirigan_light_carrier")
    pincer = put(g, 1, "krebiz_pincer")
    assert combat.may_fire_at(s, nomads, carrier)  # the opponent's Indirigans are another tribe
    assert not combat.may_fire_at(s, nomads, pincer)  # ... so the tribe rule holds it back
    board.leave(s, carrier)
    assert combat.may_fire_at(s, nomads, pincer)


# --------------------------------------------------------------------------- SETUP


def dealt(edition: str = "full", seed: int = 0, **options: Any) -> GalacticEmpires:
    """A new game past the reserve choice (no reserve in full, the default pair in quick)."""
    g = GalacticEmpires.new(edition=edition, seed=seed, options=options or None)
    while g.s.phase == SETUP:
        g.apply(g.legal_actions()[0])
    return g


# RULE: GE-SETUP-1
@pytest.mark.parametrize("edition", EDITIONS)
def test_each_seat_gets_its_deck_list_and_an_undamaged_hq(edition: str) -> None:
    g = GalacticEmpires.new(edition=edition, seed=2)
    s = g.s
    assert [p.empire for p in s.players] == ["argonian", "krebiz"]
    assert [len(p.deck) for p in s.players] == [46, 51]
    for seat, p in enumerate(s.players):
        assert sorted(s.spec(u).key for u in p.deck) == sorted(c.key for c in deck_list(p.empire))
        assert p.hq == 0 and not p.hand and not p.discard


# RULE: GE-SETUP-2
def test_full_edition_reserve_is_zero_one_or_two_cards_set_aside_before_the_deal() -> None:
    g = GalacticEmpires.new(seed=4)
    s = g.s
    sizes = {len(a) - 1 for a in g.legal_actions()}
    assert sizes == {0, 1, 2}
    assert all(a[0] == "reserve" for a in g.legal_actions())
    g.apply(("reserve", "moon", "siobhan_7"))
    # chosen secretly: the other seat sees how many, not which
    assert g.view(1)["players"][0]["reserve"] == 2
    assert {c["key"] for c in g.view(0)["players"][0]["reserve"]} == {"moon", "siobhan_7"}
    assert s.phase == SETUP and g.to_move == 1
    g.apply(("reserve", "krebiz_claw"))
    assert [len(p.reserve) for p in s.players] == [2, 1]
    assert [len(p.deck) + len(p.hand) + len(p.discard) for p in s.players] == [44, 50]
    assert all(s.spec(u).key in ("moon", "siobhan_7") for u in s.players[0].reserve)


# RULE: GE-SETUP-2
def test_a_reserve_outside_the_deck_is_refused_with_its_rule() -> None:
    g = GalacticEmpires.new(seed=4)
    before = snapshot(g)
    for bad in (("reserve", "moon", "moon"), ("reserve", "krebiz_claw"), ("reserve", "moon", "siobhan_7", "armory_moon")):
        with pytest.raises(IllegalAction) as err:
            g.apply(bad)
        assert err.value.reason.startswith("GE-SETUP-2")
    assert snapshot(g) == before


# RULE: GE-SETUP-2
# RULE: GE-DIG-2
def test_a_reserve_chosen_in_secret_is_redrawn_by_the_other_seats_determinize() -> None:
    g = GalacticEmpires.new(seed=6)
    g.apply(("reserve", "argonian_typhoon", "argonian_typhoon"))
    keys = set()
    for n in range(12):
        d = g.determinize(1, random.Random(n))
        assert d.view(1) == g.view(1) and len(d.s.players[0].reserve) == 2
        keys.add(tuple(sorted(d.s.spec(u).key for u in d.s.players[0].reserve)))
    assert len(keys) > 1  # seat 1 cannot know which two cards they are
    mine = g.determinize(0, random.Random(1))
    assert sorted(mine.s.players[0].reserve) == sorted(g.s.players[0].reserve)


# RULE: GE-SETUP-3
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_shuffle_comes_from_the_seeded_generator(edition: str) -> None:
    def deal(seed: int) -> list[list[int]]:
        s = dealt(edition, seed).s
        return [p.deck + p.hand + p.discard for p in s.players]

    assert deal(11) == deal(11)
    assert deal(11) != deal(12)
    # the uid order of a new game says nothing about the deal: it is catalogue order
    fresh = GalacticEmpires.new(edition=edition, seed=11).s
    assert fresh.players[0].deck == sorted(fresh.players[0].deck)


# RULE: GE-SETUP-4
def test_the_ante_picks_the_first_player_and_starts_each_discard_pile() -> None:
    tied_firsts = set()
    for seed in range(40):
        g = dealt("full", seed)
        s = g.s
        antes = [p.discard[0] for p in s.players]
        assert [len(p.discard) for p in s.players] == [1, 1]
        strength = [s.spec(u).strength for u in antes]
        if strength[0] != strength[1]:
            assert s.first == (0 if strength[0] > strength[1] else 1)
        else:
            tied_firsts.add(s.first)
            assert dealt("full", seed).s.first == s.first  # the tie is broken by the seed
        assert s.active == s.first
    assert tied_firsts == {0, 1}  # ties go either way


# RULE: GE-SETUP-5
def test_reserves_are_public_once_the_antes_are_turned() -> None:
    g = GalacticEmpires.new(seed=8)
    g.apply(("reserve", "moon"))
    assert g.view(1)["players"][0]["reserve"] == 1
    assert g.view(None)["players"][0]["reserve"] == 1
    g.apply(("reserve", "krebiz_pincer", "moon"))
    for viewer in (0, 1, None):
        v = g.view(viewer)["players"]
        assert [c["key"] for c in v[0]["reserve"]] == ["moon"]
        assert sorted(c["key"] for c in v[1]["reserve"]) == ["krebiz_pincer", "moon"]


# RULE: GE-SETUP-6
@pytest.mark.parametrize("edition", EDITIONS)
def test_each_seat_draws_nine_cards_and_there_is_no_mulligan(edition: str) -> None:
    g = dealt(edition, 5)
    s = g.s
    reserve_size = 0 if edition == "full" else 2
    assert [len(p.hand) for p in s.players] == [9, 9]
    assert [len(p.deck) for p in s.players] == [46 - reserve_size - 10, 51 - reserve_size - 10]
    assert {a[0] for a in g.legal_actions()} <= {"pay", "pay-part", "load", "repair", "research", "use", "allocate"}


# RULE: GE-SETUP-7
def test_the_first_player_starts_and_turns_alternate() -> None:
    g = dealt("full", 0)
    s = g.s
    first = s.first
    assert (s.active, s.phase) == (first, ALLOCATE)
    assert s.players[first].turns == 1 and s.players[1 - first].turns == 0
    order = [s.active]
    for _ in range(4):
        next_turn(g)
        order.append(s.active)
    assert order == [first, 1 - first, first, 1 - first, first]


# --------------------------------------------------------------------------- TURN


# RULE: GE-TURN-1
def test_a_player_turn_runs_its_phases_in_order_and_never_goes_back() -> None:
    g = table(phase=DISCARD, active=1)
    s = g.s
    put(g, 0, "moon")
    sunspot = put(g, 0, "argonian_sunspot")
    put(g, 1, "krebiz_pincer")
    next_turn(g)
    g.apply(("pay", sunspot))  # so that it has weapons to fire
    seen = [s.phase]
    events: list[Any] = []
    while s.active == 0:
        events += step(g)
        if s.active == 0 and s.phase != seen[-1]:
            seen.append(s.phase)
    assert seen == [ALLOCATE, PLAY_A, FIRE, PLAY_B, DISCARD]
    names = [e[0] for e in events]
    # engagement between allocation and Play Cards A; the draw after discard, then the next turn
    assert names.index("engaged") < names.index("phase")
    assert names.index("draw") < names.index("turn")
    assert [e[1] for e in events if e[0] == "phase"] == [PLAY_A, FIRE, PLAY_B, DISCARD]


# RULE: GE-TURN-2
def test_durations_count_the_controllers_record_keeping_wherever_played() -> None:
    g = table(phase=DISCARD, active=0)
    s = g.s
    pincer = put(g, 1, "krebiz_pincer")
    anomaly = put(g, 0, "divergent_anomaly", on=pincer)  # seat 0's card in seat 1's area
    next_turn(g)
    assert s.units[anomaly].age == 0  # seat 1's record keeping does not count it
    next_turn(g)
    assert anomaly not in s.units  # seat 0's does: one complete turn of its controller


# RULE: GE-TURN-3
def test_no_timed_card_of_deck_a_runs_on_player_turns() -> None:
    g = table(phase=DISCARD, active=0)
    s = g.s
    ship = put(g, 1, "krebiz_pincer")
    crew = put(g, 1, "technician", on=ship)
    doctor = put(g, 1, "doctor", on=ship)
    timed = {
        put(g, 0, "biruks_comet"), put(g, 0, "illness", on=crew), put(g, 0, "space_vertigo", on=crew),
        put(g, 0, "divergent_anomaly", on=ship), put(g, 0, "malpractice", on=doctor),
    }
    durations = {s.spec(u).key: s.spec(u).duration for u in timed}
    assert durations == {"biruks_comet": 2, "illness": 1, "space_vertigo": 1, "divergent_anomaly": 1,
                         "malpractice": 1}
    assert {c.key for c in CARDS if c.duration is not None} == set(durations) | {"fuser_mechanism"}
    begin(g, 1)  # the opponent's turns never age them
    assert all(s.units[u].age == 0 for u in timed)
    begin(g, 0)  # one complete turn of their controller: the one-turn cards are done
    assert [s.spec(u).key for u in timed if u in s.units] == ["biruks_comet"]
    assert all(s.units[u].age == 1 for u in timed if u in s.units)


# RULE: GE-TURN-4
def test_turn_numbers_for_the_play_restrictions() -> None:
    g = dealt("full", 0)
    s = g.s
    first, second = s.first, 1 - s.first
    stages = []
    for _ in range(6):
        stages.append((s.active == first, plays.stage(s, first), plays.stage(s, second)))
        next_turn(g)
    assert stages == [
        (True, 1, 1), (False, 1, 1),  # both in turn 1 while the opener is in its first turn
        (True, 2, 2), (False, 2, 2),
        (True, 3, 2),  # the opener is free; the other seat is still limited
        (False, 3, 3),
    ]


# RULE: GE-TURN-4
def test_the_second_player_still_has_its_turn_two_limit_in_the_first_players_turn_three() -> None:
    g = table(turns=2)
    s = g.s
    s.players[0].turns = 3  # seat 0 went first and is in its third turn
    s.players[1].ships_turn2 = 1
    (ship,) = give(g, 1, "krebiz_pincer")
    assert plays.stage(s, 1) == 2
    assert (plays.restriction(s, 1, ship) or "").startswith("GE-TURN-6")
    (other,) = give(g, 0, "argonian_sunspot")
    assert plays.restriction(s, 0, other) is None


# RULE: GE-TURN-5
def test_turn_one_allows_only_terrain_and_reserve_swaps() -> None:
    g = table(turns=1)
    (comet,) = reserve(g, 0, "biruks_comet")
    moon, sunspot, doctor, _lab = give(g, 0, "moon", "argonian_sunspot", "doctor", "laboratory")
    assert {a[1] for a in legal(g, "play")} == {moon}  # not the ship, the crew nor the equipment
    assert ("swap", sunspot, comet) in legal(g, "swap") and ("swap", doctor, comet) in legal(g, "swap")
    with pytest.raises(IllegalAction) as err:
        g.apply(("play", sunspot, -1))
    assert err.value.reason.startswith("GE-TURN-5")


# RULE: GE-TURN-5
def test_nobody_can_react_in_turn_one() -> None:
    g = table(turns=1)
    s = g.s
    their_moon = put(g, 1, "moon")
    clipper = put(g, 1, "krebiz_clipper")
    put(g, 1, "technician", on=clipper)
    give(g, 1, "transporter", "doctor", "crewman", "shuttlecraft")
    (moon,) = give(g, 0, "moon")
    g.apply(("play", moon, -1))
    assert s.priority is None and moon in s.units  # no window was opened
    assert their_moon in s.units


# RULE: GE-TURN-6
def test_turn_two_allows_one_ship_or_base_in_total() -> None:
    g = table(turns=2)
    moon = put(g, 0, "moon")
    sunspot, blizzard, shield, crew = give(g, 0, "argonian_sunspot", "argonian_blizzard", "planetary_shield", "technician")
    assert {sunspot, blizzard, shield} <= {a[1] for a in legal(g, "play")}
    g.apply(("play", sunspot, moon))
    settle(g)
    offered = {a[1] for a in legal(g, "play")}
    assert blizzard not in offered and shield not in offered
    assert crew in offered  # other types are unlimited


# RULE: GE-TURN-6
def test_in_turn_two_a_krebiz_pair_counts_as_one_ship() -> None:
    g = table(turns=2, active=1)
    s = g.s
    clipper, light, pincer = give(g, 1, "krebiz_clipper", "krebiz_light_capsule", "krebiz_pincer")
    g.apply(("pair", clipper, light, -2))
    settle(g)
    assert clipper in s.units and light in s.units
    assert s.players[1].plays == 1
    assert not any(a[1] == pincer for a in legal(g, "play") + legal(g, "pair"))


# RULE: GE-TURN-6
def test_in_turn_two_a_capsule_played_onto_a_cruiser_counts_as_a_ship() -> None:
    g = table(turns=2, active=1)
    s = g.s
    clipper = put(g, 1, "krebiz_clipper")
    light, pincer = give(g, 1, "krebiz_light_capsule", "krebiz_pincer")
    g.apply(("play", light, clipper))
    settle(g)
    assert s.units[light].partner == clipper
    assert not any(a[1] == pincer for a in legal(g, "play") + legal(g, "pair"))


# RULE: GE-TURN-7
# RULE: GE-PHASE-3
# RULE: GE-PHASE-4
# RULE: GE-PHASE-5
# RULE: GE-PHASE-6
def test_each_phase_offers_only_its_own_kinds_of_action() -> None:
    allowed = {
        ALLOCATE: {"pay", "pay-part", "load", "repair", "research", "use", "allocate"},
        PLAY_A: {"play", "pair", "combine", "separate", "swap", "use", "end"},
        PLAY_B: {"play", "pair", "combine", "separate", "swap", "use", "end"},
        FIRE: {"aim", "add", "fire", "end"},
        DISCARD: {"discard", "drop", "end"},
    }
    seen: dict[str, set[str]] = {phase: set() for phase in allowed}
    for edition in EDITIONS:
        for seed in range(12):
            g = dealt(edition, seed)
            rng = random.Random(seed)
            while not g.over and g.s.actions < 2500:
                s = g.s
                acts = g.legal_actions()
                if s.priority is None:
                    got = {a[0] for a in acts}
                    assert got <= allowed[s.phase], (s.phase, got - allowed[s.phase])
                    seen[s.phase] |= got
                busy = [a for a in acts if a[0] not in ("end", "pass", "quiet")]
                g.apply(rng.choice(busy) if busy and rng.random() < 0.8 else rng.choice(acts))
    # every phase's own actions did come up
    assert {"play", "use", "swap", "end"} <= seen[PLAY_A] and {"play", "end"} <= seen[PLAY_B]
    assert {"aim", "add", "fire"} <= seen[FIRE] and {"discard", "drop", "end"} <= seen[DISCARD]
    assert {"pay", "load", "allocate"} <= seen[ALLOCATE]


# --------------------------------------------------------------------------- PHASE


# RULE: GE-PHASE-1
def test_allocation_keeps_records_then_produces_then_gives_the_opponent_one_window() -> None:
    g = table(phase=DISCARD, active=1)
    s = g.s
    moon = put(g, 0, "moon")
    ship = put(g, 0, "argonian_sunspot", shield_damage=2, loaded=1, used=True, fired_phasers=3)
    doctor = put(g, 0, "doctor", on=ship)
    (malpractice,) = give(g, 1, "malpractice")
    begin(g, 0)
    u = s.units[ship]
    assert (u.shield_damage, u.loaded, u.used, u.fired_phasers) == (1, 0, False, 0)  # records kept
    assert s.players[0].pool == [0, 2, 1, 0, 1, 0]  # the moon and the doctor produced
    g.apply(("pay", ship))
    g.apply(("allocate",))
    assert s.priority == 1 and s.phase == ALLOCATE  # the opponent's one window
    assert ("play", malpractice, doctor) in g.legal_actions()
    g.apply(("pass",))
    assert s.priority is None and s.phase == PLAY_A
    assert moon in s.units


# RULE: GE-PHASE-2
def test_engagement_sets_every_card_by_its_payment_with_no_window() -> None:
    g = table(phase=DISCARD, active=1)
    s = g.s
    put(g, 0, "moon")
    paid = put(g, 0, "argonian_sunspot", engaged=False)
    unpaid = put(g, 0, "argonian_blizzard", engaged=True)
    carrier = put(g, 0, "indirigan_light_carrier", engaged=False)
    shuttle = put(g, 0, "shuttlecraft", on=carrier, empty=True)
    give(g, 1, "malpractice", "transporter", "crewman")
    begin(g, 0)
    s.players[0].pool = [0, 5, 5, 0, 0, 0]
    g.apply(("pay", paid))
    g.apply(("pay", carrier))
    g.apply(("allocate",))
    settle(g)
    assert s.phase == PLAY_A and s.priority is None
    assert s.units[paid].engaged and not s.units[unpaid].engaged
    assert s.units[carrier].engaged and not s.units[shuttle].empty  # the carrier rearmed it


# RULE: GE-PHASE-3
def test_play_cards_a_offers_plays_functions_and_krebiz_moves_then_ends() -> None:
    g = table(active=1)
    s = g.s
    clipper = put(g, 1, "krebiz_clipper")
    light = put(g, 1, "krebiz_light_capsule")
    moon = put(g, 1, "moon")
    put(g, 1, "transporter", on=moon)
    put(g, 1, "technician", on=moon)
    (terrain,) = give(g, 1, "small_moon")
    acts = g.legal_actions()
    assert ("play", terrain, -2) in acts and ("combine", clipper, light) in acts
    assert any(a[0] == "use" for a in acts) and ("end",) in acts
    g.apply(("play", terrain, -2))
    settle(g)
    assert s.phase == PLAY_A  # as many plays as the limits allow, until the player ends it
    g.apply(("end",))
    assert s.phase in (FIRE, PLAY_B)


# RULE: GE-PHASE-4
def test_weapons_fire_is_volley_after_volley_until_the_player_ends_it() -> None:
    g = table(phase=FIRE)
    s = g.s
    sunspot = put(g, 0, "argonian_sunspot")
    clipper = put(g, 1, "krebiz_clipper")
    pincer = put(g, 1, "krebiz_pincer")
    mandible = put(g, 1, "krebiz_mandible")
    volley(g, clipper, (sunspot, "phaser"))
    assert s.phase == FIRE and s.units[clipper].damage == 1
    volley(g, pincer, (sunspot, "phaser"))
    assert s.phase == FIRE and s.units[pincer].damage == 1
    assert ("aim", mandible) in g.legal_actions()  # a phaser and a target are left
    assert ("aim", combat.hq(1)) not in g.legal_actions()  # the ships still protect their HQ
    g.apply(("end",))
    assert s.phase == PLAY_B and s.units[mandible].damage == 0


# RULE: GE-PHASE-5
def test_play_cards_b_has_only_the_card_plays_left_from_a() -> None:
    g = table()
    s = g.s
    terrains = give(g, 0, "moon", "small_moon", "armory_moon")
    for t in terrains[:2]:
        g.apply(("play", t, -1))
        settle(g)
    g.apply(("end",))
    while s.phase != PLAY_B:
        step(g)
    assert ("play", terrains[2], -1) in g.legal_actions()
    g.apply(("play", terrains[2], -1))
    settle(g)
    (late,) = give(g, 0, "siobhan_7")
    assert not legal(g, "play") and s.phase == PLAY_B
    assert late in s.players[0].hand


# RULE: GE-PHASE-6
def test_the_discard_phase_offers_voluntary_discards_and_its_end() -> None:
    g = table(phase=DISCARD)
    mine = put(g, 0, "moon")
    theirs = put(g, 1, "moon")
    (card,) = give(g, 0, "laboratory")
    acts = g.legal_actions()
    assert ("discard", mine) in acts and ("drop", card) in acts and ("end",) in acts
    assert ("discard", theirs) not in acts


# RULE: GE-PHASE-7
def test_the_draw_phase_fills_the_hand_then_the_turn_passes() -> None:
    g = table(phase=DISCARD)
    s = g.s
    give(g, 0, "moon", "laboratory")
    deck = len(s.players[0].deck)
    events = g.apply(("end",))
    assert ("draw", 0, 2) in events
    assert len(s.players[0].hand) == 4 and len(s.players[0].deck) == deck - 2
    assert (s.active, s.phase) == (1, ALLOCATE)


# --------------------------------------------------------------------------- DISC


# RULE: GE-DISC-1
def test_own_cards_in_play_may_be_discarded_one_reactable_event_each() -> None:
    g = table(phase=DISCARD)
    s = g.s
    mine = put(g, 0, "argonian_sunspot")
    their_moon = put(g, 1, "moon")
    clipper = put(g, 1, "krebiz_clipper")
    put(g, 1, "technician", on=clipper)
    against = put(g, 0, "divergent_anomaly", on=clipper)
    give(g, 1, "transporter")
    offered = legal(g, "discard")
    assert ("discard", mine) in offered and ("discard", against) in offered
    assert all(s.units[a[1]].owner == 0 for a in offered)  # never an opponent's card
    assert ("discard", clipper) not in offered and ("discard", their_moon) not in offered
    g.apply(("discard", against))
    assert s.priority == 1 and against in s.units  # the opponent may answer first
    g.apply(("pass",))
    assert against not in s.units and s.players[0].discard[-1] == against
    with pytest.raises(IllegalAction):
        g.apply(("discard", clipper))


# RULE: GE-DISC-2
def test_full_edition_each_unused_card_play_discards_one_hand_card() -> None:
    g = table(phase=DISCARD)
    s = g.s
    s.players[0].plays = 1
    a, b, c = give(g, 0, "moon", "laboratory", "cargo")
    g.apply(("drop", a))
    settle(g)
    g.apply(("drop", b))
    settle(g)
    assert s.players[0].discard[-2:] == [a, b] and s.players[0].hand == [c]
    assert not legal(g, "drop")
    with pytest.raises(IllegalAction) as err:
        g.apply(("drop", c))
    assert err.value.reason.startswith("GE-DISC-2")


# RULE: GE-DISC-2
def test_hand_cards_are_not_discarded_outside_the_discard_phase() -> None:
    g = table(phase=PLAY_B)
    (card,) = give(g, 0, "moon")
    with pytest.raises(IllegalAction) as err:
        g.apply(("drop", card))
    assert err.value.reason.startswith("GE-PHASE-6")


# RULE: GE-DISC-3
# RULE: GE-QUICK-3
def test_quick_edition_never_discards_from_hand() -> None:
    g = table("quick", phase=DISCARD)
    s = g.s
    mine = put(g, 0, "moon")
    (card,) = give(g, 0, "laboratory")
    assert not legal(g, "drop") and ("discard", mine) in g.legal_actions()
    with pytest.raises(IllegalAction) as err:
        g.apply(("drop", card))
    assert err.value.reason.startswith("GE-QUICK-3")
    assert card in s.players[0].hand


# --------------------------------------------------------------------------- DRAW


# RULE: GE-DRAW-1
@pytest.mark.parametrize("hand,drawn", [(0, 2), (9, 2), (10, 1), (11, 1), (12, 0), (15, 0)])
def test_the_draw_depends_on_the_hand_size(hand: int, drawn: int) -> None:
    g = table(phase=DISCARD)
    s = g.s
    p = s.players[0]
    p.hand = [p.deck.pop(0) for _ in range(hand)]
    deck = len(p.deck)
    events = g.apply(("end",))  # no choice to make: the draw runs by itself
    assert ("draw", 0, drawn) in events
    assert (len(p.hand), len(p.deck)) == (hand + drawn, deck - drawn)
    assert s.active == 1


# RULE: GE-DRAW-2
def test_there_is_no_hand_limit() -> None:
    g = table(phase=DISCARD)
    s = g.s
    p = s.players[0]
    p.hand = [p.deck.pop(0) for _ in range(20)]
    hand = list(p.hand)
    discard = list(p.discard)
    next_turn(g)
    next_turn(g)
    next_turn(g)
    assert set(hand) <= set(p.hand) and p.discard == discard


# RULE: GE-DRAW-3
@pytest.mark.parametrize("edition", EDITIONS)
def test_an_empty_deck_draws_nothing_and_the_pile_is_never_reshuffled(edition: str) -> None:
    # RULE: GE-QUICK-6
    g = table(edition, phase=DISCARD)
    s = g.s
    p = s.players[0]
    p.hand = p.deck[:1]
    p.discard += p.deck[1:]
    p.deck = []
    pile = list(p.discard)
    events = next_turn(g)
    assert ("draw", 0, 0) in events
    assert p.deck == [] and p.discard == pile and len(p.hand) == 1
    next_turn(g)
    assert not g.over and s.active == 0


# --------------------------------------------------------------------------- WIN


def firing_line(g: GalacticEmpires, keys: tuple[str, ...] = ("argonian_typhoon",)) -> list[int]:
    """Engaged ships of seat 0 with loaded heavy weapons, in its Weapons Fire phase."""
    return [put(g, 0, k, loaded=BY_KEY[k].heavy) for k in keys]


def everything(g: GalacticEmpires, ship: int) -> list[tuple[int, str]]:
    s = g.s
    return [(ship, "phaser")] * board.phasers(s, ship) + [(ship, "heavy")] * s.units[ship].loaded


# RULE: GE-WIN-1
def test_an_hq_at_twenty_five_eliminates_its_owner_and_clears_their_cards() -> None:
    g = table(phase=FIRE)
    s = g.s
    (typhoon,) = firing_line(g)
    s.players[1].hq = 22
    moon = put(g, 1, "moon")
    base = put(g, 1, "defensive_satellites", on=moon)
    eel = put(g, 0, "small_phaser_eel", on=base)  # seat 0's card against seat 1's
    mine = put(g, 0, "moon")
    volley(g, combat.hq(1), *everything(g, typhoon))
    assert g.over and g.winner == 0 and s.end == "hq" and g.returns() == [1.0, -1.0]
    assert s.players[1].hq >= 25
    assert not [u for u in s.units.values() if u.owner == 1]
    assert {moon, base} <= set(s.players[1].discard) and eel in s.players[0].discard
    assert mine in s.units  # the winner keeps its own
    assert g.legal_actions() == [] and g.to_move is None


# RULE: GE-ZONE-1
def test_the_hq_counter_stops_at_its_limit() -> None:
    g = table(phase=FIRE)
    s = g.s
    (typhoon,) = firing_line(g)
    s.players[1].hq = 22
    volley(g, combat.hq(1), *everything(g, typhoon))
    assert g.over and s.players[1].hq == 25


# RULE: GE-WIN-1
def test_elimination_ends_the_game_even_with_events_still_on_the_chain() -> None:
    g = table(phase=FIRE)
    s = g.s
    mine = put(g, 0, "argonian_sunspot")
    theirs = put(g, 1, "indirigan_nomads")
    put(g, 1, "divergent_anomaly", on=mine)  # neither ship protects its HQ
    put(g, 0, "divergent_anomaly", on=theirs)
    s.players[0].hq = 24
    (pending,) = give(g, 1, "crewman")
    (shuttle,) = give(g, 1, "shuttlecraft")
    g.apply(("aim", combat.hq(1)))
    g.apply(("add", mine, "phaser"))
    g.apply(("fire",))
    assert s.priority == 1
    shot = ("play", shuttle, theirs, "fire", combat.hq(0))
    assert shot in g.legal_actions()
    g.apply(shot)  # seat 1 answers with a Shuttlecraft from hand, firing at seat 0's Sector HQ
    settle(g)
    assert g.over and g.winner == 1
    assert s.players[1].hq == 0  # seat 0's own volley, older on the chain, never resolved
    assert not s.chain and s.priority is None
    assert pending in s.players[1].hand


# RULE: GE-WIN-1
def test_cards_on_the_chain_when_the_game_ends_go_back_to_their_hands() -> None:
    g = table()
    s = g.s
    moon, doctor = take(g, 0, "moon"), take(g, 1, "doctor")
    cruiser, capsule = take(g, 1, "krebiz_clipper"), take(g, 1, "krebiz_light_capsule")
    s.chain += [Item(0, "play", ("play", moon, -1)), Item(1, "play", ("play", doctor, -2), reaction=True)]
    s.queued.append(Item(1, "pair", ("pair", cruiser, capsule, -2)))
    s.winner, s.end = 1, "hq"
    turn.finish(s)
    assert g.over and not s.chain and not s.queued
    assert moon in s.players[0].hand and {doctor, cruiser, capsule} <= set(s.players[1].hand)
    assert moon in s.players[0].shown  # it had been announced to both
    assert all(len(v) == 1 for v in zone_map(g).values())


# RULE: GE-WIN-2
def test_only_weapons_fire_reaches_a_sector_hq() -> None:
    g = table()
    s = g.s
    put(g, 1, "moon")
    storm, wave = give(g, 0, "ion_storm", "gravity_wave")
    assert board.hq_open(s, 1)
    assert all(a[2] >= 0 for a in legal(g, "play") if a[1] == storm)  # never at an HQ
    g.apply(("play", wave, -2))  # against seat 1's fleet, which has no ship
    for _ in range(5):
        settle(g)
    assert s.players[1].hq == 0 and wave in s.players[0].discard


# RULE: GE-WIN-3
def test_a_sector_hq_is_never_repaired() -> None:
    g = table(phase=DISCARD, active=1)
    s = g.s
    s.players[0].hq = 5
    moon = put(g, 0, "moon")
    put(g, 0, "fleet_freighter", on=moon, engaged=False)
    ship = put(g, 0, "argonian_sunspot", damage=1)
    begin(g, 0)
    s.players[0].pool = [3, 0, 0, 0, 0, 3]
    repairs = legal(g, "repair")
    assert repairs == [("repair", ship, "hull")]
    for bad in (("repair", combat.hq(0), "hull"), ("repair", combat.hq(0), "shield")):
        with pytest.raises(IllegalAction):
            g.apply(bad)
    g.apply(("repair", ship, "hull"))
    assert s.players[0].hq == 5 and s.units[ship].damage == 0


# RULE: GE-WIN-4
def test_full_edition_a_volley_of_six_on_an_hq_draws_one_card() -> None:
    g = table(phase=FIRE)
    s = g.s
    a, b = firing_line(g, ("argonian_typhoon", "argonian_typhoon"))
    hand, deck = len(s.players[0].hand), len(s.players[0].deck)
    # five points: no celebration
    volley(g, combat.hq(1), *[(a, "phaser")] * 4 + [(a, "heavy")])
    assert s.players[1].hq == 5 and len(s.players[0].hand) == hand
    # a new phase, twelve points in one volley: one card, whatever the amount
    s.phase, s.volleyed = FIRE, []
    for u in (a, b):
        s.units[u].fired_phasers = s.units[u].fired_heavy = 0
        s.units[u].loaded = 2
    volley(g, combat.hq(1), *everything(g, a), *everything(g, b))
    assert s.players[1].hq == 17
    assert (len(s.players[0].hand), len(s.players[0].deck)) == (hand + 1, deck - 1)


# RULE: GE-WIN-4
def test_the_celebration_draws_nothing_from_an_empty_deck() -> None:
    g = table(phase=FIRE)
    s = g.s
    (a,) = firing_line(g)
    s.players[0].discard += s.players[0].deck
    s.players[0].deck = []
    volley(g, combat.hq(1), *everything(g, a))
    assert s.players[1].hq == 6 and s.players[0].hand == [] and not g.over


def exhausted(g: GalacticEmpires) -> None:
    """Both decks emptied into the discard piles, then seat 1 (active, in its Discard phase)
    discards a card in play, so that something has just happened."""
    s = g.s
    for p in s.players:
        p.discard += p.deck
        p.deck = []
    g.apply(("discard", put(g, 1, "small_moon")))
    settle(g)


# RULE: GE-WIN-5
def test_ten_quiet_complete_turns_with_empty_decks_end_the_game() -> None:
    g = table(phase=DISCARD, active=1)
    s = g.s
    s.players[0].hq, s.players[1].hq = 3, 4
    put(g, 0, "moon")
    exhausted(g)
    next_turn(g)  # the first player's turn begins: the quiet turns are counted from here
    for _ in range(9):
        next_turn(g)
        next_turn(g)
        assert not g.over
    next_turn(g)
    next_turn(g)
    assert g.over and s.end == "stall" and g.winner == 0  # less HQ damage wins (GE-WIN-6)


# RULE: GE-WIN-5
def test_a_card_entering_play_restarts_the_stall_count() -> None:
    g = table(phase=DISCARD, active=1)
    s = g.s
    (late,) = give(g, 0, "moon")
    exhausted(g)
    next_turn(g)
    for _ in range(5):
        next_turn(g)
        next_turn(g)
    assert s.quiet_turns == 5
    g.apply(("allocate",))
    g.apply(("play", late, -1))
    settle(g)
    next_turn(g)
    next_turn(g)
    assert s.quiet_turns == 0  # that complete turn was not quiet
    for _ in range(9):
        next_turn(g)
        next_turn(g)
    assert not g.over and s.quiet_turns == 9  # 5, then 9: never 10 in a row
    next_turn(g)
    next_turn(g)
    assert g.over and s.end == "stall"


# RULE: GE-WIN-5
def test_hq_damage_restarts_the_stall_count() -> None:
    g = table(phase=DISCARD, active=1)
    s = g.s
    ship = put(g, 0, "argonian_sunspot")
    exhausted(g)
    next_turn(g)
    for _ in range(8):
        next_turn(g)
        next_turn(g)
    assert s.quiet_turns == 8
    s.players[0].pool = [0, 1, 1, 0, 0, 0]
    g.apply(("pay", ship))
    g.apply(("allocate",))
    settle(g)
    g.apply(("end",))
    volley(g, combat.hq(1), (ship, "phaser"))
    assert s.players[1].hq == 1
    next_turn(g)
    next_turn(g)
    assert s.quiet_turns == 0
    for _ in range(8):
        next_turn(g)
        next_turn(g)
    assert not g.over


# RULE: GE-WIN-5
def test_combining_and_separating_does_not_hold_off_the_stall_guard() -> None:
    g = table("quick", phase=DISCARD, active=1)
    s = g.s
    clipper = put(g, 1, "krebiz_clipper")
    combine(g, clipper, put(g, 1, "krebiz_light_capsule"))
    exhausted(g)
    for _ in range(12):
        next_turn(g)
        if g.over:
            break
        next_turn(g)  # seat 1's turn: part or join the two halves again
        g.apply(("allocate",))
        settle(g)
        moves = [a for a in g.legal_actions() if a[0] in ("separate", "combine")]
        assert moves
        g.apply(moves[0])
        settle(g)
    assert g.over and s.end == "stall"


# RULE: GE-WIN-5
def test_a_game_frozen_with_cards_left_in_a_deck_also_ends() -> None:
    # Both hands too big to draw (GE-DRAW-1) and nothing played: nothing can change any more.
    g = table("quick", phase=DISCARD, active=1)
    s = g.s
    for p in s.players:
        p.hand = [p.deck.pop() for _ in range(12)]
    assert all(p.deck for p in s.players)
    for _ in range(40):
        if g.over:
            break
        next_turn(g)
    assert g.over and s.end == "stall"


# RULE: GE-WIN-5
def test_no_stall_while_cards_are_drawn() -> None:
    # Nothing enters play and no HQ is hit, but hand cards are dropped and new ones drawn.
    g = dealt("full", 1)
    s = g.s
    for _ in range(24):
        while s.phase != DISCARD:
            step(g)
        for uid in sorted(s.players[s.active].hand)[:3]:
            g.apply(("drop", uid))
            settle(g)
        next_turn(g)
        assert not g.over
    assert s.quiet_turns == 0


# RULE: GE-WIN-6
def test_tie_break_less_hq_damage_then_protecting_strength_then_the_generator() -> None:
    g = table()
    s = g.s
    s.players[0].hq, s.players[1].hq = 7, 6
    turn.tie_break(s, "test")
    assert g.winner == 1 and s.end == "test" and g.over
    # equal damage: printed strength of engaged ships that protect their HQ
    g = table()
    s = g.s
    put(g, 0, "argonian_typhoon")  # 6
    put(g, 0, "argonian_whirlwind", engaged=False)  # disengaged: not counted
    claw = put(g, 1, "krebiz_claw")  # 5 ...
    put(g, 1, "krebiz_armor", on=claw)  # ... the armor's +1 is not printed strength
    anomaly_ship = put(g, 1, "krebiz_pincer")
    put(g, 0, "divergent_anomaly", on=anomaly_ship)  # not protecting: not counted
    turn.tie_break(s, "test")
    assert g.winner == 0
    # all equal: the seeded generator decides, the same way for the same seed
    winners = set()
    for seed in range(12):
        g = table(seed=seed)
        turn.tie_break(g.s, "test")
        again = table(seed=seed)
        turn.tie_break(again.s, "test")
        assert g.winner == again.winner
        winners.add(g.winner)
    assert winners == {0, 1}


# --------------------------------------------------------------------------- QUICK


# RULE: GE-QUICK-1
def test_quick_edition_has_no_command_limit() -> None:
    for edition in EDITIONS:
        g = table(edition)
        s = g.s
        s.players[0].slots = 0
        put(g, 0, "argonian_typhoon")
        put(g, 0, "argonian_whirlwind")
        (ship,) = give(g, 0, "argonian_blizzard")
        playable = any(a[1] == ship for a in legal(g, "play"))
        assert playable == (edition == "quick")


# RULE: GE-QUICK-2
def test_quick_edition_reserve_is_exactly_two_with_the_guides_default_first() -> None:
    g = GalacticEmpires.new("quick", seed=3)
    options = g.legal_actions()
    assert {len(a) - 1 for a in options} == {2}
    assert options[0] == ("reserve", "argonian_sunspot", "siobhan_7")
    with pytest.raises(IllegalAction) as err:
        g.apply(("reserve", "moon"))
    assert err.value.reason.startswith("GE-QUICK-2")
    g.apply(options[0])
    assert g.legal_actions()[0] == ("reserve", "krebiz_pincer", "siobhan_7")
    g.apply(g.legal_actions()[0])
    assert [sorted(g.s.spec(u).key for u in p.reserve) for p in g.s.players] == [
        ["argonian_sunspot", "siobhan_7"], ["krebiz_pincer", "siobhan_7"]]


# RULE: GE-QUICK-4
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_victory_celebration_is_full_edition_only(edition: str) -> None:
    g = table(edition, phase=FIRE)
    s = g.s
    (a,) = firing_line(g)
    volley(g, combat.hq(1), *everything(g, a))
    assert s.players[1].hq == 6
    assert len(s.players[0].hand) == (1 if edition == "full" else 0)


# RULE: GE-QUICK-5
@pytest.mark.parametrize("edition", EDITIONS)
def test_a_shuttlecrafts_phaser_may_fire_at_an_hq_only_in_full(edition: str) -> None:
    g = table(edition, phase=FIRE)
    ship = put(g, 0, "argonian_sunspot")
    shuttle = put(g, 0, "shuttlecraft", on=ship)
    g.apply(("aim", combat.hq(1)))
    adds = legal(g, "add")
    assert (ship, "phaser") in [a[1:] for a in adds]  # ships themselves always may
    assert ((shuttle, "phaser") in [a[1:] for a in adds]) == (edition == "full")


# RULE: GE-QUICK-6
@pytest.mark.parametrize("edition", EDITIONS)
def test_krebiz_durations_and_voids_are_the_same_in_both_editions(edition: str) -> None:
    g = table(edition, phase=DISCARD, active=1)
    s = g.s
    comet = put(g, 0, "biruks_comet")
    begin(g, 0)
    assert s.players[0].pool[4] == 2 and comet in s.units
    begin(g, 0)
    assert s.players[0].pool[4] >= 2 and comet not in s.units  # produced once more, then gone
    g2 = table(edition, active=1)
    clipper, light = give(g2, 1, "krebiz_clipper", "krebiz_light_capsule")
    assert ("pair", clipper, light, -2) in g2.legal_actions()


# --------------------------------------------------------------------------- OPT


# RULE: GE-OPT-1
def test_disengaged_ships_protect_the_hq_unless_the_option_is_on() -> None:
    for option, open_ in ((False, False), (True, True)):
        g = table(options={"disengaged_unprotected": option})
        put(g, 1, "krebiz_pincer", engaged=False)
        assert board.hq_open(g.s, 1) == open_
    g = table(options={"disengaged_unprotected": True})
    put(g, 1, "krebiz_pincer", engaged=True)
    assert not board.hq_open(g.s, 1)


# RULE: GE-OPT-2
@pytest.mark.parametrize("small,over", [(False, False), (True, True)])
def test_a_fifteen_point_hq_with_the_option(small: bool, over: bool) -> None:
    g = table(phase=FIRE, options={"small_hq": small})
    s = g.s
    (a,) = firing_line(g)
    s.players[1].hq = 9
    volley(g, combat.hq(1), *everything(g, a))
    assert s.players[1].hq >= 15 and g.over == over
    assert g.winner == (0 if over else None)


# RULE: GE-OPT-3
def test_the_turn_cap_ends_the_game_after_the_second_players_nth_turn() -> None:
    g = dealt("full", 0, turn_cap=3)
    s = g.s
    first, second = s.first, 1 - s.first
    started = []
    while not g.over and len(started) < 20:
        started.append((s.active, s.players[s.active].turns))
        next_turn(g)
    assert started == [(first, 1), (second, 1), (first, 2), (second, 2), (first, 3), (second, 3)]
    assert s.end == "turn cap" and g.winner in (0, 1)
    free = dealt("full", 0)
    for _ in range(8):
        next_turn(free)
    assert not free.over


# RULE: GE-OPT-3
def test_a_turn_cap_must_be_a_sensible_whole_number() -> None:
    for bad in (0, -3, 1001, 2.5, "9"):
        with pytest.raises(ValueError):
            GalacticEmpires.new(options={"turn_cap": bad})


# RULE: GE-OPT-4
def test_prepaired_capsules_wait_beside_the_reserve() -> None:
    g = GalacticEmpires.new(seed=2, options={"prepaired": True})
    s = g.s
    p = s.players[1]
    assert len(p.deck) == 45 and len(s.players[0].deck) == 46
    assert sorted(s.spec(u).key for u in p.aside) == sorted(capsule for _, capsule in KREBIZ_PAIRS)
    assert sorted((s.spec(a).key, s.spec(b).key) for a, b in p.pairs) == sorted(KREBIZ_PAIRS)
    g.apply(("reserve",))
    # a capsule set aside cannot be chosen for the reserve
    assert not any("capsule" in k for a in g.legal_actions() for k in a[1:])
    g.apply(("reserve",))
    for viewer in (0, 1, None):
        assert len(g.view(viewer)["players"][1]["aside"]) == 6
    where = zone_map(g)
    assert all(len(v) == 1 for v in where.values()) and len(where) == len(s.spec_of)


# RULE: GE-OPT-4
def test_a_prepaired_cruiser_enters_with_its_capsule_as_one_play_and_one_ship() -> None:
    g = table(active=1, turns=2, options={"prepaired": True})
    s = g.s
    p = s.players[1]
    cruiser, capsule = next((a, b) for a, b in p.pairs if s.spec(a).key == "krebiz_claw")
    p.deck.remove(cruiser)
    p.hand.append(cruiser)
    (mandible,) = give(g, 1, "krebiz_mandible")
    offered = [a for a in g.legal_actions() if a[0] in ("play", "pair") and a[1] == cruiser]
    assert offered and all(a[0] == "pair" and a[2] == capsule for a in offered)
    with pytest.raises(IllegalAction) as err:
        g.apply(("play", cruiser, -2))
    assert err.value.reason.startswith("GE-OPT-4")
    g.apply(("pair", cruiser, capsule, -2))
    settle(g)
    assert s.units[cruiser].partner == capsule and s.units[capsule].partner == cruiser
    assert board.strength(s, cruiser) == 7
    assert p.plays == 1 and capsule not in p.aside and [cruiser, capsule] not in p.pairs
    assert not any(a[1] == mandible for a in legal(g, "play"))  # that was the turn-2 ship
    next_turn(g)
    next_turn(g)
    g.apply(("allocate",))
    settle(g)
    # once in play they are two ordinary Krebiz cards: they may be separated as usual
    assert any(a[0] == "separate" and a[1] == cruiser for a in g.legal_actions())


# RULE: GE-OPT-4
def test_without_the_option_the_krebiz_deck_is_whole() -> None:
    g = GalacticEmpires.new(seed=2)
    p = g.s.players[1]
    assert len(p.deck) == 51 and p.aside == [] and p.pairs == []


# --------------------------------------------------------------------------- DIG


def plain(action: Any) -> bool:
    return (isinstance(action, tuple) and bool(action) and isinstance(action[0], str)
            and all(type(x) in (int, str) for x in action[1:]))


# RULE: GE-DIG-1
@pytest.mark.parametrize("edition", EDITIONS)
def test_actions_are_plain_values_listed_for_the_seat_to_move(edition: str) -> None:
    g = GalacticEmpires.new(edition=edition, seed=21)
    rng = random.Random(21)
    while not g.over and g.s.actions < 1500:
        acts = g.legal_actions()
        assert acts and all(plain(a) for a in acts) and len(set(acts)) == len(acts)
        for a in rng.sample(acts, min(3, len(acts))):
            assert g.parse(g.notation(a)) == a
        action = rng.choice(acts)
        mover = g.to_move
        assert mover in (0, 1)
        if mover is not None:
            with pytest.raises(IllegalAction):
                g.apply(action, player=1 - mover)  # only the seat to move may act
        g.apply(list(action), player=mover)  # the JSON (list) form is the same action
    assert g.over or g.s.actions >= 1500


# RULE: GE-DIG-3
def test_a_rejected_action_names_its_rule_and_changes_nothing() -> None:
    g = table(turns=1)
    s = g.s
    (ship,) = give(g, 0, "argonian_sunspot")
    moon_elsewhere = take(g, 0, "moon")
    s.players[0].discard.append(moon_elsewhere)
    cases = {
        ("play", ship, -1): "GE-TURN-5",
        ("play", moon_elsewhere, -1): "GE-ZONE-1",
        ("aim", combat.hq(1)): "GE-PHASE-4",
        ("pass",): "GE-REACT-6",
        ("drop", ship): "GE-PHASE-6",
        ("pay", ship): "GE-PTS-6",
        ("allocate", 5): "GE-DIG-1",
    }
    before = snapshot(g)
    for action, rule in cases.items():
        with pytest.raises(IllegalAction) as err:
            g.apply(action)
        assert err.value.reason.startswith(rule), (action, err.value.reason)
        assert err.value.rule == rule
        assert snapshot(g) == before
    with pytest.raises(IllegalAction) as err:
        g.apply(("end",), player=1)  # the engine lists actions only for the seat to move (GE-DIG-1)
    assert err.value.reason.startswith("GE-DIG-1") and snapshot(g) == before
    for junk in ((), "end", ("play", 1.5), ("play", [1]), [7]):
        with pytest.raises(IllegalAction) as err:
            g.apply(junk)
        assert err.value.reason.startswith("GE-DIG-1")
    assert snapshot(g) == before


# RULE: GE-DIG-4
def test_choices_inside_an_effect_are_part_of_the_action() -> None:
    g = table(active=1)
    s = g.s
    claw = put(g, 1, "krebiz_claw")
    capsule = put(g, 1, "krebiz_heavy_capsule")
    combine(g, claw, capsule)
    s.units[claw].shield_damage, s.units[claw].damage = 1, 1
    splits = [a for a in g.legal_actions() if a[0] == "separate"]
    # the damage split is the player's choice, one action per legal way of splitting (the
    # shield point can only go to the capsule: the Claw has no shields)
    assert {a[2:4] for a in splits} == {(1, 0), (1, 1)}
    results = set()
    for a in splits:
        copy = g.clone()
        copy.apply(a)
        settle(copy)
        u = copy.s.units
        results.add((u[claw].shield_damage, u[claw].damage, u[capsule].shield_damage, u[capsule].damage))
    assert results == {(0, 1, 1, 0), (0, 0, 1, 1)}
    # where the engine proposes a choice, the proposal comes first (the quick reserve)
    q = GalacticEmpires.new("quick")
    assert q.legal_actions()[0][1:] == turn.default_reserve(q.s, 0)


# RULE: GE-DIG-4
def test_the_escape_pod_asks_which_crew_it_saves() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon")
    clipper = put(g, 1, "krebiz_clipper")
    moon = put(g, 1, "moon")
    put(g, 1, "escape_pod", on=clipper)
    for key in ("technician", "doctor", "crewman", "boarding_party"):
        put(g, 1, key, on=clipper)
    g.apply(("aim", clipper))
    for _ in range(3):
        g.apply(("add", typhoon, "phaser"))
    g.apply(("fire",))
    assert s.priority == 1
    to_moon = [a for a in g.legal_actions() if a[0] == "use" and moon in a[3:]]
    assert len(to_moon) >= 4  # one action per choice of three crew out of four
    assert to_moon[0][-1] == 0b111  # the default proposed first: the first three
    g.apply(to_moon[-1])  # the last choice leaves the first crew aboard
    while s.priority is not None:
        g.apply(("pass",))
    stayed = [u.uid for u in s.units.values() if u.parent == clipper and s.spec(u.uid).kind == "crew"]
    moved = [u.uid for u in s.units.values() if u.parent == moon and s.spec(u.uid).kind == "crew"]
    assert clipper not in s.units or stayed, (stayed, moved)
    assert len(moved) == bin(to_moon[-1][-1]).count("1")


# --------------------------------------------------------------------------- secrecy (DIG-2)


def hidden_swap(g: GalacticEmpires, seat: int, rng: random.Random) -> GalacticEmpires:
    """A copy in which ``seat``'s hidden cards (its hand but the cards seen going there, its
    deck, a reserve not yet public) are dealt out again at random, sizes kept."""
    copy = g.clone()
    p = copy.s.players[seat]
    hand = [u for u in p.hand if u not in p.shown]
    secret_reserve = [] if p.reserve_public else list(p.reserve)
    pool = hand + p.deck + secret_reserve
    rng.shuffle(pool)
    p.hand = [u for u in p.hand if u in p.shown] + pool[:len(hand)]
    p.deck = pool[len(hand):len(hand) + len(p.deck)]
    if not p.reserve_public:
        p.reserve = pool[len(hand) + len(p.deck):]
    return copy


def deck_shuffle(g: GalacticEmpires, seat: int, rng: random.Random) -> GalacticEmpires:
    copy = g.clone()
    rng.shuffle(copy.s.players[seat].deck)
    return copy


# RULE: GE-DIG-2
# RULE: GE-ZONE-1
@pytest.mark.parametrize("edition", EDITIONS)
def test_a_seat_cannot_tell_the_opponents_hand_or_any_deck_order(edition: str) -> None:
    rng = random.Random(7)
    changed = 0
    for seed in range(3):
        g = GalacticEmpires.new(edition=edition, seed=seed)
        play = random.Random(seed)
        while not g.over and g.s.actions < 700:
            if g.s.actions % 5 == 0:
                mine = g.view(0)
                assert deck_shuffle(g, 0, rng).view(0) == mine  # not even one's own deck order
                for variant in (hidden_swap(g, 1, rng), deck_shuffle(g, 1, rng)):
                    assert variant.view(0) == mine
                    changed += variant.s.players[1].hand != g.s.players[1].hand
                    if g.to_move == 0:
                        acts = g.legal_actions()
                        assert variant.legal_actions() == acts
                        a = play.choice(acts)
                        after, other = g.clone(), variant
                        after.apply(a)
                        other.apply(a)
                        assert other.view(0) == after.view(0)  # also what follows (windows ...)
            acts = g.legal_actions()
            busy = [a for a in acts if a[0] not in ("end", "pass", "quiet")]
            g.apply(play.choice(busy) if busy and play.random() < 0.8 else play.choice(acts))
    assert changed > 20  # the variants really hid something


# RULE: GE-DIG-2
def test_the_view_shows_what_the_seat_may_know() -> None:
    g = table(phase=DISCARD)
    s = g.s
    mine = give(g, 0, "moon", "doctor")
    theirs = give(g, 1, "krebiz_claw", "illness")
    (comet,) = reserve(g, 1, "biruks_comet")
    ship = put(g, 1, "krebiz_pincer", shield_damage=0, damage=1)
    v = g.view(0)
    me, them = v["players"]
    assert sorted(c["uid"] for c in me["hand"]) == sorted(mine)
    assert them["hand"] == [] and them["hand_size"] == 2  # the size, never the cards
    assert me["deck"] == len(s.players[0].deck) and them["deck"] == len(s.players[1].deck)
    assert [c["uid"] for c in them["reserve"]] == [comet]
    assert any(u["uid"] == ship and u["damage"] == 1 for u in v["units"])
    assert them["hq"] == 0 and "chain" in v
    text = json.dumps(v)
    assert all(f'"uid": {u}' not in text for u in theirs)
    assert all(f'"uid": {u},' not in text for u in s.players[0].deck + s.players[1].deck)
    # a spectator sees no hand at all
    assert all(p["hand"] == [] for p in g.view(None)["players"])
    # a card everyone saw going into a hand stays known
    s.players[1].shown.append(theirs[0])
    assert [c["uid"] for c in g.view(0)["players"][1]["hand"]] == [theirs[0]]


# RULE: GE-DIG-2
# RULE: GE-ZONE-5
def test_the_view_shows_every_counter_of_a_card_in_play() -> None:
    g = table()
    ship = put(g, 1, "krebiz_pincer", shield_damage=0, damage=1, loaded=2, age=0, used=True)
    (u,) = [x for x in g.view(0)["units"] if x["uid"] == ship]
    for name in ("owner", "against", "engaged", "shield_damage", "damage", "card_damage", "loaded",
                 "fired_phasers", "fired_heavy", "empty", "age", "used", "paid", "new", "partner", "locked"):
        assert name in u, name
    assert (u["owner"], u["damage"], u["loaded"], u["used"], u["on"]) == (1, 1, 2, True, None)


# RULE: GE-DIG-2
def test_a_card_seen_going_into_a_hand_is_not_shown_there_once_it_left() -> None:
    g = table(active=1)
    s = g.s
    (comet,) = reserve(g, 1, "biruks_comet")
    (moon,) = give(g, 1, "moon")
    g.apply(("swap", moon, comet))
    settle(g)
    assert [c["uid"] for c in g.view(0)["players"][1]["hand"]] == [comet]  # seen coming out
    (other,) = reserve(g, 1, "small_moon")
    s.players[1].plays = 0
    g.apply(("swap", comet, other))
    settle(g)
    hand_seen = [c["uid"] for c in g.view(0)["players"][1]["hand"]]
    assert comet not in hand_seen and comet in s.players[1].reserve
    assert hand_seen == [other]


# RULE: GE-DIG-2
@pytest.mark.parametrize("edition", EDITIONS)
def test_determinize_keeps_everything_the_seat_sees(edition: str) -> None:
    g = GalacticEmpires.new(edition=edition, seed=13)
    play = random.Random(13)
    redrawn = 0
    while not g.over and g.s.actions < 600:
        if g.s.actions % 9 == 0:
            for seat in (0, 1):
                d = g.determinize(seat, random.Random(g.s.actions))
                assert d.view(seat) == g.view(seat)
                if g.to_move == seat:
                    assert d.legal_actions() == g.legal_actions()
                other = d.s.players[1 - seat]
                redrawn += other.hand != g.s.players[1 - seat].hand
                assert sorted(other.hand + other.deck) == sorted(
                    g.s.players[1 - seat].hand + g.s.players[1 - seat].deck)
        acts = g.legal_actions()
        busy = [a for a in acts if a[0] not in ("end", "pass", "quiet")]
        g.apply(play.choice(busy) if busy and play.random() < 0.8 else play.choice(acts))
    assert redrawn > 10


# --------------------------------------------------------------------------- random play


PLACED = {"ship", "base", "terrain"}  # cards that never move between locations (GE-ZONE-7)


HOSTILE = ("pay", "load", "add", "fire", "play", "pair", "shoot")


def casual(g: GalacticEmpires, rng: random.Random) -> Any:
    """Mostly anything but ending or passing."""
    acts = g.legal_actions()
    busy = [a for a in acts if a[0] not in ("end", "pass", "quiet", "allocate", "drop", "discard")]
    return rng.choice(busy) if busy and rng.random() < 0.8 else rng.choice(acts)


def hostile(g: GalacticEmpires, rng: random.Random) -> Any:
    """Build up and fire at a Sector HQ whenever one is open; never throw own cards away."""
    acts = g.legal_actions()
    at_hq = [a for a in acts if a[0] == "aim" and a[1] < 0]
    if at_hq:
        return at_hq[0]
    busy = [a for a in acts if a[0] in HOSTILE]
    if busy and rng.random() < 0.9:
        return rng.choice(busy)
    return rng.choice([a for a in acts if a[0] not in ("discard", "drop")] or acts)


def test_random_play_never_breaks_the_engine() -> None:
    """Random legal actions in both editions, with and without options: no exception, every
    game ends, and the bookkeeping holds after every action."""
    games = 0
    ends: dict[str, int] = {}
    runs = [(edition, seed, casual) for edition in EDITIONS for seed in range(50)]
    runs += [(edition, seed, hostile) for edition in EDITIONS for seed in range(8)]
    for edition, seed, policy in runs:
        options = {"prepaired": seed % 3 == 0, "small_hq": seed % 4 == 1 or policy is hostile,
                   "disengaged_unprotected": seed % 5 == 2}
        g = GalacticEmpires.new(edition=edition, seed=seed, options=options)
        s = g.s
        rng = random.Random(1000 + seed)
        total = len(s.spec_of)
        hq = [0, 0]
        deck = [len(p.deck) for p in s.players]
        piles: list[list[int]] = [[], []]
        parents: dict[int, int | None] = {}
        order = (SETUP, ALLOCATE, PLAY_A, FIRE, PLAY_B, DISCARD)
        where_in_turn = (s.active, 0, 0)
        while not g.over:
            assert s.actions < 20000, "the game does not end"
            assert g.legal_actions() and g.to_move is not None
            g.apply(policy(g, rng))
            # RULE: GE-ZONE-1
            where = zone_map(g)
            assert len(where) == total and all(len(v) == 1 for v in where.values()), \
                {u: v for u, v in where.items() if len(v) != 1}
            for seat, p in enumerate(s.players):
                assert all(s.owner_of[u] == seat for u in p.discard + p.hand + p.deck + p.reserve)
                # RULE: GE-ZONE-6
                assert p.discard[:len(piles[seat])] == piles[seat]
                piles[seat] = list(p.discard)
                # RULE: GE-DMG-5
                assert p.hq >= hq[seat]
                hq[seat] = p.hq
                # RULE: GE-DRAW-3
                assert len(p.deck) <= deck[seat]
                deck[seat] = len(p.deck)
            # RULE: GE-TURN-1
            if not g.over:
                here = (s.active, s.players[s.active].turns, order.index(s.phase))
                assert here[:2] != where_in_turn[:2] or here[2] >= where_in_turn[2]
                where_in_turn = here
            # RULE: GE-ZONE-7
            now = {uid: u.parent for uid, u in s.units.items() if s.spec(uid).kind in PLACED}
            for uid, parent in now.items():
                if uid in parents and parents[uid] != parent:
                    assert parents[uid] not in s.units or s.spec(uid).cls.split("_")[0] in ("cruiser", "capsule")
            parents = now
        games += 1
        ends[s.end] = ends.get(s.end, 0) + 1
        assert s.winner in (0, 1) and g.returns() in ([1.0, -1.0], [-1.0, 1.0])
        assert not s.chain and s.priority is None and g.legal_actions() == []
        if s.end == "hq":  # GE-WIN-1: the eliminated seat has nothing left in play
            assert not board.fleet(s, 1 - s.winner)
    assert games == len(runs)
    assert ends.get("hq", 0) >= 2 and ends.get("stall", 0) >= 50  # both ways of ending came up


# RULE: GE-DIG-2
def test_a_position_made_for_a_seat_does_not_carry_the_seed() -> None:
    """The seed fixes every shuffle, so the canonical position a bot receives and every
    determinization hold none: from it a seat could compute both decks and the other hand."""
    from starcom.games import get
    g = GalacticEmpires.new(seed=424242)
    while g.s.phase == "setup":
        g.apply(g.legal_actions()[0])
    observer = get("ge").observer
    for seat in (0, 1):
        assert observer.canonical(g, seat).to_json()["state"]["seed"] != 424242
        assert g.determinize(seat, random.Random(1)).s.seed != 424242
    assert g.s.seed == 424242  # the game itself keeps it (saves replay from it)
