"""Galactic Empires weapons fire, damage, stacks, voids and the Indirigan and Argonian ship rules
(GE-FIRE-*, GE-DMG-*, GE-STACK-*, GE-IND-*, GE-SHIPS-*, GE-VOID-*), pinned on real positions.

Positions are built with :mod:`tests.ge.build` (seat 0 Argonian, seat 1 Krebiz) and played
through the public ``apply`` where a rule concerns a player's choice; a few engine entry points
(``combat.hit``, ``board.leave``, ``turn.start_turn``) are called directly where the rule is
about that one step.
"""
from __future__ import annotations

from typing import Any

import pytest

from starcom.ge import board, combat, points, turn
from starcom.ge.cards import BY_KEY
from starcom.ge.cards.effects import Effect
from starcom.ge.ruleset import standard
from starcom.ge.cards.escort import Escort
from starcom.ge.game import GalacticEmpires, IllegalAction
from starcom.ge.state import FIRE, OVER, PLAY_A, PLAY_B

from .build import combine, give, legal, put, table

P, H = combat.PHASER, combat.HEAVY
HQ0, HQ1 = combat.hq(0), combat.hq(1)


# --------------------------------------------------------------------------- helpers


def settle(g: GalacticEmpires) -> list[Any]:
    """Pass every reaction window still open; the events that followed."""
    events: list[Any] = []
    while g.s.priority is not None and g.s.phase != OVER:
        events += g.apply(("pass",))
    return events


def declare(g: GalacticEmpires, target: int, *weapons: tuple[int, str]) -> list[Any]:
    """Aim, add the weapons one by one and fire (the window, if any, is left open)."""
    g.apply(("aim", target))
    for uid, kind in weapons:
        g.apply(("add", uid, kind))
    return g.apply(("fire",))


def volley(g: GalacticEmpires, target: int, *weapons: tuple[int, str]) -> list[Any]:
    """A whole volley, every reaction window passed."""
    return declare(g, target, *weapons) + settle(g)


def gift(g: GalacticEmpires, uid: int, seat: int) -> None:
    """Hand a card in play over to ``seat`` (only to build positions Deck A cannot reach)."""
    g.s.owner_of[uid] = seat
    g.s.units[uid].owner = seat


def big_ship(g: GalacticEmpires, seat: int = 0) -> tuple[int, int]:
    """A Krebiz Claw + Heavy Capsule (strength 7) in ``seat``'s fleet: (cruiser, capsule)."""
    claw, cap = put(g, 1, "krebiz_claw"), put(g, 1, "krebiz_heavy_capsule")
    gift(g, claw, seat)
    gift(g, cap, seat)
    combine(g, claw, cap)
    return claw, cap


@pytest.fixture
def escort_effect() -> Escort:
    """The Warm Front Escort's effect unit, as the catalogue registers it."""
    unit = standard().effect(BY_KEY["argonian_warm_front"].index)
    assert isinstance(unit, Escort)
    return unit


# --------------------------------------------------------------------------- FIRE


# RULE: GE-FIRE-1
def test_fire_phase_begins_with_nothing_automatic_then_one_volley_at_a_time() -> None:
    g = table(phase=PLAY_A)
    typhoon = put(g, 0, "argonian_typhoon", loaded=2)
    claw = put(g, 1, "krebiz_claw")
    g.apply(("end",))
    s = g.s
    assert s.phase == FIRE
    assert all(u.damage == u.shield_damage == 0 for u in s.units.values()) and s.players[1].hq == 0
    assert ("aim", claw) in g.legal_actions()
    g.apply(("aim", claw))
    # while one volley is being declared no second target can be opened, nor the phase ended
    kinds = {a[0] for a in g.legal_actions()}
    assert kinds == {"add"}
    g.apply(("add", typhoon, P))
    assert {a[0] for a in g.legal_actions()} == {"add", "fire"}


# RULE: GE-FIRE-2
def test_volley_declared_then_window_then_damage() -> None:
    g = table(phase=FIRE)
    typhoon = put(g, 0, "argonian_typhoon", loaded=2)
    idle = put(g, 0, "argonian_sunspot", engaged=False, loaded=1)
    capsule = put(g, 1, "krebiz_light_capsule")  # 3 shields, strength 1: 4 points kill it
    mandible = put(g, 1, "krebiz_mandible")
    shuttle, = give(g, 1, "shuttlecraft")  # it could fire back from hand, so seat 1 gets a window
    g.apply(("aim", capsule))
    offered = {a[1] for a in legal(g, "add")}
    assert offered == {typhoon}  # only engaged cards of the player's fleet
    # six weapons at a target four points destroy: over-declaring is allowed
    for kind in (P, P, P, P, H, H):
        g.apply(("add", typhoon, kind))
    g.apply(("fire",))
    s = g.s
    assert s.priority == 1  # the opponent's window comes before any damage
    assert s.units[capsule].shield_damage == 0
    assert ("play", shuttle, mandible, "fire", typhoon) in g.legal_actions()  # it could fire back
    g.apply(("pass",))
    assert s.priority is None  # the firing player gets no window of its own
    assert capsule not in s.units and capsule in s.players[1].discard
    assert s.units[idle].fired_phasers == 0


# RULE: GE-FIRE-3
def test_one_volley_per_target_and_weapons_split_over_volleys() -> None:
    g = table(phase=FIRE)
    typhoon = put(g, 0, "argonian_typhoon")
    claw = put(g, 1, "krebiz_claw")
    pincer = put(g, 1, "krebiz_pincer")
    volley(g, claw, (typhoon, P), (typhoon, P))
    assert g.s.units[claw].damage == 2  # the claw survives (strength 5)
    assert ("aim", claw) not in g.legal_actions()
    with pytest.raises(IllegalAction) as err:
        g.apply(("aim", claw))
    assert err.value.reason.startswith("GE-FIRE-3")
    volley(g, pincer, (typhoon, P), (typhoon, P))  # the same ship's other phasers elsewhere
    assert g.s.units[pincer].damage == 2


# RULE: GE-FIRE-4
def test_each_weapon_once_per_phase_phasers_need_an_engaged_card() -> None:
    g = table(phase=FIRE)
    typhoon = put(g, 0, "argonian_typhoon")
    sleeper = put(g, 0, "argonian_blizzard", engaged=False)
    claw = put(g, 1, "krebiz_claw")  # no shields: each phaser shows as 1 structural point
    pincer = put(g, 1, "krebiz_pincer")
    g.apply(("aim", claw))
    for _ in range(3):
        g.apply(("add", typhoon, P))
    assert all(a[1] != sleeper for a in legal(g, "add"))  # disengaged: its phasers stay silent
    g.apply(("fire",))
    settle(g)
    assert g.s.units[claw].damage == 3  # 1 damage per phaser
    g.apply(("aim", pincer))
    assert [a for a in legal(g, "add") if a[2] == P] == [("add", typhoon, P)]  # one phaser left of 4
    g.apply(("add", typhoon, P))
    assert not [a for a in legal(g, "add") if a[2] == P]


