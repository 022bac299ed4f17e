"""How a Galactic Empires game went, for the game-over screen and the replay: each side's Sector
HQ damage over the turns, its volleys and the damage they did, the cards it put into play and
the cards it lost. Counted from the events a step reports, all of them public (GE-DIG-2).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .combat import hq_limit
from .game import GalacticEmpires


class SummaryRecorder:
    """Follows one game from its start; :meth:`summary` sums it up (JSON-ready)."""

    def __init__(self, game: GalacticEmpires) -> None:
        seats = range(len(game.s.players))
        self.steps = 0
        self.played = [0 for _ in seats]      # cards put into play
        self.volleys = [0 for _ in seats]     # volleys that landed
        self.dealt = [0 for _ in seats]       # damage those volleys did
        self.lost = [0 for _ in seats]        # own cards destroyed
        # Sector HQ damage when each turn began (the game's turns, both sides')
        self.hq_by_turn: list[list[int]] = [[] for _ in seats]

    def record(self, game: GalacticEmpires, events: Sequence[Any]) -> None:
        """Take note of one step: ``game`` after it, and its events."""
        self.steps += 1
        s = game.s
        for event in events:
            kind = event[0]
            if kind == "enter":
                self.played[event[1]] += 1
            elif kind == "volley":
                self.volleys[event[1]] += 1
                self.dealt[event[1]] += event[3]
            elif kind == "destroyed" and 0 <= event[1] < len(s.owner_of):
                self.lost[s.owner_of[event[1]]] += 1
            elif kind == "turn":
                for seat, p in enumerate(s.players):
                    self.hq_by_turn[seat].append(p.hq)

    def summary(self, game: GalacticEmpires) -> dict[str, Any]:
        """The sum of the game so far: winner (-1 a draw, None while it runs), why it ended
        (the game's end code, as ``over_reason``), the turns begun (both sides'), the damage
        that destroys a Sector HQ, and per side its empire, Sector HQ damage (now, and at the
        start of every turn and now), cards played, volleys, damage dealt and cards lost."""
        s = game.s
        players = []
        for seat, p in enumerate(s.players):
            players.append({"seat": seat, "empire": p.empire, "hq_damage": p.hq,
                            "hq_by_turn": self.hq_by_turn[seat] + [p.hq], "cards_played": self.played[seat],
                            "volleys": self.volleys[seat], "damage_dealt": self.dealt[seat],
                            "cards_lost": self.lost[seat]})
        return {"over": game.over, "winner": game.winner, "reason": (s.end or None) if game.over else None,
                "turns": sum(p.turns for p in s.players), "hq_limit": hq_limit(s), "steps": self.steps, "players": players}


__all__ = ["SummaryRecorder"]
