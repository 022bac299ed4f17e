"""The action notation: one short text per action, printed and parsed (like chess's UCI).

An action is written as its kind and then its fields in order, each in the form of its field
kind (``actions.SIGNATURES``; a card's targets by its declared target kinds)::

    jump Corvette#93 b2 +explore +2 fighters     build Strike Fighter c3     develop b3
    play Sabotage#17 Frigate#40                   ability Drummond#88 Scout#5 a3 +explore
    sell Ram#12 Evasion#30    offer P1    give credit 1    ask tech Advanced Weapons#21
    accept Ram#12    assign Corvette#3 Frigate#9 2    redirect Defense Station#4 Scout#7
    retreat Frigate#9 c2    fight a2    choose Barrage#12    choose industry    choose skip
    end    pass    buy    propose    cancel    decline    done

A card instance is ``Name#id`` (the id tells copies apart), a card type (``build``) its name,
a position its board name, a player ``P1``; an ``explore`` flag is ``+explore`` or nothing, a
number of fighters carried ``+N fighters`` or nothing; a hidden value (see
``view.action_for``) is ``?``. The printer writes exactly this form; :func:`parse` reads it,
and also bare numbers in any field (``jump 93 5 1 0``, ``offer 1``). Positions, choices and
targets are read relative to a game, so the text belongs to one position (as chess's SAN).

The scenario files write their actions in this notation, with two shortcuts that need the
scenario's context: ``$label`` for a labelled vessel and a card's bare name for "the copy I
mean". :func:`parse` hands those tokens to a ``lookup`` function; without one they are errors.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any, Final

from ..cards.catalogue import DOMAINS, STANDARD, Catalogue
from ..cards.wording import CHOICE_WORDS
from . import actions as A
from .board import name as pos_name
from .board import parse as parse_pos
from ...errors import IllegalAction
from .moves import Action
from .state import GameState
from .trade import ITEM_KINDS

# Resolves a ``$label`` or a bare card name to a card instance id (see the module docstring);
# its second argument is the kind of the field being read.
Lookup = Callable[[str, str], int]

_INT: Final = re.compile(r"-?\d+")
_CARD: Final = re.compile(r"(.*)#(\d+)")
_PLAYER: Final = re.compile(r"P(\d+)")
_POS: Final = re.compile(r"[a-z]\d+")
_CARRY: Final = re.compile(r"\+(\d+)")
_INSTANCE: Final = frozenset({"vessel", "card"})
# The kinds an item's value takes in ``give``/``ask`` (credits and hand cards count one).
_ITEM_VALUE: Final = {"card": "card", "tech": "card", "vessel": "vessel", "system": "pos"}


def _choice_kind(g: GameState) -> str | None:
    c: Any = g.choice
    if c is None:
        return None
    kind = c["kind"] if isinstance(c, dict) else getattr(c, "kind", None)
    return kind if isinstance(kind, str) else None


def _option_kind(g: GameState) -> str:
    """The kind of the options of the pending choice: card, pos, player, deck or int."""
    from .view import card_options  # late: the observer imports nothing of the action layer
    kind = _choice_kind(g)
    if kind is None:
        return "int"
    if kind == "deck":
        return "deck"
    if kind == "order" or card_options(kind):
        return "card"
    words = CHOICE_WORDS.get(kind)
    return words.value if words is not None and words.value in ("card", "pos", "player") else "int"


def field_kinds(g: GameState, a: tuple[Any, ...]) -> list[str]:
    """The kind of each argument of ``a`` (one per value after the kind): the kind's
    signature, a card's targets by its declared target kinds, an item's value by its item,
    a choice by its options; "" where it is not known (the value is then written as is)."""
    sig = A.SIGNATURES.get(a[0]) if isinstance(a[0], str) else None
    if sig is None:
        return [""] * (len(a) - 1)
    kinds: list[str] = []
    for name, fk, _ in sig:
        if not name.startswith("*"):
            kinds.append(fk)
            continue
        rest = len(a) - 1 - len(kinds)
        star: tuple[str, ...] | None = None
        if fk == "target" and len(a) > 1 and type(a[1]) is int and 0 <= a[1] < len(g.rules.cards):
            star = A.target_kinds(g, a[0], a[1])
        if star is None or len(star) != rest:
            star = (fk if fk != "target" else "",) * rest
        kinds.extend(star)
    if a[0] in ("give", "ask") and len(a) > 2:
        kinds[1] = _ITEM_VALUE.get(a[1], "int") if isinstance(a[1], str) else ""
    if a[0] == "choose" and len(a) > 1:
        kinds[0] = "word" if isinstance(a[1], str) else _option_kind(g)
    kinds += [""] * (len(a) - 1 - len(kinds))
    return kinds[:len(a) - 1]


# --------------------------------------------------------------------------- printing


def _show(g: GameState, kind: str, x: Any) -> str:
    if x is None:
        return "?"
    if type(x) is not int:
        return str(x)
    if kind in _INSTANCE:
        return f"{g.rules.cards[x].name}#{x}" if 0 <= x < len(g.rules.cards) else str(x)
    if kind == "pos":
        size = g.cfg.size
        return pos_name(x, size) if 0 <= x < size * size else str(x)
    if kind == "def":
        return g.rules.catalogue.defs[x].name if 0 <= x < len(g.rules.catalogue.defs) else str(x)
    if kind == "player":
        return f"P{x}" if x >= 0 else str(x)
    if kind == "deck":
        return DOMAINS[x] if 0 <= x < len(DOMAINS) else str(x)
    if kind == "explore":
        return {0: "", 1: "+explore"}.get(x, str(x))
    if kind == "carry":
        return "" if x == 0 else f"+{x} fighter" if x == 1 else f"+{x} fighters"
    return str(x)


def notation(g: GameState, a: tuple[Any, ...]) -> str:
    """The text of action ``a`` in game ``g`` (any tuple; values that fit no field kind are
    written as they are). Different legal actions of one decision get different texts."""
    parts = [str(a[0])]
    for kind, x in zip(field_kinds(g, a), a[1:]):
        s = _show(g, kind, x)
        if s:
            parts.append(s)
    return " ".join(parts)


# --------------------------------------------------------------------------- parsing


def _name_of(word: str) -> str:
    """The card name in ``Name#id`` (or ``Name``)."""
    return word.split("#", 1)[0]


