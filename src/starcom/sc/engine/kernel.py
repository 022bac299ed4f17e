"""The kernel: the turn machine that runs a game's tasks, asks its decisions and dispatches the
choices made. It knows no card, no phase and no rule of Star Commander.

A game's rules register what runs each kind of task (:func:`task`) and what carries out each
kind of choice the engine asks (:func:`engine_choice`); card effects bring their own choice
handlers in the ruleset (``g.rules.choice_handlers``). :func:`advance` runs the task on top of
``g.tasks`` (the last one queued runs next) until one sets ``g.step`` to wait for a decision, or
the game is over; then the checks registered with :func:`after_tasks` run once.
"""
from __future__ import annotations

from typing import Any, Callable, Final, Sequence, TypeVar

from .state import Choice, GameState
from .tasks import Option, Task

TaskT = TypeVar("TaskT", bound=Task)
TaskFn = Callable[[GameState, TaskT], None]
# What runs each kind of task: it is called with the task at the top of the queue.
TASKS: Final[dict[type[Task], Callable[[GameState, Any], None]]] = {}
# What happens when an engine choice is made: called with the choice and the option taken.
ChoiceFn = Callable[[GameState, Choice, Any], None]
ENGINE_CHOICES: Final[dict[str, ChoiceFn]] = {}
# Run once each time the queue stops (in registration order); a tuple, read on every action.
_AFTER: tuple[Callable[[GameState], None], ...] = ()


def task(cls: type[TaskT]) -> Callable[[TaskFn[TaskT]], TaskFn[TaskT]]:
    """Register the function that runs tasks of type ``cls``."""
    def deco(fn: TaskFn[TaskT]) -> TaskFn[TaskT]:
        TASKS[cls] = fn
        return fn
    return deco


def engine_choice(kind: str) -> Callable[[ChoiceFn], ChoiceFn]:
    """Register the function that carries out a choice of ``kind`` asked by the engine."""
    def deco(fn: ChoiceFn) -> ChoiceFn:
        ENGINE_CHOICES[kind] = fn
        return fn
    return deco


def after_tasks(fn: Callable[[GameState], None]) -> Callable[[GameState], None]:
    """Register a check to run whenever the queue stops for a decision (or the game ends)."""
    global _AFTER
    _AFTER = (*_AFTER, fn)
    return fn


def advance(g: GameState) -> None:
    """Run tasks until a decision is needed or the game is over."""
    tasks, run = g.tasks, TASKS
    while g.step is None and not g.over:
        t = tasks[-1]
        run[type(t)](g, t)
    for fn in _AFTER:
        fn(g)


def push(g: GameState, t: Task) -> None:
    """Queue a task to run next (after the ones pushed later). A queued task always runs before
    the next decision, so any waiting step is cleared."""
    g.tasks.append(t)
    g.step = None


def ask(g: GameState, p: int, kind: str, options: Sequence[Option], ctx: int | None = None) -> None:
    """Stop for player ``p`` to choose one of ``options`` (``ctx``: what a card asks about)."""
    g.choice = Choice(p, kind, tuple(options), ctx)
    g.step = "choice"
    g.actor = p

