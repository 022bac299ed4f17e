"""Issue 29: the server takes a decision with one legal option for a human seat (the seat's own
log says so), and ends a phase with nothing to do for a seat that asked for it in its settings
(the game's ``rules.idle``: Galactic Empires' phases where only ending and discarding are left).
A game stored before the setting existed plays on as it did."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from starlette.testclient import TestClient

from starcom.server.sessions import Session

from .conftest import create, decision, state, tokens

WAIVES = {"pass", "quiet"}


@pytest.fixture
def client(make_client: Any) -> TestClient:
    return make_client(rate_limit=1_000_000, window_hold=0.0)


def play(client: TestClient, gid: str, toks: dict[int, str], steps: int, seed: int) -> list[dict[str, Any]]:
    """Play ``steps`` decisions of a hot-seat game: real actions before ending phases."""
    rng = random.Random(seed)
    seen = []
    for _ in range(steps):
        st = decision(client, gid, toks)
        if st is None:
            break
        seen.append(st)
        busy = [e for e in st["legal"] if e["action"][0] not in ("end", "pass", "quiet", "allocate")]
        entry = rng.choice(busy) if busy and rng.random() < 0.6 else next(
            (e for e in st["legal"] if e["action"][0] in ("end", "pass", "allocate")), st["legal"][0])
        r = client.post(f"/api/games/{gid}/actions", json={"seat": toks[st["seat"]], "action": entry["action"],
                                                           "expect_step": st["step"]})
        assert r.status_code == 200, r.text
    return seen


def test_single_options_are_taken_for_the_seat_and_said_in_its_log(client: TestClient) -> None:
    g = create(client, game="ge", mode="hotseat", seed=5, edition="quick")
    gid, toks = g["game_id"], tokens(g)
    seen = play(client, gid, toks, 80, 5)
    assert seen
    # no seat was asked to decide a decision with one option (nor one where it could only pass)
    assert not [st for st in seen if len(st["legal"]) == 1]
    assert not [st for st in seen if {e["action"][0] for e in st["legal"]} <= WAIVES]
    rec = client.app.state.store.load(gid)
    taken = [i for i, a in enumerate(rec.actions) if a["by_ai"] and a["action"][0] not in WAIVES]
    assert taken, "the server took no single option in 80 decisions"
    for i in taken[:8]:
        before = Session(replace(rec, actions=rec.actions[:i]))
        seat = rec.actions[i]["seat"]
        assert len(before.game.legal_actions()) == 1, "the server took a decision that had a choice"
        assert before.state_message(seat)["passing"], "the seat's message must say the server decides"
        assert not before.state_message(None)["passing"]
    # the seat's own log says what was done for it, in words; the other seat's log does not
    logs = {seat: state(client, gid, tok)["log"] for seat, tok in toks.items()}
    assert any(line.startswith("Done for you: ") for line in logs[0] + logs[1])
    spectator = state(client, gid)["log"]
    assert not [line for line in spectator if line.startswith("Done for you")]
    # rebuilt from the store, the log says it again
    rebuilt = Session(rec)
    assert [x for x in rebuilt.logs[0] if x.startswith("Done for you")] == \
        [x for x in client.app.state.manager.sessions[gid].logs[0] if x.startswith("Done for you")]


def test_without_the_setting_the_seat_is_asked_its_one_option(client: TestClient) -> None:
    g = create(client, game="ge", mode="hotseat", seed=5, edition="quick")
    gid, toks = g["game_id"], tokens(g)
    for tok in toks.values():
        r = client.post(f"/api/games/{gid}/settings", json={"seat": tok, "auto_single": False})
        assert r.status_code == 200 and r.json()["settings"]["auto_single"] is False
    seen = play(client, gid, toks, 80, 5)
    assert [st for st in seen if len(st["legal"]) == 1], "no single option was put to the seat"


def test_empty_phases_end_for_a_seat_that_asked(client: TestClient) -> None:
    g = create(client, game="ge", mode="hotseat", seed=6, edition="quick")
    gid, toks = g["game_id"], tokens(g)
    for tok in toks.values():
        assert client.post(f"/api/games/{gid}/settings", json={"seat": tok, "skip_idle": True}).status_code == 200
    seen = play(client, gid, toks, 80, 6)
    tidy = {"end", "discard", "drop"}
    idle = [st for st in seen if st["view"]["priority"] is None and st["view"]["phase"] in ("play-a", "fire", "play-b", "discard")
            and {e["action"][0] for e in st["legal"]} <= tidy]
    assert not idle, f"a seat that asked was shown an empty phase: {idle[0]['view']['phase']}"
    rec = client.app.state.store.load(gid)
    ended = [a for a in rec.actions if a["by_ai"] and a["action"] == ["end"]]
    assert ended, "no empty phase came up"
