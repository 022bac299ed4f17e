"""How the choices that card effects ask for are put into words (data only).

A card effect may stop the game for a player to choose (``EffectSet.choice_handler`` in ``engine.ruleset``); the
choice's kind is the card's name. Logs and option labels word such a choice from this table, so
that no card name has to appear in code outside ``starcom.sc.cards``.

Placeholders: ``{value}`` is the option chosen, ``{ctx}`` the choice's context (``ctx`` in the
engine's choice record), each rendered by its kind: "pos" a board position, "card" a card's
name, "player" a seat, "flag" (value only) picks ``sentence``/``label`` for 1 and
``sentence_no``/``label_no`` for 0.
"""
from __future__ import annotations

from typing import Final

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChoiceWords:
    """The words for one kind of card choice: ``sentence`` follows the player's name in a log
    line ("P1 adds a development at b2"), ``label`` is the short option label."""

    value: str  # pos | card | flag
    sentence: str
    label: str
    ctx: str = ""  # pos | player | "" (not shown)
    sentence_no: str = ""
    label_no: str = ""


CHOICE_WORDS: Final[dict[str, ChoiceWords]] = {
    "Core World": ChoiceWords(value="pos", sentence="adds a development at {value}",
                              label="Add a development at {value}"),
    "Cruiser": ChoiceWords(value="flag", ctx="pos",
                           sentence="lets the Cruiser remove a development",
                           sentence_no="lets the Cruiser hold fire",
                           label="Cruiser takes a development off {ctx}",
                           label_no="Cruiser holds fire at {ctx}"),
    "Spy Network": ChoiceWords(value="card", ctx="player", sentence="picks {value}",
                               label="Take {value} from {ctx}'s hand"),
}
