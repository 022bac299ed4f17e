"""Saved games cannot set their own limits (issue 27): a file opened on the server
(POST /api/replays) may not ask for a turn or action limit beyond the server's, nor hold more
actions than those allow; absurd files are refused by counting, before anything is replayed; a
file without a turn limit is replayed only as far as the longest limit allows. Both games. An
accepted file is stored in one transaction, chained like any game."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

from starcom.sc.engine.game import Game
from starcom.sc.engine.state import Config
from starcom.games import get
from starcom.server.limits import ACTION_LIMIT, TURN_LIMITS, import_limits, ws_total_default
from starcom.sc import records as sc_records
from starcom.sim import record

END = {"type": "end"}
SC = {"players": 2, "size": 3, "edition": "standard", "seed": 1}


def sc_file(config: dict[str, Any], count: int) -> dict[str, Any]:
    """A Star Commander file of ``count`` plain 'end' actions (each ends a turn)."""
    return {"format": "starcom-game/1", "config": config, "actions": [END] * count, "agents": ["a", "b"],
            "result": {}}


@pytest.fixture
def no_replay(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replaying a file of either game fails the test loudly; the list records any attempt."""
    tried: list[str] = []

    def refuse(*_a: Any, **_k: Any) -> Any:
        tried.append("replayed")
        raise AssertionError("the file was replayed before its limits were checked")

    monkeypatch.setattr(sc_records, "replay", refuse)
    monkeypatch.setattr(record, "replay_game", refuse)
    return tried


def _refused(client: Any, data: dict[str, Any], words: str) -> str:
    before = client.get("/api/games").json()["games"]
    r = client.post("/api/replays", json=data)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error.startswith("not a saved game that can be opened") and words in error, error
    assert client.get("/api/games").json()["games"] == before  # nothing stored
    return error


@pytest.mark.parametrize("config, count, words", [
    ({**SC, "turn_limit": 100_000, "action_limit": ACTION_LIMIT}, 20_000, "'turn_limit' is 100,000"),
    ({**SC, "turn_limit": 0}, 10, "'turn_limit' is 0"),
    ({**SC, "turn_limit": 60, "action_limit": 10 ** 9}, 10, "'action_limit' is 1,000,000,000"),
    ({**SC, "turn_limit": None, "action_limit": None}, 25_000, "holds 25,000 actions, more than the server's"),
    ({**SC, "turn_limit": 60, "action_limit": 300}, 301, "more than its own action limit of 300"),
])
def test_a_file_beyond_the_servers_limits_is_refused_before_any_replay(client, no_replay, config, count,
                                                                      words) -> None:
    _refused(client, sc_file(config, count), words)
    assert no_replay == []


def test_a_file_without_a_turn_limit_is_replayed_no_further_than_the_longest_allowed(client) -> None:
    """The attack of issue 27: 20,000 'end' actions, no turn limit. Without one the game would
    end by the action cap at action 20,000; it is refused where it passes the server's longest
    turn limit (every 'end' is a turn), not after all 20,000."""
    error = _refused(client, sc_file({**SC, "turn_limit": None, "action_limit": ACTION_LIMIT}, 20_000),
                     f"within {TURN_LIMITS[1]} turns")
    assert f"step {TURN_LIMITS[1]}:" in error


def test_files_within_the_limits_open(client) -> None:
    # the longest limit the server gives a game, played to its end
    r = client.post("/api/replays", json=sc_file({**SC, "turn_limit": TURN_LIMITS[1], "action_limit": ACTION_LIMIT},
                                                 TURN_LIMITS[1]))
    assert r.status_code == 201, r.text
    # no turn limit, but over (by its own action cap) before the longest turn limit
    r = client.post("/api/replays", json=sc_file({**SC, "turn_limit": None, "action_limit": 300}, 300))
    assert r.status_code == 201, r.text
    assert client.get(f"/api/games/{r.json()['game_id']}/replay/300").json()["over"] is True


