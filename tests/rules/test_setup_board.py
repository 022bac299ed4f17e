"""Components, board and setup: COMP-1, COMP-3, BOARD-1..4, SETUP-1..3, through the public API."""
from __future__ import annotations

from collections import Counter

import pytest

from starcom.sc.engine.game import Game
from starcom.errors import IllegalAction
from starcom.sc.cards.catalogue import BY_NAME, CARD_DEF, DOMAINS, INSTANCES
from starcom.sc.engine.board import name, neighbours, parse
from starcom.sc.scenario import build

EDITIONS = ("standard", "classic")

# The printed card list (edition 0.9.4): copies of every card, by deck.
DECK_COUNTS = {
    "industry": {"Refinery": 4, "Orbital Bombardment": 3, "Trade Envoy": 4, "Barrage": 4, "Ram": 3,
                 "Mass Production": 2, "Maximum Firepower": 3, "Trade Routes": 2,
                 "Railgun Turrets": 3, "Targeting Systems": 2},
    "statecraft": {"Missile Platform": 4, "Orbital Habitat": 3, "Shipyard": 2, "Spy Network": 4,
                   "Intercept Orders": 2, "Sabotage": 4, "Bribery": 3, "Filibuster": 2,
                   "Advanced Weapons": 3, "Fighter Bays": 3},
    "science": {"Jump Nexus": 4, "Explore the Unknown": 3, "Jump Stabilization": 2,
                "Interdiction": 3, "Raise Shields": 3, "Evasion": 4, "Experimental Shields": 2,
                "Enhanced Jump Drive": 3, "Advanced Shields": 4, "Thrill of Discovery": 2},
}
SYSTEM_COUNTS = {"Research World": 2, "Core World": 2, "Trade World": 2, "Military Base": 3,
                 "Alien System": 3, "New Colony": 3, "Asteroid Field": 1, "Pulsar System": 1,
                 "Black Hole": 1, "Silis Major": 1, "Forsei": 1, "Drummond": 1, "Empty System": 4}
SUPPLY_COUNTS = {"Scout": 4, "Strike Fighter": 20, "Corvette": 17, "Frigate": 14, "Destroyer": 10,
                 "Cruiser": 10, "Battleship": 6, "Carrier": 6, "Defense Station": 20}


def names(cids: list[int]) -> Counter[str]:
    return Counter(CARD_DEF[c].name for c in cids)


def system_cards_dealt(g: Game) -> list[int]:
    """System cards on the board (Homeworlds and the Deep Space filler excluded)."""
    return [s.card for s in g.sites if CARD_DEF[s.card].kind == "system" and not CARD_DEF[s.card].filler]


# --------------------------------------------------------------------------- components


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_three_domain_decks_of_thirty_and_a_system_deck_of_twentyfive(players: int, edition: str) -> None:
    # RULE: COMP-1 three 30-card domain decks, a 25-card system deck, four Homeworlds.
    g = Game.new(players=players, edition=edition, seed=players)
    for i, dom in enumerate(DOMAINS):
        assert len(g.decks[i]) == 30
        assert names(g.decks[i]) == Counter(DECK_COUNTS[dom])
        assert all(CARD_DEF[c].domain == dom for c in g.decks[i])
    systems = system_cards_dealt(g) + g.sysdeck
    assert len(systems) == 25 and len(set(systems)) == 25
    assert names(systems) == Counter(SYSTEM_COUNTS)
    assert len(INSTANCES["Homeworld"]) == 4
    homeworlds_in_play = [s.card for s in g.sites if CARD_DEF[s.card].kind == "homeworld"]
    assert len(homeworlds_in_play) == players


def test_neutral_supply_holds_the_printed_number_of_each_ship_and_station() -> None:
    # RULE: COMP-1 the neutral supply; RULE: COMP-2 it is finite (e.g. 20 Strike Fighters,
    # 6 Battleships for all players together).
    g = Game.new(players=3, seed=5)
    scouts_in_play = sum(1 for v in g.vessels.values() if v.d.name == "Scout")
    assert scouts_in_play == 3
    for card_name, count in SUPPLY_COUNTS.items():
        in_play = scouts_in_play if card_name == "Scout" else 0
        assert len(g.supply[card_name]) == count - in_play, card_name
        assert BY_NAME[card_name].count == count


