"""Galactic Empires in words: log lines for a viewer, and one-line descriptions of actions.

Every event the engine records is public by the rules (hands and deck order never appear in
one: draws are counts, a reserve choice is a count), and the observer still filters each line's
event first, so a future secret cannot slip through here. Actions are secret where events are
not (the reserve fleet is chosen by card), so :func:`describe` words what the observer's
``action`` filter leaves the viewer, as Star Commander's ``describe_action`` does.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import BY_KEY, CARDS
from .game import GalacticEmpires
from .observer import OBSERVER
from .state import State

PHASE_NAMES = {"allocate": "Point Allocation", "play-a": "Play Cards A", "fire": "Weapons Fire",
               "play-b": "Play Cards B", "discard": "Discard"}


def name(s: State, uid: Any) -> str:
    if isinstance(uid, int) and uid < 0:
        return f"P{-1 - uid}'s Sector HQ"
    if isinstance(uid, int) and 0 <= uid < len(s.spec_of):
        return CARDS[s.spec_of[uid]].name
    return str(uid)


def place(s: State, loc: Any) -> str:
    if isinstance(loc, int) and loc < 0:
        return f"P{-1 - loc}'s fleet"
    return name(s, loc)


# Events that read as one fixed sentence: {1} is the event's first field, {cN} field N as a card.
SIMPLE_LINES: dict[str, str] = {
    "pay": "P{1} pays for {c2}", "pay-part": "P{1} pays for {c2} alone", "load": "P{1} loads {c2}",
    "research": "P{1} puts research on {c2}", "negate": "P{1} negates {c2}", "allocate": "P{1} declares the allocation",
    "void": "{c2} is voided", "cancelled": "{c2} is cancelled", "destroyed": "{c1} is destroyed",
    "eliminated": "P{1}'s Sector HQ falls", "celebration": "P{1} celebrates and draws a card",
    "discard": "P{1} discards {c2}", "drop": "P{1} discards {c2} from hand", "pass": "P{1} passes",
    "expire": "{c1} runs out", "first": "P{1} takes the first turn", "cure": "{c1} cures {c2}",
    "capture": "{c1} captures {c2}", "wreck": "{c1} destroys {c2}", "stand-in": "{c1} takes the place of {c2}",
    "lucky": "{c1} turns {c2} aside", "travel": "{c1} travels to {c2}", "return": "{c1} returns to {c2}",
    "move": "{c1} moves to {c2}", "replan": "P{1}'s plan no longer holds: P{1} plans again",
}


def line(s: State, e: tuple[Any, ...]) -> str | None:
    """One event as a sentence (None: not worth a line)."""
    k = e[0]

    def n(i: int) -> str:
        return name(s, e[i])

    if k in SIMPLE_LINES:
        values = {f"c{i}": n(i) for i in range(1, len(e)) if isinstance(e[i], int)}
        return SIMPLE_LINES[k].format(*e, **values)
    if k == "turn":
        return f"— P{e[1]}'s turn {e[2]} —"
    if k == "phase":
        return f"{PHASE_NAMES.get(e[1], e[1])} phase" if e[1] in PHASE_NAMES else None
    if k == "announce":
        if len(e) == 5 and isinstance(e[2], int):
            how = " as a reaction" if e[4] else ""
            return f"P{e[1]} plays {n(2)} on {place(s, e[3])}{how}"
        return f"P{e[1]} {e[2]}s " + " and ".join(name(s, x) for x in e[3:] if isinstance(x, int) and x >= 0)
    if k == "enter":
        return None
    if k == "leave":
        return f"{n(1)} goes to its owner's {'hand' if e[2] == 'hand' else 'discard pile'}"
    if k == "swap":
        return f"P{e[1]} swaps {n(2)} into the reserve for {n(3)}"
    if k == "use":
        return f"P{e[1]} uses {n(2)}" + (f" ({' '.join(map(str, e[3:]))})" if len(e) > 3 else "")
    if k == "aim":
        return f"P{e[1]} aims at {n(2)}"
    if k == "volley":
        return f"P{e[1]}'s volley at {n(2)}: {e[3]} damage"
    if k == "volley-lost":
        return f"P{e[1]}'s volley at {n(2)} is lost"
    if k == "shoot":
        return f"P{e[1]}'s {n(2)} fires back at {n(3)}"
    if k == "damage":
        return f"{n(1)}: {e[3]} shield and {e[4]} hull damage"
    if k == "hq":
        return f"P{e[1]}'s Sector HQ takes {e[2]} (now {e[3]})"
    if k == "card-damage":
        return f"{n(1)} deals {e[2]} card damage"
    if k == "draw":
        return f"P{e[1]} draws {e[2]}"
    if k == "reserve":
        return f"P{e[1]} sets {e[2]} card(s) aside as a reserve fleet"
    if k == "ante":
        return f"P{e[1]}'s ante: {n(2)}"
    if k == "tie-break":
        return f"The game ends ({e[1]}); P{e[2]} wins the tie-break"
    if k in ("combine", "separate"):
        return f"P{e[1]} {'combines' if k == 'combine' else 'separates'} {n(2)} and {n(3)}"
    return None


class Narrator:
    """Lines of one viewer's log, asking the observer what the viewer may see of each event."""

    def __init__(self, game: GalacticEmpires, viewer: int | None, reveal_all: bool = False) -> None:
        self.viewer, self.reveal_all = viewer, reveal_all

    def setup_lines(self, game: GalacticEmpires) -> list[str]:
        return []

    def step_lines(self, after: GalacticEmpires, action: Any, events: Sequence[Any], before: Any = None) -> list[str]:
        out = []
        for e in events:
            seen = e if self.reveal_all else OBSERVER.event(e, self.viewer)
            text = line(after.s, tuple(seen))
            if text:
                out.append(text)
        if after.over and events:
            out.append(f"Game over: P{after.s.winner} wins")
        return out


