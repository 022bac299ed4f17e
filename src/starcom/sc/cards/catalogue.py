"""Card catalogues: static card data, the standard one loaded from ``catalogue.toml``.

Every physical card in a game is an *instance* with an integer id; ``catalogue.instances[cid]``
(``g.rules.cards[cid]`` in a game) gives its definition. Instance ids are the same in every game
with one catalogue (they are laid out from it in file order), so a state can store plain
integers.
"""
from __future__ import annotations

from ...kit.pickling import reduce_dataclass

import json
import tomllib
from dataclasses import MISSING, dataclass, field, fields, replace
from enum import StrEnum
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final


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


DOMAINS: Final[tuple[Domain, ...]] = (Domain.INDUSTRY, Domain.STATECRAFT, Domain.SCIENCE)


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
    # The name of the card this one stands in for in a balance study (cards/stand_ins.py): its
    # copies are never dealt or put in the supply; the rules swap them for the real card's
    # copies one for one (Ruleset.versions). Empty for every ordinary card.
    stand_in_for: str = ""
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

    def __reduce__(self) -> tuple[Any, ...]:  # (the compiled record pickles through this)
        return reduce_dataclass(self)

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


@dataclass(frozen=True, eq=False)
class Catalogue:
    """A set of cards to play with: the definitions in file order (``defs[i].index == i``) and
    the tables that follow from them. ``instances[cid]`` is the definition of card instance
    ``cid``: ids run over the definitions in order, ``count`` copies each, so they are the same
    in every game with this catalogue and a state can store plain integers. ``ids[name]`` lists
    a definition's instance ids, ``supply_names`` the neutral cards (the supply),
    ``buildable`` the neutral cards that may be built."""

    name: str
    defs: tuple[CardDef, ...]
    by_name: Mapping[str, CardDef] = field(init=False, repr=False)
    instances: tuple[CardDef, ...] = field(init=False, repr=False)
    ids: Mapping[str, tuple[int, ...]] = field(init=False, repr=False)
    supply_names: tuple[str, ...] = field(init=False, repr=False)
    buildable: tuple[CardDef, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        for i, d in enumerate(self.defs):
            if d.index != i:
                raise ValueError(f"catalogue {self.name!r}: card {d.name!r} has index {d.index}, not {i}")
        by_name = {d.name: d for d in self.defs}
        if len(by_name) != len(self.defs):
            raise ValueError(f"catalogue {self.name!r}: two cards share a name")
        instances = tuple(d for d in self.defs for _ in range(d.count))
        ids: dict[str, list[int]] = {}
        for cid, d in enumerate(instances):
            ids.setdefault(d.name, []).append(cid)
        setter = object.__setattr__  # frozen once made
        setter(self, "by_name", MappingProxyType(by_name))
        setter(self, "instances", instances)
        setter(self, "ids", MappingProxyType({k: tuple(v) for k, v in ids.items()}))
        for d in self.defs:
            real = by_name.get(d.stand_in_for) if d.stand_in_for else None
            if d.stand_in_for and (real is None or real.count != d.count or real.domain != d.domain):
                raise ValueError(f"catalogue {self.name!r}: {d.name!r} stands in for {d.stand_in_for!r}, "
                                 "which it must match in domain and count")
        dealt = [d for d in self.defs if not d.stand_in_for]
        setter(self, "supply_names", tuple(d.name for d in dealt if d.domain is Domain.NEUTRAL))
        setter(self, "buildable", tuple(d for d in dealt if d.domain is Domain.NEUTRAL and not d.never_built))

    @classmethod
    def from_toml(cls, text: str, name: str) -> Catalogue:
        """A catalogue in this project's format (``catalogue.toml``: one table per card, in
        order). ValueError names the file ``name`` and the card or line that is wrong."""
        try:
            raw: dict[str, Any] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{name}: not a TOML file: {exc}") from None
        defs = []
        for i, (card_name, fields) in enumerate(raw.items()):
            if not isinstance(fields, dict):
                raise ValueError(f"{name}: {card_name!r} must be a table of a card's fields")
            where = f"{name}: card {card_name!r} (line {_line_of(text, card_name)})"
            for key, value in fields.items():
                want = _FIELD_TYPES.get(key)
                if want is None:
                    raise ValueError(f"{where}: unknown field {key!r}; fields are {', '.join(sorted(_FIELD_TYPES))}")
                if type(value) is not want:  # exactly: a bool is not a number here
                    raise ValueError(f"{where}, line {_line_of(text, card_name, key)}: field {key!r} must be "
                                     f"{_TYPE_NAMES[want]}, not {value!r}")
                if isinstance(value, int) and want is int and not (1 if key == "count" else 0) <= value <= 1000:
                    raise ValueError(f"{where}, line {_line_of(text, card_name, key)}: field {key!r} must be "
                                     f"from {1 if key == 'count' else 0} to 1000, not {value}")
            missing = [k for k in _REQUIRED if k not in fields]
            if missing:
                raise ValueError(f"{where}: missing field(s) {', '.join(missing)}")
            try:
                enums = {k: kind(fields[k]) for k, kind in _ENUM_FIELDS.items() if k in fields}
                defs.append(CardDef(index=i, name=card_name, **{**fields, **enums}))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"{where}: {exc}") from None
        return cls(name, tuple(defs))

    @classmethod
    def load(cls, path: str | Path) -> Catalogue:
        """The catalogue in the file ``path``; ValueError says what is wrong with it."""
        p = Path(path)
        try:
            text = p.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"{p}: cannot read the catalogue: {exc}") from None
        return cls.from_toml(text, str(p))

    def to_toml(self) -> str:
        """The catalogue in its file format (:meth:`from_toml` reads it back the same), each
        card's fields in declaration order, those at their default left out."""
        lines = []
        for d in self.defs:
            lines.append(f"[{json.dumps(d.name)}]")
            for f in fields(CardDef):
                if not f.init or f.name in ("index", "name"):
                    continue
                value = getattr(d, f.name)
                if f.default is not MISSING and value == f.default:
                    continue
                text = ("true" if value else "false") if isinstance(value, bool) else \
                    str(value) if isinstance(value, int) else json.dumps(str(value), ensure_ascii=False)
                lines.append(f"{f.name} = {text}")
            lines.append("")
        return "\n".join(lines)

    def replaced(self, name: str, **changes: Any) -> Catalogue:
        """This catalogue with card ``name``'s fields changed (``cost=2``, ``attack=6``...)."""
        d = self.card(name)
        return Catalogue(f"{self.name} ({name} changed)",
                         tuple(replace(x, **changes) if x is d else x for x in self.defs))

    def card(self, name: str) -> CardDef:
        """The definition named ``name``; KeyError names the unknown card."""
        try:
            return self.by_name[name]
        except KeyError:
            raise KeyError(f"unknown card {name!r}") from None


