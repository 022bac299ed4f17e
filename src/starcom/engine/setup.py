"""Setting up a new game (SETUP-1..3, BOARD-1..4)."""
from __future__ import annotations

from ..cards.catalogue import CARD_DEF, DEFS, DOMAINS, INSTANCES, SUPPLY_NAMES
from . import rng as rnglib
from .board import seat_corners
from .editions import EDITIONS
from .flow import advance, begin_turn
from .rules import emit, place_vessel
from .state import NOBODY, Config, GameState, Site


def check_config(cfg: Config) -> None:
    """Raise ValueError naming the first setting a game cannot be created with."""
    if cfg.edition not in EDITIONS:
        raise ValueError(f"unknown edition {cfg.edition!r}: choose one of {', '.join(EDITIONS)}")
    if not 2 <= cfg.players <= 4:
        raise ValueError(f"players must be 2 to 4, not {cfg.players}")
    if not 2 <= cfg.size <= 8:
        raise ValueError(f"board size must be 2 to 8 (3 to 5 recommended), not {cfg.size}")
    if cfg.turn_limit is not None and cfg.turn_limit < 1:
        raise ValueError(f"turn limit must be at least 1, not {cfg.turn_limit}")
    if cfg.action_limit is not None and cfg.action_limit < 1:
        raise ValueError(f"action limit must be at least 1, not {cfg.action_limit}")


def new_state(cfg: Config, cls: type[GameState] = GameState) -> GameState:
    """SETUP-1..3: shuffle, deal the board, give each player a Homeworld, 3 credits, a Scout."""
    check_config(cfg)
    g = cls.__new__(cls)
    g.cfg, g.ed = cfg, EDITIONS[cfg.edition]
    g.rng = (cfg.seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & ((1 << 64) - 1)
    g.events = []
    n = cfg.players
    g.decks = []
    for dom in DOMAINS:
        deck = [cid for cid, d in enumerate(CARD_DEF) if d.domain == dom and d.in_domain_deck]
        g.rng = rnglib.shuffle(g.rng, deck)
        g.decks.append(deck)
    g.discards = [[], [], []]
    g.sysdeck = [cid for cid, d in enumerate(CARD_DEF) if d.kind == "system" and not d.filler]
    g.rng = rnglib.shuffle(g.rng, g.sysdeck)
    g.supply = {name: list(INSTANCES[name]) for name in SUPPLY_NAMES}
    corners = seat_corners(cfg.size, n)
    homeworlds = [cid for cid, d in enumerate(CARD_DEF) if d.kind == "homeworld"]
    fillers = [cid for cid, d in enumerate(CARD_DEF) if d.filler]
    g.sites = []
    for pos in range(cfg.size * cfg.size):
        if pos in corners:
            g.sites.append(Site(homeworlds[corners.index(pos)], True, corners.index(pos), 1))
        elif g.sysdeck:
            g.sites.append(Site(g.sysdeck.pop()))
        else:  # RULING (BOARD-1): boards beyond the deck are filled with Deep Space
            g.sites.append(Site(fillers.pop(), True))
    g.homeworld = list(corners)
    g.vessels = {}
    scout = next(d.name for d in DEFS if d.starting_ship)
    for p in range(n):
        v = place_vessel(g, g.supply[scout].pop(), p, corners[p])
        v.fresh = v.built = False
    g.credits = [3] * n
    g.hands = [[] for _ in range(n)]
    g.techs = [[] for _ in range(n)]
    g.alive = [True] * n
    g.prev_turn = [-1] * n
    g.rng, first = rnglib.below(g.rng, n)
    g.turn, g.active = 0, first
    g.tasks, g.stack, g.assigned = [], [], []
    g.fought, g.stabilized, g.abandoned = [], [], []
    g.step, g.prio, g.passes, g.actor = None, NOBODY, 0, NOBODY
    g.choice, g.trade = None, None
    g.combat_pos, g.extra_turns, g.offers_made = -1, 0, 0
    g.winner, g.over, g.phase = None, False, "ready"
    g.actions_played = 0
    emit(g, "start", first)
    begin_turn(g)
    advance(g)
    return g
