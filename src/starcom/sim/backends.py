"""Where independent work runs: in this process, in processes of this machine, or as Ray tasks.

``backend.run(fn, common, items)`` calls ``fn(common, item)`` for every item and yields the
results as they finish, in any order; a caller that needs an order keys each result by its item
(a game's index). ``fn`` must be a module-level function, and ``common``, the items and the
results picklable. :func:`make_backend` picks the backend from the command-line options
``--backend``, ``--workers`` and ``--address`` (docs/cluster.md).

Ray is an optional extra (``pip install 'starcom[ray]'``), imported only by the Ray backend.
"""
from __future__ import annotations

import importlib.util
import itertools
import multiprocessing
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from types import TracebackType
from typing import Any, Self, TypeVar

BACKENDS = ("local", "ray")
RAY_RETRIES = 3  # runs of a Ray task whose worker died, after the first
INSTALL_RAY = "pip install 'starcom[ray]'"

C = TypeVar("C")
T = TypeVar("T")
R = TypeVar("R")


class BackendError(ValueError):
    """A backend that cannot be had as asked. ``option`` is the option at fault (``--backend``,
    ``--workers`` or ``--address``), ``problem`` what is wrong; the message is both."""

    def __init__(self, option: str, problem: str) -> None:
        super().__init__(f"{option} {problem}")
        self.option = option
        self.problem = problem


class Backend(ABC):
    """Runs ``fn(common, item)`` for many items, at most ``workers`` at once. Close it (or use it
    as a context manager) to stop its workers; ``run`` may be called any number of times before."""

    workers: int = 1

    @abstractmethod
    def run(self, fn: Callable[[C, T], R], common: C, items: Iterable[T]) -> Iterator[R]:
        """``fn(common, item)`` for every item of ``items``, yielded as each finishes. Closed
        early, the generator cancels the calls not yet started."""

    def close(self) -> None:
        """Stop the workers; calls not yet started are dropped."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class InlineBackend(Backend):
    """Everything in this process, one call after another, in item order."""

    def run(self, fn: Callable[[C, T], R], common: C, items: Iterable[T]) -> Iterator[R]:
        for item in items:
            yield fn(common, item)


class ProcessBackend(Backend):
    """``workers`` processes of this machine."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        # Spawned, not forked: the caller may be running threads (a progress bar, Ray's).
        self._pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))

    def run(self, fn: Callable[[C, T], R], common: C, items: Iterable[T]) -> Iterator[R]:
        futures = [self._pool.submit(fn, common, item) for item in items]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()

    def close(self) -> None:
        self._pool.shutdown(cancel_futures=True)


class RayBackend(Backend):
    """Ray tasks, at most ``workers`` at a time, on the cluster at ``address`` or, without one, on
    a Ray started here with ``workers`` CPUs (and stopped by :meth:`close`). A Ray already
    initialised by the caller is used as it is. A task whose worker dies is run again, up to
    :data:`RAY_RETRIES` times, and its result is yielded once: no item is lost or repeated."""

    def __init__(self, workers: int, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError("--backend", f"ray needs Ray: {INSTALL_RAY}") from None
        self._ray: Any = ray
        self._started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {} if address else {"num_cpus": workers}  # a local Ray: our CPUs only
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False, **options)
            except Exception as exc:  # Ray raises several kinds for an address it cannot reach
                if address:
                    raise BackendError("--address", f"{address}: cannot reach a Ray cluster there ({exc})") from None
                raise BackendError("--backend", f"ray: cannot start Ray on this machine ({exc})") from None
            self._started = True
        self.workers = workers
        self._tasks: dict[Callable[..., Any], Any] = {}

    def run(self, fn: Callable[[C, T], R], common: C, items: Iterable[T]) -> Iterator[R]:
        ray = self._ray
        if fn not in self._tasks:
            self._tasks[fn] = ray.remote(max_retries=RAY_RETRIES)(fn)  # the task is named after fn
        task = self._tasks[fn]
        shared = ray.put(common)  # sent to the cluster once, not with every item
        todo = iter(items)
        running: list[Any] = []
        try:
            while True:
                running += [task.remote(shared, item) for item in itertools.islice(todo, self.workers - len(running))]
                if not running:
                    return
                done, running = ray.wait(running, num_returns=1)
                yield ray.get(done[0])
        finally:
            if running and ray.is_initialized():  # not after close() stopped the Ray it started
                for ref in running:
                    ray.cancel(ref)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False


def check_backend(name: str, workers: int, address: str | None) -> None:
    """BackendError naming the option unless the backend can be had: a known ``name``, at least
    one worker, an address only for Ray, Ray installed, and something answering at the address.
    Starts nothing."""
    if name not in BACKENDS:
        raise BackendError("--backend", f"{name!r} is not a backend; use {' or '.join(BACKENDS)}")
    if workers < 1:
        raise BackendError("--workers", f"must be at least 1, not {workers}")
    if address is not None and name != "ray":
        raise BackendError("--address", "is for --backend ray")
    if name == "ray" and importlib.util.find_spec("ray") is None:
        raise BackendError("--backend", f"ray needs Ray: {INSTALL_RAY}")
    if address is not None and address != "auto":
        _check_reachable(address)


def _check_reachable(address: str) -> None:
    """BackendError unless something answers at ``HOST:PORT`` (or ``ray://HOST:PORT``): Ray
    itself would keep retrying for minutes."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        raise BackendError("--address", f"{address!r}: write it as HOST:PORT (e.g. 10.0.0.5:6379), "
                                        "ray://HOST:PORT or auto")
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
    except OSError as exc:
        raise BackendError("--address", f"{address}: nothing answers there ({exc.strerror or exc}); "
                                        "is the cluster's head started (ray start --head)?") from None


def make_backend(name: str = "local", workers: int = 1, address: str | None = None) -> Backend:
    """The backend of the options ``--backend name --workers workers --address address``: for
    ``local``, this process (one worker) or ``workers`` processes; for ``ray``, Ray tasks.
    BackendError (see :func:`check_backend`) before anything is started."""
    check_backend(name, workers, address)
    if name == "ray":
        return RayBackend(workers, address)
    return InlineBackend() if workers == 1 else ProcessBackend(workers)


__all__ = ["BACKENDS", "Backend", "BackendError", "InlineBackend", "ProcessBackend", "RayBackend",
           "check_backend", "make_backend"]