# The fields a catalogue file may give a card, with their types (index and name come from the
# file's layout; the derived flags are worked out).
def _type_name(t: object) -> str:
    """A field's type by name: a string in the pure build (postponed annotations), the class
    itself in the compiled one."""
    return t if isinstance(t, str) else str(getattr(t, "__name__", t))


_FIELD_TYPES: Final[dict[str, type]] = {
    f.name: {"int": int, "bool": bool}.get(_type_name(f.type), str) for f in fields(CardDef)
    if f.init and f.name not in ("index", "name")}
# The fields the file gives as text that a CardDef holds as a member of an enum (the compiled
# build checks the type of each field when a CardDef is made).
_ENUM_FIELDS: Final[dict[str, type[StrEnum]]] = {"domain": Domain, "kind": CardKind, "size": Size}
_TYPE_NAMES: Final = {int: "a whole number", bool: "true or false", str: "a text"}
_REQUIRED: Final = tuple(f.name for f in fields(CardDef) if f.init and f.name not in ("index", "name")
                  and f.default is MISSING)


def _line_of(text: str, card: str, key: str | None = None) -> int:
    """The line of ``text`` where card ``card``'s table starts (or, with ``key``, where that
    field of it is given); 0 if it cannot be found."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() in (f'["{card}"]', f"['{card}']", f"[{card}]")), -1)
    if start < 0:
        return 0
    if key is None:
        return start + 1
    for i in range(start + 1, len(lines)):
        stripped = lines[i].strip()
        if stripped.startswith("["):
            break
        if stripped.split("=", 1)[0].strip() == key:
            return i + 1
    return start + 1


def _standard() -> Catalogue:
    package = __package__ or "starcom.sc.cards"
    return Catalogue.from_toml(resources.files(package).joinpath("catalogue.toml").read_text("utf-8"),
                               "catalogue.toml")


STANDARD: Final = _standard()

# The standard catalogue's tables by their old names, for code that only ever shows the
# standard cards (rules code asks the game's ruleset instead: ``g.rules.cards``).
DEFS: Final[list[CardDef]] = list(STANDARD.defs)
BY_NAME: Final[Mapping[str, CardDef]] = STANDARD.by_name
CARD_DEF: Final[list[CardDef]] = list(STANDARD.instances)
INSTANCES: Final[dict[str, list[int]]] = {k: list(v) for k, v in STANDARD.ids.items()}
N_CARDS: Final = len(CARD_DEF)
SUPPLY_NAMES: Final[tuple[str, ...]] = STANDARD.supply_names
BUILDABLE: Final[tuple[CardDef, ...]] = STANDARD.buildable


def card(name: str) -> CardDef:
    """The standard definition named ``name``; KeyError names the unknown card."""
    return STANDARD.card(name)
