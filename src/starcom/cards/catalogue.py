"""The card catalogue: static card data loaded from ``catalogue.toml``.

Every physical card in a game is an *instance* with an integer id; ``CARD_DEF[cid]`` gives its
definition. Instance ids are the same in every game (they are laid out from the catalogue in
file order), so a state can store plain integers.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

DOMAINS: tuple[str, ...] = ("industry", "statecraft", "science")


@dataclass(frozen=True, slots=True)
class CardDef:
    """Printed facts of one card, as data."""

    index: int
    name: str
    domain: str
    kind: str  # command | technology | station | ship | system | homeworld
    text: str
    count: int
    size: str = ""  # ships: small | medium | large | fighter
    cost: int = 0
    attack: int = 0
    hp: int = 0
    speed: int = 0
    max_dev: int = 0
    targets: int = 1
    redirect: bool = False
    jump_when_built: bool = False
    never_built: bool = False
    builds_ships: bool = False
    capital: bool = False
    starting_ship: bool = False
    filler: bool = False
    carry: int = 0

    @property
    def is_vessel(self) -> bool:
        return self.kind in ("ship", "station")

    @property
    def is_ship(self) -> bool:
        return self.kind == "ship"

    @property
    def is_station(self) -> bool:
        return self.kind == "station"

    @property
    def is_fighter(self) -> bool:
        return self.size == "fighter"

    @property
    def is_system(self) -> bool:
        return self.kind in ("system", "homeworld")

    @property
    def domain_index(self) -> int:
        """Index into DOMAINS, or -1 for cards outside the three domain decks."""
        return DOMAINS.index(self.domain) if self.domain in DOMAINS else -1

    @property
    def in_domain_deck(self) -> bool:
        return self.domain in DOMAINS and not self.is_system


def _load() -> tuple[list[CardDef], dict[str, CardDef]]:
    raw = tomllib.loads(resources.files(__package__).joinpath("catalogue.toml").read_text("utf-8"))
    defs = [CardDef(index=i, name=name, **fields) for i, (name, fields) in enumerate(raw.items())]
    return defs, {d.name: d for d in defs}


DEFS, BY_NAME = _load()

# Card instances: ids 0..N-1, grouped by definition in catalogue order.
CARD_DEF: list[CardDef] = [d for d in DEFS for _ in range(d.count)]
INSTANCES: dict[str, list[int]] = {}
for _cid, _d in enumerate(CARD_DEF):
    INSTANCES.setdefault(_d.name, []).append(_cid)
N_CARDS = len(CARD_DEF)

SUPPLY_NAMES: tuple[str, ...] = tuple(d.name for d in DEFS if d.domain == "neutral")
BUILDABLE: tuple[CardDef, ...] = tuple(d for d in DEFS if d.domain == "neutral" and not d.never_built)


def card(name: str) -> CardDef:
    """The definition named ``name``; KeyError names the unknown card."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown card {name!r}") from None
