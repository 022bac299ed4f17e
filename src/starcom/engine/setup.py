"""Setting up a new game (SETUP-1..3, BOARD-1..4)."""
from __future__ import annotations

from typing import TypeVar

from ..cards.catalogue import CARD_DEF, DEFS, DOMAINS, INSTANCES, SUPPLY_NAMES, CardKind
from . import events as E
from . import rng as rnglib
from .board import MAX_SIZE, MIN_SIZE, seat_corners
from .editions import EDITIONS
from .flow import begin_turn
from .kernel import advance
from .rules import emit, place_vessel
from .ruleset import Ruleset
from .state import Config, GameState, Site


def check_config(cfg: Config) -> None:
    """Raise ValueError naming the first setting a game cannot be created with."""
    if cfg.edition not in EDITIONS:
        raise ValueError(f"unknown edition {cfg.edition!r}: choose one of {', '.join(EDITIONS)}")
    if not 2 <= cfg.players <= 4:
        raise ValueError(f"players must be 2 to 4, not {cfg.players}")
    if not MIN_SIZE <= cfg.size <= MAX_SIZE:
        raise ValueError(f"board size must be {MIN_SIZE} to {MAX_SIZE} (3 to 5 recommended), not {cfg.size}")
    if cfg.turn_limit is not None and cfg.turn_limit < 1:
        raise ValueError(f"turn limit must be at least 1, not {cfg.turn_limit}")
    if cfg.action_limit is not None and cfg.action_limit < 1:
        raise ValueError(f"action limit must be at least 1, not {cfg.action_limit}")


S = TypeVar("S", bound=GameState)
_BUILT_IN = tuple(CARD_DEF)


def new_state(cfg: Config, cls: type[S], rules: Ruleset) -> S:
    """SETUP-1..3 with the cards of ``rules``: shuffle, deal the board, give each player a
    Homeworld, 3 credits, a Scout."""
    check_config(cfg)
    if rules.cards != _BUILT_IN:  # element by element, each the same object: quick
        # The rules still read a card's printed facts from the catalogue module by instance id,
        # so a ruleset over other cards would be played with the wrong ones: refused instead.
        raise ValueError(f"ruleset {rules.name!r} holds cards other than the built-in catalogue's; "
                         "only effects may differ for now")
    g = cls(cfg, rules)
    n = cfg.players
    for dom in DOMAINS:
        deck = [cid for cid, d in enumerate(CARD_DEF) if d.domain == dom and d.in_domain_deck]
        g.rng = rnglib.shuffle(g.rng, deck)
        g.decks.append(deck)
    g.discards = [[] for _ in DOMAINS]
    g.sysdeck = [cid for cid, d in enumerate(CARD_DEF) if d.kind is CardKind.SYSTEM and not d.filler]
    g.rng = rnglib.shuffle(g.rng, g.sysdeck)
    g.supply = {name: list(INSTANCES[name]) for name in SUPPLY_NAMES}
    corners = seat_corners(cfg.size, n)
    homeworlds = [cid for cid, d in enumerate(CARD_DEF) if d.kind is CardKind.HOMEWORLD]
    fillers = [cid for cid, d in enumerate(CARD_DEF) if d.filler]
    for pos in range(cfg.size * cfg.size):
        if pos in corners:
            g.sites.append(Site(homeworlds[corners.index(pos)], True, corners.index(pos), 1))
        elif g.sysdeck:
            g.sites.append(Site(g.sysdeck.pop()))
        else:  # RULING (BOARD-1): boards beyond the deck are filled with Deep Space
            g.sites.append(Site(fillers.pop(), True))
    g.homeworld = list(corners)
    scout = next(d.name for d in DEFS if d.starting_ship)
    for p in range(n):
        v = place_vessel(g, g.supply[scout].pop(), p, corners[p])
        v.fresh = v.built = False
    g.credits = [3] * n
    g.rng, first = rnglib.below(g.rng, n)
    g.active = first
    emit(g, E.Start("start", first))
    begin_turn(g)
    advance(g)
    return g
