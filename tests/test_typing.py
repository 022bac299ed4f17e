"""The whole package type-checks under ``mypy --strict`` (the platform, both games and the kit),
and under the project's own settings.

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
STRICT_PACKAGES = ("src/starcom",)


def run_mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)


def test_the_package_passes_mypy_strict() -> None:
    proc = run_mypy("--strict", *STRICT_PACKAGES)
    assert proc.returncode == 0, f"mypy --strict found errors:\n{proc.stdout}{proc.stderr}"
    assert "Success" in proc.stdout, proc.stdout


def test_whole_package_passes_mypy() -> None:
    """The project's settings (pyproject's [tool.mypy]: its files, and the strict flags kept on
    per module by the overrides)."""
    proc = run_mypy()
    assert proc.returncode == 0, f"mypy found errors:\n{proc.stdout}{proc.stderr}"
    assert "Success" in proc.stdout, proc.stdout
