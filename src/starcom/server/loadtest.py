"""Load benchmark of the game server (``starcom loadtest``).

Three scenarios, all played by random policies over real connections:

* **mixed** (the default): hot-seat games, every seat driven over its own WebSocket, while vs-AI
  games run at the same time (the script plays their human seat, the server's AI the other). It
  measures the round trip of human actions (action sent -> the state message showing the new step
  received by the sender), counts the AI decisions it sees, and at the end checks that no vs-AI
  game is left with an AI seat to move that is neither thinking nor queued nor moving.
  Human actions sent while some vs-AI game shows its AI "queued" (so every AI worker was busy)
  are also summarised on their own.
* **hint-flood**: vs-AI games are played for a while with nobody asking for hints, then as long
  again while one seat of another game asks for hints as fast as the rate limit allows; the AI's
  decision times of the two phases are compared (:func:`run_hint_flood`).
* **memory**: many short hot-seat games played to the end through one server process; the
  server's resident memory is read after the first 10 games and after the last one.

By default the benchmark starts its own server as a child process (:class:`ServerProcess`), so it
knows the process ID for the memory figures. Only base dependencies are used: ``websockets`` for
the game connections and ``urllib.request`` (run in a thread) for the few HTTP requests.
"""
from __future__ import annotations

import asyncio
import json
import math
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import websockets

ProgressFn = Callable[[int, int], None]   # (completed, total)

CLIENT_RATE = 15        # messages a second one connection may send; the server closes past 20
BASELINE_GAMES = 10     # the memory scenario's first reading is taken after this many games
AI_PENDING = ("queued", "thinking")   # ai_status values of a seat whose decision is under way
_WS_MAX = 1 << 24       # state messages carry the log and the legal list; never cut them off
# Loopback traffic must not go through a proxy named in the environment.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
_POSIX = os.name == "posix"


class LoadError(Exception):
    """The benchmark could not run: the server did not start, refused to create games, ..."""


# --------------------------------------------------------------------------- results


def _quantile(xs: list[float], q: float) -> float | None:
    """The ``q`` quantile (0..1) of ``xs`` in milliseconds by nearest rank; None without data."""
    if not xs:
        return None
    s = sorted(xs)
    return 1000 * s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def _summary(xs: list[float]) -> dict[str, float | None]:
    """p50/p95/p99/max of latencies given in seconds, in milliseconds rounded to 0.1."""
    out = {"p50": _quantile(xs, 0.5), "p95": _quantile(xs, 0.95), "p99": _quantile(xs, 0.99),
           "max": 1000 * max(xs) if xs else None}
    return {k: None if v is None else round(v, 1) for k, v in out.items()}


