"""Fixtures for the browser tests: a real server (uvicorn subprocess on loopback, temp SQLite DB)
and headless Debian Chromium driven by Playwright."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium"
# Flags that work as root on a machine without network access.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The hard level searches with a small fixed number of iterations here instead of 1 s a decision,
# so a browser test can play against it quickly (and the same way every time).
LAUNCH = (
    "import sys, uvicorn\n"
    "from starcom import agents\n"
    "search = agents.AGENTS['ismcts']\n"
    "agents.AGENTS['ismcts'] = lambda think, iterations: search(None, 30)\n"
    "from starcom.server.app import create_app\n"
    "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')\n"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a freshly started server with an empty database; stopped after the module."""
    db = tmp_path_factory.mktemp("db") / "games.db"
    port = _free_port()
    log = open(db.parent / "server.log", "w")
    env = {k: v for k, v in os.environ.items()} | {"CI": "1"}
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, f"sqlite:///{db}", str(port)],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/api/games", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("server did not start: " + (db.parent / "server.log").read_text())
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Chromium; the tests are skipped (not passed) when it is not installed."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM}, which is missing")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server: str):
    """A new page (1600×1000) whose JavaScript errors fail the test."""
    ctx = browser.new_context(viewport={"width": 1600, "height": 1000}, base_url=server)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