def _position_after_p1_ends(spec_board: dict, empty: str, keep_one: str | None = None):
    """P1 is active; P0 controls ``spec_board``. Empty the ``empty`` deck into its discard pile
    (leaving only ``keep_one`` if given) and end P1's turn, so that P0's Ready phase draws."""
    g, _ = build({"setup": {"active": 1, "board": spec_board, "vessels": []}})
    d = DOMAINS.index(empty)
    g.discards[d].extend(g.decks[d])
    g.decks[d].clear()
    if keep_one is not None:
        cid = next(c for c in g.discards[d] if CARD_DEF[c].name == keep_one)
        g.discards[d].remove(cid)
        g.decks[d].append(cid)
    return g, d


def test_an_empty_deck_cannot_be_drawn_and_its_discard_pile_is_never_reshuffled() -> None:
    # RULE: COMP-3 (RULING) discard piles are never reshuffled; an empty deck gives no card.
    g, d = _position_after_p1_ends({"b3": {"system": "Alien System", "owner": 0, "devs": 1}}, "science")
    discarded = list(g.discards[d])
    events = g.apply(("end",))
    assert (g.active, g.phase) == (0, "command")
    assert ("no_draw", 0) in events
    assert g.hands[0] == []
    assert g.decks[d] == [] and g.discards[d] == discarded
    assert not any(a[0] == "buy" for a in g.legal_actions())


def test_the_last_card_of_a_deck_can_be_drawn_then_the_deck_stays_empty() -> None:
    # RULE: COMP-3 a deck is drawn down to nothing; its discard pile does not refill it.
    g, d = _position_after_p1_ends({"b3": {"system": "Alien System", "owner": 0, "devs": 1}},
                                   "science", keep_one="Evasion")
    g.apply(("end",))
    assert names(g.hands[0]) == Counter({"Evasion": 1})
    assert g.decks[d] == [] and len(g.discards[d]) == 29


def test_with_one_deck_empty_the_draw_comes_from_the_other_domain_without_asking() -> None:
    # RULE: COMP-3 RULE: DRAW-1 an empty deck is no longer a choice.
    g, d = _position_after_p1_ends({"b3": {"system": "Alien System", "owner": 0, "devs": 1},
                                    "c2": {"system": "Trade World", "owner": 0, "devs": 1}}, "science")
    g.apply(("end",))
    assert g.decision == "command"
    assert len(g.hands[0]) == 1 and CARD_DEF[g.hands[0][0]].domain == "industry"


# --------------------------------------------------------------------------- board


@pytest.mark.parametrize("size", range(2, 9))
def test_board_sizes_two_to_eight_are_accepted(size: int) -> None:
    # RULE: BOARD-1 an N×N grid; the engine allows N from 2 to 8 (RULING).
    for players in (2, 4):
        g = Game.new(players=players, size=size, seed=size)
        assert len(g.sites) == size * size
        assert g.cfg.size == size


@pytest.mark.parametrize("size", [0, 1, 9, 12])
def test_board_sizes_outside_two_to_eight_are_rejected_with_a_clear_error(size: int) -> None:
    # RULE: BOARD-1
    with pytest.raises(ValueError, match="board size must be 2 to 8"):
        Game.new(size=size)


@pytest.mark.parametrize("size", range(2, 9))
def test_corners_have_two_neighbours_edges_three_inner_systems_four(size: int) -> None:
    # RULE: BOARD-2 adjacency is sharing a side of the grid.
    adj = neighbours(size)
    last = size - 1
    for pos in range(size * size):
        r, c = divmod(pos, size)
        border = (r in (0, last)) + (c in (0, last))
        assert len(adj[pos]) == {2: 2, 1: 3, 0: 4}[border], name(pos, size)
        for n in adj[pos]:
            nr, nc = divmod(n, size)
            assert abs(nr - r) + abs(nc - c) == 1
            assert pos in adj[n]


def test_a_ship_jumps_only_across_a_side_of_the_grid() -> None:
    # RULE: BOARD-2 (seen through movement) a Corvette in b2 reaches b1, a2, c2 and b3 only.
    g, labels = build({"setup": {"active": 0, "vessels": [
        {"card": "Corvette", "owner": 0, "at": "b2", "label": "corv"}]}})
    dests = {name(a[2], 3) for a in g.legal_actions() if a[0] == "jump"}
    assert dests == {"b1", "a2", "c2", "b3"}
    with pytest.raises(IllegalAction, match="MOVE-1"):
        g.apply(("jump", labels["corv"], parse("a1", 3), 0, 0))


@pytest.mark.parametrize("size", [2, 3, 4, 5])
@pytest.mark.parametrize("players,seats", [(2, ["bottom", "top"]),
                                           (3, ["bottom", "left", "top"]),
                                           (4, ["bottom", "left", "top", "right"])])
