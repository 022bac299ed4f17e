"""Command-phase actions: jump, build, develop, scrap, repair, trade with the bank, play cards,
use abilities, end the phase (MOVE, EXPLORE, BUILD, DEV, SCRAP, REPAIR, TRADE-1/2, PLAY)."""
from __future__ import annotations

from typing import Final

from ..cards.catalogue import CardDef
from . import events as E
from .board import neighbours, within_two
from . import tasks as T
from .lasting import HAS_LONG_JUMP, HAS_NO_JUMP, jump_forbidden, long_jump
from .flow import discard_from_hand
from .kernel import push, task
from .play import ability_sources, ability_targets, play_targets
from .rules import (add_development, build, build_banned, can_enter, contested, drawable_decks, emit,
                    enter, explore_options, fighter_count, gain, max_dev, must_explore, remove_vessel,
                    ship_count_for_cap, speed, station_banned, station_effects_active,
                    system_bonus_cards, system_effects_active, total_devs, vessels_by_pos)
from .state import NOBODY, ActionTuple, GameState, Vessel

# --------------------------------------------------------------------------- jump


def jump_destinations(g: GameState, pos: int) -> tuple[int, ...]:
    size = g.cfg.size
    return within_two(size)[pos] if g.lasting_kinds & HAS_LONG_JUMP and long_jump(g, pos) else neighbours(size)[pos]


def carriable(g: GameState, v: Vessel) -> list[Vessel]:
    """MOVE-3: fighters of ``v``'s controller beside it, least damaged first (a fighter jumps
    only if it has been yours since the start of the turn, MOVE-1)."""
    if not v.d.carry:
        return []
    fighters = [f for f in g.vessels.values()
                if f.owner == v.owner and f.pos == v.pos and f.d.is_fighter and not f.fresh]
    fighters.sort(key=lambda f: (f.damage, f.id))
    return fighters[: v.d.carry]


def _ship_reason(g: GameState, p: int, v: Vessel | None, systems: list[int] | None = None) -> str | None:
    """MOVE-1 for the ship itself: yours, here since your turn began, jumps left, not held.
    ``systems``: :func:`rules.system_bonus_cards` of ``p`` for "speed", if known."""
    if v is None or v.owner != p or not v.d.is_ship:
        return "MOVE-1: jump with a ship you control"
    if v.fresh and not (v.d.jump_when_built and v.built):
        return "MOVE-1: this ship has not been yours since the start of your turn (BUILD-7)"
    most = speed(g, v, systems)
    if v.jumps >= most:
        return f"MOVE-1: this ship has used all {most} of its jumps this turn"
    if g.lasting_kinds & HAS_NO_JUMP and jump_forbidden(g, v.pos):
        return "MOVE-1: ships in this system cannot jump (interdicted)"
    return None


def _dest_reason(g: GameState, p: int, v: Vessel, dest: int) -> str | None:
    """MOVE-1, MOVE-4, MOVE-5 for one destination."""
    if dest not in jump_destinations(g, v.pos):
        return "MOVE-1: the destination is not adjacent"
    return _entry_reason(g, p, v, dest)


def _entry_reason(g: GameState, p: int, v: Vessel, dest: int) -> str | None:
    """MOVE-4, MOVE-5 for a destination within ``v``'s reach (:func:`jump_destinations`)."""
    if not can_enter(g, v, dest):
        return "MOVE-5: this ship cannot enter that system"
    owner = g.sites[v.pos].owner
    if g.ed.no_jump_between_same_opponent and owner != NOBODY and owner != p \
            and g.sites[dest].owner == owner:
        return "MOVE-4: no jumping between two systems of the same opponent"
    return None


def check_jump(g: GameState, p: int, a: ActionTuple) -> str | None:
    if len(a) != 5:
        return "jump takes a ship, a destination, an explore flag and a number of fighters to carry"
    _, vid, dest, explore_flag, carry = a
    v = g.vessels.get(vid)
    reason = _ship_reason(g, p, v)
    if reason is None:
        assert v is not None  # _ship_reason refuses a missing vessel
        reason = _dest_reason(g, p, v, dest)
    if reason:
        return reason
    assert v is not None
    if explore_flag not in explore_options(g, dest):
        return "EXPLORE-1: exploring is mandatory in this edition" if g.ed.explore_mandatory \
            else "EXPLORE-1: explore flag must be 0 or 1 (face-down systems only)"
    if not isinstance(carry, int) or not 0 <= carry <= len(carriable(g, v)):
        return "MOVE-3: a Carrier takes up to five of your fighters from its system; others carry none"
    return None


