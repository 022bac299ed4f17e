"""Rule queries and primitive state changes shared by the engine and the card effects.

Queries never mutate. Primitives mutate the state and record events; they never ask for a
decision (decisions are tasks, see ``flow``).
"""
from __future__ import annotations

from typing import Iterator

from ..cards.catalogue import Domain
from . import events as E
from . import lasting as L
from .lasting import HAS_ATTACK, HAS_HP, HAS_NO_ATTACK, HAS_SPEED, HAS_TARGETS, HAS_UNTARGETABLE, Kind
from .state import NOBODY, GameState, Vessel

# --------------------------------------------------------------------------- vessels


def vessels_at(g: GameState, pos: int) -> Iterator[Vessel]:
    for v in g.vessels.values():
        if v.pos == pos:
            yield v


def vessels_by_pos(g: GameState) -> list[list[Vessel]]:
    """Each position's vessels, in the order they came into play: one pass over the vessels for
    a caller about to ask about several systems (the queries below that take ``here`` accept
    one of these lists instead of scanning every vessel again)."""
    out: list[list[Vessel]] = [[] for _ in g.sites]
    for v in g.vessels.values():
        out[v.pos].append(v)
    return out


def has_vessel(g: GameState, p: int, pos: int) -> bool:
    return any(v.owner == p and v.pos == pos for v in g.vessels.values())


def _tech_bonus(g: GameState, v: Vessel, stat: str) -> int:
    """Bonuses from technologies of ``v``'s controller (callers on the hot path skip the call
    when none of them has a hook for ``stat``: a set test made in C, and most have none)."""
    total = 0
    hooked = g.rules.stat_cards[stat]
    for cid in g.techs[v.owner]:
        if cid in hooked:
            total += getattr(g.rules.by_card[cid], stat)(g, cid, v)
    return total


def system_bonus_cards(g: GameState, p: int, stat: str) -> list[int]:
    """The face-up systems ``p`` controls whose cards add to ``stat`` of ``p``'s vessels, those
    under siege left out (SIEGE-2). Nothing a query asks changes them, so a caller about to ask
    about several of ``p``'s vessels finds them once and hands them to :func:`speed`."""
    systems = g.rules.stat_systems[stat]
    out: list[int] = []
    if systems:  # most stats have no such system: then there is no board to walk
        for pos, site in enumerate(g.sites):
            if site.card in systems and site.owner == p and site.face_up and not under_siege(g, pos):
                out.append(site.card)
    return out


def _board_bonus(g: GameState, v: Vessel, stat: str, systems: list[int] | None = None) -> int:
    """Bonuses from stations of ``v``'s controller beside it and from systems they control,
    each off under siege (SIEGE-2). One function for both because every stat lookup asks for
    both, and most of the time neither kind of card is in play. ``systems``: what
    :func:`system_bonus_cards` answers for ``v``'s controller, if known."""
    rules = g.rules
    total = 0
    stations = rules.stat_stations[stat]  # a handful of ids, fewer than the vessels in play
    if stations:
        vessels = g.vessels
        here = []
        for sid in stations:
            s = vessels.get(sid)
            if s is not None and s.pos == v.pos and s.owner == v.owner:
                here.append(sid)
        if here and not under_siege(g, v.pos):
            total = sum(getattr(rules.by_card[sid], stat)(g, sid, v) for sid in here)
    if systems is None and rules.stat_systems[stat]:  # no call for a stat no system adds to
        systems = system_bonus_cards(g, v.owner, stat)
    if systems:
        for cid in systems:
            total += getattr(rules.by_card[cid], stat)(g, cid, v)
    return total


def base_attack(g: GameState, v: Vessel) -> int:
    """Attack without the bonuses of stations and systems. SIEGE-1 reads this, which keeps siege
    from depending on itself; it never changes the answer, because the only station that adds
    attack (to other stations) has attack of its own."""
    total = v.d.attack
    if g.lasting_kinds & HAS_ATTACK:
        total += L.total(g, Kind.ATTACK, v.id)
    techs = g.techs[v.owner]
    if techs and not g.rules.stat_cards["attack"].isdisjoint(techs):
        total += _tech_bonus(g, v, "attack")
    return total