@dataclass
class LoadResult:
    """What one run measured. ``latencies`` holds one round trip (seconds) per human action,
    ``by_mode`` the same split by game mode ("hotseat", "vs_ai")."""

    scenario: str = "mixed"
    games: int = 0                      # hot-seat games
    ai_games: int = 0                   # vs-AI games (mixed scenario)
    ai_level: str | None = None
    actions_per_game: int | None = None  # the cap on each hot-seat game's steps (mixed scenario)
    turn_limit: int | None = None
    think: float = 0.0
    seed: int = 0
    url: str = ""
    server_pid: int | None = None
    server_options: list[str] = field(default_factory=list)   # extra `serve` options passed
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    by_mode: dict[str, list[float]] = field(default_factory=dict)
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    finished: int = 0                   # games that reached their end (over) while played
    timed_out: bool = False
    ai_decisions: int = 0               # steps of AI seats seen by the human seats of vs-AI games
    ai_waits: list[float] = field(default_factory=list)   # seconds from an AI's turn to its move, as seen
    ai_check: dict[str, int] = field(default_factory=dict)  # end state of each vs-AI game, counted
    rss_mb_after_10: float | None = None
    rss_mb_after_all: float | None = None
    # human actions sent while a vs-AI game showed its AI "queued": every AI worker was busy then
    busy_latencies: list[float] = field(default_factory=list)
    ai_queued: dict[str, bool] = field(default_factory=dict)   # vs-AI game -> its AI waits (last state seen)
    # the hint-flood scenario: one game's AI decisions (seconds) with nobody asking for hints,
    # then while one seat of another game asks for hints as fast as the rate limit allows
    ai_quiet: list[float] = field(default_factory=list)
    ai_flooded: list[float] = field(default_factory=list)
    hint_answers: dict[str, int] = field(default_factory=dict)   # HTTP status -> hint requests answered so
    flood_rate: int = 0                 # hints asked for a second by each flooding seat
    flood_seats: int = 0                # seats (each in a game of its own) flooding hints

    def record(self, mode: str, seconds: float, ai_busy: bool = False) -> None:
        """One human action's round trip; ``ai_busy``: sent while every AI worker was busy."""
        self.latencies.append(seconds)
        self.by_mode.setdefault(mode, []).append(seconds)
        if ai_busy:
            self.busy_latencies.append(seconds)

    def ai_saturated(self) -> bool:
        """True while some vs-AI game's AI waits for a worker: then every worker is busy."""
        return any(self.ai_queued.values())

    @property
    def flood_ratio(self) -> float | None:
        """The hint-flood scenario's AI decision median, flooded over quiet, from the medians it
        reports (None without data)."""
        quiet, flooded = _summary(self.ai_quiet)["p50"], _summary(self.ai_flooded)["p50"]
        if not quiet or flooded is None:
            return None
        return round(flooded / quiet, 2)

    def error(self, text: str) -> None:
        """Count an error and keep the first few distinct messages for the report."""
        self.errors += 1
        if len(self.error_samples) < 5 and text not in self.error_samples:
            self.error_samples.append(text)

    def percentile(self, q: float) -> float:
        """The ``q`` quantile (0..1) of all latencies in milliseconds (nearest rank); NaN without data."""
        v = _quantile(self.latencies, q)
        return float("nan") if v is None else v

    @property
    def ai_lost(self) -> int | None:
        """vs-AI games left with an AI seat to move that neither thinks, waits in the queue nor
        moves within the grace period (None when no vs-AI game was checked)."""
        return self.ai_check.get("lost", 0) if self.ai_check else (0 if self.ai_games == 0 else None)

    @property
    def rss_growth_mb(self) -> float | None:
        if self.rss_mb_after_10 is None or self.rss_mb_after_all is None:
            return None
        return round(self.rss_mb_after_all - self.rss_mb_after_10, 1)

    @property
    def failed(self) -> bool:
        """True if the run shows a fault: errors, a timeout, a lost AI decision or no action at all
        (the hint-flood scenario: no AI decision in either phase)."""
        if self.scenario == "hint-flood":
            return bool(self.errors or self.timed_out or not self.ai_quiet or not self.ai_flooded)
        return bool(self.errors or self.timed_out or self.ai_lost or not self.latencies)

    def figures(self) -> dict[str, Any]:
        """Every figure as a JSON-ready dict (latencies in milliseconds, memory in MB)."""
        return {
            "scenario": self.scenario, "games": self.games, "ai_games": self.ai_games, "ai_level": self.ai_level,
            "actions_per_game": self.actions_per_game, "turn_limit": self.turn_limit, "think_s": self.think,
            "seed": self.seed, "url": self.url, "server_pid": self.server_pid,
            "server_options": self.server_options,
            "seconds": round(self.seconds, 2), "actions": len(self.latencies),
            "actions_per_s": round(len(self.latencies) / self.seconds, 1) if self.seconds else None,
            "latency_ms": _summary(self.latencies),
            "latency_ms_by_mode": {m: _summary(xs) for m, xs in sorted(self.by_mode.items())},
            "errors": self.errors, "error_samples": self.error_samples, "finished": self.finished,
            "timed_out": self.timed_out, "ai_decisions": self.ai_decisions,
            "ai_decisions_per_s": round(self.ai_decisions / self.seconds, 2) if self.seconds else None,
            "ai_decision_ms": _summary(self.ai_waits), "ai_lost": self.ai_lost,
            "ai_check": self.ai_check, "rss_mb_after_10": self.rss_mb_after_10,
            "rss_mb_after_all": self.rss_mb_after_all, "rss_growth_mb": self.rss_growth_mb,
            "latency_ms_ai_busy": _summary(self.busy_latencies),
            "ai_busy_share": round(len(self.busy_latencies) / len(self.latencies), 3) if self.latencies else None,
            "ai_quiet_ms": _summary(self.ai_quiet), "ai_flooded_ms": _summary(self.ai_flooded),
            "ai_quiet_decisions": len(self.ai_quiet), "ai_flooded_decisions": len(self.ai_flooded),
            "flood_ratio": self.flood_ratio, "hint_answers": dict(sorted(self.hint_answers.items())),
            "flood_rate": self.flood_rate, "flood_seats": self.flood_seats,
        }

    def table(self) -> Any:
        """The figures as a Rich table (what the command prints without --json)."""
        from rich.table import Table

        f = self.figures()
        t = Table(title=f"starcom loadtest — {self.scenario}", show_header=False)
        t.add_column("figure", style="bold")
        t.add_column("value")
        server = f"{self.url}" + (f" (pid {self.server_pid})" if self.server_pid else "")
        if self.server_options:
            server += " " + " ".join(self.server_options)
        t.add_row("server", server)
        games = f"{self.games} hot-seat"
        if self.ai_games:
            games += f" + {self.ai_games} vs-AI (ai:{self.ai_level})"
        if self.actions_per_game:
            games += f", up to {self.actions_per_game} steps each"
        if self.turn_limit:
            games += f", turn limit {self.turn_limit}"
        if self.scenario == "hint-flood":
            games = (f"{self.ai_games} vs-AI (ai:{self.ai_level}) one after another; in the second phase the "
                     f"seat to move of {self.flood_seats} hot-seat game(s) asks for hints {self.flood_rate}/s each")
        t.add_row("games", games + f"; {self.finished} finished")
        t.add_row("human actions", f"{f['actions']} in {f['seconds']} s ({_n(f['actions_per_s'])}/s)")
        rows = [("latency", f["latency_ms"])] + [(f"  {m}", s) for m, s in f["latency_ms_by_mode"].items()]
        if self.busy_latencies:
            rows.append((f"  every AI worker busy ({len(self.busy_latencies)})", f["latency_ms_ai_busy"]))
        for name, lat in rows:
            t.add_row(name, f"p50 {_ms(lat['p50'])}  p95 {_ms(lat['p95'])}  p99 {_ms(lat['p99'])}  "
                            f"max {_ms(lat['max'])}")
        if self.scenario == "hint-flood":
            for name, lat, n in (("AI decisions, quiet", f["ai_quiet_ms"], len(self.ai_quiet)),
                                 ("AI decisions, hint flood", f["ai_flooded_ms"], len(self.ai_flooded))):
                t.add_row(name, f"{n}: p50 {_ms(lat['p50'])}  p95 {_ms(lat['p95'])}  max {_ms(lat['max'])}")
            ratio = self.flood_ratio
            t.add_row("flooded / quiet (p50)", _n(ratio), style="green" if ratio is not None and ratio <= 2 else "red")
            t.add_row("hint answers", ", ".join(f"HTTP {k}: {v}" for k, v in sorted(self.hint_answers.items())))
        t.add_row("errors", str(self.errors) + ("".join(f"\n  {e}" for e in self.error_samples)))
        if self.timed_out:
            t.add_row("timed out", "yes: the games were stopped before they were done", style="red")
        if self.ai_games and self.scenario == "mixed":
            wait = f["ai_decision_ms"]
            t.add_row("AI decisions", f"{self.ai_decisions} ({_n(f['ai_decisions_per_s'])}/s); each seen after "
                                      f"p50 {_ms(wait['p50'])}, max {_ms(wait['max'])}")
            t.add_row("AI decisions lost", _n(self.ai_lost),
                      style="red" if self.ai_lost else "green")
            t.add_row("vs-AI games at the end", ", ".join(f"{k} {v}" for k, v in sorted(self.ai_check.items())))
        if self.scenario == "memory":
            t.add_row(f"RSS after {BASELINE_GAMES} games", _mb(self.rss_mb_after_10))
            t.add_row(f"RSS after {self.games} games", _mb(self.rss_mb_after_all))
            growth = self.rss_growth_mb
            t.add_row("RSS growth", _mb(growth), style="green" if growth is not None and growth <= 50 else "red")
        return t


