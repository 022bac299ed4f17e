"""Pinned legal-action counts (perft) of Galactic Empires along seeded random playouts of both
editions: any change in what is legal, in the setup or in the use of the seeded generator
shows up as a different count at a named decision."""
from __future__ import annotations

from pathlib import Path

import pytest

from starcom.ge.perft import CASES, STEPS, counts, key, read_file

PINNED = read_file(Path(__file__).parents[1] / "perft" / "ge.perft")


def test_every_case_is_pinned() -> None:
    assert sorted(PINNED) == sorted(key(e, s) for e, s in CASES)
    assert sum(len(c) == STEPS for c in PINNED.values()) >= len(CASES) - 2


@pytest.mark.parametrize(("edition", "seed"), CASES, ids=lambda x: str(x))
def test_counts_match_the_pinned_file(edition: str, seed: int) -> None:
    found = counts(edition, seed)
    pinned = PINNED[key(edition, seed)]
    first = next((i for i, (a, b) in enumerate(zip(found, pinned)) if a != b), None)
    assert first is None and len(found) == len(pinned), (
        f"{key(edition, seed)}: decision {first}: {found[first] if first is not None else len(found)} "
        f"legal actions, pinned {pinned[first] if first is not None else len(pinned)}")