def attack(g: GameState, v: Vessel) -> int:
    total = base_attack(g, v)
    if "attack" in g.rules.board_stats:
        total += _board_bonus(g, v, "attack")
    return total


def max_hp(g: GameState, v: Vessel) -> int:
    total = v.d.hp
    if g.lasting_kinds & HAS_HP:
        total += L.total(g, Kind.HP, v.id)
    techs = g.techs[v.owner]
    if techs and not g.rules.stat_cards["hp"].isdisjoint(techs):
        total += _tech_bonus(g, v, "hp")
    if "hp" in g.rules.board_stats:  # none in the standard catalogue: then no call at all
        total += _board_bonus(g, v, "hp")
    return total


def speed(g: GameState, v: Vessel, systems: list[int] | None = None) -> int:
    """``v``'s speed. ``systems``: :func:`system_bonus_cards` of ``v``'s controller for
    "speed", if known."""
    if not v.d.is_ship:
        return 0
    total = v.d.speed
    if g.lasting_kinds & HAS_SPEED:
        total += L.total(g, Kind.SPEED, v.id)
    techs = g.techs[v.owner]
    if techs and not g.rules.stat_cards["speed"].isdisjoint(techs):
        total += _tech_bonus(g, v, "speed")
    if "speed" in g.rules.board_stats:
        total += _board_bonus(g, v, "speed", systems)
    return total


def max_targets(g: GameState, v: Vessel) -> int:
    """How many targets ``v`` may divide its combat damage among (COMBAT-4)."""
    for cid in g.techs[v.owner]:
        if g.rules.by_card[cid].unlimited_targets:
            return 1_000
    return v.d.targets + (L.total(g, Kind.TARGETS, v.id) if g.lasting_kinds & HAS_TARGETS else 0)


def usable_attack(g: GameState, v: Vessel) -> int:
    """``v``'s attack, or 0 if a card forbids it to attack (what combat may deal)."""
    if g.lasting_kinds & HAS_NO_ATTACK and L.holds(g, Kind.NO_ATTACK, v.id):
        return 0
    return attack(g, v)


def can_attack(g: GameState, v: Vessel) -> bool:
    return usable_attack(g, v) > 0


def is_lethal(g: GameState, v: Vessel) -> bool:
    hp = max_hp(g, v)
    return v.damage >= hp if g.ed.lethal_at_equal else v.damage > hp


def targetable(g: GameState, v: Vessel, by_command: bool) -> bool:
    """Whether a Command (or, if not ``by_command``, an ability) may target ``v``."""
    if g.lasting_kinds & HAS_UNTARGETABLE and L.holds(g, Kind.UNTARGETABLE, v.id):
        return False
    if by_command and v.d.is_ship:
        site = g.sites[v.pos]
        if site.face_up and g.rules.by_card[site.card].shields_ships_from_commands \
                and not under_siege(g, v.pos):  # RULING: works uncontrolled; SIEGE-2 only
            return False
    return True


# --------------------------------------------------------------------------- systems


def under_siege(g: GameState, pos: int, here: list[Vessel] | None = None) -> bool:
    """SIEGE-1: an opponent has non-Fighter ships here and the controller has no vessel with
    attack above 0 here. ``here``: the vessels at ``pos`` (:func:`vessels_by_pos`), if known."""
    owner = g.sites[pos].owner
    if owner == NOBODY:
        return False
    besieger = False
    for v in g.vessels.values() if here is None else here:
        if v.pos != pos:
            continue
        if v.owner == owner:
            if base_attack(g, v) > 0:
                return False
        elif v.d.is_ship and not v.d.is_fighter:
            besieger = True
    return besieger