def _ms(v: float | None) -> str:
    return "-" if v is None else f"{v:.1f} ms"


def _mb(v: float | None) -> str:
    return "-" if v is None else f"{v:.1f} MB"


def _n(v: Any) -> str:
    return "-" if v is None else str(v)


# --------------------------------------------------------------------------- HTTP (standard library)


def request_json(method: str, url: str, body: Any = None, timeout: float = 30.0) -> tuple[int, Any]:
    """One HTTP request with a JSON body; (status, decoded JSON answer). Error statuses are
    answers, not exceptions; a connection failure raises ``OSError``."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data is not None else {})
    try:
        with _OPENER.open(req, timeout=timeout) as r:
            raw = r.read()
            status = r.status
    except urllib.error.HTTPError as exc:
        raw, status = exc.read(), exc.code
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, {"error": raw.decode("utf-8", "replace")[:200]}


async def http_json(method: str, url: str, body: Any = None, timeout: float = 30.0) -> tuple[int, Any]:
    """:func:`request_json` in a worker thread, so the event loop keeps serving the game connections."""
    return await asyncio.to_thread(request_json, method, url, body, timeout)


# --------------------------------------------------------------------------- the server process


def free_port() -> int:
    """A TCP port on the loopback interface that nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve_command() -> list[str]:
    # The `starcom` entry point is starcom.cli.main:app; running the module calls the same app
    # with this interpreter, so the child uses the same installation as the benchmark.
    return [sys.executable, "-m", "starcom.cli.main", "serve"]


