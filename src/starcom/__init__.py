"""starcom: the digital edition of the Star Commander card game.

Clients find games by name (:func:`load_game`, :func:`list_games`) and talk to them through the
:class:`~starcom.protocol.Game` protocol (see :mod:`starcom.protocol` and :mod:`starcom.games`).
"""
from .engine import Action, Config, Event, Game, IllegalAction, ReplayError, StarcomError
from .games import list_games, load_game
from .ge import entry as _galactic_empires  # noqa: F401  (registers the second game, "ge")

__version__ = "0.1.0"
__all__ = ["Action", "Config", "Event", "Game", "IllegalAction", "ReplayError", "StarcomError", "list_games",
           "load_game"]
