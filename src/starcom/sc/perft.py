"""Perft for Star Commander: the number of legal actions at every decision along seeded playouts.

Chess engines pin their move generator with perft counts; this is the same idea for a game with
hidden cards and chance. Each case plays one game from a seed, choosing uniformly at random among
the legal actions, and records how many there were at each decision. The choice sorts the actions
by their JSON text first, so it depends on *which* actions are legal, not on the order
``legal_actions`` lists them in: a refactor may reorder them, but a change in what is legal, in the
setup or in how the game uses its random generator changes the counts.

``tests/perft/starcom.perft`` holds the pinned counts; ``python -m starcom.sc.perft`` prints them
again (``--write`` overwrites the file, only after a rules change that is meant to change them).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from .engine.game import Game
from .engine.actions import to_json

STEPS = 400  # decisions per case: past setup, into combat, trades and card play


@dataclass(frozen=True)
class Case:
    """One seeded playout: rules edition, number of players, board size, seed."""

    edition: str
    players: int
    size: int
    seed: int

    @property
    def key(self) -> str:
        return f"{self.edition} {self.players}p {self.size}x{self.size} seed {self.seed}"


CASES = tuple(Case(edition, players, size, seed)
              for edition in ("standard", "classic")
              for players, size in ((2, 3), (3, 4), (4, 5), (2, 5))
              for seed in (1, 2, 3))


def counts(case: Case, steps: int = STEPS) -> list[int]:
    """Legal-action counts at each of the first ``steps`` decisions of ``case``'s playout."""
    g = Game.new(case.players, case.size, case.edition, case.seed)
    rng = random.Random(f"perft:{case.seed}")
    found: list[int] = []
    while len(found) < steps and not g.over:
        legal = g.legal_actions()
        found.append(len(legal))
        ranked = sorted(legal, key=lambda a: json.dumps(to_json(a), sort_keys=True))
        g.apply(ranked[rng.randrange(len(ranked))])
    return found


def format_line(case: Case, found: list[int]) -> str:
    return f"{case.key}: {' '.join(map(str, found))}"


def read_file(path: Path) -> dict[str, list[int]]:
    """The pinned counts in ``path``, keyed like :attr:`Case.key` (``#`` lines are comments)."""
    pinned: dict[str, list[int]] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        key, sep, rest = line.partition(":")
        if not sep:
            raise ValueError(f"{path}:{number}: expected 'case: counts', got {line!r}")
        pinned[key.strip()] = [int(x) for x in rest.split()]
    return pinned


HEADER = """\
# Star Commander perft: legal actions at each decision of seeded random playouts.
# Made by `python -m starcom.sc.perft --write`; checked by tests/test_perft.py.
# A line: edition, players, board size, seed, then the count at each decision.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m starcom.sc.perft", description="Legal-action counts along seeded playouts (perft).")
    parser.add_argument("--write", type=Path, metavar="FILE", help="write the counts to FILE")
    args = parser.parse_args(argv)
    lines = [format_line(case, counts(case)) for case in CASES]
    text = HEADER + "\n".join(lines) + "\n"
    if args.write:
        args.write.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
