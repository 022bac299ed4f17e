"""Tools for the server's secrecy tests (test_hidden_info.py, test_twin_games.py): a checker that
holds every message of one seat against the full engine state of its moment, a table that plays
a game through the HTTP/WebSocket API with one socket per seat and a spectator and reads every
message they get, and a hook on the server's game construction.

Only the public API is used, plus one hook: the server builds each game with
``Game.from_config`` in ``starcom.server.sessions``; :func:`hook_games` replaces that, so the test
decides the game (its seed, or a twin of another game) and holds the live engine state to compare
messages against.
"""
from __future__ import annotations

import json
import random
import re
from contextlib import ExitStack
from dataclasses import replace
from typing import Any, Callable, Iterator

from starcom.sc.cards.catalogue import CARD_DEF
from starcom.sc.engine.game import Game
from starcom.sc.engine.state import Config
from starcom.sc.engine.view import card_options

EDITIONS = ("standard", "classic")
Builder = Callable[[Config], Game]

# Action fields that hold card instance ids (build's "card" is a card *type* index).
CARD_FIELDS = {"play": ("card",), "ability": ("source",), "sell": ("card", "other"), "accept": ("cards",)}


# --------------------------------------------------------------------------- hooking game creation


def hook_games(monkeypatch: Any, build: Builder) -> list[Game]:
    """Make the server build its games with ``build(cfg)`` instead of ``Game.from_config(cfg)``
    (Star Commander's server adapter builds them); returns the list the games built go to (the
    live objects the server plays on)."""
    from starcom.sc import server as adapter

    built: list[Game] = []

    class HookedGame:
        """Stands for the Game class where the adapter makes its games (not a subclass: the
        compiled build's Game takes none)."""

        @staticmethod
        def from_config(cfg: Config, rules: Any = None) -> Game:
            assert rules is None, "the hooked games are standard Star Commander"
            g = build(cfg)
            built.append(g)
            return g

    monkeypatch.setattr(adapter, "Game", HookedGame)
    return built


def seeded(seed: int) -> Builder:
    """A builder that ignores the server's seed and uses ``seed`` (the server draws its own, or
    refuses a client's, which would make the test's games differ from run to run)."""
    return lambda cfg: Game.from_config(replace(cfg, seed=seed))


# --------------------------------------------------------------------------- JSON walks


