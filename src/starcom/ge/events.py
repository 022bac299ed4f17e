"""Galactic Empires' events: what the rules report as they change the state, one type per kind.

As with actions (:mod:`.moves`), every event is a tuple whose first item is its kind, equal to
the plain tuple of the same items: ``Enter("enter", 0, 12, -1) == ("enter", 0, 12, -1)``. A
rule records one with ``s.say(Enter("enter", seat, uid, loc))``; the game hands the step's
events to its caller, the narrator (:mod:`.text`) words them and the observer passes them on.
Every event is public (GE-DIG-2): none carries a hand card or the deck order.

``player`` is a seat; ``card``, ``target``, ``place``, ``to`` are uids, where a negative
value ``-1 - seat`` is that seat's Sector HQ (a target) or fleet (a place). :data:`EVENTS` is
the registry of them all.
"""
from __future__ import annotations

from typing import Any, Literal, NamedTuple

from ..kit.codec import At, Kinds, Rest, TailTuple

# --------------------------------------------------------------------------- the turn


class Reserve(NamedTuple):
    """``player`` set ``size`` cards aside as its reserve fleet (which, only it knows)."""
    kind: Literal["reserve"]
    player: int
    size: int


class Ante(NamedTuple):
    """``player``'s ante, ``card``, is shown (GE-SETUP-6)."""
    kind: Literal["ante"]
    player: int
    card: int


class First(NamedTuple):
    """``player`` takes the first turn."""
    kind: Literal["first"]
    player: int


class Turn(NamedTuple):
    """``player`` begins its turn ``number`` (its own turns, from 1)."""
    kind: Literal["turn"]
    player: int
    number: int


class Phase(NamedTuple):
    """A step of the turn begins (``state.PHASES``)."""
    kind: Literal["phase"]
    phase: str


class Engaged(NamedTuple):
    """After allocation: ``player``'s engaged cards are ``cards`` (sorted uids)."""
    kind: Literal["engaged"]
    player: int
    cards: tuple[int, ...]


class Draw(NamedTuple):
    """``player`` draws ``number`` cards (a count: which cards is the hand's secret)."""
    kind: Literal["draw"]
    player: int
    number: int


class Expire(NamedTuple):
    """``card``'s duration has run out (GE-DUR-*): it leaves play."""
    kind: Literal["expire"]
    card: int


class TieBreak(NamedTuple):
    """The game ended for ``why`` (the stall guard or the turn cap) and ``winner`` won the
    tie-break (GE-WIN-5, GE-OPT-3)."""
    kind: Literal["tie-break"]
    why: str
    winner: int


class Eliminated(NamedTuple):
    """``player``'s Sector HQ has fallen (GE-WIN-1)."""
    kind: Literal["eliminated"]
    player: int


class Celebration(NamedTuple):
    """``player`` draws a card for a volley of 6 or more at a Sector HQ (GE-WIN-4)."""
    kind: Literal["celebration"]
    player: int


# --------------------------------------------------------------------------- points


class Pool(NamedTuple):
    """``player``'s allocation pool is now ``points`` (one count per point type)."""
    kind: Literal["pool"]
    player: int
    points: tuple[int, ...]


class Pay(NamedTuple):
    kind: Literal["pay"]
    player: int
    card: int


class PayPart(NamedTuple):
    kind: Literal["pay-part"]
    player: int
    card: int


class Load(NamedTuple):
    kind: Literal["load"]
    player: int
    card: int


class Repair(NamedTuple):
    """``player`` spends a repair point on ``card``'s ``part`` ("hull" or "shield")."""
    kind: Literal["repair"]
    player: int
    card: int
    part: str


class Research(NamedTuple):
    kind: Literal["research"]
    player: int
    card: int


class Negate(NamedTuple):
    """The research on ``card`` negates it (GE-ALLOC-8)."""
    kind: Literal["negate"]
    player: int
    card: int


