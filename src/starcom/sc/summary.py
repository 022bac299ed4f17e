"""How a game went, for the game-over screen and the replay: why it ended and, per player, the
systems held, credits over time, vessels built and cards played.

Everything here is public once the game is over (the summary is only served for finished
games), and it is read from the engine's events and public view, never from hidden state.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from .engine.game import Game

# Why a finished game ended: WIN-1 (the last player standing), WIN-2 scoring at the turn limit,
# or the same scoring at the server's action cap (docs/rulings.md).
CONQUEST, TURN_LIMIT, ACTION_LIMIT = "conquest", "turn_limit", "action_limit"


def end_reason(game: Game) -> str | None:
    """Why ``game`` ended (one of the constants above), or None while it runs."""
    if not game.over:
        return None
    if sum(game.alive) <= 1:  # one player left, or the last two fell together (a draw)
        return CONQUEST
    cap = game.cfg.action_limit
    if cap is not None and game.actions_played >= cap:
        return ACTION_LIMIT
    return TURN_LIMIT


class SummaryRecorder:
    """Fed every step of a game (its events), it keeps what :meth:`summary` reports."""

    def __init__(self, game: Game) -> None:
        n = game.cfg.players
        self.vessels_built = [0] * n
        self.cards_played = [0] * n
        self.eliminated_turn: list[int | None] = [None] * n
        self.credits_by_turn: list[list[int]] = [[c] for c in _credits(game)]

    def record(self, game: Game, events: Iterable[Sequence[Any]]) -> None:
        """Take in the events of one step, ``game`` being the position after it."""
        for e in events:
            kind = e[0]
            if kind == "build":
                self.vessels_built[e[1]] += 1
            elif kind == "play":
                self.cards_played[e[1]] += 1
            elif kind == "eliminated":
                self.eliminated_turn[e[1]] = game.turn
            elif kind == "turn":  # a new turn starts: everyone's credits at that moment
                for p, c in enumerate(_credits(game)):
                    self.credits_by_turn[p].append(c)

    def summary(self, game: Game) -> dict[str, Any]:
        """The summary of the finished ``game`` (docs/protocol.md, "Game summary")."""
        view = game.view(None)
        players = []
        for p, info in enumerate(view["players"]):
            history = self.credits_by_turn[p]
            if history[-1] != info["credits"]:
                history = [*history, info["credits"]]   # the credits at the very end
            players.append({
                "seat": p, "systems": sum(1 for s in view["board"] if s["owner"] == p),
                "developments": info["developments"], "credits": info["credits"],
                "credits_by_turn": history, "vessels_built": self.vessels_built[p],
                "cards_played": self.cards_played[p], "eliminated_turn": self.eliminated_turn[p],
            })
        return {"winner": game.winner if game.over else None, "reason": end_reason(game),
                "turns": game.turn + 1, "turn_limit": game.cfg.turn_limit, "players": players}


def _credits(game: Game) -> list[int]:
    return list(game.credits)  # public: every view shows every player's credits
