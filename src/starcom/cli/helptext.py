"""Help text and options shared by the command modules."""
from __future__ import annotations

import inspect
from typing import Any, Optional

import typer


def reflow(text: Optional[str]) -> Optional[str]:
    """``text`` (a docstring) with each paragraph joined into one line, so that the help screen
    wraps it to the terminal's width instead of breaking it where the source lines break."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in par.splitlines()) for par in paragraphs)


# The options of the commands that play many games (study, selfplay, arena): where they run.
def workers_option() -> Any:
    return typer.Option(1, "--workers", help="Games played at once: processes, or Ray tasks (the results do not "
                                             "depend on it).")


def backend_option() -> Any:
    return typer.Option("local", "--backend", help="Where games are played: local (this machine) or ray (a Ray "
                                                   "cluster, docs/cluster.md).")


def address_option() -> Any:
    return typer.Option(None, "--address", help="The Ray cluster's address (--backend ray); without it Ray "
                                                "starts on this machine.")
