"""What each decision of Star Commander asks of the seat making it, for a newcomer: the words the
browser's guided mode shows over the orders (the entry's ``words.guide`` hook).
"""
from __future__ import annotations

from .engine.game import Game

# By the decision awaited (the view's "decision").
DECISIONS = {
    "command": "Your Command phase: move ships, build, develop systems and play cards in any order and as often "
               "as you can pay, then end the phase.",
    "priority": "A card or ability is waiting to resolve: answer it with a card of your own, or pass and let it "
                "happen.",
    "choice": "A card or a rule needs you to pick one of the offered options.",
    "combat_pick": "Several systems hold enemy vessels: pick the one where combat is fought first.",
    "assign": "Combat: pick one of your vessels, then the enemy it fires at; click Done when you have aimed all "
              "you want.",
    "retreat": "The shots are fired: ships that have not moved may fall back to a neighbouring system you "
               "control, or stay.",
    "trade_build": "You are putting a trade together: add what you give and what you ask for, then propose it.",
    "trade_answer": "Another player offers you a trade: accept to swap everything at once, or decline.",
}
# A choice by its kind, where the kind says more than "pick one".
CHOICES = {
    "hand_full": "Your hand is full: discard a card to make room, or skip the new one.",
    "receive_full": "Your hand is full: discard a card to make room for the one coming in.",
    "ability_discard": "This ability costs a card: pick the card to discard.",
    "deck": "You draw a card: pick the deck it comes from (you may draw from the domains of the systems you "
            "hold).",
}


def guide(game: Game, seat: int) -> str | None:
    """What the decision in front of ``seat`` asks of it, a sentence; None when ``seat`` has
    no decision, or the decision needs no word."""
    if game.over or game.to_move != seat or game.step is None:
        return None
    if game.step == "choice" and game.choice is not None and game.choice.kind in CHOICES:
        return CHOICES[game.choice.kind]
    return DECISIONS.get(game.step)


__all__ = ["guide"]
