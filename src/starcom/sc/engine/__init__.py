"""The rules engine: a pure, deterministic state machine (see ``docs/architecture.md``)."""
from ...errors import IllegalAction, ReplayError, StarcomError
from .events import Event
from .game import Game
from .moves import Action
from .state import Config

__all__ = ["Action", "Config", "Event", "Game", "IllegalAction", "ReplayError", "StarcomError"]