def besieged_by(g: GameState, pos: int, p: int) -> bool:
    """Under siege, with ``p`` among the besiegers (END-1)."""
    return under_siege(g, pos) and any(
        v.owner == p and v.pos == pos and v.d.is_ship and not v.d.is_fighter
        for v in g.vessels.values())


def system_effects_active(g: GameState, pos: int) -> bool:
    """SIEGE-2: a face-up system's own effects work unless it is besieged (effects that belong to
    a controller check who controls it themselves)."""
    return g.sites[pos].face_up and not under_siege(g, pos)


def station_effects_active(g: GameState, pos: int, here: list[Vessel] | None = None) -> bool:
    """SIEGE-2 (RULING): stations in a besieged system are switched off too."""
    return not under_siege(g, pos, here)


def combat_since_last_turn(g: GameState, pos: int, p: int) -> bool:
    """Damage was assigned at ``pos`` after ``p``'s last finished turn (COMBAT-8)."""
    return g.sites[pos].combat_turn > g.prev_turn[p]


def contested(g: GameState, pos: int) -> bool:
    """CONTEST-1: controlled, and combat happened there since its controller's last turn."""
    site = g.sites[pos]  # combat_since_last_turn(g, pos, owner), written out: asked per vessel
    return site.owner != NOBODY and site.combat_turn > g.prev_turn[site.owner]


def max_dev(g: GameState, pos: int) -> int:
    """DEV-3: printed maximum plus bonuses from stations there."""
    site = g.sites[pos]
    bonus = 0
    for sid in g.rules.dev_stations:
        v = g.vessels.get(sid)
        if v is not None and v.pos == pos and v.owner == site.owner:
            bonus += g.rules.by_card[sid].max_dev_bonus
    if bonus and not station_effects_active(g, pos):
        bonus = 0
    return site.d.max_dev + bonus


# A few counts below are loops rather than sum() over a generator: they run at every Command
# decision, over a few dozen vessels, where making the generator costs more than the counting.


def total_devs(g: GameState, p: int) -> int:
    n = 0
    for s in g.sites:
        if s.owner == p:
            n += s.devs
    return n


def domains_controlled(g: GameState, p: int) -> list[int]:
    """DRAW-1: domains of systems ``p`` controls (besieged ones included), as deck indices."""
    out = []
    for s in g.sites:
        if s.owner == p and s.face_up:
            di = s.d.domain_index
            if di >= 0 and di not in out:
                out.append(di)
    out.sort()
    return out


def drawable_decks(g: GameState, p: int) -> list[int]:
    return [d for d in domains_controlled(g, p) if g.decks[d]]


def ship_count_for_cap(g: GameState, p: int) -> int:
    """BUILD-4 (RULING): Scouts do not count, fighters do."""
    n = 0
    for v in g.vessels.values():
        if v.owner == p and v.d.is_ship and not v.d.never_built:
            n += 1
    return n


def fighter_count(g: GameState, p: int, pos: int | None = None, here: list[Vessel] | None = None) -> int:
    """``p``'s fighters (at ``pos`` if given; ``here``: the vessels there, if known)."""
    return sum(1 for v in (g.vessels.values() if here is None else here)
               if v.owner == p and v.d.is_fighter and (pos is None or v.pos == pos))


def stations_of(g: GameState, p: int, pos: int, here: list[Vessel] | None = None) -> int:
    n = 0
    for v in g.vessels.values() if here is None else here:
        if v.owner == p and v.pos == pos and v.d.is_station:
            n += 1
    return n


def can_enter(g: GameState, v: Vessel, pos: int) -> bool:
    """MOVE-5: entering is allowed unless the system's own text forbids it."""
    site = g.sites[pos]
    if site.face_up:
        hook = g.rules.by_card[site.card].can_enter
        if hook is not None and not hook(g, v, pos):
            return False
    return True


