"""The full-screen terminal game of any registered game, played through Textual's pilot with
Galactic Empires (Star Commander's screen is the same app with its own drawing)."""
from __future__ import annotations

import random

import pytest
from rich.text import Text
from textual.widgets import Static
from typer.testing import CliRunner

import starcom.ge.entry  # noqa: F401 — registers "ge"
from starcom.cli.main import app as cli
from starcom.games import get
from starcom.ge.text import table
from starcom.tui import GameApp
from starcom.tui.screens import ConfirmScreen, CoverScreen, GameOverScreen

from .test_app import settle

GE = get("ge")
SIZE = (200, 60)


def shown(app: GameApp, selector: str) -> str:
    screen = app.screen if selector == "#result" else app.screen_stack[0]
    content = screen.query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def hand_line(text: str, seat: int) -> str:
    """The hand line of ``seat``'s part of the table text."""
    part = text.split(f"\nP{seat} ")[1]
    return next(line for line in part.splitlines() if line.strip().startswith("hand"))


@pytest.mark.asyncio
async def test_a_human_plays_galactic_empires_by_keys_to_the_end_screen() -> None:
    app = GameApp(GE, GE.rules.new(seed=4, edition="quick", turn_limit=4), ["human", "random"], ai_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.title == "Galactic Empires"
        text = shown(app, "#table")
        assert "P0 Argonian (you)" in text and "P1 Krebiz" in text and "Sector HQ 0/" in text
        mine = app.game.legal_actions()
        assert len(app.listed) == len(mine)  # every legal action is offered
        for _ in range(3000):
            if app.game.over:
                break
            if isinstance(app.screen, ConfirmScreen):  # a discard: the app asks first
                await pilot.press("y")
            elif app._human_turn() and app.listed:
                await pilot.press("enter")  # the first action listed
            await pilot.pause()
        await settle(app, pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert app.errors == 0
        assert f"P{GE.rules.winner(app.game)}" in shown(app, "#result")
        humans = [a for seat, a in app.history if seat == 0]
        assert humans, "the human's key presses played actions"
        assert any(line.plain.startswith("— P1's turn") for line in app.logs[0])


@pytest.mark.asyncio
async def test_hot_seat_covers_the_table_and_each_seat_sees_only_its_own_hand() -> None:
    game = GE.rules.new(seed=2)
    app = GameApp(GE, game, ["human", "human"], ai_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot, lambda: isinstance(app.screen, CoverScreen))
        assert app.viewer is None and shown(app, "#table") == "\n".join(table(app.game, None))  # no hand shown
        for _ in range(400):  # uncover and play first actions until both hands are dealt
            if isinstance(app.screen, CoverScreen):
                await pilot.press("enter")
            elif isinstance(app.screen, ConfirmScreen):
                await pilot.press("y")
            elif app._human_turn() and all(p.hand for p in app.game.s.players):
                break
            elif app._human_turn():
                await pilot.press("enter")
            await pilot.pause()
        me = app.viewer
        assert me is not None and me == app.game.to_move
        text = shown(app, "#table")
        assert f"P{me} {app.game.s.players[me].empire.capitalize()} (you)" in text
        mine = [app.game.s.spec(u).name for u in app.game.s.players[me].hand]
        assert all(name in hand_line(text, me) for name in mine)
        other = app.game.s.players[1 - me]
        unseen = {app.game.s.spec(u).name for u in other.hand if u not in other.shown} - set(mine)
        theirs = hand_line(text, 1 - me)
        assert "unseen" in theirs and not any(name in theirs for name in unseen)


def test_the_table_text_is_the_same_whatever_a_seat_cannot_see() -> None:
    """Twin games that differ only in the other hand and both decks' order: the same text."""
    g = GE.rules.new(seed=9)
    rng = random.Random(1)
    for _ in range(150):
        if g.over:
            break
        g.apply(rng.choice(g.legal_actions()))
        for seat in (0, 1):
            twin = g.determinize(seat, random.Random(rng.random()))
            assert table(twin, seat) == table(g, seat)


@pytest.mark.asyncio
async def test_an_illegal_action_is_logged_and_changes_nothing() -> None:
    app = GameApp(GE, GE.rules.new(seed=1), ["human", "greedy"], ai_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        before = app.game.to_json()
        assert not app.apply_action(("fire",), 0)
        assert app.errors == 1 and app.game.to_json() == before
        assert "Engine error for P0" in app.logs[0][-1].plain


def test_play_opens_the_full_screen_game_for_ge_and_plain_text_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[GameApp] = []
    monkeypatch.setattr(GameApp, "run", lambda self, *a, **k: started.append(self))
    res = CliRunner().invoke(cli, ["play", "--game", "ge", "--seed", "3", "--ai", "easy", "--edition", "quick"])
    assert res.exit_code == 0, res.output
    assert started and started[-1].entry.name == "ge" and started[-1].seats == ["human", "easy"]
    assert started[-1].game.s.edition == "quick"
    res = CliRunner().invoke(cli, ["play", "--game", "ge", "--seed", "3", "--text", "--seats", "random,random"])
    assert res.exit_code == 0, res.output
    assert len(started) == 1 and "wins" in res.output  # the plain-text game ran instead
    res = CliRunner().invoke(cli, ["play", "--game", "ge", "--players", "3"])
    assert res.exit_code != 0 and "exactly 2 players" in res.output
