"""The kit's typed tuples: kinds found from the classes, plain and typed values alike, the JSON
list form and the notation reading back what it writes."""
from __future__ import annotations

import copy
import json
import pickle
import re
from typing import Any, Literal, NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from starcom.kit.codec import At, Kinds, Notation, Rest, TailTuple, field_names, plain, tag_of, tuples


class Stop(NamedTuple):
    kind: Literal["stop"]


class Go(NamedTuple):
    kind: Literal["go"]
    unit: int
    to: int


class Say(NamedTuple):
    kind: Literal["say"]
    who: int
    what: str


class Volley(NamedTuple):
    kind: Literal["volley"]
    at: int
    weapons: tuple[tuple[int, str], ...]


class Cast(TailTuple):
    __slots__ = ()
    KIND = "cast"
    _fields = ("kind", "card", "*targets")
    card = At[int](1)
    targets = Rest[int](2)


class Jump(NamedTuple):
    kind: Literal["jump"]
    from_: int


KINDS: Kinds[Any] = Kinds(Stop, Go, Say, Volley, Cast, Jump)


def test_kinds_are_read_from_the_classes() -> None:
    assert list(KINDS) == ["stop", "go", "say", "volley", "cast", "jump"]
    assert tag_of(Go) == "go" and tag_of(Cast) == "cast"
    assert KINDS.fields("go") == ("unit", "to") and KINDS.fields("cast") == ("card", "*targets")
    assert field_names(Jump) == ("from",)  # a trailing underscore is dropped


def test_a_class_without_a_tag_or_a_kind_claimed_twice_is_refused() -> None:
    class Loose(NamedTuple):
        kind: str

    class NoKind(NamedTuple):
        unit: int

    class Again(NamedTuple):
        kind: Literal["go"]

    class Untagged(TailTuple):
        __slots__ = ()
        _fields = ("kind", "*rest")

    class NoTail(TailTuple):
        __slots__ = ()
        KIND = "x"
        _fields = ("kind", "rest")

    for cls in (Loose, NoKind, Untagged, NoTail):
        with pytest.raises(TypeError):
            Kinds(cls)
    with pytest.raises(ValueError, match="claimed by Go and Again"):
        Kinds(Go, Again)


def test_typed_values_equal_the_plain_tuples() -> None:
    go = KINDS.typed(("go", 1, 2))
    assert type(go) is Go and go == ("go", 1, 2) and hash(go) == hash(("go", 1, 2))
    assert go.unit == 1 and go.to == 2
    cast = KINDS.typed(["cast", 5, 1, 2, 3])
    assert type(cast) is Cast and cast == ("cast", 5, 1, 2, 3)
    assert cast.card == 5 and cast.targets == (1, 2, 3) and cast.kind == "cast"
    assert KINDS.typed(("cast", 5)).targets == ()
    assert repr(cast) == "Cast('cast', 5, 1, 2, 3)"
    assert KINDS.typed(go) is go


@pytest.mark.parametrize("value, why", [
    ((), "a value is a tuple"),
    (["go", 1, 2], "a value is a tuple"),
    (("fly", 1), "unknown kind 'fly'"),
    ((3,), "unknown kind 3"),
    (("go", 1), r"'go' takes \(unit, to\), not 1 value"),
    (("stop", 1), r"'stop' takes \(nothing\)"),
    (("cast",), r"'cast' takes \(card, \*targets\), not 0"),
])
def test_why_not_names_what_is_wrong(value: Any, why: str) -> None:
    reason = KINDS.why_not(value)
    assert reason is not None and re.search(why, reason), reason
    assert not KINDS.fits(value)
    if isinstance(value, tuple) and value:
        assert KINDS.lift(value) is value  # left for the caller to refuse
        with pytest.raises(ValueError):
            KINDS.typed(value)


def test_tail_tuples_copy_and_pickle_as_themselves() -> None:
    cast = Cast("cast", 5, 1, 2)
    for twin in (copy.copy(cast), copy.deepcopy(cast), pickle.loads(pickle.dumps(cast))):
        assert type(twin) is Cast and twin == cast


def test_json_is_the_list_with_nested_tuples_as_lists() -> None:
    volley = Volley("volley", 3, ((1, "phaser"), (2, "heavy")))
    data = KINDS.to_json(volley)
    assert data == ["volley", 3, [[1, "phaser"], [2, "heavy"]]]
    back = KINDS.from_json(json.loads(json.dumps(data)))
    assert type(back) is Volley and back == volley and back.weapons[1] == (2, "heavy")
    assert KINDS.to_dict(volley) == {"type": "volley", "at": 3, "weapons": [[1, "phaser"], [2, "heavy"]]}
    assert KINDS.to_dict(Cast("cast", 5, 1, 2)) == {"type": "cast", "card": 5, "targets": [1, 2]}
    assert KINDS.to_dict(Jump("jump", 4)) == {"type": "jump", "from": 4}
    for bad in ({"type": "go"}, "go", ["fly"], ["go", 1]):
        with pytest.raises(ValueError):
            KINDS.from_json(bad)


atoms = st.one_of(st.integers(-10**6, 10**6), st.text(max_size=8))
values = st.one_of(
    st.builds(lambda: ("stop",)),
    st.tuples(st.just("go"), st.integers(), st.integers()),
    st.tuples(st.just("say"), st.integers(), st.text()),
    st.builds(lambda at, ws: ("volley", at, tuple(ws)), st.integers(),
              st.lists(st.tuples(st.integers(), st.text(max_size=5)), max_size=4)),
    st.builds(lambda card, ts: ("cast", card, *ts), st.integers(), st.lists(st.integers(), max_size=6)),
)


@given(values)
def test_json_round_trips(value: tuple[Any, ...]) -> None:
    back = KINDS.from_json(json.loads(json.dumps(KINDS.to_json(value))))
    assert back == value and type(back) is KINDS.types[value[0]]
    assert tuples(plain(value)) == value


# --------------------------------------------------------------------------- notation


def _show(kind: str, i: int, x: Any) -> str:
    if kind == "go" and i == 1:
        return f"@{x}"
    return "" if x == 0 and kind == "cast" else str(x)


def _read(kind: str, i: int, word: str) -> Any:
    word = word.removeprefix("@")
    return int(word) if word.lstrip("-").isdigit() else word


WORDS = Notation(KINDS, _show, _read)


@given(st.one_of(
    st.builds(lambda: ("stop",)),
    st.tuples(st.just("go"), st.integers(), st.integers()),
    st.tuples(st.just("say"), st.integers(), st.from_regex(r"[a-z]{1,8}", fullmatch=True)),
    st.builds(lambda card, ts: ("cast", card, *ts), st.integers(1, 99), st.lists(st.integers(1, 99), max_size=5)),
))
def test_the_notation_reads_back_what_it_writes(value: tuple[Any, ...]) -> None:
    text = WORDS.write(value)
    back = WORDS.read(text)
    assert back == value and type(back) is KINDS.types[value[0]], text


def test_the_notation_writes_words_and_leaves_out_empty_ones() -> None:
    assert WORDS.write(Go("go", 3, 4)) == "go 3 @4"
    assert WORDS.write(("cast", 0, 7)) == "cast 7"  # the show function left the 0 out
    assert WORDS.read("fly 1 2") == ("fly", 1, 2) and type(WORDS.read("fly 1 2")) is tuple
    assert type(WORDS.read("go 1")) is tuple  # too short for 'go': plain, for the caller to refuse
    with pytest.raises(ValueError):
        WORDS.read("   ")
