"""Galactic Empires scenarios: set up a position from real cards, play actions in the game's
notation, check the outcome (the format is in docs/scenarios.md, "Galactic Empires").

A scenario with ``game: ge`` is run by :func:`run` (``starcom scenario`` and the test suite
send it here); the loop that plays its steps is the platform's (:func:`starcom.scenarios.play`),
with this game's hooks (:data:`RUNNER`). The same position builders (:func:`table`, :func:`put`,
:func:`give`) serve the rule tests, so a scenario and a test set up a position the same way: by
moving real cards of a dealt game, never by inventing one, so a position never holds a card
twice.
"""
from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from ..errors import IllegalAction
from ..scenarios import Runner, Scenario, ScenarioError, play
from . import board, turn
from .cards import BY_KEY, POINT_TYPES
from .cards.krebiz import fits, is_cruiser, join
from .game import GalacticEmpires
from .state import ALLOCATE, OVER, PHASES, PLAY_A, SETUP, Unit

NAME = "ge"  # this game's name in the registry, which a scenario's ``game`` gives

Labels = dict[str, int]

# --------------------------------------------------------------------------- position builders


def table(edition: str = "full", seed: int = 0, phase: str = PLAY_A, active: int = 0, turns: int = 3,
          empty_hands: bool = True, options: dict[str, Any] | None = None) -> GalacticEmpires:
    """A dealt game (seat 0 Argonian, seat 1 Krebiz, no reserve in the full edition, the
    default pair in the quick one) in ``phase`` of ``active``'s turn, both seats having begun
    ``turns`` turns (3: no early-turn limits); hands emptied back into the decks unless told."""
    g = GalacticEmpires.new(edition=edition, seed=seed, options=options)
    while g.s.phase == SETUP:
        g.apply(("reserve",) if edition == "full" else ("reserve", *g.legal_actions()[0][1:]))
    s = g.s
    for p in s.players:
        if empty_hands:
            p.deck.extend(p.hand)
            p.hand.clear()
        p.turns, p.plays, p.slots = turns, 0, 4
    s.first = 0
    s.active, s.phase, s.priority, s.passed = active, phase, None, None
    s.chain.clear()
    s.queued.clear()
    return g


def _unknown_card(key: str) -> ScenarioError:
    near = difflib.get_close_matches(key, list(BY_KEY), n=3)
    return ScenarioError(f"unknown card {key!r}" + (f" (did you mean {', '.join(near)}?)" if near else ""))


def take(g: GalacticEmpires, seat: int, key: str) -> int:
    """Pull a ``key`` card of ``seat`` out of wherever it is outside play (deck first)."""
    s = g.s
    if key not in BY_KEY:
        raise _unknown_card(key)
    index = BY_KEY[key].index
    p = s.players[seat]
    for zone in (p.deck, p.hand, p.discard, p.reserve):
        for uid in zone:
            if s.spec_of[uid] == index:
                zone.remove(uid)
                return uid
    raise ScenarioError(f"seat {seat} has no {key} left outside play")


def put(g: GalacticEmpires, seat: int, key: str, on: int | None = None, engaged: bool = True,
        **counters: Any) -> int:
    """Bring a ``key`` card of ``seat`` into play on or against card ``on`` (None: alone in its
    fleet), engaged or not, with any :class:`Unit` counters given; its uid."""
    s = g.s
    uid = take(g, seat, key)
    against = on is not None and on >= 0 and s.units[on].owner != seat
    given: dict[str, Any] = {"parent": on, "against": against, "engaged": engaged, "new": False, **counters}
    s.units[uid] = Unit(uid, seat, **given)
    return uid


def give(g: GalacticEmpires, seat: int, *keys: str) -> list[int]:
    """Put cards of ``seat`` into its hand; their uids."""
    uids = [take(g, seat, k) for k in keys]
    g.s.players[seat].hand.extend(uids)
    return uids


# --------------------------------------------------------------------------- reading a scenario

SCENARIO_KEYS = ("name", "description", "game", "xfail", "setup", "actions", "expect")
SETUP_KEYS = ("edition", "seed", "options", "keep_hands", "phase", "active", "first", "turns", "hq", "cards", "hands",
              "reserve", "discard", "deck", "plays", "pool")
