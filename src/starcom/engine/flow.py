"""The turn machine: setup, the task queue, priority rounds, choices and the turn's phases.

The engine runs *tasks* (flat lists, the last one runs next) until one needs a decision; it then
sets ``g.step`` and waits for an action. Action handlers change the state, clear ``g.step`` when
their decision is done, and call :func:`advance` again.
"""
from __future__ import annotations

from typing import Callable

from ..cards import registry
from ..cards.catalogue import CARD_DEF, DEFS, DOMAINS, INSTANCES, SUPPLY_NAMES
from . import rng as rnglib
from .board import seat_corners
from .editions import EDITIONS
from .rules import (besieged_by, destroy, destroy_lethal, discard, drawable_decks, emit, gain,
                    place_vessel, remove_vessel, set_controller, station_effects_active,
                    system_effects_active, total_devs, under_siege)
from .state import NOBODY, Config, GameState, Site

TaskFn = Callable[[GameState, list], None]
TASKS: dict[str, TaskFn] = {}
ENGINE_CHOICES: dict[str, Callable[[GameState, dict, object], None]] = {}


def task(name: str) -> Callable[[TaskFn], TaskFn]:
    def deco(fn: TaskFn) -> TaskFn:
        TASKS[name] = fn
        return fn
    return deco


def engine_choice(kind: str):
    def deco(fn):
        ENGINE_CHOICES[kind] = fn
        return fn
    return deco


# --------------------------------------------------------------------------- setup


def new_state(cfg: Config, cls: type[GameState] = GameState) -> GameState:
    """SETUP-1..3: shuffle, deal the board, give each player a Homeworld, 3 credits, a Scout."""
    if cfg.edition not in EDITIONS:
        raise ValueError(f"unknown edition {cfg.edition!r}: choose one of {', '.join(EDITIONS)}")
    if not 2 <= cfg.players <= 4:
        raise ValueError(f"players must be 2 to 4, not {cfg.players}")
    if not 2 <= cfg.size <= 8:
        raise ValueError(f"board size must be 2 to 8 (3 to 5 recommended), not {cfg.size}")
    if cfg.turn_limit is not None and cfg.turn_limit < 1:
        raise ValueError(f"turn limit must be at least 1, not {cfg.turn_limit}")
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
    emit(g, "start", first)
    begin_turn(g)
    advance(g)
    return g


# --------------------------------------------------------------------------- machinery


def advance(g: GameState) -> None:
    """Run tasks until a decision is needed or the game is over."""
    tasks = g.tasks
    while g.step is None and not g.over:
        t = tasks[-1]
        TASKS[t[0]](g, t)
    destroy_lethal(g)


def push(g: GameState, *t: object) -> None:
    """Queue a task to run next (after the ones pushed later). A queued task always runs before
    the next decision, so any waiting step is cleared."""
    g.tasks.append(list(t))
    g.step = None


def ask(g: GameState, p: int, kind: str, options: list, **ctx: object) -> None:
    """Stop for player ``p`` to choose one of ``options``."""
    g.choice = {"player": p, "kind": kind, "options": options, **ctx}
    g.step = "choice"
    g.actor = p


def next_alive(g: GameState, p: int) -> int:
    n = g.cfg.players
    q = (p + 1) % n
    while not g.alive[q]:
        q = (q + 1) % n
    return q


def clockwise_from_active(g: GameState) -> list[int]:
    """Living players in turn order starting with the active player (RESP-1, COMBAT-3)."""
    n = g.cfg.players
    return [q % n for q in range(g.active, g.active + n) if g.alive[q % n]]


def begin_turn(g: GameState) -> None:
    """TURN-1: Ready, Command, Combat, End."""
    push(g, "end")
    push(g, "combat")
    push(g, "command")
    push(g, "ready")
    emit(g, "turn", g.turn, g.active)


# --------------------------------------------------------------------------- ready phase


def is_abandoned(g: GameState, fighter) -> bool:
    """FIGHTER-2: only fighters of its controller remain with it, in a system it does not control."""
    if g.sites[fighter.pos].owner == fighter.owner:
        return False
    return not any(v.pos == fighter.pos and v.owner == fighter.owner and v.d.size != "fighter"
                   for v in g.vessels.values())


