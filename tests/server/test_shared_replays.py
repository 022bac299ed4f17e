"""Replays are rebuilt once however many ask (issue 27): concurrent requests for a replay not yet
built share one rebuild and its checkpoints, and one client may have only a few rebuilds under
way at once (429 beyond, naming the cap); waiting for a rebuild someone else started is free."""
from __future__ import annotations

import threading
from typing import Any

import pytest

from starcom.server import sessions

from .conftest import create, state, wait_for


def _finished(c: Any, seed: int) -> str:
    gid = create(c, seats=["ai:random", "ai:random"], seed=seed, turn_limit=4)["game_id"]
    wait_for(lambda: state(c, gid)["over"])
    return gid


async def _forget(manager: Any, game_id: str) -> None:
    if game_id in manager.sessions:
        manager._forget(game_id)


class Gate:
    """Stands in for ReplayBook: counts the books built per game and holds each build until
    released (a very long game's replay, without the wait)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.real = sessions.ReplayBook
        self.built: dict[str, int] = {}
        self.entered = threading.Event()
        self.release = threading.Event()
        monkeypatch.setattr(sessions, "ReplayBook", self)

    def __call__(self, game_id: str, *args: Any) -> Any:
        self.built[game_id] = self.built.get(game_id, 0) + 1
        self.entered.set()
        assert self.release.wait(30)
        return self.real(game_id, *args)


def _get_in_thread(c: Any, url: str, out: list[int]) -> threading.Thread:
    t = threading.Thread(target=lambda: out.append(c.get(url).status_code))
    t.start()
    return t


def test_concurrent_requests_share_one_rebuild(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    c = make_client()
    gid = _finished(c, 8)
    c.portal.call(_forget, c.app.state.manager, gid)  # cold: neither live nor replayed yet
    gate = Gate(monkeypatch)
    answers: list[int] = []
    waiting = [_get_in_thread(c, f"/api/games/{gid}/replay/{n}", answers) for n in (0, 1, 2)]
    assert gate.entered.wait(20)
    # the summary and the whole replay wait for the same book
    waiting += [_get_in_thread(c, f"/api/games/{gid}/summary", answers),
                _get_in_thread(c, f"/api/games/{gid}/replay", answers)]
    wait_for(lambda: len(c.app.state.manager.replay_builds) == 1 and not answers)
    gate.release.set()
    for t in waiting:
        t.join(30)
    assert answers == [200] * 5
    assert gate.built == {gid: 1}
    book = c.app.state.manager.replays.get(gid)
    assert book is not None and c.get(f"/api/games/{gid}/replay/3").json()["step"] == 3
    assert gate.built == {gid: 1}  # later steps come from the kept book and its checkpoints


def test_one_client_may_have_only_so_many_rebuilds_under_way(make_client: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    c = make_client(replay_builds=1)
    first, second = _finished(c, 8), _finished(c, 9)
    for gid in (first, second):
        c.portal.call(_forget, c.app.state.manager, gid)
    gate = Gate(monkeypatch)
    answers: list[int] = []
    waiting = [_get_in_thread(c, f"/api/games/{first}/replay/0", answers)]
    assert gate.entered.wait(20)
    r = c.get(f"/api/games/{second}/replay/0")  # a second rebuild from the same client
    assert r.status_code == 429, r.text
    assert "at most 1 at once" in r.json()["error"]
    waiting.append(_get_in_thread(c, f"/api/games/{first}/summary", answers))  # joining is not a rebuild
    gate.release.set()
    for t in waiting:
        t.join(30)
    assert answers == [200, 200] and gate.built == {first: 1}
    assert c.get(f"/api/games/{second}/replay/0").status_code == 200  # its turn now
    assert c.app.state.manager.replay_clients == {}  # every rebuild was counted off


def test_a_running_game_has_no_replay_and_builds_none(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = create(client, mode="hotseat")["game_id"]
    gate = Gate(monkeypatch)
    gate.release.set()
    r = client.get(f"/api/games/{gid}/replay/0")
    assert r.status_code == 409 and "not finished" in r.json()["error"]
    client.portal.call(_forget, client.app.state.manager, gid)  # from the store: its row says so
    r = client.get(f"/api/games/{gid}/replay")
    assert r.status_code == 409 and "not finished" in r.json()["error"]
    assert gate.built == {}