# RULE: GE-FIRE-4
# RULE: GE-REACT-8
def test_phasers_fired_in_one_weapons_fire_phase_fire_again_in_the_next() -> None:
    """Each phaser fires once per Weapons Fire phase: the Claw's two, fired in seat 1's phase,
    cannot fire back in seat 0's (a card in play never does, GE-REACT-8) and fire again in seat
    1's next one."""
    g = table(phase=FIRE, active=1)
    s = g.s
    claw = put(g, 1, "krebiz_claw")
    moon = put(g, 0, "moon")
    typhoon = put(g, 0, "argonian_typhoon")
    give(g, 1, "shuttlecraft")  # a reaction card in hand: seat 1 gets a window on seat 0's volley
    volley(g, typhoon, (claw, P), (claw, P))  # seat 1 uses both phasers in its own phase
    assert s.units[claw].fired_phasers == 2
    assert not [a for a in legal(g, "add") if a[1] == claw]

    def on_to_fire(seat: int) -> None:
        while not (s.phase == FIRE and s.active == seat):
            if s.priority is not None:
                g.apply(("pass",))
            elif s.phase == "allocate":
                for card in (typhoon, claw):
                    if ("pay", card) in g.legal_actions():
                        g.apply(("pay", card))
                g.apply(("allocate",))
            else:
                if s.phase == PLAY_A and s.active == 1:
                    s.units[claw].engaged = True  # stands for its cost paid (seat 1 has no terrain)
                g.apply(("end",))

    on_to_fire(0)
    assert moon in s.units and s.units[typhoon].engaged
    declare(g, claw, (typhoon, P))
    assert s.priority == 1
    assert not [a for a in g.legal_actions() if a[0] == "shoot" or a[1:2] == (claw,)]
    on_to_fire(1)
    assert s.units[claw].engaged
    g.apply(("aim", typhoon))
    assert [a for a in legal(g, "add") if a[1] == claw] == [("add", claw, P)]
    g.apply(("add", claw, P))
    assert [a for a in legal(g, "add") if a[1] == claw] == [("add", claw, P)]  # its second phaser


# RULE: GE-FIRE-5
def test_heavy_weapons_need_a_load_and_an_engaged_card_and_alone_hurt_terrain() -> None:
    g = table(phase=FIRE)
    empty = put(g, 0, "argonian_whirlwind", loaded=0)
    one = put(g, 0, "argonian_blizzard", loaded=1)
    idle = put(g, 0, "argonian_typhoon", engaged=False, loaded=2)
    moon = put(g, 1, "moon")
    g.apply(("aim", moon))
    heavy = [a for a in legal(g, "add") if a[2] == H]
    assert heavy == [("add", one, H)]  # not the unloaded one, not the disengaged one
    g.apply(("add", one, H))
    assert not [a for a in legal(g, "add") if a[2] == H]  # one load, one shot
    g.apply(("add", empty, P))
    g.apply(("fire",))
    settle(g)
    assert g.s.units[moon].damage == 1  # the heavy point; the phaser did nothing to terrain
    assert g.s.units[idle].fired_heavy == 0


# RULE: GE-FIRE-6
def test_a_load_lasts_until_fired_or_the_controllers_next_allocation() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon", loaded=2)
    claw = put(g, 1, "krebiz_claw")
    volley(g, claw, (typhoon, H))
    u = s.units[typhoon]
    assert (u.loaded, u.fired_heavy) == (2, 1)
    turn.start_turn(s, 1)  # the opponent's turn does not unload it
    assert s.units[typhoon].loaded - s.units[typhoon].fired_heavy == 1
    turn.start_turn(s, 0)  # its controller's next Allocation phase does
    assert (s.units[typhoon].loaded, s.units[typhoon].fired_heavy) == (0, 0)
    # a heavy weapon holds one load: a fully loaded card is not offered another
    s.units[typhoon].paid = True
    s.units[typhoon].loaded = 2
    s.players[0].pool[points.AMMO] = 3
    assert typhoon not in points.loadable(s)
    s.units[typhoon].loaded = 1
    assert typhoon in points.loadable(s)


# RULE: GE-FIRE-7
def test_one_shot_phaser_fires_once_and_stays_empty_until_rearmed() -> None:
    g = table(phase=FIRE)
    s = g.s
    ship = put(g, 0, "argonian_sunspot", engaged=False)  # the carrying unit is disengaged
    shuttle = put(g, 0, "shuttlecraft", on=ship)
    claw = put(g, 1, "krebiz_claw")
    assert combat.weapons(s, shuttle) == [P]  # passive: it fires from a disengaged unit
    volley(g, claw, (shuttle, P))
    assert s.units[claw].damage == 1
    sh = s.units[shuttle]
    assert sh.empty and sh.used  # fired, and its one function for the turn is gone
    turn.start_turn(s, 0)
    turn.engage(s)
    assert s.units[shuttle].empty and combat.weapons(s, shuttle) == []  # nothing rearmed it


# RULE: GE-FIRE-7
def test_rearming_never_gives_a_second_shot_in_the_same_turn() -> None:
    g = table(phase=FIRE)
    s = g.s
    carrier = put(g, 0, "indirigan_light_carrier")
    shuttle = put(g, 0, "shuttlecraft", on=carrier)
    moon = put(g, 1, "moon")
    claw = put(g, 1, "krebiz_claw")
    volley(g, moon, (shuttle, P))
    s.effect(s.units[carrier]).engagement(s, s.units[carrier])  # a rearm, as in an Engagement phase
    assert not s.units[shuttle].empty
    assert combat.weapons(s, shuttle) == []
    g.apply(("aim", claw))
    assert all(a[1] != shuttle for a in legal(g, "add"))


# RULE: GE-FIRE-8
def test_standard_targets_only() -> None:
    g = table(phase=FIRE)
    s = g.s
    put(g, 0, "argonian_typhoon", loaded=2)
    mine = put(g, 0, "argonian_sunspot")
    moon = put(g, 1, "moon")
    planet = put(g, 1, "siobhan_7")
    sats = put(g, 1, "defensive_satellites", on=planet)
    claw = put(g, 1, "krebiz_claw", on=moon)
    tech = put(g, 1, "technician", on=claw)
    cargo = put(g, 1, "cargo", on=claw)
    guardian = put(g, 1, "invinco_guardian", on=claw)
    lucky = put(g, 1, "lucky_crew_action", on=tech)
    eel = put(g, 0, "small_phaser_eel", on=claw)
    anomaly = put(g, 0, "divergent_anomaly", on=claw)
    illness = put(g, 0, "illness", on=tech)
    vertigo = put(g, 0, "space_vertigo", on=tech)
    aims = {a[1] for a in legal(g, "aim")}
    assert {moon, claw, sats, eel, guardian, mine} <= aims
    assert not aims & {tech, cargo, lucky, anomaly, illness, vertigo, planet}
    assert s.spec(eel).kind == s.spec(guardian).kind == "monster"


