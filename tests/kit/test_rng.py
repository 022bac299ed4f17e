"""The kit's generators: SplitMix64 as Star Commander's engine has always drawn, the Mersenne
Twister as ``random.Random`` draws, and both through one protocol with a JSON form."""
from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from starcom.kit import rng
from starcom.kit.rng import Mersenne, RandomSource, Rng, SplitMix

# Outputs of Star Commander's engine/rng.py, taken from it when the kit was written: they pin
# the stream even after the engine draws from the kit itself.
FIRST_OUTPUTS = {
    0: (7146057691288625177, [6685036501382267578, 3047811371739217279, 18215591310788271736, 10655362870870243545]),
    1: (100028436902272046, [3047811371739217279, 18215591310788271736, 10655362870870243545, 5282519108430934328]),
    42: (6360734186414619531, [7315957777007703983, 11638005078363268458, 11476428403375978651, 3533761740816427140]),
    2**40 + 7: (84529003666228396, [9334935889464438960, 11070739927896284568, 7032354128108280984,
                                    10746880922755500926]),
}


# --------------------------------------------------------------------------- SplitMix64 on an int


@pytest.mark.parametrize("seed", sorted(FIRST_OUTPUTS))
def test_splitmix_functions_give_the_recorded_outputs(seed: int) -> None:
    state, outputs = FIRST_OUTPUTS[seed]
    assert rng.seed(seed) == state
    s = state
    for expected in outputs:
        s, x = rng.next_u64(s)
        assert x == expected


def test_below_and_shuffle_give_the_recorded_results() -> None:
    s = rng.seed(3)
    drawn = []
    for n in (1, 2, 3, 10, 1000):
        s, x = rng.below(s, n)
        drawn.append(x)
    assert drawn == [0, 0, 1, 8, 142] and s == 6118055877326454977
    items = list(range(10))
    assert rng.shuffle(rng.seed(7), items) == 5090054063364284777
    assert items == [6, 4, 7, 1, 3, 0, 8, 9, 5, 2]


@given(st.integers(min_value=0, max_value=2**64 - 1), st.lists(st.integers(), max_size=40))
def test_shuffle_permutes(state: int, items: list[int]) -> None:
    out = list(items)
    rng.shuffle(state, out)
    assert sorted(out) == sorted(items)


def test_the_splitmix_value_draws_what_the_functions_draw() -> None:
    g = SplitMix.seeded(42)
    s = rng.seed(42)
    for n in (3, 7, 100):
        s, x = rng.below(s, n)
        assert g.randrange(n) == x
    items, copy_ = list(range(20)), list(range(20))
    g.shuffle(items)
    s = rng.shuffle(s, copy_)
    assert items == copy_ and g.state == s
    s, x = rng.below(s, 4)
    assert g.choice("abcd") == "abcd"[x]


def test_splitmix_bits_and_floats() -> None:
    g = SplitMix.seeded(5)
    first = SplitMix.seeded(5).next_u64()
    assert g.clone().getrandbits(64) == first
    assert g.clone().getrandbits(10) == first >> 54
    assert g.clone().getrandbits(0) == 0
    wide = g.clone().getrandbits(100)
    assert 0 <= wide < 2**100 and wide >> 36 == first
    assert all(0.0 <= g.random() < 1.0 for _ in range(200))
    with pytest.raises(ValueError):
        g.randrange(0)
    with pytest.raises(IndexError):
        g.choice([])


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "7", True])
def test_a_splitmix_state_is_a_64_bit_integer(bad: Any) -> None:
    with pytest.raises(ValueError):
        SplitMix(bad)


# --------------------------------------------------------------------------- the Mersenne Twister


@pytest.mark.parametrize("seed", [0, 1, 9, 2**64 - 1, 123456789])
def test_mersenne_draws_exactly_as_random_random(seed: int) -> None:
    ours, theirs = Mersenne(seed), random.Random(seed)
    for _ in range(5):
        a, b = list(range(40)), list(range(40))
        ours.shuffle(a)
        theirs.shuffle(b)
        assert a == b
        assert ours.choice("abcdefg") == theirs.choice("abcdefg")
        assert ours.randrange(2) == theirs.randrange(2)
        assert ours.randrange(1000) == theirs.randrange(1000)
        assert ours.getrandbits(64) == theirs.getrandbits(64)
        assert ours.random() == theirs.random()
    assert ours.getstate() == theirs.getstate()


# --------------------------------------------------------------------------- the protocol


def generators() -> list[Rng]:
    return [SplitMix.seeded(11), Mersenne(11)]


@pytest.mark.parametrize("g", generators(), ids=["splitmix", "mersenne"])
def test_json_round_trip_gives_the_same_stream(g: Rng) -> None:
    g.randrange(10)
    back = rng.from_json(json.loads(json.dumps(g.to_json())))
    assert back == g and back.mark() == g.mark()
    assert [back.randrange(100) for _ in range(20)] == [g.randrange(100) for _ in range(20)]


@pytest.mark.parametrize("g", generators(), ids=["splitmix", "mersenne"])
def test_a_clone_is_independent(g: Rng) -> None:
    twin = g.clone()
    assert twin == g and twin is not g
    first = [g.randrange(1000) for _ in range(5)]
    assert twin != g  # drawing from the original did not move the clone
    assert [twin.randrange(1000) for _ in range(5)] == first


@pytest.mark.parametrize("g", generators(), ids=["splitmix", "mersenne"])
def test_copies_and_pickles_keep_the_stream(g: Rng) -> None:
    for twin in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert twin == g
        assert twin.randrange(10**6) == g.clone().randrange(10**6)


def test_a_plain_random_random_is_a_random_source() -> None:
    def draw(source: RandomSource) -> list[int]:
        items = list(range(10))
        source.shuffle(items)
        return items + [source.getrandbits(8)]
    assert draw(random.Random(4)) == draw(Mersenne(4))


def test_the_old_saved_form_loads_as_the_same_stream() -> None:
    """Galactic Empires saved ``random.Random.getstate()`` as ``[version, [internal], gauss]``."""
    old = random.Random(77)
    old.random()
    version, internal, gauss = old.getstate()
    saved = json.loads(json.dumps([version, list(internal), gauss]))
    g = rng.from_json(saved)
    assert isinstance(g, Mersenne)
    assert [g.random() for _ in range(10)] == [old.random() for _ in range(10)]


@pytest.mark.parametrize("data, message", [
    (7, "an object with a 'kind'"),
    ({"kind": "xorshift"}, "unknown generator kind"),
    ({"kind": "splitmix64", "state": -1}, "integer in"),
    ({"kind": "mt19937", "version": 3, "state": "no", "gauss": None}, "list of integers"),
    ({"kind": "mt19937", "version": 3, "state": [1, 2], "gauss": None}, "not a Mersenne Twister state"),
    ([3, [1, 2, 3]], r"\[version, \[internal state\], gauss\]"),
])
def test_bad_json_is_refused_with_a_reason(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rng.from_json(data)