@cache
def _longest_name(catalogue: Catalogue) -> int:
    return max((len(d.name.split()) for d in catalogue.defs), default=1)


def tokens(text: str, catalogue: Catalogue = STANDARD) -> list[str]:
    """The words of ``text``, a card's name of ``catalogue`` (with its ``#id``) kept as one
    token."""
    words = text.split()
    longest, by_name = _longest_name(catalogue), catalogue.by_name
    out: list[str] = []
    i = 0
    while i < len(words):
        j = i + 1
        for k in range(min(len(words), i + longest), i + 1, -1):
            if "#" not in "".join(words[i:k - 1]) and _name_of(" ".join(words[i:k])) in by_name:
                j = k
                break
        out.append(" ".join(words[i:j]))
        i = j
    return out


class _Reader:
    """Reads the tokens of one action text, field by field."""

    def __init__(self, g: GameState, text: str, lookup: Lookup | None, strict: bool) -> None:
        self.g, self.text, self.lookup, self.strict = g, text, lookup, strict
        self.cards, self.by_name = g.rules.cards, g.rules.catalogue.by_name
        self.toks = tokens(text, g.rules.catalogue)
        self.i = 1

    def fail(self, why: str) -> IllegalAction:
        return IllegalAction(f"cannot read {self.text.strip()!r}: {why}")

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> str:
        self.i += 1
        return self.toks[self.i - 1]

    def lookup_name(self, tok: str, kind: str) -> int | str:
        if self.lookup is not None:
            return self.lookup(tok, kind)
        if tok.startswith("$"):
            raise self.fail(f"{tok!r} is a scenario label; here name the card as Name#id")
        if self.strict:
            raise self.fail(f"name which {tok} you mean with its card id ({tok}#id)")
        return tok

    def card(self, tok: str, kind: str) -> int | str:
        """A card instance: ``Name#id``, ``#id``, an id, or a name for ``lookup``."""
        m = _CARD.fullmatch(tok)
        if m:
            name, cid = m.group(1).strip(), int(m.group(2))
            if not 0 <= cid < len(self.cards):
                raise self.fail(f"there is no card #{cid} (ids are 0..{len(self.cards) - 1})")
            if name and self.cards[cid].name != name:
                raise self.fail(f"card #{cid} is a {self.cards[cid].name}, not a {name}")
            return cid
        if _INT.fullmatch(tok):
            return int(tok)
        if tok.startswith("$") or tok in self.by_name:
            return self.lookup_name(tok, kind)
        return self.wrong(tok, kind)

    def wrong(self, tok: str, kind: str) -> int | str:
        """A token that is not of ``kind``: an error when strict, else read as it looks."""
        nouns = {"vessel": "a vessel (Name#id)", "card": "a card (Name#id)", "pos": "a position like b2",
                 "def": "a card type's name", "player": "a player like P1", "item": "an item kind ("
                 + ", ".join(ITEM_KINDS) + ")", "deck": "a deck (" + ", ".join(DOMAINS) + ")"}
        if self.strict:
            raise self.fail(f"expected {nouns.get(kind, 'a number')}, not {tok!r}")
        return self.any(tok)

    def any(self, tok: str) -> int | str:
        """A token read by its form alone."""
        if _INT.fullmatch(tok):
            return int(tok)
        if _CARD.fullmatch(tok) or tok.startswith("$") or tok in self.by_name:
            return self.card(tok, "card")
        if _PLAYER.fullmatch(tok):
            return int(tok[1:])
        if tok == "+explore":
            return 1
        if _POS.fullmatch(tok):
            try:
                return parse_pos(tok, self.g.cfg.size)
            except ValueError:
                return tok
        return tok

    def value(self, kind: str, tok: str) -> int | str:
        """One token as a value of field kind ``kind``."""
        if _INT.fullmatch(tok) and kind != "item":
            return int(tok)
        if kind in _INSTANCE:
            return self.card(tok, kind)
        if kind == "pos":
            if tok.startswith("$") or tok in self.by_name:
                return self.wrong(tok, kind)
            try:
                return parse_pos(tok, self.g.cfg.size)
            except ValueError as exc:
                if self.strict:
                    raise self.fail(str(exc)) from None
                return tok
        if kind == "def":
            return self.by_name[tok].index if tok in self.by_name else self.wrong(tok, kind)
        if kind == "player":
            return int(tok[1:]) if _PLAYER.fullmatch(tok) else self.wrong(tok, kind)
        if kind == "deck":
            return DOMAINS.index(tok) if tok in DOMAINS else self.any(tok)
        if kind == "option":  # read by its form; a deck by its domain's name
            return DOMAINS.index(tok) if tok in DOMAINS and _option_kind(self.g) == "deck" else self.any(tok)
        if kind == "explore" and tok == "+explore":
            return 1
        if kind == "item":
            return tok if tok in ITEM_KINDS else self.wrong(tok, kind)
        if kind == "":
            return self.any(tok)
        return self.wrong(tok, kind)

    def optional(self, kind: str) -> int | None:
        """An ``explore`` or ``carry`` field, which may be left out (0); None if it is not."""
        tok = self.peek()
        if kind == "explore":
            if tok == "+explore" or (tok is not None and _INT.fullmatch(tok)):
                return int(self.value(kind, self.take()))
            return 0
        if kind == "carry":
            if tok is not None and _CARRY.fullmatch(tok):
                self.take()
                if self.peek() in ("fighter", "fighters"):
                    self.take()
                return int(tok[1:])
            if tok is not None and _INT.fullmatch(tok):
                return int(self.take())
            return 0
        return None

    def field(self, kind: str, name: str, out: list[Any]) -> bool:
        """Read one field into ``out``; False when the text has ended (the field is missing)."""
        got = self.optional(kind)
        if got is not None:
            out.append(got)
            return True
        if self.peek() is None:
            return False
        tok = self.take()
        if tok == "?":
            raise self.fail(f"field '{name}' is hidden ('?'): a hidden value cannot be played")
        out.append(self.value(kind, tok))
        return True

    def read(self) -> tuple[Any, ...]:
        if not self.toks:
            raise IllegalAction("cannot read an empty action text: write its kind first, e.g. 'end'")
        kind = self.toks[0]
        if kind not in A.SIGNATURES and not self.strict:  # applying it names the problem
            return (kind, *(self.any(t) for t in self.toks[1:]))
        if kind not in A.SIGNATURES:
            raise self.fail(f"unknown action kind {kind!r}; kinds are: {', '.join(A.SIGNATURES)}")
        out: list[Any] = [kind]
        for name, fk, _ in A.SIGNATURES[kind]:
            if name.startswith("*"):
                self.rest(out, name[1:], fk)
                break
            if kind == "choose":
                fk = "option"
            elif kind in ("give", "ask") and name == "value":
                fk = _ITEM_VALUE.get(out[1], "int") if isinstance(out[1], str) else ""
            if not self.field(fk, name, out):
                if self.strict:
                    raise self.fail(f"'{kind}' takes ({', '.join(A.FIELDS[kind])}): '{name}' is missing")
                return tuple(out)
        if self.i < len(self.toks):
            if self.strict:
                raise self.fail(f"'{kind}' takes ({', '.join(A.FIELDS[kind]) or 'nothing'}); "
                                f"{' '.join(self.toks[self.i:])!r} is left over")
            out.extend(self.any(t) for t in self.toks[self.i:])
        return tuple(out)

    def rest(self, out: list[Any], name: str, elem: str) -> None:
        """The ``*`` field: a card's targets (read by their declared kinds) or card ids."""
        card = out[1] if len(out) > 1 else None
        if elem == "target" and type(card) is int and 0 <= card < len(self.cards):
            kinds = A.target_kinds(self.g, out[0], card) or ()
            for k in kinds:
                if not self.field(k, name, out) and self.strict:
                    raise self.fail(f"{self.cards[card].name} takes the targets ({', '.join(kinds)}): "
                                    f"'{k}' is missing")
        while self.i < len(self.toks):
            if not self.field(elem if elem != "target" else "", name, out):
                break


def parse(g: GameState, text: Any, lookup: Lookup | None = None, strict: bool = True) -> tuple[Any, ...]:
    """The action that ``text`` writes in game ``g`` (see the module docstring).

    Strict (the default): IllegalAction, naming what is wrong, for a text that is not a
    well-formed action here (unknown kind, a field missing, left over or of the wrong form, a
    card id whose name does not match, a value out of range); the result is then a typed action
    (:mod:`.moves`) but not necessarily legal now. Not strict (scenarios): tokens that fit no
    field are read by their form and fields may be missing, so that applying the action
    reports what is wrong with it, as it would for a tuple."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action text is a string, not {type(text).__name__}")
    a = _Reader(g, text, lookup, strict).read()
    if not strict:
        return a
    reason = A.malformed(g, a)
    if reason is not None:
        raise IllegalAction(f"cannot read {text.strip()!r}: {reason}")
    parsed: Action = A.typed(a)
    return parsed
