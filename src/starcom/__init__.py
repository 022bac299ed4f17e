"""starcom: the digital edition of the Star Commander card game."""
from .engine import Action, Config, Event, Game, IllegalAction, ReplayError, StarcomError

__version__ = "0.1.0"
__all__ = ["Action", "Config", "Event", "Game", "IllegalAction", "ReplayError", "StarcomError"]