# Counters of a card in play a setup may give and an expectation may check (GE-ZONE-5).
COUNTERS = tuple(f.name for f in fields(Unit) if f.name not in ("uid", "owner", "parent", "partner"))
_DEFAULT: dict[str, Any] = {f.name: f.default for f in fields(Unit)}
CARD_KEYS = ("card", "owner", "on", "label", "partner", *COUNTERS)
ZONES = ("play", "hand", "deck", "discard", "reserve")


def _keyed(what: str, raw: Any, known: tuple[str, ...]) -> dict[str, Any]:
    """The mapping ``raw`` with its keys checked against ``known``. YAML reads a plain ``on``
    key as ``true``: it is taken as ``on``, so ``on:`` needs no quotes."""
    if not isinstance(raw, Mapping):
        raise ScenarioError(f"{what or 'setup'}: expected a mapping, got {raw!r}")
    out: dict[str, Any] = {}
    for k, v in raw.items():
        key = "on" if k is True and "on" in known else k
        if not isinstance(key, str) or key not in known:
            hint = " (a plain yes/no/on/off/true/false key is read as a boolean: quote it)" \
                if isinstance(k, bool) else ""
            where = f"{what}: " if what else ""
            raise ScenarioError(f"{where}unknown key {k!r}{hint}; known: {', '.join(known)}")
        out[key] = v
    return out


def _seat(what: str, raw: Any) -> int:
    if isinstance(raw, bool) or str(raw) not in ("0", "1"):
        raise ScenarioError(f"{what}: {raw!r} is not a seat (0 or 1)")
    return int(raw)


def _per_seat(what: str, raw: Any) -> dict[int, Any]:
    if not isinstance(raw, Mapping):
        raise ScenarioError(f"{what}: expected a mapping from seat (0, 1) to a value, got {raw!r}")
    return {_seat(what, k): v for k, v in raw.items()}


def _count(what: str, raw: Any) -> int:
    if type(raw) is not int or raw < 0:
        raise ScenarioError(f"{what}: {raw!r} is not a whole number")
    return raw


def _entry(what: str, raw: Any) -> tuple[str, str | None]:
    """A card named in a list: ``key`` or ``{card: key, label: name}``; its key and label."""
    if isinstance(raw, str):
        return raw, None
    entry = _keyed(what, raw, ("card", "label"))
    if not isinstance(entry.get("card"), str):
        raise ScenarioError(f"{what}: needs a card key ('card')")
    return entry["card"], None if entry.get("label") is None else str(entry["label"])


AMBIGUOUS = -(10 ** 9)  # a card key standing as the label of two cards: usable by neither


class _Names:
    """The labels a setup gives, and which of them are only card keys (no ``label`` given)."""

    def __init__(self) -> None:
        self.labels: Labels = {}
        self.implicit: set[str] = set()

    def add(self, what: str, name: str | None, key: str, uid: int) -> None:
        """Name card ``uid`` ``name``, or by its ``key`` when no label is given. A label given
        twice is an error; a card key standing for two cards names neither (a step using it is
        refused), and never takes the place of a label given."""
        labels = self.labels
        if name is not None:
            if name in labels:
                why = "is given twice" if name not in self.implicit else "is already the key of another card: label that card too"
                raise ScenarioError(f"{what}: the label {name!r} {why}")
            labels[name] = uid
        elif key not in labels:
            labels[key] = uid
            self.implicit.add(key)
        elif key in self.implicit:
            labels[key] = AMBIGUOUS


def _labelled(what: str, labels: Labels, raw: Any) -> int:
    name = str(raw).removeprefix("$")
    if labels.get(name) == AMBIGUOUS:
        raise ScenarioError(f"{what}: {raw!r} names two cards of that key: give each a 'label'")
    if name not in labels:
        shown = ", ".join(sorted(labels)) or "none"
        raise ScenarioError(f"{what}: unknown label {raw!r} (labels: {shown})")
    return labels[name]


def _cards(what: str, raw: Any) -> list[Any]:
    if not isinstance(raw, list):
        raise ScenarioError(f"{what}: expected a list of cards, got {raw!r}")
    return raw


