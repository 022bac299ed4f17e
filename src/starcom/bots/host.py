"""The host side of the bot protocol: run a bot program, talk to it, and never trust it.

A :class:`Bot` is one running program. Everything it prints is read by a thread into a queue,
so a bot that hangs is timed out rather than waited for. The thread hands over every complete
line of one read at once, so a line written together with an earlier one (in one write) is
already there when the earlier one is taken: that is what lets an answer sent ahead of the
question be caught as out of turn rather than taken for the answer. a line longer than
:data:`~.wire.MAX_LINE`, garbage, an answer nobody asked for or an exit ends with a
:class:`BotFault` naming what happened, and the caller (a match, the checker) decides what
it costs. :func:`play_game` plays one game between bots under a time control: an illegal
answer gets the reason (with the rule ID) and a retry, then the default move; a fault loses
the game for the bot's seat.
"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from ..games import GameEntry
from . import wire

OWN_COMMAND = "starcom"  # this program's command name (not a game's): a bot command starting with it runs us
HANDSHAKE_SECONDS = 10.0  # a bot's program may take a while to start (an interpreter, imports)
QUIT_SECONDS = 2.0
MAX_LINES = 1000  # lines (info included) a bot may print for one answer, or between two
MAX_QUEUED = 10000  # lines a bot may have printed ahead of being read
_FLOOD = b"\x00flood"  # put in the queue (by identity) when a bot floods it


class BotFault(Exception):
    """The bot broke the protocol or stopped: ``kind`` is one of ``crash``, ``timeout``,
    ``garbage``, ``out-of-turn``, ``flood``, ``version``; the message says what happened."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind


@dataclass
class Clock:
    """A seat's time control: each decision may take ``move_ms``; time beyond it comes out of
    the bank, and a bot whose bank runs out loses on time."""

    move_ms: int = 1000
    bank_ms: int = 30000

    def as_json(self) -> dict[str, int]:
        return {"move_ms": self.move_ms, "bank_ms": max(0, self.bank_ms)}

    def allowance(self) -> float:
        """Seconds the current decision may take at most."""
        return (self.move_ms + max(0, self.bank_ms)) / 1000

    def spend(self, seconds: float) -> None:
        """Charge a decision that took ``seconds``."""
        self.bank_ms -= max(0, round(seconds * 1000) - self.move_ms)


@dataclass(frozen=True)
class BotInfo:
    """What a bot said of itself in the handshake."""

    name: str
    author: str = ""
    options: dict[str, str] = field(default_factory=dict)  # name: default


def command_words(command: str | Sequence[str]) -> list[str]:
    """A command line as the words to run (a string is split as a shell would). A command that
    starts with ``starcom`` runs this very installation's command, whether or not it is on the
    PATH (``starcom bot --agent greedy`` from a virtual environment that is not activated)."""
    words = shlex.split(command) if isinstance(command, str) else list(command)
    if not words:
        raise ValueError("the bot's command is empty")
    if words[0] == OWN_COMMAND:
        words = [sys.executable, "-m", "starcom.cli.main", *words[1:]]
    return words


