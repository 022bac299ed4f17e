"""Galactic Empires in words: log lines for a viewer, and one-line descriptions of actions.

Every event the engine records is public by the rules (hands and deck order never appear in
one: draws are counts, a reserve choice is a count), and the observer still filters each line's
event first, so a future secret cannot slip through here. Actions are secret where events are
not (the reserve fleet is chosen by card), so :func:`describe` words what the observer's
``action`` filter leaves the viewer, as Star Commander's ``describe_action`` does.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import events as E
from . import moves as M
from .cards import BY_KEY, CARDS
from .events import EVENTS
from .combat import hq_limit
from .game import GalacticEmpires
from .moves import MOVES
from .observer import OBSERVER
from .cards import POINT_TYPES
from .state import PLAYS_PER_TURN, State
from .wording import END_WORDS, WEAPON_WORDS, link_words, name, place, use_words

PHASE_NAMES = {"allocate": "Point Allocation", "play-a": "Play Cards A", "fire": "Weapons Fire",
               "play-b": "Play Cards B", "discard": "Discard"}


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


def _announce(s: State, e: E.Announce) -> str:
    what = e.what
    if len(what) == 3 and isinstance(what[0], int):  # a card from hand: (card, place, reaction)
        card, loc, reaction = what
        return f"P{e.player} plays {name(s, card)} on {place(s, loc)}" + (" as a reaction" if reaction else "")
    if what and isinstance(what[0], str):
        return link_words(s, e.player, what[0], tuple(what))
    return f"P{e.player} plays " + " and ".join(name(s, x) for x in what[1:] if isinstance(x, int) and x >= 0)


def _use(s: State, e: E.Use) -> str:
    extra = use_words(s, e.card, tuple(e.choices))
    return f"P{e.player} uses {name(s, e.card)}" + (f" to {extra}" if extra else "")


def _krebiz(s: State, e: E.Combine | E.Separate) -> str:
    verb = "combines" if e.kind == "combine" else "separates"
    return f"P{e.player} {verb} {name(s, e.cruiser)} and {name(s, e.capsule)}"


# The other events by kind, each read through its type's fields (None: not worth a line).
LINES: dict[str, Callable[[State, Any], str | None]] = {
    "turn": lambda s, e: f"— P{e.player}'s turn {e.number} —",
    "phase": lambda s, e: f"{PHASE_NAMES[e.phase]} phase" if e.phase in PHASE_NAMES else None,
    "announce": _announce,
    "enter": lambda s, e: None,
    "leave": lambda s, e: f"{name(s, e.card)} goes to its owner's {'hand' if e.to == 'hand' else 'discard pile'}",
    "swap": lambda s, e: f"P{e.player} swaps {name(s, e.card)} into the reserve for {name(s, e.reserve)}",
    "use": _use,
    "aim": lambda s, e: f"P{e.player} aims at {name(s, e.target)}",
    "volley": lambda s, e: f"P{e.player}'s volley at {name(s, e.target)}: {e.amount} damage",
    "volley-lost": lambda s, e: f"P{e.player}'s volley at {name(s, e.target)} is lost",
    "shoot": lambda s, e: f"P{e.player}'s {name(s, e.card)} fires back at {name(s, e.target)}",
    "damage": lambda s, e: f"{name(s, e.card)}: {e.shield} shield and {e.hull} hull damage",
    "hq": lambda s, e: f"P{e.player}'s Sector HQ takes {e.amount} damage ({e.total} of {hq_limit(s)} now)",
    "card-damage": lambda s, e: f"{name(s, e.card)} deals {e.amount} card damage",
    "draw": lambda s, e: f"P{e.player} draws {e.number}",
    "reserve": lambda s, e: f"P{e.player} sets {e.size} card(s) aside as a reserve fleet",
    "ante": lambda s, e: f"P{e.player}'s ante: {name(s, e.card)}",
    "tie-break": lambda s, e: f"The game ends ({END_WORDS.get(e.why, e.why)}): "
                              + ("a draw" if e.winner == -1 else f"P{e.winner} wins the tie-break"),
    "combine": _krebiz,
    "separate": _krebiz,
}


def line(s: State, e: tuple[Any, ...]) -> str | None:
    """One event as a sentence (None: not worth a line). ``e`` may be typed or the plain tuple
    (an event read back from JSON, say); one that fits no event kind gets no line."""
    k = e[0]
    if k in SIMPLE_LINES:
        values = {f"c{i}": name(s, e[i]) for i in range(1, len(e)) if isinstance(e[i], int)}
        return SIMPLE_LINES[k].format(*e, **values)
    words = LINES.get(k)
    event = EVENTS.lift(e if isinstance(e, tuple) else tuple(e))
    return words(s, event) if words is not None and type(event) is not tuple else None


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
            text = line(after.s, seen if isinstance(seen, tuple) else tuple(seen))
            if text:
                out.append(text)
        if after.over and events:
            out.append(f"Game over: P{after.s.winner} wins")
        return out


def _describe_use(s: State, a: M.Use) -> str:
    extra = use_words(s, a.card, tuple(a.choices))
    return f"Use {name(s, a.card)}" + (f" to {extra}" if extra else "")


def _describe_reserve(a: tuple[Any, ...]) -> str:
    if len(a) == 2 and isinstance(a[1], int):  # the count others see
        n = a[1]
        return f"Set {n} card{'s' * (n > 1)} aside as a reserve fleet" if n else "Keep no reserve fleet"
    return "Keep no reserve fleet" if len(a) == 1 else "Reserve " + " and ".join(
        next(c.name for c in CARDS if c.key == key) for key in a[1:])


# Actions that name cards, by kind, read through their type's fields.
ACTION_LINES: dict[str, Callable[[State, Any], str]] = {
    "play": lambda s, a: f"Play {name(s, a.card)} on {place(s, a.place)}" + (
        f" to {use_words(s, a.card, tuple(a.choices))}" if a.choices else ""),
    "pair": lambda s, a: f"Play {name(s, a.cruiser)} with {name(s, a.capsule)} on {place(s, a.place)}",
    "pay": lambda s, a: f"Pay for {name(s, a.card)}",
    "pay-part": lambda s, a: f"Pay for {name(s, a.card)} (this part only)",
    "load": lambda s, a: f"Load a heavy weapon on {name(s, a.card)}",
    "research": lambda s, a: f"Put research on {name(s, a.card)}",
    "discard": lambda s, a: f"Discard {name(s, a.card)}",
    "drop": lambda s, a: f"Discard from hand {name(s, a.card)}",
    "repair": lambda s, a: f"Repair 1 {'hull' if a.part == 'hull' else 'shield'} damage on {name(s, a.card)}",
    "aim": lambda s, a: f"Aim a volley at {name(s, a.target)}",
    "add": lambda s, a: f"Add {name(s, a.card)}'s {WEAPON_WORDS.get(a.weapon, a.weapon)}",
    "shoot": lambda s, a: f"Fire back with {name(s, a.card)} at {name(s, a.target)}",
    "use": _describe_use,
    "swap": lambda s, a: f"Swap {name(s, a.card)} for the reserve's {name(s, a.reserve)}",
}
# Actions that are one fixed phrase.
ACTION_PHRASES = {"allocate": "Declare the allocation", "fire": "Fire the volley", "end": "End the phase",
                  "pass": "Pass", "quiet": "Pass, and let the rest of this turn go by without reacting",
                  "combine": "Combine", "separate": "Separate"}


def describe(game: GalacticEmpires, action: Any, viewer: int | None) -> str:
    """An action of the seat to move in words (for option buttons and logs), as ``viewer`` (a
    seat, or None for a spectator) may know it: the observer's :meth:`action` filter comes
    first, so a secret reserve fleet is a count for anyone but its chooser (GE-SETUP-2). To
    name everything (a finished game's full log), pass the seat to move as ``viewer``."""
    a = tuple(OBSERVER.action(game, action, viewer))
    if a[0] == "reserve":
        return _describe_reserve(a)
    words = ACTION_LINES.get(a[0])
    move = MOVES.lift(a)
    if words is not None and type(move) is not tuple:
        return words(game.s, move)
    return ACTION_PHRASES.get(a[0], " ".join(map(str, a)))


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


# What each step of the turn asks of the seat to move (the browser's guided mode). The rest
# depends on the position (what can be paid, played or fired, and why not), so it is worded in
# guide() from the position.
PHASE_GUIDES = {
    "allocate": "Point Allocation — your terrain and paid cards have made this turn's points (the pool). "
                "A ship or base works this turn only if you pay its cost now: pay, load heavy weapons "
                "with Ammunition, repair, then declare the allocation. Unspent points are lost.",
    "play-a": "Play Cards A — put cards from your hand into play (three card plays a turn), swap one with "
              "your reserve, or use a card's function; end the phase to go on to Weapons Fire.",
    "play-b": "Play Cards B — the card plays you have left this turn; end the phase to go on to Discard.",
    "discard": "Discard — throw away your own cards in play you no longer want (and, in the full edition, "
               "a card from hand for each card play you did not use); end the phase to draw and pass the turn.",
}
# The events a reaction window can be about, by the kind of the chain's last item.
CHAIN_WORDS = {"play": "card play", "pair": "card play", "allocate": "allocation plan", "fire": "volley",
               "shoot": "return fire", "use": "use of a card", "swap": "reserve swap", "discard": "discard",
               "drop": "discard", "combine": "combining of two ships", "separate": "parting of a ship",
               "act": "mission", "back": "mission"}
# Point types as the cards print them
POINT_WORDS = {"economy": "Economy", "supply": "Supply", "energy": "Energy", "ammunition": "Ammunition",
               "research": "Research", "repair": "Repair"}


def points_words(points: Sequence[int]) -> str:
    """Points by type ("2 Supply and 1 Energy"); "no points" for none."""
    parts = [f"{n} {POINT_WORDS[t]}" for t, n in zip(POINT_TYPES, points) if n]
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts) or "no points"


