"""The seam holds: another game (High Card, with a hidden card per seat: the test plug-in
installed from tests/plugins/highcard) plugs into the registry and is played by the random and
ISMCTS agents, the one play loop, self-play, the arena, the server (HTTP and WebSocket) and the
text client, with no change to any of them."""
from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest

import starcom
from starcom.agents.ismcts import Ismcts
from starcom.protocol import Game
from starcom.server.adapter import EntryAdapter, adapter_for
from starcom.sim.arena import ArenaSpec, run_arena
from starcom.sim.play import play
from starcom.sim.selfplay import run_selfplay
from starcom.tui.textplay import play_text

from .conftest import create, state, tokens, wait_for

try:
    from starcom_highcard.agents import HighCardDomain, make_agent
    from starcom_highcard.entry import ENTRY
    from starcom_highcard.game import ACTIONS, NAME, ROUNDS, HighCard
except ModuleNotFoundError as exc:  # scripts/test.sh installs it; say how when it is missing
    raise ModuleNotFoundError(f"{exc}: install the test game first: pip install -e tests/plugins/highcard") from exc


def test_games_are_found_by_name():
    assert {"starcom", NAME} <= set(starcom.list_games())
    g = starcom.load_game(NAME, players=3, seed=5)
    assert isinstance(g, HighCard) and isinstance(g, Game) and g.players == 3
    sc = starcom.load_game("starcom", players=2, size=3, seed=1)
    assert sc.to_move == 0 and sc.returns() == [0.0, 0.0]
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        starcom.load_game("chess")
    with pytest.raises(ValueError, match="takes no setting 'colour'"):
        starcom.load_game(NAME, colour="red")


def test_high_card_keeps_the_protocol():
    g = starcom.load_game(NAME, players=2, seed=3)
    saved = json.loads(json.dumps(g.to_json()))
    assert HighCard.from_json(saved).to_json() == g.to_json()
    for a in g.legal_actions():
        assert g.parse(g.notation(a)) == a
    with pytest.raises(ValueError):
        g.apply(("fold",))
    with pytest.raises(ValueError):
        g.apply(("keep",), player=1)
    assert g.view(1)["hands"] == [None, g.hands[1]] and g.view(None)["hands"] == [None, None]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_and_search_agents_finish_games(players):
    legal_each_time: list[bool] = []
    for seed in range(3):
        g = starcom.load_game(NAME, players=players, seed=seed)
        agents = [make_agent("ismcts" if s % 2 else "random", iterations=30) for s in range(players)]
        out = play(g, agents, [random.Random(s) for s in range(players)],
                   on_step=lambda step: legal_each_time.append(step.action in ACTIONS))
        assert g.over and out.error is None
        assert out.steps == players * ROUNDS and max(g.returns()) == 1.0
    assert len(legal_each_time) == 3 * players * ROUNDS and all(legal_each_time)


def test_search_is_deterministic_and_blind_to_the_hidden_card():
    """Twins differing only in the card of seat 1 (swapped with one deep in the deck) get the
    same search result for seat 0 under one seed and budget."""
    g = starcom.load_game(NAME, players=2, size=6, seed=8)
    twin = g.clone()
    twin.hands[1], twin.deck[-1] = twin.deck[-1], twin.hands[1]
    assert twin.hands[1] != g.hands[1]
    agent = Ismcts(HighCardDomain(), think=None, iterations=80)
    first = agent.search(g, random.Random(4))
    assert agent.search(g, random.Random(4)) == first
    assert agent.search(twin, random.Random(4)) == first


def test_self_play_and_the_arena_take_the_second_game():
    stats = run_selfplay(4, players=2, seed=3, agents=("random", "ismcts"), game=NAME, iterations=20)
    s = stats.summary()
    assert s["games"] == 4 and s["finished"] == 4 and s["errors"] == 0
    assert sum(s["wins"].values()) == 4 and s["mean_turns"] == ROUNDS  # the round counter ends there
    spec = ArenaSpec(("random", "ismcts"), games=4, seed=2, iterations=20, game=NAME)
    res = run_arena(spec)
    assert [r.error for r in res.records] == [None] * 4 and all(r.finished for r in res.records)
    assert run_arena(spec).records == res.records
    assert res.summary()["config"]["game"] == NAME
    with pytest.raises(ValueError, match="unknown agent 'greedy'"):
        ArenaSpec(("random", "greedy"), games=1, game=NAME).check()