# RULE: GE-FIRE-9
def test_friendly_fire_never_at_itself_and_bases_cover_their_terrain() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon")
    sunspot = put(g, 0, "argonian_sunspot")
    planet = put(g, 1, "siobhan_7")
    put(g, 1, "planetary_shield", on=planet, engaged=False)  # a disengaged base still covers
    moon = put(g, 1, "moon")
    put(g, 1, "krebiz_claw", on=moon)  # a ship does not cover its terrain
    aims = {a[1] for a in legal(g, "aim")}
    assert sunspot in aims and typhoon in aims  # own ships may be fired at
    assert planet not in aims and moon in aims
    g.apply(("aim", sunspot))
    assert {a[1] for a in legal(g, "add")} == {typhoon}  # the target adds none of its own weapons
    g.apply(("add", typhoon, P))
    g.apply(("fire",))
    settle(g)
    assert s.units[sunspot].shield_damage == 1


# RULE: GE-FIRE-10
def test_sector_hq_only_when_unprotected_and_only_by_ships() -> None:
    g = table(phase=FIRE)
    s = g.s
    terrain = put(g, 0, "siobhan_7")
    sats = put(g, 0, "defensive_satellites", on=terrain)
    typhoon = put(g, 0, "argonian_typhoon")
    shuttle = put(g, 0, "shuttlecraft", on=typhoon)
    lone = put(g, 1, "krebiz_pincer", engaged=False)
    assert ("aim", HQ1) not in g.legal_actions()  # a disengaged ship still protects
    assert ("aim", HQ0) not in g.legal_actions()  # never one's own HQ
    board.leave(s, lone)
    assert ("aim", HQ1) in g.legal_actions()
    g.apply(("aim", HQ1))
    adders = {a[1] for a in legal(g, "add")}
    assert typhoon in adders and shuttle in adders  # full edition: equipment on a ship too
    assert sats not in adders  # bases never fire at a Sector HQ


# RULE: GE-FIRE-10
def test_divergent_anomaly_opens_the_hq_also_behind_a_combined_krebiz_ship() -> None:
    g = table(phase=FIRE)
    s = g.s
    put(g, 0, "argonian_typhoon")
    claw, cap = put(g, 1, "krebiz_claw"), put(g, 1, "krebiz_heavy_capsule")
    combine(g, claw, cap)
    assert not combat.is_target(s, HQ1, 0)
    put(g, 0, "divergent_anomaly", on=claw)
    assert not board.protects_hq(s, claw) and not board.protects_hq(s, cap)
    assert ("aim", HQ1) in g.legal_actions()


# RULE: GE-FIRE-10
def test_shuttle_on_terrain_never_fires_at_hq_and_quick_edition_keeps_equipment_out() -> None:
    g = table(phase=FIRE)
    s = g.s
    moon = put(g, 0, "moon")
    grounded = put(g, 0, "shuttlecraft", on=moon)
    assert not combat.may_fire_at(s, grounded, HQ1)
    q = table(edition="quick", phase=FIRE)
    typhoon = put(q, 0, "argonian_typhoon")
    shuttle = put(q, 0, "shuttlecraft", on=typhoon)
    q.apply(("aim", HQ1))
    adders = {a[1] for a in legal(q, "add")}
    assert typhoon in adders and shuttle not in adders


# RULE: GE-FIRE-11
# RULE: GE-IND-2
def test_indirigan_tribe_rule_limits_targets_of_its_own_weapons() -> None:
    g = table(phase=FIRE)
    s = g.s
    nomads = put(g, 0, "indirigan_nomads", loaded=1)
    shuttle = put(g, 0, "shuttlecraft", on=nomads)
    claw = put(g, 1, "krebiz_claw")
    moon = put(g, 1, "moon")
    planet = put(g, 1, "siobhan_7")
    sats = put(g, 1, "defensive_satellites", on=planet)
    their_carrier = put(g, 1, "indirigan_light_carrier")
    eel = put(g, 1, "small_phaser_eel", on=nomads)
    for forbidden in (claw, sats):
        assert not combat.may_fire_at(s, nomads, forbidden)
    for allowed in (their_carrier, moon, eel):
        assert combat.may_fire_at(s, nomads, allowed)
    assert combat.may_fire_at(s, shuttle, claw)  # equipment on it is not bound (ruling)
    g.apply(("aim", claw))
    assert {a[1] for a in legal(g, "add")} == {shuttle}
    g2 = table(phase=FIRE)
    nomads2 = put(g2, 0, "indirigan_nomads")
    claw2 = put(g2, 1, "krebiz_claw")
    assert combat.may_fire_at(g2.s, nomads2, claw2)  # no opponent Indirigan ship: free to fire
    assert combat.may_fire_at(g2.s, nomads2, HQ1)


# RULE: GE-IND-1
def test_each_player_has_one_tribe_and_only_the_opponents_tribe_restricts() -> None:
    g = table(phase=FIRE)
    s = g.s
    nomads = put(g, 0, "indirigan_nomads")
    put(g, 0, "indirigan_light_carrier")  # the same tribe: no restriction from it
    claw = put(g, 1, "krebiz_claw")
    assert combat.may_fire_at(s, nomads, claw)
    theirs = put(g, 1, "indirigan_nomads")  # the opponent's Indirigan ships: another tribe
    assert not combat.may_fire_at(s, nomads, claw)
    assert combat.may_fire_at(s, nomads, theirs)
    board.leave(s, theirs)
    assert combat.may_fire_at(s, nomads, claw)


# RULE: GE-FIRE-12
def test_volley_damage_before_defences() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon", loaded=2)
    eel_ship = put(g, 0, "argonian_blizzard", loaded=1)
    eel = put(g, 1, "small_phaser_eel", on=eel_ship)
    shuttle = put(g, 0, "shuttlecraft", on=eel_ship)
    claw = put(g, 1, "krebiz_claw")
    moon = put(g, 1, "moon")
    assert combat.damage_of(s, typhoon, P, claw) == 1 and combat.damage_of(s, typhoon, H, claw) == 1
    assert combat.damage_of(s, eel_ship, P, claw) == 0  # an Eel on the firing unit
    assert combat.damage_of(s, shuttle, P, claw) == 0  # ... a shuttlecraft there too (ruling)
    assert combat.damage_of(s, eel_ship, H, claw) == 1  # heavy weapons are not phasers
    assert combat.damage_of(s, typhoon, P, moon) == 0 and combat.damage_of(s, typhoon, P, eel) == 0
    volley(g, claw, (typhoon, P), (typhoon, H), (eel_ship, P), (eel_ship, H), (shuttle, P))
    assert s.units[claw].damage == 3


# RULE: GE-FIRE-12
# RULE: GE-IND-3
def test_fuser_mechanism_doubles_boomerangs_of_its_engaged_ship() -> None:
    g = table(phase=PLAY_A)
    s = g.s
    nomads = put(g, 0, "indirigan_nomads", loaded=1)
    [fuser] = give(g, 0, "fuser_mechanism")
    claw = put(g, 1, "krebiz_claw")
    g.apply(("play", fuser, nomads))
    settle(g)
    assert s.units[fuser].engaged
    assert combat.damage_of(s, nomads, H, claw) == 2
    assert combat.damage_of(s, nomads, P, claw) == 1  # phasers are not doubled
    g.apply(("end",))
    volley(g, claw, (nomads, H))
    assert s.units[claw].damage == 2
    assert fuser not in s.units and fuser in s.players[0].discard  # gone once the boomerang fired