class Bot:
    """A bot program, started at once. ``stderr``: where its error output goes (a file, which
    :meth:`close` closes, or None to discard it)."""

    def __init__(self, command: str | Sequence[str], stderr: IO[Any] | None = None) -> None:
        self.command = command_words(command)
        self.stderr = stderr
        try:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=stderr if stderr is not None else subprocess.DEVNULL)
        except OSError as exc:
            raise BotFault("crash", f"cannot start {self.command[0]!r}: {exc.strerror or exc}") from None
        self.lines: deque[bytes | None] = deque()  # None: the output closed
        self.arrived = threading.Condition()
        self.log: list[str] = []  # the bot's info lines
        self.info = BotInfo("")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        partial = b""
        try:
            while True:
                data = os.read(out.fileno(), 1 << 16)
                if not data:
                    break
                *complete, partial = (partial + data).split(b"\n")
                with self.arrived:
                    if len(self.lines) + len(complete) > MAX_QUEUED:  # unread lines, faster than read
                        self.lines.append(_FLOOD)
                        break
                    self.lines.extend(line + b"\n" for line in complete)
                    if len(partial) > wire.MAX_LINE:  # no newline within the limit: stop reading
                        self.lines.append(partial)
                        break
                    self.arrived.notify()
        except (OSError, ValueError):
            pass
        with self.arrived:
            self.lines.append(None)
            self.arrived.notify()

    # ------------------------------------------------------------------ sending and receiving
    def send(self, text: str) -> None:
        """Write one line (BotFault ``crash`` if the bot is gone)."""
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(text.encode("utf-8"))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise BotFault("crash", self._gone()) from None

    def receive(self, seconds: float) -> tuple[str, str]:
        """The next line that is not ``info`` (those are logged), as keyword and rest, within
        ``seconds``; BotFault if it does not come, is too long or is not text."""
        found = self._next(seconds)
        if found is None:
            raise BotFault("timeout", f"no answer within {seconds:.3g} s")
        return found

    def pending(self) -> str | None:
        """A line the bot sent unasked (not ``info``), if any: answering out of turn."""
        found = self._next(None)
        return None if found is None else " ".join(found).strip()[:80]

    def _next(self, seconds: float | None) -> tuple[str, str] | None:
        """The next line that is not ``info``, waiting up to ``seconds`` (None: only a line
        already read), or None; BotFault for an exit, a flood or a line that is not text."""
        deadline = time.monotonic() + (seconds or 0.0)
        for _ in range(MAX_LINES):
            with self.arrived:
                if seconds is not None:
                    self.arrived.wait_for(lambda: self.lines, max(0.0, deadline - time.monotonic()))
                if not self.lines:
                    return None
                data = self.lines[0] if self.lines[0] is None else self.lines.popleft()
            if data is None:  # left in place: later reads see the end too
                raise BotFault("crash", self._gone())
            if data is _FLOOD:
                raise BotFault("flood", f"more than {MAX_QUEUED} lines unread")
            if len(data) > wire.MAX_LINE:
                raise BotFault("flood", f"a line longer than {wire.MAX_LINE} bytes")
            try:
                text = data.decode("utf-8").strip()
            except UnicodeDecodeError:
                raise BotFault("garbage", f"a line that is not UTF-8 text: {data[:60]!r}") from None
            keyword, rest = wire.split(text)
            if keyword == wire.INFO:
                if len(self.log) < 1000:
                    self.log.append(rest)
            elif text:
                return keyword, rest
        raise BotFault("flood", f"more than {MAX_LINES} lines at once")

    def _gone(self) -> str:
        code = self.proc.poll()
        if code is None:
            return "it stopped reading its input"
        return f"it exited with code {code}" if code >= 0 else f"it was killed by signal {-code}"

    # ------------------------------------------------------------------ the protocol
    def handshake(self, seconds: float = HANDSHAKE_SECONDS) -> BotInfo:
        """Greet the bot and read its ``id``, ``option`` and ``ready`` lines."""
        self.send(wire.line(wire.GREETING, str(wire.VERSION)))
        name, author, options = "", "", {}
        deadline = time.monotonic() + seconds
        while True:
            keyword, rest = self.receive(max(0.0, deadline - time.monotonic()))
            if keyword == wire.ID:
                field_, _, value = rest.partition(" ")
                if field_ == "name":
                    name = value.strip()[:80]
                elif field_ == "author":
                    author = value.strip()[:80]
            elif keyword == wire.DECLARE:
                words = rest.split()
                if len(words) >= 2 and words[0] == "name":
                    default = words[words.index("default") + 1] if "default" in words[:-1] else ""
                    options[words[1]] = default
                else:
                    raise BotFault("garbage", f"an option line not of the form 'option name NAME default "
                                              f"VALUE': {rest[:60]!r}")
            elif keyword == wire.READY:
                if rest != str(wire.VERSION):
                    raise BotFault("version", f"the bot speaks version {rest[:20]!r}, the host {wire.VERSION}")
                self.info = BotInfo(name or self.command[0], author, options)
                return self.info
            else:
                raise BotFault("garbage", f"unexpected {keyword[:40]!r} during the handshake")

    def set_option(self, name: str, value: str) -> None:
        self.send(wire.line(wire.OPTION, f"{name} {value}"))

    def ask(self, body: dict[str, Any], seconds: float) -> str:
        """Send a ``decide`` (or, with ``body["illegal"]``, an ``illegal``) and return the
        notation the bot plays, within ``seconds``."""
        unasked = self.pending()
        if unasked is not None:
            raise BotFault("out-of-turn", f"it sent {unasked!r} when nobody had asked")
        keyword = wire.ILLEGAL if "illegal" in body else wire.DECIDE
        self.send(wire.line(keyword, body.get("illegal", body)))
        keyword, rest = self.receive(seconds)
        if keyword != wire.PLAY:
            raise BotFault("garbage", f"expected 'play ACTION', got {(keyword + ' ' + rest)[:60]!r}")
        return rest

    def ask_timed(self, body: dict[str, Any], clock: Clock) -> tuple[str, float]:
        """:meth:`ask` under ``clock``: the answer and the seconds it took, charged to the clock;
        BotFault ``timeout`` when the bank has run out."""
        start = time.monotonic()
        try:
            answer = self.ask(body, clock.allowance())
        finally:
            took = time.monotonic() - start
            clock.spend(took)
        if clock.bank_ms < 0:
            raise BotFault("timeout", f"its time ran out ({took:.3f} s for one answer)")
        return answer, took

    def close(self) -> int | None:
        """Ask the bot to quit, then stop it if it does not; its exit code (None if killed)."""
        if self.stderr is not None:
            self.stderr.close()  # the child has its own copy
        if self.proc.poll() is None:
            try:
                self.send(wire.line(wire.QUIT))
            except BotFault:
                pass
            try:
                return self.proc.wait(QUIT_SECONDS)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return None
        return self.proc.returncode


