"""starcom: the digital edition of the Star Commander card game, and of Galactic Empires.

Clients find games by name (:func:`load_game`, :func:`list_games`) and talk to them through the
:class:`Game` protocol (:mod:`starcom.protocol`); each game is a plug-in registered under the
``starcom.games`` entry points (:mod:`starcom.games`).
"""
from .build import activate as _activate

_activate()  # the compiled rules when they are built for these sources (starcom.build), unless STARCOM_PURE=1

from .errors import IllegalAction, ReplayError, StarcomError
from .games import list_games, load_game
from .protocol import Game

__version__ = "0.1.0"
__all__ = ["Game", "IllegalAction", "ReplayError", "StarcomError", "list_games", "load_game"]
