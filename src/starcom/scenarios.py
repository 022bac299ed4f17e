"""Rule scenarios of any game: read scenario files, hand each scenario to its game, count.

A scenario file (YAML, ``docs/scenarios.md``) holds one scenario (a mapping), a list of them or
several documents. A scenario's ``game`` names the registered game it is a position of (none:
:data:`~starcom.games.LEGACY_GAME`, as for saved games); that game's entry runs it (its
``tools.scenario`` hook), so this module knows no game's positions, actions or expectations.
``starcom scenario FILES`` is :func:`run_files`.

Every game runs its scenarios the same way: build the position, play the steps (an action, an
``expect`` step, an ``illegal`` step), check the final expectations. That loop is
:func:`play`, here; what differs per game (reading its setup, its actions, its expectations)
is a :class:`Runner` of hooks the game's runner hands it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import yaml

from .errors import IllegalAction
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
    def xfail(self) -> str | None:
        """Why the scenario is expected to fail (its ``xfail`` key: a known bug, the rule as it
        should be), or None."""
        reason = self.spec.get("xfail")
        return None if reason is None or reason is False else str(reason)

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


G = TypeVar("G")  # a game's position
A = TypeVar("A")  # one of its actions

# What a malformed setup, step or expectation raises on its way through a game's hooks: each is
# reported as a failure of the scenario, never let through as a crash.
MALFORMED = (LookupError, TypeError, AttributeError, ValueError)


def _no_choice(game: Any) -> str | None:
    return None


def _answers_nothing(action: Any) -> bool:
    return False


@dataclass(frozen=True)
class Runner(Generic[G, A]):
    """A game's side of running a scenario: the hooks :func:`play` calls.

    ``build(spec)`` makes the position of a scenario's mapping and its labels (ScenarioError,
    or one of :data:`MALFORMED`, for a bad setup); ``parse(game, raw, labels)`` reads a step's
    action; ``apply(game, action)`` plays it (IllegalAction if refused) and returns its events;
    ``check(game, expect, labels, events)`` returns what of ``expect`` does not hold, where
    ``events`` are those of the last action (a step's check) or of every action (the final
    check); ``snapshot(game)`` is a value that changes whenever the position does (an
    ``illegal`` step must leave it as it was). The rest have defaults: ``show`` writes an
    action in messages, ``refusal`` words a refused action's error, ``pending`` says which
    decision the game awaits that only an answering action (``answers``) may follow (None:
    none), so an unscripted one fails the scenario."""

    build: Callable[[Mapping[str, Any]], tuple[G, dict[str, int]]]
    parse: Callable[[G, Any, dict[str, int]], A]
    apply: Callable[[G, A], list[Any]]
    check: Callable[[G, Mapping[str, Any], dict[str, int], list[Any]], list[str]]
    snapshot: Callable[[G], Any]
    show: Callable[[G, A], str] = lambda game, action: repr(action)
    refusal: Callable[[IllegalAction], str] = str
    pending: Callable[[G], str | None] = _no_choice
    answers: Callable[[A], bool] = _answers_nothing


def play(sc: Scenario, runner: Runner[G, A]) -> list[str]:
    """Run scenario ``sc`` with a game's hooks: build its position, play its steps, check its
    expectations. Returns what failed (each message starts with where: ``setup``, ``step N``,
    ``end`` or ``expect``), empty when it passed; a malformed scenario fails, never raises."""
    try:
        game, labels = runner.build(sc.spec)
    except (ScenarioError, *MALFORMED) as exc:
        return [f"setup: {exc}"]
    sc.labels = labels
    log: list[Any] = []  # the events of every action step
    last: list[Any] = []  # those of the most recent one
    for i, step in enumerate(sc.spec.get("actions", []) or [], 1):
        where = f"step {i}"
        try:
            if isinstance(step, dict) and "expect" in step:
                bad = runner.check(game, step["expect"], labels, last)
                if bad:
                    return [f"{where}: {b}" for b in bad]
                continue
            if isinstance(step, dict) and "illegal" in step:
                act = runner.parse(game, step["illegal"], labels)
                before = runner.snapshot(game)
                try:
                    runner.apply(game, act)
                except IllegalAction as exc:
                    rule = step.get("rule")
                    if rule and rule not in exc.reason:
                        return [f"{where}: {runner.show(game, act)} was illegal, but for another reason: "
                                f"{exc.reason}"]
                    if runner.snapshot(game) != before:
                        return [f"{where}: the illegal action changed the state"]
                    continue
                return [f"{where}: expected {runner.show(game, act)} to be illegal, but it was applied"]
            act = runner.parse(game, step.get("do") if isinstance(step, dict) else step, labels)
            waiting = runner.pending(game)
            if waiting is not None and not runner.answers(act):
                return [f"{where}: {waiting} before {runner.show(game, act)}"]
            last = runner.apply(game, act)
            log.extend(last)
        except IllegalAction as exc:
            return [f"{where}: {runner.refusal(exc)}"]
        except ScenarioError as exc:
            return [f"{where}: {exc}"]
        except MALFORMED as exc:
            return [f"{where}: malformed step {step!r} ({type(exc).__name__}: {exc})"]
    waiting = runner.pending(game)
    if waiting is not None and not sc.spec.get("allow_pending_choice"):
        return [f"end: {waiting}"]
    try:
        return runner.check(game, sc.spec.get("expect", {}) or {}, labels, log)
    except (ScenarioError, *MALFORMED) as exc:
        return [f"expect: malformed expectation ({type(exc).__name__}: {exc})"]


def run(sc: Scenario) -> list[str]:
    """Run one scenario with the runner of its game: what failed, empty when it passed. A game
    that is not registered, or has no runner, fails the scenario with a message saying so."""
    try:
        entry = get_game(sc.game)
    except ValueError as exc:
        return [f"game: {exc}"]
    if entry.tools.scenario is None:
        return [f"game: {entry.title} has no scenario runner"]
    # ``xfail`` is read here (run_files, the test suite), never by a game's runner
    return entry.tools.scenario({k: v for k, v in sc.spec.items() if k != "xfail"})


def run_files(paths: list[str], echo: Callable[[str], object] = print) -> int:
    """Run every scenario in ``paths``, a line each through ``echo``, then the totals; returns
    0 if all passed, else 1 (a file that cannot be read counts as one failure; a scenario marked
    ``xfail`` that fails is counted apart, one that passes is a failure)."""
    failed = passed = known = 0
    for path in paths:
        try:
            scenarios = load(path)
        except ScenarioError as exc:
            echo(f"ERROR {exc}")
            failed += 1
            continue
        for sc in scenarios:
            problems = run(sc)
            if sc.xfail is not None:  # a known bug: failing is expected, passing is news
                if problems:
                    known += 1
                    echo(f"xfail {sc.source}: {sc.name} ({sc.xfail})")
                else:
                    failed += 1
                    echo(f"XPASS {sc.source}: {sc.name}: marked xfail ({sc.xfail}) but it passes")
                continue
            if problems:
                failed += 1
                echo(f"FAIL {sc.source}: {sc.name}")
                for msg in problems:
                    echo(f"     {msg}")
            else:
                passed += 1
                echo(f"ok   {sc.source}: {sc.name}")
    echo(f"{passed} passed, {failed} failed" + (f", {known} known bugs (xfail)" if known else ""))
    return 1 if failed else 0


__all__ = ["MALFORMED", "Runner", "Scenario", "ScenarioError", "load", "play", "run", "run_files"]
