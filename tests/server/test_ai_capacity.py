"""Fair AI capacity (issue 27): AI seats' moves never wait behind hints, one hint per seat in
flight (shared for the same position, superseded or dropped when stale), a bounded hint queue
(503) and a per-client share (429), a pool that survives a killed worker process, and workers
that yield the CPU to the server. No test here asserts a wall-clock time."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any, Callable

import pytest

import starcom
from starcom.sc.engine.game import Game
from starcom.sc.engine.state import Config
from starcom.server import ai_pool
from starcom.server.adapter import adapter_for
from starcom.server.ai_pool import HINT_QUEUE, HINTS_PER_CLIENT, AiPool, default_workers, worker_pid
from starcom.server.errors import ApiError

from .conftest import create, state, tokens, wait_for

STARCOM_ADAPTER = adapter_for("starcom")  # the server's one adapter of Star Commander

GATES: dict[str, threading.Event] = {}
CALLS: list[str] = []


def gated(name: str) -> str:
    """A task that runs until the test opens the gate ``name`` (thread pools only)."""
    CALLS.append(name)
    GATES.setdefault(name, threading.Event()).wait(20)
    return name


@pytest.fixture(autouse=True)
def _gates() -> Any:
    GATES.clear()
    CALLS.clear()
    yield
    for g in GATES.values():  # never leave a worker thread waiting
        g.set()


def opened(name: str) -> None:
    GATES.setdefault(name, threading.Event()).set()


async def until(pred: Callable[[], bool], seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "the pool did not get there in time"
        await asyncio.sleep(0.01)


def passive(st: dict[str, Any]) -> dict[str, Any]:
    """The seat's most passive legal action (end the turn, pass, ...)."""
    kinds = {e["action"]["type"]: e["action"] for e in st["legal"]}
    return next((kinds[k] for k in ("end", "pass", "done", "decline") if k in kinds), st["legal"][0]["action"])


def refusal(task: asyncio.Task[Any]) -> ApiError:
    exc = task.exception()
    assert isinstance(exc, ApiError), exc
    return exc


# ---------------------------------------------------------------------- lanes and priority
def test_ai_moves_never_wait_behind_hints() -> None:
    async def main() -> None:
        pool = AiPool(workers=1, processes=False, hint_workers=1)
        hint = asyncio.create_task(pool.hint("seat", 1, gated, "hint"))
        await until(lambda: "hint" in CALLS)
        waiting = asyncio.create_task(pool.hint("other seat", 1, gated, "hint2"))
        # the hint process is taken: an AI move still runs at once, on its own process
        assert not pool.busy()
        opened("ai")
        assert await pool.run(gated, "ai") == "ai"
        assert "hint2" not in CALLS and pool.queued()["hints_waiting"] == 1
        opened("hint")
        opened("hint2")
        assert await hint == "hint" and await waiting == "hint2"
        pool.shutdown()
    asyncio.run(main())


def test_hints_are_answered_while_every_ai_worker_is_busy() -> None:
    async def main() -> None:
        pool = AiPool(workers=1, processes=False, hint_workers=1)
        ai = asyncio.create_task(pool.run(gated, "ai"))
        await until(lambda: "ai" in CALLS)
        queued_ai = asyncio.create_task(pool.run(gated, "ai2"))
        await asyncio.sleep(0)
        assert pool.busy() and pool.queued()["ai_waiting"] == 1
        opened("hint")
        assert await pool.hint("seat", 1, gated, "hint") == "hint"
        assert "ai2" not in CALLS  # the AI move waits for the AI worker, not for the hint
        opened("ai")
        opened("ai2")
        assert await ai == "ai" and await queued_ai == "ai2"
        assert not pool.busy()
        pool.shutdown()
    asyncio.run(main())


# ---------------------------------------------------------------------- one hint per seat
def test_the_same_position_shares_one_hint() -> None:
    async def main() -> None:
        pool = AiPool(workers=1, processes=False, hint_workers=1)
        asks = [asyncio.create_task(pool.hint("seat", "step 3", gated, "h")) for _ in range(10)]
        await until(lambda: "h" in CALLS)
        opened("h")
        assert await asyncio.gather(*asks) == ["h"] * 10
        assert CALLS == ["h"]  # computed once for ten requests
        pool.shutdown()
    asyncio.run(main())