def build(spec: Mapping[str, Any]) -> tuple[GalacticEmpires, Labels]:
    """The position of a scenario's ``setup`` and its card labels; ScenarioError names the key
    at fault."""
    _keyed("scenario", spec, SCENARIO_KEYS)
    setup = _keyed("", spec.get("setup") or {}, SETUP_KEYS)
    phase = setup.get("phase", PLAY_A)
    if phase not in PHASES or phase in (SETUP, OVER):
        raise ScenarioError(f"phase: unknown phase {phase!r} (one of {', '.join(PHASES[1:-1])})")
    active = _seat("active", setup.get("active", 0))
    turns = setup.get("turns", 3)
    seats_turns = _per_seat("turns", turns) if isinstance(turns, Mapping) else {0: turns, 1: turns}
    for seat, n in seats_turns.items():
        if type(n) is not int or n < 1:
            raise ScenarioError(f"turns: seat {seat}: {n!r} is not a turn number (1 or more)")
    try:
        g = table(setup.get("edition", "full"), setup.get("seed", 0), phase, active, 3,
                  empty_hands=not setup.get("keep_hands", False), options=setup.get("options"))
    except (ValueError, TypeError) as exc:
        raise ScenarioError(f"{exc}") from None
    s = g.s
    s.first = _seat("first", setup.get("first", 0))
    for seat, n in seats_turns.items():
        s.players[seat].turns = n
    names = _Names()
    labels = names.labels
    for seat, cards in _per_seat("discard", setup.get("discard") or {}).items():
        p = s.players[seat]
        p.deck.extend(p.discard)  # the ante goes back: the pile is exactly what is listed
        p.discard.clear()
        for i, raw in enumerate(_cards(f"discard: {seat}", cards)):
            key, name = _entry(f"discard: {seat}[{i}]", raw)
            uid = _from(g, seat, key, f"discard: {seat}[{i}]")
            p.discard.insert(0, uid)  # listed top first
            names.add(f"discard: {seat}[{i}]", name, key, uid)
    for seat, cards in _per_seat("reserve", setup.get("reserve") or {}).items():
        p = s.players[seat]
        p.deck.extend(p.reserve)
        p.reserve.clear()
        for i, raw in enumerate(_cards(f"reserve: {seat}", cards)):
            key, name = _entry(f"reserve: {seat}[{i}]", raw)
            uid = _from(g, seat, key, f"reserve: {seat}[{i}]")
            p.reserve.append(uid)
            names.add(f"reserve: {seat}[{i}]", name, key, uid)
        p.reserve_public = True  # GE-SETUP-5: after the ante both reserves are open
    for i, raw in enumerate(_cards("cards", setup.get("cards") or [])):
        _setup_card(g, f"cards[{i}]", raw, names)
    for seat, cards in _per_seat("hands", setup.get("hands") or {}).items():
        for i, raw in enumerate(_cards(f"hands: {seat}", cards)):
            key, name = _entry(f"hands: {seat}[{i}]", raw)
            uid = _from(g, seat, key, f"hands: {seat}[{i}]")
            s.players[seat].hand.append(uid)
            names.add(f"hands: {seat}[{i}]", name, key, uid)
    for seat, cards in _per_seat("deck", setup.get("deck") or {}).items():
        _setup_deck(g, seat, _cards(f"deck: {seat}", cards), names)
    for seat, damage in _per_seat("hq", setup.get("hq") or {}).items():
        s.players[seat].hq = _count(f"hq: {seat}", damage)
    if phase == ALLOCATE:  # the turn begins: record keeping and production run now (GE-ALLOC-1)
        s.players[active].turns -= 1
        turn.start_turn(s, active)
    if "pool" in setup and phase != ALLOCATE:
        raise ScenarioError("pool: points exist only in the allocate phase (GE-PTS-6)")
    for seat, pts in _per_seat("pool", setup.get("pool") or {}).items():
        if seat != active:
            raise ScenarioError(f"pool: only the active seat ({active}) allocates")
        for kind, n in _keyed(f"pool: {seat}", pts, POINT_TYPES).items():
            s.players[seat].pool[POINT_TYPES.index(kind)] += _count(f"pool: {seat}: {kind}", n)
        s.plan_pool = list(s.players[seat].pool)
    for seat, n in _per_seat("plays", setup.get("plays") or {}).items():
        s.players[seat].plays = _count(f"plays: {seat}", n)
    s.log = []
    return g, labels