# RULE: GE-IND-3
def test_fuser_mechanism_on_a_disengaged_ship_does_nothing() -> None:
    g = table(phase=PLAY_A)
    s = g.s
    nomads = put(g, 0, "indirigan_nomads", engaged=False, loaded=1)
    [fuser] = give(g, 0, "fuser_mechanism")
    claw = put(g, 1, "krebiz_claw")
    g.apply(("play", fuser, nomads))
    settle(g)
    assert not s.units[fuser].engaged  # non-passive: it takes its ship's state
    s.units[nomads].engaged = True  # even were the ship to fire, the fuser would not work
    assert combat.damage_of(s, nomads, H, claw) == 1


# RULE: GE-FIRE-13
def test_volley_is_lost_when_its_target_left_and_the_load_is_spent() -> None:
    g = table(phase=FIRE)
    s = g.s
    moon = put(g, 0, "moon")
    freighter = put(g, 0, "fleet_freighter", on=moon)
    typhoon = put(g, 0, "argonian_typhoon", loaded=2)
    eel = put(g, 1, "small_phaser_eel", on=freighter)
    planet = put(g, 1, "siobhan_7")
    sats = put(g, 1, "defensive_satellites", on=planet)
    shuttle, = give(g, 1, "shuttlecraft")
    s.units[freighter].shield_damage = 3  # its shields are down: the Shuttlecraft's one shot destroys it
    declare(g, eel, (typhoon, H))
    assert s.priority == 1
    events = g.apply(("play", shuttle, sats, "fire", freighter))  # the freighter and its Eel are gone
    events += settle(g)
    assert freighter not in s.units and eel not in s.units
    assert ("volley-lost", 0, eel) in events
    assert s.units[typhoon].fired_heavy == 1  # fired all the same
    assert eel in s.players[1].discard


# RULE: GE-FIRE-13
def test_a_firing_card_gone_or_disengaged_adds_nothing() -> None:
    g = table(phase=FIRE)
    s = g.s
    moon = put(g, 0, "moon")
    freighter = put(g, 0, "fleet_freighter", on=moon)
    typhoon = put(g, 0, "argonian_typhoon", loaded=2)
    sunspot = put(g, 0, "argonian_sunspot")
    claw = put(g, 1, "krebiz_claw")
    planet = put(g, 1, "siobhan_7")
    sats = put(g, 1, "defensive_satellites", on=planet)
    shuttle, = give(g, 1, "shuttlecraft")
    s.units[freighter].shield_damage = 3  # its shields are down: the Shuttlecraft's one shot destroys it
    declare(g, claw, (freighter, P), (freighter, P), (typhoon, P), (sunspot, P))
    s.units[sunspot].engaged = False  # stands for any effect disengaging it before step (d)
    g.apply(("play", shuttle, sats, "fire", freighter))  # a reaction from hand destroys the freighter
    settle(g)
    assert freighter not in s.units
    assert s.units[claw].damage == 1  # the typhoon's phaser only
    assert s.units[sunspot].fired_phasers == 1


# RULE: GE-FIRE-13
# RULE: GE-VOID-1
def test_lost_volley_still_uses_up_a_fuser_mechanism() -> None:
    g = table(phase=FIRE)
    s = g.s
    moon = put(g, 0, "moon")
    freighter = put(g, 0, "fleet_freighter", on=moon)
    nomads = put(g, 0, "indirigan_nomads", loaded=1)
    fuser = put(g, 0, "fuser_mechanism", on=nomads)
    eel = put(g, 1, "small_phaser_eel", on=freighter)
    planet = put(g, 1, "siobhan_7")
    sats = put(g, 1, "defensive_satellites", on=planet)
    shuttle, = give(g, 1, "shuttlecraft")
    s.units[freighter].shield_damage = 3  # its shields are down: the Shuttlecraft's one shot destroys it
    declare(g, eel, (nomads, H))
    g.apply(("play", shuttle, sats, "fire", freighter))
    settle(g)
    assert eel not in s.units
    assert fuser not in s.units and fuser in s.players[0].discard  # discarded after use, voided or not


# RULE: GE-FIRE-14
def test_weapons_fire_phase_ends_when_nothing_can_fire_or_on_request() -> None:
    g = table(phase=PLAY_A)
    put(g, 0, "argonian_sunspot", engaged=False)
    put(g, 1, "krebiz_claw")
    g.apply(("end",))
    assert g.s.phase == PLAY_B  # no weapon able to fire: the phase is over at once
    g = table(phase=PLAY_A)
    sunspot = put(g, 0, "argonian_sunspot")
    pincer = put(g, 1, "krebiz_pincer")
    put(g, 1, "krebiz_clipper")
    g.apply(("end",))
    assert g.s.phase == FIRE
    volley(g, pincer, (sunspot, P), (sunspot, P))
    assert g.s.phase == FIRE  # a phaser left, and a target for it
    g.apply(("end",))
    assert g.s.phase == PLAY_B
    g = table(phase=FIRE)
    sunspot = put(g, 0, "argonian_sunspot")
    pincer = put(g, 1, "krebiz_pincer")
    volley(g, pincer, (sunspot, P), (sunspot, P), (sunspot, P))
    assert g.s.phase == PLAY_B  # the last weapon fired ends it


# --------------------------------------------------------------------------- DMG


# RULE: GE-DMG-1
def test_three_kinds_of_damage() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon")  # strength 6, 3 shields
    combat.hit(s, typhoon, 1, "structural", 1)
    assert (s.units[typhoon].shield_damage, s.units[typhoon].damage) == (0, 1)  # skips shields
    combat.hit(s, typhoon, 2, "card", 1)
    assert (s.units[typhoon].shield_damage, s.units[typhoon].damage) == (2, 1)  # shields first
    combat.hit(s, typhoon, 3, "shields", 1)
    assert (s.units[typhoon].shield_damage, s.units[typhoon].damage) == (3, 1)  # never the hull


# RULE: GE-DMG-1
def test_shield_fiend_damages_shields_only() -> None:
    g = table(phase=PLAY_A)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon")
    [fiend] = give(g, 1, "shield_fiend")
    s.active = 1
    g.apply(("play", fiend, typhoon))
    settle(g)
    assert (s.units[typhoon].shield_damage, s.units[typhoon].damage) == (3, 0)
    assert fiend in s.players[1].discard


