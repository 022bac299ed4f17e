"""Hidden information through the server: whole games of both editions for 2, 3 and 4 players are
played through the HTTP/WebSocket API (hot-seat, so one client holds every seat's token), with a
WebSocket per seat and a spectator's open the whole time. Every message each of them receives,
the HTTP state of every seat now and then, and the answers to illegal probing actions are held
against the full engine state of their moment (see ``secrecy.Watcher``):

- no ``seed`` key anywhere before the game is over (the seed gives every hand and deck away);
- no card a seat could not know (another hand, a deck, the system deck, a face-down system) as
  an id in the view or the legal actions, or by name in a log line, action text or error;
- face-down systems carry no identity at all;
- refusals do not depend on where a hidden card is: playing, selling, giving, choosing... a card
  that sits in another hand, in a deck, face down on the board or in the system deck gets the
  very same answer (status and body), over HTTP and WebSocket alike.
"""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from starcom.sc.cards.catalogue import CARD_DEF, DOMAINS
from starcom.sc.engine import actions as A
from starcom.sc.engine.actions import to_json
from starcom.sc.engine.game import Game

from .conftest import create, state, tokens
from .secrecy import (EDITIONS, Table, Watcher, assert_no_seed, hook_games, ints, manual_passes, pick, pick_lively,
                      probes, public_names, seeded)

SEED = 7_654_321   # the games' seed (the hook puts it in place of the server's own)


Slot = tuple  # ("hand", seat, i) | ("deck", domain, i) | ("site", pos) | ("sysdeck", i)


def card_at(g: Game, slot: Slot) -> int:
    kind, *at = slot
    if kind == "site":
        return g.sites[at[0]].card
    return (g.hands[at[0]][at[1]] if kind == "hand" else g.decks[at[0]][at[1]] if kind == "deck"
            else g.sysdeck[at[0]])


def put(g: Game, slot: Slot, cid: int) -> None:
    kind, *at = slot
    if kind == "site":
        g.sites[at[0]].set_card(cid, g.rules.cards[cid])
    elif kind == "hand":
        g.hands[at[0]][at[1]] = cid
    elif kind == "deck":
        g.decks[at[0]][at[1]] = cid
    else:
        g.sysdeck[at[0]] = cid


def swap(g: Game, a: Slot, b: Slot) -> None:
    """Exchange the cards at two places of the live game (its own inverse)."""
    x, y = card_at(g, a), card_at(g, b)
    put(g, a, y)
    put(g, b, x)


def hidden_slots(g: Game, hidden: set[int], seat: int, d: int) -> list[Slot]:
    """The places hidden from ``seat`` where a card of domain ``d`` (-1: a system) could be, each
    holding a card the seat does not know (in ``hidden``): for a domain, the other hands' cards
    of that domain and the top and bottom of its deck; for systems, the face-down sites and the
    top and bottom of the system deck."""
    if d >= 0:
        slots = [("hand", q, i) for q, h in enumerate(g.hands) if q != seat
                 for i, c in enumerate(h) if CARD_DEF[c].domain_index == d]
        slots += [("deck", d, i) for i in sorted({0, len(g.decks[d]) - 1}) if g.decks[d]]
    else:
        slots = [("site", pos) for pos, s in enumerate(g.sites) if not s.face_up]
        slots += [("sysdeck", i) for i in sorted({0, len(g.sysdeck) - 1}) if g.sysdeck]
    return [s for s in slots if card_at(g, s) in hidden]


