"""The invariant checkers fire on deliberately corrupted states and stay silent on good ones."""
from __future__ import annotations

import random

import pytest

from conftest import pick_action
from starcom.sc.engine.game import Game
from starcom.sc.cards.catalogue import BY_NAME, CARD_DEF, INSTANCES
from starcom.sc.engine import rules as R
from starcom.sc.engine.state import NOBODY
from starcom.sc.invariants import check_state, check_step


def new(edition: str = "standard", players: int = 2) -> Game:
    return Game.new(players=players, size=4, edition=edition, seed=3)


def has(problems: list[str], *words: str) -> bool:
    return any(all(w in m for w in words) for m in problems)


def add_from_supply(g: Game, name: str, p: int, pos: int) -> int:
    cid = g.supply[name].pop()
    R.place_vessel(g, cid, p, pos)
    return cid


# --------------------------------------------------------------------------- silent when fine


def test_fresh_games_have_no_violations(fresh_games) -> None:
    for g in fresh_games:
        assert check_state(g) == [], g.cfg
        after = g.clone()
        after.apply(("end",))
        assert check_step(g, ("end",), after) == []


def test_random_play_has_no_violations() -> None:
    for seed, ed in ((1, "standard"), (2, "classic")):
        g = Game.new(players=3, size=4, edition=ed, seed=seed, turn_limit=15)
        rnd = random.Random(seed)
        while not g.over:
            a = pick_action(g, rnd)
            before = g.clone()
            g.apply(a)
            assert check_state(g) == [] and check_step(before, a, g) == [], a


# --------------------------------------------------------------------------- cards and zones


def test_card_in_two_zones() -> None:
    g = new()
    g.hands[0].append(g.decks[0][-1])
    assert has(check_state(g), "in both", "deck industry", "hand of 0")


def test_card_in_no_zone() -> None:
    g = new()
    cid = g.decks[1].pop()
    assert has(check_state(g), f"card {cid}", "no zone")


def test_unknown_card_id() -> None:
    g = new()
    g.hands[1].append(10_000)
    assert has(check_state(g), "not a card id")


def test_card_in_the_wrong_deck() -> None:
    g = new()
    g.decks[2].append(g.decks[0].pop())
    assert has(check_state(g), "science deck")


def test_supply_pile_with_a_foreign_card() -> None:
    g = new()
    a, b = g.supply["Corvette"].pop(), g.supply["Battleship"].pop()
    g.supply["Corvette"].append(b)
    g.supply["Battleship"].append(a)
    assert has(check_state(g), "supply pile Corvette", "Battleship")


def test_command_card_as_a_vessel() -> None:
    g = new()
    cid = next(c for c in g.decks[0] if CARD_DEF[c].kind == "command")
    g.decks[0].remove(cid)
    R.place_vessel(g, cid, 0, g.homeworld[0])
    assert has(check_state(g), f"vessel {cid}", "cannot be on the board")


def test_supply_count_must_match_the_catalogue() -> None:
    g = new()
    g.supply["Frigate"].append(g.supply["Frigate"][0])  # a copy appears from nowhere
    problems = check_state(g)
    assert has(problems, "COMP-2", "Frigate") and has(problems, "in both")
    h = new()
    add_from_supply(h, "Frigate", 0, h.homeworld[0])  # built: moved, not copied
    assert not has(check_state(h), "COMP-2")


# --------------------------------------------------------------------------- players


def test_negative_credits() -> None:
    g = new()
    g.credits[1] = -1
    assert has(check_state(g), "player 1", "-1 credits")


@pytest.mark.parametrize("edition,limit", [("standard", 5), ("classic", 8)])
def test_hand_over_the_edition_limit(edition: str, limit: int) -> None:
    g = new(edition)
    deck = g.decks[0]
    for _ in range(limit):
        g.hands[0].append(deck.pop())
    assert check_state(g) == []  # exactly at the limit is fine
    g.hands[0].append(deck.pop())
    assert has(check_state(g), "HAND", f"limit {limit}")


def test_eliminated_player_keeps_nothing() -> None:
    g = new(players=3)
    q = next(q for q in range(3) if q != g.active)
    g.alive[q] = False
    problems = check_state(g)
    assert has(problems, "vessel", f"belongs to {q}")  # their Scout is still there
    assert has(problems, f"eliminated player {q}", "controls a system")
    g.hands[q].append(g.decks[0].pop())
    assert has(check_state(g), f"eliminated player {q}", "hand")


def test_living_player_without_homeworld() -> None:
    g = new()
    g.sites[g.homeworld[0]].owner = 1
    assert has(check_state(g), "player 0 is alive", "Homeworld")
    g.phase = "end"  # between conquest and elimination this is a moment's truth
    assert not has(check_state(g), "player 0 is alive")


def test_actor_must_be_alive() -> None:
    g = new(players=3)
    g.alive[g.actor] = False
    assert has(check_state(g), "to decide")


# --------------------------------------------------------------------------- board


def test_development_counts() -> None:
    g = new()
    hw = g.homeworld[0]
    g.sites[hw].devs = -1
    assert has(check_state(g), f"site {hw}", "-1 developments")
    g = new()
    g.sites[hw].devs = 0  # controlled without developments
    assert has(check_state(g), f"site {hw}", "owner 0 with 0")
    g = new()
    g.sites[hw].owner = NOBODY  # developed without a controller
    assert has(check_state(g), f"site {hw}", "owner -1 with 1")


