"""The terminal game, driven by key presses through Textual's pilot."""
from __future__ import annotations

import pytest
from rich.text import Text
from textual.widgets import Static

from starcom.sc.engine.game import Game
from starcom.sc.cards.catalogue import CARD_DEF, DEFS
from starcom.sc.scenario import build
from starcom.sc.entry import STARCOM
from starcom.sc.tui.app import StarcomApp
from starcom.tui.screens import ConfirmScreen, CoverScreen, GameOverScreen

SIZE = (180, 60)


def shown(app: StarcomApp, selector: str) -> str:
    """The plain text a Static widget shows now."""
    screen = app.screen if selector == "#result" else app.screen_stack[0]
    content = screen.query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def log_text(app: StarcomApp) -> str:
    return "\n".join(line.plain for line in app.logs[app.viewer])


async def choose_kind(app: StarcomApp, pilot, kind: str) -> None:
    """Press k until the action list shows only ``kind``."""
    for _ in range(20):
        if app.kind_filter == kind:
            return
        await pilot.press("k")
    raise AssertionError(f"no {kind} action offered: {app.game.legal_actions()}")


async def settle(app: StarcomApp, pilot, until, steps: int = 200) -> None:
    for _ in range(steps):
        if until():
            return
        await pilot.pause()
    raise AssertionError("the app did not reach the expected state")


