"""Games stored before Star Commander became a plug-in (issue 28) open as they were.

``data/before-plugins.db`` is a server database written by the code of commit 89245dc
(``data/make_before_plugins.py``): a live Star Commander game, a live Galactic Empires game and a
finished Star Commander game, with what each seat's state message said then
(``data/before-plugins.json``). The saved-game files ``data/before-plugins-*-game.json`` are
self-play games of that commit, with what ``starcom replay --json`` printed for them.
"""
from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from starcom.cli.main import app as cli

warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from starcom.server.app import create_app  # noqa: E402

DATA = Path(__file__).parent / "data"
BEFORE = json.loads((DATA / "before-plugins.json").read_text("utf-8"))


@pytest.fixture
def old_server(tmp_path: Path) -> Any:
    db = tmp_path / "games.db"
    shutil.copy(DATA / "before-plugins.db", db)
    app = create_app(f"sqlite:///{db}", ai_processes=False, create_limit=0, window_hold=0.0)
    with TestClient(app) as c:
        yield c


# Fields the state message has gained since (the game's guide sentence, which the browser used to
# word itself, and a plain table's text): what was there before must read the same, and these
# are new.
NEW_FIELDS = {"guide", "table"}
# ... and in a Star Commander view: the decision in words beside its step's name (issue 30).
NEW_VIEW_FIELDS = {"decision_text"}


# Seat settings added since (issue 29: single options taken, empty phases ended).
NEW_SETTINGS = {"auto_single", "skip_idle"}


def _comparable(st: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in st.items() if k != "seats" and k not in NEW_FIELDS}
    if isinstance(out.get("view"), dict):
        out["view"] = {k: v for k, v in out["view"].items() if k not in NEW_VIEW_FIELDS}
    if isinstance(out.get("legal"), list):  # option labels now name owner, system and price (issue 30)
        out["legal"] = [{k: v for k, v in e.items() if k != "label"} for e in out["legal"]]
    if isinstance(out.get("settings"), dict):
        out["settings"] = {k: v for k, v in out["settings"].items() if k not in NEW_SETTINGS}
    return out


def test_the_lobby_lists_every_stored_game(old_server: TestClient) -> None:
    listed = {g["game_id"] for g in old_server.get("/api/games").json()["games"]}
    assert {g["game_id"] for g in BEFORE["games"]} <= listed


@pytest.mark.parametrize("index", range(len(BEFORE["games"])),
                         ids=[f"{g['body'].get('game', 'starcom')}-{i}" for i, g in enumerate(BEFORE["games"])])
def test_every_seat_sees_what_it_saw(old_server: TestClient, index: int) -> None:
    game = BEFORE["games"][index]
    gid = game["game_id"]
    for who, expected in game["states"].items():
        params = None if who == "spectator" else {"seat": game["tokens"][who]}
        r = old_server.get(f"/api/games/{gid}", params=params)
        assert r.status_code == 200, r.text
        assert _comparable(r.json()) == _comparable(expected), \
            f"{who} of game {gid} sees something else now"


@pytest.mark.parametrize("index", [i for i, g in enumerate(BEFORE["games"]) if not g["states"]["spectator"]["over"]])
def test_a_live_stored_game_plays_on(old_server: TestClient, index: int) -> None:
    game = BEFORE["games"][index]
    gid = game["game_id"]
    spectator = game["states"]["spectator"]
    token = game["tokens"][str(spectator["to_move"])]
    mine = old_server.get(f"/api/games/{gid}", params={"seat": token}).json()
    r = old_server.post(f"/api/games/{gid}/actions",
                        json={"seat": token, "action": mine["legal"][0]["action"], "expect_step": mine["step"]})
    assert r.status_code == 200, r.text
    assert r.json()["step"] == spectator["step"] + 1


