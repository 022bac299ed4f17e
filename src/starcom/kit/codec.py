"""Typed actions and events: tuples tagged by their kind, one JSON form and one notation.

A game declares each kind of action (or event) as a class whose values are tuples starting
with the kind: a ``NamedTuple`` whose first field is ``kind: Literal["..."]``, or, for a kind
whose last field takes the rest of the tuple (a card's choices, say), a :class:`TailTuple`
subclass. Either way a typed value compares and hashes equal to the plain tuple of the same
items, so lists of legal actions, saved games and search keys do not care which they hold.

:class:`Kinds` registers such classes by kind and converts between plain tuples, typed values
and the JSON list ``[kind, *fields]`` (nested tuples as nested lists). :class:`Notation`
writes a value as words, the kind first and then one word per field, and reads the words back;
what a word looks like is the game's business, given as two functions.
"""
from __future__ import annotations

import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Self, TypeVar, overload

T = TypeVar("T")
V = TypeVar("V", bound=tuple[Any, ...])


# --------------------------------------------------------------------------- kinds with a tail


class TailTuple(tuple[Any, ...]):
    """A kind whose last field takes the rest of the tuple.

    A subclass sets ``KIND`` (its tag) and ``_fields``: the field names in order, starting with
    ``"kind"`` and ending with ``"*name"``, which holds every item after the fixed ones. Name
    the fields with :class:`At` and :class:`Rest`."""

    __slots__ = ()
    KIND: ClassVar[str]
    _fields: ClassVar[tuple[str, ...]]

    def __new__(cls, *values: Any) -> Self:
        return tuple.__new__(cls, values)

    def __getnewargs__(self) -> tuple[Any, ...]:
        # copy and pickle call cls.__new__(cls, *these): the items, not the tuple of them
        return tuple(self)

    def __repr__(self) -> str:
        return type(self).__name__ + tuple.__repr__(self)

    @property
    def kind(self) -> str:
        return str(self[0])

    def _replace(self, **changes: Any) -> Self:
        """A copy with the named fields changed (the tail field given as a sequence), as a
        NamedTuple's ``_replace``."""
        fixed = len(self._fields) - 1
        head = list(self[:fixed])
        tail = tuple(changes.pop(self._fields[-1][1:], self[fixed:]))
        for name, value in changes.items():
            if name not in self._fields[:fixed]:
                raise ValueError(f"{type(self).__name__} has no field {name!r}")
            head[self._fields.index(name)] = value
        return tuple.__new__(type(self), (*head, *tail))


class At(Generic[T]):
    """The field at ``index`` of a :class:`TailTuple` (``card = At[int](1)``)."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> At[T]: ...

    @overload
    def __get__(self, obj: tuple[Any, ...], owner: type[Any]) -> T: ...

    def __get__(self, obj: tuple[Any, ...] | None, owner: type[Any]) -> At[T] | T:
        if obj is None:
            return self
        value: T = obj[self.index]
        return value


class Rest(Generic[T]):
    """The items of a :class:`TailTuple` from ``index`` on, as a tuple."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> Rest[T]: ...

    @overload
    def __get__(self, obj: tuple[Any, ...], owner: type[Any]) -> tuple[T, ...]: ...

    def __get__(self, obj: tuple[Any, ...] | None, owner: type[Any]) -> Rest[T] | tuple[T, ...]:
        if obj is None:
            return self
        return tuple(obj[self.index:])


def tag_of(cls: type[tuple[Any, ...]]) -> str:
    """The kind a typed class stands for: a TailTuple's ``KIND``, or the one value of a
    NamedTuple's ``kind: Literal[...]`` field. TypeError if it declares neither."""
    if issubclass(cls, TailTuple):
        if not isinstance(cls.__dict__.get("KIND"), str) or cls._fields[:1] != ("kind",):
            raise TypeError(f"{cls.__name__} needs a KIND and _fields starting with 'kind'")
        if not cls._fields[-1].startswith("*"):
            raise TypeError(f"{cls.__name__}: the last of _fields takes the rest and is named '*name'")
        return cls.KIND
    fields: tuple[str, ...] = getattr(cls, "_fields", ())
    if fields[:1] != ("kind",):
        raise TypeError(f"{cls.__name__} is no NamedTuple whose first field is 'kind'")
    hint = typing.get_type_hints(cls).get("kind")
    args = typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else ()
    if len(args) != 1 or not isinstance(args[0], str):
        raise TypeError(f"{cls.__name__}.kind must be annotated Literal['<its kind>']")
    return args[0]


