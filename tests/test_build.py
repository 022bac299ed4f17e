"""The compiled build of the rules (starcom.build, docs/build.md): both builds behave alike to
the byte, the pure one can be forced, a missing compiler costs one line, and the commands say
which build runs.

The suite itself runs on the compiled build whenever it is built (scripts/test.sh builds it);
here the perft counts, self-play traces and saved games of this process are compared with those
of a child process of the other build."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import starcom
from starcom import build
from starcom.cli.main import app

SRC = str(Path(starcom.__file__).resolve().parents[1])

# What is compared: every perft case of both games (the counts pinned in tests/perft), the
# action lists and final saved states of seeded games between AIs of each game, and a seeded
# arena's results.
FINGERPRINT = r"""
import hashlib, json, random, sys
from starcom.build import build_name
from starcom.games import get
from starcom.sc import perft as sc_perft
from starcom.ge import perft as ge_perft

def digest(value):
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=repr).encode()).hexdigest()[:16]

out = {"build": build_name()}
out["perft starcom"] = digest([sc_perft.counts(case) for case in sc_perft.CASES])
out["perft ge"] = digest([ge_perft.counts(edition, seed) for edition, seed in ge_perft.CASES])
for name in ("starcom", "ge"):
    entry = get(name)
    for agent_name in ("random", "greedy"):
        traces = []
        for seed in range(3):
            game = entry.rules.new(seed=seed, **({"turn_limit": 40} if "turn_limit" in entry.rules.settings else {}))
            agents = [entry.ai.make_agent(agent_name) for _ in range(int(game.players))]
            rng = random.Random(seed)
            actions = []
            while not game.over and len(actions) < 1500:
                seat = game.to_move
                action = agents[seat].choose(game, rng)
                actions.append(action)
                entry.rules.play(game, action)
            traces.append([actions, game.to_json()])
        out[f"trace {name} {agent_name}"] = digest(traces)
from starcom.sim.arena import ArenaSpec, run_arena
for name in ("starcom", "ge"):
    records = run_arena(ArenaSpec(agents=("random", "greedy"), games=4, seed=5, turn_limit=30, game=name)).records
    out[f"arena {name}"] = digest([[r.seats, r.config_seed, r.winner, r.turns, r.steps, r.error] for r in records])
print(json.dumps(out))
"""


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != build.PURE_ENV}
    env["PYTHONPATH"] = os.pathsep.join([SRC, *filter(None, [os.environ.get("PYTHONPATH")])])
    env.update(extra)
    return env


def _fingerprint(pure: bool) -> dict[str, str]:
    proc = subprocess.run([sys.executable, "-c", FINGERPRINT], env=_env(**{build.PURE_ENV: "1" if pure else "0"}),
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    result: dict[str, str] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def test_both_builds_give_the_same_perft_traces_and_saved_games() -> None:
    compiled = _fingerprint(pure=False)
    if compiled["build"] != "compiled":
        pytest.skip("the compiled build is not there (starcom build): nothing to compare the pure build with")
    pure = _fingerprint(pure=True)
    assert pure["build"] == "pure"
    assert {k: v for k, v in compiled.items() if k != "build"} == {k: v for k, v in pure.items() if k != "build"}


def test_the_suite_runs_the_compiled_build_when_it_is_built() -> None:
    """scripts/test.sh builds it first, so the tests check the rules as they run compiled."""
    if os.environ.get(build.PURE_ENV, "0") != "0":
        assert build.build_name() == "pure"
    elif (build.build_dir() / "COMPLETE").is_file():
        assert build.build_name() == "compiled"
        from starcom.sc.engine import game
        assert game.__file__ is not None and not game.__file__.endswith(".py")
    else:
        assert build.build_name() == "pure"


@pytest.mark.skipif(not os.environ.get("CI"), reason="CI's check: scripts/test.sh must have compiled the rules")
def test_ci_runs_the_compiled_build() -> None:
    """On CI (CI=true) with a C compiler, a failed compile must not pass unseen as a pure run."""
    if build.compiler_missing() is not None:
        pytest.skip(f"no compiled build here: {build.compiler_missing()}")
    assert os.environ.get(build.PURE_ENV, "0") == "0", "CI runs the suite on the compiled build"
    assert build.build_name() == "compiled", build.describe()


def test_pure_is_forced_by_the_environment() -> None:
    proc = subprocess.run([sys.executable, "-c", "from starcom.sc.engine import game; import starcom.build as b; "
                           "print(b.build_name(), game.__file__)"],
                          env=_env(**{build.PURE_ENV: "1"}), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    name, path = proc.stdout.split()
    assert name == "pure" and path.endswith(os.path.join("sc", "engine", "game.py"))
    assert proc.stderr == ""


def test_no_compiler_is_one_line_and_pure_python(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    cache = tmp_path / "cache"
    proc = subprocess.run([sys.executable, "-c", "import sys, starcom.build as b; sys.exit(b.main(['--if-needed']))"],
                          env=_env(PATH=str(empty), CC="no-such-compiler", STARCOM_BUILD_DIR=str(cache)),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "no C compiler" in lines[0] and "pure Python" in lines[0]
    assert not cache.exists() or not any(cache.iterdir())


def test_sources_changed_since_the_build_is_one_line_and_pure_python(tmp_path: Path) -> None:
    old = tmp_path / "0123456789abcdef"  # a build of other sources
    old.mkdir()
    (old / "COMPLETE").write_text("0123456789abcdef\n")
    code = "import starcom.build as b; from starcom.sc.engine import game; print(b.build_name())"
    proc = subprocess.run([sys.executable, "-c", code], env=_env(STARCOM_BUILD_DIR=str(tmp_path)),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "pure"
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "starcom build" in lines[0] and "pure Python" in lines[0]


def test_the_hook_loads_only_the_compiled_modules(tmp_path: Path) -> None:
    finder = build._Finder(tmp_path)
    assert finder.find_spec("starcom.sim.bench") is None and finder.find_spec("starcom.sc.engine.moves") is None
    spec = finder.find_spec("starcom.sc.engine.game")
    assert spec is not None and spec.origin is not None and spec.origin.startswith(str(tmp_path))
    assert set(build.COMPILED) <= {m for m in build.COMPILED if build.source_path(m).is_file()}


def test_version_names_the_build() -> None:
    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0, res.output
    assert res.output.startswith(f"starcom {starcom.__version__}, rules ")
    assert ("rules compiled" if build.build_name() == "compiled" else "rules pure Python") in res.output
    proc = subprocess.run([sys.executable, "-c", "from starcom.cli.main import app; app()", "--version"],
                          env=_env(**{build.PURE_ENV: "1"}), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "rules pure Python (STARCOM_PURE=1)" in proc.stdout, proc.stderr


def test_bench_runs_both_builds_in_one_run() -> None:
    res = CliRunner().invoke(app, ["bench", "--steps", "200", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout.strip().splitlines()[-1])
    assert data["build"] == build.build_name()
    other = data["other_build"]
    if other is None:  # no compiled build: the bench says so
        assert data["build"] == "pure" and "not there" in " ".join(res.output.split())
    else:
        assert {data["build"], other["build"]} == {"compiled", "pure"}
        assert set(other["steps_per_second"]) == {"2p3", "4p5"}
        assert all(m["steps"] == 200 for m in other["measurements"].values())
        assert "compiled against pure Python in the same run" in " ".join(res.output.split())
