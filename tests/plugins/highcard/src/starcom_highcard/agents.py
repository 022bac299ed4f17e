"""High Card's computer players: starcom's random agent and its ISMCTS search over
:class:`HighCardDomain`, at three levels; and :func:`evaluate`, a position's worth to a seat."""
from __future__ import annotations

import random
from collections.abc import Hashable

from starcom.agents.ismcts import Ismcts
from starcom.agents.random_agent import RandomAgent
from starcom.protocol import Agent

from .game import KEEP, SWAP, Action, HighCard
from .observer import OBSERVER

LEVELS = {"easy": "random", "normal": "ismcts", "hard": "ismcts"}  # level -> the agent playing it
AGENTS = ("ismcts", "random")
ITERATIONS = {"hard": 200}  # the search's playouts per decision at a level (others: DEFAULT_ITERATIONS)
DEFAULT_ITERATIONS = 40


class HighCardDomain:
    """High Card for the ISMCTS search: the tree runs to the end of the game; the others keep a
    card above the middle and swap the rest; a leaf is played out that way and scored."""

    def canonical(self, game: HighCard, me: int) -> HighCard:
        return OBSERVER.canonical(game, me)

    def forced(self, game: HighCard, actions: list[Action]) -> Action | None:
        return None

    def evaluate(self, game: HighCard, me: int) -> float:
        return float(game.hands[me])

    def root_choices(self, game: HighCard, actions: list[Action], rng: random.Random) -> list[Action]:
        return list(actions)

    def choices(self, game: HighCard) -> list[Action]:
        return game.legal_actions()

    def available(self, game: HighCard, choices: list[Action]) -> list[Action]:
        return [a for a in choices if a in game.legal_actions()]

    def horizon(self, game: HighCard) -> Hashable:
        return 0

    def stops(self, game: HighCard, choice: Action) -> bool:
        return False

    def play(self, game: HighCard, choice: Action) -> None:
        game.apply(choice)

    def reply(self, game: HighCard) -> None:
        middle = (game.players + len(game.deck) + 1) / 2
        game.apply(KEEP if game.hands[game.actor] > middle else SWAP)

    def reward(self, game: HighCard, horizon: Hashable, me: int, baseline: float) -> float:
        while not game.over:
            self.reply(game)
        return (game.returns()[me] + 1) / 2

    def widen_weight(self, choice: Action) -> float:
        return 1.0

    def resolve(self, game: HighCard, choice: Action, actions: list[Action], searched: list[Action],
                prior: dict[Action, float]) -> Action:
        return choice


def agent_names() -> list[str]:
    """What :func:`make_agent` takes: the agents, then the levels."""
    return [*AGENTS, *LEVELS]


def make_agent(name: str, *, think: float | None = None, iterations: int | None = None) -> Agent:
    """The agent or level ``name``; ValueError lists the names there are."""
    kind = LEVELS.get(name, name)
    if kind == "random":
        return RandomAgent()
    if kind == "ismcts":
        return Ismcts(HighCardDomain(), think=think, iterations=iterations or ITERATIONS.get(name, DEFAULT_ITERATIONS))
    raise ValueError(f"unknown agent {name!r} for High Card: choose one of {', '.join(agent_names())}")


def evaluate(game: HighCard, seat: int) -> float:
    """``seat``'s card while the game runs (a higher one is likelier to win), and far beyond
    any card for a win, below any for a loss, once it is over."""
    if game.over:
        return 100.0 * game.returns()[seat]
    return float(game.hands[seat])


__all__ = ["AGENTS", "LEVELS", "HighCardDomain", "agent_names", "evaluate", "make_agent"]
