"""The server's one error type: every refusal, over HTTP or WebSocket, is ``{"error", "rule"}``."""
from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A rejected request: HTTP status, a readable message and the rule ID (if a rule forbids it)."""

    def __init__(self, status: int, error: str, rule: str | None = None) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.rule = rule

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "rule": self.rule}
