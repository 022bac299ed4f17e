"""Measure what a hostile visitor can make the server do with saved games, replays and sockets
(issue 27; the figures of docs/security.md, "Saved games, replays, the lobby and sockets").

Starts ``starcom serve`` (the ``starcom`` importable with this interpreter's path, so
``PYTHONPATH=<some checkout>/src`` measures that checkout) on this machine's first non-loopback
address over a fresh SQLite file that already holds finished games of 20,000 ``end`` actions
(stored action by action, as an import used to store them), then:

- imports hostile files (20,000 ``end`` actions without a turn limit; a turn limit of 100,000;
  25,000 actions) and a plain finished file, timing each POST /api/replays;
- asks for the replay of a long game cold, alone; then three requests at once for another;
  then one client asking for three other games' replays at once;
- opens spectator WebSockets from one address and counts those accepted and refused (and their
  close code and reason), with the server's open files before and after.

Prints one JSON object. Usage::

    PYTHONPATH=src python scripts/measure_bounds.py [--sockets 300] [--nofile 1024] [--serve=--ws-total=0]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import asdict
from pathlib import Path
from typing import Any

import websockets

from starcom.sc.engine.game import Game
from starcom.sc.engine.state import Config
from starcom.server.store import GameRecord, Store

LONG = 20_000


def lan_address() -> str:
    """An address of this machine that is not loopback (so per-address caps apply to it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.123", 9))  # no packet is sent: this only picks the outgoing address
        return str(s.getsockname()[0])


def seed_long_games(url: str, count: int) -> list[str]:
    """``count`` finished imported games of LONG ``end`` actions, stored action by action."""
    cfg = Config(2, 3, "standard", 1, None, LONG)
    g = Game.from_config(cfg)
    for _ in range(LONG):
        g.apply(("end",))
    assert g.over
    store = Store(url)
    ids = []
    try:
        for k in range(count):
            gid = f"10ee{k:08x}"  # the server's form of id: 12 hex digits
            store.create(GameRecord(game_id=gid, config=asdict(cfg), mode="imported",
                                    seats=[{"seat": 0, "kind": "ai:a"}, {"seat": 1, "kind": "ai:b"}],
                                    created=time.time()))
            for seq in range(LONG):
                last = seq == LONG - 1
                store.append(gid, seq, {"type": "end"}, seq % 2, True, g.turn, last, g.winner if last else None)
            ids.append(gid)
    finally:
        store.close()
    return ids


def call(method: str, url: str, body: Any = None, timeout: float = 600) -> tuple[int, Any, float]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, text = r.status, r.read()
    except urllib.error.HTTPError as exc:
        status, text = exc.code, exc.read()
    took = time.perf_counter() - t
    try:
        return status, json.loads(text), took
    except ValueError:
        return status, text.decode(errors="replace"), took


def at_once(urls: list[str]) -> dict[str, Any]:
    out: list[Any] = [None] * len(urls)

    def one(i: int) -> None:
        status, body, took = call("GET", urls[i])
        out[i] = {"status": status, "seconds": round(took, 2),
                  **({"error": body.get("error")} if isinstance(body, dict) and "error" in body else {})}

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(urls))]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return {"wall_seconds": round(time.perf_counter() - t, 2), "requests": out}


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