class Allocate(NamedTuple):
    """``player`` declares its allocation."""
    kind: Literal["allocate"]
    player: int


class Replan(NamedTuple):
    """A reaction broke ``player``'s plan: it plans again from ``points`` (GE-ALLOC-15)."""
    kind: Literal["replan"]
    player: int
    points: tuple[int, ...]


# --------------------------------------------------------------------------- plays and the chain


class Announce(TailTuple):
    """``player`` puts a play on the chain. ``what`` is ``(card, place, reaction)`` for a card
    from hand, or the play itself for the other forms (``("pair", cruiser, capsule, place)``,
    ``("combine", cruiser, capsule)``, ``("separate", cruiser, shield, hull, mask)``)."""

    __slots__ = ()
    KIND = "announce"
    _fields = ("kind", "player", "*what")
    player = At[int](1)
    what = Rest[Any](2)


class AnnounceSwap(NamedTuple):
    """``player`` announces a swap of ``card`` from hand for ``reserve`` (GE-PLAY-6)."""
    kind: Literal["announce-swap"]
    player: int
    card: int
    reserve: int


class Swap(NamedTuple):
    """The swap resolves: ``card`` into the reserve, ``reserve`` into the hand."""
    kind: Literal["swap"]
    player: int
    card: int
    reserve: int


class Enter(NamedTuple):
    """``card`` of ``player`` comes into play at ``place``."""
    kind: Literal["enter"]
    player: int
    card: int
    place: int


class Leave(NamedTuple):
    """``card`` leaves play for its owner's ``to``: "hand" or "discard"."""
    kind: Literal["leave"]
    card: int
    to: str


class Void(NamedTuple):
    """``player``'s ``card`` (its play or its function) is voided (GE-VOID-*)."""
    kind: Literal["void"]
    player: int
    card: int


class Cancelled(NamedTuple):
    """``player``'s play of ``card`` was cancelled by a reaction."""
    kind: Literal["cancelled"]
    player: int
    card: int


class Pass(NamedTuple):
    """``player`` passes in a reaction window."""
    kind: Literal["pass"]
    player: int


class Use(TailTuple):
    """``player`` uses ``card``'s function with ``choices``."""

    __slots__ = ()
    KIND = "use"
    _fields = ("kind", "player", "card", "*choices")
    player = At[int](1)
    card = At[int](2)
    choices = Rest[Any](3)


class Discard(NamedTuple):
    """``player`` discards its ``card`` in play."""
    kind: Literal["discard"]
    player: int
    card: int


class Drop(NamedTuple):
    """``player`` discards ``card`` from hand."""
    kind: Literal["drop"]
    player: int
    card: int


class Combine(NamedTuple):
    kind: Literal["combine"]
    player: int
    cruiser: int
    capsule: int


class Separate(NamedTuple):
    kind: Literal["separate"]
    player: int
    cruiser: int
    capsule: int


# --------------------------------------------------------------------------- fire and damage


class Aim(NamedTuple):
    kind: Literal["aim"]
    player: int
    target: int


class Fire(NamedTuple):
    """``player`` fires at ``target`` with ``weapons``: (uid, "phaser" or "heavy") pairs."""
    kind: Literal["fire"]
    player: int
    target: int
    weapons: tuple[tuple[int, str], ...]


class Shoot(NamedTuple):
    """``player``'s ``card`` fires ``phasers`` phasers back at ``target``."""
    kind: Literal["shoot"]
    player: int
    card: int
    target: int
    phasers: int


class Volley(NamedTuple):
    """``player``'s volley at ``target`` comes in with ``amount`` points: its weapons' sum, before
    the target's own defences (a crew's reduction, an interception, protectors, shields: the
    ``damage`` events that follow say what they let through, GE-DMG-3)."""
    kind: Literal["volley"]
    player: int
    target: int
    amount: int