def test_an_opened_file_is_stored_chained_in_one_piece(client, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game and every action in one transaction (the store's per-action append is not used),
    and the stored chain verifies when the game is loaded back."""
    g = Game.from_config(Config(2, 3, "standard", 5, 8, ACTION_LIMIT))
    rng = random.Random(5)
    actions = []
    while not g.over:
        a = rng.choice(g.legal_actions())
        g.apply(a)
        actions.append(a)
    store = client.app.state.store

    def no_append(*_a: Any, **_k: Any) -> None:
        raise AssertionError("an import stores its actions in one transaction, not one by one")

    monkeypatch.setattr(store, "append", no_append)
    r = client.post("/api/replays", json=sc_records.to_record(g.cfg, actions, ["x", "y"]))
    assert r.status_code == 201, r.text
    rec = store.load(r.json()["game_id"])  # verifies every chain value and the head
    assert rec.over and rec.step == len(actions) and rec.winner == g.winner and rec.turn == g.turn
    assert [e["action"] for e in rec.actions] == json.loads(json.dumps(sc_records.to_record(g.cfg, actions)["actions"]))
    assert all(e["by_ai"] for e in rec.actions)


# --------------------------------------------------------------------------- Galactic Empires

GE = get("ge")
GE_SETTINGS = {"players": 2, "edition": "quick", "seed": 11, "turn_limit": 60}


def ge_file(config: dict[str, Any], actions: list[Any]) -> dict[str, Any]:
    return {"format": "starcom-game/1", "game": "ge", "config": config, "actions": actions, "agents": [],
            "result": {}}


@pytest.mark.parametrize("config, count, words", [
    ({**GE_SETTINGS, "turn_limit": 100_000}, 3, "'turn_limit' is 100,000"),
    ({**GE_SETTINGS, "turn_limit": None, "options": {"turn_cap": 900}}, 3, "option 'turn_cap' is 900"),
    (GE_SETTINGS, ACTION_LIMIT + 1, f"holds {ACTION_LIMIT + 1:,} actions"),
])
def test_a_ge_file_beyond_the_limits_is_refused_before_any_replay(client, no_replay, config, count, words) -> None:
    _refused(client, ge_file(config, [["pass"]] * count), words)
    assert no_replay == []


def test_a_ge_file_without_a_turn_limit_stops_at_the_longest_allowed(client, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its replay stops where the game's round counter reaches the server's longest limit (here
    lowered to 2 rounds, so that a short real game shows it)."""
    from starcom.server import adapter
    monkeypatch.setattr(adapter, "TURN_LIMITS", (1, 2))
    settings = {**GE_SETTINGS, "turn_limit": None}
    game = GE.rules.new(**settings)
    agents = [GE.ai.make_agent("random"), GE.ai.make_agent("random")]
    rngs = [random.Random(f"0:{s}") for s in range(2)]
    actions = []
    while not game.over and len(actions) < 3000:
        act = agents[game.to_move].choose(game, rngs[game.to_move])
        GE.rules.play(game, act)
        actions.append(GE.rules.encode(act))
    assert GE.rules.turn(game) >= 2
    error = _refused(client, json.loads(json.dumps(ge_file(settings, actions))), "only games that end within 2 turns")
    assert "turn 3" in error


# --------------------------------------------------------------------------- the rules themselves

def test_import_limits_reads_only_whole_numbers() -> None:
    """Wrong types are left to the file's own checks (which name them), never judged as limits."""
    assert import_limits({"turn_limit": "9999", "action_limit": True}, [END]) is None
    assert import_limits(None, "not a list") is None
    assert import_limits({"turn_limit": TURN_LIMITS[1], "action_limit": ACTION_LIMIT}, [END] * ACTION_LIMIT) is None
    assert "turn_limit" in (import_limits({"turn_limit": TURN_LIMITS[1] + 1}, []) or "")


def test_the_default_socket_cap_keeps_headroom_under_the_file_limit() -> None:
    assert ws_total_default(1024) == 768
    assert ws_total_default(65536) == 49152
    assert ws_total_default(100) == 16
    assert 16 <= ws_total_default() < 1_000_000


def test_a_turn_limit_kept_elsewhere_is_the_games_to_say() -> None:
    """The server knows no game's config: where a game keeps its turn limit besides ``turn_limit``
    is its entry's ``serving.turn_limit_in`` (Galactic Empires: the ``turn_cap`` option)."""
    config = {**GE_SETTINGS, "turn_limit": None, "options": {"turn_cap": 900}}
    assert import_limits(config, []) is None  # without the game's word, an option is just an option
    hook = GE.serving.turn_limit_in
    assert hook is not None
    assert "config option 'turn_cap' is 900" in (import_limits(config, [], hook) or "")
    assert import_limits({**config, "options": {"turn_cap": 30}}, [], hook) is None
    assert import_limits({**config, "turn_limit": 40}, [], hook) is None  # turn_limit comes first
    for odd in (None, [], "x", {"turn_cap": None}, {"turn_cap": "900"}):  # left to the file's own checks
        assert import_limits({**config, "options": odd}, [], hook) is None
    assert get("starcom").serving.turn_limit_in is None
