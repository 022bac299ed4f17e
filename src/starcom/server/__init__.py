"""The game server of ``starcom serve``: REST + WebSocket API (docs/protocol.md), storage and live games."""
from .app import create_app

__all__ = ["create_app"]
