"""Rule scenarios of any game: read scenario files, hand each scenario to its game, count.

A scenario file (YAML, ``docs/scenarios.md``) holds one scenario (a mapping), a list of them or
several documents. A scenario's ``game`` names the registered game it is a position of (none:
:data:`~starcom.games.LEGACY_GAME`, as for saved games); that game's entry runs it (its
``tools.scenario`` hook), so this module knows no game's positions, actions or expectations.
``starcom scenario FILES`` is :func:`run_files`.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .games import LEGACY_GAME
from .games import get as get_game


class ScenarioError(Exception):
    """A scenario that is malformed or whose expectations fail; the message says which."""


@dataclass
class Scenario:
    """One scenario: its name, its mapping as read, the file it came from, and the labels a
    game's runner gave the pieces it set up (for its messages)."""

    name: str
    spec: dict[str, Any]
    source: str = ""
    labels: dict[str, int] = field(default_factory=dict)

    @property
    def game(self) -> Any:
        """The game the scenario is a position of, as the file gives it (not checked here)."""
        return self.spec.get("game", LEGACY_GAME)


def load(path: str | Path) -> list[Scenario]:
    """Read the scenarios of a YAML file; ScenarioError for unreadable or malformed files."""
    p = Path(path)
    try:
        docs = [d for d in yaml.safe_load_all(p.read_text("utf-8")) if d is not None]
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"{path}: not valid YAML ({exc})") from None
    out: list[Scenario] = []
    for doc in docs:
        for spec in (doc if isinstance(doc, list) else [doc]):
            if not isinstance(spec, dict):
                raise ScenarioError(f"{path}: a scenario must be a mapping")
            out.append(Scenario(str(spec.get("name", f"{p.name}#{len(out) + 1}")), spec, str(p)))
    return out


def run(sc: Scenario) -> list[str]:
    """Run one scenario with the runner of its game: what failed, empty when it passed. A game
    that is not registered, or has no runner, fails the scenario with a message saying so."""
    try:
        entry = get_game(sc.game)
    except ValueError as exc:
        return [f"game: {exc}"]
    if entry.tools.scenario is None:
        return [f"game: {entry.title} has no scenario runner"]
    return entry.tools.scenario(sc.spec)


def run_files(paths: list[str], echo: Callable[[str], object] = print) -> int:
    """Run every scenario in ``paths``, a line each through ``echo``, then the totals; returns
    0 if all passed, else 1 (a file that cannot be read counts as one failure)."""
    failed = passed = 0
    for path in paths:
        try:
            scenarios = load(path)
        except ScenarioError as exc:
            echo(f"ERROR {exc}")
            failed += 1
            continue
        for sc in scenarios:
            problems = run(sc)
            if problems:
                failed += 1
                echo(f"FAIL {sc.source}: {sc.name}")
                for msg in problems:
                    echo(f"     {msg}")
            else:
                passed += 1
                echo(f"ok   {sc.source}: {sc.name}")
    echo(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


__all__ = ["Scenario", "ScenarioError", "load", "run", "run_files"]
