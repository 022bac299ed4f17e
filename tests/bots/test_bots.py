"""The bot protocol (docs/bot-protocol.md): the reference bots pass the checker, a match survives
bots that misbehave, logs resume, the SPRT stops, and a decision carries nothing the seat cannot
see."""
from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from starcom.bots import wire
from starcom.bots.check import check, settings_to_check
from starcom.bots.host import Bot, BotFault, Clock, play_game
from starcom.bots.match import MatchError, MatchSpec, run_match
from starcom.cli.main import app
from starcom.games import get
from starcom.sim.ratings import sprt

ROOT = Path(__file__).resolve().parents[2]
PY_BOT = f"{sys.executable} {ROOT / 'examples/bots/random_bot.py'}"
JS_BOT = f"node {ROOT / 'examples/bots/random_bot.js'}"
BUILTIN = f"{sys.executable} -m starcom.cli.main bot --agent"
MISBEHAVING = f"{sys.executable} {Path(__file__).with_name('misbehaving_bot.py')}"
STARCOM = get("starcom")


def test_the_reference_bots_are_short() -> None:
    for name in ("random_bot.py", "random_bot.js"):
        assert len((ROOT / "examples/bots" / name).read_text().splitlines()) <= 60


@pytest.mark.parametrize("command", [PY_BOT, JS_BOT, f"{BUILTIN} random"], ids=["python", "javascript", "builtin"])
def test_the_reference_bots_pass_the_protocol_check(command: str) -> None:
    if command.startswith("node") and shutil.which("node") is None:
        pytest.skip("node is not installed: the JavaScript bot cannot run here")
    report = check(command)
    failed = [(s.name, s.detail) for s in report.steps if not s.ok]
    assert len(report.steps) >= 30 and not failed, failed


def test_the_checker_plays_every_setting_the_game_has() -> None:
    """Its games come from the game's own player counts, sizes and editions: Star Commander's
    eight as they always were, Galactic Empires' (2 players, no board size) each edition."""
    assert [(label, settings, seat) for label, settings, seat in settings_to_check(STARCOM)] == [
        ("2 players, 3×3, seat 0", {"players": 2, "size": 3}, 0),
        ("2 players, 3×3, seat 1", {"players": 2, "size": 3}, 1),
        ("2 players, 4×4", {"players": 2, "size": 4}, 0),
        ("2 players, 5×5", {"players": 2, "size": 5}, 1),
        ("3 players, 4×4, seat 2", {"players": 3, "size": 4}, 2),
        ("4 players, 5×5, seat 3", {"players": 4, "size": 5}, 3),
        ("2 players, classic edition", {"players": 2, "size": 3, "edition": "classic"}, 0),
        ("3 players, classic edition", {"players": 3, "size": 4, "edition": "classic"}, 1)]
    assert settings_to_check(get("ge")) == [("2 players, seat 0", {"players": 2}, 0),
                                            ("2 players, seat 1", {"players": 2}, 1),
                                            ("2 players, quick edition", {"players": 2, "edition": "quick"}, 0)]


def test_the_reference_bot_passes_the_protocol_check_on_another_game() -> None:
    report = check(PY_BOT, "ge")
    failed = [(s.name, s.detail) for s in report.steps if not s.ok]
    assert len(report.steps) >= 25 and not failed, failed


def test_the_checker_fails_a_bot_that_breaks_the_protocol() -> None:
    report = check(f"{MISBEHAVING} illegal")
    assert not report.passed
    names = {s.name for s in report.steps if not s.ok}
    assert "after 'illegal' it answers again with a legal action" in names
    assert "it answers the greeting with 'id name …'" not in names  # the handshake was fine


@pytest.mark.parametrize(("mode", "kind"), [
    ("crash", "crash"), ("garbage", "garbage"), ("hang", "timeout"), ("flood", "flood"), ("longline", "flood"),
    ("early", "out-of-turn"), ("slow", "timeout"), ("version", "version"), ("silent", "timeout"),
])
def test_a_misbehaving_bot_loses_the_game_and_the_match_goes_on(mode: str, kind: str, tmp_path: Path) -> None:
    spec = MatchSpec((f"{MISBEHAVING} {mode}", f"{MISBEHAVING} good"), games=2, move_ms=100, bank_ms=400,
                     turn_limit=8)
    if mode in ("version", "silent"):  # refused at the start: the match cannot be played
        with pytest.raises(MatchError, match="handshake failed"):
            run_match(spec)
        return
    result = run_match(spec, log=tmp_path / "m.jsonl")
    assert len(result.records) == 2  # both games were played
    for r in result.records:
        assert r.fault == kind and r.seats[r.faulty] == 0, r.reason
        assert r.winner_engine == 1 and "forfeits" in r.reason
    assert result.tally()[0]["forfeits"] == 2


