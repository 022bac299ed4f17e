"""Tasks: the entries of the turn machine's queue (``GameState.tasks``, run by ``kernel.advance``).

Each kind of task is a small immutable value. A task that keeps count as it runs (whose turn it
is to assign damage, which start-of-turn effects are left, whether its phase was announced)
puts an updated copy in its place, so a clone of the state shares every task with the original.

The JSON form of a task is a flat list, its name first: ``["prio", 2]``, ``["sot", 1, 40, 52]``,
``["ask", player, kind, ctx, *options]``, ``["command", "open"]``.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, ClassVar

Option = int | str  # what a choice offers: a card id, position, deck, 1/0, "skip" or "decline"


class Window(IntEnum):
    """The kinds of priority round (a ``Prio`` task)."""

    ANSWER = 0  # answers a card or ability just played; ends once the stack is empty
    COMBAT = 1  # one of the windows of a fight (COMBAT-2)
    AFTER_ASSIGN = 2  # the window after damage is assigned: redirects are allowed (COMBAT-5)


@dataclass(frozen=True, slots=True)
class Task:
    """A queued step of the turn machine. ``name`` is its kind in the JSON form."""

    name: ClassVar[str] = ""

    def to_json(self) -> list[Any]:
        return [self.name]

    @classmethod
    def from_parts(cls, parts: list[Any]) -> Task:
        """The task whose JSON form is ``[name, *parts]``."""
        return cls(*parts)


@dataclass(frozen=True, slots=True)
class Ready(Task):
    """The Ready phase of the active player (TURN-1)."""

    name: ClassVar[str] = "ready"


@dataclass(frozen=True, slots=True)
class PhaseTask(Task):
    """A phase that announces itself when it first runs and then runs again (``opened``)."""

    opened: bool = False

    def to_json(self) -> list[Any]:
        return [self.name, "open"] if self.opened else [self.name]

    @classmethod
    def from_parts(cls, parts: list[Any]) -> Task:
        if parts not in ([], ["open"]):
            raise ValueError(f"{cls.name} task: unexpected {parts!r}")
        return cls(bool(parts))


@dataclass(frozen=True, slots=True)
class Command(PhaseTask):
    """The Command phase: the active player acts until they end it."""

    name: ClassVar[str] = "command"


@dataclass(frozen=True, slots=True)
class Combat(PhaseTask):
    """The Combat phase: fights one system after another (COMBAT-1)."""

    name: ClassVar[str] = "combat"


@dataclass(frozen=True, slots=True)
class End(Task):
    """The End phase (queues conquest and cleanup)."""

    name: ClassVar[str] = "end"


@dataclass(frozen=True, slots=True)
class Conquest(Task):
    """END-1 and END-2."""

    name: ClassVar[str] = "conquest"


@dataclass(frozen=True, slots=True)
class Cleanup(Task):
    """END-3, END-4, the end of the game or the hand-over to the next turn."""

    name: ClassVar[str] = "cleanup"


@dataclass(frozen=True, slots=True)
class BuildWindow(Task):
    """A moment for the active player to build where a card lets them build in any phase."""

    name: ClassVar[str] = "build_window"


@dataclass(frozen=True, slots=True)
class Draw(Task):
    """``player`` draws a card (DRAW-1), asking for a deck or a discard when needed."""

    name: ClassVar[str] = "draw"
    player: int

    def to_json(self) -> list[Any]:
        return [self.name, self.player]


@dataclass(frozen=True, slots=True)
class Receive(Task):
    """``card`` goes from ``giver``'s hand to ``player``'s (HAND-1/HAND-2 apply)."""

    name: ClassVar[str] = "receive"
    player: int
    card: int
    giver: int

    def to_json(self) -> list[Any]:
        return [self.name, self.player, self.card, self.giver]


@dataclass(frozen=True, slots=True)
class Ask(Task):
    """A card effect's question to ``player``: a choice of ``kind`` (the card's name) about
    ``ctx`` among ``options``; asked when the task runs (skipped without options)."""

    name: ClassVar[str] = "ask"
    player: int
    kind: str
    ctx: int
    options: tuple[Option, ...]

    def to_json(self) -> list[Any]:
        return [self.name, self.player, self.kind, self.ctx, *self.options]

    @classmethod
    def from_parts(cls, parts: list[Any]) -> Task:
        return cls(parts[0], parts[1], parts[2], tuple(parts[3:]))


@dataclass(frozen=True, slots=True)
class StartOfTurn(Task):
    """READY-3: the active player's start-of-turn effects; ``pending`` (their source cards) is
    filled when the task first runs (``started``)."""

    name: ClassVar[str] = "sot"
    started: bool = False
    pending: tuple[int, ...] = ()

    def to_json(self) -> list[Any]:
        return [self.name, int(self.started), *self.pending]

    @classmethod
    def from_parts(cls, parts: list[Any]) -> Task:
        return cls(bool(parts[0]), tuple(parts[1:]))


@dataclass(frozen=True, slots=True)
class Prio(Task):
    """A priority round of kind ``window``."""

    name: ClassVar[str] = "prio"
    window: Window

    def to_json(self) -> list[Any]:
        return [self.name, int(self.window)]

    @classmethod
    def from_parts(cls, parts: list[Any]) -> Task:
        (window,) = parts
        return cls(Window(window))


@dataclass(frozen=True, slots=True)
class Resolve(Task):
    """Resolve the stack, last in first out (RESP-1)."""

    name: ClassVar[str] = "resolve"


@dataclass(frozen=True, slots=True)
class PlayerRound(Task):
    """A step that each living player takes in turn from the active one; ``index`` counts the
    players done."""

    index: int = 0

    def to_json(self) -> list[Any]:
        return [self.name, self.index]


@dataclass(frozen=True, slots=True)
class Assign(PlayerRound):
    """COMBAT-3: each player assigns damage."""

    name: ClassVar[str] = "assign"


@dataclass(frozen=True, slots=True)
class Retreat(PlayerRound):
    """COMBAT-7: each player may retreat ships."""

    name: ClassVar[str] = "retreat"


@dataclass(frozen=True, slots=True)
class Damage(Task):
    """COMBAT-6: the assigned damage lands."""

    name: ClassVar[str] = "damage"


@dataclass(frozen=True, slots=True)
class CombatEnd(Task):
    """The end of one fight."""

    name: ClassVar[str] = "combat_end"


TASK_TYPES: dict[str, type[Task]] = {
    cls.name: cls for cls in (Ready, Command, Combat, End, Conquest, Cleanup, BuildWindow, Draw, Receive,
                              Ask, StartOfTurn, Prio, Resolve, Assign, Retreat, Damage, CombatEnd)}


def task_from_json(data: list[Any]) -> Task:
    """The task whose JSON form is ``data``; KeyError, TypeError or ValueError if it is none."""
    return TASK_TYPES[data[0]].from_parts(list(data[1:]))