def test_face_down_system_cannot_be_developed() -> None:
    g = new()
    pos = next(i for i, s in enumerate(g.sites) if not s.face_up)
    g.sites[pos].owner, g.sites[pos].devs = 0, 1
    assert has(check_state(g), f"site {pos}", "face down")


def test_devs_above_any_possible_maximum() -> None:
    g = new()
    hw = g.homeworld[0]
    printed = g.sites[hw].d.max_dev
    # Above the current maximum but reachable with Orbital Habitats since destroyed: allowed.
    g.sites[hw].devs = printed + 2
    assert not has(check_state(g), "DEV-3")
    g.sites[hw].devs = printed + 2 * len(INSTANCES["Orbital Habitat"]) + 1
    assert has(check_state(g), "DEV-3", f"site {hw}")


def test_vessel_damage_and_position() -> None:
    g = new()
    v = next(iter(g.vessels.values()))
    v.damage = -2
    assert has(check_state(g), f"vessel {v.id}", "-2 damage")
    v.damage, v.pos = 0, 99
    assert has(check_state(g), f"vessel {v.id}", "off the board")


# --------------------------------------------------------------------------- per step


def test_station_over_the_development_count() -> None:
    # BUILD-2: one development, so one station; a second built station is flagged.
    g = new()
    hw = g.homeworld[0]
    add_from_supply(g, "Defense Station", 0, hw)
    after = g.clone()
    add_from_supply(after, "Defense Station", 0, hw)
    action = ("build", BY_NAME["Defense Station"].index, hw)
    assert has(check_step(g, action, after), "BUILD-2", "2 stations")
    # Military Base's free station is not a build: it follows its card.
    assert not has(check_step(g, ("develop", hw), after), "BUILD-2")


def test_station_card_from_hand_over_the_cap() -> None:
    g = new()
    hw = g.homeworld[0]
    add_from_supply(g, "Defense Station", 0, hw)
    refinery = INSTANCES["Refinery"][0]
    for pile in g.decks:
        if refinery in pile:
            pile.remove(refinery)
    g.stack.append(["card", 0, refinery, hw])
    after = g.clone()
    after.stack.pop()
    R.place_vessel(after, refinery, 0, hw)
    assert check_state(after) == []
    assert has(check_step(g, ("pass",), after), "BUILD-2")


@pytest.mark.parametrize("edition", ["standard", "classic"])
def test_ship_cap_depends_on_edition(edition: str) -> None:
    # BUILD-4 [S]: ships (Scout excluded) <= total developments, which is 1 at the start.
    g = new(edition)
    hw = g.homeworld[0]
    add_from_supply(g, "Corvette", 0, hw)
    after = g.clone()
    add_from_supply(after, "Corvette", 0, hw)
    action = ("build", BY_NAME["Corvette"].index, hw)
    assert has(check_step(g, action, after), "BUILD-4") == (edition == "standard")


@pytest.mark.parametrize("edition", ["standard", "classic"])
def test_fighter_caps_are_classic_only(edition: str) -> None:
    # BUILD-6 [C]: fighters <= total developments and <= the system's development count.
    g = new(edition)
    hw = g.homeworld[0]
    add_from_supply(g, "Strike Fighter", 0, hw)
    after = g.clone()
    add_from_supply(after, "Strike Fighter", 0, hw)
    problems = check_step(g, ("build", BY_NAME["Strike Fighter"].index, hw), after)
    classic = edition == "classic"
    assert has(problems, "BUILD-6", "fighters at") == classic
    assert has(problems, "BUILD-6", "fighters and") == classic


def test_caps_not_checked_when_developments_fell() -> None:
    g = new()
    hw = g.homeworld[0]
    g.sites[hw].devs = 2
    add_from_supply(g, "Corvette", 0, hw)
    after = g.clone()
    add_from_supply(after, "Corvette", 0, hw)
    action = ("build", BY_NAME["Corvette"].index, hw)
    assert check_step(g, action, after) == []  # 2 ships, 2 developments
    after.sites[hw].devs = 1  # e.g. a bombardment resolved later in the same step
    assert check_step(g, action, after) == []


def test_development_added_beyond_the_maximum() -> None:
    g = new()
    hw = g.homeworld[0]
    top = R.max_dev(g, hw)
    g.sites[hw].devs = top
    after = g.clone()
    after.sites[hw].devs = top + 1
    assert has(check_step(g, ("develop", hw), after), "DEV-3", f"site {hw}")
    assert check_step(g, ("end",), g.clone()) == []


def test_development_kept_after_a_habitat_leaves() -> None:
    g = new()
    hw = g.homeworld[0]
    habitat = INSTANCES["Orbital Habitat"][0]
    for pile in g.decks:
        if habitat in pile:
            pile.remove(habitat)
    R.place_vessel(g, habitat, 0, hw)
    top = R.max_dev(g, hw)
    assert top == g.sites[hw].d.max_dev + 2
    g.sites[hw].devs = top - 1
    after = g.clone()
    after.sites[hw].devs = top  # added while the habitat stood ...
    R.destroy(after, after.vessels[habitat])  # ... which was then destroyed in the same step
    assert check_state(after) == []
    assert check_step(g, ("pass",), after) == []