def do_jump(g: GameState, p: int, a: ActionTuple) -> None:
    _, vid, dest, explore_flag, carry = a
    v = g.vessels[vid]
    fighters = carriable(g, v)[:carry]
    if station_effects_active(g, v.pos):
        for s in list(g.vessels.values()):
            if s.pos == v.pos and s.owner == p and s.d.is_station:
                hook = g.rules.by_card[s.id].on_jump_from
                if hook is not None:
                    hook(g, s.id, v)
    v.jumps += 1
    enter(g, v, dest, must_explore(g, dest, explore_flag))
    for f in fighters:
        enter(g, f, dest, False)


_CARRY_NONE: Final = range(1)  # the carry counts of a ship that carries nothing (most ships)


def jump_actions(g: GameState, p: int) -> list[ActionTuple]:
    out: list[ActionTuple] = []
    systems = system_bonus_cards(g, p, "speed")  # the same for each of p's ships: found once
    for v in g.vessels.values():
        if v.owner != p or not v.d.is_ship or _ship_reason(g, p, v, systems) is not None:
            continue
        vid, carry = v.id, range(len(carriable(g, v)) + 1) if v.d.carry else _CARRY_NONE
        for dest in jump_destinations(g, v.pos):
            if _entry_reason(g, p, v, dest) is None:
                for e in explore_options(g, dest):  # loops: mostly one action each, cheaper than a comprehension
                    for c in carry:
                        out.append(("jump", vid, dest, e, c))
    return out


# --------------------------------------------------------------------------- build


def builds_any_phase(g: GameState, p: int) -> bool:
    """A card lets ``p`` build ships outside the Command phase of their own turn."""
    by_card = g.rules.by_card
    for pos, s in enumerate(g.sites):  # a loop, not any(): asked at every priority round
        if s.owner == p and by_card[s.card].build_any_phase and system_effects_active(g, pos):
            return True
    return False


def ship_yards(g: GameState, p: int, pos: int, here: list[Vessel] | None = None) -> tuple[bool, bool]:
    """BUILD-3: may ``p`` build (ships, fighters) at ``pos``? ``here``: the vessels there, if
    known (:func:`rules.vessels_by_pos`)."""
    site = g.sites[pos]
    if site.owner != p:
        return False, False
    if site.face_up and site.d.builds_ships:
        return True, True
    by_card = g.rules.by_card
    stations = False
    ships_here = False  # a station here lets p build ships (loops, not any(): asked per system and decision)
    for v in g.vessels.values() if here is None else here:
        if v.owner == p and v.pos == pos and v.d.is_station:
            stations = True
            ships_here = ships_here or by_card[v.id].build_ships_here
    if not stations or not station_effects_active(g, pos, here):
        return False, False
    if ships_here:
        return True, True
    for c in g.techs[p]:
        if by_card[c].build_fighters_near_station:
            return False, True
    return False, False


# What _site_bans gives for a kind it was not asked about: a refusal, so that a reading it was
# not meant for can never let a build through.
_UNASKED: Final = "BUILD-1: (not computed for this kind of card)"

SiteBans = tuple[str | None, str | None, str | None]


def _site_bans(g: GameState, p: int, pos: int, caps: tuple[int, int, int], stations: bool = True,
               ships: bool = True, here: list[Vessel] | None = None) -> SiteBans:
    """Why no station, no ship other than a fighter, and no fighter of ``p`` may be built at one
    system (BUILD-2..6), each None if it may: the answer depends on the card only through those
    three kinds, so it is worked out once per system for every affordable card, and only for the
    kinds asked (``stations``, ``ships``): most of the time nothing affordable is a station, and
    the station checks scan every vessel. ``caps``: :func:`_caps`; ``here``: the vessels at
    ``pos``, if known. (A tuple, not an object: asked at every Command decision.)"""
    station = station_banned(g, p, pos, here) if stations else _UNASKED
    if not ships:
        return station, _UNASKED, _UNASKED
    no_yard = "BUILD-3: ships are built in your Homeworld, a Capital System you control, or where a card allows"
    yard, fighter_yard = ship_yards(g, p, pos, here)
    banned = build_banned(g, p, pos, True, here) if fighter_yard else None
    ship = banned if yard else no_yard
    fighter = banned if fighter_yard else no_yard
    n_ships, n_fighters, devs = caps
    if g.ed.ship_cap and n_ships >= devs:
        cap = "BUILD-4: you control as many ships as you have developments"
        ship, fighter = ship or cap, fighter or cap
    if fighter is None and g.ed.fighter_caps:
        if n_fighters >= devs:
            fighter = "BUILD-6: you control as many fighters as you have developments"
        elif fighter_count(g, p, pos, here) >= g.sites[pos].devs:
            fighter = "BUILD-6: that system holds as many fighters as its development level"
    return station, ship, fighter


