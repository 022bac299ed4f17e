"""Runs every scenario file under tests/scenarios (the rules tests written as scenarios), each by
the runner of the game it names (starcom.scenarios)."""
from pathlib import Path

import pytest

from starcom.scenarios import Scenario, load, run

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))
CASES: list[Scenario] = [sc for f in FILES for sc in load(f)]


PARAMS = [pytest.param(c, id=f"{Path(c.source).stem}: {c.name}",
                       marks=[pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else [])
          for c in CASES]


@pytest.mark.parametrize("sc", PARAMS)
def test_scenario(sc: Scenario) -> None:
    problems = run(sc)
    assert not problems, f"{sc.source}: {sc.name}\n" + "\n".join(problems)
