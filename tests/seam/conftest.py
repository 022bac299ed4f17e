"""Fixtures for the seam tests: the server tests' HTTP helpers (tests/api_helpers.py), so that
the second game is served exactly as Star Commander is."""
from __future__ import annotations

from api_helpers import create, make_client, state, tokens, wait_for

__all__ = ["create", "make_client", "state", "tokens", "wait_for"]