def _from(g: GalacticEmpires, seat: int, key: str, where: str) -> int:
    """A card of ``seat`` taken from its deck (else from wherever it lies outside play), for
    the setup key ``where``."""
    try:
        return take(g, seat, key)
    except ScenarioError as exc:
        raise ScenarioError(f"{where}: {exc}") from None


def _setup_card(g: GalacticEmpires, what: str, raw: Any, names: _Names) -> None:
    s = g.s
    labels = names.labels
    entry = _keyed(what, raw, CARD_KEYS)
    key = entry.get("card")
    if not isinstance(key, str):
        raise ScenarioError(f"{what}: needs a card key ('card')")
    seat = _seat(f"{what}: owner", entry.get("owner", 0))
    parent: int | None = None
    if entry.get("on") is not None:
        parent = _labelled(f"{what}: on", labels, entry["on"])
        if parent not in s.units:
            raise ScenarioError(f"{what}: on: {entry['on']!r} is not in play")
    counters = {k: v for k, v in entry.items() if k in COUNTERS and k not in ("engaged", "against")}
    if "against" in entry:
        raise ScenarioError(f"{what}: against: follows from 'on' (a card on an opponent's card is against it)")
    for k, v in counters.items():
        kind = type(_DEFAULT[k])
        if type(v) is not kind or (kind is int and v < 0):
            raise ScenarioError(f"{what}: {k}: {v!r} is not {'true or false' if kind is bool else 'a whole number'}")
    try:
        uid = put(g, seat, key, parent, bool(entry.get("engaged", True)), **counters)
    except ScenarioError as exc:
        raise ScenarioError(f"{what}: {exc}") from None
    names.add(what, None if entry.get("label") is None else str(entry["label"]), key, uid)
    if entry.get("partner") is not None:  # a combined Krebiz ship (GE-KREB-4)
        other = _labelled(f"{what}: partner", labels, entry["partner"])
        if other not in s.units or s.units[other].owner != seat or not fits(s, uid, other) \
                or s.units[other].partner is not None or parent is not None:
            raise ScenarioError(f"{what}: partner: {key} cannot combine with {entry['partner']!r} "
                                "(a fitting cruiser and capsule of one seat, the part named first alone, "
                                "this one given no 'on', GE-KREB-2)")
        cruiser, capsule = (uid, other) if is_cruiser(s, uid) else (other, uid)
        join(s, cruiser, capsule)
        locked = bool(entry.get("locked", False))
        s.units[cruiser].locked = s.units[capsule].locked = locked


def _setup_deck(g: GalacticEmpires, seat: int, cards: list[Any], names: _Names) -> None:
    """Seat ``seat``'s whole deck, top first, of cards from its deck (else its discard pile);
    the deck's other cards go under its discard pile (as if played and lost earlier), so
    ``deck: {1: []}`` leaves seat 1 nothing to draw."""
    s = g.s
    p = s.players[seat]
    chosen: list[int] = []
    for i, raw in enumerate(cards):
        what = f"deck: {seat}[{i}]"
        key, name = _entry(what, raw)
        if key not in BY_KEY:
            raise ScenarioError(f"{what}: {_unknown_card(key)}")
        uid = next((u for u in p.deck + p.discard if s.spec_of[u] == BY_KEY[key].index and u not in chosen), None)
        if uid is None:
            raise ScenarioError(f"{what}: seat {seat} has no {key} left in its deck or discard pile")
        if uid in p.discard:
            p.discard.remove(uid)
        chosen.append(uid)
        names.add(what, name, key, uid)
    rest = [u for u in p.deck if u not in chosen]
    p.discard[:0] = rest
    p.deck = list(reversed(chosen))  # the end of the list is the top


# --------------------------------------------------------------------------- actions


def _action(g: GalacticEmpires, raw: Any, labels: Labels) -> tuple[Any, ...]:
    """An action in the notation (a text, or a list of its words), ``$label`` standing for a
    labelled card."""
    if isinstance(raw, list):
        raw = " ".join(str(w) for w in raw)
    if not isinstance(raw, str) or not raw.split():
        raise ScenarioError(f"a step is an action, {{do: ACTION}}, {{expect: ...}} or {{illegal: ACTION, rule: ID}}; "
                            f"got {raw!r}")
    words = []
    for w in raw.split():
        if w.startswith("$"):
            uid = _labelled("action", labels, w)
            w = f"{g.s.spec(uid).key}#{uid}"
        words.append(w)
    return g.parse(" ".join(words))


