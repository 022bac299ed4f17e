"""Galactic Empires' actions, one small immutable type per kind.

Each is a tuple whose first item is its kind, so ``Play("play", 12, 3)`` is equal to, and
hashes as, ``("play", 12, 3)``: the list form (JSON), the notation, saved games and the
plain tuples the legal-action lists hold all stay what they were. Card arguments are uids; a
Sector HQ or a fleet is ``-1 - seat``. ``reserve``, ``play`` and ``use`` end in a run of
values of any length (the card keys set aside, a card's choices) and are
:class:`~starcom.kit.codec.TailTuple`\\ s; the rest are NamedTuples.

:data:`MOVES` is the registry (:class:`~starcom.kit.codec.Kinds`) of them all.
"""
from __future__ import annotations

from typing import Any, Literal, NamedTuple

from ..kit.codec import At, Kinds, Rest, TailTuple


class Pass(NamedTuple):
    """Add nothing to the reaction window (GE-REACT-6)."""
    kind: Literal["pass"]


class Quiet(NamedTuple):
    """Pass now and in every window of the rest of this turn (GE-REACT-10)."""
    kind: Literal["quiet"]


class Reserve(TailTuple):
    """Set the cards ``keys`` (catalogue keys) aside as the reserve fleet (GE-SETUP-2)."""

    __slots__ = ()
    KIND = "reserve"
    _fields = ("kind", "*keys")
    keys = Rest[str](1)


class Pay(NamedTuple):
    """Pay the cost of ``card`` from the pool (GE-ALLOC-8)."""
    kind: Literal["pay"]
    card: int


class PayPart(NamedTuple):
    """Pay for one part of a combined Krebiz ship alone (GE-KREB-7)."""
    kind: Literal["pay-part"]
    card: int


class Load(NamedTuple):
    """Load a heavy weapon of ``card`` with an ammunition point (GE-FIRE-6)."""
    kind: Literal["load"]
    card: int


class Repair(NamedTuple):
    """Spend a repair point on ``card``'s ``part``: "hull" or "shield" (GE-PTS-5)."""
    kind: Literal["repair"]
    card: int
    part: str


class Research(NamedTuple):
    """Put research on ``card``, a card against one's own that research negates (GE-ALLOC-8)."""
    kind: Literal["research"]
    card: int


class Allocate(NamedTuple):
    """Declare the allocation: the plan stands unless a reaction breaks it."""
    kind: Literal["allocate"]


class Play(TailTuple):
    """Play ``card`` from hand onto ``place`` (a card, or ``-1 - seat``: a fleet), with the
    ``choices`` its text asks for (a transport's crew and mission, GE-MISSION-8)."""

    __slots__ = ()
    KIND = "play"
    _fields = ("kind", "card", "place", "*choices")
    card = At[int](1)
    place = At[int](2)
    choices = Rest[Any](3)


class Pair(NamedTuple):
    """Play a Krebiz ``cruiser`` and ``capsule`` together onto ``place``, as one play (GE-KREB-3)."""
    kind: Literal["pair"]
    cruiser: int
    capsule: int
    place: int


class Combine(NamedTuple):
    """Join two Krebiz parts in play into one ship (GE-KREB-5)."""
    kind: Literal["combine"]
    cruiser: int
    capsule: int


class Separate(NamedTuple):
    """Part a combined ship: the capsule takes ``shield`` and ``hull`` damage and the movable
    cards in ``mask`` (GE-KREB-6)."""
    kind: Literal["separate"]
    cruiser: int
    shield: int
    hull: int
    mask: int


class Swap(NamedTuple):
    """Put ``card`` from hand into the reserve and take ``reserve`` (GE-PLAY-6)."""
    kind: Literal["swap"]
    card: int
    reserve: int


class Use(TailTuple):
    """Use the function of ``card`` in play with its ``choices`` (GE-ACT-1)."""

    __slots__ = ()
    KIND = "use"
    _fields = ("kind", "card", "*choices")
    card = At[int](1)
    choices = Rest[Any](2)