def test_a_line_written_with_the_handshake_is_caught_before_the_first_question() -> None:
    """The early bot writes ``ready 1`` and ``play end`` in one write: the host must see the
    second line as unasked the moment the handshake returns, with no race against its reader."""
    for _ in range(10):
        bot = Bot(f"{MISBEHAVING} early")
        try:
            bot.handshake()
            assert bot.pending() == "play end"
            assert bot.pending() is None
        finally:
            bot.close()


def test_illegal_answers_get_the_reason_then_the_default_move() -> None:
    bots = [Bot(f"{MISBEHAVING} illegal"), Bot(f"{MISBEHAVING} good")]
    try:
        for b in bots:
            b.handshake()
        out = play_game(STARCOM, {"players": 2, "size": 3, "seed": 4, "turn_limit": 3}, bots,
                        [Clock(), Clock()], retries=2)
    finally:
        for b in bots:
            b.close()
    bad = out.seats[0]
    assert out.faulty is None and out.over  # played to the end: illegal answers cost moves, not the game
    assert bad.defaults == bad.decisions and bad.illegal == 3 * bad.decisions


def test_an_illegal_answer_is_told_its_rule() -> None:
    """A well-formed action that a rule forbids comes back with the rule's ID: here the other
    seat's first move (P1 is not to move)."""
    from starcom.bots.host import _check
    game = STARCOM.rules.new(players=2, size=3, seed=1)
    legal = game.legal_actions()
    other = game.clone()
    other.apply(legal[0])
    theirs = [a for a in other.legal_actions() if a[0] == "develop"]
    reason, rule = _check(game, game.notation(theirs[0]), legal)
    assert rule == "DEV-1" and reason is not None and reason.startswith("DEV-1:")
    assert _check(game, "nonsense 1 2", legal)[0].startswith("cannot read")
    assert _check(game, game.notation(legal[0]), legal) == (None, None)


def test_a_match_resumes_from_its_log_and_refuses_another(tmp_path: Path) -> None:
    log = tmp_path / "m.jsonl"
    spec = MatchSpec((PY_BOT, f"{BUILTIN} random"), games=4, turn_limit=10, seed=3)
    whole = run_match(spec, log=log).summary()
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:3]) + "\n" + lines[3][:10])  # two games kept, a third torn
    resumed = run_match(spec, log=log).summary()
    assert [r["winner"] for r in resumed["results"]] == [r["winner"] for r in whole["results"]]
    assert resumed["games"] == 4
    again = run_match(spec, log=log).summary()  # everything is in the log now: no game is played again
    assert again["results"] == resumed["results"]
    assert len(log.read_text().splitlines()) == 1 + 2 + 1 + 2  # header, kept, the torn line, replayed
    with pytest.raises(MatchError, match="another match"):
        run_match(MatchSpec((PY_BOT, f"{BUILTIN} random"), games=4, turn_limit=11, seed=3), log=log)


def test_options_reach_the_engines_that_declare_them(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["match", "-e", f"{MISBEHAVING} good", "-e", PY_BOT, "-n", "2", "--turn-limit", "4",
                                   "--option", "note=hello", "--option", "unknown=1", "--bot-logs", str(tmp_path)])
    assert res.exit_code == 0, res.output
    logs = {p.name: p.read_text() for p in tmp_path.iterdir()}
    assert logs["game-0000-seat-0.log"] == "set note hello\n" and logs["game-0001-seat-1.log"] == "set note hello\n"
    assert logs["game-0000-seat-1.log"] == ""  # the random bot declares no such option
    res = CliRunner().invoke(app, ["match", "-e", PY_BOT, "-e", PY_BOT, "--option", "noequals"])
    assert res.exit_code == 2 and "NAME=VALUE" in res.output


