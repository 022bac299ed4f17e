"""Each game's own files for the browser: the table drawing the game and replay pages load, and
its own pages (How to play, the card glossary) with what they load.

A game's entry names them (``serving.web``, a :class:`~starcom.games.WebAssets`, and its
``help_page`` and ``cards_page`` among those files). The server serves them under
:data:`GAME_STATIC` ``/<game>/`` (:func:`asset_file`), the pages at ``/help/<game>`` and
``/cards/<game>`` (:func:`page_file`), and lists the table's URLs with the game's settings
(:func:`page_assets`, part of ``GET /api/settings``), where a page reads what to load when it
first meets a game. No page names a game's files itself, so a game
installed from another package brings its own table without a change to starcom.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

if TYPE_CHECKING:  # the entry is handed in: this module needs no game and no registry at run time
    from ..games import GameEntry

GAME_STATIC = "/static/games"  # the URL prefix of every game's own files


def page_assets(entry: GameEntry[Any, Any]) -> dict[str, Any]:
    """What a page needs to draw ``entry``'s games: the URLs of its scripts and of its styles,
    each in load order (empty without ``serving.web``), and the line the lobby shows under its
    title."""
    web = entry.serving.web
    base = f"{GAME_STATIC}/{quote(entry.name, safe='')}"
    return {"scripts": [f"{base}/{quote(name)}" for name in web.scripts] if web is not None else [],
            "styles": [f"{base}/{quote(name)}" for name in web.styles] if web is not None else [],
            "tagline": entry.words.tagline}


def asset_file(entry: GameEntry[Any, Any], path: str) -> Path:
    """The file ``path`` (relative, ``/``-separated) among the browser files of the game
    ``entry``. ValueError says why there is none: a game without browser files, a path that
    leaves their directory or names a hidden file, or no such file."""
    web, game = entry.serving.web, entry.name
    if web is None:
        raise ValueError(f"{game!r} has no browser files")
    root = web.directory.resolve()
    parts = path.split("/")
    if not path or any(not part or part.startswith(".") for part in parts):
        raise ValueError(f"no file {path[:80]!r} among the browser files of {game!r}")
    found = root.joinpath(*parts).resolve()
    if not found.is_relative_to(root) or not found.is_file():
        raise ValueError(f"no file {path[:80]!r} among the browser files of {game!r}")
    return found


PAGES = ("help", "cards")  # a game's own pages: How to play and the card glossary


def page_file(entry: GameEntry[Any, Any], which: str) -> Path | None:
    """The file of ``entry``'s page ``which`` (one of :data:`PAGES`: its ``serving.help_page``
    or ``serving.cards_page``, a file among its browser files), or None when the game names no
    such page or the file is not there."""
    serving = entry.serving
    name = serving.help_page if which == "help" else serving.cards_page if which == "cards" else None
    if name is None or serving.web is None:
        return None
    try:
        return asset_file(entry, name)
    except ValueError:
        return None


__all__ = ["GAME_STATIC", "PAGES", "asset_file", "page_assets", "page_file"]