def test_a_finished_stored_game_replays(old_server: TestClient) -> None:
    done = [g for g in BEFORE["games"] if g["states"]["spectator"]["over"]]
    assert done, "the fixture holds a finished game"
    for game in done:
        r = old_server.get(f"/api/games/{game['game_id']}/replay")
        assert r.status_code == 200, r.text
        assert len(r.json()["actions"]) == game["states"]["spectator"]["step"]


def _replay_json(path: Path) -> dict[str, Any]:
    res = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert res.exit_code == 0, res.output
    out: dict[str, Any] = json.loads(res.output)
    return out


def test_a_saved_star_commander_game_reads_as_it_did() -> None:
    """The file replays to the same game: the same steps, by the same seats, in the same words,
    the same log and the same end. (``replay --json`` now prints every game in the one form Star
    Commander's had: each step's ``by``, its JSON ``action`` and its ``text``, and the game's
    name.)"""
    now = _replay_json(DATA / "before-plugins-starcom-game.json")
    then = json.loads((DATA / "before-plugins-starcom-replay.json").read_text("utf-8"))
    for key in ("config", "agents", "over", "winner", "steps", "viewer"):
        assert now[key] == then[key], key
    assert now.get("game", "starcom") == then.get("game", "starcom") == "starcom"
    assert len(now["history"]) == len(then["history"])
    for new, old in zip(now["history"], then["history"]):
        assert new["step"] == old["step"] and new["lines"] == old["lines"]
        if old.get("action") is not None:
            assert (new["by"], new["action"], new["text"]) == (old["by"], old["action"], old["text"])


# The old Galactic Empires game let ships in play fire back in the opponent's Weapons Fire phase,
# which GE-REACT-4/8 forbid (issue 29): its step 143 is such a volley.
FIRST_REFUSED_GE_STEP = 143


def test_a_saved_galactic_empires_game_reads_as_far_as_the_rules_allow(tmp_path: Path) -> None:
    """Up to the first action the corrected rules refuse, the file replays the same actions by
    the same seats (the words of Galactic Empires' log were rewritten since, issue 29); that
    action is refused by name, with its step and the rule, and nothing crashes."""
    old_file = json.loads((DATA / "before-plugins-ge-game.json").read_text("utf-8"))
    then = json.loads((DATA / "before-plugins-ge-replay.json").read_text("utf-8"))
    refused = CliRunner().invoke(cli, ["replay", str(DATA / "before-plugins-ge-game.json"), "--json"])
    assert refused.exit_code != 0
    assert f"step {FIRST_REFUSED_GE_STEP}" in refused.output and "GE-REACT-4" in refused.output
    assert "Traceback" not in refused.output
    # the actions before it are a game in progress: saved as such, it reads back whole
    kept = FIRST_REFUSED_GE_STEP - 1
    prefix = {**old_file, "actions": old_file["actions"][:kept],
              "result": {"over": False, "winner": None, "turns": None, "steps": kept}}
    (tmp_path / "prefix.json").write_text(json.dumps(prefix), "utf-8")
    now = _replay_json(tmp_path / "prefix.json")
    assert now["game"] == then["game"] == "ge"
    assert now["config"] == {k: v for k, v in then["config"].items() if k != "seed"}  # a running game's seed stays hidden
    assert now["steps"] == kept and not now["over"]
    assert len(now["history"]) == kept + 1  # the setup, then one entry per action
    for new, old, action in zip(now["history"][1:], then["history"][1:], old_file["actions"]):
        # (an unfinished game is shown as a spectator sees it: a reserve's cards as their number)
        assert (new["step"], new["by"], new["action"][0]) == (old["step"], old["seat"], action[0])
        # its words were rewritten (issue 29: card functions, volleys, the Sector HQ in plain
        # words, and its log tells more), but each step still starts with the same verb
        if new["action"] == action:  # (what a spectator may not see is worded another way)
            assert new["text"].split()[0] == old["action"].split()[0], (new["text"], old["action"])
