"""Full-screen interludes: the hot-seat cover, a confirmation, and the end of the game."""
from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Middle
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from .board import seat_style


class CoverScreen(Screen[None]):
    """Hides the table until the next human player takes the device and presses Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "dismiss_cover", "I am P?, show my hand", priority=True)]
    DEFAULT_CSS = """
    CoverScreen { align: center middle; }
    CoverScreen #cover { width: auto; padding: 2 6; border: heavy $accent; }
    """

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        msg = Text("Pass the device to ", style="bold")
        msg.append(f"P{self.seat}", style=seat_style(self.seat))
        msg.append(" — press Enter\n\n", style="bold")
        msg.append(f"(the other players should look away: P{self.seat}'s hand will be shown)", style="dim")
        yield Middle(Center(Static(msg, id="cover")))
        yield Footer()

    def action_dismiss_cover(self) -> None:
        self.dismiss(None)


class GameOverScreen(Screen[None]):
    """The result and the final standings; q quits, Escape goes back to look at the board."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.quit", "Quit"), Binding("escape", "back", "Look at the board")]
    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen #result { width: auto; padding: 1 4; border: double $success; }
    """

    def __init__(self, summary: Text) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        yield Middle(Center(Static(self.summary, id="result")))
        yield Footer()

    def action_back(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """Asks before a choice that gives something up for good: y plays it; n, Escape or Enter
    (the safe answer) go back to the choices."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes, play it", priority=True),
        Binding("n", "answer(False)", "No", priority=True),
        Binding("escape", "answer(False)", "No", show=False, priority=True),
        Binding("enter", "answer(False)", "No", show=False, priority=True),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen #confirm { width: 70; height: auto; padding: 1 3; border: heavy $warning; background: $surface; }
    """

    def __init__(self, choice: str, reason: str) -> None:
        super().__init__()
        self.choice, self.reason = choice, reason

    def compose(self) -> ComposeResult:
        msg = Text(self.choice + "\n\n", style="bold")
        msg.append(self.reason[:1].upper() + self.reason[1:] + "\n\n")
        msg.append("Play it?  y: yes  ·  n or Escape: no, back to the choices", style="dim")
        yield Middle(Center(Static(msg, id="confirm")))
        yield Footer()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
