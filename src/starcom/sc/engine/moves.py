"""Action types: one small immutable value per kind of decision.

Each is a tuple whose first item is the kind, so ``Jump("jump", 93, 5, 1, 0)`` compares and
hashes equal to the plain tuple ``("jump", 93, 5, 1, 0)``: saved games, search-tree keys, tests
and the order of legal actions work the same with either. The fields have names, which the JSON
form (:func:`starcom.sc.engine.actions.to_json`) and the notation (:mod:`.notation`) are derived
from; a field named with a trailing underscore (``from_``) is written without it.

Fixed-length kinds are NamedTuples. ``play``, ``ability`` and ``accept`` end in a run of values
of any length (a card's targets, the cards handed over), which a NamedTuple cannot hold: they
are tuple subclasses with the same shape, named accessors, and ``_fields`` ending in a
``"*name"`` field that takes the rest of the tuple.
"""
from __future__ import annotations

from typing import Any, ClassVar, Literal, NamedTuple, Self, cast


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


class TailTuple(tuple[Any, ...]):
    """A kind whose last field takes the rest of the tuple (see the module docstring)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]]

    def __repr__(self) -> str:
        return type(self).__name__ + tuple.__repr__(self)

    def _replace(self, **changes: Any) -> Any:
        """A copy with the named fields changed (the ``*`` field given as a sequence), like a
        NamedTuple's ``_replace``."""
        head = list(self[:len(self._fields) - 1])
        star = self._fields[-1][1:]
        rest = tuple(changes.pop(star, self[len(self._fields) - 1:]))
        for name, value in changes.items():
            head[self._fields.index(name)] = value
        return tuple.__new__(type(self), (*head, *rest))


class Play(TailTuple):
    """Play the hand card ``card`` with its ``targets`` (kinds as the card declares them)."""

    __slots__ = ()
    _fields = ("kind", "card", "*targets")

    def __new__(cls, kind: Literal["play"], card: int, *targets: int) -> Self:
        return tuple.__new__(cls, (kind, card, *targets))

    @property
    def kind(self) -> Literal["play"]:
        return "play"

    @property
    def card(self) -> int:
        return cast(int, self[1])

    @property
    def targets(self) -> tuple[int, ...]:
        return tuple(self[2:])


class Ability(TailTuple):
    """Use the ability of ``source`` (a card in play or a technology) with its ``targets``."""

    __slots__ = ()
    _fields = ("kind", "source", "*targets")

    def __new__(cls, kind: Literal["ability"], source: int, *targets: int) -> Self:
        return tuple.__new__(cls, (kind, source, *targets))

    @property
    def kind(self) -> Literal["ability"]:
        return "ability"

    @property
    def source(self) -> int:
        return cast(int, self[1])

    @property
    def targets(self) -> tuple[int, ...]:
        return tuple(self[2:])


class Accept(TailTuple):
    """Accept the trade offered, handing over the hand ``cards`` it asks for."""

    __slots__ = ()
    _fields = ("kind", "*cards")

    def __new__(cls, kind: Literal["accept"], *cards: int) -> Self:
        return tuple.__new__(cls, (kind, *cards))

    @property
    def kind(self) -> Literal["accept"]:
        return "accept"

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(self[1:])


# Any typed action value. (Functions that take actions from outside also take plain tuples of
# the same shape; see actions.validate.)
Action = (Jump | Build | Develop | Play | Ability | Scrap | Repair | Buy | Sell | Offer | Give | Ask |
               Propose | Cancel | Accept | Decline | End | Pass | Redirect | Fight | Assign | Retreat |
               Done | Choose)

# The type of each kind, in the order of the kinds' documentation (docs/architecture.md).
ACTION_TYPES: dict[str, type[tuple[Any, ...]]] = {
    "jump": Jump, "build": Build, "develop": Develop, "play": Play, "ability": Ability,
    "scrap": Scrap, "repair": Repair, "buy": Buy, "sell": Sell, "offer": Offer, "give": Give,
    "ask": Ask, "propose": Propose, "cancel": Cancel, "accept": Accept, "decline": Decline,
    "end": End, "pass": Pass, "redirect": Redirect, "fight": Fight, "assign": Assign,
    "retreat": Retreat, "done": Done, "choose": Choose,
}


def field_names(cls: type[tuple[Any, ...]]) -> tuple[str, ...]:
    """The public names of a kind's fields after ``kind``, as JSON and the notation write
    them: a trailing ``_`` dropped, the field that takes the rest marked ``"*name"``."""
    fields: tuple[str, ...] = getattr(cls, "_fields")
    return tuple(f.removesuffix("_") for f in fields[1:])


def json_form(value: tuple[Any, ...], names: tuple[str, ...]) -> dict[str, Any]:
    """``value`` (an action or event tuple) as a JSON object: ``{"type": kind, field: value,
    ...}`` with ``names`` (see :func:`field_names`) as its keys; the ``*`` field and any tuple
    value as a list."""
    out: dict[str, Any] = {"type": value[0]}
    for i, name in enumerate(names, 1):
        if name[0] == "*":
            out[name[1:]] = list(value[i:])
            break
        x = value[i]
        out[name] = list(x) if isinstance(x, tuple) else x
    return out