_SERVE_OPTIONS: frozenset[str] | None = None


def serve_options() -> frozenset[str]:
    """The long options ``starcom serve`` accepts (read from its ``--help``, once per process), so
    options the server gained recently are passed only to a server that knows them."""
    global _SERVE_OPTIONS
    if _SERVE_OPTIONS is None:
        env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
        out = subprocess.run(_serve_command() + ["--help"], capture_output=True, text=True, env=env, timeout=120)
        _SERVE_OPTIONS = frozenset(re.findall(r"--[a-z][a-z0-9-]*", out.stdout))
    return _SERVE_OPTIONS


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB: VmRSS of /proc/PID/status (``ps`` on systems
    without /proc). OSError if it cannot be read, e.g. the process is gone."""
    if Path("/proc/self/status").exists():
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
        raise OSError(f"process {pid} reports no resident memory")
    out = subprocess.run(["ps", "-o", "rss=", "-p", str(pid)], capture_output=True, text=True)
    if out.returncode != 0 or not out.stdout.strip():
        raise OSError(f"cannot read the memory of process {pid}")
    return round(int(out.stdout.split()[0]) / 1024, 1)


class ServerProcess:
    """``starcom serve`` as a child process on a free loopback port.

    ``db`` is the SQLite file (default: ``load.db`` in a temporary directory removed by
    :meth:`stop`). The per-client creation limit is lifted (``--create-limit 0``) when the server
    has that option; ``ai_workers`` is passed as ``--ai-workers`` and refused with ``LoadError`` if
    the server lacks it. :meth:`start` returns once the server answers HTTP."""

    def __init__(self, db: Path | None = None, port: int | None = None, ai_workers: int | None = None) -> None:
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if db is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="starcom-load-")
            db = Path(self._tmp.name) / "load.db"
        self.db = Path(db)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ai_workers = ai_workers
        self.options: list[str] = []
        self.proc: subprocess.Popen[bytes] | None = None
        self._log_path = self.db.with_name(self.db.name + f".server-{self.port}.log")

    @property
    def pid(self) -> int:
        assert self.proc is not None, "the server is not started"
        return self.proc.pid

    def start(self, wait: float = 60.0) -> "ServerProcess":
        known = serve_options()
        self.options = ["--create-limit", "0"] if "--create-limit" in known else []
        if self.ai_workers is not None:
            if "--ai-workers" not in known:
                raise LoadError("this `starcom serve` has no --ai-workers option; leave --ai-workers out")
            self.options += ["--ai-workers", str(self.ai_workers)]
        cmd = _serve_command() + ["--no-browser", "--host", "127.0.0.1", "--port", str(self.port),
                                  "--db", f"sqlite:///{self.db}", *self.options]
        log = open(self._log_path, "wb")
        try:
            # A session of its own: the server and any worker processes it starts form one group,
            # which kill() ends as a whole; Ctrl+C of the benchmark reaches only the benchmark,
            # whose clean-up then stops the server.
            self.proc = subprocess.Popen(cmd, env={**os.environ, "CI": "1"}, stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT, start_new_session=_POSIX)
        finally:
            log.close()   # the child holds its own descriptor
        deadline = time.monotonic() + wait
        while True:
            if self.proc.poll() is not None:
                raise LoadError(f"the server exited with code {self.proc.returncode}:\n{self.log_tail()}")
            try:
                status, _ = request_json("GET", f"{self.url}/api/games", timeout=2)
                if status == 200:
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise LoadError(f"the server did not answer within {wait:.0f} s:\n{self.log_tail()}")
            time.sleep(0.1)

    def log_tail(self, lines: int = 20) -> str:
        """The last lines the server printed."""
        try:
            return "\n".join(self._log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def rss_mb(self) -> float:
        return rss_mb(self.pid)

    def kill(self) -> None:
        """SIGKILL to the server and the processes it started, as in a crash: nothing is shut down
        cleanly (a temporary directory stays until :meth:`stop`)."""
        if self.proc is None:
            return
        if _POSIX:
            self._signal_group(signal.SIGKILL)
        elif self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)

    def leftovers(self) -> bool:
        """True if a process the server started is still alive after the server itself ended."""
        if self.proc is None or self.proc.poll() is None or not _POSIX:
            return False
        try:
            os.killpg(self.proc.pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True

    def _signal_group(self, sig: int) -> None:
        assert self.proc is not None
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        """Ask the server to shut down (SIGTERM), kill it if it has not after 10 s, kill whatever it
        left running (e.g. worker processes), and remove the temporary directory if this object
        made it."""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.kill()
            if self.leftovers():
                self._signal_group(signal.SIGKILL)
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> "ServerProcess":
        return self.start() if self.proc is None else self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


# --------------------------------------------------------------------------- players


class _SeatLost(Exception):
    """A seat's connection failed or closed before its game was done."""


