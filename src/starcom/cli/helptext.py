"""Help text and options shared by the command modules, and the ``--game`` option: the games
it names come from the registry (:mod:`starcom.games`), so no command names one itself."""
from __future__ import annotations

import inspect
import os
import re
import textwrap
from typing import Any, Optional

import typer

from ..games import GameEntry, default_game, get, list_games


def reflow(text: Optional[str]) -> Optional[str]:
    """``text`` (a docstring) with each paragraph joined into one line, so that the help screen
    wraps it to the terminal's width instead of breaking it where the source lines break."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in par.splitlines()) for par in paragraphs)


# The widest line of text a help screen shows on an 80-column terminal: Rich keeps a column of
# margin on each side, and drops a line's own indentation.
HELP_WIDTH = 78
_TOKEN = re.compile(r'"[^"]*"\S*|\S+')  # a word of a command line, a quoted one whole


def _command_lines(command: str, width: int) -> list[str]:
    """A command line too long for ``width``: cut between its words (never inside quotes, nor
    between an option and its value), each part but the last ending in the shell's line
    continuation, " \\"."""
    words: list[str] = []
    for token in _TOKEN.findall(command):  # an option and its value stay together
        if words and words[-1].startswith("-") and " " not in words[-1] and not token.startswith("-"):
            words[-1] += " " + token
        else:
            words.append(token)
    out: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width - 2:
            out.append(line + " \\")
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    return [*out, line]


def fit_examples(epilog: Optional[str], width: int = HELP_WIDTH) -> Optional[str]:
    """An epilog of examples (``  starcom ...  # what it does``, a line each) that a terminal of
    ``width`` + 2 columns shows without breaking a line in the middle. When a line with a
    comment is too long, every comment of the epilog goes on a line of its own above its command
    (so the examples read alike); a command still too long is cut between its words with the
    shell's line continuation. An epilog whose lines all fit is left as it is."""
    if not epilog:
        return epilog
    lines = epilog.split("\n")
    if all(len(line.strip()) <= width for line in lines):
        return epilog
    split_all = any(len(line.strip()) > width and " # " in line for line in lines)
    out: list[str] = []
    for line in lines:
        text = line.strip()
        indent = line[:len(line) - len(line.lstrip())]
        command, sep, comment = text.partition(" # ")
        if not sep or not (split_all and text.startswith("starcom")):
            if len(text) <= width:
                out.append(line)
                continue
            command, comment = text, ""
        if comment.strip():
            out += [indent + part for part in textwrap.wrap(comment.strip(), width - 2,
                                                           initial_indent="# ", subsequent_indent="# ")]
        out += [indent + part for part in _command_lines(command.rstrip(), width)]
    return "\n".join(out)


# The options of the commands that play many games (study, selfplay, arena): where they run.
def default_workers() -> int:
    """The processors this process may use (at least 1): games played at once by default."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def workers_option(all_processors: bool = False) -> Any:
    """``--workers``: 1 by default, or with ``all_processors`` every processor this machine gives
    (for the long runs of the balance lab, whose results do not depend on it)."""
    if not all_processors:
        return typer.Option(1, "--workers", help="Games played at once: processes, or Ray tasks (the results do "
                                                 "not depend on it).")
    return typer.Option(default_workers(), "--workers", show_default=False,
                        help=f"Games played at once: processes, or Ray tasks (the results do not depend on "
                             f"it; default: this machine's processors, {default_workers()}).")


def backend_option() -> Any:
    return typer.Option("local", "--backend", help="Where games are played: local (this machine) or ray (a Ray "
                                                   "cluster, docs/cluster.md).")


def address_option() -> Any:
    return typer.Option(None, "--address", help="The Ray cluster's address (--backend ray); without it Ray "
                                                "starts on this machine.")


# --------------------------------------------------------------------------- --game


def game_choices() -> str:
    """The installed games for a help text: ``name (Title)``, comma-separated."""
    return ", ".join(f"{name} ({get(name).title})" for name in list_games()) or "none is installed"


def _default_name() -> str:
    try:
        return default_game()
    except ValueError:
        return "none"


def game_option(what: str = "The game") -> Any:
    """``--game NAME``: None when not given, which :func:`game_entry` reads as the default game."""
    return typer.Option(None, "--game", help=f"{what}: {game_choices()} (default: {_default_name()}).",
                        show_default=False)


def game_entry(name: Optional[str]) -> GameEntry[Any, Any]:
    """The entry of the game ``--game`` names (None: the default game); BadParameter lists the
    installed games."""
    try:
        return get(name if name is not None else default_game())
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--game") from None


def game_example(line: str) -> str:
    """An example line of an epilog showing ``--game``, made with an installed game: the first
    that is not the default (the default when it is the only one). ``line`` is formatted with
    ``game`` (its name), ``title`` and ``edition`` (`` --edition E`` with its last edition, ""
    without editions); "" when no game is installed."""
    names = list_games()
    if not names:
        return ""
    default = _default_name()
    entry = get(next((n for n in names if n != default), default))
    edition = f" --edition {entry.rules.editions[-1]}" if entry.rules.editions else ""
    return "\n" + line.format(game=entry.name, title=entry.title, edition=edition)