@task("ready")
def _ready(g: GameState, t: list) -> None:
    g.tasks.pop()
    p = g.active
    g.phase = "ready"
    for v in g.vessels.values():
        if v.owner == p:
            v.fresh = False
            v.no_attack = False
    for s in g.sites:
        if p in s.interdicted_by:
            s.interdicted_by.remove(p)
    g.abandoned = ([v.id for v in g.vessels.values()
                    if v.owner == p and v.d.size == "fighter" and is_abandoned(g, v)]
                   if g.ed.abandoned_fighters_die else [])
    if g.turn == 0:  # TURN-2: only the game's very first turn skips the Ready phase
        return
    emit(g, "phase", "ready")
    income = sum(s.devs for i, s in enumerate(g.sites) if s.owner == p and not under_siege(g, i))
    gain(g, p, income)  # READY-1
    push(g, "build_window")
    push(g, "sot", 0)  # READY-3
    push(g, "draw", p)  # READY-2


def start_of_turn_sources(g: GameState, p: int) -> list[int]:
    out = [cid for cid in g.techs[p] if registry.BY_CARD[cid].start_of_turn]
    for v in g.vessels.values():
        if v.owner == p and v.d.kind == "station" and registry.BY_CARD[v.id].start_of_turn \
                and station_effects_active(g, v.pos):
            out.append(v.id)
    for pos, s in enumerate(g.sites):
        if s.owner == p and registry.BY_CARD[s.card].start_of_turn and system_effects_active(g, pos):
            out.append(s.card)
    return out


def _run_start_effect(g: GameState, t: list, cid: int) -> None:
    del t[2 + t[2:].index(cid)]  # t is ["sot", started, *pending card ids]
    registry.BY_CARD[cid].start_of_turn(g, g.active, cid)


@task("sot")
def _start_of_turn(g: GameState, t: list) -> None:
    """READY-3: start-of-turn effects in the order the player chooses."""
    if t[1] == 0:
        t[:] = ["sot", 1, *start_of_turn_sources(g, g.active)]
    pending = t[2:]
    if not pending:
        g.tasks.pop()
        return
    for cid in pending:  # effects whose order never matters resolve without asking
        if registry.BY_CARD[cid].commutes:
            _run_start_effect(g, t, cid)
            return
    if len({CARD_DEF[c].name for c in pending}) > 1:
        ask(g, g.active, "order", list(pending))
        return
    _run_start_effect(g, t, pending[0])


@engine_choice("order")
def _order_choice(g: GameState, choice: dict, cid) -> None:
    _run_start_effect(g, g.tasks[-1], cid)


# --------------------------------------------------------------------------- drawing


@task("draw")
def _draw(g: GameState, t: list) -> None:
    """DRAW-1 with the hand limit (HAND-1 / HAND-2)."""
    p = t[1]
    decks = drawable_decks(g, p)
    if not decks:
        g.tasks.pop()
        emit(g, "no_draw", p)
        return
    hand = g.hands[p]
    if len(hand) >= g.ed.hand_limit:
        options: list = (["skip"] if g.ed.may_skip_draw_at_limit else []) + list(hand)
        ask(g, p, "hand_full", options)
        return
    if len(decks) > 1:
        ask(g, p, "deck", decks)
        return
    g.tasks.pop()
    draw_from(g, p, decks[0])


def draw_from(g: GameState, p: int, deck: int) -> None:
    cid = g.decks[deck].pop()
    g.hands[p].append(cid)
    emit(g, "draw", p, deck, cid)


@engine_choice("hand_full")
@engine_choice("receive_full")
def _hand_full(g: GameState, choice: dict, value) -> None:
    """HAND-1/HAND-2: skip the draw (or decline the card) [S], or discard first; after a
    discard the draw or receive task stays queued and runs again."""
    if value in ("skip", "decline"):
        g.tasks.pop()
        if value == "skip":
            emit(g, "skip_draw", choice["player"])
    else:
        discard_from_hand(g, choice["player"], value)