@dataclass
class _Game:
    """A created game as the players see it."""

    game_id: str
    mode: str                   # "hotseat" or "vs_ai"
    tokens: dict[int, str]      # human seat -> token
    ai_seats: set[int]
    limit: int | None           # stop once the game has this many steps (None: play to the end)
    step: int = 0               # highest step seen
    over: bool = False
    counted: int = 0            # steps already reported to the progress bar


class _Pacer:
    """Keeps one connection under the server's flood limit (a sliding one-second window)."""

    def __init__(self, rate: int = CLIENT_RATE) -> None:
        self.rate = rate
        self.sent: deque[float] = deque()

    async def wait(self) -> None:
        now = time.monotonic()
        while self.sent and now - self.sent[0] >= 1.0:
            self.sent.popleft()
        if len(self.sent) >= self.rate:
            await asyncio.sleep(1.0 - (now - self.sent[0]) + 0.01)
        self.sent.append(time.monotonic())


def _pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Random legal action, choosing the kind first so long lists of one kind do not dominate."""
    kinds = sorted({e["action"]["type"] for e in legal})
    kind = rng.choice(kinds)
    return rng.choice([e["action"] for e in legal if e["action"]["type"] == kind])


def _server_passes(msg: dict[str, Any]) -> bool:
    """Does the server pass for the seat this state message asks (its ``passing``)? Then the
    client must not answer: the pass is made already, and an answer would arrive stale
    (docs/protocol.md, "Automatic passes")."""
    return bool(msg.get("passing"))


def _ws_base(url: str) -> str:
    base = url.rstrip("/")
    return "ws" + base[4:] if base.startswith("http") else base


async def _play_seat(ws_url: str, seat: int, game: _Game, think: float, rng: random.Random,
                     result: LoadResult, on_step: Callable[[_Game], None]) -> None:
    """Play ``seat`` of ``game`` over one WebSocket until the game is over or reaches its limit.

    Every action is sent with ``expect_step``; its round trip ends at the first state message
    whose step passed the one it was sent at. In vs-AI games every step seen that this seat did
    not make is an AI decision; the time from the state showing an AI seat to move to the state
    showing its move is recorded in ``result.ai_waits``. Raises :class:`_SeatLost` if the
    connection ends early."""
    pacer = _Pacer()
    sent_at: float | None = None
    sent_step = -1
    seen: int | None = None
    last: dict[str, Any] | None = None
    ai_since: float | None = None   # when the AI seat to move was first seen to move
    sent_busy = False               # every AI worker was busy when the action was sent
    refused = 0

    async def act(msg: dict[str, Any]) -> None:
        nonlocal sent_at, sent_step, sent_busy
        if think:
            await asyncio.sleep(think * (0.5 + rng.random()))
        await pacer.wait()
        action = _pick(msg["legal"], rng)
        sent_step = msg["step"]
        sent_busy = result.ai_saturated()
        sent_at = time.perf_counter()
        await ws.send(json.dumps({"type": "action", "action": action, "expect_step": msg["step"]}))

    try:
        async with websockets.connect(ws_url, max_size=_WS_MAX, proxy=None, open_timeout=120,
                                      ping_interval=None) as ws:
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "error":
                    result.error(f"{game.mode} seat {seat}: {msg.get('error')}")
                    sent_at = None
                    refused += 1
                    if refused > 3:   # the server keeps refusing: give this game up
                        raise _SeatLost(f"action refused {refused} times: {msg.get('error')}")
                    if (last is not None and last["to_move"] == seat and last["legal"] and not last["over"]
                            and not _server_passes(last)):
                        await act(last)   # no new state follows a refusal: decide again
                    continue
                if msg.get("type") != "state":
                    continue
                step = msg["step"]
                now = time.perf_counter()
                if game.ai_seats:
                    result.ai_queued[game.game_id] = any(s.get("ai_status") == "queued" for s in msg["seats"])
                mine = sent_at is not None and step > sent_step
                advanced = seen is not None and step > seen
                if advanced and game.ai_seats:
                    assert seen is not None
                    result.ai_decisions += step - seen - (1 if mine else 0)
                    if ai_since is not None:
                        result.ai_waits.append(now - ai_since)
                if advanced or seen is None:
                    ai_to_move = msg["to_move"] in game.ai_seats and not msg["over"]
                    ai_since = now if ai_to_move else None
                seen = step if seen is None else max(seen, step)
                if mine:
                    assert sent_at is not None
                    result.record(game.mode, now - sent_at, sent_busy)
                    sent_at = None
                    refused = 0
                if step > game.step:
                    game.step = step
                    on_step(game)
                last = msg
                if msg["over"]:
                    game.over = True
                    on_step(game)
                    return
                if game.limit is not None and step >= game.limit:
                    return
                if msg["to_move"] == seat and msg["legal"] and sent_at is None and not _server_passes(msg):
                    await act(msg)
    except (OSError, websockets.exceptions.WebSocketException, asyncio.TimeoutError) as exc:
        raise _SeatLost(f"{type(exc).__name__}: {exc}") from None
    raise _SeatLost("the server closed the connection before the game was done")


async def _play_game(game: _Game, url: str, think: float, seed: int, result: LoadResult,
                     on_step: Callable[[_Game], None]) -> None:
    """Play every human seat of ``game`` at once; if one seat fails, the error is counted and the
    game's other seats stop (they would wait for that seat forever)."""
    ws = _ws_base(url)
    tasks = [asyncio.create_task(_play_seat(f"{ws}/ws/games/{game.game_id}?seat={tok}", seat, game, think,
                                            random.Random(f"{seed}:{game.game_id}:{seat}"), result, on_step))
             for seat, tok in sorted(game.tokens.items())]
    try:
        done, _pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        for t in done:
            if t.exception() is not None:
                result.error(f"{game.mode} game {game.game_id}: {t.exception()}")
                break
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _create(url: str, body: dict[str, Any], limit: int | None) -> _Game:
    """Create one game (``POST /api/games``); LoadError if the server refuses."""
    status, answer = await http_json("POST", f"{url}/api/games", body)
    if status != 201:
        err = answer.get("error") if isinstance(answer, dict) else answer
        hint = (" (the server limits game creation per client; `starcom serve --create-limit 0` lifts "
                "the limit)") if status == 429 else ""
        raise LoadError(f"the server refused to create a game: HTTP {status}: {err}{hint}")
    seats = answer["seats"]
    return _Game(answer["game_id"], body["mode"], {s["seat"]: s["token"] for s in seats if s["kind"] == "human"},
                 {s["seat"] for s in seats if s["kind"] != "human"}, limit)


