"""The Galactic Empires card catalogue: one :class:`CardSpec` per distinct card of Basic Deck A.

The data lives in ``catalogue.toml`` next to this module and is read once, at import. Card
indexes follow the file order, so ``CARDS[spec.index] is spec``. Anything wrong in the file
raises ValueError naming the card and the field.
"""
from __future__ import annotations

import tomllib
from importlib import resources
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeAlias

__all__ = [
    "BY_ID", "BY_KEY", "CARDS", "EMPIRES", "KREBIZ_PAIRS", "POINT_TYPES", "QUICK_RESERVE",
    "CardSpec", "Points", "deck_list", "from_toml", "load",
]

POINT_TYPES: Final[tuple[str, ...]] = ("economy", "supply", "energy", "ammunition", "research", "repair")
Points: TypeAlias = tuple[int, int, int, int, int, int]
"""Counts per point type, in POINT_TYPES order."""

EMPIRES: Final[tuple[str, ...]] = ("argonian", "krebiz")
"""The two playable decks (also the TOML fields that hold each deck's copies)."""

# kind -> (type letter, allowed classes). The class sets are closed on purpose, to catch typos;
# a new deck adds its classes here.
_KINDS: Final[dict[str, tuple[str, frozenset[str]]]] = {
    "terrain": ("T", frozenset({"moon", "planet", "system", "comet", "nebula", "asteroid_belt"})),
    "ship": ("S", frozenset({"capsule_small", "capsule_heavy", "cruiser_small", "cruiser_heavy",
                             "freighter", "carrier", "escort", "frigate", "destroyer",
                             "light_cruiser", "heavy_cruiser"})),
    "base": ("B", frozenset({"base"})),
    "crew": ("C", frozenset({"crew"})),
    "equipment": ("E", frozenset({"equipment", "shuttle"})),
    "hazard": ("H", frozenset({"hazard"})),
    "luck": ("L", frozenset({"luck"})),
    "monster": ("M", frozenset({"monster"})),
    "occurrence": ("O", frozenset({"occurrence", "illness"})),
}
_UNIT_KINDS: Final = frozenset({"ship", "base"})
_CARD_EMPIRES: Final = frozenset({"argonian", "krebiz", "indirigan", "generic", "none"})
_EFFECTS: Final = frozenset({"own", "krebiz", "indirigan", "data"})

# Field -> Python type it must have in the TOML (checked exactly, so true is not a number).
_REQUIRED: Final[dict[str, type]] = {
    "id": str, "name": str, "kind": str, "class": str, "empire": str, "reaction": bool,
    "strength": int, "cost": dict, "generates": dict, "card_damage": int, "shields": int,
    "phasers": int, "one_shot": bool, "heavy": int, "argonian": int, "krebiz": int,
    "effect": str, "text": str,
}
_OPTIONAL: Final[dict[str, type]] = {"passive": bool, "duration": int, "slots": int}
_TYPE_NAMES: Final[dict[type, str]] = {
    str: "a string", bool: "true or false", int: "a whole number", dict: "a table"}


@dataclass(frozen=True, slots=True)
class CardSpec:
    """The printed facts of one card (errata applied). ``slots`` is the command need in half
    slots and is None for cards that are not units; ``passive`` is None except on equipment;
    ``duration`` is None for cards that do not expire (0: only the turn it is played)."""

    index: int
    key: str
    id: str
    name: str
    kind: str
    reaction: bool
    strength: int
    empire: str
    cls: str
    cost: Points
    generates: Points
    card_damage: int
    shields: int
    phasers: int
    one_shot: bool
    heavy: int
    passive: bool | None
    duration: int | None
    slots: int | None
    copies: tuple[int, int]
    effect: str
    text: str

    @property
    def is_unit(self) -> bool:
        """Ships and bases: the cards that take command slots."""
        return self.kind in _UNIT_KINDS

    @property
    def letter(self) -> str:
        """The printed type letter (T, S, B, C, E, H, L, M or O)."""
        return _KINDS[self.kind][0]

    @property
    def label(self) -> str:
        """The printed type line and name, e.g. ``"R/C2 Doctor"``."""
        return f"{'R/' if self.reaction else ''}{self.letter}{self.strength} {self.name}"

    @property
    def has_cost(self) -> bool:
        """True when engaging the card costs any point."""
        return any(self.cost)


def _points(where: str, field: str, table: dict[str, Any]) -> Points:
    """A cost or output table as a Points tuple; ValueError for a bad type name or count."""
    for name, value in table.items():
        if name not in POINT_TYPES:
            raise ValueError(f"{where}, field {field!r}: unknown point type {name!r}; "
                             f"types are {', '.join(POINT_TYPES)}")
        if type(value) is not int or value <= 0:
            # Zero points are left out of the file, so a zero here is a slip.
            raise ValueError(f"{where}, field {field!r}: {name} must be a whole number above 0, "
                             f"not {value!r}")
    e, s, n, a, r, p = (int(table.get(name, 0)) for name in POINT_TYPES)
    return (e, s, n, a, r, p)