def seed_paths(obj: Any, path: str = "") -> Iterator[str]:
    """Where a ``seed`` key is in JSON-like data, e.g. ``view.config.seed``."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "seed":
                yield f"{path}{k}"
            yield from seed_paths(v, f"{path}{k}.")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from seed_paths(v, f"{path}{i}.")


def assert_no_seed(obj: Any, where: str) -> None:
    found = list(seed_paths(obj))
    assert not found, f"{where} names a seed before the game is over, at {', '.join(found)}"


def ints(x: Any) -> Iterator[int]:
    """The integers in ``x`` (lists and dict values walked; bools are not integers here)."""
    if isinstance(x, bool):
        return
    if isinstance(x, int):
        yield x
    elif isinstance(x, list):
        for y in x:
            yield from ints(y)
    elif isinstance(x, dict):
        for y in x.values():
            yield from ints(y)


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
    if ch and "options" in ch and card_options(ch["kind"]):
        out |= set(ints(ch["options"]))
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
        out |= set(ints(action.get(f)))
    if kind in ("give", "ask") and action.get("item") == "card":
        out |= set(ints(action.get("value")))
    if kind == "choose" and view.get("choice") and card_options(view["choice"]["kind"]):
        out |= set(ints(action.get("value")))
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


def mentions(line: str, name: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", line) is not None


# --------------------------------------------------------------------------- the checker


class Watcher:
    """Checks every message of one seat (None: a spectator) against the full state of its moment.

    A message fails if, before the game is over, it has a ``seed`` key anywhere; if its view or
    legal actions show the id of a card the seat could not know then (another hand, a deck, the
    system deck, a face-down system); if a face-down system carries any identity; or if a new
    log line, an action text or an error text names such a card (unless a card of that name is
    public at the time)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.known: set[int] = set()   # cards this seat has legitimately seen (own hand, reveals)
        self.prev_log: list[str] = []
        self.prev_public: set[str] = set()
        self.checked = 0

    def learn(self, g: Game, events: list[tuple]) -> None:
        """Record what the rules show this seat in the position ``g`` reached by ``events``."""
        for e in events:
            if e[0] == "reveal":  # a hand shown to everyone (Spy Network)
                self.known |= set(e[2])
        p = self.seat
        if p is None:
            return
        self.known |= set(g.hands[p])
        if g.choice is not None and g.choice.player == p and card_options(g.choice.kind):
            self.known |= set(ints(list(g.choice.options)))
        if g.trade is not None and (p == g.active or (p == g.trade.to and g.step == "trade_answer")):
            self.known |= {v for k, v in g.trade.give if k == "card"}

    def hidden(self, g: Game) -> set[int]:
        ids: set[int] = set(g.sysdeck)
        for q in range(g.cfg.players):
            if q != self.seat:
                ids |= set(g.hands[q])
        for deck in g.decks:
            ids |= set(deck)
        ids |= {s.card for s in g.sites if not s.face_up}
        return ids - self.known

    def secret_names(self, g: Game, view: dict[str, Any] | None = None) -> set[str]:
        """Names of cards hidden from this seat that no public or known card shares (a line may
        name a card the seat knows, though a copy of it is hidden elsewhere)."""
        public = self.prev_public | (public_names(view) if view is not None else set())
        public |= {CARD_DEF[c].name for c in self.known}
        return {CARD_DEF[c].name for c in self.hidden(g)} - public

    def new_lines(self, log: list[str]) -> list[str]:
        prev = self.prev_log
        for shift in range(len(prev) + 1):
            if prev[shift:] == log[:len(prev) - shift]:
                return log[len(prev) - shift:]
        raise AssertionError("the log was rewritten")

    def check(self, msg: dict[str, Any], g: Game, events: list[tuple] = ()) -> None:
        """Fail if ``msg`` (a state message for this seat) shows anything hidden from it in ``g``."""
        assert msg["type"] == "state" and msg["seat"] == self.seat
        if not g.over:
            assert_no_seed(msg, f"a state message to seat {self.seat}")
        self.learn(g, list(events))
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
        secret = self.secret_names(g, view)
        for line in self.new_lines(msg["log"]) + [e["text"] for e in msg["legal"]]:
            for name in secret:
                assert not mentions(line, name), f"seat {self.seat} sees hidden card {name!r} in {line!r}"
        self.prev_log = list(msg["log"])
        self.prev_public = public_names(view)
        self.checked += 1

    def check_error(self, body: dict[str, Any], g: Game, asked: set[int] = frozenset()) -> None:
        """Fail if an error answer names a seed (before the end) or a card hidden from this seat.
        The cards the refused request named (``asked``) may be named back: instance ids are
        public (the catalogue lays them out), only where a card is may stay unsaid."""
        if not g.over:
            assert_no_seed(body, f"an error to seat {self.seat}")
        text = json.dumps(body)
        for name in self.secret_names(g) - {CARD_DEF[c].name for c in asked}:
            assert not mentions(text, name), f"seat {self.seat} sees hidden card {name!r} in error {text}"


# --------------------------------------------------------------------------- playing through the API


# Kind weights for random play that draws and trades cards (secrets live in hands), where
# uniform play mostly scraps its ships and ends its turns with empty hands. Kinds not listed: 1.
LIVELY = {"buy": 6, "develop": 6, "jump": 3, "build": 2, "play": 2, "sell": 0.5, "offer": 1, "end": 1.5,
          "scrap": 0.1, "give": 3, "propose": 2, "cancel": 0.5}


def pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random entry's action, the kind drawn first (so ``end`` and rare kinds come up)."""
    kinds = sorted({e["action"]["type"] for e in legal})
    kind = rng.choice(kinds)
    return rng.choice([e for e in legal if e["action"]["type"] == kind])["action"]


