"""Star Commander's computer players: a registry of its agents by name, and the difficulty
levels offered to players (the entry's ``make_agent`` and ``agent_names``)."""
from __future__ import annotations

from typing import Callable

from ...protocol import Agent


def _random(think: float | None, iterations: int | None) -> Agent:
    from ...agents.random_agent import RandomAgent
    return RandomAgent()


def _greedy(think: float | None, iterations: int | None) -> Agent:
    from .greedy import GreedyAgent
    return GreedyAgent()


def _heuristic(think: float | None, iterations: int | None) -> Agent:
    from .heuristic import HeuristicAgent
    return HeuristicAgent()


def _ismcts(think: float | None, iterations: int | None) -> Agent:
    from .search_domain import IsmctsAgent
    if think is None and iterations is None:
        think = DEFAULT_THINK
    return IsmctsAgent(think=think, iterations=iterations)


DEFAULT_THINK = 1.0  # seconds per decision for search agents when no budget is given

# Only search agents take a budget (``think`` seconds or ``iterations``); the others ignore it.
AGENTS: dict[str, Callable[[float | None, int | None], Agent]] = {
    "random": _random, "greedy": _greedy, "heuristic": _heuristic, "ismcts": _ismcts,
}

# What a player picks in the browser or terminal: level -> (agent, think seconds).
DIFFICULTIES: dict[str, tuple[str, float | None]] = {
    "easy": ("greedy", None),
    "normal": ("heuristic", None),
    "hard": ("ismcts", DEFAULT_THINK),
}
DEFAULT_LEVEL = "normal"  # the level offered first (new AI seats, takeovers)


def agent_names() -> list[str]:
    """Every name :func:`make_agent` accepts: the agents, then the difficulty levels."""
    return sorted(AGENTS) + list(DIFFICULTIES)


def make_agent(name: str, *, think: float | None = None, iterations: int | None = None) -> Agent:
    """A new agent of the registered kind or difficulty level ``name``.

    ``think`` (seconds per decision) and ``iterations`` budget the search agents; given both,
    the search stops at whichever comes first. ValueError lists the known names."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key in DIFFICULTIES:
        key, level_think = DIFFICULTIES[key]
        think = think if think is not None else level_think
    try:
        factory = AGENTS[key]
    except (KeyError, TypeError):
        raise ValueError(f"unknown agent {name!r}: choose one of {', '.join(agent_names())}") from None
    if think is not None and think <= 0:
        raise ValueError(f"think time must be positive, not {think}")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    return factory(think, iterations)


__all__ = ["AGENTS", "DEFAULT_LEVEL", "DEFAULT_THINK", "DIFFICULTIES", "agent_names", "make_agent"]
