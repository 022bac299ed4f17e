"""Galactic Empires scenarios: set up a position from real cards, play actions in the game's
notation, check the outcome (the format is in docs/scenarios.md, "Galactic Empires").

A scenario with ``game: ge`` is run by :func:`run` (``starcom scenario`` and the test suite
send it here). The same position builders (:func:`table`, :func:`put`, :func:`give`) serve
the rule tests, so a scenario and a test set up a position the same way: by moving real cards
of a dealt game, never by inventing one, so a position never holds a card twice.
"""
from __future__ import annotations

from typing import Any

from .cards import BY_KEY
from .game import GalacticEmpires
from .state import PHASES, PLAY_A, SETUP, Unit


class ScenarioError(Exception):
    """A malformed scenario, or a failed expectation; the message says which."""


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


def take(g: GalacticEmpires, seat: int, key: str) -> int:
    """Pull a ``key`` card of ``seat`` out of wherever it is outside play (deck first)."""
    s = g.s
    if key not in BY_KEY:
        raise ScenarioError(f"unknown card {key!r}")
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
    s.units[uid] = Unit(uid, seat, parent=on, against=against, engaged=engaged, new=False, **counters)
    return uid


def give(g: GalacticEmpires, seat: int, *keys: str) -> list[int]:
    """Put cards of ``seat`` into its hand; their uids."""
    uids = [take(g, seat, k) for k in keys]
    g.s.players[seat].hand.extend(uids)
    return uids


# --------------------------------------------------------------------------- running


def build(spec: dict[str, Any]) -> tuple[GalacticEmpires, dict[str, int]]:
    """The position of a scenario's ``setup`` and its card labels."""
    setup = spec.get("setup", {}) or {}
    phase = setup.get("phase", PLAY_A)
    if phase not in PHASES:
        raise ScenarioError(f"setup: unknown phase {phase!r} (one of {', '.join(PHASES)})")
    g = table(setup.get("edition", "full"), setup.get("seed", 0), phase, setup.get("active", 0),
              setup.get("turns", 3), options=setup.get("options"))
    labels: dict[str, int] = {}
    for entry in setup.get("cards", []) or []:
        on: Any = entry.get("on")
        parent: int | None = labels[str(on)] if isinstance(on, str) else on
        counters = {k: v for k, v in entry.items() if k not in ("card", "owner", "on", "label", "engaged")}
        uid = put(g, entry.get("owner", 0), entry["card"], parent, entry.get("engaged", True), **counters)
        labels[entry.get("label", entry["card"])] = uid
    for seat, cards in (setup.get("hands", {}) or {}).items():
        for c in cards:
            key = str(c["card"] if isinstance(c, dict) else c)
            label = str(c.get("label", key)) if isinstance(c, dict) else key
            labels[label] = give(g, int(seat), key)[0]
    for seat, damage in (setup.get("hq", {}) or {}).items():
        g.s.players[int(seat)].hq = damage
    return g, labels


def _action(g: GalacticEmpires, text: str, labels: dict[str, int]) -> tuple[Any, ...]:
    """An action in the notation, ``$label`` standing for a labelled card."""
    words = []
    for w in str(text).split():
        if w.startswith("$"):
            if w[1:] not in labels:
                raise ScenarioError(f"unknown label {w!r}")
            uid = labels[w[1:]]
            w = f"{g.s.spec(uid).key}#{uid}"
        words.append(w)
    return g.parse(" ".join(words))


def check(g: GalacticEmpires, expect: dict[str, Any], labels: dict[str, int]) -> list[str]:
    """What in ``expect`` does not hold (empty: all of it does)."""
    s = g.s
    bad: list[str] = []

    def uid(label: str) -> int:
        if label not in labels:
            raise ScenarioError(f"unknown label {label!r}")
        return labels[label]

    for key, want in expect.items():
        if key == "hq":
            got = {int(k): s.players[int(k)].hq for k in want}
            bad += [f"hq of P{k}: {got[int(k)]}, expected {v}" for k, v in want.items() if got[int(k)] != v]
        elif key in ("damage", "shield_damage", "loaded", "engaged", "paid", "used"):
            for label, v in want.items():
                u = s.units.get(uid(label))
                if u is None:
                    bad.append(f"{label} is not in play (expected {key} {v})")
                elif getattr(u, key) != v:
                    bad.append(f"{label}: {key} {getattr(u, key)}, expected {v}")
        elif key == "in_play":
            bad += [f"{label} is not in play" for label in want if uid(label) not in s.units]
        elif key == "gone":
            bad += [f"{label} is still in play" for label in want if uid(label) in s.units]
        elif key == "on":
            for label, place in want.items():
                u = s.units.get(uid(label))
                if u is None or u.parent != uid(place):
                    bad.append(f"{label} is not on {place}")
        elif key == "phase":
            if s.phase != want:
                bad.append(f"phase {s.phase}, expected {want}")
        elif key == "to_move":
            if g.to_move != want:
                bad.append(f"seat to move {g.to_move}, expected {want}")
        elif key == "winner":
            if s.winner != want:
                bad.append(f"winner {s.winner}, expected {want}")
        elif key == "hand_size":
            bad += [f"P{k} holds {len(s.players[int(k)].hand)} cards, expected {v}"
                    for k, v in want.items() if len(s.players[int(k)].hand) != v]
        elif key == "legal":
            listed = {g.notation(a) for a in g.legal_actions()}
            bad += [f"{t!r} is not legal" for t in want if g.notation(_action(g, t, labels)) not in listed]
        elif key == "not_legal":
            listed = {g.notation(a) for a in g.legal_actions()}
            bad += [f"{t!r} is legal" for t in want if g.notation(_action(g, t, labels)) in listed]
        else:
            raise ScenarioError(f"unknown expectation {key!r}")
    return bad


def run(sc: Any) -> list[str]:
    """Run one scenario (an object with ``spec``); failure messages, empty when it passes."""
    try:
        g, labels = build(sc.spec)
    except (ScenarioError, ValueError, LookupError, TypeError, AttributeError) as exc:
        return [f"setup: {exc}"]
    for i, step in enumerate(sc.spec.get("actions", []) or [], 1):
        where = f"step {i}"
        try:
            if isinstance(step, dict) and "expect" in step:
                bad = check(g, step["expect"], labels)
                if bad:
                    return [f"{where}: {b}" for b in bad]
            elif isinstance(step, dict) and "illegal" in step:
                act = _action(g, step["illegal"], labels)
                before = g.to_json()
                try:
                    g.apply(act)
                except ValueError as exc:
                    reason = getattr(exc, "reason", str(exc))
                    rule = step.get("rule")
                    if rule and rule not in reason:
                        return [f"{where}: {act!r} was illegal, but for another reason: {reason}"]
                    if g.to_json() != before:
                        return [f"{where}: the illegal action changed the game"]
                    continue
                return [f"{where}: expected {act!r} to be illegal, but it was played"]
            else:
                g.apply(_action(g, str(step["do"] if isinstance(step, dict) else step), labels))
        except ScenarioError as exc:
            return [f"{where}: {exc}"]
        except ValueError as exc:
            return [f"{where}: {getattr(exc, 'reason', exc)}"]
        except (LookupError, TypeError, AttributeError) as exc:
            return [f"{where}: malformed step {step!r} ({type(exc).__name__}: {exc})"]
    try:
        return check(g, sc.spec.get("expect", {}) or {}, labels)
    except (ScenarioError, LookupError, TypeError, AttributeError, ValueError) as exc:
        return [f"expect: malformed expectation ({type(exc).__name__}: {exc})"]
