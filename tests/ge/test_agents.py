"""The shared computer players on Galactic Empires: they read nothing hidden, repeat exactly
under a seed and an iteration budget, and the search's playouts stop where they say."""
from __future__ import annotations

import random

import pytest

import starcom.ge.entry  # noqa: F401 — registers "ge"
from starcom.agents.generic import GenericDomain, GenericSearch, GreedyAgent
from starcom.games import get

GE = get("ge")


def positions(seed: int, steps: int) -> list:
    """Positions of a greedy game where the seat to move has a real choice."""
    g = GE.rules.new(seed=seed)
    rng = random.Random(seed)
    greedy = GreedyAgent(GE)
    out = []
    while not g.over and len(out) < steps:
        if len(g.legal_actions()) > 2 and GE.rules.passive(g) is None:
            out.append(g.clone())
        g.apply(greedy.choose(g, rng))
    return out


@pytest.mark.parametrize("name", ["greedy", "heuristic", "ismcts"])
def test_a_choice_is_the_same_whatever_the_seat_cannot_see(name: str) -> None:
    """Twin positions that differ only in the other hand, the decks' order and a hidden
    reserve: the same decision under the same seed."""
    for g in positions(3, 6)[::2]:
        me = g.to_move
        twin = g.determinize(me, random.Random(99))
        assert twin.s.players[1 - me].hand != g.s.players[1 - me].hand or not g.s.players[1 - me].hand
        options = {"iterations": 8} if name == "ismcts" else {}
        picks = [GE.ai.make_agent(name, **options).choose(x, random.Random(5)) for x in (g, twin)]
        assert picks[0] == picks[1]


def test_the_search_repeats_exactly_under_a_seed_and_spends_its_budget() -> None:
    searched = 0
    for g in positions(7, 8):
        runs = []
        for _ in range(2):
            agent = GE.ai.make_agent("ismcts", iterations=12)
            runs.append((agent.choose(g, random.Random(1)), agent.last_iterations))
        assert runs[0] == runs[1] and runs[0][0] in g.legal_actions()
        assert runs[0][1] <= 12 + 3  # the last round is finished
        searched += runs[0][1] >= 12
    assert searched  # (where the candidates judge alike one ply deep, there is nothing to search)


def test_a_playout_ends_at_the_start_of_the_searchers_next_turn() -> None:
    """Two turns: the rest of the searcher's, the other seat's, then it stops."""
    domain = GenericDomain(GE)
    tried = 0
    for g in positions(11, 12):
        me = g.to_move
        if g.s.phase == "setup" or g.s.active != me:
            continue
        tried += 1
        turn = g.s.players[me].turns
        det = g.determinize(me, random.Random(0))
        domain.playout(det, me)
        assert det.over or (det.to_move == me and GE.rules.passive(det) is None and det.s.players[me].turns == turn + 1)
    assert tried


def test_the_search_plays_only_legal_actions_through_a_short_game() -> None:
    g = GE.rules.new(seed=5, edition="quick", turn_limit=3)
    search = GenericSearch(GenericDomain(GE), think=None, iterations=4)
    greedy = GreedyAgent(GE)
    rng = random.Random(0)
    while not g.over:
        agent = search if g.to_move == 0 else greedy
        g.apply(agent.choose(g, rng))  # apply checks legality
    assert g.over
