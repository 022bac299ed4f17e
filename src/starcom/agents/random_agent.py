"""The baseline: a uniformly random legal action."""
from __future__ import annotations

import random

from typing import Any

from ..protocol import Game


class RandomAgent:
    """Picks uniformly among ``game.legal_actions()``."""

    name = "random"

    def choose(self, game: Game, rng: random.Random) -> Any:
        """A uniformly random legal action; ValueError if there is none (game over)."""
        actions = game.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        return rng.choice(actions)
