"""Galactic Empires cards as the browser's glossary lists them (``GET /api/cards?game=ge``).

One JSON-ready dict per distinct card of the two decks, in catalogue order: the printed facts
of :class:`~.cards.CardSpec`, its copies in each deck and the catalogue's own summary text.
Points are tables of the nonzero types only (``{"supply": 1, "energy": 1}``); numbers that do
not apply to a card's kind (``passive``, ``duration``, ``slots``) are None.
"""
from __future__ import annotations

from typing import Any

from .cards import CARDS, EMPIRES, POINT_TYPES, CardSpec, Points


def _points(points: Points) -> dict[str, int]:
    return {name: n for name, n in zip(POINT_TYPES, points) if n}


def entry(card: CardSpec) -> dict[str, Any]:
    """One card as the glossary shows it."""
    return {
        "key": card.key, "id": card.id, "name": card.name, "label": card.label,
        "kind": card.kind, "class": card.cls, "empire": card.empire, "reaction": card.reaction,
        "strength": card.strength, "cost": _points(card.cost), "generates": _points(card.generates),
        "card_damage": card.card_damage, "shields": card.shields, "phasers": card.phasers,
        "heavy": card.heavy, "one_shot": card.one_shot, "passive": card.passive,
        "duration": card.duration, "slots": card.slots,
        "copies": dict(zip(EMPIRES, card.copies)), "text": card.text,
    }


def glossary() -> list[dict[str, Any]]:
    """Every distinct card of the Argonian and Krebiz decks, in catalogue order."""
    return [entry(card) for card in CARDS if any(card.copies)]


__all__ = ["entry", "glossary"]
