"""The server's limits, in one place: message size and rate, game settings, and the work one
visitor can cause (docs/security.md explains each)."""
from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

try:
    import resource
except ImportError:  # pragma: no cover - Windows: no file limit to read; the default below is used
    resource = None  # type: ignore[assignment]

MAX_MESSAGE = 64 * 1024        # bytes of one HTTP body or WebSocket message
MAX_IMPORT = 2 * 1024 * 1024   # bytes of a saved game opened in the browser (POST /api/replays)
MAX_DEPTH = 8                  # nesting of JSON objects and lists in one message
MAX_RATE = 20                  # messages per second per connection (or per seat over HTTP)

# The player counts, board sizes and editions a new game may have are its game's (its entry's rules).
TURN_LIMITS = (1, 500)         # allowed turn limits; a game created without one gets the default
# At least 90% of 2-player 3x3 games between any two AI levels end by conquest before this
# (docs/ai.md, "Games that end"); at 40, 14% of easy-normal games did not.
DEFAULT_TURN_LIMIT = 60
ACTION_LIMIT = 20_000          # every server game ends by scoring after this many actions
SEED_MAX = 2 ** 63 - 1
CHAT_CHARS = 300               # characters of one chat line

CREATE_LIMIT = 30              # games one client may create per minute (0: no limit)
REPLAY_BUILDS = 2              # replays one client may have being built at once (more: 429)
WS_PER_ADDRESS = 64            # open WebSockets of one client address (0: no cap); a family watching a few games
WS_CLOSE_BUSY = 1013           # close code of a WebSocket refused by a cap ("try again later", RFC 6455)
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


def ws_total_default(nofile: int | None = None) -> int:
    """The default cap on open WebSockets of the whole server: the soft limit on open files
    (``nofile``; default: this process's ``RLIMIT_NOFILE``) less a quarter of it, and at least
    256 files, kept for everything else the server opens (the database, AI workers' pipes, HTTP
    connections, pages). At a limit of 1,024 files that is 768 sockets; at least 16."""
    if nofile is None:
        nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[0] if resource is not None else 1024
    if nofile <= 0 or nofile > 1_000_000:  # RLIM_INFINITY is -1 or huge
        nofile = 1_000_000  # no real limit: a million files is more than any socket count here
    return max(16, nofile - max(256, nofile // 4))


def import_limits(config: object, actions: object,
                  turn_limit_in: Callable[[Mapping[str, Any]], tuple[object, str] | None] | None = None) -> str | None:
    """Why a saved game may not be opened on this server, judged from its config and its action
    list alone (before anything is replayed), or None. The server lets no live game run past a
    turn limit of :data:`TURN_LIMITS` or :data:`ACTION_LIMIT` actions, so a file may not ask for
    more, nor hold more actions than its own action limit or the server's. A game that keeps
    its turn limit elsewhere in its config says where with ``turn_limit_in`` (its entry's
    ``serving.turn_limit_in``), read when the ``turn_limit`` field holds none. Values of the
    wrong type are left to the file's own checks, which name them. A file without a turn limit
    is bounded while it is replayed (``max_turn`` of :mod:`starcom.sim.record`)."""
    if isinstance(config, dict):
        low, high = TURN_LIMITS
        turns = config.get("turn_limit")
        named = "config field 'turn_limit'"
        if turns is None and turn_limit_in is not None:
            found = turn_limit_in(config)
            if found is not None:
                turns, named = found
        if _whole(turns) and not low <= turns <= high:
            return f"{named} is {turns:,}: this server's games have a turn limit of {low} to {high}"
        most = config.get("action_limit")
        if _whole(most) and not 1 <= most <= ACTION_LIMIT:
            return (f"config field 'action_limit' is {most:,}: this server's games end after at most "
                    f"{ACTION_LIMIT:,} actions")
    if isinstance(actions, list):
        own = config.get("action_limit") if isinstance(config, dict) else None
        cap = own if _whole(own) and 1 <= own <= ACTION_LIMIT else ACTION_LIMIT
        if len(actions) > cap:
            whose = "its own action limit" if cap != ACTION_LIMIT else "the server's action limit"
            return f"the file holds {len(actions):,} actions, more than {whose} of {cap:,}"
    return None


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
