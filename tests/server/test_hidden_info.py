"""Hidden information: every message the server sends to a seat (or a spectator) is checked against
the full engine state of that moment. Other players' hand cards, deck contents and face-down
systems must not appear: not as card ids in the view or the legal actions, not by name in the
log lines or action texts (unless that name is public at the time), and face-down systems carry
no identity at all."""
from __future__ import annotations

import copy
import random
import re
from typing import Any, Iterator

import pytest

from starcom.cards.catalogue import CARD_DEF
from starcom.engine.view import _card_choice

from .conftest import create, tokens

# Action fields that hold card instance ids (build's "card" is a card *type* index).
CARD_FIELDS = {"play": ("card",), "ability": ("source",), "sell": ("card", "other"), "accept": ("cards",)}


def _ints(x: Any) -> Iterator[int]:
    if isinstance(x, bool):
        return
    if isinstance(x, int):
        yield x
    elif isinstance(x, list):
        for y in x:
            yield from _ints(y)


def view_card_ids(view: dict[str, Any]) -> set[int]:
    """Every card instance id the view shows, found structurally."""
    out: set[int] = set()

    def walk(o: Any) -> None:
        if isinstance(o, dict):
            for k, v in o.items():
                if k in ("id", "card_id") and isinstance(v, int):
                    out.add(v)
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(view)
    ch = view.get("choice")
    if ch and "options" in ch and _card_choice(ch["kind"]):
        out |= set(_ints(ch["options"]))
    tr = view.get("trade")
    if tr:
        for kind, val in tr["give"] + tr["ask"]:
            if kind == "card" and isinstance(val, int):
                out.add(val)
    return out


def action_card_ids(action: dict[str, Any], view: dict[str, Any]) -> set[int]:
    kind = action["type"]
    out = set()
    for f in CARD_FIELDS.get(kind, ()):
        out |= set(_ints(action.get(f)))
    if kind in ("give", "ask") and action.get("item") == "card":
        out |= set(_ints(action.get("value")))
    if kind == "choose" and view.get("choice") and _card_choice(view["choice"]["kind"]):
        out |= set(_ints(action.get("value")))
    return out


def public_names(view: dict[str, Any]) -> set[str]:
    """Card names the view shows openly (card entries, face-up systems, vessels, supply)."""
    names: set[str] = set(view["supply"])

    def walk(o: Any) -> None:
        if isinstance(o, dict):
            if isinstance(o.get("name"), str) and ("id" in o):
                names.add(o["name"])
            if o.get("face_up") and isinstance(o.get("card"), str):
                names.add(o["card"])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(view)
    return names


