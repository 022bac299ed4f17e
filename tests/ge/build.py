"""Positions for Galactic Empires rule tests, built by moving real cards of a dealt game.

``table()`` deals a game (no reserve fleets) and puts it in turn 3 or later, so no turn-1/2
restriction applies unless a test sets ``turns``. ``put`` brings a card of a seat's deck list
into play where the test says; ``give`` puts cards in a hand. They are the scenario runner's
own builders (:mod:`starcom.ge.scenario`); this module adds a few shortcuts for tests.
"""
from __future__ import annotations

from typing import Any

from starcom.ge import board
from starcom.ge.game import GalacticEmpires
from starcom.ge.scenario import give, put, table, take

__all__ = ["combine", "give", "legal", "put", "strength", "table", "take"]


def combine(g: GalacticEmpires, cruiser: int, capsule: int) -> None:
    """Make two Krebiz parts in play one ship, as a play would."""
    from starcom.ge.cards.krebiz import join
    join(g.s, cruiser, capsule)
    g.s.units[cruiser].locked = g.s.units[capsule].locked = False


def legal(g: GalacticEmpires, kind: str) -> list[tuple[Any, ...]]:
    return [a for a in g.legal_actions() if a[0] == kind]


def strength(g: GalacticEmpires, uid: int) -> int:
    return board.strength(g.s, uid)