def pick_lively(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random entry's action, its kind drawn with the :data:`LIVELY` weights."""
    kinds = sorted({e["action"]["type"] for e in legal})
    kind = rng.choices(kinds, [LIVELY.get(k, 1) for k in kinds])[0]
    return rng.choice([e for e in legal if e["action"]["type"] == kind])["action"]


def probes(g: Game, seat: int, x: int) -> list[dict[str, Any]]:
    """Actions of every kind that name the card ``x`` where a card of the seat's would go."""
    own = g.hands[seat][0] if g.hands[seat] else x
    return [
        {"type": "play", "card": x, "targets": []},
        {"type": "sell", "card": x, "other": own},
        {"type": "ability", "source": x, "targets": []},
        {"type": "jump", "vessel": x, "to": 0, "explore": 0, "carry": 0},
        {"type": "scrap", "vessel": x},
        {"type": "repair", "vessel": x},
        {"type": "give", "item": "card", "value": x},
        {"type": "choose", "value": x},
        {"type": "accept", "cards": [x]},
        {"type": "assign", "vessel": x, "target": x, "amount": 1},
    ]


class Table:
    """One game of one server seen through its API: a WebSocket per seat plus a spectator's, all
    open the whole time. Every message each socket receives is kept (as text, in ``texts``) and
    handed to ``on_message(viewer, text, msg)``; the live engine state is ``game``."""

    def __init__(self, client: Any, created: dict[str, Any], game: Game,
                 on_message: Callable[[int | None, str, dict[str, Any]], None]) -> None:
        self.client = client
        self.gid: str = created["game_id"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}
        self.game = game
        self.viewers: list[int | None] = [*range(game.cfg.players), None]
        self.on_message = on_message
        self.texts: dict[int | None, list[str]] = {v: [] for v in self.viewers}
        self.latest: dict[int | None, dict[str, Any]] = {}
        self.sent: dict[int | None, dict[str, Any]] = {}   # the last action each socket sent
        self.sockets: dict[int | None, Any] = {}
        self._stack = ExitStack()

    def __enter__(self) -> "Table":
        for v in self.viewers:
            url = f"/ws/games/{self.gid}" + (f"?seat={self.tokens[v]}" if v is not None else "")
            self.sockets[v] = self._stack.enter_context(self.client.websocket_connect(url))
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stack.close()

    def receive(self, v: int | None) -> dict[str, Any]:
        text = self.sockets[v].receive_text()
        msg = json.loads(text)
        self.texts[v].append(text)
        self.on_message(v, text, msg)
        if msg.get("type") == "state":
            self.latest[v] = msg
        return msg

    def sync(self, step: int) -> None:
        """Read every socket's messages up to the state message of ``step``."""
        for v in self.viewers:
            while True:
                msg = self.receive(v)
                if msg.get("type") == "state" and msg["step"] == step:
                    break
                assert msg.get("type") != "state" or msg["step"] < step, msg.get("step")

    def next_error(self, v: int | None) -> dict[str, Any]:
        """Read ``v``'s socket up to its next error message."""
        while True:
            msg = self.receive(v)
            if msg.get("type") == "error":
                return msg

    def send(self, seat: int, action: dict[str, Any]) -> None:
        self.sent[seat] = action
        self.sockets[seat].send_json({"type": "action", "action": action})

    def post(self, seat: int | None, action: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        body: dict[str, Any] = {"action": action}
        if seat is not None:
            body["seat"] = self.tokens[seat]
        r = self.client.post(f"/api/games/{self.gid}/actions", json=body)
        return r.status_code, r.json()

    def get(self, v: int | None) -> tuple[str, dict[str, Any]]:
        r = self.client.get(f"/api/games/{self.gid}", params={"seat": self.tokens[v]} if v is not None else None)
        assert r.status_code == 200, r.text
        return r.text, r.json()


def manual_passes(client: Any, created: dict[str, Any]) -> None:
    """Turn the server's automatic passes (and its taking of single options) off for every seat
    of ``created``: these tests follow the game one action per step, each seat choosing its own
    passes, to check every message against the state of its step (test_table_play.py covers
    automatic passes, and test_twin_games.py and test_twin_windows.py their secrecy, with the
    default settings)."""
    for s in created["seats"]:
        if "token" in s:
            r = client.post(f"/api/games/{created['game_id']}/settings", json={"seat": s["token"], "auto_pass": False,
                                                                                     "auto_single": False})
            assert r.status_code == 200, r.text
