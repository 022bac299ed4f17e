"""AI decisions for the server, computed in a bounded pool of worker processes.

A searching AI is pure Python: in a thread of the server's process it would hold the interpreter
lock and slow every other game's moves (measured: p50 2.8 ms -> 358 ms with a few hard AIs).
Worker processes have interpreters of their own. At most ``workers`` decisions run at once;
the rest wait their turn in order ("queued"), so a burst of AI games never starves the server.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Callable

log = logging.getLogger("starcom.server")


def default_workers() -> int:
    """One AI process per core (at most 8). They run at a lower CPU priority, so the server's
    event loop still gets a core the moment it needs one (measured: human p99 6.5 ms with two
    workers busy on two cores, against 6.0 ms with one)."""
    return max(1, min(8, os.cpu_count() or 1))


def _worker_started(server_pid: int) -> None:
    # AI work yields the CPU to the server process whenever both want it.
    try:
        os.nice(10)
    except OSError:  # not permitted here: still correct, just less polite
        pass
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


class AiPool:
    """Runs :func:`think` for the server: in ``workers`` processes (or threads, where a test
    patches agents in this process), at most ``workers`` at once, the rest queued in order."""

    def __init__(self, workers: int | None = None, processes: bool = True) -> None:
        self.workers = workers or default_workers()
        self.processes = processes
        self._executor: Executor | None = None
        self._slots: asyncio.Semaphore | None = None

    def _ready(self) -> tuple[Executor, asyncio.Semaphore]:
        # Made on first use, inside the running loop (the semaphore belongs to it) and only
        # when a game has an AI seat (no idle processes for servers that never need them).
        if self._executor is None:
            if self.processes:
                self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                     initializer=_worker_started, initargs=(os.getpid(),))
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="starcom-ai")
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        return self._executor, self._slots

    def busy(self) -> bool:
        """True when a new decision would have to wait for a free worker."""
        return self._slots is not None and self._slots.locked()

    async def decide(self, kind: str, name: str, game: Any, seed: str, started: Callable[[], None]) -> Any:
        """The action agent ``name`` of the game ``kind`` picks on ``game`` (copied by the
        caller); ``started()`` is called when a worker takes the decision up."""
        executor, slots = self._ready()
        async with slots:
            started()
            return await asyncio.get_running_loop().run_in_executor(executor, think, kind, name, game, seed)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker, in turn with the decisions (``fn`` must be picklable: a
        module-level function)."""
        executor, slots = self._ready()
        async with slots:
            return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)

    def shutdown(self) -> None:
        """Stop taking decisions; ones being computed are abandoned (their processes end after)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