def _build_reason(g: GameState, p: int, d: CardDef, bans: SiteBans) -> str | None:
    """BUILD-1..6 for card ``d`` at the system whose :func:`_site_bans` are ``bans``."""
    if not g.supply[d.name]:
        return f"COMP-2: no {d.name} is left in the supply"
    if g.credits[p] < d.cost:
        return f"BUILD-1: {d.name} costs {d.cost} credits; you have {g.credits[p]}"
    station, ship, fighter = bans
    return station if d.is_station else fighter if d.is_fighter else ship


def _caps(g: GameState, p: int) -> tuple[int, int, int]:
    """(ships, fighters, developments) of ``p`` for BUILD-4 and BUILD-6; fighters are only
    counted where BUILD-6 reads them (the fighter caps of the classic edition), else 0."""
    fighters = fighter_count(g, p) if g.ed.fighter_caps else 0
    return ship_count_for_cap(g, p), fighters, total_devs(g, p)


def check_build(g: GameState, p: int, a: ActionTuple) -> str | None:
    if len(a) != 3:
        return "build takes a card index and a position"
    _, idx, pos = a
    defs = g.rules.catalogue.defs
    if not isinstance(idx, int) or not 0 <= idx < len(defs) or defs[idx] not in g.rules.catalogue.buildable:
        return "BUILD-1: only supply ships and stations can be built"
    if not isinstance(pos, int) or not 0 <= pos < len(g.sites):
        return "BUILD-1: no such system"
    d = defs[idx]
    if g.step in ("priority", "build_window") and (
            g.stack or p != g.active or not d.is_ship or not builds_any_phase(g, p)):
        return "BUILD-1: building happens in your Command phase"
    return _build_reason(g, p, d, _site_bans(g, p, pos, _caps(g, p)))


def do_build(g: GameState, p: int, a: ActionTuple) -> None:
    d = g.rules.catalogue.defs[a[1]]
    g.credits[p] -= d.cost
    emit(g, E.Build("build", p, d.name, a[2]))
    build(g, p, d.name, a[2])


def build_actions(g: GameState, p: int, ships_only: bool = False) -> list[ActionTuple]:
    affordable = [d for d in g.rules.catalogue.buildable if d.cost <= g.credits[p] and g.supply[d.name]
                  and (d.is_ship or not ships_only)]
    if not affordable:
        return []
    caps = _caps(g, p)
    if g.ed.ship_cap and caps[0] >= caps[2]:  # BUILD-4 rules out every ship, wherever it goes
        affordable = [d for d in affordable if d.is_station]
        if not affordable:
            return []
    stations = ships = False
    for d in affordable:
        if d.is_station:
            stations = True
        else:
            ships = True
    at = vessels_by_pos(g)  # every system's checks below read only the vessels there
    out: list[ActionTuple] = []
    for pos, s in enumerate(g.sites):
        if s.owner != p:
            continue
        station, ship, fighter = _site_bans(g, p, pos, caps, stations, ships, at[pos])
        for d in affordable:  # all affordable and in the supply: only the place can refuse them
            if (station if d.is_station else fighter if d.is_fighter else ship) is None:
                out.append(("build", d.index, pos))
    return out


@task(T.BuildWindow)
def _build_window(g: GameState, t: T.BuildWindow) -> None:
    """A card may let the active player build ships in the Ready and End phases too: they get a
    moment to do so (build, or pass to go on)."""
    if builds_any_phase(g, g.active) and build_actions(g, g.active, ships_only=True):
        g.step, g.actor = "build_window", g.active
    else:
        g.tasks.pop()


# --------------------------------------------------------------------------- develop