# ---------------------------------------------------------------------- playing a game
@dataclass
class SeatStats:
    """How a seat's bot behaved in one game."""

    decisions: int = 0
    illegal: int = 0
    defaults: int = 0  # default moves played for it after its retries ran out
    round_trips: list[float] = field(default_factory=list)  # seconds, one per answer


@dataclass
class Outcome:
    """A finished (or forfeited) game: the winner (-1 a draw), why it ended, and per seat
    what its bot did; ``faulty`` is the seat whose bot lost it by a fault."""

    winner: int
    reason: str
    actions: list[Any]
    seats: list[SeatStats]
    faulty: int | None = None
    fault: str | None = None
    turns: int = 0
    over: bool = False  # the game reached its end (not forfeited, not cut off)


def default_move(legal: Sequence[Any]) -> Any:
    """The move played for a bot whose retries ran out: the first legal action."""
    return legal[0]


def forfeit_winner(players: int, faulty: int) -> int:
    """The winner when ``faulty``'s bot forfeits: the other seat of two; a draw among more."""
    return 1 - faulty if players == 2 else -1


def play_game(entry: GameEntry[Any, Any], settings: dict[str, Any], bots: Sequence[Bot], clocks: Sequence[Clock],
              retries: int = 2, max_steps: int = 20000,
              end_reason: Callable[[Any], str | None] | None = None) -> Outcome:
    """Play one game of ``entry`` with ``settings``, seat ``s`` played by ``bots[s]`` under
    ``clocks[s]``; a game still running after ``max_steps`` actions is cut off (a draw).
    ``end_reason(game)`` names why a finished game ended."""
    game = entry.rules.new(**settings)
    players = game.players
    stats = [SeatStats() for _ in range(players)]
    actions: list[Any] = []

    def ended(winner: int, reason: str, faulty: int | None = None, fault: str | None = None) -> Outcome:
        turns = entry.rules.turn(game) + 1 if entry.rules.turn is not None else len(actions)
        return Outcome(winner, reason, actions, stats, faulty, fault, turns, game.over)

    seat = -1
    out: Outcome | None = None
    try:
        for seat, bot in enumerate(bots):
            bot.send(wire.line(wire.NEWGAME, wire.game_info(entry, settings, seat, players, clocks[seat].as_json(),
                                                            retries)))
        while not game.over:
            if len(actions) >= max_steps:
                out = ended(-1, f"unfinished after {max_steps} actions")
                break
            seat = seat_to_move(game)
            legal = game.legal_actions()
            st, clock, bot = stats[seat], clocks[seat], bots[seat]
            st.decisions += 1
            body: dict[str, Any] = wire.decision(entry, game, seat, st.decisions, clock.as_json(), legal)
            action = None
            for attempt in range(retries + 1):
                answer, took = bot.ask_timed(body, clock)
                st.round_trips.append(took)
                reason, rule = _check(game, answer, legal)
                if reason is None:
                    action = game.parse(answer)
                    break
                st.illegal += 1
                body = {"illegal": {"answer": answer[:200], "reason": reason, "rule": rule,
                                    "retries": retries - attempt}}
                if attempt == retries:
                    break
            if action is None:
                st.defaults += 1
                action = default_move(legal)
            entry.rules.play(game, action)
            actions.append(action)
    except BotFault as fault:
        out = ended(forfeit_winner(players, seat), f"seat {seat} forfeits: {fault}", seat, fault.kind)
    if out is None:
        winner = entry.rules.winner(game)
        reason = (end_reason(game) if end_reason is not None else None) or "the game ended"
        out = ended(winner if winner is not None else -1, reason)
    for s, bot in enumerate(bots):
        if s != out.faulty:
            try:
                bot.send(wire.line(wire.GAMEOVER, {"winner": out.winner, "reason": out.reason}))
            except BotFault:
                pass  # the game is over: a bot gone now costs nothing
    return out


def seat_to_move(game: Any) -> int:
    seat = game.to_move
    assert seat is not None  # the game runs
    return int(seat)


def _check(game: Any, answer: str, legal: Sequence[Any]) -> tuple[str | None, str | None]:
    """Why ``answer`` is not a legal action now (and the rule's ID, where a rule forbids it),
    or (None, None) when it is."""
    try:
        action = game.parse(answer)
    except ValueError as exc:
        return f"cannot read {answer[:60]!r} as an action: {exc}", None
    if action in legal:
        return None, None
    probe = game.clone()
    try:
        probe.apply(action, player=game.to_move)
    except ValueError as exc:
        return str(getattr(exc, "reason", exc)), getattr(exc, "rule", None)
    return f"{answer[:60]!r} is not among the legal actions", None


__all__ = [
    "Bot",
    "BotFault",
    "BotInfo",
    "Clock",
    "Outcome",
    "SeatStats",
    "command_words",
    "default_move",
    "forfeit_winner",
    "play_game",
    "seat_to_move",
]