def test_a_newer_hint_supersedes_a_waiting_one_and_waits_for_the_running_one() -> None:
    async def main() -> None:
        pool = AiPool(workers=1, processes=False, hint_workers=2)
        first = asyncio.create_task(pool.hint("seat", 1, gated, "first"))
        await until(lambda: "first" in CALLS)
        second = asyncio.create_task(pool.hint("seat", 2, gated, "second"))
        await asyncio.sleep(0.05)
        # a second hint process is free, but one seat never has two hints worked out at once
        assert CALLS == ["first"] and pool.queued() == {"ai_waiting": 0, "ai_running": 0, "hints_waiting": 1,
                                                         "hints_running": 1}
        third = asyncio.create_task(pool.hint("seat", 3, gated, "third"))
        await asyncio.wait([second])
        err = refusal(second)
        assert err.status == 409 and "superseded" in err.error
        opened("first")
        opened("third")
        assert await first == "first" and await third == "third"
        assert CALLS == ["first", "third"]  # the superseded hint was never computed
        pool.shutdown()
    asyncio.run(main())


def test_a_hint_whose_position_is_gone_is_dropped_uncomputed() -> None:
    async def main() -> None:
        pool = AiPool(workers=1, processes=False, hint_workers=1)
        busy = asyncio.create_task(pool.hint("a", 1, gated, "busy"))
        await until(lambda: "busy" in CALLS)
        moved_on = False
        stale = asyncio.create_task(pool.hint("b", 1, gated, "stale", wanted=lambda: not moved_on))
        await asyncio.sleep(0.05)
        moved_on = True  # b's game moved on while its hint waited
        opened("busy")
        await busy
        await asyncio.wait([stale])
        err = refusal(stale)
        assert err.status == 409 and "moved on" in err.error
        assert "stale" not in CALLS
        pool.shutdown()
    asyncio.run(main())


# ---------------------------------------------------------------------- bounds
def test_a_full_hint_queue_answers_503() -> None:
    async def main() -> None:
        pool = AiPool(workers=1, processes=False, hint_workers=1)
        running = asyncio.create_task(pool.hint("seat 0", 1, gated, "h0"))
        await until(lambda: "h0" in CALLS)
        waiting = [asyncio.create_task(pool.hint(f"seat {i}", 1, gated, f"h{i}")) for i in range(1, HINT_QUEUE + 1)]
        await asyncio.sleep(0.05)
        assert pool.queued()["hints_waiting"] == HINT_QUEUE
        with pytest.raises(ApiError) as exc:
            await pool.hint("one too many", 1, gated, "never")
        assert exc.value.status == 503 and "busy" in exc.value.error
        # a seat that has a hint waiting may still replace it (that adds nothing to the queue)
        newer = asyncio.create_task(pool.hint("seat 1", 2, gated, "h1b"))
        await asyncio.wait([waiting[0]])
        assert refusal(waiting[0]).status == 409
        for name in ["h0", *(f"h{i}" for i in range(2, HINT_QUEUE + 1)), "h1b"]:
            opened(name)
        await asyncio.gather(running, newer, *waiting[1:])
        assert "never" not in CALLS and "h1" not in CALLS
        pool.shutdown()
    asyncio.run(main())


def test_one_client_has_a_bounded_share_of_hints() -> None:
    async def main() -> None:
        pool = AiPool(workers=1, processes=False, hint_workers=1)
        mine = [asyncio.create_task(pool.hint(f"seat {i}", 1, gated, f"m{i}", client="10.0.0.1"))
                for i in range(HINTS_PER_CLIENT)]
        await asyncio.sleep(0.05)
        with pytest.raises(ApiError) as exc:
            await pool.hint("seat x", 1, gated, "never", client="10.0.0.1")
        assert exc.value.status == 429
        other = asyncio.create_task(pool.hint("seat y", 1, gated, "o", client="10.0.0.2"))  # others still may
        await asyncio.sleep(0.05)
        assert not other.done()
        for name in [*(f"m{i}" for i in range(HINTS_PER_CLIENT)), "o"]:
            opened(name)
        await asyncio.gather(*mine, other)
        assert "never" not in CALLS and "o" in CALLS
        pool.shutdown()
    asyncio.run(main())


