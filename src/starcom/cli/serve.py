"""`starcom serve` and `starcom loadtest` (browser play server)."""
import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `starcom` app."""