def build_banned(g: GameState, p: int, pos: int, ship: bool, here: list[Vessel] | None = None) -> str | None:
    """BUILD-5: the reason building at ``pos`` is banned for ``p``, or None. ``here``: the
    vessels at ``pos``, if known."""
    if ship and g.homeworld[p] == pos:
        return None
    if under_siege(g, pos, here):
        return "BUILD-5: the system is under siege"
    if g.ed.build_ban_contested:
        if contested(g, pos):
            return "BUILD-5: the system is contested"
    elif combat_since_last_turn(g, pos, p) and any(
            v.pos == pos and v.owner != p and v.d.is_ship for v in (g.vessels.values() if here is None else here)):
        return "BUILD-5: combat happened here since your last turn and enemy ships remain"
    return None


def station_banned(g: GameState, p: int, pos: int, here: list[Vessel] | None = None) -> str | None:
    """BUILD-2 and BUILD-5 for a station of ``p`` at ``pos`` (built or played from hand).
    ``here``: the vessels at ``pos``, if known."""
    site = g.sites[pos]
    if site.owner != p:
        return "BUILD-2: stations are built in a system you control"
    if stations_of(g, p, pos, here) >= site.devs:
        return "BUILD-2: your stations there may not outnumber its developments"
    return build_banned(g, p, pos, False, here)


# --------------------------------------------------------------------------- primitives


def emit(g: GameState, event: E.Event) -> None:
    g.events.append(event)


def gain(g: GameState, p: int, n: int) -> None:
    if n:
        g.credits[p] += n
        emit(g, E.Credits("credits", p, n))


def discard(g: GameState, cid: int) -> None:
    """Put a domain card on its own discard pile (COMP-3)."""
    g.discards[g.rules.cards[cid].domain_index].append(cid)


def version_for(g: GameState, cid: int, holder: int) -> int:
    """The copy of card ``cid`` that ``holder`` (a seat, or NOBODY) gets: ``cid`` itself, except
    in a balance study, where a seat that does not get the real card gets its stand-in's paired
    copy, and one that does gets the real copy back (``Ruleset.versions``). Asked whenever a card
    enters a hand or technology row (drawn, traded, taken), a vessel is built, and a system
    changes controller; a vessel keeps the version it was built as."""
    rules = g.rules
    other = rules.versions.get(cid) if rules.versions else None
    if other is None:
        return cid
    real = rules.real_for is None or holder in rules.real_for
    return other if real == (cid in rules.stand_ins) else cid


def real_copy(g: GameState, cid: int) -> int:
    """The real card's copy for ``cid`` (itself, unless it is a study's stand-in)."""
    return g.rules.versions[cid] if cid in g.rules.stand_ins else cid


def take_supply(g: GameState, name: str) -> int | None:
    pile = g.supply[name]
    return pile.pop() if pile else None


def place_vessel(g: GameState, cid: int, p: int, pos: int) -> Vessel:
    v = Vessel(cid, p, pos, g.rules.cards[cid])
    g.vessels[cid] = v
    emit(g, E.Vessel("vessel", p, cid, pos))
    return v


def build(g: GameState, p: int, name: str, pos: int) -> Vessel | None:
    """Take a ``name`` from the supply into play for ``p`` at ``pos`` (COMP-2); None if none left."""
    cid = take_supply(g, name)
    if cid is None:
        return None
    return place_vessel(g, version_for(g, cid, p), p, pos)


def remove_vessel(g: GameState, v: Vessel) -> None:
    """Take ``v`` off the board: neutral cards back to the supply (COMP-2), others discarded."""
    del g.vessels[v.id]
    L.forget_vessel(g, v.id)
    if v.d.domain is Domain.NEUTRAL:
        real = real_copy(g, v.id)  # a stand-in's copy goes back as the real card's
        g.supply[g.rules.cards[real].name].append(real)
    else:
        discard(g, v.id)


