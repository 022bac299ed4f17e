"""Exceptions raised by the engine."""
from __future__ import annotations

from typing import Any


class StarcomError(Exception):
    """Base class of the engine's errors."""


class IllegalAction(StarcomError, ValueError):
    """An action that is malformed or not legal now. The state is left unchanged.

    ``reason`` names what was wrong and, where a rule forbids it, the rule ID (e.g. ``MOVE-4``).
    """

    def __init__(self, reason: str, action: Any = None) -> None:
        super().__init__(reason if action is None else f"illegal action {action!r}: {reason}")
        self.reason = reason
        self.action = action

    @property
    def rule(self) -> str | None:
        """The rule ID the reason starts with, if any."""
        head = self.reason.split(":", 1)[0]
        return head if "-" in head and head.split("-", 1)[0].isupper() else None


class ReplayError(StarcomError):
    """A saved game or replay file that cannot be loaded; the message says what is wrong."""