@engine_choice("deck")
def _deck_choice(g: GameState, choice: dict, deck) -> None:
    g.tasks.pop()
    draw_from(g, choice["player"], deck)


def discard_from_hand(g: GameState, p: int, cid: int) -> None:
    g.hands[p].remove(cid)
    discard(g, cid)
    emit(g, "discard", p, cid)


@task("receive")
def _receive(g: GameState, t: list) -> None:
    """A card taken from elsewhere enters a hand: HAND-1 (discard first or decline) / HAND-2."""
    _, p, cid, frm = t
    if cid not in g.hands[frm]:
        g.tasks.pop()
        return
    if len(g.hands[p]) >= g.ed.hand_limit:
        options: list = (["decline"] if g.ed.may_skip_draw_at_limit else []) + list(g.hands[p])
        ask(g, p, "receive_full", options)
        return
    g.tasks.pop()
    g.hands[frm].remove(cid)
    g.hands[p].append(cid)
    emit(g, "take", p, frm, cid)


@task("ask")
def _ask_task(g: GameState, t: list) -> None:
    """A queued question from a card effect: ["ask", player, kind, ctx, *options]."""
    g.tasks.pop()
    _, p, kind, ctx, *options = t
    if options:
        ask(g, p, kind, options, ctx=ctx)


@task("build_window")
def _build_window(g: GameState, t: list) -> None:
    """A card may let the active player build ships in the Ready and End phases too: they get a
    moment to do so (build, or pass to go on)."""
    from .commands import build_actions, builds_any_phase  # late import: commands builds on flow
    if builds_any_phase(g, g.active) and build_actions(g, g.active, ships_only=True):
        g.step, g.actor = "build_window", g.active
    else:
        g.tasks.pop()


# --------------------------------------------------------------------------- command phase


@task("command")
def _command(g: GameState, t: list) -> None:
    if t[-1] != "open":
        t.append("open")
        g.phase = "command"
        emit(g, "phase", "command")
    g.step = "command"
    g.actor = g.active


# --------------------------------------------------------------------------- priority


def can_act_at_priority(g: GameState, p: int) -> bool:
    """A player with cards in hand always decides (so passing reveals nothing); a player with
    an empty hand is passed automatically when nothing else is legal for them (RULING)."""
    if g.hands[p]:
        return True
    from .actions import priority_actions  # late import: actions builds on this module
    return len(priority_actions(g, p)) > 1


def start_round(g: GameState) -> None:
    g.step = "priority"
    g.prio = g.active
    g.actor = g.active
    g.passes = 0
    settle_priority(g)


def settle_priority(g: GameState) -> None:
    """Skip players who cannot act; close the round when everyone has passed in turn."""
    alive = sum(g.alive)
    while g.passes < alive and not can_act_at_priority(g, g.prio):
        g.passes += 1
        g.prio = next_alive(g, g.prio)
    if g.passes >= alive:
        end_round(g)
    else:
        g.actor = g.prio


def end_round(g: GameState) -> None:
    """Everyone passed in turn: resolve the whole stack (RESP-1), or close the window."""
    g.step = None
    if g.stack:
        push(g, "resolve")
    else:
        g.tasks.pop()


@task("prio")
def _prio(g: GameState, t: list) -> None:
    """["prio", window]: window 0 answers a play (ends once the stack is empty); 1 is a combat
    window; 2 is the combat window after assignment, where redirects are allowed (COMBAT-5)."""
    if t[1] == 0 and not g.stack:
        g.tasks.pop()
        return
    start_round(g)


def add_to_stack(g: GameState, item: list) -> None:
    """Put a card or ability on the stack and (re)open responses (RESP-1)."""
    g.stack.append(item)
    emit(g, "stack", *item)
    if g.step == "priority":
        g.prio, g.passes = g.active, 0
        settle_priority(g)
    else:
        g.step = None
        push(g, "prio", 0)


