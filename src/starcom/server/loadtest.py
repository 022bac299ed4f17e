"""Load test: many concurrent two-player games, each seat driven by a random policy over its own
loopback WebSocket; measures action round-trip latency (action sent -> resulting state received)."""
from __future__ import annotations

import asyncio
import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets


@dataclass
class LoadResult:
    """What a load test measured."""

    games: int
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)   # seconds, one per action
    errors: int = 0
    finished: int = 0
    timed_out: bool = False

    def percentile(self, q: float) -> float:
        """The ``q`` quantile (0..1) of the latencies, in milliseconds (nearest rank)."""
        if not self.latencies:
            return float("nan")
        xs = sorted(self.latencies)
        return 1000 * xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))]

    def report(self) -> str:
        rate = len(self.latencies) / self.seconds if self.seconds else 0.0
        return (f"{self.games} games, {len(self.latencies)} actions in {self.seconds:.1f} s ({rate:.0f}/s), "
                f"{self.finished} games finished, {self.errors} errors{' (timed out)' if self.timed_out else ''}\n"
                f"action round trip: p50 {self.percentile(0.5):.1f} ms, p99 {self.percentile(0.99):.1f} ms, "
                f"max {1000 * max(self.latencies, default=float('nan')):.1f} ms")


def _pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Random legal action, choosing the kind first so long lists of one kind do not dominate."""
    kinds = sorted({e["action"]["type"] for e in legal})
    kind = rng.choice(kinds)
    return rng.choice([e["action"] for e in legal if e["action"]["type"] == kind])


async def _play_seat(ws_url: str, seat: int, limit: int, think: float, rng: random.Random,
                     result: LoadResult) -> None:
    async with websockets.connect(ws_url, max_size=1 << 24) as ws:
        sent_at: float | None = None
        sent_step = -1
        while True:
            msg = json.loads(await ws.recv())
            if msg.get("type") == "error":
                result.errors += 1
                sent_at = None
                continue
            if msg.get("type") != "state":
                continue
            step = msg["step"]
            if sent_at is not None and step > sent_step:
                result.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["over"] or step >= limit:
                if msg["over"] and seat == 0:
                    result.finished += 1
                return
            if msg["to_move"] == seat and msg["legal"] and sent_at is None:
                if think:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                action = _pick(msg["legal"], rng)
                sent_step = step
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": action, "expect_step": step}))


async def run_loadtest(url: str, games: int, actions: int = 40, think: float = 0.1, timeout: float = 120.0,
                       seed: int = 0) -> LoadResult:
    """Create ``games`` online games with two human seats on the server at ``url`` and play up to
    ``actions`` actions in each, all at once; stops after ``timeout`` seconds."""
    result = LoadResult(games)
    base = url.rstrip("/")
    ws_base = "ws" + base[4:] if base.startswith("http") else base
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        created = []
        for i in range(games):
            r = await http.post("/api/games", json={"players": 2, "size": 3, "mode": "online", "seed": seed + i,
                                                    "seats": ["human", "human"]})
            r.raise_for_status()
            created.append(r.json())
    tasks = []
    for i, g in enumerate(created):
        for s in g["seats"]:
            ws_url = f"{ws_base}/ws/games/{g['game_id']}?seat={s['token']}"
            rng = random.Random(f"{seed}:{i}:{s['seat']}")
            tasks.append(_play_seat(ws_url, s["seat"], actions, think, rng, result))
    start = time.perf_counter()
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), timeout)
    except asyncio.TimeoutError:
        result.timed_out = True
    result.seconds = time.perf_counter() - start
    return result