def test_bots_play_the_second_game_over_the_protocol():
    """The bot protocol's host knows no game: the reference bot (which has no rules engine)
    plays High Card through it, and each decision it gets is the same in twin games that
    differ in a hidden card."""
    import sys
    from pathlib import Path

    from starcom.bots import wire
    from starcom.bots.host import Bot, Clock, play_game
    entry = starcom.games.get(NAME)
    bot_file = Path(__file__).resolve().parents[2] / "examples/bots/random_bot.py"
    bots = [Bot([sys.executable, str(bot_file)]) for _ in range(2)]
    try:
        for b in bots:
            b.handshake()
        out = play_game(entry, {"players": 2, "seed": 4}, bots, [Clock(), Clock()])
    finally:
        for b in bots:
            b.close()
    assert out.over and out.faulty is None and all(s.decisions and not s.illegal for s in out.seats)
    game = starcom.load_game(NAME, players=2, seed=4)
    seat = game.to_move
    twin = next(t for t in (game.determinize(seat, random.Random(k)) for k in range(50))
                if t.to_json() != game.to_json())  # a twin whose hidden cards really differ
    clock = {"move_ms": 1, "bank_ms": 0}
    assert wire.decision(entry, game, seat, 1, clock) == wire.decision(entry, twin, seat, 1, clock)


# --------------------------------------------------------------------------- the server


@pytest.fixture
def highcard_client(make_client):
    """A server whose new games are High Card (the stored config names the game)."""
    c = make_client()
    c.app.state.manager.adapter = adapter_for(NAME)
    return c


def test_the_server_plays_the_second_game(highcard_client):
    c = highcard_client
    g = create(c, mode="hotseat", players=2)
    gid, toks = g["game_id"], tokens(g)
    first = state(c, gid, toks[0])
    assert first["view"]["hands"][1] is None and first["view"]["hands"][0] is not None
    assert [e["action"] for e in first["legal"]] == [{"type": "keep"}, {"type": "swap"}]
    r = c.post(f"/api/games/{gid}/actions", json={"seat": toks[0], "action": {"type": "fold"}})
    assert r.status_code == 400 and "not a legal action" in r.json()["error"]
    with c.websocket_connect(f"/ws/games/{gid}?seat={toks[1]}") as ws:
        assert ws.receive_json()["view"]["hands"][0] is None
        for step in range(2 * ROUNDS):
            seat = step % 2
            r = c.post(f"/api/games/{gid}/actions", json={"seat": toks[seat], "action": {"type": "swap"}})
            assert r.status_code == 200, r.text
            msg = ws.receive_json()
            assert msg["step"] == step + 1
            if not msg["over"]:
                assert msg["view"]["hands"][0] is None
    end = state(c, gid)
    assert end["over"] and None not in end["view"]["hands"]
    assert end["winner"] == end["view"]["hands"].index(max(end["view"]["hands"]))
    assert any(line.startswith("Game over") for line in end["log"])
    assert c.get(f"/api/games/{gid}/summary").json()["winner"] == end["winner"]


def test_the_server_runs_the_second_games_ai(highcard_client):
    c = highcard_client
    r = c.post("/api/games", json={"players": 2, "seats": ["human", "ai:greedy"]})
    assert r.status_code == 400 and "High Card has no AI 'greedy'" in r.json()["error"]
    g = create(c, players=2, seats=["human", "ai:normal"])
    gid, tok = g["game_id"], tokens(g)[0]
    for _ in range(ROUNDS):
        st = state(c, gid, tok)
        assert st["to_move"] == 0
        assert c.post(f"/api/games/{gid}/actions", json={"seat": tok, "action": {"type": "keep"}}).status_code == 200
        wait_for(lambda: state(c, gid, tok)["to_move"] in (0, None))
    assert state(c, gid)["over"]


def test_a_star_commander_server_makes_the_game_a_request_names(make_client):
    c = make_client()  # a server whose own game is Star Commander
    settings = c.get("/api/settings").json()
    assert settings["game"] == "starcom"
    high_card = next(g for g in settings["games"] if g["name"] == NAME)
    assert high_card["title"] == "High Card" and high_card["players"] == [2, 3, 4]
    assert high_card["help"] is None and high_card["cards"] is None  # it has neither page
    assert high_card["turn_limit_words"] == ""  # it says nothing of a turn limit
    words = {g["name"]: g["turn_limit_words"] for g in settings["games"]}
    assert "every player's turn" in words["starcom"] and "rounds" in words["ge"]
    r = c.post("/api/games", json={"game": "chess", "mode": "hotseat"})
    assert r.status_code == 400 and "game 'chess'" in r.json()["error"] and NAME in r.json()["error"]
    assert c.post("/api/games", json={"game": 7, "mode": "hotseat"}).status_code == 400
    g = create(c, game=NAME, mode="hotseat", players=3)
    gid, toks = g["game_id"], tokens(g)
    first = state(c, gid, toks[0])
    assert [e["action"] for e in first["legal"]] == [{"type": "keep"}, {"type": "swap"}]
    assert first["view"]["hands"][1] is None
    assert c.post(f"/api/games/{gid}/actions", json={"seat": toks[0], "action": {"type": "keep"}}).status_code == 200
    # The server's own game is still the default, and names itself in the request too.
    for body in ({"mode": "hotseat"}, {"game": "starcom", "mode": "hotseat"}):
        sc = create(c, **body)
        assert state(c, sc["game_id"], tokens(sc)[0])["view"]["board"], body
    c.__exit__(None, None, None)  # a restart: the stored High Card game comes back as High Card
    c.__enter__()
    again = state(c, gid, toks[1])
    assert again["step"] == 1 and again["to_move"] == 1 and again["view"]["hands"][0] is None