# RULE: GE-DMG-2
def test_civilian_captain_cuts_opponent_volleys_by_one_but_not_card_damage() -> None:
    g = table(phase=FIRE, active=1)
    s = g.s
    moon = put(g, 0, "moon")
    freighter = put(g, 0, "fleet_freighter", on=moon)  # 3 shields
    put(g, 0, "civilian_captain", on=freighter)
    mandible = put(g, 1, "krebiz_mandible", loaded=2)
    volley(g, freighter, (mandible, P), (mandible, P), (mandible, H))
    assert s.units[freighter].shield_damage == 2  # one point off the whole volley, not per weapon
    s.units[freighter].shield_damage = 0
    combat.hit(s, freighter, 2, "card", 1)
    assert s.units[freighter].shield_damage == 2  # card damage is no volley
    s.units[freighter].shield_damage = 0
    combat.hit(s, freighter, 2, "weapons", 0)
    assert s.units[freighter].shield_damage == 2  # its own side's volley is not an opponent's


# RULE: GE-DMG-3
def test_pipeline_reduction_before_guardian_shields_before_structure() -> None:
    g = table(phase=FIRE, active=1)
    s = g.s
    moon = put(g, 0, "moon")
    freighter = put(g, 0, "fleet_freighter", on=moon)
    put(g, 0, "civilian_captain", on=freighter)
    guardian = put(g, 0, "invinco_guardian", on=freighter)
    combat.hit(s, freighter, 3, "weapons", 1)
    assert s.units[guardian].damage == 2  # the captain's point came off first
    assert (s.units[freighter].shield_damage, s.units[freighter].damage) == (0, 0)
    typhoon = put(g, 0, "argonian_typhoon")
    combat.hit(s, typhoon, 5, "weapons", 1)
    assert (s.units[typhoon].shield_damage, s.units[typhoon].damage) == (3, 2)
    combat.hit(s, typhoon, 4, "weapons", 1)
    assert typhoon not in s.units  # (6): structural damage reached strength 6


# RULE: GE-DMG-3
# RULE: GE-SHIPS-2
def test_escort_interception_comes_before_the_guardian(escort_effect: Escort) -> None:
    g = table(phase=FIRE, active=1)
    s = g.s
    claw, _ = big_ship(g, 0)
    guardian = put(g, 0, "invinco_guardian", on=claw)
    escort = put(g, 0, "argonian_warm_front")
    mandible = put(g, 1, "krebiz_mandible")
    declare(g, claw, (mandible, P), (mandible, P))
    assert ("use", escort, "intercept", claw, 1) in g.legal_actions()
    g.apply(("use", escort, "intercept", claw, 1))
    settle(g)
    assert s.units[escort].shield_damage == 2  # two points per intercepted point
    assert s.units[guardian].damage == 1  # the guardian took what was left


# RULE: GE-DMG-4
def test_shields_work_disengaged_regenerate_once_and_are_tracked_apart() -> None:
    g = table(phase=FIRE)
    s = g.s
    mine = put(g, 0, "argonian_whirlwind", engaged=False)  # 3 shields
    theirs = put(g, 1, "krebiz_medium_capsule", engaged=False)  # 4 shields
    combat.hit(s, mine, 4, "weapons", 1)
    combat.hit(s, theirs, 3, "weapons", 0)
    assert (s.units[mine].shield_damage, s.units[mine].damage) == (3, 1)
    assert (s.units[theirs].shield_damage, s.units[theirs].damage) == (3, 0)
    turn.start_turn(s, 1)
    assert s.units[theirs].shield_damage == 2  # one point back for the active player's card
    assert (s.units[mine].shield_damage, s.units[mine].damage) == (3, 1)  # not the other seat's
    turn.start_turn(s, 0)
    assert (s.units[mine].shield_damage, s.units[mine].damage) == (2, 1)  # structure stays


# RULE: GE-DMG-5
def test_sector_hq_takes_every_point_without_shields() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon", loaded=2)
    volley(g, HQ1, (typhoon, P), (typhoon, P), (typhoon, H))
    assert s.players[1].hq == 3
    assert s.winner is None


# RULE: GE-DMG-5
# RULE: GE-WIN-1
def test_the_25th_point_on_a_sector_hq_ends_the_game() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon")
    s.players[1].hq = 22
    volley(g, HQ1, (typhoon, P), (typhoon, P), (typhoon, P))
    assert s.players[1].hq == 25
    assert s.winner == 0 and s.phase == OVER and g.winner == 0


# RULE: GE-WIN-1
def test_elimination_stops_the_chain_in_the_middle_of_a_volley() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon")
    put(g, 1, "divergent_anomaly", on=typhoon)  # seat 0's only ship leaves its HQ open
    claw = put(g, 1, "krebiz_claw")
    s.players[0].hq = 24
    shuttle, = give(g, 1, "shuttlecraft")
    declare(g, claw, (typhoon, P), (typhoon, P))
    g.apply(("play", shuttle, claw, "fire", HQ0))  # a Shuttlecraft from hand, on a ship, at the open HQ
    settle(g)
    assert s.winner == 1 and s.phase == OVER
    assert s.units[claw].damage == 0  # the volley never resolved


# RULE: GE-DMG-6
def test_protector_in_play_lets_no_excess_through() -> None:
    g = table(phase=FIRE, active=1)
    s = g.s
    sunspot = put(g, 0, "argonian_sunspot")
    guardian = put(g, 0, "invinco_guardian", on=sunspot)
    combat.hit(s, sunspot, 5, "weapons", 1)
    assert guardian not in s.units
    assert (s.units[sunspot].shield_damage, s.units[sunspot].damage) == (0, 0)


# RULE: GE-DMG-6
def test_protector_played_in_reaction_mode_splashes_the_excess() -> None:
    g = table(phase=FIRE, active=1)
    s = g.s
    sunspot = put(g, 0, "argonian_sunspot")  # 2 shields
    # stands for a card played in reaction mode to protect the ship (none in Deck A does)
    guardian = put(g, 0, "invinco_guardian", on=sunspot, reacted=True)
    combat.hit(s, sunspot, 6, "weapons", 1)
    assert guardian not in s.units
    assert (s.units[sunspot].shield_damage, s.units[sunspot].damage) == (2, 1)  # 3 went on
    other = put(g, 0, "argonian_blizzard")
    put(g, 1, "invinco_guardian", on=other, reacted=True)
    combat.hit(s, other, 2, "weapons", 1)
    assert s.units[other].shield_damage == 0  # nothing beyond what it could take: no splash


# RULE: GE-DMG-6
def test_excess_damage_on_a_base_never_reaches_its_terrain() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon", loaded=2)
    planet = put(g, 1, "siobhan_7")
    sats = put(g, 1, "defensive_satellites", on=planet)
    volley(g, sats, (typhoon, P), (typhoon, P), (typhoon, P), (typhoon, P), (typhoon, H), (typhoon, H))
    assert sats not in s.units
    assert s.units[planet].damage == s.units[planet].card_damage == 0


