"""`starcom play`: options reach the app; bad options are refused before the screen opens."""
from __future__ import annotations

import dataclasses

import pytest
import typer
from typer.testing import CliRunner

from starcom import games
from starcom.cli import play as play_cli
from starcom.cli.main import app
from starcom.sc.tui.app import StarcomApp


def test_seats_parsing() -> None:
    assert play_cli.parse_seats(None, 2, False) == ["human", "normal"]  # the default computer is normal
    assert play_cli.parse_seats(None, 3, False, ai="hard") == ["human", "hard", "hard"]
    assert play_cli.parse_seats(None, 3, True) == ["human"] * 3
    assert play_cli.parse_seats(["ai,human"], 2, False) == ["normal", "human"]
    assert play_cli.parse_seats(["ai,human"], 2, False, ai="Easy") == ["easy", "human"]
    assert play_cli.parse_seats(["human", "random", "ai"], 3, False) == ["human", "random", "normal"]
    assert play_cli.parse_seats(["human,HARD,easy,greedy"], 4, False) == ["human", "hard", "easy", "greedy"]
    with pytest.raises(typer.BadParameter) as bad:
        play_cli.parse_seats(["human,wizard"], 2, False)
    assert all(name in str(bad.value) for name in ("easy", "normal", "hard", "greedy"))
    with pytest.raises(typer.BadParameter):
        play_cli.parse_seats(["human"], 2, False)
    with pytest.raises(typer.BadParameter) as bad:
        play_cli.parse_seats(None, 2, False, ai="genius")
    assert "hard" in str(bad.value)


def test_play_command_builds_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[StarcomApp] = []
    monkeypatch.setattr(StarcomApp, "run", lambda self, *a, **k: started.append(self))
    res = CliRunner().invoke(app, ["play", "--players", "3", "--size", "4", "--seed", "7",
                                   "--seats", "human,ai,random", "--turn-limit", "9", "--ai-delay", "0"])
    assert res.exit_code == 0, res.output
    (tui,) = started
    cfg = tui.game.cfg
    assert (cfg.players, cfg.size, cfg.seed, cfg.turn_limit) == (3, 4, 7, 9)
    assert tui.seats == ["human", "normal", "random"] and not tui.hotseat
    assert tui.kinds == ["you", "AI · normal", "AI · random"]
    res = CliRunner().invoke(app, ["play", "--hotseat", "--seed", "1"])
    assert res.exit_code == 0 and started[-1].hotseat and started[-1].seats == ["human", "human"]


def test_ai_level_and_think_options(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[StarcomApp] = []
    monkeypatch.setattr(StarcomApp, "run", lambda self, *a, **k: started.append(self))
    made: list[tuple[str, float | None]] = []
    entry = games.get("starcom")  # the app builds its agents through the game's registry entry
    monkeypatch.setitem(games._REGISTRY, "starcom", dataclasses.replace(entry, ai=dataclasses.replace(
        entry.ai, make_agent=lambda name, think=None: made.append((name, think)) or entry.ai.make_agent("greedy"))))
    res = CliRunner().invoke(app, ["play", "--players", "3", "--seed", "2", "--ai", "easy", "--think", "0.5"])
    assert res.exit_code == 0, res.output
    assert started[-1].seats == ["human", "easy", "easy"]
    assert made == [("easy", 0.5), ("easy", 0.5)]
    res = CliRunner().invoke(app, ["play", "--seed", "2", "--seats", "hard,human"])
    assert res.exit_code == 0, res.output
    assert started[-1].seats == ["hard", "human"] and started[-1].kinds == ["AI · hard", "you"]
    assert made[-1] == ("hard", None)


def test_bad_options_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(StarcomApp, "run", lambda self, *a, **k: pytest.fail("the app must not start"))
    for args in (["--size", "12"], ["--players", "9"], ["--seats", "human,human,human"], ["--ai-delay", "-1"],
                 ["--ai", "genius"], ["--seats", "human,wizard"], ["--think", "0"]):
        res = CliRunner().invoke(app, ["play", *args])
        assert res.exit_code == 2, (args, res.output)
