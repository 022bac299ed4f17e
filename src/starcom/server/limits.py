"""Input limits: message size and message rate."""
from __future__ import annotations

import time
from collections import deque

MAX_MESSAGE = 64 * 1024        # bytes of one HTTP body or WebSocket message
MAX_RATE = 20                  # messages per second per connection (or per seat over HTTP)


class RateWindow:
    """Counts messages in a sliding window; ``hit()`` is False once more than ``limit`` messages
    arrived within ``seconds``."""

    def __init__(self, limit: int = MAX_RATE, seconds: float = 1.0) -> None:
        self.limit = limit
        self.seconds = seconds
        self.times: deque[float] = deque()

    def hit(self, now: float | None = None) -> bool:
        """Record one message; True while the rate is acceptable."""
        t = time.monotonic() if now is None else now
        while self.times and t - self.times[0] >= self.seconds:
            self.times.popleft()
        self.times.append(t)
        return len(self.times) <= self.limit
