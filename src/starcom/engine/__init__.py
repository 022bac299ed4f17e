"""The rules engine: a pure, deterministic state machine (see ``docs/architecture.md``)."""
from .errors import IllegalAction, ReplayError, StarcomError
from .game import Action, Event, Game
from .state import Config

__all__ = ["Action", "Config", "Event", "Game", "IllegalAction", "ReplayError", "StarcomError"]
