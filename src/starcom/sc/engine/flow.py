"""Star Commander's turn: its phases in order, the Ready phase, start-of-turn effects, drawing
and receiving cards, and the Command phase.

The tasks here run on the kernel's turn machine (:mod:`.kernel`): each is registered with
:func:`~.kernel.task` and either pops itself, queues more tasks, or stops for a decision by
setting ``g.step``. Priority rounds and the stack are in :mod:`.priority`, combat in
:mod:`.combat`, the End phase in :mod:`.endphase`.
"""
from __future__ import annotations

from typing import Final

from . import events as E
from . import tasks as T
from .lasting import Until, expire
from .kernel import after_tasks, ask, engine_choice, push, task
from .rules import (destroy_lethal, discard, drawable_decks, emit, gain, station_effects_active,
                    system_effects_active, under_siege, version_for)
from .state import Choice, GameState, Vessel
from .tasks import Option

# Tasks are immutable, so the ones queued over and over are made once and shared.
_TURN: Final = (T.End(), T.Combat(), T.Command(), T.Ready())  # TURN-1, pushed last phase first
_BUILD_WINDOW: Final = T.BuildWindow()
_START_OF_TURN: Final = T.StartOfTurn()

# COMBAT-6: whenever the machine stops, vessels whose damage is now lethal are destroyed (the
# cleanup task does it too, so it is done before the next turn starts).
after_tasks(destroy_lethal)


def next_alive(g: GameState, p: int) -> int:
    n = g.cfg.players
    q = (p + 1) % n
    while not g.alive[q]:
        q = (q + 1) % n
    return q


def clockwise_from_active(g: GameState) -> list[int]:
    """Living players in turn order starting with the active player (RESP-1, COMBAT-3)."""
    n = g.cfg.players
    return [q % n for q in range(g.active, g.active + n) if g.alive[q % n]]


PHASES: Final = ("ready", "command", "combat", "end")  # TURN-1, in order


def turn_tasks(from_phase: str = "ready") -> list[T.Task]:
    """The tasks of a turn from the start of ``from_phase`` on, as queued (the last runs first);
    ValueError names an unknown phase. Scenarios restart the machine with these."""
    if from_phase not in PHASES:
        raise ValueError(f"unknown phase {from_phase!r}: use one of {', '.join(PHASES)}")
    return list(_TURN[:len(_TURN) - PHASES.index(from_phase)])


def begin_turn(g: GameState) -> None:
    """TURN-1: Ready, Command, Combat, End."""
    for t in _TURN:
        push(g, t)
    emit(g, E.Turn("turn", g.turn, g.active))


# --------------------------------------------------------------------------- ready phase


def is_abandoned(g: GameState, fighter: Vessel) -> bool:
    """FIGHTER-2: only fighters of its controller remain with it, in a system it does not control."""
    if g.sites[fighter.pos].owner == fighter.owner:
        return False
    return not any(v.pos == fighter.pos and v.owner == fighter.owner and not v.d.is_fighter
                   for v in g.vessels.values())


@task(T.Ready)
def _ready(g: GameState, t: T.Ready) -> None:
    g.tasks.pop()
    p = g.active
    g.phase = "ready"
    for v in g.vessels.values():
        if v.owner == p:
            v.fresh = False
    expire(g, Until.READY, p)
    g.abandoned = ([v.id for v in g.vessels.values()
                    if v.owner == p and v.d.is_fighter and is_abandoned(g, v)]
                   if g.ed.abandoned_fighters_die else [])
    if g.turn == 0:  # TURN-2: only the game's very first turn skips the Ready phase
        return
    emit(g, E.Phase("phase", "ready"))
    income = sum(s.devs for i, s in enumerate(g.sites) if s.owner == p and not under_siege(g, i))
    gain(g, p, income)  # READY-1
    push(g, _BUILD_WINDOW)
    push(g, _START_OF_TURN)  # READY-3
    push(g, T.Draw(p))  # READY-2


def start_of_turn_sources(g: GameState, p: int) -> list[int]:
    out = [cid for cid in g.techs[p] if g.rules.by_card[cid].start_of_turn]
    for v in g.vessels.values():
        if v.owner == p and v.d.is_station and g.rules.by_card[v.id].start_of_turn \
                and station_effects_active(g, v.pos):
            out.append(v.id)
    for pos, s in enumerate(g.sites):
        if s.owner == p and g.rules.by_card[s.card].start_of_turn and system_effects_active(g, pos):
            out.append(s.card)
    return out


