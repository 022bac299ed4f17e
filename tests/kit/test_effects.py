"""The kit's effect tables: units by catalogue index and name, built once, unknown names refused."""
from __future__ import annotations

import pytest

from starcom.kit.effects import EffectRegistry, EffectTable


class Unit:
    def __init__(self, name: str, special: bool = False) -> None:
        self.name, self.special = name, special


NAMES = ("doctor", "moon", "planet", "ion_storm")


def build() -> EffectTable[Unit]:
    registry: EffectRegistry[Unit] = EffectRegistry(NAMES)
    registry.register("moon", Unit("moon", special=True))
    return registry.build(Unit)


def test_the_table_holds_a_unit_per_card_in_catalogue_order() -> None:
    table = build()
    assert len(table) == 4 and [u.name for u in table] == list(NAMES)
    assert table[1].special and not table[0].special  # registered, and the default for the rest
    assert table.by_name("moon") is table[1] and table.index("ion_storm") == 3


def test_each_build_is_its_own_table() -> None:
    a, b = build(), build()
    assert a[1] is not b[1]  # no module state: two tables live side by side


def test_unknown_names_are_refused_with_the_closest_card() -> None:
    registry: EffectRegistry[Unit] = EffectRegistry(NAMES)
    with pytest.raises(ValueError, match="'mooon' is no card of the catalogue .did you mean 'moon'"):
        registry.register("mooon", Unit("mooon"))
    with pytest.raises(ValueError, match="'xyz' is no card of the catalogue$"):
        registry.check("xyz")
    table = build()
    with pytest.raises(KeyError, match="did you mean 'planet'"):
        table.by_name("planett")


def test_a_card_gets_one_unit_and_a_catalogue_names_each_card_once() -> None:
    registry: EffectRegistry[Unit] = EffectRegistry(NAMES)
    registry.register("doctor", Unit("doctor"))
    with pytest.raises(ValueError, match="already has an effect unit"):
        registry.register("doctor", Unit("doctor"))
    with pytest.raises(ValueError, match="each card once"):
        EffectRegistry(("a", "b", "a"))
    with pytest.raises(ValueError, match="2 card names but 1 effect units"):
        EffectTable(("a", "b"), (Unit("a"),))