async def _create_all(url: str, bodies: list[dict[str, Any]], limit: int | None) -> list[_Game]:
    sem = asyncio.Semaphore(4)

    async def one(body: dict[str, Any]) -> _Game:
        async with sem:
            return await _create(url, body, limit)

    return list(await asyncio.gather(*(one(b) for b in bodies)))


async def _check_ai_game(url: str, game: _Game, grace: float) -> str:
    """Where a vs-AI game stands once the load has stopped: "over", "human" (a human seat is to
    move), "moved" (the AI seat to move played within ``grace`` seconds), "pending" (after
    ``grace`` it still reports ai_status queued or thinking), "lost" (none of these) or "error"
    (no answer). A queued AI is given the grace period too, so that a worker slow to start on a
    busy machine is seen moving rather than reported as merely waiting."""
    token = next(iter(game.tokens.values()))
    deadline = time.monotonic() + grace
    first: int | None = None
    while True:
        try:
            status, st = await http_json("GET", f"{url}/api/games/{game.game_id}?seat={token}")
        except OSError:
            return "error"
        if status != 200 or not isinstance(st, dict):
            return "error"
        if st["over"]:
            return "over"
        if first is None:
            first = st["step"]
            seat = st["seats"][st["to_move"]]
            if st["to_move"] not in game.ai_seats and seat.get("ai") is None:
                return "human"
        elif st["step"] != first:
            return "moved"
        if time.monotonic() > deadline:
            return "pending" if st["seats"][st["to_move"]].get("ai_status") in AI_PENDING else "lost"
        await asyncio.sleep(0.25)


