"""AI decisions and hints for the server, computed in a bounded pool of worker processes.

A searching AI is pure Python: in a thread of the server's process it would hold the interpreter
lock and slow every other game's moves (measured: p50 2.8 ms -> 358 ms with a few hard AIs).
Worker processes have interpreters of their own, at the lowest CPU priority the system allows,
so the server's own work always comes first (docs/security.md, "AI work").

Capacity is shared fairly (issue 27):

* The pool has ``workers`` processes for AI seats' moves and ``hint_workers`` more for hints.
  Neither kind borrows the other's: an AI move never waits behind a hint, however many are asked
  for, and hints go on being answered while every AI seat waits its turn.
* Hints: one per seat (``key``) in flight. A request for the position already being worked out
  shares that answer (a hint is deterministic for its step); a request for a newer position
  supersedes a waiting older one (its caller hears 409), and a hint whose position is gone when
  a process frees up is dropped without being computed. At most :data:`HINT_QUEUE` hints per hint
  process wait (503 beyond) and one client has at most :data:`HINTS_PER_CLIENT` in flight (429).
* AI moves are never refused: each game has at most one decision pending (its session lock), so
  their queue is bounded by the games in memory.
* A worker process that dies breaks a ``ProcessPoolExecutor`` for good; the pool then starts a
  fresh one and runs the lost tasks again (at most :data:`RETRIES` times each).
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

from .errors import ApiError

log = logging.getLogger("starcom.server")

MAX_WORKERS = 8          # AI processes chosen automatically at most
HINT_QUEUE = 4           # hints that may wait per hint process; beyond: 503
HINTS_PER_CLIENT = 2     # hints one client (address) may have waiting or running; beyond: 429
RETRIES = 2              # times a task lost with a dead worker process is run again
AI, HINT = 0, 1          # job kinds, in the order a free process serves them


def default_workers(cores: int | None = None) -> int:
    """AI processes for AI seats' moves: one per core but one, which is left to the server (at
    least 1, at most :data:`MAX_WORKERS`). The workers also run at the lowest priority; leaving
    a core as well keeps the server's answers quick when the AI is saturated (docs/security.md)."""
    n = cores if cores is not None else (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                                         else os.cpu_count() or 1)
    return max(1, min(MAX_WORKERS, n - 1))


def lower_priority() -> list[str]:
    """Put the calling process at the lowest CPU priority it may take: ``nice`` 19 and, on Linux,
    the ``SCHED_IDLE`` policy (it runs only when nothing else wants the core). Returns what was
    applied, e.g. ``["nice 19", "SCHED_IDLE"]``; a system that refuses either is still correct."""
    done = []
    try:
        os.nice(19 - os.nice(0))
        done.append("nice 19")
    except OSError:
        pass
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None and hasattr(os, "sched_setscheduler"):
        try:
            os.sched_setscheduler(0, idle, os.sched_param(0))
            done.append("SCHED_IDLE")
        except OSError:
            pass
    return done


def _worker_started(server_pid: int) -> None:
    # AI work yields the CPU to the server process whenever both want it.
    lower_priority()
    # A server killed with SIGKILL cannot shut its pool down: its workers notice it is gone
    # (they are handed to another parent) and leave, instead of idling for ever.
    threading.Thread(target=_leave_with, args=(server_pid,), daemon=True, name="starcom-ai-watch").start()


def _leave_with(server_pid: int) -> None:
    while os.getppid() == server_pid:
        time.sleep(1.0)
    os._exit(0)


def think(kind: str, name: str, game: Any, seed: str) -> Any:
    """One decision of a new ``name`` agent of the game ``kind`` (:mod:`starcom.games`) on
    ``game`` (a private copy). An agent that fails is logged and answered with the first legal
    action, so a broken AI never stalls a game."""
    from .adapter import adapter_for
    try:
        return adapter_for(kind).make_agent(name).choose(game, random.Random(seed))
    except Exception:
        log.exception("AI %s failed to decide; it plays its first legal action", name)
        return game.legal_actions()[0]


def worker_pid() -> int:
    """The process ID of the worker that runs this (tests use it to kill a worker)."""
    return os.getpid()


def _future() -> asyncio.Future[Any]:
    fut = asyncio.get_running_loop().create_future()
    # A caller that went away leaves nobody to read an error: mark it read, so asyncio does not
    # log "exception was never retrieved" for an ordinary refusal.
    fut.add_done_callback(lambda f: f.cancelled() or f.exception())
    return fut