# ---------------------------------------------------------------------- through the server
def test_server_hints_do_not_hold_up_ai_seats(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint being worked out (held open by the test) does not stop another game's AI seat."""
    def slow_hint(game: Any, seed: str) -> tuple[Any, float]:
        CALLS.append("hint")
        GATES.setdefault("hint", threading.Event()).wait(20)
        return game.legal_actions()[0], 0.5
    monkeypatch.setattr(STARCOM_ADAPTER, "hint", slow_hint)
    c = make_client(ai_workers=1, rate_limit=10 ** 6)
    hinted = create(c, mode="hotseat", seed=5)
    mover = tokens(hinted)[state(c, hinted["game_id"])["to_move"]]
    answers: list[int] = []
    asker = threading.Thread(target=lambda: answers.append(c.post(
        f"/api/games/{hinted['game_id']}/hint", json={"seat": mover}).status_code))
    asker.start()
    wait_for(lambda: "hint" in CALLS)
    seed = next(n for n in range(50) if Game.from_config(Config(2, 3, "standard", n, 60, 200)).to_move == 0)
    ai_game = create(c, seed=seed, seats=["ai:random", "human"])
    # the AI seat moves first and plays until the human must decide, the hint still unanswered
    wait_for(lambda: state(c, ai_game["game_id"])["to_move"] == 1 or state(c, ai_game["game_id"])["over"])
    assert state(c, ai_game["game_id"])["step"] > 0 and not answers
    opened("hint")
    asker.join(20)
    assert answers == [200]


def test_server_hint_for_a_moved_on_game_is_refused_with_409(make_client: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def slow_hint(game: Any, seed: str) -> tuple[Any, float]:
        CALLS.append("hint")
        GATES.setdefault("hint", threading.Event()).wait(20)
        return game.legal_actions()[0], 0.5
    monkeypatch.setattr(STARCOM_ADAPTER, "hint", slow_hint)
    c = make_client(rate_limit=10 ** 6)
    g = create(c, mode="hotseat", seed=5)
    gid = g["game_id"]
    tok = tokens(g)[state(c, gid)["to_move"]]
    answers: list[Any] = []
    asker = threading.Thread(target=lambda: answers.append(c.post(f"/api/games/{gid}/hint", json={"seat": tok})))
    asker.start()
    wait_for(lambda: "hint" in CALLS)
    st = state(c, gid, tok)
    action = passive(st)
    assert c.post(f"/api/games/{gid}/actions", json={"seat": tok, "action": action}).status_code == 200
    opened("hint")
    asker.join(20)
    assert answers[0].status_code == 409 and "moved on" in answers[0].json()["error"]


def test_a_hint_the_ai_cannot_work_out_is_503_not_500(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(game: Any, seed: str) -> tuple[Any, float]:
        raise RuntimeError("the search failed")
    monkeypatch.setattr(STARCOM_ADAPTER, "hint", broken)
    c = make_client()
    g = create(c, mode="hotseat", seed=5)
    r = c.post(f"/api/games/{g['game_id']}/hint", json={"seat": tokens(g)[state(c, g["game_id"])["to_move"]]})
    assert r.status_code == 503 and "try again" in r.json()["error"]


# ---------------------------------------------------------------------- a dead worker process
def test_a_killed_worker_is_replaced_and_its_task_run_again() -> None:
    async def main() -> None:
        pool = AiPool(workers=1, processes=True, hint_workers=1)
        try:
            first = await pool.run(worker_pid)
            assert first in pool.pids()
            # a task in a worker when the worker dies: the pool starts again and runs it again
            sleeping = asyncio.create_task(pool.run(time.sleep, 1.0))
            await asyncio.sleep(0.3)
            for pid in pool.pids():
                os.kill(pid, signal.SIGKILL)
            assert await sleeping is None
            assert pool.respawns >= 1
            after = await pool.run(worker_pid)
            assert after != first and after in pool.pids()
            # hints and AI moves go on as before
            game = Game.from_config(Config(2, 3, "standard", 1, None, 200))
            act = await pool.decide(STARCOM_ADAPTER.name, "random", game.clone(), "1:0", lambda: None)
            assert act in game.legal_actions()
            action, _chance = await pool.hint("seat", 0, STARCOM_ADAPTER.hint, game.clone(), "1:0:hint")
            assert action in game.legal_actions()
        finally:
            pool.shutdown()
    asyncio.run(main())


def test_server_hints_and_ai_seats_survive_a_killed_worker(make_client: Any, caplog: pytest.LogCaptureFixture) -> None:
    c = make_client(ai_processes=True, ai_workers=1, rate_limit=10 ** 6)
    seed = next(n for n in range(50) if Game.from_config(Config(2, 3, "standard", n, 60, 200)).to_move == 0)
    g = create(c, seed=seed, seats=["ai:random", "human"])
    gid, tok = g["game_id"], tokens(g)[1]
    wait_for(lambda: state(c, gid)["to_move"] == 1, 60)  # the AI seat moved in a worker process
    assert c.post(f"/api/games/{gid}/hint", json={"seat": tok}).status_code == 200
    pool: AiPool = c.app.state.manager.pool
    for pid in pool.pids():
        os.kill(pid, signal.SIGKILL)
    r = c.post(f"/api/games/{gid}/hint", json={"seat": tok})
    assert r.status_code == 200, r.text
    assert pool.respawns >= 1
    step = state(c, gid)["step"]
    st = state(c, gid, tok)
    action = passive(st)
    assert c.post(f"/api/games/{gid}/actions", json={"seat": tok, "action": action}).status_code == 200
    wait_for(lambda: state(c, gid)["to_move"] == 1 or state(c, gid)["over"], 60)
    assert state(c, gid)["step"] > step + 1   # the AI seat played its turn after the kill
    assert "could not decide" not in caplog.text   # ... by deciding, not by its first legal action


# ---------------------------------------------------------------------- yielding the CPU
def test_default_workers_leave_a_core_to_the_server() -> None:
    assert default_workers(1) == 1 and default_workers(2) == 1 and default_workers(4) == 3
    assert default_workers(64) == ai_pool.MAX_WORKERS


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_worker_processes_run_at_the_lowest_priority() -> None:
    async def main() -> tuple[int, int]:
        pool = AiPool(workers=1, processes=True)
        try:
            return await pool.run(os.nice, 0), await pool.run(os.sched_getscheduler, 0)
        finally:
            pool.shutdown()
    nice, policy = asyncio.run(main())
    assert nice == 19 and policy == os.SCHED_IDLE
    assert os.nice(0) != 19 or os.sched_getscheduler(0) != os.SCHED_IDLE  # the server itself is untouched


def test_lower_priority_says_what_it_applied() -> None:
    out = subprocess.run([sys.executable, "-c", "from starcom.server.ai_pool import lower_priority;"
                          "import os; print(lower_priority(), os.nice(0))"],
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(starcom.__file__))})
    assert out.returncode == 0, out.stderr
    assert "'nice 19'" in out.stdout and out.stdout.split()[-1] == "19"


# ---------------------------------------------------------------------- starcom loadtest
def test_loadtest_hint_flood_reports_both_phases() -> None:
    from .test_loadtest import figures
    fig = figures("--hint-flood", "--phase", "3", "--ai-level", "easy", "--seed", "3")
    assert fig["scenario"] == "hint-flood" and fig["ai_level"] == "easy" and fig["flood_rate"] > 0
    assert fig["ai_quiet_decisions"] > 0 and fig["ai_flooded_decisions"] > 0 and fig["errors"] == 0
    assert set(fig["ai_quiet_ms"]) == set(fig["ai_flooded_ms"]) == {"p50", "p95", "p99", "max"}
    assert fig["flood_ratio"] == round(fig["ai_flooded_ms"]["p50"] / fig["ai_quiet_ms"]["p50"], 2)
    # every hint asked for was answered: computed, shared, or refused with a clear 4xx/5xx
    assert sum(fig["hint_answers"].values()) > 0 and set(fig["hint_answers"]) <= {"200", "409", "429", "503"}


def test_loadtest_reports_latency_while_every_ai_worker_is_busy() -> None:
    from .test_loadtest import figures
    fig = figures("--games", "3", "--ai-games", "3", "--ai-level", "hard", "--actions", "30", "--think", "0.1",
                  "--ai-workers", "1", "--grace", "30", "--seed", "4")
    # three hard AIs and one worker: the others wait, so some human actions meet a saturated pool
    assert 0 < fig["ai_busy_share"] <= 1
    busy = fig["latency_ms_ai_busy"]
    assert set(busy) == {"p50", "p95", "p99", "max"} and busy["p50"] is not None
    assert busy["max"] <= fig["latency_ms"]["max"]


def test_loadtest_scenarios_do_not_mix() -> None:
    from typer.testing import CliRunner

    from starcom.cli.main import app
    for args, option in ((["--hint-flood", "--memory"], "--hint-flood"), (["--hint-flood", "--games", "3"], "--games"),
                         (["--hint-flood", "--phase", "1"], "--phase")):
        res = CliRunner().invoke(app, ["loadtest", *args])
        assert res.exit_code == 2 and option in res.output, res.output
