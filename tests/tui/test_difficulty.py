"""Difficulty levels in the terminal game: the level is shown for each computer seat, and the
computer thinks in a worker thread while the screen keeps answering keys."""
from __future__ import annotations

import io
import threading
import time
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from textual.widgets import Input, OptionList, Static

from starcom.sc.engine.game import Game
from starcom.sc import agents
from starcom.sc.entry import STARCOM
from starcom.sc.tui.app import StarcomApp
from starcom.tui.screens import ConfirmScreen

SIZE = (180, 60)


def shown(app: StarcomApp, selector: str) -> str:
    """The plain text a Static widget shows now (Rich tables rendered as the screen would)."""
    content = app.screen_stack[0].query_one(selector, Static).content
    if isinstance(content, Text):
        return content.plain
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(content)
    return console.export_text()


def actions_text(app: StarcomApp) -> str:
    ol = app.screen_stack[0].query_one("#actions", OptionList)
    return "\n".join(str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count))


async def until(pilot: Any, pred: Any, seconds: float = 60.0) -> None:
    """Let the app run until ``pred()`` holds (the computer thinks in another thread)."""
    end = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < end, "the app did not get there in time"
        await pilot.pause(0.01)


async def end_command_phase(app: StarcomApp, pilot: Any) -> None:
    for _ in range(20):
        if app.kind_filter == "end":
            break
        await pilot.press("k")
    assert app.listed == [("end",)]
    await pilot.press("enter")
    await pilot.pause()
    if isinstance(app.screen, ConfirmScreen):  # actions left unused: the app asks first
        await pilot.press("y")


@pytest.fixture
def cheap_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard level's search, with a small fixed number of iterations instead of 1 s a move."""
    agent, _think = agents.DIFFICULTIES["hard"]
    search = agents.AGENTS[agent]
    monkeypatch.setitem(agents.AGENTS, agent, lambda think, iterations: search(None, 20))


class GatedAgent:
    """Plays the first legal action once the test opens the gate (a long think, without timing)."""

    name = "gated"

    def __init__(self) -> None:
        self.started = threading.Event()
        self.gate = threading.Event()
        self.thread: threading.Thread | None = None

    def choose(self, game: Any, rng: Any) -> tuple:
        self.thread = threading.current_thread()
        self.started.set()
        self.gate.wait(30)
        return game.legal_actions()[0]


@pytest.mark.asyncio
async def test_a_hard_seat_is_labelled_and_plays(cheap_hard) -> None:
    app = StarcomApp(STARCOM, Game.new(2, 3, seed=1), ["human", "hard"], ai_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "P1 (AI · hard)" in shown(app, "#players") and "P0 (you)" in shown(app, "#players")
        await end_command_phase(app, pilot)
        await until(pilot, lambda: app.game.active == 0 and app.game.turn >= 2)
        ai_moves = [a for seat, a in app.history if seat == 1]
        assert ai_moves and ai_moves[-1] == ("end",)
        assert app.errors == 0
        assert not any("agent failed" in line.plain for line in app.logs[app.viewer])  # the search decided
        assert "P1 (AI · hard)" in shown(app, "#players")


@pytest.mark.asyncio
async def test_the_screen_answers_keys_while_the_computer_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    gated = GatedAgent()
    monkeypatch.setitem(agents.AGENTS, "gated", lambda think, iterations: gated)
    app = StarcomApp(STARCOM, Game.new(2, 3, seed=1), ["human", "gated"], ai_delay=0)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await end_command_phase(app, pilot)
            await until(pilot, gated.started.is_set)
            assert gated.thread is not threading.main_thread()  # not on the UI's thread
            await until(pilot, lambda: "is thinking" in actions_text(app))
            assert "P1 (AI · gated) is thinking" in actions_text(app) and app.thinking == 1
            moves = len(app.history)
            # the computer is still deciding, and the screen takes keys all the same
            await pilot.press("slash", *"dev")
            assert app.screen_stack[0].query_one("#filter", Input).value == "dev"
            assert len(app.history) == moves and app.thinking == 1
            await pilot.press("escape")
            gated.gate.set()
            await until(pilot, lambda: app.game.active == 0 and app.game.turn >= 2)
            assert any(seat == 1 for seat, _ in app.history[moves:]) and app.thinking is None
            assert app.errors == 0
    finally:
        gated.gate.set()
