"""Terminal play (Textual): see :class:`starcom.tui.app.StarcomApp`."""
from .app import HUMAN, StarcomApp

__all__ = ["HUMAN", "StarcomApp"]
