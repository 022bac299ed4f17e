"""`starcom serve` and `starcom loadtest` (browser play server)."""
from __future__ import annotations

import os
import threading
import webbrowser

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `starcom` app."""

    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", help="Address to listen on."),
        port: int = typer.Option(8000, help="Port to listen on."),
        db: str = typer.Option("sqlite:///starcom.db",
                               help="SQLAlchemy database URL (default: the SQLite file ./starcom.db)."),
        no_browser: bool = typer.Option(False, "--no-browser", help="Do not open a browser."),
        takeover: float = typer.Option(60.0, help="Seconds before the AI plays a disconnected seat "
                                                  "(online games created with ai_takeover)."),
    ) -> None:
        """Play in the browser: start the game server (games are stored in the database)."""
        import uvicorn

        from ..server.app import create_app
        try:
            web_app = create_app(db, takeover_seconds=takeover)
        except Exception as exc:  # a bad URL or unreachable database: say so plainly
            typer.echo(f"error: cannot open the database {db!r}: {exc}", err=True)
            raise typer.Exit(2) from None
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
        url = f"http://{shown}:{port}/"
        typer.echo(f"Star Commander server: open {url} in your browser (games stored in {db}; Ctrl+C stops)")
        if not no_browser and not os.environ.get("CI"):
            threading.Timer(1.0, lambda: webbrowser.open(url)).start()
        uvicorn.run(web_app, host=host, port=port, log_level="warning", ws_max_size=1 << 20)

    @app.command()
    def loadtest(
        games: int = typer.Option(20, "--games", "-n", help="Number of concurrent games (1 to 1000)."),
        url: str = typer.Option("http://127.0.0.1:8000", help="The running server."),
        actions: int = typer.Option(40, help="Actions to play in each game at most."),
        think: float = typer.Option(0.5, help="Mean seconds each player thinks before acting (keeps under the "
                                              "server's flood limit)."),
        timeout: float = typer.Option(120.0, help="Stop after this many seconds in all."),
        seed: int = typer.Option(0, help="Seed of the games and of the players' choices."),
    ) -> None:
        """Play N concurrent two-player games over WebSockets against a running server and print the
        action round-trip latency (action sent -> resulting state received)."""
        import asyncio

        from ..server.loadtest import run_loadtest
        if not 1 <= games <= 1000:
            raise typer.BadParameter("use 1 to 1000 games", param_hint="--games")
        if actions < 1 or timeout <= 0 or think < 0:
            raise typer.BadParameter("actions must be at least 1, timeout above 0, think not negative")
        result = asyncio.run(run_loadtest(url, games, actions, think, timeout, seed))
        typer.echo(result.report())
        if result.errors or not result.latencies:
            raise typer.Exit(1)
