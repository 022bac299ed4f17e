"""Galactic Empires card data: the catalogue of Basic Deck A and the two deck lists."""
from .catalogue import (
    BY_ID,
    BY_KEY,
    CARDS,
    EMPIRES,
    KREBIZ_PAIRS,
    POINT_TYPES,
    QUICK_RESERVE,
    CardSpec,
    Points,
    deck_list,
)

__all__ = [
    "BY_ID", "BY_KEY", "CARDS", "EMPIRES", "KREBIZ_PAIRS", "POINT_TYPES", "QUICK_RESERVE",
    "CardSpec", "Points", "deck_list",
]
