"""Card sheets: every fact a player needs about a card, as JSON-ready data.

One sheet per catalogue definition (not per copy), built from the catalogue alone, so the
glossary page, hover cards and build options all show the same numbers and the project's own
card text. A sheet is::

    {"key", "name", "domain", "kind", "size", "cost", "attack", "hp", "speed", "carry",
     "max_dev", "text", "editions"}

``key`` is a stable id made from the name ("defense-station"). ``domain`` is one of the three
domain decks or "none" (the neutral supply, the Homeworld and empty systems). A number that
does not apply to the card's kind is None: only ships and stations have a cost, attack and hit
points, only ships a speed, a carrying capacity and a size, only systems a development limit.
"""
from __future__ import annotations

import re
from typing import Any, Final

from ..engine.editions import EDITIONS
from ..engine.view import action_for, card_options
from .catalogue import CARD_DEF, DEFS, DOMAINS, CardDef, Domain
from .wording import CHOICE_WORDS

Sheet = dict[str, Any]


def card_key(name: str) -> str:
    """The stable id of the card named ``name``: lower case, words joined by "-"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _sheet(d: CardDef) -> Sheet:
    vessel, ship, system = d.is_vessel, d.is_ship, d.is_system
    return {
        "key": card_key(d.name),
        "name": d.name,
        "domain": d.domain if d.domain in DOMAINS else Domain.NONE,
        "kind": d.kind,
        "size": (d.size or None) if ship else None,
        # A ship that can never be built (the starting Scout) has no price.
        "cost": d.cost if vessel and not d.never_built else None,
        "attack": d.attack if vessel else None,
        "hp": d.hp if vessel else None,
        "speed": d.speed if ship else None,
        "carry": d.carry if ship else None,
        "max_dev": d.max_dev if system else None,
        "text": d.text,
        # Every card is in both editions; where a rule differs, the card text is the same.
        "editions": list(EDITIONS),
    }


_SHEETS: Final[tuple[Sheet, ...]] = tuple(_sheet(d) for d in DEFS)
_KEYS: Final = [s["key"] for s in _SHEETS]
assert len(set(_KEYS)) == len(_KEYS), "two card names give the same key"


def _copy(sheet: Sheet) -> Sheet:
    return {**sheet, "editions": list(sheet["editions"])}


def card_sheets(edition: str | None = None) -> list[Sheet]:
    """One sheet per catalogue definition, in catalogue order (fresh copies: callers may change
    them). ``edition`` keeps only the cards of that edition; ValueError names an unknown one."""
    if edition is not None and edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: choose one of {', '.join(EDITIONS)}")
    return [_copy(s) for s in _SHEETS if edition is None or edition in s["editions"]]


def sheet_of(cid: Any) -> Sheet | None:
    """The sheet of card instance ``cid``, or None if ``cid`` is not a card instance id."""
    if type(cid) is not int or not 0 <= cid < len(CARD_DEF):
        return None
    return _copy(_SHEETS[CARD_DEF[cid].index])


_DECIDER: Final = object()


def sheet_for_action(game: Any, action: tuple[Any, ...], viewer: Any = _DECIDER) -> Sheet | None:
    """The sheet of the card that legal ``action`` (a tuple, in ``game`` before it is taken) is
    about, or None: build: the type built; play, sell (its first card), ability: the card
    played or used; develop: the system, if face up; jump, retreat, scrap, repair: the vessel;
    give/ask of a hand card, technology or vessel: that card; choose: the card picked, when the
    options are cards. Judged as ``viewer`` may know it (default: the player who must decide,
    who knows every card their options name): a card hidden from ``viewer`` gives None."""
    if viewer is _DECIDER:
        viewer = game.to_move
    a = action_for(game, action, viewer)
    k = a[0] if a else None
    if k == "build":
        d = a[1]
        return _copy(_SHEETS[d]) if type(d) is int and 0 <= d < len(_SHEETS) else None
    if k in ("play", "sell", "ability", "jump", "retreat", "scrap", "repair"):
        return sheet_of(a[1])
    if k == "develop":
        pos = a[1]
        if type(pos) is int and 0 <= pos < len(game.sites) and game.sites[pos].face_up:
            return sheet_of(game.sites[pos].card)
        return None
    if k in ("give", "ask") and a[1] in ("card", "tech", "vessel"):
        return sheet_of(a[2])
    if k == "choose" and game.choice is not None:
        kind = game.choice.kind
        words = CHOICE_WORDS.get(kind)
        if card_options(kind) or kind == "order" or (words is not None and words.value == "card"):
            return sheet_of(a[1])
    return None
