"""Galactic Empires' words for the parts of a position a log, a label or the table names:
cards by their printed names, seats' fleets and Sector HQs, a card function's choices and a
link of the reaction chain, never an identifier. Read by :mod:`.text` (logs, option labels,
the guide) and :mod:`.observer` (the chain in a view); it reads the position only.
"""
from __future__ import annotations

from typing import Any, Final

from .cards import CARDS
from .state import State

# What a card function's choice word means, as a phrase (the words the card effects use).
CHOICE_WORDS: Final = {
    "cure": "cure an Illness here", "hull": "do 1 hull damage here", "supply": "give its ship 1 Supply",
    "research": "double a Research point", "repair": "double a Repair point", "energy": "double an Energy point",
}
# Kinds of chain links, as a noun
LINK_NOUNS: Final = {"play": "plays", "pair": "plays", "allocate": "declares the allocation", "fire": "fires a volley",
              "shoot": "fires back", "use": "uses", "swap": "swaps", "discard": "discards", "drop": "discards",
              "combine": "combines", "separate": "separates", "act": "carries out a mission",
              "back": "brings a crew back", "intercept": "intercepts"}
WEAPON_WORDS: Final = {"phaser": "phasers", "heavy": "heavy weapon"}
# Why a tie-break decided the game (the engine's end codes)
END_WORDS: Final = {"stall": "nothing happened for too long", "turn cap": "the turn limit was reached", "hq": "a Sector HQ fell"}


def seat_name(seat: int) -> str:
    return f"P{seat}"


def name(s: State, uid: Any) -> str:
    """A card by its printed name; a negative number is a seat's Sector HQ."""
    if isinstance(uid, int) and not isinstance(uid, bool) and uid < 0:
        return f"{seat_name(-1 - uid)}'s Sector HQ"
    if isinstance(uid, int) and 0 <= uid < len(s.spec_of):
        return CARDS[s.spec_of[uid]].name
    return str(uid).replace("_", " ")


def place(s: State, loc: Any) -> str:
    """Where a card is played: a card in play, or (a negative number) a seat's fleet."""
    if isinstance(loc, int) and not isinstance(loc, bool) and loc < 0:
        return f"{seat_name(-1 - loc)}'s fleet"
    return name(s, loc)


def listed(names: list[str]) -> str:
    if not names:
        return "nothing"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _crew_of(s: State, loc: int, owner: int) -> list[int]:
    """``owner``'s crew on ``loc`` in the order a transport's crew mask counts them."""
    from .cards.crew import own_crew_on
    return own_crew_on(s, loc, owner) if loc in s.units else []


def _picked(crew: list[int], mask: int) -> list[int]:
    return [c for i, c in enumerate(crew) if mask >> i & 1]


def use_words(s: State, card: int, choices: tuple[Any, ...]) -> str:
    """A card function's choices as a phrase ("move Doctor from Moon to Claw Cruiser"); empty
    for a function without choices."""
    if not choices:
        return ""
    verb, rest = str(choices[0]), list(choices[1:])
    owner = s.units[card].owner if card in s.units else (s.owner_of[card] if 0 <= card < len(s.owner_of) else 0)
    if verb == "move" and len(rest) == 3 and all(isinstance(x, int) for x in rest):  # from, to, crew mask
        here, there, mask = rest
        crew = _picked(_crew_of(s, here, owner), mask)
        return f"move {listed([name(s, c) for c in crew])} from {place(s, here)} to {place(s, there)}"
    if verb == "move" and len(rest) == 2 and all(isinstance(x, int) for x in rest):  # to, crew mask
        there, mask = rest
        home = s.units[card].parent if card in s.units else None
        crew = _picked(_crew_of(s, home, owner), mask) if home is not None else []
        return f"fly to {place(s, there)}" + (f" with {listed([name(s, c) for c in crew])}" if crew else "")
    if verb == "mission" and len(rest) >= 2:
        # (its own names: the compiled build gives a variable one type for the whole function)
        member, target, what = rest[0], rest[1], list(rest[2:])
        return f"send {name(s, member)} on a mission to {place(s, target)}" + (
            f" to {use_words(s, card, tuple(what))}" if what else "")
    if verb in ("capture", "wreck") and rest:
        return f"{verb} {name(s, rest[0])}"
    if verb == "intercept" and len(rest) == 2:
        return f"take up to {rest[1]} damage meant for {name(s, rest[0])}"
    if verb in CHOICE_WORDS and not rest:
        return CHOICE_WORDS[verb]
    words = [verb.replace("_", " ")] + [name(s, x) if isinstance(x, int) and x >= 0 else str(x) for x in rest]
    return " ".join(words)