@dataclass(eq=False)
class _Job:
    """One task for a worker and the callers waiting for its answer."""

    kind: int
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    started: Callable[[], None] | None = None
    key: Hashable = None             # hints: the seat asking
    tag: Hashable = None             # hints: the position (equal tags share one answer)
    client: Hashable = None          # hints: who asked (for HINTS_PER_CLIENT)
    wanted: Callable[[], bool] | None = None  # hints: False once the position is gone
    running: bool = field(default=False)


class AiPool:
    """Runs :func:`think` and hints for the server: in ``workers`` + ``hint_workers`` processes
    (or threads, where a test patches agents in this process), AI moves first (module docstring)."""

    def __init__(self, workers: int | None = None, processes: bool = True, hint_workers: int = 1) -> None:
        self.workers = workers or default_workers()
        self.hint_workers = max(1, hint_workers)
        self.processes = processes
        self.respawns = 0                       # executors started again after a worker died
        self._executor: Executor | None = None
        self._waiting: dict[int, deque[_Job]] = {AI: deque(), HINT: deque()}
        self._running: dict[int, int] = {AI: 0, HINT: 0}
        self._hints: dict[Hashable, list[_Job]] = {}   # seat -> its hint jobs (one running, one waiting at most)
        self._tasks: dict[asyncio.Task[None], _Job] = {}   # jobs in workers (kept: the loop holds tasks weakly)

    @property
    def size(self) -> int:
        """Processes in the pool (tasks that can run at once)."""
        return self.workers + self.hint_workers

    def _new_executor(self) -> Executor:
        if self.processes:
            return ProcessPoolExecutor(self.size, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=_worker_started, initargs=(os.getpid(),))
        return ThreadPoolExecutor(self.size, thread_name_prefix="starcom-ai")

    def _ready(self) -> Executor:
        # Made on first use, and only when a game has an AI seat or a hint is asked for (no idle
        # processes for servers that never need them).
        if self._executor is None:
            self._executor = self._new_executor()
        return self._executor

    # ------------------------------------------------------------------ dispatching
    def _next(self) -> _Job | None:
        """The job a free process takes now, or None: a waiting AI move while fewer than
        ``workers`` run, else the oldest waiting hint (never two for one seat at once) while
        fewer than ``hint_workers`` run."""
        ai, hints = self._waiting[AI], self._waiting[HINT]
        if ai and self._running[AI] < self.workers:
            return ai.popleft()
        if self._running[HINT] < self.hint_workers:
            for job in hints:
                if not any(j.running for j in self._hints.get(job.key, ())):
                    hints.remove(job)
                    return job
        return None

    def _pump(self) -> None:
        """Hand free processes to waiting jobs; drops hints nobody wants any more."""
        while (job := self._next()) is not None:
            if job.future.done():   # every caller gave up (e.g. a superseded hint)
                self._unlist(job)
                continue
            if job.wanted is not None and not job.wanted():
                self._unlist(job)
                job.future.set_exception(ApiError(409, "the game moved on before the AI got to your hint; "
                                                       "ask again"))
                continue
            job.running = True
            self._running[job.kind] += 1
            task = asyncio.get_running_loop().create_task(self._execute(job))
            self._tasks[task] = job
            task.add_done_callback(lambda t: self._tasks.pop(t, None))

    async def _execute(self, job: _Job) -> None:
        try:
            if job.started is not None:
                job.started()
            result = await self._submit(job.fn, *job.args)
        except asyncio.CancelledError:   # the pool is shutting down
            job.future.cancel()
            raise
        except Exception as exc:  # handed to the callers, whatever it is
            if not job.future.done():
                job.future.set_exception(exc)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            job.running = False
            self._running[job.kind] -= 1
            self._unlist(job)
            self._pump()

    async def _submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker; a task lost with a dead worker process runs again in a new
        pool, at most :data:`RETRIES` times."""
        for attempt in range(RETRIES + 1):
            executor = self._ready()
            try:
                return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
            except BrokenProcessPool:
                if attempt == RETRIES:
                    raise
                if self._executor is executor:   # the first task to notice starts the new pool
                    log.warning("an AI worker process died; starting the AI pool again (%s)",
                                getattr(fn, "__name__", fn))
                    executor.shutdown(wait=False, cancel_futures=True)
                    self._executor = None
                    self.respawns += 1
        raise AssertionError("unreachable")

    def _unlist(self, job: _Job) -> None:
        jobs = self._hints.get(job.key)
        if job.kind == HINT and jobs is not None and job in jobs:
            jobs.remove(job)
            if not jobs:
                del self._hints[job.key]

    async def _wait(self, job: _Job) -> Any:
        # shield: a caller that goes away (a closed connection) must not cancel an answer other
        # callers share, nor a task already in a worker
        return await asyncio.shield(job.future)

    # ------------------------------------------------------------------ the pool's services
    def busy(self) -> bool:
        """True when a new AI decision would have to wait for a free worker."""
        return bool(self._waiting[AI]) or self._running[AI] >= self.workers

    def pids(self) -> list[int]:
        """Process IDs of the pool's live worker processes (none before first use or with threads)."""
        procs = getattr(self._executor, "_processes", None) or {}
        return sorted(p.pid for p in procs.values() if p.pid is not None and p.is_alive())

    def queued(self) -> dict[str, int]:
        """Tasks waiting and running, by kind (``ai``, ``hint``)."""
        return {"ai_waiting": len(self._waiting[AI]), "ai_running": self._running[AI],
                "hints_waiting": len(self._waiting[HINT]), "hints_running": self._running[HINT]}

    async def decide(self, kind: str, name: str, game: Any, seed: str, started: Callable[[], None]) -> Any:
        """The action agent ``name`` of the game ``kind`` picks on ``game`` (copied by the
        caller); ``started()`` is called when a worker takes the decision up. AI moves are never
        refused; they go before hints."""
        return await self.run(think, kind, name, game, seed, started=started)

    async def run(self, fn: Callable[..., Any], *args: Any, started: Callable[[], None] | None = None) -> Any:
        """``fn(*args)`` in a worker, in turn with the AI moves (``fn`` must be picklable: a
        module-level function)."""
        job = _Job(AI, fn, args, _future(), started)
        self._waiting[AI].append(job)
        self._pump()
        return await self._wait(job)

    async def hint(self, key: Hashable, tag: Hashable, fn: Callable[..., Any], *args: Any,
                   wanted: Callable[[], bool] | None = None, client: Hashable = None) -> Any:
        """``fn(*args)`` as the hint of seat ``key`` for the position ``tag``, after the AI moves.

        A hint of ``key`` for the same ``tag`` already asked for is shared, not computed again.
        One for another ``tag`` that still waits is superseded (its callers get 409); one that
        runs finishes first (one hint per seat at a time). ``wanted()`` is asked when a process
        frees up: False drops the hint uncomputed (409). 503 when :data:`HINT_QUEUE` hints per
        hint process wait already; 429 when ``client`` has :data:`HINTS_PER_CLIENT` in flight."""
        mine = self._hints.get(key, [])
        same = next((j for j in mine if j.tag == tag and not j.future.done()), None)
        if same is not None:
            return await self._wait(same)
        older = next((j for j in mine if not j.running), None)
        if client is not None and older is None:
            flying = sum(1 for jobs in self._hints.values() for j in jobs if j.client == client)
            if flying >= HINTS_PER_CLIENT:
                raise ApiError(429, f"too many hints at once from one client (at most {HINTS_PER_CLIENT} "
                                    "waiting or being worked out); wait for an answer")
        if older is not None:   # superseded before a process took it up: never computed
            self._waiting[HINT].remove(older)
            self._unlist(older)
            if not older.future.done():
                older.future.set_exception(ApiError(409, "superseded by a newer hint for this seat"))
        elif len(self._waiting[HINT]) >= HINT_QUEUE * self.hint_workers:
            raise ApiError(503, "the AI is busy with other hints; try again in a moment")
        job = _Job(HINT, fn, args, _future(), key=key, tag=tag,
                   client=client, wanted=wanted)
        self._hints.setdefault(key, []).append(job)
        self._waiting[HINT].append(job)
        self._pump()
        return await self._wait(job)

    def shutdown(self) -> None:
        """Stop taking work; tasks being computed are abandoned (their processes end after) and
        callers still waiting get an error."""
        jobs = [*self._waiting[AI], *self._waiting[HINT], *self._tasks.values()]
        for kind in (AI, HINT):
            self._waiting[kind].clear()
        for task in list(self._tasks):
            task.cancel()
        for job in jobs:
            if not job.future.done():
                job.future.set_exception(ApiError(503, "the server is stopping; try again in a moment"))
        self._hints.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
