"""How Star Commander's self-play games ended, as ``starcom selfplay`` counts them: by conquest
(WIN-1, one player left), by the score at the turn limit (WIN-2), as a draw, or at an action cap.
The totals say whether the agents actually finish games or merely outlast the clock."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .engine.game import Game
from .summary import ACTION_LIMIT, end_reason

# The endings self-play counts (an unfinished game counts as an action cap).
CONQUEST, TURN_LIMIT, DRAW, ACTION_CAP = "conquest", "turn_limit", "draw", "action_cap"


def ending(game: Game) -> str:
    """How the finished ``game`` ended: ``"action_cap"`` (the engine's action cap scored it),
    ``"draw"`` (no winner, at the turn limit or because nobody was left), ``"conquest"`` (one
    player left, WIN-1) or ``"turn_limit"`` (a winner by the score at the turn limit, WIN-2)."""
    reason = end_reason(game)
    if reason == ACTION_LIMIT:
        return ACTION_CAP
    if game.winner is None or game.winner < 0:
        return DRAW
    return CONQUEST if reason == CONQUEST else TURN_LIMIT


def ending_figures(endings: Mapping[str, int], games: int) -> dict[str, Any]:
    """Self-play's figures of how ``games`` games ended: ``conquests`` (WIN-1),
    ``turn_limit_wins`` (WIN-2 at the turn limit), ``action_caps`` and ``conquest_share``
    (conquests per game played); the draws and errors are the summary's own."""
    conquests = endings.get(CONQUEST, 0)
    return {"conquests": conquests, "turn_limit_wins": endings.get(TURN_LIMIT, 0),
            "action_caps": endings.get(ACTION_CAP, 0),
            "conquest_share": round(conquests / games, 3) if games else 0.0}


__all__ = ["ending", "ending_figures"]
