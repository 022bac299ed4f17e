"""Invariant checks for engine states, cheap enough to run after every action of self-play.

``check_state`` looks at one state; ``check_step`` compares the states before and after one
action for rules that only hold at the moment something happens (build caps, DEV-3 when a
development is added). Both return human-readable violations; an empty list means all is well.

What is *not* a state invariant, and why: BUILD-2 (stations <= developments), BUILD-4 (ships <=
developments) and BUILD-6 (classic fighter caps) bind only the build itself, since conquest,
bombardment, Cruisers and trades may remove developments afterwards; DEV-3 binds the current
maximum only when a development is added, since an Orbital Habitat may leave later.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from .cards.catalogue import CARD_DEF, DEFS, DOMAINS, N_CARDS, SUPPLY_NAMES
from .engine import rules as R
from .engine.game import standard_rules
from .engine.state import NOBODY, ActionTuple, GameState

# Cards that may legitimately be in no zone: Homeworlds of empty seats and unused filler systems
# are left out of the game at setup.
_MAY_BE_OUT = frozenset(cid for cid, d in enumerate(CARD_DEF) if d.kind == "homeworld" or d.filler)
_COUNT: dict[str, int] = {d.name: d.count for d in DEFS}


@lru_cache(maxsize=1)
def _bonus_ceiling() -> int:
    """The most any one system's maximum can ever be raised by stations (DEV-3).

    Developments are checked against the *current* maximum only when they are added (see
    ``check_step``): a station that raised the maximum (Orbital Habitat) may later be destroyed,
    traded away, or switched off by a siege, leaving a system legally above its current maximum.
    What always holds is the printed maximum plus the bonus of every such station in the game.
    """
    return sum(standard_rules().effect(d.name).max_dev_bonus * d.count for d in DEFS if d.kind == "station")


def _zones(g: GameState) -> list[tuple[str, Any]]:
    zones: list[tuple[str, Any]] = []
    for i, deck in enumerate(g.decks):
        zones.append((f"deck {DOMAINS[i]}", deck))
    for i, pile in enumerate(g.discards):
        zones.append((f"discard {DOMAINS[i]}", pile))
    for p, hand in enumerate(g.hands):
        zones.append((f"hand of {p}", hand))
    for p, techs in enumerate(g.techs):
        zones.append((f"technologies of {p}", techs))
    zones.append(("system deck", g.sysdeck))
    zones.append(("board", [s.card for s in g.sites]))
    for name, pile in g.supply.items():
        zones.append((f"supply {name}", pile))
    zones.append(("vessels", list(g.vessels)))
    zones.append(("stack", [it[2] for it in g.stack if it[0] == "card"]))
    return zones


def _check_cards(g: GameState, out: list[str]) -> None:
    """Every card instance in exactly one zone, each zone holding the right kind of card."""
    where: list[str | None] = [None] * N_CARDS
    for zone, cids in _zones(g):
        for cid in cids:
            if not isinstance(cid, int) or not 0 <= cid < N_CARDS:
                out.append(f"{zone}: {cid!r} is not a card id")
                continue
            if where[cid] is not None:
                out.append(f"card {cid} ({CARD_DEF[cid].name}) is in both {where[cid]} and {zone}")
            where[cid] = zone
    for cid, held in enumerate(where):
        if held is None and cid not in _MAY_BE_OUT:
            out.append(f"card {cid} ({CARD_DEF[cid].name}) is in no zone")
    for i, deck in enumerate(g.decks):
        for cid in deck + g.discards[i]:
            d = CARD_DEF[cid] if 0 <= cid < N_CARDS else None
            if d is not None and (not d.in_domain_deck or d.domain_index != i):
                out.append(f"{d.name} ({cid}) is in the {DOMAINS[i]} deck or discard pile")
    for p in range(len(g.hands)):
        for cid in g.hands[p]:
            if 0 <= cid < N_CARDS and not CARD_DEF[cid].in_domain_deck:
                out.append(f"hand of {p} holds {CARD_DEF[cid].name} ({cid}), not a domain card")
        for cid in g.techs[p]:
            if 0 <= cid < N_CARDS and CARD_DEF[cid].kind != "technology":
                out.append(f"technologies of {p} hold {CARD_DEF[cid].name} ({cid})")
    for cid in g.sysdeck:
        if 0 <= cid < N_CARDS and CARD_DEF[cid].kind != "system":
            out.append(f"system deck holds {CARD_DEF[cid].name} ({cid})")
    for pos, s in enumerate(g.sites):
        if 0 <= s.card < N_CARDS and not CARD_DEF[s.card].is_system:
            out.append(f"site {pos} holds {CARD_DEF[s.card].name} ({s.card}), not a system")
        if 0 <= s.card < N_CARDS and s.d is not CARD_DEF[s.card]:
            out.append(f"site {pos} holds card {s.card} but reads the facts of {s.d.name}")
    for name, pile in g.supply.items():
        if name not in SUPPLY_NAMES:
            out.append(f"supply has a pile of {name}, not a neutral card")
        for cid in pile:
            if 0 <= cid < N_CARDS and CARD_DEF[cid].name != name:
                out.append(f"supply pile {name} holds {CARD_DEF[cid].name} ({cid})")


def _check_supply(g: GameState, out: list[str]) -> None:
    """COMP-2: a neutral card is either in the supply or on the board, never elsewhere."""
    in_play: dict[str, int] = {}
    for v in g.vessels.values():
        in_play[v.d.name] = in_play.get(v.d.name, 0) + 1
    for name in SUPPLY_NAMES:
        count = _COUNT[name]
        have = len(g.supply.get(name, ())) + in_play.get(name, 0)
        if have != count:
            out.append(f"COMP-2: {name}: {have} in supply and play, catalogue has {count}")


def _check_players(g: GameState, out: list[str]) -> None:
    n = g.cfg.players
    limit = g.ed.hand_limit
    for p in range(n):
        if g.credits[p] < 0:
            out.append(f"player {p} has {g.credits[p]} credits")
        if len(g.hands[p]) > limit:  # HAND-1 / HAND-2
            out.append(f"HAND: player {p} holds {len(g.hands[p])} cards, limit {limit}")
        if not g.alive[p]:
            if g.hands[p] or g.techs[p]:
                out.append(f"END-4: eliminated player {p} still has cards in hand or technologies")
            if any(s.owner == p for s in g.sites):
                out.append(f"END-4: eliminated player {p} still controls a system")
        elif g.phase != "end" and g.sites[g.homeworld[p]].owner != p:
            # Conquest and elimination happen in the same End phase, so only there may a living
            # player's Homeworld belong to someone else for a moment.
            out.append(f"END-4: player {p} is alive but does not control their Homeworld")
    if not g.over:
        if not (0 <= g.actor < n and g.alive[g.actor]):
            out.append(f"the player to decide ({g.actor}) is not a living player")
        if not g.alive[g.active]:
            out.append(f"the active player {g.active} is eliminated")
    elif g.step != "over":
        out.append(f"the game is over but the step is {g.step!r}")


def _check_board(g: GameState, out: list[str]) -> None:
    n_sites = len(g.sites)
    ceiling = _bonus_ceiling()
    for pos, s in enumerate(g.sites):
        if s.devs < 0:
            out.append(f"site {pos} has {s.devs} developments")
        if (s.owner == NOBODY) != (s.devs == 0):
            out.append(f"site {pos}: owner {s.owner} with {s.devs} developments")
        if not s.face_up and (s.owner != NOBODY or s.devs):
            out.append(f"site {pos} is face down but developed")
        if s.owner != NOBODY and not 0 <= s.owner < g.cfg.players:
            out.append(f"site {pos} is owned by unknown player {s.owner}")
        if 0 <= s.card < N_CARDS and s.devs > CARD_DEF[s.card].max_dev + ceiling:  # DEV-3
            out.append(f"DEV-3: site {pos} has {s.devs} developments, more than can ever fit")
    for vid, v in g.vessels.items():
        if v.id != vid or CARD_DEF[vid] is not v.d:
            out.append(f"vessel record {vid} is inconsistent (id {v.id}, card {v.d.name})")
        if not (v.d.domain == "neutral" or v.d.kind == "station") or not v.d.is_vessel:
            out.append(f"vessel {vid} is a {v.d.name}, which cannot be on the board")
        if not 0 <= v.pos < n_sites:
            out.append(f"vessel {vid} is at position {v.pos}, off the board")
        if not 0 <= v.owner < g.cfg.players or not g.alive[v.owner]:
            out.append(f"vessel {vid} belongs to {v.owner}, not a living player")
        if v.damage < 0:
            out.append(f"vessel {vid} has {v.damage} damage")


def check_state(g: GameState) -> list[str]:
    """Violations of rules that hold in every reachable state (empty list: none found)."""
    out: list[str] = []
    _check_cards(g, out)
    _check_supply(g, out)
    _check_players(g, out)
    _check_board(g, out)
    return out


# --------------------------------------------------------------------------- per step


def _devs_fell(before: GameState, after: GameState, p: int | None) -> bool:
    """Whether any system (of ``p`` before, or any if None) lost developments or its controller.

    Caps are only checked when nothing fell, because a cap legally met at build time may be
    exceeded once a later effect of the same action (siege, bombardment, trade) removes
    developments."""
    for s0, s1 in zip(before.sites, after.sites):
        if (p is None or s0.owner == p) and (s1.devs < s0.devs or s1.owner != s0.owner):
            return True
    return False


def _check_new_vessels(before: GameState, action: ActionTuple, after: GameState, out: list[str]) -> None:
    new = [v for vid, v in after.vessels.items() if vid not in before.vessels]
    if not new:
        return
    built = isinstance(action, tuple) and bool(action) and action[0] == "build"
    for v in new:
        p, pos = v.owner, v.pos
        if _devs_fell(before, after, p):
            continue
        site = after.sites[pos]
        # BUILD-2 binds the build action and station cards from hand (BUILD-8); a free station
        # from a card effect (Military Base) follows its card, not the build rules.
        from_hand = v.d.domain != "neutral"
        if v.d.kind == "station" and (built or from_hand) and R.stations_of(after, p, pos) > site.devs:
            out.append(f"BUILD-2: player {p} has {R.stations_of(after, p, pos)} stations at {pos} "
                       f"with {site.devs} developments")
        # BUILD-4 binds every new ship, including Mass Production's (its text says so).
        if v.d.kind != "ship":
            continue
        if after.ed.ship_cap and R.ship_count_for_cap(after, p) > R.total_devs(after, p):
            out.append(f"BUILD-4: player {p} has {R.ship_count_for_cap(after, p)} ships "
                       f"and {R.total_devs(after, p)} developments")
        if after.ed.fighter_caps and v.d.size == "fighter" and built:
            if R.fighter_count(after, p) > R.total_devs(after, p):
                out.append(f"BUILD-6: player {p} has {R.fighter_count(after, p)} fighters "
                           f"and {R.total_devs(after, p)} developments")
            if R.fighter_count(after, p, pos) > site.devs:
                out.append(f"BUILD-6: player {p} has {R.fighter_count(after, p, pos)} fighters at "
                           f"{pos} with {site.devs} developments")


def _raisers_at(g: GameState, pos: int) -> set[int]:
    return {v.id for v in g.vessels.values()
            if v.pos == pos and v.d.kind == "station" and g.rules.by_card[v.id].max_dev_bonus}


def _check_dev_added(before: GameState, after: GameState, out: list[str]) -> None:
    """DEV-3 at the moment of developing: a system that gained developments is within its
    current maximum, unless what raised that maximum changed during the step."""
    for pos, (s0, s1) in enumerate(zip(before.sites, after.sites)):
        if s1.devs <= s0.devs or s1.devs <= R.max_dev(after, pos):
            continue
        if _raisers_at(before, pos) != _raisers_at(after, pos) or s0.owner != s1.owner \
                or R.under_siege(before, pos) != R.under_siege(after, pos):
            continue
        out.append(f"DEV-3: site {pos} grew to {s1.devs} developments, maximum {R.max_dev(after, pos)}")


def check_step(before: GameState, action: ActionTuple, after: GameState) -> list[str]:
    """Violations of rules that hold at the moment of an action (BUILD-2, BUILD-4, BUILD-6,
    DEV-3): ``after`` is ``before`` with ``action`` applied. States that became legal because
    developments fell after building are not flagged."""
    out: list[str] = []
    _check_new_vessels(before, action, after, out)
    _check_dev_added(before, after, out)
    return out