class VolleyLost(NamedTuple):
    kind: Literal["volley-lost"]
    player: int
    target: int


class Damage(NamedTuple):
    """``card`` takes ``amount`` points of structural damage, after its shields (0 when they
    held it all); its shield and structural damage are now ``shield`` and ``hull``."""
    kind: Literal["damage"]
    card: int
    amount: int
    shield: int
    hull: int


class CardDamage(NamedTuple):
    """``card`` (a monster, hazard or occurrence) deals ``amount`` card damage."""
    kind: Literal["card-damage"]
    card: int
    amount: int


class Destroyed(NamedTuple):
    kind: Literal["destroyed"]
    card: int


class Hq(NamedTuple):
    """``player``'s Sector HQ takes ``amount``, ``total`` in all."""
    kind: Literal["hq"]
    player: int
    amount: int
    total: int


class Escort(NamedTuple):
    """The escort ``card`` will take up to ``amount`` of the damage aimed at ``ship``."""
    kind: Literal["escort"]
    card: int
    ship: int
    amount: int


class Intercept(NamedTuple):
    """The escort ``card`` takes ``amount`` of the damage aimed at ``target``."""
    kind: Literal["intercept"]
    card: int
    target: int
    amount: int


# --------------------------------------------------------------------------- crew and missions


class Cure(NamedTuple):
    """The doctor ``card`` cures ``target`` (an illness leaves play)."""
    kind: Literal["cure"]
    card: int
    target: int


class Capture(NamedTuple):
    """``card``'s boarding party captures the crew ``target``."""
    kind: Literal["capture"]
    card: int
    target: int


class Wreck(NamedTuple):
    """``card``'s boarding party destroys the equipment ``target``."""
    kind: Literal["wreck"]
    card: int
    target: int


class StandIn(NamedTuple):
    """``card`` takes the place of the crew ``target``."""
    kind: Literal["stand-in"]
    card: int
    target: int


class Lucky(NamedTuple):
    """``card`` (Lucky Crew Action) turns the play of ``target`` aside."""
    kind: Literal["lucky"]
    card: int
    target: int


class Move(NamedTuple):
    """``card`` moves onto ``to``."""
    kind: Literal["move"]
    card: int
    to: int


class Travel(NamedTuple):
    """The crew ``card`` travels to ``to`` on a mission."""
    kind: Literal["travel"]
    card: int
    to: int


class Return(NamedTuple):
    """The crew ``card`` returns to ``to`` after a mission."""
    kind: Literal["return"]
    card: int
    to: int


Event = (Reserve | Ante | First | Turn | Phase | Engaged | Draw | Expire | TieBreak | Eliminated | Celebration
         | Pool | Pay | PayPart | Load | Repair | Research | Negate | Allocate | Replan | Announce
         | AnnounceSwap | Swap | Enter | Leave | Void | Cancelled | Pass | Use | Discard | Drop | Combine
         | Separate | Aim | Fire | Shoot | Volley | VolleyLost | Damage | CardDamage | Destroyed | Hq | Escort
         | Intercept | Cure | Capture | Wreck | StandIn | Lucky | Move | Travel | Return)

EVENTS: Kinds[Event] = Kinds(
    Reserve, Ante, First, Turn, Phase, Engaged, Draw, Expire, TieBreak, Eliminated, Celebration, Pool, Pay,
    PayPart, Load, Repair, Research, Negate, Allocate, Replan, Announce, AnnounceSwap, Swap, Enter, Leave,
    Void, Cancelled, Pass, Use, Discard, Drop, Combine, Separate, Aim, Fire, Shoot, Volley, VolleyLost,
    Damage, CardDamage, Destroyed, Hq, Escort, Intercept, Cure, Capture, Wreck, StandIn, Lucky, Move,
    Travel, Return)

# Events that show a card or its arrival (the observer's ``reveals``): an ante, a draw.
REVEALING = frozenset({"ante", "draw", "celebration"})
