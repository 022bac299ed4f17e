"""Run one test again on the pure Python build, in a child pytest, when this process runs the
compiled rules (docs/build.md). For the few tests that need Python-level access to the rules'
insides: a line tracer, or a function of the engine replaced to plant a leak, which calls
between compiled functions do not see."""
from __future__ import annotations

import os
import subprocess
import sys


def rerun_on_pure(test_file: str, test_name: str) -> bool:
    """False under the pure build (run the test here). Under the compiled build: run
    ``test_file::test_name`` with ``STARCOM_PURE=1`` in a child process, fail if it fails, and
    return True (the caller returns)."""
    from starcom.build import PURE_ENV, build_name
    if build_name() != "compiled":
        return False
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           f"{test_file}::{test_name}"],
                          env={**os.environ, PURE_ENV: "1"}, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    return True
