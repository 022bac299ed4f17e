"""The server's limits, in one place: message size and rate, game settings, and the work one
visitor can cause (docs/security.md explains each)."""
from __future__ import annotations

import time
from collections import deque

MAX_MESSAGE = 64 * 1024        # bytes of one HTTP body or WebSocket message
MAX_IMPORT = 2 * 1024 * 1024   # bytes of a saved game opened in the browser (POST /api/replays)
MAX_DEPTH = 8                  # nesting of JSON objects and lists in one message
MAX_RATE = 20                  # messages per second per connection (or per seat over HTTP)

PLAYERS = (2, 4)               # allowed player counts (inclusive)
SIZES = (3, 5)                 # allowed board sizes (3x3 to 5x5)
TURN_LIMITS = (1, 500)         # allowed turn limits; a game created without one gets the default
# At least 90% of 2-player 3x3 games between any two AI levels end by conquest before this
# (docs/ai.md, "Games that end"); at 40, 14% of easy-normal games did not.
DEFAULT_TURN_LIMIT = 60
ACTION_LIMIT = 20_000          # every server game ends by scoring after this many actions
SEED_MAX = 2 ** 63 - 1
CHAT_CHARS = 300               # characters of one chat line

CREATE_LIMIT = 30              # games one client may create per minute (0: no limit)
SEND_QUEUE = 64                # messages waiting for one slow WebSocket reader before it is dropped
IDLE_SECONDS = 300.0           # a live game nobody watches leaves memory after this long
FINISHED_SECONDS = 5.0         # ... and a finished one after this long


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
        if len(self.times) > self.limit:  # refused messages beyond the limit are not remembered
            return False
        self.times.append(t)
        return len(self.times) <= self.limit

    def idle(self, now: float | None = None) -> bool:
        """True when no message falls inside the window (the window can be forgotten)."""
        t = time.monotonic() if now is None else now
        return not self.times or t - self.times[-1] >= self.seconds