def probe_round(table: Table, watchers: dict[Any, Watcher]) -> int:
    """Probe the seat to move with actions naming a hidden card (a domain card and a system),
    the card moved in turn to every hidden place it could be (the test swaps it there in the
    live game, and back): each action must get the same answer, status and body, wherever the
    card is. Also as a seat not to move, and once over the WebSocket. Returns the probes sent."""
    g = table.game
    mover = g.to_move
    other = (mover + 1) % g.cfg.players
    before = g.to_json()
    legal = [to_json(a) for a in g.legal_actions()]
    hidden = watchers[mover].hidden(g)
    domain = next((s for s in (hidden_slots(g, hidden, mover, d) for d in range(len(DOMAINS))) if len(s) > 1), [])
    places = [slots for slots in (domain, hidden_slots(g, hidden, mover, -1)) if len(slots) > 1]
    sent = 0
    for slots in places:  # a domain card, then a system
        home = slots[0]
        x = card_at(g, home)
        answers: dict[str, dict[Slot, Any]] = {}
        for slot in slots:
            swap(g, home, slot)  # x is now at ``slot``
            try:
                asks = [(mover, a) for a in probes(g, mover, x) if a not in legal] + [(other, probes(g, mover, x)[0])]
                for who, action in asks:
                    status, body = table.post(who, action)
                    sent += 1
                    assert status >= 400, (slot, action, body)
                    watchers[who].check_error(body, g, {x, *g.hands[mover][:1]})
                    answers.setdefault(f"P{who} {action['type']}", {})[slot] = (status, body)
            finally:
                swap(g, home, slot)
        for asked, by_place in answers.items():
            assert len({repr(a) for a in by_place.values()}) == 1, \
                f"{asked} of a hidden card is answered according to where it is: {by_place}"
    assert g.to_json() == before
    if places:
        action = probes(g, mover, card_at(g, places[0][0]))[0]
        table.send(mover, action)
        err = table.next_error(mover)
        assert {k: v for k, v in err.items() if k != "type"} == table.post(mover, action)[1]
        sent += 1
    return sent


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", (2, 3, 4))
def test_whole_games_show_each_seat_only_what_it_may_know(make_client, monkeypatch, players, edition):
    built = hook_games(monkeypatch, seeded(SEED + players))
    client = make_client(rate_limit=1_000_000)  # the test plays far faster than a person
    created = create(client, mode="hotseat", players=players, size=3 if players < 4 else 4, edition=edition,
                     turn_limit=10)
    manual_passes(client, created)
    assert_no_seed(created, "the create answer")
    assert len(tokens(created)) == players
    listed = client.get("/api/games").json()
    assert_no_seed(listed, "the list of games")
    assert built, "the server did not build its game with adapter.Game.from_config"
    live = built[-1]

    watchers = {v: Watcher(v) for v in (*range(players), None)}
    moments: dict[int, tuple[Game, list[tuple]]] = {0: (live.clone(), list(live.events))}

    def moment(step: int) -> tuple[Game, list[tuple]]:
        """The full state when the server reached ``step``, taken when it is first heard of."""
        if step not in moments:
            assert step == max(moments) + 1, (step, max(moments))
            moments[step] = (live.clone(), list(live.events))
        return moments[step]

    def on_message(v: Any, text: str, msg: dict[str, Any]) -> None:
        if msg.get("type") == "state":
            watchers[v].check(msg, *moment(msg["step"]))
        else:
            assert msg.get("type") in ("error", "pong"), msg
            watchers[v].check_error(msg, live, set(ints(table.sent.get(v))))

    rng = random.Random(f"{players}-{edition}")
    probed = 0
    with Table(client, created, live, on_message) as table:
        step = 0
        table.sync(0)
        while not live.over:
            assert step < 1500, "the game does not end"
            if step % 4 == 0:
                for v in table.viewers:
                    msg = state(client, created["game_id"], table.tokens.get(v) if v is not None else None)
                    watchers[v].check(msg, *moment(msg["step"]))
            if step % 25 == 3 or (live.decision in ("trade_build", "trade_answer", "choice") and probed < 400):
                probed += probe_round(table, watchers)
            mover = live.to_move
            # Trading ships and systems away ends a random game within a few turns.
            keep = [e for e in table.latest[mover]["legal"] if e["action"].get("item") not in ("vessel", "system")]
            action = pick_lively(keep, rng)
            if step % 5 == 0:  # now and then over HTTP, mostly over the mover's socket
                status, body = table.post(mover, action)
                assert status == 200, body
                if not live.over:
                    assert_no_seed(body, "an action's answer")
            else:
                table.send(mover, action)
            step += 1
            table.sync(step)
    assert step > 25 and probed > 100
    assert all(w.checked > step for w in watchers.values())