class _TwinAdapter(EntryAdapter):
    """Builds the twin of each game: seat 1's card swapped with the deck's last card, which no
    swap of a 2-player game of High Card can reach."""

    def create(self, config: Any) -> Any:
        g = super().create(config)
        g.hands[1], g.deck[-1] = g.deck[-1], g.hands[1]
        g.events = [("deal", p, c) for p, c in enumerate(g.hands)]
        return g


def test_twins_differing_in_a_hidden_card_look_the_same_to_seat_0(make_client):
    clients = [make_client(), make_client()]
    clients[0].app.state.manager.adapter = adapter_for(NAME)
    clients[1].app.state.manager.adapter = _TwinAdapter(ENTRY)
    games = [create(c, mode="hotseat", players=2, size=5, seed=77) for c in clients]
    seen: list[list[str]] = [[], []]
    differ = []
    for i, (c, g) in enumerate(zip(clients, games)):
        gid, toks = g["game_id"], tokens(g)
        differ.append(c.app.state.manager.sessions[gid].game.hands[1])
        with c.websocket_connect(f"/ws/games/{gid}?seat={toks[0]}") as ws0, \
                c.websocket_connect(f"/ws/games/{gid}") as spectator:
            msgs = [ws0.receive_json(), spectator.receive_json()]
            for step, kind in enumerate(["swap", "keep", "keep", "swap"]):
                seat = step % 2
                assert c.post(f"/api/games/{gid}/actions",
                              json={"seat": toks[seat], "action": {"type": kind}}).status_code == 200
                msgs += [ws0.receive_json(), spectator.receive_json()]
        for m in msgs:
            if not m["over"]:
                seen[i].append(json.dumps(m, sort_keys=True).replace(gid, "GAME"))
    assert differ[0] != differ[1]  # the twins do differ, in seat 1's card
    assert len(seen[0]) == 8 and seen[0] == seen[1]


# --------------------------------------------------------------------------- the text client


def test_the_text_client_plays_the_second_game():
    g = starcom.load_game(NAME, players=2, seed=6)
    hidden = f"P1 is dealt the {g.hands[1]}"
    out = io.StringIO()
    answers = iter(["x", "9", "swap", "1"])
    final = play_text(ENTRY, g, ["human", "random"], agent_seed=1, ask=lambda _prompt: next(answers),
                      write=out.write)
    text = out.getvalue()
    assert final.over and "Game over" in text
    assert "not one of the choices" in text  # "x" and "9" were refused, then "swap" and "1" taken
    assert "P1 is dealt a card" in text and hidden not in text


def test_the_text_client_plays_star_commander():
    g = starcom.load_game("starcom", players=2, size=3, seed=2, turn_limit=2)
    out = io.StringIO()
    # always "1", never a y/n: no confirmation asked (as with --yes), or it would be asked forever
    final = play_text(starcom.games.get("starcom"), g, ["human", "easy"], agent_seed=1, ask=lambda _p: "1",
                      write=out.write, confirm=False)
    assert final.over and "Game over" in out.getvalue()


# --------------------------------------------------------------------------- one door for secrecy

CLIENTS = ("agents", "sim", "server", "tui", "cli", "sc/text.py", "games.py")


def test_star_commander_keeps_the_protocol():
    g = starcom.load_game("starcom", players=2, size=3, seed=4)
    assert isinstance(g, Game)
    assert type(g).from_json(json.loads(json.dumps(g.to_json()))).to_json() == g.to_json()


def test_clients_ask_the_observer_not_the_engines_view_module():
    """Secrecy is decided in one place: clients reach the engine's view rules only through
    :mod:`starcom.observer` (which a second game replaces with its own)."""
    from pathlib import Path
    root = Path(starcom.__file__).parent
    offenders = []
    for part in CLIENTS:
        for path in ([root / part] if part.endswith(".py") else sorted((root / part).rglob("*.py"))):
            text = path.read_text()
            if "engine.view import" in text or "engine import view" in text:
                offenders.append(str(path.relative_to(root)))
    assert offenders == []
