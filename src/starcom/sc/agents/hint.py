"""The Hint button: what the AI would play for the player to move, and how that player's
chances look.

:func:`hint` runs the ISMCTS search (see :mod:`.ismcts` and :mod:`.search_domain`) for ``game.to_move`` with a fixed
iteration budget and a random source made from the caller's seed, so the same position and
seed always give the same hint, whatever the machine's speed. The search starts from
``canonical(game, me)`` and samples the hidden cards itself: the real hands and deck order
cannot change the answer.

The win chance is a calibrated evaluation: on a few determinizations, the recommended choice
is played and the turn finished by script, the player's :func:`~.evaluation.advantage` is
read, and a logistic curve turns it into a probability. The curve's scale was fitted to the
outcomes of self-play games (docs/ai.md, "Hint").
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..engine.actions import Action
from ..engine.game import Game
from .evaluation import WIN, advantage, canonical
from .heuristic import HEURISTIC
from .search_domain import IsmctsAgent, play_choice
from .playout import finish_turn

HINT_ITERATIONS = 400  # search iterations per hint: at most about 1.4 s here (docs/ai.md, "Hint")
SAMPLES = 6  # determinizations the win chance is averaged over
# Advantage (in the evaluation's credit-like units) worth odds of e to 1, fitted by maximum
# likelihood on 6,968 positions from 120 self-play games between easy and normal players
# (docs/ai.md, "Hint").
CALIBRATED_SCALE = 55.0


@dataclass(frozen=True)
class Hint:
    """The suggested action (one of ``game.legal_actions()``) and the estimated chance, from
    0 to 1, that the player to move goes on to win."""

    action: Action
    win_chance: float


def hint(game: Game, seed: str | int, iterations: int = HINT_ITERATIONS) -> Hint:
    """The move the search recommends for ``game.to_move`` and that player's win chance.

    Deterministic in (what ``game.to_move`` can see, ``seed``, ``iterations``). ValueError when
    the game is over or ``iterations`` is not a whole number of at least 1."""
    if game.over:
        raise ValueError("the game is over: there is no move to hint")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be a whole number of at least 1, not {iterations!r}")
    rng = random.Random(f"hint:{seed}")
    me = game.to_move
    assert me is not None
    result = IsmctsAgent(think=None, iterations=iterations).search(game, rng)
    base = canonical(game, me)
    chances = []
    for _ in range(SAMPLES):
        g = base.determinize(me, rng)
        turn = g.turn
        play_choice(g, result.choice)
        if g.turn == turn:
            finish_turn(g)
        chances.append(win_chance(advantage(g, me, HEURISTIC)))
    return Hint(result.action, sum(chances) / len(chances))


def win_chance(adv: float) -> float:
    """An :func:`~.evaluation.advantage` as a probability (logistic, :data:`CALIBRATED_SCALE`)."""
    if adv >= WIN or adv <= -WIN:
        return 1.0 if adv > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, adv / CALIBRATED_SCALE))))


__all__ = ["HINT_ITERATIONS", "Hint", "hint", "win_chance"]
