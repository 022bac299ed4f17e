"""The engines and the cards of both games, the shared agents, the observer and the server
type-check under ``mypy --strict``; the whole package under mypy's default settings.

mypy runs as a separate process, as CI would run it, with the settings in ``pyproject.toml``
([tool.mypy]). The test is skipped where mypy is not installed (``pip install -e .[dev]``).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="mypy is not installed: pip install -e '.[dev]'")

ROOT = Path(__file__).resolve().parents[1]
STRICT_PACKAGES = ("src/starcom/sc", "src/starcom/ge", "src/starcom/kit",
                   "src/starcom/agents/generic.py", "src/starcom/server", "src/starcom/observer.py")


def run_mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)


def test_engine_and_cards_pass_mypy_strict() -> None:
    proc = run_mypy("--strict", *STRICT_PACKAGES)
    assert proc.returncode == 0, f"mypy --strict found errors:\n{proc.stdout}{proc.stderr}"
    assert "Success" in proc.stdout, proc.stdout


def test_whole_package_passes_mypy() -> None:
    """Default settings everywhere (pyproject's [tool.mypy]: files, and the strict flags kept on
    for the engine and the cards)."""
    proc = run_mypy()
    assert proc.returncode == 0, f"mypy found errors:\n{proc.stdout}{proc.stderr}"
    assert "Success" in proc.stdout, proc.stdout
