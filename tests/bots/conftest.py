"""The bot tests use the server's test client (tests/api_helpers.py) for the seat link."""
from api_helpers import make_client

__all__ = ["make_client"]
