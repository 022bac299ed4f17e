"""Star Commander's full-screen terminal game: the shared screen (:class:`.game_app.GameApp`)
with the board drawn as a diamond, the players, decks, combat stack and hand beside it.

Everything on screen is rendered from the observer's view (:data:`starcom.observer.STARCOM`)
of the viewing seat, so nothing hidden can leak into the widgets.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from ..engine.actions import Action
from ..engine.game import Game
from ...games import GameEntry
from ..observer import STARCOM as OBSERVER
from ...tui.board import seat_style
from ...tui.game_app import HUMAN, GameApp
from .board import render_board
from .panels import decks_text, hand_text, players_table, stack_text, status_text

# Where on the board an action happens, by kind: index of the position in the tuple.
_ACTION_POS = {"jump": 2, "build": 2, "develop": 1, "fight": 1, "retreat": 2}


class StarcomApp(GameApp):
    """Play one game of Star Commander (the arguments are :class:`GameApp`'s)."""

    CSS = GameApp.CSS + """
    #left { width: 1fr; }
    #right { width: 1fr; }
    #boardbox { height: 2fr; border: round $primary; }
    #players, #decks, #stack { height: auto; padding: 0 1; }
    #handbox { height: auto; max-height: 14; border: round $secondary; }
    """
    BORDER_TITLES: ClassVar[dict[str, str]] = {"#boardbox": "Board", "#handbox": "Hand", "#log": "Log"}

    def __init__(self, entry: GameEntry[Any, Any], game: Game, seats: Sequence[str], ai_delay: float = 0.3,
                 auto_pass: bool = True, agent_seed: int = 0, think: float | None = None,
                 confirm: bool = True) -> None:
        """``entry``: Star Commander's registry entry (the entry's ``terminal_app`` hook gives it),
        whose agents play the computer seats; the rest as for :class:`GameApp`."""
        super().__init__(entry, game, seats, ai_delay=ai_delay, auto_pass=auto_pass, agent_seed=agent_seed,
                         think=think, confirm=confirm)

    def view(self) -> dict[str, Any]:
        """The player view the screen shows now."""
        return OBSERVER.view(self.game, self.viewer)

    def table_widgets(self) -> Iterator[Widget]:
        with VerticalScroll(id="boardbox"):
            yield Static(id="board")

    def side_widgets(self) -> Iterator[Widget]:
        yield Static(id="status")
        yield Static(id="players")
        yield Static(id="decks")
        yield Static(id="stack")
        with VerticalScroll(id="handbox"):
            yield Static(id="hand")

    def refresh_table(self) -> None:
        view = self.view()
        self._w("#status", Static).update(status_text(view, self.kinds))
        self._w("#players", Static).update(players_table(view, self.kinds))
        self._w("#decks", Static).update(decks_text(view))
        self._w("#stack", Static).update(stack_text(view))
        self._w("#hand", Static).update(hand_text(view, self.viewer))
        self._w("#board", Static).update(render_board(view))

    def on_highlight(self, action: Action) -> None:
        idx = _ACTION_POS.get(action[0])
        pos = action[idx] if idx is not None and len(action) > idx else None
        self._w("#board", Static).update(render_board(self.view(), pos))

    def summary(self) -> Text:
        w = self.game.winner
        text = Text("Game over\n\n", style="bold")
        if w is None or w == -1:
            text.append("A draw", style="bold")
        else:
            text.append(f"P{w} ({self.kinds[w]}) wins", style=seat_style(w))
        text.append(f"\nafter {self.game.turn + 1} turns\n\n")
        for q in OBSERVER.view(self.game, None)["players"]:
            text.append(f"P{q['seat']} ({self.kinds[q['seat']]})", style=seat_style(q["seat"]))
            text.append(f": {q['developments']} developments, {q['credits']} credits"
                        f"{'' if q['alive'] else ', eliminated'}\n")
        text.append("\nq: quit · Escape: look at the board", style="dim")
        return text


__all__ = ["HUMAN", "StarcomApp"]