def _mentions(line: str, name: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", line) is not None


class Watcher:
    """Checks the messages of one seat (None: a spectator) against the full state."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.known: set[int] = set()   # cards this seat has legitimately seen (own hand, reveals)
        self.prev_log: list[str] = []
        self.prev_public: set[str] = set()
        self.checked = 0

    def learn(self, g: Any) -> None:
        """Record what the rules show this seat in the position ``g``."""
        p = self.seat
        if p is None:
            return
        self.known |= set(g.hands[p])
        if g.choice is not None and g.choice["player"] == p and _card_choice(g.choice["kind"]):
            self.known |= set(_ints(list(g.choice["options"])))
        if g.trade is not None and (p == g.active or (p == g.trade["to"] and g.step == "trade_answer")):
            self.known |= {v for k, v in g.trade["give"] if k == "card"}

    def hidden(self, g: Any) -> set[int]:
        ids: set[int] = set(g.sysdeck)
        for q in range(g.cfg.players):
            if q != self.seat:
                ids |= set(g.hands[q])
        for deck in g.decks:
            ids |= set(deck)
        ids |= {s.card for s in g.sites if not s.face_up}
        return ids - self.known

    def new_lines(self, log: list[str]) -> list[str]:
        prev = self.prev_log
        for shift in range(len(prev) + 1):
            if prev[shift:] == log[:len(prev) - shift]:
                return log[len(prev) - shift:]
        raise AssertionError("the log was rewritten")

    def check(self, msg: dict[str, Any], g: Any) -> None:
        """Fail if ``msg`` (a state message for this seat) shows anything hidden from it in ``g``."""
        assert msg["type"] == "state" and msg["seat"] == self.seat
        self.learn(g)
        view = msg["view"]
        hidden = self.hidden(g)
        leaked = view_card_ids(view) & hidden
        assert not leaked, f"seat {self.seat} view shows hidden cards {sorted(leaked)}"
        assert all(isinstance(n, int) for n in view["decks"]) and isinstance(view["system_deck"], int)
        for site in view["board"]:
            if not site["face_up"]:
                assert not {"card", "card_id", "domain", "text", "max_dev"} & set(site), site
        if self.seat is None:
            assert view["hand"] is None and msg["legal"] == []
        for entry in msg["legal"]:
            bad = action_card_ids(entry["action"], view) & hidden
            assert not bad, f"seat {self.seat} legal action {entry} names hidden cards {bad}"
        public = public_names(view) | self.prev_public
        secret_names = {CARD_DEF[c].name for c in hidden} - public
        for line in self.new_lines(msg["log"]) + [e["text"] for e in msg["legal"]]:
            for name in secret_names:
                assert not _mentions(line, name), f"seat {self.seat} sees hidden card {name!r} in {line!r}"
        self.prev_log = list(msg["log"])
        self.prev_public = public_names(view)
        self.checked += 1


def pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    kinds = sorted({e["action"]["type"] for e in legal})
    kind = rng.choice(kinds)
    return rng.choice([e for e in legal if e["action"]["type"] == kind])["action"]


def _receive_state(ws: Any, step: int) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] == "state" and msg["step"] == step:
            return msg


@pytest.mark.parametrize("players,size,edition,seed", [(2, 3, "standard", 1), (3, 4, "classic", 2),
                                                       (4, 3, "standard", 3), (2, 4, "classic", 5),
                                                       (3, 3, "standard", 6), (4, 4, "classic", 7)])
def test_no_message_reveals_hidden_information(make_client, players, size, edition, seed):
    client = make_client(rate_limit=1_000_000)  # the test plays far faster than a person
    g = create(client, mode="online", players=players, size=size, edition=edition, seed=seed, turn_limit=14,
               seats=["human"] * players)
    gid, toks = g["game_id"], tokens(g)
    session = client.app.state.manager.get(gid)
    rng = random.Random(seed)
    viewers: list[int | None] = [*range(players), None]
    watchers = {v: Watcher(v) for v in viewers}
    sockets: dict[int | None, Any] = {}
    try:
        for v in viewers:
            url = f"/ws/games/{gid}" + (f"?seat={toks[v]}" if v is not None else "")
            sockets[v] = client.websocket_connect(url).__enter__()
        latest = {v: _receive_state(sockets[v], 0) for v in viewers}
        for step in range(0, 400):
            game = client.app.state.manager.sessions[gid].game
            for v in viewers:
                watchers[v].check(latest[v], game)
            if game.over:
                break
            mover = game.to_move
            action = pick(latest[mover]["legal"], rng)
            sockets[mover].send_json({"type": "action", "action": action, "expect_step": step})
            latest = {v: _receive_state(sockets[v], step + 1) for v in viewers}
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    assert session.step > 25
    assert all(w.checked > 25 for w in watchers.values())


def test_watcher_catches_planted_leaks(make_client):
    """The checks above can fail: plant each kind of leak in a real message."""
    client = make_client(rate_limit=1_000_000)
    g = create(client, mode="online", seed=7, seats=["human", "human"])
    gid, toks = g["game_id"], tokens(g)
    game = client.app.state.manager.get(gid).game
    rng = random.Random(7)
    while not (game.hands[0] and game.hands[1]):  # play on until both players hold cards
        mover = game.to_move
        legal = client.get(f"/api/games/{gid}", params={"seat": toks[mover]}).json()["legal"]
        r = client.post(f"/api/games/{gid}/actions", json={"seat": toks[mover], "action": pick(legal, rng)})
        assert r.status_code == 200
    msg = client.get(f"/api/games/{gid}", params={"seat": toks[0]}).json()
    msg["type"] = "state"
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
