"""Action types: one small immutable value per kind of decision.

Each is a tuple whose first item is the kind, so ``Jump("jump", 93, 5, 1, 0)`` compares and
hashes equal to the plain tuple ``("jump", 93, 5, 1, 0)``: saved games, search-tree keys, tests
and the order of legal actions work the same with either. The fields have names, which the JSON
form (:func:`starcom.sc.engine.actions.to_json`) and the notation (:mod:`.notation`) are derived
from; a field named with a trailing underscore (``from_``) is written without it.

Fixed-length kinds are NamedTuples. ``play``, ``ability`` and ``accept`` end in a run of values
of any length (a card's targets, the cards handed over), which a NamedTuple cannot hold: they
are the engine kit's :class:`~starcom.kit.codec.TailTuple`\\ s, whose ``_fields`` end in a
``"*name"`` field that takes the rest of the tuple. :data:`ACTIONS` registers them all.
"""
from __future__ import annotations

from typing import Literal, NamedTuple

from ...kit.codec import At, Kinds, Rest, TailTuple


class Jump(NamedTuple):
    """Move ``vessel`` to position ``to``; ``explore`` 1 to explore a face-down system there
    (classic edition: optional), with ``carry`` fighters aboard."""
    kind: Literal["jump"]
    vessel: int
    to: int
    explore: int
    carry: int


class Build(NamedTuple):
    """Build a vessel of card type ``card`` (an index into ``Catalogue.defs``) at ``at``."""
    kind: Literal["build"]
    card: int
    at: int


class Develop(NamedTuple):
    """Add a development to the system at ``at``."""
    kind: Literal["develop"]
    at: int


class Scrap(NamedTuple):
    """Scrap one's own ``vessel``."""
    kind: Literal["scrap"]
    vessel: int


class Repair(NamedTuple):
    """Repair one's own damaged ``vessel``."""
    kind: Literal["repair"]
    vessel: int


class Buy(NamedTuple):
    """Pay credits to draw a card."""
    kind: Literal["buy"]


class Sell(NamedTuple):
    """Discard the hand cards ``card`` and ``other`` for credits."""
    kind: Literal["sell"]
    card: int
    other: int


class Offer(NamedTuple):
    """Open a trade offer to player ``to``."""
    kind: Literal["offer"]
    to: int


class Give(NamedTuple):
    """Add an item to what the offer gives: ``item`` one of ``trade.ITEM_KINDS``, ``value`` the
    card, vessel or position (1 for a credit)."""
    kind: Literal["give"]
    item: str
    value: int


class Ask(NamedTuple):
    """Add an item to what the offer asks for (as :class:`Give`)."""
    kind: Literal["ask"]
    item: str
    value: int


class Propose(NamedTuple):
    """Send the trade offer being built."""
    kind: Literal["propose"]


class Cancel(NamedTuple):
    """Withdraw the trade offer being built."""
    kind: Literal["cancel"]


class Decline(NamedTuple):
    """Refuse the trade offered."""
    kind: Literal["decline"]


class End(NamedTuple):
    """End the Command phase."""
    kind: Literal["end"]


class Pass(NamedTuple):
    """Pass priority (or close a build window)."""
    kind: Literal["pass"]


class Redirect(NamedTuple):
    """Let ``vessel`` take the damage assigned to ``from_`` (JSON and notation: ``from``)."""
    kind: Literal["redirect"]
    vessel: int
    from_: int


class Fight(NamedTuple):
    """Pick the combat at ``at`` to resolve next."""
    kind: Literal["fight"]
    at: int


class Assign(NamedTuple):
    """Aim ``amount`` damage of ``vessel`` at ``target``."""
    kind: Literal["assign"]
    vessel: int
    target: int
    amount: int


class Retreat(NamedTuple):
    """Withdraw ``vessel`` from combat to ``to``."""
    kind: Literal["retreat"]
    vessel: int
    to: int


class Done(NamedTuple):
    """Finish assigning damage, or retreating."""
    kind: Literal["done"]


class Choose(NamedTuple):
    """Pick ``value`` among the options of the pending choice."""
    kind: Literal["choose"]
    value: int | str


class Play(TailTuple):
    """Play the hand card ``card`` with its ``targets`` (kinds as the card declares them)."""

    __slots__ = ()
    KIND = "play"
    _fields = ("kind", "card", "*targets")
    card = At[int](1)
    targets = Rest[int](2)


class Ability(TailTuple):
    """Use the ability of ``source`` (a card in play or a technology) with its ``targets``."""

    __slots__ = ()
    KIND = "ability"
    _fields = ("kind", "source", "*targets")
    source = At[int](1)
    targets = Rest[int](2)


class Accept(TailTuple):
    """Accept the trade offered, handing over the hand ``cards`` it asks for."""

    __slots__ = ()
    KIND = "accept"
    _fields = ("kind", "*cards")
    cards = Rest[int](1)


# Any typed action value. (Functions that take actions from outside also take plain tuples of
# the same shape; see actions.validate.)
Action = (Jump | Build | Develop | Play | Ability | Scrap | Repair | Buy | Sell | Offer | Give | Ask |
               Propose | Cancel | Accept | Decline | End | Pass | Redirect | Fight | Assign | Retreat |
               Done | Choose)

# The registry of the kinds, in the order of their documentation (docs/architecture.md):
# their JSON form and field names come from it (starcom.kit.codec).
ACTIONS: Kinds[Action] = Kinds(
    Jump, Build, Develop, Play, Ability, Scrap, Repair, Buy, Sell, Offer, Give, Ask, Propose, Cancel,
    Accept, Decline, End, Pass, Redirect, Fight, Assign, Retreat, Done, Choose)
ACTION_TYPES = ACTIONS.types  # kind -> its type
