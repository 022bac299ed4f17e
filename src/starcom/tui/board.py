"""Seat colours of the terminal games: every screen draws a seat, and what it owns, in its colour."""
from __future__ import annotations

# Seat colours; systems and vessels take their owner's colour.
SEAT_COLOURS = ("bold red", "bold dodger_blue1", "bold green3", "bold yellow")
NEUTRAL = "grey62"


def seat_style(owner: int | None) -> str:
    """The colour of a seat (a neutral grey for nobody)."""
    return SEAT_COLOURS[owner % len(SEAT_COLOURS)] if owner is not None and owner >= 0 else NEUTRAL


__all__ = ["NEUTRAL", "SEAT_COLOURS", "seat_style"]
