"""Agents that think in another build of the rules: ``hard@pure`` is the hard AI run by a child
process of the pure Python build, so that the arena can set it against the compiled build's own
``hard`` at the same time per move (one process runs one build; see :mod:`starcom.build`).

The child keeps a copy of the game, made from the same settings; before each decision the parent
sends the actions played since the last one (in the game's JSON form) and a seed drawn from the
seat's random generator, and the child answers with its agent's action. The child sees what an
agent in the parent would: the whole game object, which the agent itself narrows to its seat.

The child may also run another checkout's code (``baseline``: a folder holding ``src/starcom``),
so that an agent can meet the same agent as an earlier commit had it ("today's hard AI"). Its
loop (:data:`WORKER`) therefore uses only the registry's long-standing calls: ``games.get``, the
entry's ``rules.new/decode/encode/play`` and ``ai.make_agent``.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..build import BUILDS, child_env
from ..games import GameEntry, get


def split_name(name: str) -> tuple[str, str | None]:
    """``("hard", "pure")`` for ``"hard@pure"``, ``("hard", None)`` for ``"hard"``;
    ValueError for a build other than :data:`BUILDS`."""
    base, at, build = name.partition("@")
    if not at:
        return name, None
    if build not in BUILDS:
        raise ValueError(f"unknown build {build!r} in agent {name!r}: say {base}@pure or {base}@compiled")
    return base, build


def check_name(entry: GameEntry[Any, Any], name: str) -> None:
    """ValueError unless ``name`` is one of the game's agents, with or without an ``@build``."""
    base, _ = split_name(name)
    known = entry.ai.agent_names()
    if base not in known:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(known)} "
                         f"(each may end in @pure or @compiled to think in that build)")


class BuildAgent:
    """The agent ``name`` of game ``game``, thinking in a child process of ``build``.

    ``history`` is the list of actions (JSON form) of the game so far, which the owner of the
    game keeps up to date (the arena appends each action as it is played); the game itself
    must have been made with ``settings``. :meth:`close` ends the child."""

    def __init__(self, game: str, settings: Mapping[str, Any], name: str, build: str, history: list[Any],
                 think: float | None = None, iterations: int | None = None, baseline: str | None = None) -> None:
        self.entry = get(game)
        self.history = history
        self._sent = 0
        src = source_of(baseline) if baseline else None
        self._child = JsonChild(WORKER, child_env(build, src), "the agent's child process")
        hello = self._child.ask({"game": game, "settings": dict(settings), "agent": name, "think": think,
                                 "iterations": iterations})
        self.build: str = hello["build"]  # what the child really runs ...
        self.source: str = hello["source"]  # ... and from where (the folder holding its starcom)

    def choose(self, game: Any, rng: random.Random) -> Any:
        news = self.history[self._sent:]
        self._sent = len(self.history)
        seat = game.to_move
        got = self._child.ask({"actions": news, "seed": rng.getrandbits(63)})
        return self.entry.rules.decode(game, got["action"], seat)

    def close(self) -> None:
        self._child.close()


class JsonChild:
    """A child Python process running ``code`` with ``env`` that answers one JSON request a line
    on stdin with one JSON answer a line on stdout; an answer with an ``error`` is raised as a
    RuntimeError naming ``who``, and so is a child that ended."""

    def __init__(self, code: str, env: dict[str, str], who: str) -> None:
        self.who = who
        self._proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.who} ended (status {self._proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"{self.who} failed: {answer['error']}")
        return answer

    def close(self) -> None:
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            self._proc.wait(timeout=30)


def source_of(baseline: str) -> Path:
    """The ``src`` folder of the checkout ``baseline`` (ValueError when it holds no starcom)."""
    src = Path(baseline).expanduser().resolve() / "src"
    if not (src / "starcom" / "games.py").is_file():
        raise ValueError(f"baseline {baseline} is not a starcom checkout (no src/starcom/games.py in it)")
    return src


# The child's loop: one JSON request a line on stdin, one answer a line (see the module docstring;
# written out here, not imported, so that another checkout's code can run it).
WORKER = """
import json, os, random, sys
import starcom
from starcom.games import get
try:
    from starcom.build import build_name
except ImportError:  # a checkout from before the compiled build
    def build_name(): return "pure"
first = json.loads(sys.stdin.readline())
entry = get(first["game"])
game = entry.rules.new(**first["settings"])
agent = entry.ai.make_agent(first["agent"], think=first["think"], iterations=first["iterations"])
print(json.dumps({"build": build_name(), "source": os.path.dirname(os.path.dirname(starcom.__file__))}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    try:
        for data in req["actions"]:
            entry.rules.play(game, entry.rules.decode(game, data, game.to_move))
        answer = {"action": entry.rules.encode(agent.choose(game, random.Random(req["seed"])))}
    except Exception as exc:  # told to the parent, which records it as the game's error
        answer = {"error": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(answer), flush=True)
"""


__all__ = ["BUILDS", "WORKER", "BuildAgent", "JsonChild", "check_name", "source_of", "split_name"]