@pytest.mark.asyncio
async def test_jump_the_scout_by_keys_then_end_and_the_ai_moves() -> None:
    app = StarcomApp(STARCOM, Game.new(2, 3, seed=1), ["human", "greedy"], ai_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        scout = next(v for v in app.game.vessels.values() if v.owner == 0)
        start = scout.pos
        await choose_kind(app, pilot, "jump")
        assert app.listed and all(a[0] == "jump" for a in app.listed)
        await pilot.press("down", "up")  # moving over the list keeps a jump highlighted
        await pilot.press("enter")
        await pilot.pause()
        moved = app.game.vessels[scout.id]
        assert moved.pos != start
        assert app.history[-1][0] == 0 and app.history[-1][1][0] == "jump"
        assert app.game.sites[moved.pos].face_up  # the jump explored the system
        explored = CARD_DEF[app.game.sites[moved.pos].card].name
        assert explored in shown(app, "#board")
        assert "P0 jumps Scout" in log_text(app)
        assert app.kind_filter is None  # the kind filter starts over after a move

        await choose_kind(app, pilot, "end")
        await pilot.press("enter")
        await pilot.pause()
        # Ending the phase with credits left to spend asks first (issue 30); y plays it.
        assert isinstance(app.screen, ConfirmScreen) and "gives up" in app.screen.reason
        await pilot.press("y")
        await settle(app, pilot, lambda: app.game.active == 0 and app.game.turn >= 2)
        ai_moves = [a for seat, a in app.history if seat == 1]
        assert ai_moves and ai_moves[-1] == ("end",)
        log = log_text(app)
        assert "Turn 2 — P1" in log and "Turn 3 — P0" in log
        assert app.errors == 0
        # the board shows P1's vessels where the engine has them
        p1_vessels = [v for v in app.game.vessels.values() if v.owner == 1]
        board = shown(app, "#board")
        assert board.count("P1 ") >= len(p1_vessels)


@pytest.mark.asyncio
async def test_text_filter_narrows_the_actions() -> None:
    app = StarcomApp(STARCOM, Game.new(2, 3, seed=1), ["human", "greedy"], ai_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        total = len(app.listed)
        await pilot.press("slash", *"develop")
        await pilot.pause()
        assert app.listed and len(app.listed) < total
        assert all(a[0] == "develop" for a in app.listed)
        await pilot.press("escape")
        assert len(app.listed) == total


def _hands_spec() -> dict:
    cards = [d.name for d in DEFS if d.kind == "command"]
    return {"players": 2, "size": 3, "setup": {"active": 0, "phase": "command",
                                               "players": [{"hand": [cards[0]]}, {"hand": [cards[1]]}]}}


@pytest.mark.asyncio
async def test_hotseat_hides_the_hand_between_turns() -> None:
    game, _ = build(_hands_spec())
    mine, theirs = CARD_DEF[game.hands[0][0]].name, CARD_DEF[game.hands[1][0]].name
    assert mine != theirs
    app = StarcomApp(STARCOM, game, ["human", "human"], ai_delay=0, auto_pass=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CoverScreen) and app.screen.seat == 0
        assert theirs not in shown(app, "#hand") and mine not in shown(app, "#hand")
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, CoverScreen)
        assert mine in shown(app, "#hand") and theirs not in shown(app, "#hand")

        await choose_kind(app, pilot, "end")
        await pilot.press("enter")
        await pilot.pause()
        if isinstance(app.screen, ConfirmScreen):  # a card left unplayed: asked first
            await pilot.press("y")
        await settle(app, pilot, lambda: isinstance(app.screen, CoverScreen))
        assert app.screen.seat == app.game.to_move == 1
        assert app.viewer is None
        hand = shown(app, "#hand")
        assert "hidden" in hand.lower() and mine not in hand and theirs not in hand
        assert mine not in log_text(app) and theirs not in log_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.viewer == 1
        assert theirs in shown(app, "#hand") and mine not in shown(app, "#hand")


@pytest.mark.asyncio
async def test_plays_a_short_game_to_the_end_screen() -> None:
    app = StarcomApp(STARCOM, Game.new(2, 3, seed=4, turn_limit=6), ["human", "greedy"], ai_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(600):
            if isinstance(app.screen, GameOverScreen):
                break
            await pilot.press("enter")  # the highlighted legal action, whatever it is
            await pilot.pause()
            if isinstance(app.screen, ConfirmScreen):
                await pilot.press("y")
                await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        assert app.game.over and app.errors == 0
        assert any(seat == 0 for seat, _ in app.history) and any(seat == 1 for seat, _ in app.history)
        result = shown(app, "#result")
        w = app.game.winner
        assert ("A draw" in result) if w == -1 else (f"P{w}" in result and "wins" in result)
        assert "Game over" in log_text(app)


@pytest.mark.asyncio
async def test_board_shows_face_down_systems_as_unknown() -> None:
    app = StarcomApp(STARCOM, Game.new(3, 4, seed=2), ["human", "greedy", "greedy"], ai_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = shown(app, "#board")
        game = app.game  # the computer seats may have moved first
        hidden = [s for s in game.sites if not s.face_up]
        legend = 1  # the legend under the board explains "??"
        assert hidden and board.count("??") == len(hidden) + legend
        visible = {CARD_DEF[s.card].name for s in game.sites if s.face_up}
        for s in hidden:
            name = CARD_DEF[s.card].name
            if name not in visible:
                assert name not in board, f"face-down {name} is shown"


@pytest.mark.asyncio
async def test_engine_errors_are_logged_and_change_nothing() -> None:
    app = StarcomApp(STARCOM, Game.new(2, 3, seed=1), ["human", "greedy"], ai_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = app.game.to_json()
        assert not app.apply_action(("jump", 12345, 0, 0, 0), 0)
        assert not app.apply_action(("end",), 1)  # out of turn
        app.refresh_all()
        await pilot.pause()
        assert app.game.to_json() == before and app.errors == 2
        assert log_text(app).count("Engine error") == 2


@pytest.mark.asyncio
async def test_scrapping_the_only_scout_asks_first_and_prices_show() -> None:
    """Issue 30: a choice that gives something up for good asks first (n, Escape or Enter go
    back; y plays it), and the options that cost say their price."""
    app = StarcomApp(STARCOM, Game.new(2, 3, seed=3), ["human", "greedy"], ai_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await choose_kind(app, pilot, "develop")
        assert "(costs 2 credits; you have 3)" in app.describe(app.listed[0])
        await choose_kind(app, pilot, "scrap")
        for key in ("n", "enter", "escape"):
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen) and "only ship" in app.screen.reason
            await pilot.press(key)
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmScreen) and not app.history
        await choose_kind(app, pilot, "scrap")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.history and app.history[-1][1][0] == "scrap"
        assert not [v for v in app.game.vessels.values() if v.owner == 0]


@pytest.mark.asyncio
async def test_without_confirmation_a_scrap_is_played_at_once() -> None:
    app = StarcomApp(STARCOM, Game.new(2, 3, seed=3), ["human", "greedy"], ai_delay=0, confirm=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await choose_kind(app, pilot, "scrap")
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen) and app.history[-1][1][0] == "scrap"