# RULE: GE-DMG-6
# RULE: GE-SHIPS-2
def test_escort_lets_nothing_through_beyond_what_destroys_it(escort_effect: Escort) -> None:
    g = table(phase=FIRE, active=1)
    s = g.s
    claw, _ = big_ship(g, 0)  # 4 shields together
    escort = put(g, 0, "argonian_warm_front")  # strength 2, 4 shields: 6 points destroy it
    mandible = put(g, 1, "krebiz_mandible", loaded=2)
    declare(g, claw, (mandible, P), (mandible, P), (mandible, H), (mandible, H))
    g.apply(("use", escort, "intercept", claw, 4))
    settle(g)
    assert escort not in s.units and escort in s.players[0].discard  # 8 points: 2 lost
    assert (s.units[claw].shield_damage, s.units[claw].damage) == (0, 0)  # all 4 intercepted


# RULE: GE-DMG-7
def test_cargo_takes_only_the_one_lethal_point() -> None:
    g = table(phase=FIRE, active=1)
    s = g.s
    sunspot = put(g, 0, "argonian_sunspot")  # strength 3, 2 shields
    cargo = put(g, 0, "cargo", on=sunspot)
    combat.hit(s, sunspot, 5, "weapons", 1)  # 3 on the hull: lethal by exactly one point
    assert sunspot in s.units and s.units[sunspot].damage == 2
    assert cargo not in s.units and cargo in s.players[0].discard
    g2 = table(phase=FIRE, active=1)
    ship = put(g2, 0, "argonian_sunspot")
    box = put(g2, 0, "cargo", on=ship)
    combat.hit(g2.s, ship, 6, "weapons", 1)  # 4 on the hull: one point less still kills
    assert ship not in g2.s.units and box in g2.s.players[0].discard
    g3 = table(phase=FIRE, active=1)
    ship3 = put(g3, 0, "argonian_sunspot")
    box3 = put(g3, 0, "cargo", on=ship3)
    combat.hit(g3.s, ship3, 3, "weapons", 1)  # not lethal: the cargo stays out of it
    assert g3.s.units[ship3].damage == 1 and box3 in g3.s.units


# RULE: GE-DMG-8
def test_combined_krebiz_ship_takes_damage_as_one_card() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon", loaded=2)
    claw, cap = put(g, 1, "krebiz_claw"), put(g, 1, "krebiz_heavy_capsule")
    combine(g, claw, cap)
    assert ("aim", cap) not in g.legal_actions() and ("aim", claw) in g.legal_actions()
    volley(g, claw, (typhoon, P), (typhoon, P), (typhoon, P), (typhoon, P), (typhoon, H), (typhoon, H))
    assert (s.units[claw].shield_damage, s.units[claw].damage) == (4, 2)  # the capsule's shields
    assert (s.units[cap].shield_damage, s.units[cap].damage) == (0, 0)
    combat.hit(s, claw, 4, "weapons", 0)
    assert claw in s.units  # 6 of strength 7
    combat.hit(s, claw, 1, "weapons", 0)
    assert claw not in s.units and cap not in s.units


# RULE: GE-DMG-9
def test_terrain_takes_heavy_weapons_only_and_keeps_card_damage_apart() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon", loaded=2)
    planet = put(g, 1, "siobhan_7")
    volley(g, planet, (typhoon, P), (typhoon, P), (typhoon, H))
    assert (s.units[planet].damage, s.units[planet].card_damage) == (1, 0)
    combat.hit(s, planet, 2, "card", 0)  # a card that says it damages terrain
    assert (s.units[planet].damage, s.units[planet].card_damage) == (1, 2)
    combat.hit(s, planet, 1, "card", 0)
    assert planet not in s.units  # 1 + 3 = strength 4


# RULE: GE-DMG-9
def test_terrain_card_damage_resists_repair_and_never_cuts_output() -> None:
    g = table(phase="allocate")
    s = g.s
    moon = put(g, 0, "moon", card_damage=1)
    belt = put(g, 0, "benakis_belt", damage=1)
    s.players[0].pool = [0] * 6
    points.produce(s)
    assert s.players[0].pool[points.SUPPLY] == 3 and s.players[0].pool[points.ENERGY] == 3
    s.players[0].pool[points.REPAIR] = 1
    fixable = points.repairable(s)
    assert (belt, "hull") in fixable
    assert not [f for f in fixable if f[0] == moon]


# RULE: GE-DMG-10
def test_overkill_is_lost() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon", loaded=2)
    moon = put(g, 1, "moon")
    capsule = put(g, 1, "krebiz_light_capsule", on=moon)
    neighbour = put(g, 1, "krebiz_claw")
    volley(g, capsule, (typhoon, P), (typhoon, P), (typhoon, P), (typhoon, P), (typhoon, H), (typhoon, H))
    assert capsule not in s.units
    assert s.units[moon].damage == 0 and s.units[neighbour].damage == 0
    assert s.players[1].hq == 0


# --------------------------------------------------------------------------- STACK


# RULE: GE-STACK-1
def test_a_discarded_card_takes_its_stack_each_card_to_its_owner() -> None:
    g = table(phase="discard")
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon")
    tech = put(g, 0, "technician", on=typhoon)
    cargo = put(g, 0, "cargo", on=typhoon)
    eel = put(g, 1, "small_phaser_eel", on=typhoon)
    g.apply(("discard", typhoon))
    settle(g)
    assert not {typhoon, tech, cargo, eel} & set(s.units)
    assert s.players[0].discard[-1] == typhoon  # the basis ends on top
    assert {tech, cargo} <= set(s.players[0].discard) and eel in s.players[1].discard


# RULE: GE-STACK-1
def test_ships_survive_their_terrain_and_a_freighter_stops_modifying() -> None:
    g = table(phase=FIRE)
    s = g.s
    moon = put(g, 0, "moon")
    planet = put(g, 0, "siobhan_7")
    freighter = put(g, 0, "fleet_freighter", on=moon)
    crew = put(g, 0, "boarding_party", on=freighter)
    sunspot = put(g, 0, "argonian_sunspot", on=planet)
    tech = put(g, 0, "technician", on=planet)
    shield = put(g, 0, "planetary_shield", on=planet)
    assert s.effect(s.units[freighter]).terrain_bonus(s, s.units[freighter])[0] == moon
    board.leave(s, moon)
    board.leave(s, planet)
    assert s.units[freighter].parent is None and s.units[crew].parent == freighter
    assert s.units[sunspot].parent is None
    assert tech not in s.units and shield not in s.units
    assert s.effect(s.units[freighter]).terrain_bonus(s, s.units[freighter])[0] is None


# RULE: GE-STACK-2
def test_a_stack_returned_to_hand_forgets_everything() -> None:
    g = table(phase=PLAY_A)
    s = g.s
    pincer = put(g, 1, "krebiz_pincer", damage=2, shield_damage=0, loaded=1)
    crew = put(g, 1, "crewman", on=pincer)
    eel = put(g, 0, "small_phaser_eel", on=pincer)
    [retreat] = give(g, 0, "forced_retreat")
    g.apply(("play", retreat, pincer))
    settle(g)
    assert pincer in s.players[1].hand and crew in s.players[1].hand and eel in s.players[0].hand
    assert not {pincer, crew, eel} & set(s.units)
    assert retreat in s.players[0].discard
    s.players[1].retreated.clear()  # its owner's next turn has come (GE-PLAY-8)
    s.active = 1
    g.apply(("play", pincer, -2))
    settle(g)
    u = s.units[pincer]
    assert (u.damage, u.shield_damage, u.loaded) == (0, 0, 0) and not u.engaged