def _run_start_effect(g: GameState, t: T.StartOfTurn, cid: int) -> None:
    """Run the start-of-turn effect of ``cid``, taking it off the pending list of ``t`` (the
    task at the top of the queue)."""
    i = t.pending.index(cid)
    g.tasks[-1] = T.StartOfTurn(True, t.pending[:i] + t.pending[i + 1:])
    hook = g.rules.by_card[cid].start_of_turn
    assert hook is not None, "start_of_turn_sources lists only cards with the hook"
    hook(g, g.active, cid)


@task(T.StartOfTurn)
def _start_of_turn(g: GameState, t: T.StartOfTurn) -> None:
    """READY-3: start-of-turn effects in the order the player chooses."""
    if not t.started:
        t = g.tasks[-1] = T.StartOfTurn(True, tuple(start_of_turn_sources(g, g.active)))
    pending = t.pending
    if not pending:
        g.tasks.pop()
        return
    for cid in pending:  # effects whose order never matters resolve without asking
        if g.rules.by_card[cid].commutes:
            _run_start_effect(g, t, cid)
            return
    if len({g.rules.cards[c].name for c in pending}) > 1:
        ask(g, g.active, "order", list(pending))
        return
    _run_start_effect(g, t, pending[0])


@engine_choice("order")
def _order_choice(g: GameState, choice: Choice, cid: int) -> None:
    t = g.tasks[-1]
    assert isinstance(t, T.StartOfTurn), "the order is asked by the start-of-turn task"
    _run_start_effect(g, t, cid)


# --------------------------------------------------------------------------- drawing


@task(T.Draw)
def _draw(g: GameState, t: T.Draw) -> None:
    """DRAW-1 with the hand limit (HAND-1 / HAND-2)."""
    p = t.player
    decks = drawable_decks(g, p)
    if not decks:
        g.tasks.pop()
        emit(g, E.NoDraw("no_draw", p))
        return
    hand = g.hands[p]
    if len(hand) >= g.ed.hand_limit:
        options: list[Option] = ["skip"] if g.ed.may_skip_draw_at_limit else []
        options += hand
        ask(g, p, "hand_full", options)
        return
    if len(decks) > 1:
        ask(g, p, "deck", decks)
        return
    g.tasks.pop()
    draw_from(g, p, decks[0])


def draw_from(g: GameState, p: int, deck: int) -> None:
    cid = version_for(g, g.decks[deck].pop(), p)
    g.hands[p].append(cid)
    emit(g, E.Draw("draw", p, deck, cid))


@engine_choice("hand_full")
@engine_choice("receive_full")
def _hand_full(g: GameState, choice: Choice, value: Option) -> None:
    """HAND-1/HAND-2: skip the draw (or decline the card) [S], or discard first; after a
    discard the draw or receive task stays queued and runs again."""
    if value in ("skip", "decline"):
        g.tasks.pop()
        if value == "skip":
            emit(g, E.SkipDraw("skip_draw", choice.player))
    else:
        assert isinstance(value, int)
        discard_from_hand(g, choice.player, value)


@engine_choice("deck")
def _deck_choice(g: GameState, choice: Choice, deck: int) -> None:
    g.tasks.pop()
    draw_from(g, choice.player, deck)


def discard_from_hand(g: GameState, p: int, cid: int) -> None:
    g.hands[p].remove(cid)
    discard(g, cid)
    emit(g, E.Discard("discard", p, cid))


@task(T.Receive)
def _receive(g: GameState, t: T.Receive) -> None:
    """A card taken from elsewhere enters a hand: HAND-1 (discard first or decline) / HAND-2."""
    p, cid, frm = t.player, t.card, t.giver
    if cid not in g.hands[frm]:
        g.tasks.pop()
        return
    if len(g.hands[p]) >= g.ed.hand_limit:
        options: list[Option] = ["decline"] if g.ed.may_skip_draw_at_limit else []
        options += g.hands[p]
        ask(g, p, "receive_full", options)
        return
    g.tasks.pop()
    g.hands[frm].remove(cid)
    g.hands[p].append(version_for(g, cid, p))
    emit(g, E.Take("take", p, frm, cid))


@task(T.Ask)
def _ask_task(g: GameState, t: T.Ask) -> None:
    """A queued question from a card effect."""
    g.tasks.pop()
    if t.options:
        ask(g, t.player, t.kind, list(t.options), t.ctx)


# --------------------------------------------------------------------------- command phase


def open_phase(g: GameState, t: T.PhaseTask, phase: str) -> None:
    """Announce ``phase`` the first time its task ``t`` (at the top of the queue) runs."""
    if not t.opened:
        g.tasks[-1] = type(t)(True)
        g.phase = phase
        emit(g, E.Phase("phase", phase))


@task(T.Command)
def _command(g: GameState, t: T.Command) -> None:
    open_phase(g, t, "command")
    g.step = "command"
    g.actor = g.active
