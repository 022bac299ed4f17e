"""Board geometry: an N×N grid of systems drawn as a diamond (BOARD-1..3).

Positions are integers ``row * N + col``. The diamond puts (0, 0) at the top, (N-1, N-1) at the
bottom, (N-1, 0) on the left and (0, N-1) on the right; seats go clockwise from the bottom.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Final

MIN_SIZE: Final = 2
MAX_SIZE: Final = 8


@lru_cache(maxsize=None)
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """For every position, the positions sharing a grid side with it (BOARD-2)."""
    out = []
    for pos in range(size * size):
        r, c = divmod(pos, size)
        adj = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < size and 0 <= cc < size:
                adj.append(rr * size + cc)
        out.append(tuple(adj))
    return tuple(out)


@lru_cache(maxsize=None)
def within_two(size: int) -> tuple[tuple[int, ...], ...]:
    """For every position, the other positions at most two jumps away."""
    adj = neighbours(size)
    out = []
    for pos in range(size * size):
        reach = set(adj[pos])
        for n in adj[pos]:
            reach.update(adj[n])
        reach.discard(pos)
        out.append(tuple(sorted(reach)))
    return tuple(out)


def seat_corners(size: int, players: int) -> tuple[int, ...]:
    """Homeworld positions by seat, clockwise from the bottom (BOARD-3)."""
    last = size - 1
    bottom, left, top, right = last * size + last, last * size, 0, last
    order = {2: (bottom, top), 3: (bottom, left, top), 4: (bottom, left, top, right)}
    return order[players]


def name(pos: int, size: int) -> str:
    """Short name of a position: column letter and row number, e.g. ``b3``."""
    r, c = divmod(pos, size)
    return f"{chr(ord('a') + c)}{r + 1}"


def parse(text: str, size: int) -> int:
    """Inverse of :func:`name`; ValueError for a name off the board."""
    text = text.strip().lower()
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        raise ValueError(f"bad position {text!r}: expected a column letter and a row number, e.g. b2")
    c, r = ord(text[0]) - ord("a"), int(text[1:]) - 1
    if not (0 <= r < size and 0 <= c < size):
        raise ValueError(f"position {text!r} is off the {size}x{size} board")
    return r * size + c
