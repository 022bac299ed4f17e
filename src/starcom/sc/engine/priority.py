"""Priority rounds and the stack (RESP-1, RESP-2): who may answer, automatic passing, adding a
card or ability to the stack, and closing a round.

This module sits above ``commands`` and ``combat`` because automatic passing is a rule about
legal actions: a player with an empty hand is passed over only when nothing but passing is
legal for them, which needs every generator of the priority step.
"""
from __future__ import annotations

from typing import Any, Final

from . import combat, commands
from . import events as E
from . import tasks as T
from .flow import discard_from_hand, next_alive
from .kernel import engine_choice, push, task
from .play import play_card, use_ability
from .rules import emit
from .state import ActionTuple, Choice, GameState
from .tasks import Window

# Tasks are immutable, so the ones queued over and over are made once and shared.
_RESOLVE: Final = T.Resolve()
_ANSWER: Final = T.Prio(Window.ANSWER)


def priority_actions(g: GameState, p: int) -> list[ActionTuple]:
    """Every legal action of ``p`` holding priority: pass first, then plays, abilities,
    redirects, and builds where a card lets the active player build in any phase."""
    out: list[ActionTuple] = [("pass",)]
    if g.hands[p]:  # often empty: every player with an empty hand is asked at every round
        out += commands.play_actions(g, p, commands_only=True)
    out += commands.ability_actions(g, p)
    out += combat.redirect_actions(g, p)
    if p == g.active and not g.stack and commands.builds_any_phase(g, p):
        out += commands.build_actions(g, p, ships_only=True)
    return out


def can_act_at_priority(g: GameState, p: int) -> bool:
    """A player with cards in hand always decides (so passing reveals nothing); a player with
    an empty hand is passed automatically when nothing else is legal for them (RULING)."""
    if g.hands[p]:
        return True
    return len(priority_actions(g, p)) > 1


def start_round(g: GameState) -> None:
    g.step = "priority"
    g.prio = g.active
    g.actor = g.active
    g.passes = 0
    settle_priority(g)


def settle_priority(g: GameState) -> None:
    """Skip players who cannot act; close the round when everyone has passed in turn."""
    alive = sum(g.alive)
    while g.passes < alive and not can_act_at_priority(g, g.prio):
        g.passes += 1
        g.prio = next_alive(g, g.prio)
    if g.passes >= alive:
        end_round(g)
    else:
        g.actor = g.prio


def reopen(g: GameState) -> None:
    """Something was added to the round: priority goes back to the active player (RESP-1)."""
    g.prio, g.passes = g.active, 0
    settle_priority(g)


def end_round(g: GameState) -> None:
    """Everyone passed in turn: resolve the whole stack (RESP-1), or close the window."""
    g.step = None
    if g.stack:
        push(g, _RESOLVE)
    else:
        g.tasks.pop()


@task(T.Prio)
def _prio(g: GameState, t: T.Prio) -> None:
    """A priority round; one that answers a play ends once the stack is empty."""
    if t.window is Window.ANSWER and not g.stack:
        g.tasks.pop()
        return
    start_round(g)


def add_to_stack(g: GameState, item: list[Any]) -> None:
    """Put a card or ability on the stack and (re)open responses (RESP-1)."""
    g.stack.append(item)
    emit(g, E.Stack("stack", *item))
    if g.step == "priority":
        reopen(g)
    else:
        g.step = None
        push(g, _ANSWER)


# --------------------------------------------------------------------------- actions


def do_play(g: GameState, p: int, a: ActionTuple) -> None:
    """PLAY-1: pay for the card and put it on the stack; responses follow."""
    add_to_stack(g, play_card(g, p, a[1], tuple(a[2:])))


def do_ability(g: GameState, p: int, a: ActionTuple) -> None:
    """Use an ability; one paid by a discard goes on the stack once the card is chosen."""
    item = use_ability(g, p, a[1], tuple(a[2:]))
    if item is not None:
        add_to_stack(g, item)


@engine_choice("ability_discard")
def _ability_discard(g: GameState, choice: Choice, cid: int) -> None:
    """The discard that pays for an ability; then the ability goes on the stack."""
    assert choice.item is not None, "an ability_discard choice holds the ability's stack item"
    discard_from_hand(g, choice.player, cid)
    g.step = "priority" if choice.in_round else None
    add_to_stack(g, list(choice.item))


def do_redirect(g: GameState, p: int, a: ActionTuple) -> None:
    """COMBAT-5: a redirect is treated like an addition to the round (RESP-1)."""
    combat.do_redirect(g, p, a)
    reopen(g)


def do_pass(g: GameState, p: int, a: ActionTuple) -> None:
    """Pass priority to the next living player (or, in a build window, go on)."""
    if g.step == "build_window":
        g.tasks.pop()
        g.step = None
        return
    g.passes += 1
    g.prio = next_alive(g, g.prio)
    settle_priority(g)