class Aim(NamedTuple):
    """Declare a volley at ``target`` (a card, or ``-1 - seat``: a Sector HQ) (GE-FIRE-3)."""
    kind: Literal["aim"]
    target: int


class Add(NamedTuple):
    """Add ``card``'s ``weapon`` ("phaser" or "heavy") to the volley being declared."""
    kind: Literal["add"]
    card: int
    weapon: str


class Fire(NamedTuple):
    """Fire the volley declared (GE-FIRE-4)."""
    kind: Literal["fire"]


class Shoot(NamedTuple):
    """Fire ``card``'s phasers back at ``target`` as a reaction to a volley: never legal (a card
    in play has no such reaction, GE-REACT-4, GE-REACT-8); kept so that a record holding one
    still reads, and is refused with that rule."""
    kind: Literal["shoot"]
    card: int
    target: int


class Discard(NamedTuple):
    """Discard one's own ``card`` in play (GE-DISC-1)."""
    kind: Literal["discard"]
    card: int


class Drop(NamedTuple):
    """Discard ``card`` from hand for an unused card play (GE-DISC-2)."""
    kind: Literal["drop"]
    card: int


class End(NamedTuple):
    """End the phase."""
    kind: Literal["end"]


Move = (Pass | Quiet | Reserve | Pay | PayPart | Load | Repair | Research | Allocate | Play | Pair | Combine
        | Separate | Swap | Use | Aim | Add | Fire | Shoot | Discard | Drop | End)

MOVES: Kinds[Move] = Kinds(Pass, Quiet, Reserve, Pay, PayPart, Load, Repair, Research, Allocate, Play, Pair,
                           Combine, Separate, Swap, Use, Aim, Add, Fire, Shoot, Discard, Drop, End)
_TYPES = MOVES.types


def typed(act: tuple[Any, ...]) -> Move:
    """The typed value of the well-formed action ``act`` (a legal one, say): no check, the
    fast path of playing an action."""
    cls = _TYPES[act[0]]
    if type(act) is cls:
        return act
    new: Move = tuple.__new__(cls, act)
    return new


# Values that are numbers, not cards. Fixed fields by kind, as positions in the tuple (the kind
# at 0): a separation's damage shares and its bitmask of the cards that go with the capsule.
NUMBER_FIELDS: dict[str, tuple[int, ...]] = {"separate": (2, 3, 4)}
# In a card's choices (``play`` and ``use``), a word whose run of values ends in a number: a
# move's or an evacuation's bitmask of the crew that go, an interception's count of points.
COUNTED = frozenset({"move", "evacuate", "intercept"})
# ... and a word whose next value is a target, a Sector HQ when negative (a shuttle's shot).
AIMED = frozenset({"fire"})
_TAILS = {"play": 3, "use": 2}  # where the choices begin


def value_roles(act: tuple[Any, ...]) -> dict[int, str]:
    """What each integer value of ``act`` that is not a card stands for, by its position in the
    tuple: ``"number"`` (a count, a bitmask, a damage share) or ``"hq"`` (a target that is a
    Sector HQ when negative; elsewhere a negative value is a fleet). Any other integer is a
    card. Works on any tuple (a malformed one just has fewer roles)."""
    roles = {i: "number" for i in NUMBER_FIELDS.get(act[0], ()) if i < len(act)}
    if act[0] == "aim":
        roles[1] = "hq"
    start = _TAILS.get(act[0])
    if start is None:
        return roles
    n, i = len(act), start
    while i < n:
        word = act[i]
        i += 1
        if type(word) is not str:
            continue
        j = i
        while j < n and type(act[j]) is int:
            j += 1
        if word in COUNTED and j > i:
            roles[j - 1] = "number"
        if word in AIMED and j > i:
            roles[i] = "hq"
        i = j
    return roles


def cards_played(act: tuple[Any, ...]) -> tuple[Any, ...]:
    """The hand (or reserve) cards a play, a Krebiz pair or a reserve swap moves."""
    if act[0] == "play":  # a transport played with a crew card names it after "with" (GE-MISSION-8)
        return act[1:2] + (act[4:5] if len(act) > 4 and act[3] == "with" else ())
    return act[1:3] if act[0] in ("pair", "swap") else ()