def test_watcher_catches_planted_leaks(make_client, monkeypatch):
    """The checks above can fail: plant each kind of leak in a real message."""
    built = hook_games(monkeypatch, seeded(7))
    client = make_client(rate_limit=1_000_000)
    created = create(client, mode="hotseat", players=2, turn_limit=200)
    manual_passes(client, created)
    gid, toks = created["game_id"], tokens(created)
    game = built[-1]
    rng = random.Random(7)
    while not (game.hands[0] and game.hands[1]):  # play on until both players hold cards
        mover = game.to_move
        legal = state(client, gid, toks[mover])["legal"]
        r = client.post(f"/api/games/{gid}/actions", json={"seat": toks[mover], "action": pick(legal, rng)})
        assert r.status_code == 200
    msg = state(client, gid, toks[0])
    Watcher(0).check(copy.deepcopy(msg), game)  # the real message passes

    other = game.hands[1][0]
    leak = copy.deepcopy(msg)
    leak["view"]["hand"].append({"id": other, "name": CARD_DEF[other].name})
    with pytest.raises(AssertionError, match="hidden cards"):
        Watcher(0).check(leak, game)

    top = game.decks[0][-1]
    leak = copy.deepcopy(msg)
    leak["view"]["discards"][0].append({"id": top, "name": CARD_DEF[top].name})
    with pytest.raises(AssertionError, match="hidden cards"):
        Watcher(0).check(leak, game)

    down = next(i for i, s in enumerate(game.sites) if not s.face_up)
    leak = copy.deepcopy(msg)
    leak["view"]["board"][down]["card"] = CARD_DEF[game.sites[down].card].name
    with pytest.raises(AssertionError):
        Watcher(0).check(leak, game)

    secret = next(c for c in sorted(Watcher(0).hidden(game)) if CARD_DEF[c].name not in public_names(msg["view"]))
    leak = copy.deepcopy(msg)
    leak["log"].append(f"P1 draws {CARD_DEF[secret].name}")
    with pytest.raises(AssertionError, match="hidden card"):
        Watcher(0).check(leak, game)

    leak = copy.deepcopy(msg)
    leak["legal"].append({"action": {"type": "play", "card": other, "targets": []}, "text": "x"})
    with pytest.raises(AssertionError, match="legal action"):
        Watcher(0).check(leak, game)

    leak = copy.deepcopy(msg)
    leak["view"]["config"]["seed"] = 7
    with pytest.raises(AssertionError, match="seed"):
        Watcher(0).check(leak, game)

    with pytest.raises(AssertionError, match="hidden card"):
        Watcher(0).check_error({"error": f"PLAY-1: {CARD_DEF[secret].name} is in P1's hand", "rule": None}, game)


def test_probes_catch_refusals_that_depend_on_where_a_card_is(make_client, monkeypatch):
    """The probes above can fail: an engine that refuses to play a card of a deck in other
    words than a card of another hand is caught. (The engine's refusal is replaced: on the pure
    build, see tests/pure_build.py.)"""
    from pure_build import rerun_on_pure
    if rerun_on_pure(__file__, "test_probes_catch_refusals_that_depend_on_where_a_card_is"):
        return
    built = hook_games(monkeypatch, seeded(7))
    client = make_client(rate_limit=1_000_000)
    created = create(client, mode="hotseat", players=2, turn_limit=200)
    manual_passes(client, created)
    game = built[-1]
    rng = random.Random(7)
    while not (game.hands[1] and game.to_move == 0):  # until P1 holds a card and P0 is to move
        mover = game.to_move
        legal = state(client, created["game_id"], tokens(created)[mover])["legal"]
        r = client.post(f"/api/games/{created['game_id']}/actions",
                        json={"seat": tokens(created)[mover], "action": pick(legal, rng)})
        assert r.status_code == 200
    why = A.why_illegal

    def telling(g: Game, a: Any) -> str | None:
        if a[0] == "play" and any(a[1] in deck for deck in g.decks):
            return "PLAY-1: that card is still in a deck"
        return why(g, a)

    monkeypatch.setattr(A, "why_illegal", telling)
    watchers = {v: Watcher(v) for v in (0, 1, None)}
    for w in watchers.values():
        w.learn(game, [])
    with Table(client, created, game, lambda *_: None) as table:
        table.sync(state(client, created["game_id"])["step"])
        with pytest.raises(AssertionError, match="according to where it is"):
            probe_round(table, watchers)