@task("resolve")
def _resolve(g: GameState, t: list) -> None:
    """Resolve the stack last in, first out; effects may queue tasks above this one."""
    if not g.stack:
        g.tasks.pop()
        return
    item = g.stack.pop()
    from .play import resolve_item  # late import: play builds on this module
    resolve_item(g, item)


# --------------------------------------------------------------------------- end phase


@task("end")
def _end(g: GameState, t: list) -> None:
    g.tasks.pop()
    g.phase = "end"
    emit(g, "phase", "end")
    push(g, "cleanup")
    push(g, "conquest")
    push(g, "build_window")


@task("conquest")
def _conquest(g: GameState, t: list) -> None:
    """END-1: the active player's sieges take developments and conquer; then END-2 hooks."""
    g.tasks.pop()
    p = g.active
    for pos, site in enumerate(g.sites):
        if site.owner in (NOBODY, p) or not besieged_by(g, pos, p):
            continue
        ships = sum(1 for v in g.vessels.values()
                    if v.owner == p and v.pos == pos and v.d.kind == "ship" and v.d.size != "fighter")
        removed = min(ships, site.devs)
        site.devs -= removed
        emit(g, "siege", p, pos, removed)
        if site.devs == 0:
            old = site.owner
            set_controller(g, pos, p)
            site.devs = 1
            emit(g, "conquer", p, pos, old)
    for v in list(g.vessels.values()):
        if v.owner == p and v.id in g.vessels:
            hook = registry.BY_CARD[v.id].conquest
            if hook is not None:
                hook(g, v)


@task("cleanup")
def _cleanup(g: GameState, t: list) -> None:
    """END-3 cleanup, FIGHTER-2, END-4 eliminations, WIN-1/WIN-2, then the next turn."""
    g.tasks.pop()
    p = g.active
    for fid in g.abandoned:
        v = g.vessels.get(fid)
        if v is not None and v.owner == p and is_abandoned(g, v):
            destroy(g, v)
    g.abandoned = []
    heal = g.ed.damage_heals_at_end
    for v in g.vessels.values():
        v.reset_turn()
        if heal:
            v.damage = 0
    destroy_lethal(g)  # [C] damage stays while "until end of turn" hit points go
    g.stabilized = []
    g.prev_turn[p] = g.turn
    g.offers_made = 0
    for q in range(g.cfg.players):
        owner = g.sites[g.homeworld[q]].owner
        if g.alive[q] and owner != q and owner != NOBODY:
            eliminate(g, q)
    if sum(g.alive) == 1:
        finish(g, g.alive.index(True))
        return
    if sum(g.alive) == 0:
        finish(g, -1)
        return
    limit = g.cfg.turn_limit
    if limit is not None and g.turn + 1 >= limit:
        finish_by_score(g)
        return
    if g.extra_turns and g.alive[p]:
        g.extra_turns -= 1
    else:
        g.extra_turns = 0
        g.active = next_alive(g, p)
    g.turn += 1
    begin_turn(g)


def eliminate(g: GameState, q: int) -> None:
    """END-4: the player's pieces leave the board; hand and technologies are discarded."""
    g.alive[q] = False
    for s in g.sites:
        if q in s.interdicted_by:  # they will have no Ready phase to lift it
            s.interdicted_by.remove(q)
    for v in [v for v in g.vessels.values() if v.owner == q]:
        remove_vessel(g, v)
    for s in g.sites:
        if s.owner == q:
            s.owner, s.devs = NOBODY, 0
    for cid in g.hands[q] + g.techs[q]:
        discard(g, cid)
    g.hands[q], g.techs[q] = [], []
    emit(g, "eliminated", q)


def finish(g: GameState, winner: int) -> None:
    g.winner, g.over = winner, True
    g.step, g.actor = "over", NOBODY
    g.tasks.clear()
    emit(g, "game_over", winner)


def finish_by_score(g: GameState) -> None:
    """WIN-2: most developments, then most credits, else a draw."""
    living = [q for q in range(g.cfg.players) if g.alive[q]]
    best = max((total_devs(g, q), g.credits[q]) for q in living)
    top = [q for q in living if (total_devs(g, q), g.credits[q]) == best]
    finish(g, top[0] if len(top) == 1 else -1)

