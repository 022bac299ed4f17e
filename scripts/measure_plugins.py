"""Measure how far the platform is from knowing no game (issue 28; the closing note's counts).

Counts, over ``src/starcom`` of the checkout this file sits in (or ``--src``):

- ``platform_modules_importing_games``: modules outside the game packages whose code that runs
  imports a game package (``importlib.import_module``/``__import__`` of a literal name count);
- ``name_branches``: comparisons in platform code against a game's name (``== "starcom"``,
  ``!= "ge"``, ``is STARCOM`` ...);
- ``module_cycles`` / ``package_cycles``: strongly connected groups of more than one module, and
  of packages (the platform's sub-packages and each game as one node), counting package
  ``__init__`` imports (importing ``a.b.c`` runs ``a`` and ``a.b``) except a package's own
  submodules, whose ``__init__`` is already running;
- ``mypy_strict_errors``: ``mypy --strict src/starcom`` (skipped with ``--no-mypy``);
- digests of behaviour: both perft files, and the actions of seeded self-play games of every
  registered game (``--no-selfplay`` skips them).

The game packages are ``starcom.sc`` and ``starcom.ge`` where ``sc`` exists; before Star Commander
moved there, its engine, cards and the adapters that read them were its package.

Usage::

    python scripts/measure_plugins.py [--src src] [--no-mypy] [--no-selfplay]
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import tempfile
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from test_import_graph import NAME_BRANCH, import_graph, strongly_connected  # noqa: E402



def game_packages(graph: dict[str, set[str]]) -> tuple[str, ...]:
    if any(m == "starcom.sc" or m.startswith("starcom.sc.") for m in graph):
        return ("starcom.sc", "starcom.ge")
    return ("starcom.sc.engine", "starcom.sc.cards", "starcom.ge")


def in_games(module: str, games: tuple[str, ...]) -> bool:
    return any(module == g or module.startswith(g + ".") for g in games)


def package_of(module: str, games: tuple[str, ...]) -> str:
    for g in games:
        if module == g or module.startswith(g + "."):
            return g
    parts = module.split(".")
    return ".".join(parts[:2])


def name_branches(src: Path, games: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted((src / "starcom").rglob("*.py")):
        module = ".".join(path.relative_to(src).with_suffix("").parts).removesuffix(".__init__")
        if in_games(module, games):
            continue
        for no, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if NAME_BRANCH.search(code):
                found.append(f"{path.relative_to(src)}:{no}: {line.strip()}")
    return found


def mypy_strict(src: Path) -> int | None:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", str(src / "starcom")], cwd=src.parent,
                          capture_output=True, text=True)
    m = re.search(r"Found (\d+) errors?", proc.stdout)
    return int(m.group(1)) if m else (0 if "Success" in proc.stdout else None)


def selfplay_digests(src: Path) -> dict[str, str]:
    """sha256 of the action lists of seeded self-play games, per game and agent."""
    out = {}
    for game in ("starcom", "ge"):
        for agents, n in (("random", 20), ("heuristic", 4)):
            with tempfile.TemporaryDirectory() as tmp:
                subprocess.run([sys.executable, "-c", "from starcom.cli.main import app; app()", "selfplay", "--game", game, "-n", str(n),
                                "--agents", agents, "--seed", "0", "--save-dir", tmp, "--json"],
                               cwd=src.parent, capture_output=True, text=True, env=_env(src), check=False)
                h = hashlib.sha256()
                files = sorted(Path(tmp).glob("*.json"))
                for f in files:
                    data = json.loads(f.read_text("utf-8"))
                    h.update(json.dumps([data.get("actions"), data.get("result")], sort_keys=True).encode())
                out[f"{game}/{agents}x{n}"] = f"{h.hexdigest()[:16]} ({len(files)} games)"
    return out


def _env(src: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(src)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", type=Path, default=ROOT / "src")
    ap.add_argument("--no-mypy", action="store_true")
    ap.add_argument("--no-selfplay", action="store_true")
    ap.add_argument("--list", action="store_true", help="also list the modules and branches counted")
    args = ap.parse_args()
    src = args.src.resolve()
    graph = import_graph(src, with_init=True)
    games = game_packages(graph)
    reaching = sorted(m for m, deps in graph.items()
                      if not in_games(m, games) and m != "starcom" and any(in_games(d, games) for d in deps))
    branches = name_branches(src, games)
    module_sccs = [c for c in strongly_connected(graph) if len(c) > 1]
    packages: dict[str, set[str]] = {}
    for m, deps in graph.items():
        pm = package_of(m, games)
        packages.setdefault(pm, set()).update(package_of(d, games) for d in deps)
    for pm in packages:
        packages[pm].discard(pm)
    package_sccs = [c for c in strongly_connected(packages) if len(c) > 1]
    report: dict[str, object] = {
        "game_packages": list(games),
        "platform_modules_importing_games": len(reaching),
        "name_branches": len(branches),
        "module_cycles": len(module_sccs),
        "package_cycles": len(package_sccs),
    }
    if args.list:
        report.update(reaching=reaching, branches=branches, module_sccs=[sorted(c) for c in module_sccs],
                      package_sccs=[sorted(c) for c in package_sccs])
    if not args.no_mypy:
        report["mypy_strict_errors"] = mypy_strict(src)
    perft = ROOT / "tests" / "perft"
    report["perft"] = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in sorted(perft.glob("*.perft"))}
    if not args.no_selfplay:
        report["selfplay"] = selfplay_digests(src)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
