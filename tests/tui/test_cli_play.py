"""`starcom play`: options reach the app; bad options are refused before the screen opens."""
from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from starcom.cli import play as play_cli
from starcom.cli.main import app
from starcom.tui import StarcomApp


def test_seats_parsing() -> None:
    assert play_cli.parse_seats(None, 2, False) == ["human", "greedy"]
    assert play_cli.parse_seats(None, 3, True) == ["human"] * 3
    assert play_cli.parse_seats(["ai,human"], 2, False) == ["greedy", "human"]
    assert play_cli.parse_seats(["human", "random", "ai"], 3, False) == ["human", "random", "greedy"]
    with pytest.raises(typer.BadParameter):
        play_cli.parse_seats(["human,wizard"], 2, False)
    with pytest.raises(typer.BadParameter):
        play_cli.parse_seats(["human"], 2, False)


def test_play_command_builds_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[StarcomApp] = []
    monkeypatch.setattr(StarcomApp, "run", lambda self, *a, **k: started.append(self))
    res = CliRunner().invoke(app, ["play", "--players", "3", "--size", "4", "--seed", "7",
                                   "--seats", "human,ai,random", "--turn-limit", "9", "--ai-delay", "0"])
    assert res.exit_code == 0, res.output
    (tui,) = started
    cfg = tui.game.cfg
    assert (cfg.players, cfg.size, cfg.seed, cfg.turn_limit) == (3, 4, 7, 9)
    assert tui.seats == ["human", "greedy", "random"] and not tui.hotseat
    res = CliRunner().invoke(app, ["play", "--hotseat", "--seed", "1"])
    assert res.exit_code == 0 and started[-1].hotseat and started[-1].seats == ["human", "human"]


def test_bad_options_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(StarcomApp, "run", lambda self, *a, **k: pytest.fail("the app must not start"))
    for args in (["--size", "12"], ["--players", "9"], ["--seats", "human,human,human"], ["--ai-delay", "-1"]):
        res = CliRunner().invoke(app, ["play", *args])
        assert res.exit_code == 2, (args, res.output)
