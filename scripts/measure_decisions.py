"""How many decisions a player meets in a game against the AI, with the server's automatic
passes off (as before issue 11) and on (the default now).

The player's seat is played by an AI level through the real server (in this process, over a
temporary database), so both runs see the same kind of games; every state message that asks the
seat to decide counts as one decision, and one where passing was all it could do counts as a
forced pass.

Clicks per decision in the browser client from before issue 11 (commit cdb8ddb) are counted with
that client's layout, from the same decisions: passes, ends and other main buttons took one
click, as did an order in a group of at most eight; a jump took two (a ship, then its
destination, or opening the closed Jumps group), and so did any order in a group of more than
eight, which that client showed closed. Today's client is measured by clicking it
(tests/web/test_whole_games.py).

    .venv/bin/python scripts/measure_decisions.py --games 10 --opponent normal
"""
from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from starcom.sc.agents import DIFFICULTIES, make_agent  # noqa: E402
from starcom.sc.engine.actions import from_json  # noqa: E402
from starcom.server.app import create_app  # noqa: E402
from starcom.sc.server import STARCOM_ADAPTER  # noqa: E402


# The pre-issue-11 client's order groups (cdb8ddb, web/static/game.js: MAIN_TYPES and GROUPS).
OLD_MAIN = {"end", "pass", "done", "propose", "accept", "decline", "cancel", "buy"}
OLD_GROUPS = [{"build"}, {"develop"}, {"play"}, {"ability"}, {"fight", "assign", "retreat", "redirect"},
              {"offer", "give", "ask"}, {"scrap", "repair"}, {"sell"}, {"jump"}, {"choose"}]


def old_clicks(legal: list[dict[str, Any]], chosen: dict[str, Any]) -> int:
    """Clicks the pre-issue-11 client needed for ``chosen`` among ``legal`` (see the module text)."""
    kind = chosen["type"]
    if kind in OLD_MAIN:
        return 1
    if kind == "jump":
        return 2
    group = next((g for g in OLD_GROUPS if kind in g), {kind})
    return 1 if sum(e["action"]["type"] in group for e in legal) <= 8 else 2


def play(client: TestClient, seed: int, opponent: str, auto_pass: bool, player: str) -> dict[str, Any]:
    made = client.post("/api/games", json={"mode": "vs_ai", "seed": seed, "seats": ["human", f"ai:{opponent}"]})
    made.raise_for_status()
    gid, token = made.json()["game_id"], made.json()["seats"][0]["token"]
    client.post(f"/api/games/{gid}/settings", json={"seat": token, "auto_pass": auto_pass}).raise_for_status()
    manager = client.app.state.manager  # type: ignore[attr-defined]
    agent_name, _ = DIFFICULTIES[player]
    agent, rng = make_agent(agent_name), random.Random(seed)
    decisions = forced = clicks_before = 0
    while True:
        st = client.get(f"/api/games/{gid}", params={"seat": token}).json()
        if st["over"]:
            break
        if st["to_move"] != 0:  # the AI is thinking
            time.sleep(0.005)
            continue
        decisions += 1
        forced += all(STARCOM_ADAPTER.is_pass(from_json(e["action"])) for e in st["legal"])
        action = agent.choose(manager.sessions[gid].game.clone(), rng)  # agents see only seat 0's view
        legal = {from_json(e["action"]): e["action"] for e in st["legal"]}
        clicks_before += old_clicks(st["legal"], legal[action])
        r = client.post(f"/api/games/{gid}/actions", json={"seat": token, "action": legal[action],
                                                           "expect_step": st["step"]})
        r.raise_for_status()
    return {"decisions": decisions, "forced": forced, "clicks_before": clicks_before, "turns": st["view"]["turn"] + 1,
            "reason": st["over_reason"], "winner": st["winner"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--opponent", default="normal", choices=list(DIFFICULTIES))
    ap.add_argument("--player", default="normal", choices=list(DIFFICULTIES),
                    help="the AI level standing in for the human player")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'm.db'}", ai_processes=False, create_limit=0, rate_limit=10 ** 6)
        with TestClient(app) as client:
            for auto in (False, True):
                runs = [play(client, 1000 + i, args.opponent, auto, args.player) for i in range(args.games)]
                d = [r["decisions"] for r in runs]
                f = [r["forced"] for r in runs]
                print(f"auto_pass={'on ' if auto else 'off'}: decisions per game mean {statistics.mean(d):.1f} "
                      f"(median {statistics.median(d)}), forced passes among them mean {statistics.mean(f):.1f} "
                      f"({sum(f) / max(1, sum(d)):.0%}); clicks per decision with the old client's "
                      f"layout {sum(r['clicks_before'] for r in runs) / max(1, sum(d)):.2f}; turns mean {statistics.mean(r['turns'] for r in runs):.1f}; "
                      f"ends: {[r['reason'] for r in runs]}")


if __name__ == "__main__":
    main()
