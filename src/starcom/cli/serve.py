"""`starcom serve` and `starcom loadtest` (browser play server)."""
from __future__ import annotations

import errno
import os
import socket
import threading
import webbrowser
from typing import Any

import typer

from .play import ai_names

# Hosts that mean "this machine" to a browser on it.
_LOCAL_HOSTS = ("127.0.0.1", "0.0.0.0", "::", "::1", "localhost", "")
_SEARCH = 50  # ports looked at after a busy one when suggesting another


def listen_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening (port 0: any free port). OSError
    (or socket.gaierror for an unknown host) if the address cannot be had. Binding before the
    database is opened means a busy port is reported as such, not as a locked database."""
    family, kind, proto, _, addr = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                      flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        # A server stopped a moment ago leaves its port in TIME_WAIT; that must not block a restart.
        # (On Linux this still refuses a port that another socket listens on.)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
        sock.listen(2048)
    except BaseException:
        sock.close()
        raise
    return sock


def free_port_after(host: str, port: int) -> int | None:
    """The first port after ``port`` (within a few dozen) that ``host`` can listen on now."""
    for candidate in range(port + 1, min(port + 1 + _SEARCH, 65536)):
        try:
            listen_socket(host, candidate).close()
        except OSError:
            continue
        return candidate
    return None


def url_for(host: str, port: int) -> str:
    """The address to open in a browser for a server listening on ``host``:``port``."""
    shown = "localhost" if host in _LOCAL_HOSTS else host
    if ":" in shown:  # an IPv6 address goes in brackets in a URL
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def listen_error(host: str, port: int, exc: OSError) -> str:
    """One line saying why ``host``:``port`` cannot be listened on and what to do instead."""
    if isinstance(exc, socket.gaierror):
        return (f"cannot listen on --host {host!r}: not a known host name or address of this machine "
                f"(use 127.0.0.1 for this machine only, 0.0.0.0 for every network)")
    if exc.errno in (errno.EADDRINUSE, errno.EACCES):
        # Refused for want of rights: look from the usual 8000 on, not among the ports next to it.
        free = free_port_after(host, port if exc.errno == errno.EADDRINUSE else 7999)
        other = f"--port {free} (free now)" if free is not None else "--port <another port>"
        if exc.errno == errno.EADDRINUSE:
            return (f"port {port} is already in use on {host} (is starcom already running? it would be at "
                    f"{url_for(host, port)}); start on another port with {other}")
        return f"not allowed to listen on port {port} (ports below 1024 need administrator rights); use {other}"
    if exc.errno == errno.EADDRNOTAVAIL:
        return (f"{host} is not an address of this machine; use --host 127.0.0.1 (this machine only) "
                f"or 0.0.0.0 (every network)")
    return f"cannot listen on {host}:{port}: {exc.strerror or exc}"


SERVE_EXAMPLES = """Examples:
  starcom serve                          # http://localhost:8000/, opens the browser
  starcom serve --port 9000 --no-browser # another port; open the page yourself
  starcom --no-browser                   # the same as starcom serve --no-browser
  starcom serve --host 0.0.0.0           # let other machines on the network join
  starcom serve --db postgresql+psycopg://user@host/starcom   # PostgreSQL (pip extra postgres)"""

