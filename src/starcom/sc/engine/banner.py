"""The decision awaited, in a few words for the banner every viewer reads ("Combat at b2: before
damage is assigned", "Respond to P1's Barrage", "End phase: build ships or go on"): the view's
``decision_text``, beside the step's name (``decision``) that programs read.

Built from public facts only (the step, the stack, the fight, the phase, a choice's kind),
never from a hand, since every viewer gets it; the observer's determinization tests hold it to
that, as every part of a view. The guide (``sc/guide.py``) words the same moments at length for
the seat that decides.
"""
from __future__ import annotations

from typing import Final

from ..cards.wording import CHOICE_WORDS
from . import tasks as T
from .board import name as pos_name
from .state import GameState
from .tasks import Window

# The windows of a fight (COMBAT-2) with nothing on the stack, by the task that follows the window.
FIGHT_WINDOWS: Final[dict[type[T.Task], str]] = {
    T.Assign: "before damage is assigned",
    T.Damage: "damage is assigned, before it lands",
    T.Retreat: "the shots have landed, before retreats",
    T.CombatEnd: "after retreats",
}
BANNERS: Final = {
    "command": "Command phase",
    "combat_pick": "Pick the next combat",
    "trade_build": "Build the trade offer",
    "over": "Game over",
}
CHOICE_BANNERS: Final = {
    "deck": "Pick a deck to draw from",
    "hand_full": "Hand full: make room for the draw",
    "receive_full": "Hand full: discard a card to make room",
    "ability_discard": "Discard a card to pay for an ability",
    "order": "Order the start-of-turn effects",
}


def fight_window(g: GameState) -> type[T.Task] | None:
    """The task that follows the fight window now open (a key of :data:`FIGHT_WINDOWS`), or
    None outside a fight's windows or with something on the stack."""
    if g.stack or g.combat_pos < 0 or len(g.tasks) < 2:
        return None
    top, below = g.tasks[-1], g.tasks[-2]
    if not isinstance(top, T.Prio) or top.window is Window.ANSWER or type(below) not in FIGHT_WINDOWS:
        return None
    return type(below)


def waiting(g: GameState, seat: int | None) -> str:
    """The item on top of the stack in words: "P1's Barrage", "your Railgun Turrets ability"
    (``seat``: whose "your" it is)."""
    kind, player, card = g.stack[-1][:3]
    owner = "your" if player == seat else f"P{player}'s"
    return f"{owner} {g.rules.cards[card].name}{' ability' if kind == 'ability' else ''}"


def decision_text(g: GameState) -> str:
    """The decision awaited, in a few public words ("" while none is awaited)."""
    step = g.step
    if g.over:
        return BANNERS["over"]
    if step is None:
        return ""
    here = pos_name(g.combat_pos, g.cfg.size) if g.combat_pos >= 0 else ""
    if step == "priority":
        if g.stack:
            return f"Respond to {waiting(g, None)}"
        window = fight_window(g)
        return f"Combat at {here}: {FIGHT_WINDOWS[window]}" if window else "Respond or pass"
    if step == "choice":
        kind = g.choice.kind if g.choice is not None else ""
        if kind in CHOICE_BANNERS:
            return CHOICE_BANNERS[kind]
        return f"Choose for {kind}" if kind in CHOICE_WORDS else "Make a choice"
    if step == "assign":
        return f"Assign damage at {here}"
    if step == "retreat":
        return f"Retreat from {here} or stay"
    if step == "build_window":
        return f"{g.phase.capitalize()} phase: build ships or go on"
    if step == "trade_answer":
        return f"Answer P{g.active}'s trade offer"
    return BANNERS.get(step, "Make a decision")


__all__ = ["decision_text", "fight_window", "waiting"]