# --------------------------------------------------------------------------- expectations

EXPECT_KEYS = ("hq", *COUNTERS, "in_play", "gone", "on", "partner", "strength", "where", "phase", "active",
               "to_move", "winner", "over", "turns", "plays", "hand_size", "hand", "reserve", "deck_size",
               "discard", "discard_top", "pool", "legal", "not_legal", "legal_count", "events", "no_events")


def _keys(g: GalacticEmpires, uids: list[int]) -> list[str]:
    return [g.s.spec(u).key for u in uids]


def _zone(g: GalacticEmpires, uid: int) -> str:
    s = g.s
    if uid in s.units:
        return "play"
    p = s.players[s.owner_of[uid]]
    for name, zone in (("hand", p.hand), ("deck", p.deck), ("discard", p.discard), ("reserve", p.reserve)):
        if uid in zone:
            return name
    return "chain"


def _value(g: GalacticEmpires, labels: Labels, raw: Any) -> Any:
    """An event field as a scenario writes it: ``$label`` a card, ``hq:N`` / ``fleet:N`` a
    seat's Sector HQ or fleet, lists as tuples; anything else as it is."""
    if isinstance(raw, list):
        return tuple(_value(g, labels, r) for r in raw)
    if isinstance(raw, str):
        if raw.startswith("$"):
            return _labelled("events", labels, raw)
        if raw.startswith(("hq:", "fleet:")):
            return -1 - _seat("events", raw.split(":", 1)[1])
    return raw


def _fields(event: Any) -> dict[str, Any]:
    names = [str(n).lstrip("*") for n in getattr(event, "_fields", ())]
    return {n: getattr(event, n) for n in names}


def _matches(g: GalacticEmpires, labels: Labels, want: Any, event: Any) -> bool:
    if isinstance(want, str):
        return bool(event[0] == want)
    spec = dict(want)
    if event[0] != spec.pop("kind", None):
        return False
    got = _fields(event)
    for name, raw in spec.items():
        if name not in got:
            raise ScenarioError(f"events: a {event[0]!r} event has no field {name!r} "
                                f"(fields: {', '.join(n for n in got if n != 'kind')})")
        if got[name] != _value(g, labels, raw):
            return False
    return True


def _event_spec(raw: Any) -> Any:
    if isinstance(raw, str):
        return raw
    if isinstance(raw, Mapping) and isinstance(raw.get("kind"), str):
        return raw
    raise ScenarioError(f"events: {raw!r} is neither an event kind nor a mapping with a 'kind'")


def _said(g: GalacticEmpires, events: list[Any]) -> str:
    out = []
    for e in events:
        parts = [f"{k}={v}" for k, v in _fields(e).items() if k != "kind"]
        out.append(f"{e[0]}({', '.join(parts)})")
    return "; ".join(out) or "none"