def destroy(g: GameState, v: Vessel) -> None:
    emit(g, E.Destroyed("destroyed", v.owner, v.id, v.pos))
    remove_vessel(g, v)


def deal_damage(g: GameState, v: Vessel, n: int) -> None:
    """Deal ``n`` damage now (outside combat resolution); lethal damage destroys."""
    if n <= 0 or v.id not in g.vessels:
        return
    if L.shielded(g, v.id):
        emit(g, E.Prevented("prevented", v.id, n))
        return
    v.damage += n
    emit(g, E.Damage("damage", v.id, n))
    if is_lethal(g, v):
        destroy(g, v)


def destroy_lethal(g: GameState) -> None:
    """Lethal damage destroys whenever it is found, not only when damage lands: hit points can
    fall later (a bonus ends, a technology is traded away)."""
    doomed: list[Vessel] = []
    for v in g.vessels.values():  # a loop, not a list comprehension: this runs after every action
        if v.damage and is_lethal(g, v):
            doomed.append(v)
    for v in doomed:
        destroy(g, v)


def first_developed(g: GameState, p: int, pos: int) -> None:
    """DEV-4: run the system's 'when first developed' effect."""
    hook = g.rules.by_card[g.sites[pos].card].first_developed
    if hook is not None and system_effects_active(g, pos):
        hook(g, p, pos)


def add_development(g: GameState, p: int, pos: int) -> bool:
    """Place one development of ``p`` at ``pos`` if the maximum allows (DEV-3)."""
    site = g.sites[pos]
    if site.devs >= max_dev(g, pos) or site.owner not in (p, NOBODY):
        return False
    first = site.devs == 0
    site.owner, site.devs = p, site.devs + 1
    if first:
        system_follows_controller(g, pos)
    emit(g, E.Develop("develop", p, pos, site.devs))
    if first:
        first_developed(g, p, pos)
    return True


def system_follows_controller(g: GameState, pos: int) -> None:
    """In a balance study a system card is real or its stand-in as its controller gets real
    cards or not (:func:`version_for`); called whenever a system's controller changes."""
    site = g.sites[pos]
    cid = version_for(g, site.card, site.owner)
    if cid != site.card:
        site.set_card(cid, g.rules.cards[cid])


def set_controller(g: GameState, pos: int, p: int) -> None:
    """Hand a system to ``p``: its developments become theirs and its stations go along."""
    site = g.sites[pos]
    old = site.owner
    site.owner = p
    system_follows_controller(g, pos)
    for v in g.vessels.values():
        if v.pos == pos and v.owner == old and v.d.is_station:
            v.owner, v.fresh, v.built = p, True, False


def explore(g: GameState, pos: int) -> None:
    """EXPLORE-1: flip the system face up."""
    site = g.sites[pos]
    if not site.face_up:
        site.face_up = True
        emit(g, E.Explore("explore", pos, site.card))


def enter(g: GameState, v: Vessel, pos: int, explore_it: bool) -> None:
    """Move ``v`` into ``pos`` (explore if asked, then the system's entry effect)."""
    frm = v.pos
    v.pos = pos
    v.moved = True
    emit(g, E.Move("move", v.owner, v.id, frm, pos))
    site = g.sites[pos]
    if explore_it:
        explore(g, pos)
    if site.face_up:
        hook = g.rules.by_card[site.card].on_enter
        if hook is not None:
            hook(g, v)


def must_explore(g: GameState, pos: int, wanted: int) -> bool:
    """EXPLORE-1: [S] always, [C] when the mover chooses (``wanted``)."""
    return not g.sites[pos].face_up and (g.ed.explore_mandatory or bool(wanted))


def explore_options(g: GameState, pos: int) -> tuple[int, ...]:
    """Legal values of an action's explore flag for entering ``pos``."""
    if g.sites[pos].face_up or g.ed.explore_mandatory:
        return (1,) if not g.sites[pos].face_up else (0,)
    return (1, 0)


