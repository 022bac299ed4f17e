"""Perft for Galactic Empires: legal-action counts at each decision of seeded random playouts,
as :mod:`starcom.sc.perft` does for Star Commander (the choice sorts the actions by their JSON
text, so the counts pin *which* actions are legal, not their order).

``tests/perft/ge.perft`` holds the pinned counts; ``python -m starcom.ge.perft`` prints them
(``--write FILE`` writes them, only after a rules change meant to change them).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from ..sc.perft import read_file
from .game import GalacticEmpires

STEPS = 400
CASES = tuple((edition, seed) for edition in ("full", "quick") for seed in (1, 2, 3))
HEADER = """\
# Galactic Empires perft: legal actions at each decision of seeded random playouts.
# Made by `python -m starcom.ge.perft --write FILE`; checked by tests/ge/test_perft.py.
# A line: edition, seed, then the count at each decision.
"""


def key(edition: str, seed: int) -> str:
    return f"{edition} seed {seed}"


def counts(edition: str, seed: int, steps: int = STEPS) -> list[int]:
    """Legal-action counts at each of the first ``steps`` decisions of one seeded playout."""
    g = GalacticEmpires.new(edition=edition, seed=seed)
    rng = random.Random(f"perft:{seed}")
    found: list[int] = []
    while len(found) < steps and not g.over:
        legal = g.legal_actions()
        found.append(len(legal))
        ranked = sorted(legal, key=lambda a: json.dumps(list(a)))
        g.apply(ranked[rng.randrange(len(ranked))])
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m starcom.ge.perft",
                                     description="Galactic Empires legal-action counts along seeded playouts.")
    parser.add_argument("--write", type=Path, metavar="FILE", help="write the counts to FILE")
    args = parser.parse_args(argv)
    text = HEADER + "".join(f"{key(e, s)}: {' '.join(map(str, counts(e, s)))}\n" for e, s in CASES)
    if args.write:
        args.write.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


__all__ = ["CASES", "STEPS", "counts", "key", "read_file"]

if __name__ == "__main__":
    raise SystemExit(main())
