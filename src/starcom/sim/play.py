"""The one loop that plays a game between agents: self-play, the arena and the demo all use it.

It knows only the :class:`~starcom.protocol.Game` protocol: the seat to move chooses with its
own random source, the action is applied for that seat, and ``on_step`` hears of it. Limits
stop games that run too long; exceptions are recorded (not raised) when asked, so that one bad
game does not sink a run of many.
"""
from __future__ import annotations

import random
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..protocol import Agent, Game


@dataclass(frozen=True)
class Limits:
    """When to stop a game that has not ended: after ``max_steps`` actions, or after
    ``max_steps_per_turn`` actions without ``turn(game)`` changing (agents stuck in a loop).
    None means no limit; ``max_steps_per_turn`` needs ``turn``."""

    max_steps: int | None = None
    max_steps_per_turn: int | None = None
    turn: Callable[[Any], int] | None = None


@dataclass(frozen=True)
class Step:
    """One action played: ``number`` counts from 1; ``before`` is a copy of the game before
    it (only when :func:`play` was asked to keep one)."""

    number: int
    seat: int
    action: Any
    events: list[Any]
    before: Any | None


@dataclass
class Played:
    """How a game went. ``actions`` in order; ``stopped`` says why an unfinished game stopped
    (``"max_steps"`` or ``"stuck"``, with ``stuck_at`` the turn counter and the actions played
    in it); ``error`` describes an exception caught on the way (see :func:`error_text`)."""

    game: Any
    actions: list[Any] = field(default_factory=list)
    stopped: str | None = None
    stuck_at: tuple[int, int] | None = None
    error: str | None = None

    @property
    def steps(self) -> int:
        return len(self.actions)


def error_text(exc: BaseException, step: int) -> str:
    """``step N: Type: message (file:line)``, naming where the exception was raised."""
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return f"step {step}: {type(exc).__name__}: {exc} ({Path(where.filename).name}:{where.lineno})"


def play(game: Game, agents: Sequence[Agent], rngs: Sequence[random.Random],
         on_step: Callable[[Step], None] | None = None, limits: Limits = Limits(),
         keep_before: bool = False, catch: bool = False) -> Played:
    """Play ``game`` (changed in place) until it is over or a limit stops it: the seat to move
    picks with ``agents[seat].choose(game, rngs[seat])`` and the action is applied for it.

    ``on_step`` is called after each action (with a copy of the game before it when
    ``keep_before``). With ``catch``, an exception from an agent, the game or ``on_step`` ends
    the game and is recorded in :attr:`Played.error`; otherwise it propagates."""
    out = Played(game)
    max_steps, per_turn, turn_of = limits.max_steps, limits.max_steps_per_turn, limits.turn
    turn = turn_of(game) if turn_of is not None else 0
    turn_start = 0
    try:
        while not game.over:
            if max_steps is not None and out.steps >= max_steps:
                out.stopped = "max_steps"
                break
            p = game.to_move
            assert p is not None
            action = agents[p].choose(game, rngs[p])
            before = game.clone() if keep_before else None
            events = game.apply(action, player=p)
            out.actions.append(action)
            if on_step is not None:
                on_step(Step(out.steps, p, action, events, before))
            if turn_of is not None and per_turn is not None:
                now = turn_of(game)
                if now != turn:
                    turn, turn_start = now, out.steps
                elif out.steps - turn_start >= per_turn:
                    out.stopped, out.stuck_at = "stuck", (turn, out.steps - turn_start)
                    break
    except Exception as exc:
        if not catch:
            raise
        out.error = error_text(exc, out.steps + 1)
    return out


__all__ = ["Limits", "Played", "Step", "error_text", "play"]