def test_homeworlds_take_the_corners_clockwise_from_the_bottom(size: int, players: int,
                                                              seats: list[str]) -> None:
    # RULE: BOARD-3 2 players: bottom and top; 3: bottom, left, top; 4: all four corners.
    last = size - 1
    corner = {"bottom": last * size + last, "left": last * size, "top": 0, "right": last}
    g = Game.new(players=players, size=size, seed=7)
    for seat, where in enumerate(seats):
        pos = corner[where]
        site = g.sites[pos]
        assert CARD_DEF[site.card].name == "Homeworld"
        assert (site.owner, site.devs, site.face_up) == (seat, 1, True)
        assert g.homeworld[seat] == pos
    seated = {corner[w] for w in seats}
    assert all(CARD_DEF[s.card].name != "Homeworld" for p, s in enumerate(g.sites) if p not in seated)


def test_named_corners_of_the_three_by_three_board() -> None:
    # RULE: BOARD-3 the documented names: P0 c3, P1 a1, P2 a3, P3 c1.
    g = Game.new(players=4, size=3)
    assert [name(p, 3) for p in g.homeworld] == ["c3", "a3", "a1", "c1"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("size", [3, 4, 5])
def test_every_other_position_holds_a_face_down_card_of_the_shuffled_system_deck(players: int, size: int) -> None:
    # RULE: BOARD-4 RULE: SETUP-1
    g = Game.new(players=players, size=size, seed=size * players)
    rest = [s for pos, s in enumerate(g.sites) if pos not in g.homeworld]
    assert len(rest) == size * size - players
    for s in rest:
        d = CARD_DEF[s.card]
        assert d.kind == "system" and not d.filler
        assert not s.face_up and s.owner == -1 and s.devs == 0
    assert len(g.sysdeck) == 25 - len(rest)


@pytest.mark.parametrize("size", [6, 8])
def test_boards_larger_than_the_system_deck_deal_all_of_it_and_fill_up_with_deep_space(size: int) -> None:
    # RULE: BOARD-4 RULE: BOARD-1 (RULING) the whole deck is dealt face down; the remaining
    # positions are empty Deep Space (face up, no developments possible).
    g = Game.new(players=2, size=size, seed=3)
    dealt = system_cards_dealt(g)
    assert len(dealt) == 25 and g.sysdeck == []
    assert all(not g.sites[p].face_up for p in range(size * size) if g.sites[p].card in dealt)
    fillers = [s for s in g.sites if CARD_DEF[s.card].filler]
    assert len(fillers) == size * size - 2 - 25
    assert all(s.face_up and CARD_DEF[s.card].max_dev == 0 for s in fillers)


# --------------------------------------------------------------------------- setup


def test_decks_and_board_are_shuffled_by_the_seed() -> None:
    # RULE: SETUP-1 every deck and the system deck are shuffled; the same seed deals the same game.
    games = [Game.new(seed=s) for s in range(6)]
    again = Game.new(seed=0)
    assert again.decks == games[0].decks and [s.card for s in again.sites] == [s.card for s in games[0].sites]
    for i in range(3):
        assert len({tuple(g.decks[i]) for g in games}) == 6, f"{DOMAINS[i]} deck is not shuffled"
    assert len({tuple(s.card for s in g.sites) for g in games}) > 1
    assert len({tuple(g.sysdeck) for g in games}) == 6


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_a_homeworld_three_credits_a_scout_and_no_hand(players: int, edition: str) -> None:
    # RULE: SETUP-2
    g = Game.new(players=players, size=4, edition=edition, seed=11)
    assert g.credits == [3] * players
    assert g.hands == [[] for _ in range(players)]
    assert g.techs == [[] for _ in range(players)]
    for p in range(players):
        mine = [v for v in g.vessels.values() if v.owner == p]
        assert [v.d.name for v in mine] == ["Scout"]
        assert mine[0].pos == g.homeworld[p]
        assert mine[0].damage == 0
        site = g.sites[g.homeworld[p]]
        assert (site.owner, site.devs) == (p, 1)
    # the first player's Scout may move at once: it has been theirs since the turn began
    first_scout = next(v for v in g.vessels.values() if v.owner == g.active)
    assert any(a[0] == "jump" and a[1] == first_scout.id for a in g.legal_actions())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_player_is_drawn_from_the_seed(players: int) -> None:
    # RULE: SETUP-3 random (every seat gets to start for some seed), reproducible by seed.
    firsts = [Game.new(players=players, seed=s).active for s in range(40)]
    assert set(firsts) == set(range(players))
    assert firsts == [Game.new(players=players, seed=s).active for s in range(40)]
    g = Game.new(players=players, seed=3)
    assert g.to_move == g.active == firsts[3]
