"""Computer players any game can use: the :class:`Agent` protocol, a random player
(:mod:`.random_agent`), the ISMCTS search (:mod:`.ismcts`) and the agents a game's evaluation
makes (:mod:`.generic`). A game's own players live in its package and reach clients through its
registry entry (``make_agent``)."""
from __future__ import annotations

from ..protocol import Agent

__all__ = ["Agent"]
