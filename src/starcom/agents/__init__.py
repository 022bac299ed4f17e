"""Computer players: the :class:`Agent` protocol and a registry of agents by name."""
from __future__ import annotations

import random
from typing import Callable, Protocol, runtime_checkable

from ..engine.game import Game

Action = tuple


@runtime_checkable
class Agent(Protocol):
    """Decides for ``game.to_move``. Must return one of ``game.legal_actions()`` and may use only
    what that player can know (agents that search do so on ``game.determinize(...)``)."""

    name: str

    def choose(self, game: Game, rng: random.Random) -> Action:
        ...


def _random() -> Agent:
    from .random_agent import RandomAgent
    return RandomAgent()


def _greedy() -> Agent:
    from .greedy import GreedyAgent
    return GreedyAgent()


AGENTS: dict[str, Callable[[], Agent]] = {"random": _random, "greedy": _greedy}


def make_agent(name: str) -> Agent:
    """A new agent of the registered kind ``name``; ValueError lists the known names."""
    try:
        factory = AGENTS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown agent {name!r}: choose one of {', '.join(sorted(AGENTS))}") from None
    return factory()


__all__ = ["AGENTS", "Agent", "make_agent"]
