"""The generated legal actions are exactly the actions the checker accepts.

The property tests show every generated action is accepted; these tests show the converse for
every action kind whose arguments can be enumerated: a candidate the checker accepts is listed by
``legal_actions``. Together they pin the generators to the rules, which live in the checkers.
"""
from __future__ import annotations

import random
from itertools import combinations

import pytest

from starcom.sc.engine.game import Game
from starcom.sc.cards.catalogue import DEFS
from starcom.sc.engine.actions import why_illegal

from conftest import EDITIONS, pick_action


def candidates(g: Game) -> list[tuple]:
    """Every action of an enumerable kind, legal or not, for the current decision."""
    p, n_pos = g.actor, len(g.sites)
    vessels = list(g.vessels)
    out: list[tuple] = [("end",), ("pass",), ("done",), ("buy",), ("propose",), ("cancel",), ("decline",)]
    out += [("build", d.index, pos) for d in DEFS for pos in range(n_pos)]
    out += [("develop", pos) for pos in range(n_pos)]
    out += [("fight", pos) for pos in range(n_pos)]
    out += [(k, v) for k in ("scrap", "repair") for v in vessels]
    out += [("offer", q) for q in range(g.cfg.players)]
    out += [("sell", a, b) for a, b in combinations(sorted(g.hands[p]), 2)]
    out += [("jump", v, pos, e, c) for v in vessels for pos in range(n_pos) for e in (0, 1) for c in range(6)]
    out += [("retreat", v, pos) for v in vessels for pos in range(n_pos)]
    out += [("redirect", a, b) for a in vessels for b in vessels]
    out += [("assign", a, b, amt) for a in vessels for b in vessels for amt in range(1, 12)]
    if g.choice is not None:
        out += [("choose", o) for o in g.choice.options]
    return out


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players,size", [(2, 3), (3, 4), (4, 5)])
def test_every_accepted_candidate_is_listed(edition: str, players: int, size: int) -> None:
    rnd = random.Random(players * 100 + size)
    checked = 0
    for seed in range(3):
        g = Game.new(players=players, size=size, edition=edition, seed=seed, turn_limit=40)
        for step in range(400):
            if g.over:
                break
            if step % 7 == 0:  # a sample of positions keeps the test quick
                legal = set(g.legal_actions())
                for a in candidates(g):
                    accepted = why_illegal(g, a) is None
                    assert accepted == (a in legal), (a, g.decision, why_illegal(g, a))
                checked += 1
            g.apply(pick_action(g, rnd))
    assert checked > 20
