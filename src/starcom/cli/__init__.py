"""Command-line interface (Typer)."""
