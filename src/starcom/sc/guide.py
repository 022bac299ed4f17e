"""What each decision of Star Commander asks of the seat making it, for a newcomer: the words the
browser's guided mode shows over the orders (the entry's ``words.guide`` hook). The short words
for the banner every viewer reads are the view's ``decision_text`` (:mod:`.engine.banner`).

Both are read from public facts only (the step, the stack, the fight, the phase, the kind of a
choice), never from a hand: whether a seat is asked at all is public too (the engine's ruling in
:mod:`.engine.priority`).
"""
from __future__ import annotations

from .engine import tasks as T
from .engine.banner import decision_text, fight_window, waiting
from .engine.board import name as pos_name
from .engine.game import Game
from .engine.rules import vessels_at

# By the decision awaited (the view's "decision"), for the seat making it.
DECISIONS = {
    "command": "Your Command phase: move ships, build, develop systems and play cards in any order and as often "
               "as you can pay, then end the phase.",
    "choice": "A card or a rule needs you to pick one of the offered options.",
    "combat_pick": "Several systems hold enemy vessels: pick the one where combat is fought first.",
    "assign": "Combat: pick one of your vessels, then the enemy it fires at; click Done when you have aimed all "
              "you want.",
    "retreat": "The shots are fired: ships that have not moved may fall back to a neighbouring system you "
               "control, or stay.",
    "build_window": "A system of yours lets you build ships outside the Command phase: build ships now, or pass "
                    "to go on with the turn.",
    "trade_build": "You are putting a trade together: add what you give and what you ask for, then propose it.",
    "trade_answer": "Another player offers you a trade: accept to swap everything at once, or decline.",
}
# A choice by its kind, where the kind says more than "pick one".
CHOICES = {
    "hand_full": "Your hand is full: discard a card to make room, or skip the new one.",
    "receive_full": "Your hand is full: discard a card to make room for the one coming in.",
    "ability_discard": "This ability costs a card: pick the card to discard.",
    "deck": "You draw a card: pick the deck it comes from (you may draw from the domains of the systems you "
            "hold). Each option says how many cards the deck has left and, among the cards of its domain "
            "that nobody can see (the deck and the hands), what share are commands, technologies or stations.",
    "order": "Several of your start-of-turn effects are due: pick the one that resolves first.",
}
# The windows of a fight (COMBAT-2) with nothing on the stack, by the task that follows the
# window: what a seat may do in it.
_FIGHT_WINDOWS: dict[type[T.Task], str] = {
    T.Assign: "The fight at {here} is about to begin and nothing is on the stack: you may play a Command or "
              "use an ability before anyone aims, or pass.",
    T.Damage: "Damage is assigned at {here} but has not landed, and nothing is on the stack: you may redirect "
              "damage, play a Command or use an ability before the shots land, or pass.",
    T.Retreat: "The shots have landed at {here} and nothing is on the stack: you may play a Command or use an "
               "ability before ships retreat, or pass.",
    T.CombatEnd: "The fight at {here} is over but for this last window, and nothing is on the stack: you may "
                 "play a Command or use an ability, or pass.",
}


def guide(game: Game, seat: int) -> str | None:
    """What the decision in front of ``seat`` asks of it, a sentence; None when ``seat`` has
    no decision, or the decision needs no word."""
    if game.over or game.to_move != seat or game.step is None:
        return None
    if game.step == "choice" and game.choice is not None and game.choice.kind in CHOICES:
        if game.choice.kind == "hand_full" and not game.ed.may_skip_draw_at_limit:
            return "Your hand is full: discard a card to make room for the new one."
        return CHOICES[game.choice.kind]
    if game.step == "priority":
        if game.stack:
            what = waiting(game, seat)
            if game.stack[-1][1] == seat:
                return (f"{what[:1].upper()}{what[1:]} is waiting to resolve: you may put a card or ability of "
                        "your own on top of it, or pass and let the others answer.")
            return (f"{what[:1].upper()}{what[1:]} is waiting to resolve: answer it with a card or ability of "
                    "your own, or pass and let it happen.")
        window = fight_window(game)
        if window is not None:
            return _FIGHT_WINDOWS[window].format(here=pos_name(game.combat_pos, game.cfg.size))
        return "You may play a Command or use an ability now, or pass."
    if game.step == "retreat" and game.combat_pos >= 0 and not any(
            v.owner != seat for v in vessels_at(game, game.combat_pos)):
        # COMBAT-7 asks for no enemy: moving unmoved ships out is still a real choice
        return (f"No enemy is left at {pos_name(game.combat_pos, game.cfg.size)}: ships that have not moved may "
                "still move to a neighbouring system you control, or stay.")
    return DECISIONS.get(game.step)


__all__ = ["decision_text", "guide"]
