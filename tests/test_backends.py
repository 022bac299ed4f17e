"""Where games are played (starcom.sim.backends): in this process or in local processes, self-play
and the arena give the same results, and bad ``--workers``/``--backend``/``--address`` options
are refused by name before any game. The Ray backend's runs are in tests/study/test_ray.py."""
from __future__ import annotations

import importlib.util
import json
import operator
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from starcom.cli.main import app
from starcom.sim import backends as B

runner = CliRunner()

SELFPLAY = ["selfplay", "--games", "6", "--agents", "greedy,random", "--turn-limit", "14", "--seed", "4", "--json"]
ARENA = ["arena", "--agents", "random,greedy", "--games", "4", "--turn-limit", "10", "--seed", "3", "--no-plot",
         "--json"]


def flat(text: str) -> str:
    """Rich error panels wrap lines and draw boxes; compare messages on plain words."""
    return re.sub(r"[\s│╭╮╰╯─]+", " ", text)


def last_json(text: str) -> dict:
    return json.loads([ln for ln in text.strip().splitlines() if ln.strip()][-1])


def _run(args: list[str]) -> dict:
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    return last_json(res.stdout)


def test_every_backend_yields_every_result_once() -> None:
    """``run(fn, common, items)`` is ``fn(common, item)`` for each item, in any order, and a
    backend can run several batches before it is closed."""
    for backend in (B.make_backend("local", 1), B.make_backend("local", 2)):
        with backend:
            for _ in range(2):
                assert sorted(backend.run(operator.mul, 3, range(8))) == [3 * i for i in range(8)]
    assert isinstance(B.make_backend("local", 1), B.InlineBackend)


def test_selfplay_totals_and_saved_games_do_not_depend_on_the_workers(tmp_path: Path) -> None:
    one = _run([*SELFPLAY, "--save-dir", str(tmp_path / "one")])
    two = _run([*SELFPLAY, "--save-dir", str(tmp_path / "two"), "--workers", "2", "--backend", "local"])
    assert one.pop("steps_per_second") > 0 and two.pop("steps_per_second") > 0
    assert one == two and one["games"] == 6
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert names == [f"game-{i:04d}.json" for i in range(6)]
    assert sorted(p.name for p in (tmp_path / "two").iterdir()) == names
    for name in names:
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()


def test_arena_results_do_not_depend_on_the_workers() -> None:
    one = _run(ARENA)
    two = _run([*ARENA, "--workers", "2", "--backend", "local"])
    assert (one["config"].pop("workers"), two["config"].pop("workers")) == (1, 2)
    assert one == two and len(one["results"]) == 4


@pytest.mark.parametrize("command", [SELFPLAY, ARENA], ids=["selfplay", "arena"])
@pytest.mark.parametrize("args, option, words", [
    (["--workers", "0"], "--workers", "at least 1, not 0"),
    (["--backend", "cloud"], "--backend", "'cloud' is not a backend; use local or ray"),
    (["--address", "127.0.0.1:6379"], "--address", "is for --backend ray"),
    (["--backend", "ray", "--address", "nowhere"], "--address", "write it as HOST:PORT"),
    (["--backend", "ray", "--address", "127.0.0.1:1"], "--address", "127.0.0.1:1: nothing answers there"),
])
def test_bad_backend_options_are_refused_by_name_before_any_game(command: list[str], args: list[str], option: str,
                                                                   words: str, tmp_path: Path) -> None:
    extra = ["--save-dir", str(tmp_path / "games")] if command is SELFPLAY else ["--log", str(tmp_path / "log")]
    res = runner.invoke(app, [*command, *extra, *args])
    assert res.exit_code == 2, res.output
    assert option in res.stderr and words in flat(res.stderr)
    assert not (tmp_path / "games").exists() and not (tmp_path / "log").exists()


def test_without_ray_the_ray_backend_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else find_spec(name, *a))
    with pytest.raises(B.BackendError, match=r"--backend ray needs Ray: pip install 'starcom\[ray\]'") as caught:
        B.make_backend("ray", 2)
    assert caught.value.option == "--backend" and isinstance(caught.value, ValueError)
    monkeypatch.setitem(sys.modules, "ray", None)  # installed as far as find_spec knows, but not importable
    with pytest.raises(B.BackendError, match=r"pip install 'starcom\[ray\]'"):
        B.RayBackend(2, None)


def test_ray_is_imported_only_by_the_ray_backend() -> None:
    code = ("import sys, starcom.sim.arena, starcom.sim.selfplay, starcom.study.runner as R\n"
            "from starcom.sim.backends import make_backend\n"
            "make_backend('local', 2).close()\n"
            "assert 'ray' not in sys.modules, 'ray was imported'\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
