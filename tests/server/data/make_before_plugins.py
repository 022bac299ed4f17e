"""Made the fixture ``before-plugins.db`` (+ ``.json``) with the code of commit 89245dc, before
Star Commander became a plug-in (issue 28): a server's SQLite database holding a live Star
Commander game, a live Galactic Empires game and a finished Star Commander game, and what each
seat's state message said at the end. ``tests/server/test_before_plugins.py`` opens the same
database with today's code and expects the same messages.

Run from a checkout of that commit: ``PYTHONPATH=src python tests/server/data/make_before_plugins.py``.
"""
from __future__ import annotations

import json
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from starcom.server.app import create_app

HERE = Path(__file__).parent
VOLATILE = ("seats",)  # who is connected right now


def comparable(st: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in st.items() if k not in VOLATILE}


def play(c: TestClient, gid: str, toks: dict[int, str], steps: int, rng: random.Random, finish: bool) -> None:
    for _ in range(steps):
        st = c.get(f"/api/games/{gid}").json()
        if st["over"]:
            return
        mine = c.get(f"/api/games/{gid}", params={"seat": toks[st["to_move"]]}).json()
        legal = mine["legal"]
        # a live game prefers anything but ending the turn early, so that it gets somewhere; the
        # finished one ends turns whenever it can, so that it ends
        ends = [o for o in legal if o["action"] in ({"type": "end"}, ["end"])]
        pick = rng.choice((ends if finish else [o for o in legal if o not in ends]) or legal)
        r = c.post(f"/api/games/{gid}/actions", json={"seat": toks[st["to_move"]], "action": pick["action"],
                                                     "expect_step": mine["step"]})
        assert r.status_code == 200, r.text


def main() -> None:
    tmp = Path(tempfile.mkdtemp())
    db = tmp / "games.db"
    app = create_app(f"sqlite:///{db}", ai_processes=False, create_limit=0, rate_limit=100000, window_hold=0.0)
    out: dict[str, Any] = {"commit": "89245dc", "games": []}
    rng = random.Random(28)
    with TestClient(app) as c:
        for body, steps, finish in (({"mode": "hotseat", "seed": 5}, 60, False),
                                    ({"game": "ge", "mode": "hotseat", "seed": 3}, 40, False),
                                    ({"mode": "hotseat", "seed": 9, "turn_limit": 4}, 2000, True)):
            g = c.post("/api/games", json=body).json()
            gid = g["game_id"]
            toks = {s["seat"]: s["token"] for s in g["seats"] if "token" in s}
            play(c, gid, toks, steps, rng, finish)
            states = {str(seat): comparable(c.get(f"/api/games/{gid}", params={"seat": tok}).json())
                      for seat, tok in toks.items()}
            states["spectator"] = comparable(c.get(f"/api/games/{gid}").json())
            out["games"].append({"body": body, "game_id": gid, "tokens": {str(k): v for k, v in toks.items()},
                                 "states": states})
    shutil.copy(db, HERE / "before-plugins.db")
    (HERE / "before-plugins.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", "utf-8")


if __name__ == "__main__":
    main()