def test_duplicate_deals_rotate_the_engines() -> None:
    spec = MatchSpec(("a", "b", "c"), games=6)
    assert [spec.seating(i) for i in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert spec.settings(0)["seed"] == spec.settings(0)["seed"] != spec.settings(1)["seed"]


def test_the_sprt_stops_a_one_sided_match(tmp_path: Path) -> None:
    spec = MatchSpec((f"{BUILTIN} greedy", f"{MISBEHAVING} good"), games=60, sprt=(0.0, 100.0), turn_limit=30,
                     concurrency=2)
    result = run_match(spec)
    assert result.sprt is not None and result.sprt.verdict == "H1"
    assert len(result.records) < 60


def test_the_sprt_errs_at_its_stated_rate() -> None:
    """On a fair coin (H0 true at 0 Elo) the test should rarely accept H1 = +50 Elo."""
    rng = random.Random(1)
    wrong = 0
    for _ in range(200):
        w = d = lost = 0
        for _ in range(5000):
            r = rng.random()
            w, lost = w + (r < 0.5), lost + (r >= 0.5)
            state = sprt(w, d, lost, 0.0, 50.0)
            if state.verdict is not None:
                wrong += state.verdict == "H1"
                break
    assert wrong <= 200 * 0.05 * 2  # alpha 5%, with room for chance


def test_bad_match_settings_are_refused_before_any_game(tmp_path: Path) -> None:
    for spec, needle in [
        (MatchSpec((PY_BOT,)), "2 to 4"),
        (MatchSpec((PY_BOT, PY_BOT), games=0), "--games"),
        (MatchSpec((PY_BOT, PY_BOT, PY_BOT), sprt=(0, 50)), "two engines"),
        (MatchSpec((PY_BOT, PY_BOT), sprt=(50, 0)), "ELO0 < ELO1"),
        (MatchSpec((PY_BOT, PY_BOT), size=9), "--size"),
        (MatchSpec(("/no/such/bot", PY_BOT)), "cannot start"),
    ]:
        with pytest.raises(MatchError, match=needle):
            run_match(spec, log=tmp_path / "never.jsonl")
    assert not (tmp_path / "never.jsonl").exists()
    res = CliRunner().invoke(app, ["match", "--engine", "/no/such/bot", "--engine", PY_BOT])
    assert res.exit_code == 2 and "cannot start" in res.output


def test_the_match_command_prints_results_and_saves_games_that_open(tmp_path: Path) -> None:
    from starcom.sc.records import load
    res = CliRunner().invoke(app, ["match", "--engine", f"{BUILTIN} greedy", "--engine", PY_BOT, "--games", "2",
                                   "--save", str(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["games"] == 2 and {e["engine"] for e in data["engines"]} == {"starcom-greedy", "random-python"}
    assert all(r["reason"] for r in data["results"]) and data["round_trip_ms"]["median"] > 0
    for r in data["results"]:
        meta = load(r["saved"])[2]
        assert meta["game"].over and meta["agents"] == r["seats"]


def _decisions(seed: int, players: int, size: int) -> list[tuple[object, int]]:
    game = STARCOM.rules.new(players=players, size=size, seed=seed, turn_limit=15)
    rng = random.Random(seed)
    out = []
    for step in range(400):
        if game.over:
            break
        if step % 7 == 0:
            out.append((game.clone(), game.to_move))
        game.apply(rng.choice(game.legal_actions()))
    return out


@pytest.mark.parametrize(("players", "size"), [(2, 3), (3, 4), (4, 5)])
def test_a_decision_message_is_the_same_whatever_the_seat_cannot_see(players: int, size: int) -> None:
    """Twin games that differ only in what the seat cannot see (every hidden card redrawn, the
    seed and generator replaced: :meth:`Game.determinize`) give it the same messages."""
    checked = 0
    for seed in range(6):
        for game, seat in _decisions(seed, players, size):
            twin = game.determinize(seat, random.Random(seed * 1000 + checked))
            assert twin.to_json() != game.to_json()  # the twin really differs
            body = wire.decision(STARCOM, game, seat, 1, {"move_ms": 1, "bank_ms": 0})
            assert json.dumps(body, sort_keys=True) == json.dumps(
                wire.decision(STARCOM, twin, seat, 1, {"move_ms": 1, "bank_ms": 0}), sort_keys=True)
            checked += 1
    assert checked > 30


def test_newgame_does_not_send_the_seed() -> None:
    info = wire.game_info(STARCOM, {"players": 2, "size": 3, "seed": 12345}, 0, 2, {"move_ms": 1, "bank_ms": 0}, 2)
    assert "seed" not in info["settings"] and "12345" not in json.dumps(info)


def test_the_built_in_bot_plays_as_the_ai_does() -> None:
    """Behind the protocol the AI decides from the canonical position: the same choice as on
    the real game, with the same random source."""
    from starcom.sc.agents import make_agent
    agent = make_agent("greedy")
    for game, seat in _decisions(2, 2, 3)[:8]:
        body = wire.decision(STARCOM, game, seat, 1, {"move_ms": 1, "bank_ms": 0})
        position = type(game).from_json(body["position"])
        assert agent.choose(position, random.Random(9)) == agent.choose(game, random.Random(9))


def test_a_bot_that_cannot_start_is_named() -> None:
    with pytest.raises(BotFault, match="cannot start"):
        Bot("/no/such/program --flag")


def _client_link(client, link: str):
    """A seat link whose requests go to ``client``, a test client of the real server app."""
    from starcom.bots.link import SeatLink

    class ClientLink(SeatLink):
        def _call(self, method, path, body=None):
            r = client.request(method, path, json=body)
            return r.status_code, r.json()

    seat = SeatLink.parse("http://testserver" + link)
    return ClientLink(seat.base, seat.game_id, seat.token, seat.invite)


@pytest.mark.parametrize("command", [PY_BOT, f"{MISBEHAVING} illegal"], ids=["random", "illegal"])
def test_a_bot_plays_a_seat_of_a_server_game(make_client, command: str) -> None:
    """A bot linked to a seat plays a whole game against the server's AI; illegal answers are
    refused by the server, told to the bot, and the default move is played for it."""
    from api_helpers import create, state, tokens

    from starcom.bots.link import run_link
    c = make_client()
    game = create(c, players=2, size=3, seats=["human", "ai:random"], mode="vs_ai", turn_limit=8, seed=5)
    bot = Bot(command)
    said: list[str] = []
    try:
        bot.handshake()
        final = run_link(_client_link(c, game["links"]["seats"]["0"]), bot, say=said.append, poll=0.01)
    finally:
        bot.close()
    assert final["over"] and state(c, game["game_id"])["over"]
    assert any(s.startswith("played") for s in said)
    if "illegal" in command:
        assert any(s.startswith("refused") for s in said) and any("default move" in s for s in said)


def test_the_decision_endpoint_needs_a_seat_and_hides_the_rest(make_client) -> None:
    from api_helpers import create, tokens
    c = make_client()
    game = create(c, players=2, size=3, seats=["human", "human"], mode="hotseat", seed=12345)
    gid, tok = game["game_id"], tokens(game)
    assert c.get(f"/api/games/{gid}/decision").status_code == 403
    assert c.get(f"/api/games/{gid}/decision", params={"seat": "x" * 20}).status_code == 403
    mine = c.get(f"/api/games/{gid}/decision", params={"seat": tok[0]}).json()
    other = c.get(f"/api/games/{gid}/decision", params={"seat": tok[1]}).json()
    to_move = mine["decide"]["seat"] if mine["decide"] else other["decide"]["seat"]
    waiting = other if to_move == 0 else mine
    assert waiting["decide"] is None and "seed" not in waiting["game"]["settings"]
    assert "12345" not in json.dumps(waiting)


def test_a_bot_takes_an_invited_seat_of_an_online_game(make_client) -> None:
    """The creator plays seat 0 (here: the first legal action each time, as a browser would
    send it); the bot claims seat 1's invitation and plays it to the end."""
    import threading
    import time

    from api_helpers import create, state
    from starcom.bots.link import run_link
    c = make_client()
    game = create(c, players=2, size=3, mode="online", turn_limit=6)
    gid, mine = game["game_id"], game["seats"][0]["token"]
    link = _client_link(c, game["links"]["invites"]["1"]).claimed()
    assert link.token and link.link.endswith(f"?seat={link.token}")
    bot = Bot(PY_BOT)
    bot.handshake()
    done = threading.Event()
    runner = threading.Thread(target=lambda: (run_link(link, bot, poll=0.01), done.set()), daemon=True)
    runner.start()
    deadline = time.monotonic() + 60
    try:
        while not done.is_set() and runner.is_alive() and time.monotonic() < deadline:
            s = state(c, gid, mine)
            if s["over"]:
                break
            if s["to_move"] == 0 and s["legal"] and not s["passing"]:
                c.post(f"/api/games/{gid}/actions", json={"seat": mine, "action": s["legal"][0]["action"],
                                                          "expect_step": s["step"]})
        runner.join(30)
    finally:
        bot.close()
    assert done.is_set() and state(c, gid)["over"]


def test_a_bad_seat_link_is_named() -> None:
    from starcom.bots.link import LinkError, SeatLink
    assert SeatLink.parse("http://h:8000/game/ab12?seat=TOK") == SeatLink("http://h:8000", "ab12", "TOK")
    assert SeatLink.parse("http://h:8000/game/ab12?invite=C") == SeatLink("http://h:8000", "ab12", "", "C")
    for bad in ("h:8000/game/ab12?seat=T", "http://h:8000/game/ab12", "http://h:8000/replay/ab12?seat=T"):
        with pytest.raises(LinkError, match="not a seat link"):
            SeatLink.parse(bad)
    res = CliRunner().invoke(app, ["bot-link", "http://127.0.0.1:9/game/ab12?seat=TOKEN", "--engine", PY_BOT])
    assert res.exit_code == 1 and "cannot reach the server" in res.output