def describe(game: GalacticEmpires, action: Any, viewer: int | None) -> str:
    """An action of the seat to move in words (for option buttons and logs), as ``viewer`` (a
    seat, or None for a spectator) may know it: the observer's :meth:`action` filter comes
    first, so a secret reserve fleet is a count for anyone but its chooser (GE-SETUP-2). To
    name everything (a finished game's full log), pass the seat to move as ``viewer``."""
    s = game.s
    a = tuple(OBSERVER.action(game, action, viewer))
    k = a[0]
    if k == "play":
        return f"Play {name(s, a[1])} on {place(s, a[2])}"
    if k == "pair":
        return f"Play {name(s, a[1])} with {name(s, a[2])} on {place(s, a[3])}"
    if k in ("pay", "pay-part", "load", "research", "discard", "drop"):
        verb = {"pay": "Pay for", "pay-part": "Pay for (this part only)", "load": "Load a heavy weapon on",
                "research": "Put research on", "discard": "Discard", "drop": "Discard from hand"}[k]
        return f"{verb} {name(s, a[1])}"
    if k == "repair":
        return f"Repair {name(s, a[1])} ({a[2]})"
    if k == "aim":
        return f"Aim a volley at {name(s, a[1])}"
    if k == "add":
        return f"Add {name(s, a[1])}'s {a[2]}"
    if k == "shoot":
        return f"Fire back with {name(s, a[1])} at {name(s, a[2])}"
    if k == "use":
        return f"Use {name(s, a[1])}: " + " ".join(name(s, x) if isinstance(x, int) else str(x) for x in a[2:])
    if k == "swap":
        return f"Swap {name(s, a[1])} for the reserve's {name(s, a[2])}"
    if k == "reserve" and len(a) == 2 and isinstance(a[1], int):  # the count others see
        n = a[1]
        return f"Set {n} card{'s' * (n > 1)} aside as a reserve fleet" if n else "Keep no reserve fleet"
    if k == "reserve":
        return "Keep no reserve fleet" if len(a) == 1 else "Reserve " + " and ".join(
            next(c.name for c in CARDS if c.key == key) for key in a[1:])
    return {"allocate": "Declare the allocation", "fire": "Fire the volley", "end": "End the phase",
            "pass": "Pass", "quiet": "Pass, and let the rest of this turn go by without reacting",
            "combine": "Combine", "separate": "Separate"}.get(k, " ".join(map(str, a)))