def _develops_here(g: GameState, p: int, pos: int) -> bool:
    """DEV-1: ``p`` has a ship at ``pos`` that may develop it (a loop, not any(): asked per
    system at every Command decision)."""
    fighters = g.ed.fighters_develop
    for v in g.vessels.values():
        if v.owner == p and v.pos == pos and v.d.is_ship and (fighters or not v.d.is_fighter):
            return True
    return False


def develop_cost(g: GameState, p: int, pos: int) -> int | str:
    """DEV-1..3: the price of the next development, or why there is none."""
    site = g.sites[pos]
    if not site.face_up:
        return "DEV-1: explore the system before developing it"
    if site.owner == NOBODY:
        if not _develops_here(g, p, pos):
            return "DEV-1: you need a ship there" + ("" if g.ed.fighters_develop else " other than a fighter")
        if max_dev(g, pos) < 1:
            return "DEV-3: this system cannot hold developments"
        return 1
    if site.owner != p:
        return "DEV-1: another player controls this system"
    most = max_dev(g, pos)
    if site.devs >= most:
        return f"DEV-3: the system is at its maximum of {most} developments"
    return site.devs + 1


def _develop_reason(g: GameState, p: int, pos: int) -> str | None:
    """DEV-1..3 for a development of ``p`` at board position ``pos``, or None."""
    cost = develop_cost(g, p, pos)
    if isinstance(cost, str):
        return cost
    if g.credits[p] < cost:
        rule = "DEV-1" if g.sites[pos].owner == NOBODY else "DEV-2"
        return f"{rule}: the development costs {cost} credits; you have {g.credits[p]}"
    return None


def check_develop(g: GameState, p: int, a: ActionTuple) -> str | None:
    if len(a) != 2 or not isinstance(a[1], int) or not 0 <= a[1] < len(g.sites):
        return "develop takes a position on the board"
    return _develop_reason(g, p, a[1])


def do_develop(g: GameState, p: int, a: ActionTuple) -> None:
    g.credits[p] -= develop_cost(g, p, a[1])  # type: ignore[operator]
    add_development(g, p, a[1])


def develop_actions(g: GameState, p: int) -> list[ActionTuple]:
    if g.credits[p] < 1:  # every development costs at least 1 (develop_cost)
        return []
    # Candidates: systems p controls, and uncontrolled ones where p has a vessel (loops, not
    # comprehensions: this runs at every Command decision). A system of p's own is left out at
    # once when p cannot pay for its next development (one more than it has, develop_cost):
    # then its maximum, the dearer question, need not be asked.
    sites, credits = g.sites, g.credits[p]
    spot: list[bool] = []
    for s in sites:
        spot.append(s.owner == p and s.devs < credits)
    for v in g.vessels.values():
        if v.owner == p and sites[v.pos].owner == NOBODY:
            spot[v.pos] = True
    out: list[ActionTuple] = []
    for pos, candidate in enumerate(spot):
        if candidate and _develop_reason(g, p, pos) is None:
            out.append(("develop", pos))
    return out


# --------------------------------------------------------------------------- scrap, repair, bank trades


def _scrap_reason(g: GameState, p: int, v: Vessel | None) -> str | None:
    """SCRAP-1 for scrapping ``v`` (None: no such vessel), or None."""
    if v is None or v.owner != p or not v.d.is_ship:
        return "SCRAP-1: scrap a ship you control"
    if contested(g, v.pos):
        return "SCRAP-1: no scrapping in a contested system (CONTEST-1)"
    return None


def check_scrap(g: GameState, p: int, a: ActionTuple) -> str | None:
    return _scrap_reason(g, p, g.vessels.get(a[1]) if len(a) == 2 else None)


def scrap_actions(g: GameState, p: int) -> list[ActionTuple]:
    out: list[ActionTuple] = []
    for v in g.vessels.values():  # _scrap_reason(g, p, v) is None, written out: a call per vessel cost more
        if v.owner == p and v.d.is_ship and not contested(g, v.pos):
            out.append(("scrap", v.id))
    return out


