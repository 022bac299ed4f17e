"""Pinned legal-action counts (perft) along seeded playouts of every edition and several sizes.

The counts in tests/perft/starcom.perft were made before the engine's refactors; any change in
what is legal, in the setup or in the use of the random generator shows up here as a different
count at a named decision. (They do not depend on the order of ``legal_actions``.)
"""
from __future__ import annotations

from pathlib import Path

import pytest

from starcom.sc.perft import CASES, STEPS, Case, counts, read_file

PINNED_FILE = Path(__file__).parent / "perft" / "starcom.perft"
PINNED = read_file(PINNED_FILE)


def test_every_case_is_pinned() -> None:
    assert sorted(PINNED) == sorted(case.key for case in CASES)
    assert {"standard", "classic"} == {case.edition for case in CASES}
    assert {3, 4, 5} == {case.size for case in CASES}
    # Most playouts run the whole length; a short one is a game a random player lost early.
    assert sum(len(c) == STEPS for c in PINNED.values()) >= len(CASES) - 3


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.key.replace(" ", "-"))
def test_counts_match_the_pinned_file(case: Case) -> None:
    found = counts(case)
    pinned = PINNED[case.key]
    for i, (got, want) in enumerate(zip(found, pinned)):
        assert got == want, f"{case.key}: decision {i} has {got} legal actions, pinned {want}"
    assert len(found) == len(pinned), f"{case.key}: the playout lasted {len(found)} decisions, pinned {len(pinned)}"


def test_a_changed_count_is_caught(tmp_path: Path) -> None:
    """The file reader and the comparison see a one-off difference."""
    case = CASES[1]
    changed = list(PINNED[case.key])
    changed[5] += 1
    path = tmp_path / "bad.perft"
    path.write_text(f"# comment\n{case.key}: {' '.join(map(str, changed))}\n")
    assert read_file(path)[case.key] != counts(case)
    path.write_text("no colon here\n")
    with pytest.raises(ValueError, match="expected 'case: counts'"):
        read_file(path)
