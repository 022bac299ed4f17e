"""Lasting effects (engine/lasting.py): records with a duration, the state's JSON form, and
states saved before the layer existed (card flags on vessels, sites and the state)."""
from __future__ import annotations

from typing import Any

from starcom.sc.engine.game import Game
from starcom.sc.engine import lasting as L
from starcom.sc.engine.view import player_view

from .helpers import setup, vessel


def _flagged() -> tuple[Game, dict[str, int]]:
    return setup(setup={"vessels": [vessel("Corvette", 0, "b2", "c", atk_bonus=2, hp_bonus=1, shielded=True),
                                    vessel("Destroyer", 1, "b2", "d", no_attack=True)],
                        "board": {"b2": {"interdicted_by": [1, 0]}}})


def _old_layout(data: dict[str, Any], g: Game) -> dict[str, Any]:
    """``data`` as it was saved when cards set fields of vessels, sites and the state."""
    old = dict(data)
    del old["lasting"]
    old["vessels"] = [dict(v, atk_bonus=L.attack_bonus(g, v["id"]), hp_bonus=L.hp_bonus(g, v["id"]),
                           extra_targets=0, shielded=L.shielded(g, v["id"]), untargetable=False,
                           can_redirect=False, redirected=False, no_attack=L.attack_forbidden(g, v["id"]),
                           nexus=False) for v in data["vessels"]]
    old["sites"] = [dict(s, interdicted_by=L.jump_blockers(g, pos)) for pos, s in enumerate(data["sites"])]
    old["stabilized"], old["extra_turns"] = [], 0
    return old


def test_records_round_trip_through_json_and_clones_share_them() -> None:
    g, _ = _flagged()
    assert g.lasting and g.clone().lasting is g.lasting
    back = Game.from_json(g.to_json())
    assert back.lasting == g.lasting and back.lasting_kinds == g.lasting_kinds
    assert back.to_json() == g.to_json()


def test_a_state_saved_with_card_flags_loads_with_the_same_view() -> None:
    g, labels = _flagged()
    old = _old_layout(g.to_json(), g)
    back = Game.from_json(old)
    for seat in (0, 1, None):
        assert player_view(back, seat) == player_view(g, seat)
    assert L.attack_bonus(back, labels["c"]) == 2 and L.shielded(back, labels["c"])
    assert L.attack_forbidden(back, labels["d"]) and L.jump_blockers(back, _pos(g)) == [1, 0]


def _pos(g: Game) -> int:
    return next(pos for pos in range(len(g.sites)) if L.jump_forbidden(g, pos))


def test_expiry_moments() -> None:
    g, labels = _flagged()
    pos = _pos(g)
    L.expire(g, L.Until.END_OF_TURN)
    assert not L.shielded(g, labels["c"]) and L.attack_bonus(g, labels["c"]) == 0
    assert L.attack_forbidden(g, labels["d"]) and L.jump_blockers(g, pos) == [1, 0]
    L.expire(g, L.Until.READY, 1)  # P1's Ready phase: their ship may attack, their hold ends
    assert not L.attack_forbidden(g, labels["d"]) and L.jump_blockers(g, pos) == [0]
    L.forget_vessel(g, labels["c"])
    assert L.jump_blockers(g, pos) == [0]  # a position's record is not a vessel's
    L.expire(g, L.Until.READY, 0)
    assert g.lasting == () and g.lasting_kinds == 0
