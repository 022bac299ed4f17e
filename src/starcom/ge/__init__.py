"""Galactic Empires: the second game on starcom's core (docs/ge.md).

Importing the package changes nothing: a game's cards act through the ruleset its state holds
(:mod:`.ruleset`), built the first time a game is made.
"""
