"""What each decision of Star Commander is, in words: a short line for the banner every viewer
reads ("P1 is deciding — Combat at b2: before damage is assigned", the view's
``decision_text``), and, for a newcomer, a sentence on what it asks of the seat making it (the
browser's guided mode shows it over the orders: the entry's ``words.guide`` hook).

Both are read from public facts only (the step, the stack, the fight, the phase, the kind of a
choice), never from a hand: the banner goes to every viewer, and whether a seat is asked at all
is public too (the engine's ruling in :mod:`.engine.priority`).
"""
from __future__ import annotations

from .cards.wording import CHOICE_WORDS
from .engine import tasks as T
from .engine.board import name as pos_name
from .engine.game import Game
from .engine.tasks import Window

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
            "hold). Each option says how many cards the deck has left and what share of the cards not yet "
            "seen are commands, technologies or stations.",
    "order": "Several of your start-of-turn effects are due: pick the one that resolves first.",
}
# The windows of a fight (COMBAT-2) with nothing on the stack, by the task that follows the
# window: when it falls, and what a seat may do in it (the guide's sentence).
_FIGHT_WINDOWS: dict[type[T.Task], tuple[str, str]] = {
    T.Assign: ("before damage is assigned",
               "The fight at {here} is about to begin and nothing is on the stack: you may play a Command or "
               "use an ability before anyone aims, or pass."),
    T.Damage: ("damage is assigned, before it lands",
               "Damage is assigned at {here} but has not landed, and nothing is on the stack: you may redirect "
               "damage, play a Command or use an ability before the shots land, or pass."),
    T.Retreat: ("the shots have landed, before retreats",
                "The shots have landed at {here} and nothing is on the stack: you may play a Command or use an "
                "ability before ships retreat, or pass."),
    T.CombatEnd: ("after retreats",
                  "The fight at {here} is over but for this last window, and nothing is on the stack: you may "
                  "play a Command or use an ability, or pass."),
}
# The banner's words, by the decision awaited.
BANNERS = {
    "command": "Command phase",
    "combat_pick": "Pick the next combat",
    "trade_build": "Build the trade offer",
    "over": "Game over",
}
CHOICE_BANNERS = {
    "deck": "Pick a deck to draw from",
    "hand_full": "Hand full: make room for the draw",
    "receive_full": "Hand full: discard a card to make room",
    "ability_discard": "Discard a card to pay for an ability",
    "order": "Order the start-of-turn effects",
}


def _fight_window(game: Game) -> tuple[str, str] | None:
    """When the priority round now open falls in a fight, and what it allows: None outside a
    fight's windows or with something on the stack."""
    if game.stack or game.combat_pos < 0 or len(game.tasks) < 2:
        return None
    top, below = game.tasks[-1], game.tasks[-2]
    if not isinstance(top, T.Prio) or top.window is Window.ANSWER:
        return None
    return _FIGHT_WINDOWS.get(type(below))


def _waiting(game: Game, seat: int | None) -> str:
    """The item on top of the stack in words: "P1's Barrage", "your Railgun Turrets ability"."""
    kind, player, card = game.stack[-1][:3]
    owner = "your" if player == seat else f"P{player}'s"
    name = game.rules.cards[card].name
    return f"{owner} {name}{' ability' if kind == 'ability' else ''}"


def decision_text(game: Game) -> str:
    """The decision awaited, in a few words for a banner that every viewer reads: public facts
    only ("" while no decision is awaited)."""
    step = game.step
    if game.over:
        return BANNERS["over"]
    if step is None:
        return ""
    here = pos_name(game.combat_pos, game.cfg.size) if game.combat_pos >= 0 else ""
    if step == "priority":
        if game.stack:
            return f"Respond to {_waiting(game, None)}"
        window = _fight_window(game)
        return f"Combat at {here}: {window[0]}" if window else "Respond or pass"
    if step == "choice":
        kind = game.choice.kind if game.choice is not None else ""
        if kind in CHOICE_BANNERS:
            return CHOICE_BANNERS[kind]
        return f"Choose for {kind}" if kind in CHOICE_WORDS else "Make a choice"
    if step == "assign":
        return f"Assign damage at {here}"
    if step == "retreat":
        return f"Retreat from {here} or stay"
    if step == "build_window":
        return f"{game.phase.capitalize()} phase: build ships or go on"
    if step == "trade_answer" and game.trade is not None:
        return f"Answer P{game.active}'s trade offer"
    return BANNERS.get(step, "Make a decision")


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
            what = _waiting(game, seat)
            if game.stack[-1][1] == seat:
                return (f"{what[:1].upper()}{what[1:]} is waiting to resolve: you may put a card or ability of "
                        "your own on top of it, or pass and let the others answer.")
            return (f"{what[:1].upper()}{what[1:]} is waiting to resolve: answer it with a card or ability of "
                    "your own, or pass and let it happen.")
        window = _fight_window(game)
        if window is not None:
            return window[1].format(here=pos_name(game.combat_pos, game.cfg.size))
        return "You may play a Command or use an ability now, or pass."
    return DECISIONS.get(game.step)


__all__ = ["decision_text", "guide"]