def weapons_words(s: State, weapons: list[Any]) -> str:
    """A volley's weapons, ``(card, "phaser" | "heavy")`` each, counted per card
    ("Claw Cruiser (2 phasers, 1 heavy weapon) and Moon Base (1 phaser)")."""
    per: dict[int, dict[str, int]] = {}
    for uid, kind in weapons:
        per.setdefault(uid, {}).setdefault(kind, 0)
        per[uid][kind] += 1
    parts = []
    for uid, kinds in per.items():
        counts = [f"{n} {'phaser' if k == 'phaser' else 'heavy weapon'}{'s' * (n > 1)}" for k, n in kinds.items()]
        parts.append(f"{name(s, uid)} ({', '.join(counts)})")
    return listed(parts)


def link_words(s: State, player: int, kind: str, action: tuple[Any, ...]) -> str:
    """A link of the reaction chain as a sentence ("P1 fires a volley at P0's Sector HQ with
    Claw Cruiser's phasers")."""
    who = seat_name(player)
    a = tuple(action)
    if kind in ("play", "pair") and len(a) >= 3:
        if kind == "pair" and len(a) >= 4:
            return f"{who} plays {name(s, a[1])} with {name(s, a[2])} on {place(s, a[3])}"
        extra = use_words(s, a[1], tuple(a[3:])) if len(a) > 3 else ""
        return f"{who} plays {name(s, a[1])} on {place(s, a[2])}" + (f" to {extra}" if extra else "")
    if kind == "fire" and len(a) >= 3:
        return f"{who} fires a volley at {name(s, a[1])}" + (
            f" with {weapons_words(s, list(a[2]))}" if isinstance(a[2], tuple) and a[2] else "")
    if kind == "shoot" and len(a) >= 3:
        return f"{who}'s {name(s, a[1])} fires back at {name(s, a[2])}"
    if kind == "use" and len(a) >= 2:
        extra = use_words(s, a[1], tuple(a[2:]))
        return f"{who} uses {name(s, a[1])}" + (f" to {extra}" if extra else "")
    if kind == "allocate":
        return f"{who} declares the allocation"
    if kind == "swap" and len(a) >= 3:
        return f"{who} swaps {name(s, a[1])} for {name(s, a[2])} from the reserve"
    if kind in ("discard", "drop") and len(a) >= 2:
        return f"{who} discards {name(s, a[1])}"
    if kind == "combine" and len(a) >= 3:
        return f"{who} combines {name(s, a[1])} with {name(s, a[2])}"
    if kind == "separate" and len(a) >= 2:
        return f"{who} separates {name(s, a[1])}"
    if kind == "act" and len(a) >= 4:
        what = use_words(s, a[3], tuple(a[4:])) if len(a) > 4 else ""
        return f"{who}'s {name(s, a[1])} carries out its mission" + (f": {what}" if what else "")
    if kind == "back" and len(a) >= 2:
        return f"{who}'s {name(s, a[1])} comes back from its mission"
    if kind == "intercept" and len(a) >= 4:
        return f"{who}'s {name(s, a[1])} takes up to {a[3]} damage meant for {name(s, a[2])}"
    return f"{who} {LINK_NOUNS.get(kind, kind.replace('_', ' '))}"


__all__ = ["CHOICE_WORDS", "END_WORDS", "link_words", "listed", "weapons_words", "name", "place", "seat_name", "use_words"]
