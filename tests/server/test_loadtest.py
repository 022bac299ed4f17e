"""`starcom loadtest` against a real server process on a free loopback port."""
from __future__ import annotations

import asyncio
from pathlib import Path

from starcom.server.loadtest import LoadResult, run_loadtest

from .test_persistence import free_port, start_server


def test_loadtest_plays_games_and_measures(tmp_path: Path) -> None:
    port = free_port()
    proc = start_server(tmp_path / "load.db", port)
    try:
        result = asyncio.run(run_loadtest(f"http://127.0.0.1:{port}", games=4, actions=12, think=0.0,
                                          timeout=60, seed=1))
    finally:
        proc.kill()
        proc.wait(10)
    assert not result.timed_out and result.errors == 0
    assert len(result.latencies) == 4 * 12  # every action of every game answered
    assert 0 < result.percentile(0.5) <= result.percentile(0.99)
    assert "p50" in result.report() and "p99" in result.report()


def test_percentiles_nearest_rank() -> None:
    r = LoadResult(games=1, latencies=[i / 1000 for i in range(1, 101)])
    assert round(r.percentile(0.5), 6) == 50.0
    assert round(r.percentile(0.99), 6) == 99.0
