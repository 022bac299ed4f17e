"""Fixtures for the seam tests: the server tests' own (an app over a temporary SQLite file,
driven by TestClient), so that the second game is served exactly as Star Commander is."""
from __future__ import annotations

from server.conftest import create, make_client, state, tokens, wait_for

__all__ = ["create", "make_client", "state", "tokens", "wait_for"]