def _notify(progress: ProgressFn | None, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


# --------------------------------------------------------------------------- scenarios


async def run_loadtest(url: str, games: int = 100, actions: int = 40, think: float = 0.5, timeout: float = 900.0,
                       seed: int = 0, ai_games: int = 0, ai_level: str = "hard", grace: float = 30.0,
                       turn_limit: int | None = None, progress: ProgressFn | None = None) -> LoadResult:
    """The mixed scenario against the server at ``url``.

    Creates ``games`` two-player hot-seat games (played until ``actions`` steps or their end) and
    ``ai_games`` vs-AI games (``human`` against ``ai:<ai_level>``, whose human seat is played until
    the hot-seat games are done), all played at once; each player thinks ``think`` seconds on
    average (uniform 0.5x..1.5x). After ``timeout`` seconds every game stops and ``timed_out`` is
    set. Then each vs-AI game is checked (see :func:`_check_ai_game`; ``grace`` seconds for a
    move). ``progress(done, total)`` is called as hot-seat steps are played. LoadError if the
    server refuses to create the games."""
    base = url.rstrip("/")
    result = LoadResult("mixed", games, ai_games, ai_level if ai_games else None, actions, turn_limit, think,
                        seed, base)
    hot = await _create_all(base, [{"mode": "hotseat", "players": 2, "seed": seed + i,
                                    "turn_limit": turn_limit} for i in range(games)], actions)
    vs_ai = await _create_all(base, [{"mode": "vs_ai", "players": 2, "seed": seed + games + i,
                                      "turn_limit": turn_limit, "seats": ["human", f"ai:{ai_level}"]}
                                     for i in range(ai_games)], None)
    total = games * actions
    done = 0

    def on_step(g: _Game) -> None:
        nonlocal done
        if g.mode != "hotseat":
            return
        reached = actions if g.over else min(g.step, actions)
        if reached > g.counted:
            done += reached - g.counted
            g.counted = reached
            _notify(progress, done, total)

    _notify(progress, 0, total)
    start = time.perf_counter()
    ai_tasks = [asyncio.create_task(_play_game(g, base, think, seed, result, on_step)) for g in vs_ai]
    try:
        await asyncio.wait_for(asyncio.gather(*(_play_game(g, base, think, seed, result, on_step) for g in hot)),
                               timeout)
    except asyncio.TimeoutError:
        result.timed_out = True
    result.seconds = time.perf_counter() - start
    for t in ai_tasks:
        t.cancel()
    await asyncio.gather(*ai_tasks, return_exceptions=True)
    result.finished = sum(g.over for g in hot + vs_ai)
    states = await asyncio.gather(*(_check_ai_game(base, g, grace) for g in vs_ai))
    for s in states:
        result.ai_check[s] = result.ai_check.get(s, 0) + 1
        if s == "error":
            result.error("a vs-AI game did not answer GET /api/games/{id} at the end")
    return result


async def run_memory(url: str, rss: Callable[[], float], games: int = 1000, turn_limit: int = 2,
                     concurrency: int = 10, think: float = 0.0, timeout: float = 1800.0, seed: int = 0,
                     progress: ProgressFn | None = None, settle: float = 1.0) -> LoadResult:
    """The memory scenario against the server at ``url`` whose resident memory ``rss()`` reads (MB).

    Plays ``games`` two-player hot-seat games with ``turn_limit`` to their end, ``concurrency`` at
    a time, every seat over its own WebSocket. Memory is read ``settle`` seconds after the first
    10 games are all done and again after the last, so neither reading sees games in flight.
    ``progress(done, total)`` counts finished games."""
    if games <= BASELINE_GAMES:
        raise ValueError(f"the memory scenario needs more than {BASELINE_GAMES} games")
    base = url.rstrip("/")
    result = LoadResult("memory", games, 0, None, None, turn_limit, think, seed, base)
    sem = asyncio.Semaphore(concurrency)
    done = 0

    async def one(i: int) -> None:
        nonlocal done
        async with sem:
            g = await _create(base, {"mode": "hotseat", "players": 2, "seed": seed + i,
                                     "turn_limit": turn_limit}, None)
            before = result.errors
            await _play_game(g, base, think, seed, result, lambda _g: None)
            if g.over:
                result.finished += 1
            elif result.errors == before:
                result.error(f"game {g.game_id} stopped before its end")
            done += 1
            _notify(progress, done, games)

    _notify(progress, 0, games)
    start = time.perf_counter()
    try:
        async with asyncio.timeout(timeout):
            await asyncio.gather(*(one(i) for i in range(BASELINE_GAMES)))
            await asyncio.sleep(settle)
            result.rss_mb_after_10 = rss()
            await asyncio.gather(*(one(i) for i in range(BASELINE_GAMES, games)))
            await asyncio.sleep(settle)
            result.rss_mb_after_all = rss()
    except TimeoutError:
        result.timed_out = True
    # the pauses before the readings are not play time
    result.seconds = time.perf_counter() - start - settle * (2 if result.rss_mb_after_all is not None else 1)
    return result


async def post_json(url: str, body: Any, timeout: float = 60.0) -> tuple[int, Any]:
    """One HTTP/1.1 POST with a JSON body over a fresh connection, on the event loop (no thread
    each, so dozens of requests can wait for their answers at once); (status, decoded answer)."""
    parts = urllib.parse.urlsplit(url)
    data = json.dumps(body).encode()
    head = (f"POST {parts.path or '/'} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n").encode()
    async with asyncio.timeout(timeout):
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port or 80)
        try:
            writer.write(head + data)
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
    header, _, payload = raw.partition(b"\r\n\r\n")
    status = int(header.split(b" ", 2)[1])
    try:
        return status, json.loads(payload) if payload else None
    except ValueError:
        return status, {"error": payload.decode("utf-8", "replace")[:200]}