def field_names(cls: type[tuple[Any, ...]]) -> tuple[str, ...]:
    """The public names of a class's fields after ``kind``: a trailing ``_`` dropped (``from_``
    is ``from``), the field that takes the rest written ``"*name"``."""
    fields: tuple[str, ...] = getattr(cls, "_fields")
    return tuple(f.removesuffix("_") for f in fields[1:])


# --------------------------------------------------------------------------- the registry


def plain(value: Any) -> Any:
    """``value`` as JSON holds it: every tuple (typed or not) a list, at any depth."""
    if isinstance(value, (tuple, list)):
        return [plain(x) for x in value]
    return value


def tuples(value: Any) -> Any:
    """The inverse of :func:`plain` for values made of tuples: every list a tuple."""
    if isinstance(value, list):
        return tuple(tuples(x) for x in value)
    return value


class Kinds(Generic[V]):
    """The typed classes of one family of values (a game's actions, or its events) by kind.

    ValueError (and TypeError for a class without a tag) at construction if two classes claim a
    kind. A value *fits* when its kind is registered and it has that kind's number of items."""

    def __init__(self, *types: type[V]) -> None:
        table: dict[str, type[V]] = {}
        for cls in types:
            tag = tag_of(cls)
            if tag in table:
                raise ValueError(f"kind {tag!r} is claimed by {table[tag].__name__} and {cls.__name__}")
            table[tag] = cls
        self.types: Mapping[str, type[V]] = MappingProxyType(table)
        # per kind: the number of fixed items (kind included) and whether a tail follows
        self._shape: dict[str, tuple[int, bool]] = {}
        self._names: dict[str, tuple[str, ...]] = {}
        for tag, cls in table.items():
            names = self._names[tag] = field_names(cls)
            tail = bool(names) and names[-1].startswith("*")
            self._shape[tag] = (len(names) + 1 - tail, tail)

    def __contains__(self, kind: object) -> bool:
        return kind in self.types

    def __iter__(self) -> Iterator[str]:
        return iter(self.types)

    def __len__(self) -> int:
        return len(self.types)

    def fields(self, kind: str) -> tuple[str, ...]:
        """The public field names of ``kind`` after the kind (see :func:`field_names`)."""
        return self._names[kind]

    def why_not(self, value: Any) -> str | None:
        """Why ``value`` does not fit a registered kind, or None if it does."""
        if not isinstance(value, tuple) or not value:
            return f"a value is a tuple starting with its kind, not {type(value).__name__}"
        kind = value[0]
        if not isinstance(kind, str) or kind not in self._shape:
            return f"unknown kind {kind!r}"
        fixed, tail = self._shape[kind]
        if len(value) == fixed or (tail and len(value) > fixed):
            return None
        names = ", ".join(self.fields(kind)) or "nothing"
        return f"{kind!r} takes ({names}), not {len(value) - 1} value(s)"

    def fits(self, value: Any) -> bool:
        return self.why_not(value) is None

    def typed(self, value: Sequence[Any]) -> V:
        """The typed value equal to ``value`` (a tuple or list); ValueError if it does not fit."""
        items = tuple(value)
        if type(items[0] if items else None) is str and type(value) is self.types.get(items[0]):
            return value  # already typed
        why = self.why_not(items)
        if why is not None:
            raise ValueError(why)
        return tuple.__new__(self.types[items[0]], items)

    def lift(self, value: tuple[Any, ...]) -> V | tuple[Any, ...]:
        """``value`` typed if it fits a kind, else unchanged (for callers whose refusal of a
        malformed value comes later, with its own reason)."""
        cls = self.types.get(value[0]) if value and type(value[0]) is str else None
        if cls is None or type(value) is cls or not self.fits(value):
            return value
        return tuple.__new__(cls, value)

    def to_json(self, value: tuple[Any, ...]) -> list[Any]:
        """``value`` as the JSON list ``[kind, *fields]``, nested tuples as lists."""
        out: list[Any] = plain(value)
        return out

    def from_json(self, data: Any) -> V:
        """The typed value :meth:`to_json` wrote as ``data``; ValueError names what is wrong."""
        if not isinstance(data, list):
            raise ValueError(f"a value in JSON form is a list [kind, *fields], not {type(data).__name__}")
        return self.typed(tuples(data))

    def to_dict(self, value: tuple[Any, ...]) -> dict[str, Any]:
        """``value`` as an object ``{"type": kind, field: value, ...}``: the field names of its
        kind, the tail field as a list (for clients that read fields by name)."""
        out: dict[str, Any] = {"type": value[0]}
        for i, name in enumerate(self.fields(value[0]), 1):
            if name.startswith("*"):
                out[name[1:]] = plain(list(value[i:]))
                break
            out[name] = plain(value[i])
        return out

    def from_dict(self, data: Any, noun: str = "value") -> V:
        """The typed value :meth:`to_dict` wrote as ``data`` (lists read back as tuples).
        ValueError names what is wrong: not an object, an unknown type, a missing or unknown
        field, a tail field that is no list. ``noun`` names the family in the reasons."""
        if not isinstance(data, dict):
            raise ValueError(f"{noun}s in JSON form are objects with a 'type', not {type(data).__name__}")
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in self.types:
            raise ValueError(f"unknown {noun} type {kind!r}")
        names = self.fields(kind)
        keys = {n.lstrip("*") for n in names}
        stray = sorted(str(k) for k in data if k != "type" and k not in keys)
        if stray:
            raise ValueError(f"{noun} '{kind}' has no field {stray[0]!r} (its fields: {', '.join(names)})")
        values: list[Any] = [kind]
        for name in names:
            key = name.lstrip("*")
            if key not in data:
                raise ValueError(f"{noun} '{kind}' is missing the field '{key}'")
            x = data[key]
            if name.startswith("*"):
                if not isinstance(x, list):
                    raise ValueError(f"{noun} '{kind}': field '{key}' must be a list")
                values.extend(tuples(x))
            else:
                values.append(tuples(x))
        return tuple.__new__(self.types[kind], values)