LOADTEST_EXAMPLES = """Examples:
  starcom loadtest --json                # 100 hot-seat games while 20 hard vs-AI games think
  starcom loadtest --games 10 --ai-games 2 --think 0.1   # a quick run
  starcom loadtest --memory              # 1,000 finished games, then the server's memory
  starcom loadtest --hint-flood --json   # another game's AI, quiet and while one seat floods hints
  starcom loadtest --url http://localhost:8000   # load a server that is already running"""


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `starcom` app."""

    @app.command(epilog=SERVE_EXAMPLES)
    def serve(
        host: str = typer.Option("127.0.0.1", help="Address to listen on: 127.0.0.1 lets only this machine "
                                                   "connect, 0.0.0.0 every network (to play with friends)."),
        port: int = typer.Option(8000, min=0, max=65535,
                                 help="Port to listen on (0: any free port). If it is taken, the error names "
                                      "a free one."),
        db: str = typer.Option("sqlite:///starcom.db",
                               help="SQLAlchemy database URL (default: the SQLite file ./starcom.db)."),
        no_browser: bool = typer.Option(False, "--no-browser", help="Do not open a browser (also when the CI "
                                                                    "environment variable is set)."),
        takeover: float = typer.Option(60.0, help="Seconds before the AI plays a disconnected seat "
                                                  "(online games created with ai_takeover)."),
        ai_workers: int = typer.Option(0, help="AI seats' moves computed at once, each in its own process at "
                                               "the lowest CPU priority (0: one per core but one, which is left "
                                               "to the server; at least 1, at most 8). Others wait in a queue; "
                                               "hints have one more process of their own."),
        create_limit: int | None = typer.Option(None, help="New games one client (address) may create per "
                                                           "minute (default: the server's standard limit); 0: "
                                                           "no limit.", show_default=False),
        allow_ai_games: bool = typer.Option(False, "--allow-ai-games",
                                            help="Accept games without a human seat (to watch AIs play)."),
        allow_origin: list[str] = typer.Option([], help="Another web origin (e.g. https://example.org) whose "
                                                        "pages may open game WebSockets; repeatable."),
        window_hold: float | None = typer.Option(None, help="Seconds a decision that may hinge on a seat's hidden "
                                                            "cards stays open before the server passes for it "
                                                            "(default 0.6; docs/security.md). Shorter is brisker, "
                                                            "but a quicker pass is easier to tell from a "
                                                            "player's own.", show_default=False),
        ws_per_address: int | None = typer.Option(None, help="Open WebSockets one client address may hold "
                                                             "(default 64; 0: no cap). This machine's own "
                                                             "address (127.0.0.1, ::1) is not capped.",
                                                  show_default=False),
        ws_total: int | None = typer.Option(None, help="Open WebSockets in all (default: the limit on open "
                                                       "files less a quarter of it, at least 256 files; 0: no "
                                                       "cap).", show_default=False),
    ) -> None:
        """Play in the browser: start the game server and open its page.

        The first page starts a game against the AI at once and offers hot-seat and online
        games. Every game is stored in the database as it is played, so stopping the server
        (Ctrl+C) loses nothing. One server uses one database at a time. This is also what
        `starcom` does without a command; options given before any command go to serve.
        """
        import uvicorn

        # Imported here, not at the top: every other command would load the server with them.
        from ..server.app import create_app
        from ..server.limits import CREATE_LIMIT
        from ..server.store import StoreLocked
        if not 0 <= ai_workers <= 64:
            raise typer.BadParameter("use 0 (automatic) to 64", param_hint="--ai-workers")
        if create_limit is not None and create_limit < 0:
            raise typer.BadParameter("use 0 (no limit) or more", param_hint="--create-limit")
        caps: dict[str, Any] = {}  # only the caps given: the app's own defaults otherwise
        for value, name in ((ws_per_address, "--ws-per-address"), (ws_total, "--ws-total")):
            if value is not None:
                if value < 0:
                    raise typer.BadParameter("use 0 (no cap) or more", param_hint=name)
                caps[name[2:].replace("-", "_")] = value
        if window_hold is not None:
            if not 0 <= window_hold <= 10:
                raise typer.BadParameter("use 0 to 10 seconds", param_hint="--window-hold")
            caps["window_hold"] = window_hold
        # The port first: a second server started by mistake hears "port in use", the real
        # problem, rather than "database locked".
        try:
            sock = listen_socket(host, port)
        except OSError as exc:
            typer.echo(f"error: {listen_error(host, port, exc)}", err=True)
            raise typer.Exit(2) from None
        try:
            try:
                web_app = create_app(db, takeover_seconds=takeover, ai_workers=ai_workers or None,
                                     create_limit=CREATE_LIMIT if create_limit is None else create_limit,
                                     allow_ai_games=allow_ai_games, allowed_origins=tuple(allow_origin),
                                     **caps)
            except StoreLocked as exc:  # another server has this database: its message says what to do
                typer.echo(f"error: {exc}", err=True)
                raise typer.Exit(2) from None
            except Exception as exc:  # a bad URL or unreachable database: say so plainly
                typer.echo(f"error: cannot open the database {db!r}: {exc}", err=True)
                raise typer.Exit(2) from None
            url = url_for(host, sock.getsockname()[1])
            typer.echo(f"starcom server: open {url} in your browser (games stored in {db}; Ctrl+C stops)")
            if not no_browser and not os.environ.get("CI"):
                threading.Timer(1.0, lambda: webbrowser.open(url)).start()
            config = uvicorn.Config(web_app, log_level="warning", ws_max_size=1 << 20)
            try:
                uvicorn.Server(config).run(sockets=[sock])
            except KeyboardInterrupt:  # Ctrl+C during start-up or shut-down: already stopping
                pass
        finally:
            sock.close()

    @app.command(epilog=LOADTEST_EXAMPLES)
    def loadtest(
        games: int | None = typer.Option(None, "--games", "-n",
                                         help="Hot-seat games (default 100; with --memory 1000). Allowed: 1 to "
                                              "1000 (--memory: 20 to 10000)."),
        ai_games: int | None = typer.Option(None, help="vs-AI games played at the same time (default 20; 0 to 200)."),
        ai_level: str = typer.Option("hard", help="AI of the vs-AI games: easy, normal, hard or an agent name."),
        actions: int = typer.Option(40, help="Steps to play in each hot-seat game at most (1 to 100000)."),
        think: float | None = typer.Option(None, help="Mean seconds a player thinks before acting (default 0.5; "
                                                      "0 with --memory). Allowed: 0 to 60."),
        memory: bool = typer.Option(False, "--memory", help="Memory scenario: play short hot-seat games to the end "
                                                            "and report the server's resident memory."),
        hint_flood: bool = typer.Option(False, "--hint-flood", help="Hint-flood scenario: vs-AI games' AI decision "
                                                                    "times with nobody asking for hints, then while "
                                                                    "one seat asks for hints at the rate limit."),
        phase: float = typer.Option(20.0, help="--hint-flood: seconds of each phase (quiet, flooded; 2 to 600)."),
        flood_seats: int = typer.Option(1, help="--hint-flood: seats flooding hints, each in a hot-seat game of "
                                                "its own, all from this client (1 to 20)."),
        turn_limit: int | None = typer.Option(None, help="Turn limit of every game (default: none; 2 with "
                                                         "--memory). Allowed: 0 (none) to 1000; --memory: 1 to 1000."),
        concurrency: int = typer.Option(10, help="--memory: games played at once (1 to 200)."),
        url: str | None = typer.Option(None, help="Load this running server instead of starting one (not with "
                                                  "--memory, which needs the server's process)."),
        ai_workers: int | None = typer.Option(None, help="AI worker processes of the server the loadtest starts "
                                                         "(its --ai-workers; 1 to 64)."),
        grace: float = typer.Option(30.0, help="Seconds an AI seat to move at the end may take to move before its "
                                               "decision counts as lost (1 to 600)."),
        timeout: float | None = typer.Option(None, help="Stop after this many seconds of play (default 900; 3600 "
                                                        "with --memory)."),
        seed: int = typer.Option(0, help="Seed of the games and of the players' choices."),
        as_json: bool = typer.Option(False, "--json", help="Print every figure as one JSON object on the last line."),
    ) -> None:
        """Load-test the game server: latency under many games, or its memory.

        By default: hot-seat games played over WebSockets while vs-AI games think. With
        --memory: many short games, then the server's resident memory after 10 games and after
        all. With --hint-flood: another game's AI decision times, quiet and while one seat floods
        hints. Starts its own server (a child process on a free port over a temporary SQLite file)
        unless --url names one. Reports the round trip of human actions (action sent -> the state
        showing the new step received by the sender), actions per second, errors, AI decisions
        seen and lost, and the human actions sent while every AI worker was busy. The exit code
        is 1 after errors, a timeout or a lost AI decision (--hint-flood: no AI decision in a
        phase).
        """
        import asyncio
        import json

        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        from ..server.loadtest import LoadError, ServerProcess, run_hint_flood, run_loadtest, run_memory

        def need(ok: bool, option: str, problem: str) -> None:
            if not ok:
                raise typer.BadParameter(problem, param_hint=option)

        def within(value: float, low: float, high: float, option: str, unit: str = "", note: str = "") -> None:
            need(low <= value <= high, option, f"{value} is outside the allowed range {low} to {high}{unit}{note}")

        need(not (memory and hint_flood), "--hint-flood", "choose one scenario: --memory or --hint-flood")
        if hint_flood:
            need(games is None and not ai_games, "--games", "the hint-flood scenario plays its own games; leave "
                                                            "--games and --ai-games out")
            within(phase, 2, 600, "--phase", " seconds")
            within(flood_seats, 1, 20, "--flood-seats")
        if memory:
            games = 1000 if games is None else games
            within(games, 20, 10000, "--games", note=" with --memory (the first 10 games are the baseline)")
            need(not ai_games, "--ai-games", "the memory scenario plays hot-seat games only; leave --ai-games out")
            turn_limit = 2 if turn_limit is None else turn_limit
            within(turn_limit, 1, 1000, "--turn-limit", note=" with --memory (its games must end)")
            need(url is None, "--url", "the memory scenario reads the memory of the server process it starts "
                                       "itself, so it cannot load a server given by --url")
        else:
            games = 100 if games is None else games
            within(games, 1, 1000, "--games")
            turn_limit = 0 if turn_limit is None else turn_limit
            within(turn_limit, 0, 1000, "--turn-limit", note=" (0: no turn limit)")
        ai_games = 20 if ai_games is None else ai_games
        within(ai_games, 0, 200, "--ai-games")
        levels = ai_names()  # the AIs of the server's own game, which the load test's games are
        ai_level = ai_level.strip().lower()
        need(ai_level in levels, "--ai-level", f"unknown AI {ai_level!r}; use one of {', '.join(levels)}")
        within(actions, 1, 100000, "--actions")
        think = (0.0 if memory else 0.5) if think is None else think
        within(think, 0, 60, "--think", " seconds")
        within(concurrency, 1, 200, "--concurrency")
        if ai_workers is not None:
            within(ai_workers, 1, 64, "--ai-workers")
            need(url is None, "--ai-workers", "sets up the server the load test starts; it cannot change a "
                                              "server given by --url")
        within(grace, 1, 600, "--grace", " seconds")
        timeout = (3600.0 if memory else 900.0) if timeout is None else timeout
        need(0 < timeout <= 86400, "--timeout", f"{timeout} is outside the allowed range: above 0, at most 86400 "
                                                "seconds")
        if url is not None:
            need(url.startswith(("http://", "https://")), "--url", f"{url!r} is not an http:// or https:// address")

        err = Console(stderr=True)
        server: ServerProcess | None = None
        try:
            if url is None:
                if not as_json:
                    err.print("Starting a server for the load test ...")
                server = ServerProcess(ai_workers=ai_workers).start()
                target = server.url
                if not as_json:
                    err.print(f"Server pid {server.pid} at {target} {' '.join(server.options)}".rstrip())
            else:
                target = url
            with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), console=err, transient=True, disable=as_json) as bar:
                task = bar.add_task("games finished" if memory else "phases done" if hint_flood
                                    else "hot-seat steps played", total=None)

                def progress(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                if hint_flood:
                    result = asyncio.run(run_hint_flood(target, phase, ai_level, seed=seed, progress=progress,
                                                        seats=flood_seats))
                elif memory:
                    assert server is not None
                    result = asyncio.run(run_memory(target, server.rss_mb, games, turn_limit, concurrency, think,
                                                    timeout, seed, progress))
                else:
                    result = asyncio.run(run_loadtest(target, games, actions, think, timeout, seed, ai_games,
                                                      ai_level, grace, turn_limit or None, progress))
        except LoadError as exc:
            note = ""
            if server is not None and "--create-limit" not in server.options and "HTTP 429" in str(exc):
                note = "\nThe server the load test started has no --create-limit option, so its limit stays."
            typer.echo(f"error: {exc}{note}", err=True)
            raise typer.Exit(2) from None
        except OSError as exc:
            typer.echo(f"error: cannot reach the server at {server.url if server else url}: {exc}", err=True)
            raise typer.Exit(2) from None
        finally:
            if server is not None:
                server.stop()
        if server is not None:
            result.server_pid, result.server_options = server.pid, server.options
        if as_json:
            typer.echo(json.dumps(result.figures()))
        else:
            Console().print(result.table())
        if result.failed:
            raise typer.Exit(1)
