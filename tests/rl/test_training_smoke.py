"""The maskable-PPO example trains for two minutes and its policy plays in the arena."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="the training example needs sb3-contrib: pip install 'starcom[rl]'")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"


def test_two_minute_training_then_an_arena_match(tmp_path):
    model = tmp_path / "ppo.zip"
    trained = subprocess.run(
        [sys.executable, str(EXAMPLE), "--minutes", "2", "--envs", "1", "--opponents", "random",
         "--n-steps", "256", "--out", str(model)], capture_output=True, text=True, timeout=600)
    assert trained.returncode == 0, trained.stderr[-3000:]
    assert model.exists() and "trained 2" in trained.stdout
    played = subprocess.run(
        [sys.executable, str(EXAMPLE), "--evaluate", str(model), "--against", "random", "--games", "4"],
        capture_output=True, text=True, timeout=600)
    assert played.returncode == 0, played.stderr[-3000:]
    line = next(x for x in played.stdout.splitlines() if x.startswith("ppo vs random"))
    wins, draws, losses, games = (int(w) for w in
                                  line.replace(",", "").split(":")[1].split("(")[0].split() if w.isdigit())
    assert wins + draws + losses == games == 4


def test_bad_arguments_are_refused():
    done = subprocess.run([sys.executable, str(EXAMPLE), "--envs", "0"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--envs" in done.stderr


def test_the_example_trains_and_measures_galactic_empires(tmp_path):
    """``--game ge``: the same example learns GE (30 seconds here) and its policy plays GE games
    in the arena as the agent ``ppo``."""
    model = tmp_path / "ppo_ge.zip"
    trained = subprocess.run(
        [sys.executable, str(EXAMPLE), "--game", "ge", "--minutes", "0.5", "--envs", "1", "--opponents", "random",
         "--n-steps", "128", "--out", str(model)], capture_output=True, text=True, timeout=600)
    assert trained.returncode == 0, trained.stderr[-3000:]
    assert model.exists() and "trained 0.5" in trained.stdout
    played = subprocess.run(
        [sys.executable, str(EXAMPLE), "--game", "ge", "--evaluate", str(model), "--against", "random",
         "--games", "2"], capture_output=True, text=True, timeout=600)
    assert played.returncode == 0, played.stderr[-3000:]
    line = next(x for x in played.stdout.splitlines() if x.startswith("ppo vs random"))
    assert "in 2 games" in line, line