def table(game: GalacticEmpires, viewer: int | None) -> list[str]:
    """The table as ``viewer`` may see it, in lines of text (the terminal's full-screen game):
    the turn, then each side's Sector HQ, zones, points and fleet as stacks (indented under
    the card they sit on), then the reaction chain. Drawn from the observer's view alone."""
    v = OBSERVER.view(game, viewer)
    points = v["point_types"]
    if v["winner"] is not None:
        head = "Game over: " + ("a draw" if v["winner"] == -1 else f"P{v['winner']} wins") + (
            f" ({v['end']})" if v["end"] else "")
    else:
        phase = PHASE_NAMES.get(v["phase"], v["phase"])
        head = f"P{v['active']}'s turn · {phase} · P{v['to_move']} to decide"
    out = [f"{v['edition'].capitalize()} edition · {head}"]
    children: dict[Any, list[dict[str, Any]]] = {}
    for u in v["units"]:
        children.setdefault(u["on"], []).append(u)
    for seat, p in enumerate(v["players"]):
        who = " (you)" if seat == viewer else ""
        out += ["", f"P{seat} {p['empire'].capitalize()}{who}: Sector HQ {p['hq']}/{v['hq_limit']} damage"]
        hidden = p["hand_size"] - len(p["hand"])
        hand = [c["name"] for c in p["hand"]] + ([f"{hidden} unseen"] if hidden else [])
        out.append(f"  hand {p['hand_size']}: {', '.join(hand) or 'empty'}")
        reserve = p["reserve"]
        reserve = f"{reserve} hidden" if isinstance(reserve, int) else (
            ", ".join(c["name"] for c in reserve) or "none")
        top = p["discard"][-1]["name"] if p["discard"] else "empty"
        out.append(f"  deck {p['deck']} · discard {len(p['discard'])} (top: {top}) · reserve: {reserve}")
        pool = ", ".join(f"{n} {t}" for t, n in zip(points, p["pool"]) if n)
        out.append(f"  plays this turn {p['plays']} · command slots {p['slots'] / 2:g} · points: {pool or 'none'}")
        fleet = [u for u in children.get(None, []) if u["owner"] == seat]
        out.append("  fleet:" if fleet else "  fleet: none")
        for u in fleet:
            out += _stack_lines(u, children, 2)
    if v["chain"]:
        out += ["", "Reaction chain (last resolves first):"]
        out += [f"  {i + 1}. P{link['player']} {link['kind']}: {link['action']}" for i, link in enumerate(v["chain"])]
    return out


def _stack_lines(u: dict[str, Any], children: dict[Any, list[dict[str, Any]]], depth: int) -> list[str]:
    """A card in play and, indented under it, what is on or against it."""
    spec = BY_KEY[u["key"]]
    notes = []
    if spec.strength and u["kind"] in ("ship", "base", "terrain"):
        notes.append(f"{spec.strength - u['damage']}/{spec.strength} strength")
    if u["shield_damage"]:
        notes.append(f"{u['shield_damage']} shield damage")
    if u["card_damage"]:
        notes.append(f"{u['card_damage']} card damage")
    notes += [word for word, on in (("engaged", u["engaged"]), ("new", u["new"]), ("used", u["used"]),
                                    ("against a foe", u["against"]), ("loaded", u["loaded"]),
                                    ("empty", u["empty"])) if on]
    line = f"{'  ' * depth}{'└ ' if depth > 2 else ''}{u['name']} [{u['kind']}]"
    out = [line + (f" — {', '.join(notes)}" if notes else "")]
    for child in children.get(u["uid"], []):
        out += _stack_lines(child, children, depth + 1)
    return out