def unpaid_reasons(s: State, seat: int) -> list[str]:
    """Why each of ``seat``'s unpaid cards cannot be paid now, a phrase each ("Claw Cruiser
    needs 2 Supply"): the cost left over once the pool's points of each type (then its Economy,
    which stands in for any type) are counted."""
    from . import board, points
    if s.active != seat or s.phase != "allocate":
        return []
    pool = s.players[seat].pool
    out = []
    for u in board.fleet(s, seat):
        if u.paid or u.against or not board.has_cost(s, u.uid) or board.basis(s, u.uid) != u.uid:
            continue
        if points.price(s, u.uid) is not None:
            continue
        need = list(board.cost(s, u.uid))
        short = [max(0, n - pool[i]) for i, n in enumerate(need)]
        short[points.ECONOMY] = 0
        missing = [f"{n} {POINT_WORDS[t]}" for t, n in zip(POINT_TYPES, short) if n]
        out.append(f"{name(s, u.uid)} needs {' and '.join(missing) or points_words(need)}")
    return out


def guide(game: GalacticEmpires, seat: int) -> str | None:
    """What the decision in front of ``seat`` (the seat to move) asks of it, in a sentence or
    two for a newcomer, with why an option it may look for is missing; None when it is not
    ``seat``'s decision."""
    s = game.s
    if game.over or game.to_move != seat:
        return None
    p = s.players[seat]
    legal = game.legal_actions()
    kinds = {a[0] for a in legal}
    if s.priority is not None:
        top = s.chain[-1] if s.chain else None
        about = "" if top is None else f" to P{top.player}'s {CHAIN_WORDS.get(top.kind, top.kind)}"
        said = f" ({link_words(s, top.player, top.kind, top.action)})" if top is not None else ""
        return (f"A reaction window{about}{said}: you hold an answer — play a reaction card or use a "
                "card that can respond, or pass to let it happen. \"Pass for the rest of the turn\" "
                "stops these windows until the turn ends.")
    if s.phase == "setup":
        many = "exactly two cards" if s.edition == "quick" else "up to two cards (or none)"
        return (f"Before the deal, set {many} of your deck aside as a reserve fleet: your opponent learns "
                "only how many, and later you may swap a card from your hand for one of them (a card play). "
                "First game? A ship you would like to bring in later is a good pick"
                + ("" if s.edition == "quick" else ", or keep no reserve") + ".")
    if s.phase == "allocate":
        made = points_words(s.plan_pool) if s.plan_pool else points_words(p.pool)
        text = f"{PHASE_GUIDES['allocate']} This turn you made {made}; {points_words(p.pool)} left."
        why = unpaid_reasons(s, seat)
        if why:
            text += (" Not payable now: " + "; ".join(why) + f" — your cards made {made}, and Economy stands in for "
                     "any type; an unpaid card stays disengaged and cannot fire.")
        if p.turns <= 2 and "pay" in kinds:
            text += " First turns: click a ship's Pay button, then Declare."
        return text
    if s.phase == "fire":
        if s.aim is None:
            text = ("Weapons Fire — pick a target for a volley: an enemy card, or the Sector HQ once no "
                    "engaged ship guards it. Each target takes one volley a phase; end the phase when done.")
            if "aim" not in kinds:
                text += " None of your engaged ships can fire now."
            return text
        return (f"Weapons Fire — add the weapons that join the volley at {name(s, s.aim)}, then fire it. "
                "Each weapon adds its damage, which meets the target's shields first.")
    found = PHASE_GUIDES.get(s.phase)
    if found is None:
        return None
    text = found
    if s.phase in ("play-a", "play-b"):
        left = max(0, PLAYS_PER_TURN - p.plays)
        text += f" You have {left} card play{'s' * (left != 1)} left."
        if left and not kinds & {"play", "pair", "swap"}:
            text += " No card in your hand can be played now (each needs a place it fits: see its text)."
    return text


def hand(game: GalacticEmpires, viewer: int | None) -> list[str]:
    """The viewer's hand for the terminal, a card a line with its text (the observer's view)."""
    if viewer is None:
        return ["Hands are hidden from spectators."]
    cards = OBSERVER.view(game, viewer)["players"][viewer]["hand"]
    return [f"Your hand ({len(cards)}):" if cards else "Your hand is empty."] + [
        f"  {c['name']} [{c['kind']}]: {BY_KEY[c['key']].text}" for c in cards]


def irreversible(game: GalacticEmpires, action: Any, seat: int) -> str | None:
    """A discard, from play or from hand, is for good: the terminal asks before one picked by number."""
    if action[0] in ("discard", "drop"):
        where = "play" if action[0] == "discard" else "your hand"
        return f"discarding {name(game.s, action[1])} takes it out of {where} for good."
    return None