def check(g: GalacticEmpires, expect: Mapping[str, Any], labels: Labels,
          events: list[Any] | None = None) -> list[str]:
    """What in ``expect`` does not hold (empty: all of it does). ``events`` are those the
    ``events`` and ``no_events`` keys look at. ScenarioError names a malformed key."""
    s = g.s
    bad: list[str] = []
    seen = list(events or [])
    expect = _keyed("expect", expect, EXPECT_KEYS)

    def uid(key: str, label: Any) -> int:
        return _labelled(key, labels, label)

    def cmp(what: str, got: Any, want: Any) -> None:
        if got != want:
            bad.append(f"{what}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key == "hq":
            for seat, n in _per_seat(key, want).items():
                cmp(f"Sector HQ damage of P{seat}", s.players[seat].hq, n)
        elif key in COUNTERS:
            if not isinstance(want, Mapping):
                raise ScenarioError(f"{key}: expected a mapping from label to value, got {want!r}")
            for label, v in want.items():
                u = s.units.get(uid(key, label))
                if u is None:
                    bad.append(f"{key} of {label}: expected {v!r}, but it is not in play")
                else:
                    cmp(f"{key} of {label}", getattr(u, key), v)
        elif key == "in_play":
            bad += [f"{label} is not in play" for label in want if uid(key, label) not in s.units]
        elif key == "gone":
            bad += [f"{label} is still in play" for label in want if uid(key, label) in s.units]
        elif key in ("on", "partner"):
            if not isinstance(want, Mapping):
                raise ScenarioError(f"{key}: expected a mapping from label to label, got {want!r}")
            for label, place in want.items():
                u = s.units.get(uid(key, label))
                target = None if place is None else uid(key, place)
                got = None if u is None else (u.parent if key == "on" else u.partner)
                if u is None:
                    bad.append(f"{key} of {label}: it is not in play")
                elif got != target:
                    name = next((n for n, v in labels.items() if v == got), got)
                    bad.append(f"{key} of {label}: expected {place!r}, got {name!r}")
        elif key == "strength":
            for label, n in want.items():
                u_id = uid(key, label)
                cmp(f"strength of {label}", board.strength(s, u_id) if u_id in s.units else None, n)
        elif key == "where":
            for label, zone in want.items():
                if zone not in ZONES:
                    raise ScenarioError(f"where: {zone!r} is not a zone ({', '.join(ZONES)})")
                cmp(f"where {label} is", _zone(g, uid(key, label)), zone)
        elif key in ("phase", "active", "to_move", "winner", "over"):
            now: dict[str, object] = {"phase": s.phase, "active": s.active, "to_move": g.to_move,
                                      "winner": s.winner, "over": g.over}
            cmp(key, now[key], want)
        elif key in ("turns", "plays", "hand_size", "deck_size"):
            for seat, n in _per_seat(key, want).items():
                p = s.players[seat]
                counts = {"turns": p.turns, "plays": p.plays, "hand_size": len(p.hand), "deck_size": len(p.deck)}
                cmp(f"{key} of P{seat}", counts[key], n)
        elif key in ("hand", "reserve", "discard"):
            for seat, keys in _per_seat(key, want).items():
                cmp(f"{key} of P{seat}", sorted(_keys(g, getattr(s.players[seat], key))), sorted(keys))
        elif key == "discard_top":
            for seat, keys in _per_seat(key, want).items():
                pile = s.players[seat].discard
                cmp(f"top of P{seat}'s discard pile", _keys(g, pile[::-1][:len(keys)]), list(keys))
        elif key == "pool":
            for seat, pts in _per_seat(key, want).items():
                pts = _keyed(f"pool: {seat}", pts, POINT_TYPES)
                pool = {t: n for t, n in zip(POINT_TYPES, s.players[seat].pool) if n}
                cmp(f"pool of P{seat}", pool, {t: n for t, n in pts.items() if n})
        elif key in ("legal", "not_legal"):
            listed = {g.notation(a) for a in g.legal_actions()}
            for t in want:
                text = g.notation(_action(g, t, labels))
                if (text in listed) != (key == "legal"):
                    bad.append(f"expected {text!r} {'to be' if key == 'legal' else 'not to be'} legal")
        elif key == "legal_count":
            for kind, n in want.items():
                cmp(f"number of legal '{kind}' actions", sum(1 for a in g.legal_actions() if a[0] == kind), n)
        elif key in ("events", "no_events"):
            for raw in want:
                spec = _event_spec(raw)
                hit = any(_matches(g, labels, spec, e) for e in seen)
                if hit != (key == "events"):
                    bad.append(f"expected {'an' if key == 'events' else 'no'} event {spec!r} "
                               f"(events: {_said(g, seen)})")
    return bad


# --------------------------------------------------------------------------- running


def _show(g: GalacticEmpires, act: tuple[Any, ...]) -> str:
    try:
        return repr(g.notation(act))
    except (IllegalAction, LookupError, TypeError, ValueError):
        return repr(act)


RUNNER: Runner[GalacticEmpires, tuple[Any, ...]] = Runner(
    build=build, parse=_action, apply=lambda g, a: g.apply(a), check=check,
    snapshot=lambda g: g.to_json(), show=_show, refusal=lambda exc: exc.reason)


def run(sc: Scenario | Mapping[str, Any]) -> list[str]:
    """Run one scenario (a :class:`~starcom.scenarios.Scenario` or its mapping); failure
    messages, empty when it passes."""
    if not isinstance(sc, Scenario):
        sc = Scenario(str(sc.get("name", "")), dict(sc))
    return play(sc, RUNNER)


__all__ = ["NAME", "RUNNER", "ScenarioError", "build", "check", "give", "put", "run", "table", "take"]
