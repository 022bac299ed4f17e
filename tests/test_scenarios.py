"""Runs every scenario file under tests/scenarios (the rules tests written as scenarios), each by
the runner of the game it names (starcom.scenarios)."""
from pathlib import Path

import pytest

from starcom.scenarios import Scenario, load, run

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))
CASES: list[Scenario] = [sc for f in FILES for sc in load(f)]


@pytest.mark.parametrize("sc", CASES, ids=[f"{Path(c.source).stem}: {c.name}" for c in CASES])
def test_scenario(sc: Scenario) -> None:
    problems = run(sc)
    assert not problems, "\n".join(problems)