async def _flood_hints(url: str, game_id: str, token: str, rate: int, result: LoadResult,
                       stop: asyncio.Event) -> None:
    """Ask for hints for one seat ``rate`` times a second, without waiting for the answers, until
    ``stop`` is set; every answer is counted by status in ``result.hint_answers``."""
    pending: set[asyncio.Task[None]] = set()

    async def one() -> None:
        try:
            status, _ = await post_json(f"{url}/api/games/{game_id}/hint", {"seat": token})
            key = str(status)
        except (OSError, TimeoutError, ValueError, IndexError):
            key = "no answer"
        result.hint_answers[key] = result.hint_answers.get(key, 0) + 1

    while not stop.is_set():
        t = asyncio.create_task(one())
        pending.add(t)
        t.add_done_callback(pending.discard)
        try:
            await asyncio.wait_for(stop.wait(), 1.0 / rate)
        except TimeoutError:
            pass
    if pending:
        await asyncio.wait(pending, timeout=30)
    for t in pending:
        t.cancel()


async def _ai_phase(url: str, seconds: float, seed: int, ai_level: str, result: LoadResult) -> list[float]:
    """Play vs-AI games (human seat: random, no thinking time) for ``seconds``, one after the other;
    the AI's decision times as its human opponent sees them (state showing the AI to move ->
    state showing its move)."""
    phase = LoadResult("hint-flood", seed=seed, url=url)
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        game = await _create(url, {"mode": "vs_ai", "players": 2, "seed": seed + i,
                                   "seats": ["human", f"ai:{ai_level}"]}, None)
        i += 1
        result.ai_games += 1
        try:
            await asyncio.wait_for(_play_game(game, url, 0.0, seed, phase, lambda _g: None),
                                   max(0.1, end - time.monotonic()))
        except TimeoutError:   # the phase is over: this game is left where it is
            pass
        result.finished += game.over
    result.errors += phase.errors
    result.error_samples += [e for e in phase.error_samples if e not in result.error_samples][:5]
    result.latencies += phase.latencies
    result.by_mode.setdefault("vs_ai", []).extend(phase.latencies)
    return phase.ai_waits


async def run_hint_flood(url: str, seconds: float = 20.0, ai_level: str = "hard", rate: int = 18, seed: int = 0,
                         progress: ProgressFn | None = None, seats: int = 1) -> LoadResult:
    """The hint-flood scenario against the server at ``url``: one vs-AI game after another is
    played for ``seconds`` with nobody asking for hints (the AI's quiet decision times), then for
    ``seconds`` more while the seat to move of a hot-seat game asks for a hint ``rate`` times a
    second (under the per-token limit of 20) without waiting for answers (``seats`` > 1: as many
    hot-seat games, each flooded so, all from this one client). ``flood_ratio``
    compares the AI's median decision time flooded to quiet; ``hint_answers`` counts the hint
    answers by HTTP status. ``progress(done, 2)`` counts phases."""
    base = url.rstrip("/")
    result = LoadResult("hint-flood", 0, 0, ai_level, None, None, 0.0, seed, base)
    result.flood_rate, result.flood_seats = rate, seats
    _notify(progress, 0, 2)
    start = time.perf_counter()
    result.ai_quiet = await _ai_phase(base, seconds, seed, ai_level, result)
    _notify(progress, 1, 2)
    stop = asyncio.Event()
    floods = []
    for i in range(seats):
        flooder = await _create(base, {"mode": "hotseat", "players": 2, "seed": seed + 1000 + i}, None)
        status, st = await http_json("GET", f"{base}/api/games/{flooder.game_id}")
        if status != 200 or not isinstance(st, dict):
            raise LoadError(f"the server did not show the hint game: HTTP {status}")
        token = flooder.tokens[st["to_move"]]   # nobody plays this game: its seat's hints are always wanted
        floods.append(asyncio.create_task(_flood_hints(base, flooder.game_id, token, rate, result, stop)))
    try:
        result.ai_flooded = await _ai_phase(base, seconds, seed + 500, ai_level, result)
    finally:
        stop.set()
        await asyncio.gather(*floods)
    _notify(progress, 2, 2)
    result.seconds = time.perf_counter() - start
    return result
