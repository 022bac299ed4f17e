"""How Star Commander's settings and position read in the terminal commands' logs (``starcom
demo`` and ``replay``): the entry's ``setup_words``, ``public_settings`` and ``standings``."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards.stand_ins import Variant
from .engine import rules as R
from .engine.game import Game
from .observer import STARCOM as OBSERVER


def setup_words(config: Mapping[str, Any]) -> list[str]:
    """``2 players on 3x3, standard edition``, then, for a study game, which cards it played as
    stand-ins."""
    size = config.get("size", 3)
    words = [f"{config.get('players', 2)} players on {size}x{size}, {config.get('edition', 'standard')} edition"]
    variant = config.get("variant")
    if variant is not None:
        words.append(variant_words(Variant.from_json(variant)))
    return words


def variant_words(variant: Variant) -> str:
    """A study game's cards in a sentence: "A study game: Frigate is played as its stand-in by
    every seat but P0"."""
    where = "" if variant.catalogue_name == "built-in" else f" (catalogue {variant.catalogue_name})"
    if not variant.stand_ins:
        return f"A study game with the catalogue's own cards{where}"
    real = ", ".join(f"P{p}" for p in variant.real_for)
    return (f"A study game{where}: {', '.join(variant.stand_ins)} is played as its stand-in by every seat"
            + (f" but {real}" if real else ""))


def public_settings(game: Game, config: Mapping[str, Any]) -> dict[str, Any]:
    """The settings anyone may see (the observer's: no seed while the game runs), and a study
    game's cards, which are no secret."""
    shown = OBSERVER.config(game)
    if config.get("variant") is not None:
        shown["variant"] = config["variant"]
    return shown


def standings(game: Game) -> list[dict[str, str]]:
    """Each seat's standing: alive, developments, credits, cards in hand and vessels."""
    return [{"alive": "yes" if game.alive[p] else "no", "developments": str(R.total_devs(game, p)),
             "credits": str(game.credits[p]), "hand": str(len(game.hands[p])),
             "vessels": str(sum(1 for v in game.vessels.values() if v.owner == p))}
            for p in range(game.cfg.players)]


__all__ = ["public_settings", "setup_words", "standings", "variant_words"]
