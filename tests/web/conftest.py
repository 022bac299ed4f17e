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
# The policy the server sends with its pages (issue 10). The test server adds it to any HTTP answer
# that has none (a server without the security headers), so every browser test runs the pages
# under the real policy.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
# Marks an answer whose policy came from the test wrapper, not from the server.
CSP_ADDED_HEADER = "x-test-csp-added"
# Server options for the tests (passed when the server has them): the AI in threads of the server
# process, so the patched search below is the one that plays; all-AI games, which the replay test
# plays out; no limit on how many games the tests create a minute.
SERVER_OPTIONS = {"ai_processes": False, "allow_ai_games": True, "create_limit": 0}
LAUNCH = (
    "import sys, uvicorn\n"
    f"SERVER_OPTIONS = {SERVER_OPTIONS!r}\n"
    # The hard level searches with a small fixed number of iterations here instead of 1 s a
    # decision, so a browser test can play against it quickly (and the same way every time).
    "from starcom.sc import agents\n"
    "search = agents.AGENTS['ismcts']\n"
    "agents.AGENTS['ismcts'] = lambda think, iterations: search(None, 30)\n"
    "import inspect\n"
    "from starcom.server.app import create_app\n"
    "known = inspect.signature(create_app).parameters\n"
    "opts = {k: v for k, v in SERVER_OPTIONS.items() if k in known}\n"
    "app = create_app(sys.argv[1], **opts)\n"
    "CSP = sys.argv[3].encode()\n"
    f"ADDED = {CSP_ADDED_HEADER.encode()!r}\n"
    "async def with_csp(scope, receive, send):\n"
    "    if scope['type'] != 'http':\n"
    "        return await app(scope, receive, send)\n"
    "    async def send_csp(msg):\n"
    "        if msg['type'] == 'http.response.start':\n"
    "            headers = list(msg.get('headers') or [])\n"
    "            if not any(k.lower() == b'content-security-policy' for k, _ in headers):\n"
    "                msg = {**msg, 'headers': headers + [(b'content-security-policy', CSP), (ADDED, b'1')]}\n"
    "        await send(msg)\n"
    "    await app(scope, receive, send_csp)\n"
    "uvicorn.run(with_csp, host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')\n"
)
# Chrome reports every blocked inline script, style or eval on the console with this phrase.
CSP_CONSOLE = "Content Security Policy"


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
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, f"sqlite:///{db}", str(port), CSP],
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
    """A new page (1600×1000) whose JavaScript errors and Content-Security-Policy violations fail
    the test."""
    ctx = browser.new_context(viewport={"width": 1600, "height": 1000}, base_url=server)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if CSP_CONSOLE in m.text else None)
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors or CSP violations on the page: {errors}"
