"""Seeded random generators for game states: one protocol, two streams.

A state holds a :class:`Rng`; the rules draw from it with ``randrange``, ``choice``,
``shuffle`` and ``getrandbits``, clone it with the state and write it with ``to_json``
(:func:`from_json` reads any generator's form back).

* :class:`SplitMix` is SplitMix64 over one 64-bit integer: cheap to clone and to store. The
  functions :func:`seed`, :func:`next_u64`, :func:`below` and :func:`shuffle` are the same
  generator over a bare integer state, bit for bit the functions Star Commander's engine has
  always used, so an engine may keep its state a plain ``int``.
* :class:`Mersenne` is Python's Mersenne Twister (``random.Random``): the stream Galactic
  Empires has dealt with from the start, so that a seed deals what it always dealt and a saved
  position (whose generator was written as ``random.Random.getstate()`` in a list,
  :func:`from_json` still reads that form) plays on as it would have.
"""
from __future__ import annotations

import random
from collections.abc import Hashable, MutableSequence, Sequence
from functools import cache
from typing import Any, Final, Protocol, Self, TypeVar

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


# --------------------------------------------------------------------------- SplitMix64 on an int


def seed(value: int) -> int:
    """The SplitMix64 state for a game seed."""
    return (value * _GOLDEN + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """One step of SplitMix64: ``(new state, 64-bit output)``."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """``(new state, an integer in [0, n))`` for ``n >= 1`` (the output modulo ``n``)."""
    state, x = next_u64(state)
    return state, x % n


def shuffle(state: int, items: MutableSequence[Any]) -> int:
    """Fisher-Yates shuffle of ``items`` in place; returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


@cache
def _draws(size: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of :func:`random_shuffle` on ``size`` items: the slot filled, how many items it may
    take, and how many random bits are drawn for it."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def random_shuffle(x: list[Any], rng: Any) -> None:  # Any: any generator with a shuffle is taken
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` does (same order, same draws from
    ``rng``), without a Python-level call per item: it runs for every hidden pile of every
    determinization and every family of a greedy player's sample. A generator whose class is
    not :class:`random.Random` shuffles itself."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _draws(len(x)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


# --------------------------------------------------------------------------- the protocol


class RandomSource(Protocol):
    """What a determinization draws from: a kit generator, or a plain ``random.Random``."""

    def shuffle(self, x: MutableSequence[Any]) -> None: ...

    def getrandbits(self, k: int, /) -> int: ...


class Rng(RandomSource, Protocol):
    """A generator a game state holds. Equal generators (``==``) give equal streams."""

    def randrange(self, n: int, /) -> int:
        """An integer in ``[0, n)``, ``n >= 1``."""
        ...

    def choice(self, seq: Sequence[T], /) -> T:
        """One item of the non-empty ``seq``."""
        ...

    def random(self) -> float:
        """A float in ``[0, 1)``."""
        ...

    def clone(self) -> Self:
        """An independent copy at the same point of the stream."""
        ...

    def mark(self) -> Hashable:
        """A value that is equal for two generators exactly when their streams are."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The generator as JSON, read back by :func:`from_json`."""
        ...


# --------------------------------------------------------------------------- the generators


class SplitMix:
    """SplitMix64 whose whole state is ``state``, one integer in ``[0, 2**64)``."""

    __slots__ = ("state",)
    KIND: Final = "splitmix64"

    def __init__(self, state: object) -> None:  # object: a bad value is a ValueError, in both builds
        if type(state) is not int or not 0 <= state <= _MASK:
            raise ValueError(f"a SplitMix state is an integer in [0, 2**64), not {state!r}")
        self.state = state

    def __reduce__(self) -> tuple[Any, ...]:
        # (Written out: a compiled class with a required argument does not pickle by itself.)
        return (SplitMix, (self.state,))

    @classmethod
    def seeded(cls, value: int) -> SplitMix:
        """The generator of game seed ``value`` (its state is :func:`seed` of it)."""
        return cls(seed(value))

    def __eq__(self, other: object) -> bool:
        return type(other) is SplitMix and other.state == self.state

    def __hash__(self) -> int:
        return hash((SplitMix, self.state))

    def __repr__(self) -> str:
        return f"SplitMix({self.state:#x})"

    def next_u64(self) -> int:
        self.state, x = next_u64(self.state)
        return x

    def randrange(self, n: int, /) -> int:
        if n < 1:
            raise ValueError(f"randrange needs n >= 1, not {n}")
        self.state, x = below(self.state, n)
        return x

    def choice(self, seq: Sequence[T], /) -> T:
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.randrange(len(seq))]

    def shuffle(self, x: MutableSequence[Any]) -> None:
        self.state = shuffle(self.state, x)

    def getrandbits(self, k: int, /) -> int:
        """``k`` random bits: the high bits of as many outputs as it takes, first output highest."""
        if k < 0:
            raise ValueError("the number of bits must be non-negative")
        words, value = -(-k // 64), 0
        for _ in range(words):
            value = (value << 64) | self.next_u64()
        return value >> (words * 64 - k)

    def random(self) -> float:
        return (self.next_u64() >> 11) * 2.0 ** -53

    def clone(self) -> SplitMix:
        return SplitMix(self.state)

    def mark(self) -> Hashable:
        return self.state

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, "state": self.state}


class Mersenne:
    """Python's Mersenne Twister: draws exactly as ``random.Random`` of the same seed."""

    __slots__ = ("_r",)
    KIND: Final = "mt19937"

    def __init__(self, seed: int | None = None) -> None:
        self._r = random.Random(seed)

    @classmethod
    def from_state(cls, state: tuple[Any, ...]) -> Mersenne:
        """The generator at ``random.Random.getstate()``'s ``state``."""
        new = cls(0)
        new._r.setstate(state)
        return new

    def __eq__(self, other: object) -> bool:
        return type(other) is Mersenne and other._r.getstate() == self._r.getstate()

    def __hash__(self) -> int:
        return hash(self._r.getstate())

    def __repr__(self) -> str:
        return f"Mersenne(<state {hash(self._r.getstate()) & 0xFFFF:04x}>)"

    def randrange(self, n: int, /) -> int:
        return self._r.randrange(n)

    def choice(self, seq: Sequence[T], /) -> T:
        return self._r.choice(seq)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        self._r.shuffle(x)

    def getrandbits(self, k: int, /) -> int:
        return self._r.getrandbits(k)

    def random(self) -> float:
        return self._r.random()

    def getstate(self) -> tuple[Any, ...]:
        """``random.Random.getstate()`` of the stream."""
        return self._r.getstate()

    def clone(self) -> Mersenne:
        return Mersenne.from_state(self._r.getstate())

    def mark(self) -> Hashable:
        return self._r.getstate()

    def to_json(self) -> dict[str, Any]:
        version, internal, gauss = self._r.getstate()
        return {"kind": self.KIND, "version": version, "state": list(internal), "gauss": gauss}

    def __reduce__(self) -> tuple[Any, ...]:
        return Mersenne.from_state, (self._r.getstate(),)


# --------------------------------------------------------------------------- reading JSON


def from_json(data: Any) -> SplitMix | Mersenne:
    """The generator ``to_json`` wrote as ``data``. Also reads the list ``[version, internal,
    gauss]`` of ``random.Random.getstate()`` that states saved before the kit hold (as a
    :class:`Mersenne`). ValueError names what is wrong."""
    if isinstance(data, list):  # the old form: random.Random.getstate() as a list
        if len(data) != 3 or not isinstance(data[1], list):
            raise ValueError("an old generator state is [version, [internal state], gauss]")
        return _mersenne(data[0], data[1], data[2])
    if not isinstance(data, dict):
        raise ValueError(f"a generator in JSON form is an object with a 'kind', not {type(data).__name__}")
    kind = data.get("kind")
    if kind == SplitMix.KIND:
        state: Any = data.get("state")
        return SplitMix(state)  # SplitMix checks the value
    if kind == Mersenne.KIND:
        internal = data.get("state")
        if not isinstance(internal, list):
            raise ValueError("a Mersenne generator's 'state' is a list of integers")
        return _mersenne(data.get("version"), internal, data.get("gauss"))
    raise ValueError(f"unknown generator kind {kind!r}; kinds are {SplitMix.KIND}, {Mersenne.KIND}")


def _mersenne(version: Any, internal: list[Any], gauss: Any) -> Mersenne:
    try:
        return Mersenne.from_state((version, tuple(internal), gauss))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not a Mersenne Twister state: {exc}") from None


__all__ = ["Mersenne", "RandomSource", "Rng", "SplitMix", "below", "from_json", "next_u64", "random_shuffle", "seed",
           "shuffle"]
