"""`starcom play`: the terminal game (Textual)."""
import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `starcom` app."""
