"""Terminal play (Textual): the full-screen game of any registered game
(:class:`starcom.tui.game_app.GameApp`), Star Commander's with its board
(:class:`starcom.tui.app.StarcomApp`), and plain text (:mod:`starcom.tui.textplay`)."""
from .app import StarcomApp
from .game_app import HUMAN, GameApp

__all__ = ["HUMAN", "GameApp", "StarcomApp"]