def do_scrap(g: GameState, p: int, a: ActionTuple) -> None:
    v = g.vessels[a[1]]
    emit(g, E.Scrap("scrap", p, v.id))
    remove_vessel(g, v)
    gain(g, p, max(1, v.d.cost // 2))


def _repair_reason(g: GameState, p: int, v: Vessel | None) -> str | None:
    """REPAIR-1 for repairing ``v`` (None: no such vessel), or None."""
    if not g.ed.repair:
        return "REPAIR-1: repairs exist only in the classic edition"
    if v is None or v.owner != p or v.damage <= 0:
        return "REPAIR-1: repair a damaged vessel you control"
    if contested(g, v.pos):
        return "REPAIR-1: no repairs in a contested system (CONTEST-1)"
    if g.credits[p] < 2:
        return "REPAIR-1: a repair costs 2 credits"
    return None


def check_repair(g: GameState, p: int, a: ActionTuple) -> str | None:
    return _repair_reason(g, p, g.vessels.get(a[1]) if len(a) == 2 else None)


def repair_actions(g: GameState, p: int) -> list[ActionTuple]:
    if not g.ed.repair:
        return []
    return [("repair", v.id) for v in g.vessels.values() if v.owner == p and _repair_reason(g, p, v) is None]


def do_repair(g: GameState, p: int, a: ActionTuple) -> None:
    g.credits[p] -= 2
    g.vessels[a[1]].damage -= 1
    emit(g, E.Repair("repair", p, a[1]))


def check_buy(g: GameState, p: int, a: ActionTuple) -> str | None:
    if g.credits[p] < 3:
        return "TRADE-1: drawing a card costs 3 credits"
    if not drawable_decks(g, p):
        return "DRAW-1: no deck of a domain you control has cards left"
    if g.ed.trade_draw_needs_room and len(g.hands[p]) >= g.ed.hand_limit:
        return "TRADE-1: not allowed with a full hand"
    return None


def do_buy(g: GameState, p: int, a: ActionTuple) -> None:
    g.credits[p] -= 3
    emit(g, E.Buy("buy", p))
    g.step = None
    push(g, T.Draw(p))


def check_sell(g: GameState, p: int, a: ActionTuple) -> str | None:
    if len(a) != 3 or a[1] == a[2] or a[1] not in g.hands[p] or a[2] not in g.hands[p]:
        return "TRADE-2: discard two different cards from your hand"
    return None


def do_sell(g: GameState, p: int, a: ActionTuple) -> None:
    discard_from_hand(g, p, a[1])
    discard_from_hand(g, p, a[2])
    gain(g, p, 3)


def sell_actions(g: GameState, p: int) -> list[ActionTuple]:
    hand = sorted(g.hands[p])
    return [("sell", a, b) for i, a in enumerate(hand) for b in hand[i + 1:]]


# --------------------------------------------------------------------------- cards and abilities


def check_play(g: GameState, p: int, a: ActionTuple) -> str | None:
    if len(a) < 2 or a[1] not in g.hands[p]:
        return "PLAY-1: play a card from your hand"
    d = g.rules.cards[a[1]]
    if g.step != "command" and not d.is_command:
        return "RESP-2: only Commands can be played outside your Command phase (PLAY-1)"
    if d.is_station and g.credits[p] < d.cost:
        return f"BUILD-8: {d.name} costs {d.cost} credits; you have {g.credits[p]}"
    if tuple(a[2:]) not in set(play_targets(g, p, a[1])):
        if d.is_station:
            return (f"BUILD-8: {d.name} goes into a system you control with room for another "
                    "station of yours (BUILD-2) and no building ban (BUILD-5)")
        return f"TARGET-2: those are not legal targets for {d.name}"
    return None


def play_actions(g: GameState, p: int, commands_only: bool) -> list[ActionTuple]:
    out: list[ActionTuple] = []
    for cid in g.hands[p]:
        if commands_only and not g.rules.cards[cid].is_command:
            continue
        for t in play_targets(g, p, cid):  # a loop: mostly a few targets each
            out.append(("play", cid) + t)
    return out


def check_ability(g: GameState, p: int, a: ActionTuple) -> str | None:
    if len(a) < 2 or a[1] not in ability_sources(g, p):
        return "RESP-1: use an ability of a card you control (not in a besieged system, SIEGE-2)"
    if tuple(a[2:]) not in set(ability_targets(g, p, a[1])):
        return f"TARGET-2: those are not legal targets or costs for {g.rules.cards[a[1]].name}"
    return None


def ability_actions(g: GameState, p: int) -> list[ActionTuple]:
    out: list[ActionTuple] = []
    for src in ability_sources(g, p):  # loops: most of the time there is none
        for t in ability_targets(g, p, src):
            out.append(("ability", src) + t)
    return out


def do_end(g: GameState, p: int, a: ActionTuple) -> None:
    g.tasks.pop()
    g.step = None
    emit(g, E.EndPhase("end_phase", p))