# --------------------------------------------------------------------------- notation

# show(kind, index, value) -> word ("" to leave the value out); index counts the fields from 0
Show = Callable[[str, int, Any], str]
# read(kind, index, word) -> value
Read = Callable[[str, int, str], Any]


class Notation(Generic[V]):
    """One line of words per value: the kind, then each field through ``show``; ``read`` turns
    each word after the kind back into its value, ``split`` cuts a line into words."""

    def __init__(self, kinds: Kinds[V], show: Show, read: Read,
                 split: Callable[[str], list[str]] = str.split) -> None:
        self.kinds, self.show, self.read_word, self.split = kinds, show, read, split

    def write(self, value: Sequence[Any]) -> str:
        kind = str(value[0])
        words = [kind]
        for i, x in enumerate(value[1:]):
            w = self.show(kind, i, x)
            if w:
                words.append(w)
        return " ".join(words)

    def read(self, text: str) -> V | tuple[Any, ...]:
        """The value ``text`` writes: typed when it fits a kind, else the plain tuple of its
        words (the caller refuses it with its own reason). ValueError for a text of no words."""
        words = self.split(text)
        if not words:
            raise ValueError("a value is written as at least its kind")
        kind = words[0]
        return self.kinds.lift((kind, *(self.read_word(kind, i, w) for i, w in enumerate(words[1:]))))


__all__ = ["At", "Kinds", "Notation", "Read", "Rest", "Show", "TailTuple", "field_names", "plain", "tag_of",
           "tuples"]