# RULE: GE-STACK-3
def test_monsters_leave_with_the_card_they_affect() -> None:
    g = table(phase=FIRE)
    s = g.s
    typhoon = put(g, 0, "argonian_typhoon")
    capsule = put(g, 1, "krebiz_light_capsule")
    eel = put(g, 0, "small_phaser_eel", on=capsule)
    volley(g, capsule, (typhoon, P), (typhoon, P), (typhoon, P), (typhoon, P))
    assert capsule not in s.units and eel not in s.units and eel in s.players[0].discard
    ship = put(g, 1, "krebiz_pincer")
    guardian = put(g, 1, "invinco_guardian", on=ship)
    board.leave(s, ship)
    assert guardian not in s.units and guardian in s.players[1].discard


# RULE: GE-STACK-4
def test_destroyed_when_structural_damage_reaches_strength() -> None:
    g = table(phase=FIRE, active=1)
    s = g.s
    claw = put(g, 1, "krebiz_claw")
    combat.hit(s, claw, 4, "weapons", 0)
    assert claw in s.units and not board.destroyed(s, claw)
    combat.hit(s, claw, 1, "weapons", 0)
    assert claw not in s.units and claw in s.players[1].discard


# RULE: GE-STACK-4
def test_losing_krebiz_armor_can_destroy_a_damaged_ship() -> None:
    g = table(phase=FIRE)
    s = g.s
    claw = put(g, 1, "krebiz_claw")
    armor = put(g, 1, "krebiz_armor", on=claw)
    combat.hit(s, claw, 5, "weapons", 0)
    assert claw in s.units and board.strength(s, claw) == 6
    board.leave(s, armor)  # e.g. wrecked by a Boarding Party: strength 5 with 5 damage
    assert claw not in s.units and claw in s.players[1].discard


# RULE: GE-STACK-5
def test_a_combined_ship_leaves_as_two_cards() -> None:
    g = table(phase=FIRE)
    s = g.s
    claw, cap = put(g, 1, "krebiz_claw"), put(g, 1, "krebiz_heavy_capsule")
    combine(g, claw, cap)
    combat.hit(s, claw, 11, "weapons", 0)
    pile = s.players[1].discard
    assert pile[-2:] == [cap, claw]  # two cards, the cruiser (basis) on top
    assert claw not in s.units and cap not in s.units


# RULE: GE-STACK-5
def test_discarding_half_a_combination_discards_the_whole_ship() -> None:
    g = table(phase="discard", active=1)
    s = g.s
    claw, cap = put(g, 1, "krebiz_claw"), put(g, 1, "krebiz_heavy_capsule")
    combine(g, claw, cap)
    g.apply(("discard", cap))  # the capsule half, undamaged ship
    settle(g)
    assert claw not in s.units and cap not in s.units
    assert {claw, cap} <= set(s.players[1].discard)


# --------------------------------------------------------------------------- IND


# RULE: GE-IND-4
def test_light_carrier_rearms_its_shuttlecraft_when_engaged() -> None:
    g = table(phase="allocate")
    s = g.s
    carrier = put(g, 0, "indirigan_light_carrier", paid=True)
    shuttle = put(g, 0, "shuttlecraft", on=carrier, empty=True)
    turn.engage(s)
    assert s.units[carrier].engaged and not s.units[shuttle].empty
    g2 = table(phase="allocate")
    carrier2 = put(g2, 0, "indirigan_light_carrier", paid=False)
    shuttle2 = put(g2, 0, "shuttlecraft", on=carrier2, empty=True)
    turn.engage(g2.s)
    assert not g2.s.units[carrier2].engaged and g2.s.units[shuttle2].empty


# --------------------------------------------------------------------------- SHIPS


ARGONIAN_NUMBERS = {  # strength, shields, phasers, heavy weapons
    "argonian_sunspot": (3, 2, 3, 1), "argonian_blizzard": (4, 2, 3, 2),
    "argonian_whirlwind": (5, 3, 4, 2), "argonian_typhoon": (6, 3, 4, 2),
}


# RULE: GE-SHIPS-1
@pytest.mark.parametrize("key", sorted(ARGONIAN_NUMBERS))
def test_argonian_warships_are_their_numbers_only(key: str) -> None:
    assert type(standard().effect(BY_KEY[key].index)) is Effect  # no rules of their own
    g = table(phase=FIRE)
    s = g.s
    ship = put(g, 0, key, loaded=BY_KEY[key].heavy)
    strength, shields, phasers, heavy = ARGONIAN_NUMBERS[key]
    assert (board.strength(s, ship), board.shields(s, ship), board.phasers(s, ship), board.heavy(s, ship)) \
        == (strength, shields, phasers, heavy)
    claw = put(g, 1, "krebiz_claw")
    g.apply(("aim", claw))
    while legal(g, "add"):
        g.apply(legal(g, "add")[0])
    g.apply(("fire",))
    settle(g)
    assert claw not in s.units if phasers + heavy >= 5 else s.units[claw].damage == phasers + heavy


# RULE: GE-SHIPS-2
def test_the_catalogue_escort_has_its_interception() -> None:
    assert isinstance(standard().effect(BY_KEY["argonian_warm_front"].index), Escort)


# RULE: GE-SHIPS-2
def test_escort_intercepts_for_a_big_ship_of_its_fleet(escort_effect: Escort) -> None:
    g = table(phase=FIRE, active=1)
    s = g.s
    claw, _ = big_ship(g, 0)
    other, _ = big_ship(g, 0)
    escort = put(g, 0, "argonian_warm_front")
    mandible = put(g, 1, "krebiz_mandible", loaded=2)
    declare(g, claw, (mandible, P), (mandible, P), (mandible, H))
    options = [a for a in g.legal_actions() if a[:2] == ("use", escort)]
    assert options == [("use", escort, "intercept", claw, n) for n in range(1, 4)]
    g.apply(("use", escort, "intercept", claw, 1))
    settle(g)
    assert s.units[claw].shield_damage == 2  # 3 declared, 1 intercepted
    assert s.units[escort].shield_damage == 2  # the Escort took 2 for it
    assert s.units[escort].used
    # once per turn: the next volley at a big ship finds no Escort to answer it
    declare(g, other, (mandible, H))
    assert not [a for a in g.legal_actions() if a[:2] == ("use", escort)]
    settle(g)
    assert s.units[other].shield_damage == 1


# RULE: GE-SHIPS-2
def test_escort_takes_the_same_kind_of_damage(escort_effect: Escort) -> None:
    g = table(phase=PLAY_A, active=1)
    s = g.s
    claw, _ = big_ship(g, 0)
    escort = put(g, 0, "argonian_warm_front")
    mandible = put(g, 1, "krebiz_mandible")
    shuttle = put(g, 1, "shuttlecraft", on=mandible)
    party = put(g, 1, "boarding_party", on=mandible)
    g.apply(("use", shuttle, "mission", party, claw, "hull"))
    while s.chain or s.priority is not None:  # travel, then the boarding party's act
        options = [a for a in g.legal_actions() if a[:2] == ("use", escort)]
        if options:
            g.apply(("use", escort, "intercept", claw, 1))
        else:
            g.apply(("pass",))
    assert s.units[claw].damage == 0
    assert escort not in s.units  # 2 structural points skip its shields: strength 2, destroyed


