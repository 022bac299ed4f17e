"""The Ray backend: the same results as one local worker on a 3-node cluster started here (for
the study, self-play and the arena), and no game lost or played twice when a worker is killed
mid-run. Skipped where Ray is not installed (pip install 'starcom[ray]')."""
from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'starcom[ray]' to run these tests")
from ray.cluster_utils import Cluster  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from starcom.cli.main import app  # noqa: E402
from starcom.sim import arena as A  # noqa: E402
from starcom.study import runner as R  # noqa: E402
from starcom.study.report import results  # noqa: E402
from starcom.study.spec import StudySpec  # noqa: E402

SETTINGS = dict(only=("Barrage", "Corvette", "Refinery"), agents=("random",), max_games=32, seed=11)


@pytest.fixture(scope="module")
def cluster():
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    c.add_node(num_cpus=1)
    c.add_node(num_cpus=1)
    ray.init(address=c.address, include_dashboard=False, log_to_driver=False)
    yield c
    ray.shutdown()
    c.shutdown()


def _without_run(spec: StudySpec) -> dict:
    data = results(R.run_study(spec))
    data.pop("run")
    return data


def _task_pids() -> list[int]:
    """Processes running a pair as a Ray task (Ray names them after the function)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"ray::play_pair" in cmd:
                out.append(int(entry))
    return out


def test_a_three_node_cluster_gives_the_local_results(cluster, tmp_path: Path) -> None:
    local = _without_run(StudySpec.checked(**SETTINGS, out=str(tmp_path / "local")))
    on_ray = _without_run(StudySpec.checked(**SETTINGS, out=str(tmp_path / "ray"), backend="ray", workers=3,
                                            address=cluster.address))
    assert on_ray == local
    assert len(ray.nodes()) == 3


def test_a_killed_worker_loses_and_repeats_no_game(cluster, tmp_path: Path) -> None:
    local = _without_run(StudySpec.checked(**SETTINGS, out=str(tmp_path / "local")))
    spec = StudySpec.checked(**SETTINGS, out=str(tmp_path / "ray"), backend="ray", workers=3, address=cluster.address)
    killed: list[int] = []

    def kill_one() -> None:
        log = tmp_path / "ray" / R.LOG
        end = time.monotonic() + 60
        while time.monotonic() < end and not killed:
            if log.exists() and len(log.read_text().splitlines()) >= 3:
                for pid in _task_pids():
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    break
            time.sleep(0.005)

    t = threading.Thread(target=kill_one)
    t.start()
    try:
        data = _without_run(spec)
    finally:
        t.join()
    assert killed, "no Ray task was running to be killed"
    assert data == local
    lines = [json.loads(x) for x in (tmp_path / "ray" / R.LOG).read_text().splitlines()]
    keys = [(x["card"], x["pair"]) for x in lines]
    assert len(keys) == len(set(keys)) == sum(c["pairs"] for c in data["cards"])


def test_selfplay_on_the_cluster_gives_the_local_totals(cluster) -> None:
    args = ["selfplay", "--games", "6", "--agents", "greedy,random", "--turn-limit", "14", "--seed", "2", "--json"]
    totals = []
    for extra in ([], ["--backend", "ray", "--address", cluster.address, "--workers", "3"]):
        res = CliRunner().invoke(app, [*args, *extra])
        assert res.exit_code == 0, res.output
        data = json.loads(res.stdout.strip().splitlines()[-1])
        data.pop("steps_per_second")
        totals.append(data)
    assert totals[0] == totals[1] and totals[0]["games"] == 6


def test_the_arena_on_the_cluster_gives_the_local_results(cluster) -> None:
    spec = A.ArenaSpec(("random", "greedy", "heuristic"), games=2, seed=5, turn_limit=10)
    local = A.run_arena(spec)
    on_ray = A.run_arena(spec, workers=3, backend="ray", address=cluster.address)
    here, there = local.summary(), on_ray.summary()
    assert (here["config"].pop("workers"), there["config"].pop("workers")) == (1, 3)
    assert there == here and on_ray.records == local.records
