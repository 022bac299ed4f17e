"""Setting up a new game (SETUP-1..3, BOARD-1..4)."""
from __future__ import annotations

from typing import TypeVar

from ..cards.catalogue import DOMAINS, CardKind
from . import events as E
from ...kit import rng as rnglib
from .board import MAX_SIZE, MIN_SIZE, seat_corners
from .editions import EDITIONS
from .flow import begin_turn
from .kernel import advance
from .rules import emit, place_vessel, version_for
from .ruleset import Ruleset
from .state import NOBODY, Config, GameState, Site


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


def new_state(cfg: Config, cls: type[S], rules: Ruleset) -> S:
    """SETUP-1..3 with the cards of ``rules``: shuffle, deal the board, give each player a
    Homeworld, 3 credits, a Scout. ValueError names a setting, or a lack in the catalogue, that
    makes the game impossible."""
    check_config(cfg)
    cards, catalogue = rules.cards, rules.catalogue
    n = cfg.players
    dealt = [cid for cid, d in enumerate(cards) if not d.stand_in_for]  # stand-ins come by swaps
    homeworlds = [cid for cid in dealt if cards[cid].kind is CardKind.HOMEWORLD]
    fillers = [cid for cid in dealt if cards[cid].filler]
    systems = [cid for cid in dealt if cards[cid].kind is CardKind.SYSTEM and not cards[cid].filler]
    starting = [d.name for d in catalogue.defs if d.starting_ship]
    short = (f"{n} Homeworlds" if len(homeworlds) < n else
             f"{cfg.size * cfg.size - n} systems" if len(systems) + len(fillers) < cfg.size * cfg.size - n else
             "a starting ship for every player" if not starting or len(catalogue.ids[starting[0]]) < n else None)
    if short:
        raise ValueError(f"catalogue {catalogue.name!r} lacks {short} for this game")
    g = cls(cfg, rules)
    for dom in DOMAINS:
        deck = [cid for cid in dealt if cards[cid].domain == dom and cards[cid].in_domain_deck]
        g.rng = rnglib.shuffle(g.rng, deck)
        g.decks.append(deck)
    g.discards = [[] for _ in DOMAINS]
    g.sysdeck = systems
    g.rng = rnglib.shuffle(g.rng, g.sysdeck)
    g.supply = {name: list(catalogue.ids[name]) for name in catalogue.supply_names}
    corners = seat_corners(cfg.size, n)
    for pos in range(cfg.size * cfg.size):
        if pos in corners:
            hw = homeworlds[corners.index(pos)]
            g.sites.append(Site(hw, cards[hw], True, corners.index(pos), 1))
        elif g.sysdeck:
            cid = version_for(g, g.sysdeck.pop(), NOBODY)
            g.sites.append(Site(cid, cards[cid]))
        else:  # RULING (BOARD-1): boards beyond the deck are filled with Deep Space
            cid = fillers.pop()
            g.sites.append(Site(cid, cards[cid], True))
    g.homeworld = list(corners)
    scout = starting[0]
    for p in range(n):
        v = place_vessel(g, version_for(g, g.supply[scout].pop(), p), p, corners[p])
        v.fresh = v.built = False
    g.credits = [3] * n
    g.rng, first = rnglib.below(g.rng, n)
    g.active = first
    emit(g, E.Start("start", first))
    begin_turn(g)
    advance(g)
    return g
