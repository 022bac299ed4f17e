"""The card catalogue: static card data loaded from ``catalogue.toml``.

Every physical card in a game is an *instance* with an integer id; ``CARD_DEF[cid]`` gives its
definition. Instance ids are the same in every game (they are laid out from the catalogue in
file order), so a state can store plain integers.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from typing import Any


class CardKind(StrEnum):
    """What a card is. Members equal their catalogue strings (``CardKind.SHIP == "ship"``)."""

    COMMAND = "command"
    TECHNOLOGY = "technology"
    STATION = "station"
    SHIP = "ship"
    SYSTEM = "system"
    HOMEWORLD = "homeworld"


class Size(StrEnum):
    """A ship's size; cards that are not ships have none ("")."""

    NONE = ""
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    FIGHTER = "fighter"


class Domain(StrEnum):
    """The deck a card belongs to: one of the three domain decks, the neutral supply, or none
    (the Homeworld and the empty systems)."""

    INDUSTRY = "industry"
    STATECRAFT = "statecraft"
    SCIENCE = "science"
    NEUTRAL = "neutral"
    NONE = "none"


DOMAINS: tuple[Domain, ...] = (Domain.INDUSTRY, Domain.STATECRAFT, Domain.SCIENCE)


@dataclass(frozen=True, slots=True)
class CardDef:
    """Printed facts of one card, as data. The ``is_*`` flags, ``domain_index`` and
    ``in_domain_deck`` follow from them (worked out once: the rules read them all the time)."""

    index: int
    name: str
    domain: Domain
    kind: CardKind
    text: str
    count: int
    size: Size = Size.NONE  # ships only
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
    is_command: bool = field(init=False, repr=False, compare=False)
    is_technology: bool = field(init=False, repr=False, compare=False)
    is_vessel: bool = field(init=False, repr=False, compare=False)
    is_ship: bool = field(init=False, repr=False, compare=False)
    is_station: bool = field(init=False, repr=False, compare=False)
    is_fighter: bool = field(init=False, repr=False, compare=False)
    is_system: bool = field(init=False, repr=False, compare=False)
    # Index into DOMAINS, or -1 for cards outside the three domain decks.
    domain_index: int = field(init=False, repr=False, compare=False)
    in_domain_deck: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The catalogue gives plain strings: ValueError names a value that is no member.
        domain, kind, size = Domain(self.domain), CardKind(self.kind), Size(self.size)
        system = kind in (CardKind.SYSTEM, CardKind.HOMEWORLD)
        setter = object.__setattr__  # the record is frozen once made
        setter(self, "domain", domain)
        setter(self, "kind", kind)
        setter(self, "size", size)
        setter(self, "is_command", kind is CardKind.COMMAND)
        setter(self, "is_technology", kind is CardKind.TECHNOLOGY)
        setter(self, "is_vessel", kind in (CardKind.SHIP, CardKind.STATION))
        setter(self, "is_ship", kind is CardKind.SHIP)
        setter(self, "is_station", kind is CardKind.STATION)
        setter(self, "is_fighter", size is Size.FIGHTER)
        setter(self, "is_system", system)
        setter(self, "domain_index", DOMAINS.index(domain) if domain in DOMAINS else -1)
        setter(self, "in_domain_deck", domain in DOMAINS and not system)


def _load() -> tuple[list[CardDef], dict[str, CardDef]]:
    package = __package__ or "starcom.cards"
    raw: dict[str, Any] = tomllib.loads(resources.files(package).joinpath("catalogue.toml").read_text("utf-8"))
    defs = []
    for i, (name, fields) in enumerate(raw.items()):
        try:
            defs.append(CardDef(index=i, name=name, **fields))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"catalogue.toml: card {name!r}: {exc}") from None
    return defs, {d.name: d for d in defs}


DEFS, BY_NAME = _load()

# Card instances: ids 0..N-1, grouped by definition in catalogue order.
CARD_DEF: list[CardDef] = [d for d in DEFS for _ in range(d.count)]
INSTANCES: dict[str, list[int]] = {}
for _cid, _d in enumerate(CARD_DEF):
    INSTANCES.setdefault(_d.name, []).append(_cid)
N_CARDS = len(CARD_DEF)

SUPPLY_NAMES: tuple[str, ...] = tuple(d.name for d in DEFS if d.domain is Domain.NEUTRAL)
BUILDABLE: tuple[CardDef, ...] = tuple(d for d in DEFS if d.domain is Domain.NEUTRAL and not d.never_built)


def card(name: str) -> CardDef:
    """The definition named ``name``; KeyError names the unknown card."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown card {name!r}") from None
