"""Help text shared by the command modules."""
from __future__ import annotations

import inspect
from typing import Optional


def reflow(text: Optional[str]) -> Optional[str]:
    """``text`` (a docstring) with each paragraph joined into one line, so that the help screen
    wraps it to the terminal's width instead of breaking it where the source lines break."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in par.splitlines()) for par in paragraphs)
