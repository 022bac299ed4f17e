"""Galactic Empires: the second game on starcom's core (docs/ge.md).

Importing the package installs the cards' effect units (:mod:`.cards.effects`) behind the one
door the rules use (:mod:`.hooks`).
"""
from .cards import effects as _effects  # noqa: F401  (installs every card's effect unit)