async def flood_sockets(ws_url: str, count: int, pid: int) -> dict[str, Any]:
    """Open ``count`` spectator sockets at once-ish and hold them; count what happened."""
    accepted, refused, failed = 0, 0, 0
    closes: dict[str, int] = {}
    held = []
    files_before, rss_before = open_files(pid), rss_mb(pid)

    async def one() -> None:
        nonlocal accepted, refused, failed
        try:
            ws = await websockets.connect(ws_url, open_timeout=60, proxy=None, ping_interval=None, max_size=None)
        except Exception as exc:  # refused in the handshake
            failed += 1
            closes[f"handshake: {type(exc).__name__}"] = closes.get(f"handshake: {type(exc).__name__}", 0) + 1
            return
        try:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if msg.get("type") == "state":
                accepted += 1
                held.append(ws)
                return
        except websockets.exceptions.ConnectionClosed as exc:
            rcvd = exc.rcvd
            key = f"{rcvd.code} {rcvd.reason}" if rcvd is not None else "closed"
            closes[key] = closes.get(key, 0) + 1
            refused += 1
            return
        except Exception:
            failed += 1

    for start in range(0, count, 50):  # 50 at a time, like a page of reconnecting tabs
        await asyncio.gather(*(one() for _ in range(min(50, count - start))))
    files_during, rss_during = open_files(pid), rss_mb(pid)
    for ws in held:
        await ws.close()
    return {"asked": count, "accepted": accepted, "refused": refused, "failed": failed, "closes": closes,
            "server_open_files": [files_before, files_during], "server_rss_mb": [rss_before, rss_during]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sockets", type=int, default=300)
    ap.add_argument("--nofile", type=int, default=0, help="run the server under this soft limit of open files")
    ap.add_argument("--skip-replays", action="store_true", help="measure the sockets only")
    ap.add_argument("--serve", action="append", default=[], metavar="OPTION",
                    help="an option for starcom serve, e.g. --serve=--ws-per-address=0 (repeatable)")
    args = ap.parse_args()
    host = lan_address()
    tmp = Path(tempfile.mkdtemp(prefix="starcom-bounds-"))
    db = f"sqlite:///{tmp / 'games.db'}"
    t = time.perf_counter()
    long_ids = seed_long_games(db, 0 if args.skip_replays else 5)
    seeded = round(time.perf_counter() - t, 1)
    with socket.socket() as s:
        s.bind((host, 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "starcom.cli.main", "serve", "--no-browser", "--host", host, "--port", str(port),
           "--db", db, "--create-limit", "0", *args.serve]
    pre = None
    if args.nofile:
        import resource
        lim = args.nofile

        def pre() -> None:  # type: ignore[misc]
            resource.setrlimit(resource.RLIMIT_NOFILE, (lim, lim))
    log = open(tmp / "server.log", "wb")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "CI": "1"},
                            preexec_fn=pre)
    base = f"http://{host}:{port}"
    out: dict[str, Any] = {"python": sys.version.split()[0], "cores": os.cpu_count(), "server": base,
                           "seeded_long_games_s": seeded}
    try:
        for _ in range(600):
            try:
                if call("GET", f"{base}/api/games", timeout=2)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        out["serve_options"] = args.serve
        cfg = {"players": 2, "size": 3, "edition": "standard", "seed": 1}
        files: dict[str, dict[str, Any]] = {
            "hostile_20000_ends_no_turn_limit": {**cfg, "turn_limit": None, "action_limit": LONG},
            "turn_limit_100000": {**cfg, "turn_limit": 100_000, "action_limit": LONG},
            "action_limit_1e9": {**cfg, "turn_limit": None, "action_limit": 10 ** 9},
        }
        imports: dict[str, Any] = {}
        for name, config in files.items():
            rec = {"format": "starcom-game/1", "config": config, "actions": [{"type": "end"}] * LONG,
                   "agents": ["a", "b"], "result": {}}
            status, body, took = call("POST", f"{base}/api/replays", rec)
            imports[name] = {"status": status, "seconds": round(took, 2), "bytes": len(json.dumps(rec)),
                             "answer": body.get("error") if isinstance(body, dict) and "error" in body else body}
        rec = {"format": "starcom-game/1", "config": {**cfg, "turn_limit": None, "action_limit": None},
               "actions": [{"type": "end"}] * 25_000, "agents": [], "result": {}}
        status, body, took = call("POST", f"{base}/api/replays", rec)
        imports["actions_25000"] = {"status": status, "seconds": round(took, 2),
                                    "answer": body.get("error") if isinstance(body, dict) else body}
        rec = {"format": "starcom-game/1", "config": {**cfg, "turn_limit": 500, "action_limit": LONG},
               "actions": [{"type": "end"}] * 500, "agents": [], "result": {}}
        status, body, took = call("POST", f"{base}/api/replays", rec)
        imports["legal_500_ends_turn_limit_500"] = {"status": status, "seconds": round(took, 2)}
        out["imports"] = imports
        if long_ids:
            out["cold_view_alone"] = at_once([f"{base}/api/games/{long_ids[0]}/replay/0"])
            out["cold_view_3_at_once_same_game"] = at_once([f"{base}/api/games/{long_ids[1]}/replay/0"] * 3)
            out["cold_views_3_games_one_client"] = at_once(
                [f"{base}/api/games/{gid}/replay/{LONG // 2}" for gid in long_ids[2:5]])
            out["warm_view"] = at_once([f"{base}/api/games/{long_ids[0]}/replay/{LONG - 1}"])
        status, game, _ = call("POST", f"{base}/api/games", {"mode": "hotseat"})
        assert status == 201, game
        ws_url = f"ws://{host}:{port}/ws/games/{game['game_id']}"
        out["sockets_one_address"] = asyncio.run(flood_sockets(ws_url, args.sockets, proc.pid))
        out["server_nofile_soft_limit"] = int(Path(f"/proc/{proc.pid}/limits").read_text().split(
            "Max open files")[1].split()[0])
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
