"""Terminal play (Textual): the full-screen game of any registered game
(:class:`starcom.tui.game_app.GameApp`, which a game may extend with its own panels) and plain
text (:mod:`starcom.tui.textplay`)."""
from .game_app import HUMAN, GameApp

__all__ = ["HUMAN", "GameApp"]