# RULE: GE-SHIPS-2
def test_escort_covers_only_engaged_own_ships_of_strength_seven(escort_effect: Escort) -> None:
    def offers(g: GalacticEmpires, escort: int) -> list[tuple[Any, ...]]:
        assert g.s.priority == 0 and g.s.chain  # seat 0's window on the volley is open
        return [a for a in g.legal_actions() if a[:2] == ("use", escort)]

    g = table(phase=FIRE, active=1)  # strength 6 is not enough
    mandible, heavy = put(g, 1, "krebiz_mandible"), put(g, 1, "krebiz_heavy_capsule")
    gift(g, mandible, 0)
    gift(g, heavy, 0)
    combine(g, mandible, heavy)
    escort = put(g, 0, "argonian_warm_front")
    give(g, 0, "shuttlecraft")  # a reaction card in hand: seat 0 gets its window
    shooter = put(g, 1, "krebiz_pincer")
    declare(g, mandible, (shooter, P))
    assert board.strength(g.s, mandible) == 6 and not offers(g, escort)

    g = table(phase=FIRE, active=1)  # the opponent's strength-7 ship is not covered (ruling)
    claw, cap = put(g, 1, "krebiz_claw"), put(g, 1, "krebiz_heavy_capsule")
    combine(g, claw, cap)
    escort = put(g, 0, "argonian_warm_front")
    give(g, 0, "shuttlecraft")  # a reaction card in hand: seat 0 gets its window
    shooter = put(g, 1, "krebiz_pincer")
    declare(g, claw, (shooter, P))  # friendly fire, an event of the Escort's opponent
    assert board.strength(g.s, claw) == 7 and not offers(g, escort)

    g = table(phase=FIRE, active=1)  # a disengaged Escort cannot react
    claw, _ = big_ship(g, 0)
    asleep = put(g, 0, "argonian_warm_front", engaged=False)
    give(g, 0, "shuttlecraft")
    shooter = put(g, 1, "krebiz_pincer")
    declare(g, claw, (shooter, P))
    assert not offers(g, asleep)
    g.s.units[asleep].engaged = True
    assert offers(g, asleep)  # the same position with the Escort engaged


# --------------------------------------------------------------------------- VOID


# RULE: GE-VOID-1
def test_a_voided_function_counts_as_used_and_its_card_stays() -> None:
    g = table(phase=PLAY_A)
    s = g.s
    ship = put(g, 0, "argonian_sunspot")
    doctor = put(g, 0, "doctor", on=ship)
    crew = put(g, 0, "technician", on=ship)
    illness = put(g, 1, "illness", on=crew)
    [malpractice] = give(g, 1, "malpractice")
    g.apply(("use", doctor, "cure"))
    assert s.priority == 1
    g.apply(("play", malpractice, doctor))
    settle(g)
    assert illness in s.units  # the cure was voided: the Doctor no longer functions
    assert doctor in s.units and s.units[doctor].used
    assert ("use", doctor, "cure") not in g.legal_actions()


# RULE: GE-VOID-2
def test_a_play_whose_target_became_illegal_counts_and_is_discarded() -> None:
    g = table(phase=PLAY_A)
    s = g.s
    claw = put(g, 1, "krebiz_claw")
    tech = put(g, 1, "technician", on=claw)
    [illness] = give(g, 0, "illness")
    [doctor] = give(g, 1, "doctor")
    g.apply(("play", illness, tech))
    g.apply(("play", doctor, claw))  # the Doctor arrives at the crew's location first
    settle(g)
    assert illness not in s.units and s.players[0].discard[-1] == illness
    assert illness not in s.players[0].hand
    assert s.players[0].plays == 1
    assert not board.disabled(s, tech)


# RULE: GE-VOID-3
def test_no_deck_a_cancel_returns_the_card_to_hand() -> None:
    g = table(phase=PLAY_A)
    s = g.s
    claw = put(g, 1, "krebiz_claw")
    tech = put(g, 1, "technician", on=claw)
    lucky = put(g, 1, "lucky_crew_action", on=tech)
    [illness] = give(g, 0, "illness")
    g.apply(("play", illness, tech))
    settle(g)  # nobody is asked: the Lucky Crew Action's text ignores the play as it resolves
    # Lucky Crew Action ignores the play (its own text) rather than voiding it: the card is
    # discarded, never returned to its owner's hand as a voided play would be
    assert illness in s.players[0].discard and illness not in s.players[0].hand
    assert s.players[0].plays == 1 and lucky not in s.units


# RULE: GE-VOID-4
def test_a_pending_play_follows_its_target_when_it_moves() -> None:
    g = table(phase=PLAY_A)
    s = g.s
    claw = put(g, 1, "krebiz_claw")
    pincer = put(g, 1, "krebiz_pincer")
    tech = put(g, 1, "technician", on=claw)
    [illness] = give(g, 0, "illness")
    [transporter] = give(g, 1, "transporter")
    g.apply(("play", illness, tech))
    g.apply(("play", transporter, pincer, "move", claw, pincer, 1))  # the crew moves away
    settle(g)
    assert s.units[tech].parent == pincer
    assert s.units[illness].parent == tech and board.disabled(s, tech)  # it followed the crew


# RULE: GE-VOID-4
def test_a_move_that_makes_the_play_illegal_voids_it() -> None:
    g = table(phase=PLAY_A)
    s = g.s
    claw = put(g, 1, "krebiz_claw")
    pincer = put(g, 1, "krebiz_pincer")
    put(g, 1, "doctor", on=pincer)
    tech = put(g, 1, "technician", on=claw)
    [illness] = give(g, 0, "illness")
    [transporter] = give(g, 1, "transporter")
    g.apply(("play", illness, tech))
    g.apply(("play", transporter, pincer, "move", claw, pincer, 1))  # onto the Doctor's ship
    settle(g)
    assert s.units[tech].parent == pincer
    assert illness not in s.units and illness in s.players[0].discard


# RULE: GE-VOID-4
def test_a_card_in_play_against_a_crew_moves_with_it() -> None:
    g = table(phase=PLAY_A, active=1)
    s = g.s
    claw = put(g, 1, "krebiz_claw")
    pincer = put(g, 1, "krebiz_pincer")
    tech = put(g, 1, "technician", on=claw)
    vertigo = put(g, 0, "space_vertigo", on=tech)
    transporter = put(g, 1, "transporter", on=claw)
    g.apply(("use", transporter, "move", claw, pincer, 1))
    settle(g)
    assert s.units[tech].parent == pincer
    assert s.units[vertigo].parent == tech and board.disabled(s, tech)
