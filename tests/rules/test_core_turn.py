"""The turn: TURN-1, TURN-2, READY-3 (the order of start-of-turn effects), through the public API."""
from __future__ import annotations

import pytest

from starcom.sc.engine.game import Game
from starcom.sc.cards.catalogue import CARD_DEF
from starcom.sc.scenario import build

EDITIONS = ("standard", "classic")


def phases(events: list[tuple]) -> list[str]:
    return [e[1] for e in events if e[0] == "phase"]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_turns_go_ready_command_combat_end_and_pass_clockwise(players: int, edition: str) -> None:
    # RULE: TURN-1 each turn runs Ready, Command, Combat, End; the next player clockwise (seat
    # order, BOARD-3) follows.
    g = Game.new(players=players, edition=edition, seed=2)
    first = g.active
    seen = []
    for n in range(2 * players):
        assert g.decision == "command"
        seen.append(g.active)
        events = g.apply(("end",))
        # this turn's Command phase ends with Combat and End, then the next turn begins
        assert phases(events)[:2] == ["combat", "end"]
        turn_events = [e for e in events if e[0] == "turn"]
        assert turn_events == [("turn", n + 1, g.active)]
        assert phases(events)[2:] == ["ready", "command"]
    assert seen == [(first + i) % players for i in range(2 * players)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_only_the_very_first_turn_of_the_game_skips_the_ready_phase(edition: str) -> None:
    # RULE: TURN-2 (RULING) the first player skips Ready once; everyone else's first turn and
    # every later turn has one.
    g = Game.new(players=3, edition=edition, seed=4)
    first = g.active
    assert g.phase == "command" and g.credits == [3, 3, 3]
    assert g.hands == [[], [], []]
    events = g.apply(("end",))
    second = g.active
    assert second != first and "ready" in phases(events)
    # a Homeworld's development pays 1 in the Ready phase (READY-1); it has no domain, so no draw
    assert g.credits[second] == 4 and g.credits[first] == 3
    g.apply(("end",))
    g.apply(("end",))
    assert g.active == first
    assert g.credits[first] == 4


def test_the_ready_phase_happens_on_later_turns_with_income_and_a_draw() -> None:
    # RULE: TURN-2 RULE: READY-1 RULE: READY-2 a later turn of the first player: income and a draw.
    g, _ = build({"setup": {"active": 1, "players": [{"credits": 0}],
                            "board": {"b3": {"system": "Alien System", "owner": 0, "devs": 2}},
                            "decks": {"science": ["Evasion"]}}})
    events = g.apply(("end",))
    assert g.active == 0 and phases(events)[-2:] == ["ready", "command"]
    assert g.credits[0] == 3
    assert [CARD_DEF[c].name for c in g.hands[0]] == ["Evasion"]


def _order_position() -> tuple[Game, int, int]:
    """P0's Ready phase with two start-of-turn effects whose order shows: Thrill of Discovery
    draws, Core World adds a development (to itself, the only system with room)."""
    g, _ = build({"setup": {
        "active": 0, "phase": "ready", "players": [{"credits": 0, "technologies": ["Thrill of Discovery"]}],
        "board": {"c3": {"devs": 6},
                  "c2": {"system": "Core World", "owner": 0, "devs": 3}},
        "decks": {"statecraft": ["Sabotage", "Bribery"]}}})
    thrill = g.techs[0][0]
    core = g.sites[5].card
    assert CARD_DEF[thrill].name == "Thrill of Discovery" and CARD_DEF[core].name == "Core World"
    return g, thrill, core


def test_start_of_turn_effects_wait_for_the_players_order() -> None:
    # RULE: READY-3 the Ready phase has gained income (READY-1) and drawn (READY-2) first, then
    # asks for the order of the effects.
    g, thrill, core = _order_position()
    assert g.decision == "choice" and g.choice.kind == "order"
    assert sorted(g.choice.options) == sorted([thrill, core])
    assert g.credits[0] == 6 + 3
    assert [CARD_DEF[c].name for c in g.hands[0]] == ["Sabotage"]


@pytest.mark.parametrize("first", ["Thrill of Discovery", "Core World"])
def test_start_of_turn_effects_resolve_in_the_chosen_order(first: str) -> None:
    # RULE: READY-3 in the order you choose.
    g, thrill, core = _order_position()
    events = g.apply(("choose", thrill if first == "Thrill of Discovery" else core))
    kinds = [e[0] for e in events if e[0] in ("draw", "develop")]
    assert kinds == (["draw", "develop"] if first == "Thrill of Discovery" else ["develop", "draw"])
    assert g.decision == "command"
    assert g.sites[5].devs == 4
    assert sorted(CARD_DEF[c].name for c in g.hands[0]) == ["Bribery", "Sabotage"]
