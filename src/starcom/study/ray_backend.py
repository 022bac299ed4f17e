"""The Ray backend of ``starcom study`` (``pip install 'starcom[ray]'``): pairs of games as Ray
tasks on an existing cluster (``--address``) or on a Ray started on this machine.

A task is one pair; Ray runs a task again if its worker dies, and the runner keeps the first
result of each pair, so a killed worker loses and duplicates no game (docs/cluster.md)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .pairs import Job, PairResult, Setup, play_pair
from .spec import StudyError


class RayBackend:
    """Plays pairs as Ray tasks, at most ``workers`` at a time."""

    def __init__(self, workers: int, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise StudyError("--backend ray needs Ray: pip install 'starcom[ray]'") from None
        self.ray: Any = ray
        self.started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {} if address else {"num_cpus": workers}  # a local Ray: our CPUs only
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False, **options)
            except Exception as exc:  # Ray raises several kinds for an address it cannot reach
                raise StudyError(f"--address {address}: cannot reach a Ray cluster there ({exc})") from None
            self.started = True
        self.workers = workers
        self.task = ray.remote(max_retries=3)(play_pair)

    def run(self, setup: Setup, jobs: Sequence[Job]) -> Iterable[PairResult]:
        ray = self.ray
        ref = ray.put(setup)
        pending = list(jobs)
        running: list[Any] = []
        while pending or running:
            while pending and len(running) < self.workers:
                running.append(self.task.remote(ref, pending.pop(0)))
            done, running = ray.wait(running, num_returns=1)
            yield ray.get(done[0])

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