def _card(index: int, key: str, raw: Any, where: str) -> CardSpec:
    """One card from its TOML table; ValueError starts with ``where`` and names the field."""
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: must be a table of fields, not {raw!r}")
    for field, value in raw.items():
        want = _REQUIRED.get(field) or _OPTIONAL.get(field)
        if want is None:
            known = ", ".join(sorted({*_REQUIRED, *_OPTIONAL}))
            raise ValueError(f"{where}: unknown field {field!r}; fields are {known}")
        if type(value) is not want:
            raise ValueError(f"{where}, field {field!r}: must be {_TYPE_NAMES[want]}, not {value!r}")
        if isinstance(value, int) and value < (1 if field == "strength" else 0):
            raise ValueError(f"{where}, field {field!r}: {value} is out of range")
        if isinstance(value, str) and not value.strip():
            raise ValueError(f"{where}, field {field!r}: must not be empty")
    for field in _REQUIRED:
        if field not in raw:
            raise ValueError(f"{where}: missing field {field!r}")

    kind, cls = raw["kind"], raw["class"]
    if kind not in _KINDS:
        raise ValueError(f"{where}, field 'kind': unknown kind {kind!r}; kinds are {', '.join(_KINDS)}")
    if cls not in _KINDS[kind][1]:
        raise ValueError(f"{where}, field 'class': {cls!r} is not a class of {kind}; "
                         f"classes are {', '.join(sorted(_KINDS[kind][1]))}")
    for field, allowed in (("empire", _CARD_EMPIRES), ("effect", _EFFECTS)):
        if raw[field] not in allowed:
            raise ValueError(f"{where}, field {field!r}: {raw[field]!r} is not one of "
                             f"{', '.join(sorted(allowed))}")
    # passive and slots are meaningful for one group of kinds only: required there, refused elsewhere.
    for field, applies, what in (("passive", kind == "equipment", "equipment"),
                                 ("slots", kind in _UNIT_KINDS, "ships and bases")):
        if applies and field not in raw:
            raise ValueError(f"{where}: missing field {field!r} (required for {what})")
        if not applies and field in raw:
            raise ValueError(f"{where}, field {field!r}: only {what} have it")
    if raw.get("slots", 0) > 2:
        raise ValueError(f"{where}, field 'slots': half slots must be 0, 1 or 2, not {raw['slots']}")

    return CardSpec(
        index=index, key=key, id=raw["id"], name=raw["name"], kind=kind,
        reaction=raw["reaction"], strength=raw["strength"], empire=raw["empire"], cls=cls,
        cost=_points(where, "cost", raw["cost"]),
        generates=_points(where, "generates", raw["generates"]),
        card_damage=raw["card_damage"], shields=raw["shields"], phasers=raw["phasers"],
        one_shot=raw["one_shot"], heavy=raw["heavy"], passive=raw.get("passive"),
        duration=raw.get("duration"), slots=raw.get("slots"),
        copies=(raw["argonian"], raw["krebiz"]), effect=raw["effect"], text=raw["text"])


def load(path: str | Path) -> tuple[CardSpec, ...]:
    """Read a catalogue file: the cards in file order, indexed from 0. ValueError names the
    file, and the card and field when one of them is at fault (also for a repeated id)."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{p.name}: cannot read the card catalogue: {exc}") from None
    return from_toml(text, p.name)


def from_toml(text: str, name: str) -> tuple[CardSpec, ...]:
    """The cards of a catalogue's TOML ``text`` (the format of ``catalogue.toml``), in file
    order; ValueError names ``name``, and the card and field at fault."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{name}: cannot read the card catalogue: {exc}") from None
    p = Path(name)
    cards: list[CardSpec] = []
    seen: dict[str, str] = {}
    for index, (key, fields) in enumerate(raw.items()):
        card = _card(index, key, fields, f"{p.name}: card {key!r}")
        if card.id in seen:
            raise ValueError(f"{p.name}: card {key!r}, field 'id': {card.id!r} is already "
                             f"used by {seen[card.id]!r}")
        seen[card.id] = key
        cards.append(card)
    return tuple(cards)


# Found through the package (not this module's __file__, which is the extension in the compiled build).
CARDS: Final[tuple[CardSpec, ...]] = load(Path(str(resources.files("starcom.ge.cards").joinpath("catalogue.toml"))))
BY_KEY: Final[dict[str, CardSpec]] = {c.key: c for c in CARDS}
BY_ID: Final[dict[str, CardSpec]] = {c.id: c for c in CARDS}

QUICK_RESERVE: Final[dict[str, tuple[str, str]]] = {
    "argonian": ("siobhan_7", "argonian_sunspot"),
    "krebiz": ("siobhan_7", "krebiz_pincer"),
}
"""Default reserve fleet the quick edition proposes for each deck (card keys)."""

KREBIZ_PAIRS: Final[tuple[tuple[str, str], ...]] = (
    ("krebiz_clipper", "krebiz_light_capsule"),
    ("krebiz_clipper", "krebiz_light_capsule"),
    ("krebiz_pincer", "krebiz_medium_capsule"),
    ("krebiz_pincer", "krebiz_medium_capsule"),
    ("krebiz_claw", "krebiz_heavy_capsule"),
    ("krebiz_claw", "krebiz_heavy_capsule"),
)
"""Optional pre-paired Krebiz ships as (cruiser key, capsule key), one entry per pair; the
Mandibles stay unpaired."""


def _check_keys() -> None:
    # A renamed key in the TOML should fail at import, not later in a game.
    for key in sorted({k for pair in (*QUICK_RESERVE.values(), *KREBIZ_PAIRS) for k in pair}):
        if key not in BY_KEY:
            raise ValueError(f"catalogue.toml: no card with key {key!r}")


_check_keys()


def deck_list(empire: str) -> list[CardSpec]:
    """Every card of that empire's deck, one entry per copy, in catalogue order (46 for
    argonian, 51 for krebiz). ValueError for an empire that has no deck."""
    if empire not in EMPIRES:
        raise ValueError(f"unknown deck {empire!r}; choose one of {', '.join(EMPIRES)}")
    side = EMPIRES.index(empire)
    return [card for card in CARDS for _ in range(card.copies[side])]
