"""A small seeded generator whose whole state is one integer (cheap to clone, JSON-friendly)."""
from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1


def seed(value: int) -> int:
    """The generator state for a game seed."""
    return (value * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """SplitMix64: returns (new_state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) (n >= 1)."""
    state, x = next_u64(state)
    return state, x % n


def shuffle(state: int, items: list[Any]) -> int:
    """Fisher-Yates shuffle of ``items`` in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
