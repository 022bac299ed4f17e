"""Card effects, one small block per card, registered by card name.

Static facts (cost, attack, "may split damage", "may redirect", ...) are catalogue data; only
what needs code is here. Target generators yield tuples of ints; ``engine.ruleset`` describes
the hooks. Every effect is registered on :data:`EFFECTS`, made for this catalogue (a name it does
not hold is refused); ``engine.game.standard_rules`` builds the game's ruleset from the two.
"""
from __future__ import annotations

from typing import Callable, Final, Iterable

from ..engine import events as E
from ..engine import lasting as L
from ..engine import rules as R
from ..engine.board import neighbours
from ..engine.kernel import push
from ..engine.play import cancel_item
from ..engine import tasks as T
from ..engine.state import NOBODY, Choice, GameState, Vessel
from ..engine.ruleset import EffectSet, Targets
from .catalogue import DEFS, Size

EFFECTS: Final = EffectSet(d.name for d in DEFS)
register, choice_handler = EFFECTS.register, EFFECTS.choice_handler


def _draw(g: GameState, p: int, n: int) -> None:
    for _ in range(n):
        push(g, T.Draw(p))


def _ask(g: GameState, p: int, kind: str, ctx: int, options: list[int]) -> None:
    push(g, T.Ask(p, kind, ctx, tuple(options)))


def _ships(g: GameState, pred: Callable[[Vessel], bool]) -> list[Vessel]:
    return [v for v in g.vessels.values() if v.d.is_ship and pred(v)]


def _vessels(g: GameState, pred: Callable[[Vessel], bool]) -> list[Vessel]:
    return [v for v in g.vessels.values() if pred(v)]


# --------------------------------------------------------------------------- start of turn

register("Refinery", start_of_turn=lambda g, p, src: R.gain(g, p, 2), commutes=True)
register("Trade World", start_of_turn=lambda g, p, src: R.gain(g, p, 2), commutes=True)
register("Trade Routes", commutes=True, start_of_turn=lambda g, p, src: R.gain(
    g, p, sum(1 for v in g.vessels.values() if v.owner == p and v.d.is_station)))
register("Thrill of Discovery", start_of_turn=lambda g, p, src: _draw(g, p, 1))
register("Research World", start_of_turn=lambda g, p, src: _draw(g, p, 1))
register("Orbital Habitat", max_dev_bonus=2,
         start_of_turn=lambda g, p, src: R.add_development(g, p, g.vessels[src].pos))


def _core_world(g: GameState, p: int, src: int) -> None:
    room = [pos for pos, s in enumerate(g.sites) if s.owner == p and s.devs < R.max_dev(g, pos)]
    if len(room) == 1:
        R.add_development(g, p, room[0])
    elif room:
        _ask(g, p, "Core World", 0, room)


register("Core World", start_of_turn=_core_world)


@choice_handler("Core World")
def _core_world_choice(g: GameState, choice: Choice, pos: int) -> None:
    R.add_development(g, choice.player, pos)


# --------------------------------------------------------------------------- first developed

register("Military Base", first_developed=lambda g, p, pos: R.build(g, p, "Defense Station", pos))
register("Alien System", first_developed=lambda g, p, pos: _draw(g, p, 2))
register("New Colony", first_developed=lambda g, p, pos: R.add_development(g, p, pos))

# --------------------------------------------------------------------------- passive modifiers


def _plus_one(g: GameState, src: int, v: Vessel) -> int:
    return 1


def _fighters_plus_one(g: GameState, src: int, v: Vessel) -> int:
    return 1 if v.d.is_fighter else 0


register("Advanced Weapons", attack=_plus_one)
register("Advanced Shields", hp=_plus_one)
register("Enhanced Jump Drive", speed=_plus_one)
register("Fighter Bays", hp=_fighters_plus_one, build_fighters_near_station=True)
register("Silis Major", speed=_fighters_plus_one)
register("Missile Platform", attack=lambda g, src, v: 1 if v.d.is_station and v.id != src else 0)
register("Targeting Systems", unlimited_targets=True)
register("Shipyard", build_ships_here=True)
register("Forsei", build_any_phase=True)


def _nexus_boosted(g: GameState, v: Vessel) -> bool:
    """``v`` already has a Jump Nexus's +1 (a bonus read from an old save has no known source)."""
    return bool(g.lasting_kinds & L.HAS_SPEED) and any(
        r.source == NOBODY or g.rules.cards[r.source].name == "Jump Nexus" for r in L.records(g, L.Kind.SPEED, v.id))


def _nexus_jump(g: GameState, src: int, v: Vessel) -> None:
    if not _nexus_boosted(g, v):
        L.add(g, L.Kind.SPEED, v.id, src, v.owner, L.Until.END_OF_TURN, 1)


# A ship leaving takes +1 speed along for the turn (once, however many stations it leaves);
# the stations' own bonus then no longer applies to it.
register("Jump Nexus", speed=lambda g, src, v: 0 if _nexus_boosted(g, v) else 1, on_jump_from=_nexus_jump)

# --------------------------------------------------------------------------- systems

# SIEGE-2: a besieged system's text is switched off, entry limits included.
_THROUGH_ASTEROIDS: Final = frozenset({Size.SMALL, Size.FIGHTER})
register("Asteroid Field",
         can_enter=lambda g, v, pos: v.d.size in _THROUGH_ASTEROIDS or R.under_siege(g, pos))
register("Pulsar System", shields_ships_from_commands=True)


def _black_hole_enter(g: GameState, v: Vessel) -> None:
    # SIEGE-2, judged as the ship arrives: the ship that starts a siege is still caught.
    pos, v.pos = v.pos, NOBODY
    besieged = R.under_siege(g, pos)
    v.pos = pos
    if v.d.is_ship and not besieged:  # until its controller's next Ready phase
        L.add(g, L.Kind.NO_ATTACK, v.id, g.sites[pos].card, v.owner, L.Until.READY)


register("Black Hole", on_enter=_black_hole_enter)


def _cruiser_conquest(g: GameState, v: Vessel) -> None:
    site = g.sites[v.pos]
    if site.owner not in (NOBODY, v.owner) and site.devs >= 2 and not R.under_siege(g, v.pos):
        _ask(g, v.owner, "Cruiser", v.pos, [1, 0])


register("Cruiser", conquest=_cruiser_conquest)


@choice_handler("Cruiser")
def _cruiser_choice(g: GameState, choice: Choice, yes: int) -> None:
    """END-2 (RULING): never the last development, since the system is not besieged."""
    pos = choice.ctx
    assert pos is not None, "the Cruiser asks about its system"
    site = g.sites[pos]
    if yes and site.devs >= 2:
        site.devs -= 1
        R.emit(g, E.Siege("siege", choice.player, pos, 1))


# --------------------------------------------------------------------------- Industry commands


def _bombard_targets(g: GameState, p: int, src: int) -> list[Targets]:
    return [(v.id,) for v in _ships(g, lambda v: v.owner == p and g.sites[v.pos].owner not in (NOBODY, p))]


def _bombard(g: GameState, p: int, src: int, t: Targets) -> None:
    v = g.vessels[t[0]]
    site = g.sites[v.pos]
    removed = min(R.attack(g, v), site.devs - 1)
    if removed > 0:
        site.devs -= removed
        R.emit(g, E.Siege("siege", p, v.pos, removed))


register("Orbital Bombardment", targets=_bombard_targets, resolve=_bombard)

register("Trade Envoy",
         targets=lambda g, p, src: [(pos,) for pos in range(len(g.sites))],
         resolve=lambda g, p, src, t: R.gain(g, p, 2 * g.sites[t[0]].devs))


def _barrage_targets(g: GameState, p: int, src: int) -> list[Targets]:
    foes_at = {o.pos for o in g.vessels.values() if o.owner != p}  # one pass, not one per vessel
    return [(v.id,) for v in _vessels(g, lambda v: v.owner == p and R.attack(g, v) > 0) if v.pos in foes_at]


def _barrage(g: GameState, p: int, src: int, t: Targets) -> None:
    v = g.vessels[t[0]]
    dmg = R.attack(g, v)
    for o in [o for o in g.vessels.values() if o.pos == v.pos and o.owner != p]:
        R.deal_damage(g, o, dmg)


register("Barrage", targets=_barrage_targets, resolve=_barrage)


def _ram_targets(g: GameState, p: int, src: int) -> list[Targets]:
    out: list[Targets] = []
    for s in _ships(g, lambda v: v.owner == p and R.targetable(g, v, True)):
        out.extend((s.id, o.id) for o in g.vessels.values()
                   if o.pos == s.pos and o is not s and R.targetable(g, o, True))
    return out


def _ram(g: GameState, p: int, src: int, t: Targets) -> None:
    ship, target = g.vessels[t[0]], g.vessels[t[1]]
    hp = R.max_hp(g, ship)
    R.destroy(g, ship)
    R.deal_damage(g, target, hp)


register("Ram", targets=_ram_targets, resolve=_ram)


def _corvette_room(g: GameState, p: int) -> int:
    """How many Corvettes ``p`` may still get: supply, then BUILD-4's cap in standard."""
    room = len(g.supply["Corvette"])
    if g.ed.ship_cap:
        room = min(room, R.total_devs(g, p) - R.ship_count_for_cap(g, p))
    return max(0, room)


def _mass_targets(g: GameState, p: int, src: int) -> list[Targets]:
    """(system, how many): up to three, as far as the supply and the ship cap allow."""
    most = min(3, _corvette_room(g, p))
    return [(pos, n) for pos, s in enumerate(g.sites)
            if s.owner == p and R.build_banned(g, p, pos, True) is None for n in range(1, most + 1)]


def _mass_production(g: GameState, p: int, src: int, t: Targets) -> None:
    for _ in range(min(t[1], _corvette_room(g, p))):
        R.build(g, p, "Corvette", t[0])


def _mass_valid(g: GameState, p: int, src: int, t: Targets) -> bool:
    """RESP-3: the system must still be a legal place; fewer Corvettes may fit by now."""
    pos = t[0]
    return g.sites[pos].owner == p and R.build_banned(g, p, pos, True) is None


register("Mass Production", targets=_mass_targets, resolve=_mass_production, valid=_mass_valid)


def _any_vessel(g: GameState, p: int, src: int) -> list[Targets]:
    return [(v.id,) for v in _vessels(g, lambda v: R.targetable(g, v, True))]


def _max_firepower(g: GameState, p: int, src: int, t: Targets) -> None:
    L.add(g, L.Kind.ATTACK, t[0], src, p, L.Until.END_OF_TURN, 2)
    L.add(g, L.Kind.TARGETS, t[0], src, p, L.Until.END_OF_TURN, 1)


register("Maximum Firepower", targets=_any_vessel, resolve=_max_firepower)

# --------------------------------------------------------------------------- Statecraft commands


def _spy(g: GameState, p: int, src: int, t: Targets) -> None:
    q = t[0]
    R.emit(g, E.Reveal("reveal", q, tuple(g.hands[q])))
    if g.hands[q]:
        _ask(g, p, "Spy Network", q, list(g.hands[q]))


register("Spy Network",
         targets=lambda g, p, src: [(q,) for q in range(g.cfg.players) if q != p and g.alive[q]],
         resolve=_spy)


@choice_handler("Spy Network")
def _spy_choice(g: GameState, choice: Choice, cid: int) -> None:
    assert choice.ctx is not None, "Spy Network asks about the player whose hand it shows"
    push(g, T.Receive(choice.player, cid, choice.ctx))




register("Intercept Orders",
         targets=lambda g, p, src: [(item[2],) for item in g.stack
                                    if item[0] == "card" and g.rules.cards[item[2]].is_command],
         resolve=lambda g, p, src, t: cancel_item(g, t[0]))


def _sabotage_targets(g: GameState, p: int, src: int) -> list[Targets]:
    mine = {v.pos for v in g.vessels.values() if v.owner == p}
    return [(v.id,) for v in _vessels(g, lambda v: v.pos in mine and R.targetable(g, v, True))]


register("Sabotage", targets=_sabotage_targets, resolve=lambda g, p, src, t: R.destroy(g, g.vessels[t[0]]))


def _move_targets(g: GameState, ships: list[Vessel], dests: Callable[[Vessel], Iterable[int]]) -> list[Targets]:
    out: list[Targets] = []
    for v in ships:
        for dest in dests(v):
            if R.can_enter(g, v, dest):
                for e in R.explore_options(g, dest):  # a loop: asked while the card is in hand
                    out.append((v.id, dest, e))
    return out


def _bribery_targets(g: GameState, p: int, src: int) -> list[Targets]:
    ships = _ships(g, lambda v: v.owner != p and R.targetable(g, v, True))
    return _move_targets(g, ships, lambda v: neighbours(g.cfg.size)[v.pos])


def _move(g: GameState, p: int, src: int, t: Targets) -> None:
    vid, dest, explore = t
    R.enter(g, g.vessels[vid], dest, R.must_explore(g, dest, explore))


register("Bribery", targets=_bribery_targets, resolve=_move)


def _filibuster(g: GameState, p: int, src: int, t: Targets) -> None:
    L.add(g, L.Kind.EXTRA_TURN, p, src, p, L.Until.USED)


# RULING: Filibuster is played in your own turn (the extra turn follows it).
register("Filibuster", targets=lambda g, p, src: [()] if p == g.active else [], resolve=_filibuster)

# --------------------------------------------------------------------------- Science commands

register("Explore the Unknown", resolve=lambda g, p, src, t: _draw(g, p, 2))
register("Jump Stabilization", targets=lambda g, p, src: [(pos,) for pos in range(len(g.sites))],
         resolve=lambda g, p, src, t: L.add(g, L.Kind.LONG_JUMP, t[0], src, p, L.Until.END_OF_TURN))


def _interdict(g: GameState, p: int, src: int, t: Targets) -> None:
    L.add(g, L.Kind.NO_JUMP, t[0], src, p, L.Until.READY)  # until p's next Ready phase


register("Interdiction", targets=lambda g, p, src: [(pos,) for pos in range(len(g.sites))],
         resolve=_interdict)


def _raise_shields(g: GameState, p: int, src: int, t: Targets) -> None:
    L.add(g, L.Kind.HP, t[0], src, p, L.Until.END_OF_TURN, 2)
    L.add(g, L.Kind.MAY_REDIRECT, t[0], src, p, L.Until.END_OF_TURN)


register("Raise Shields", targets=_any_vessel, resolve=_raise_shields)


def _evasion(g: GameState, p: int, src: int, t: Targets) -> None:
    L.add(g, L.Kind.SHIELD, t[0], src, p, L.Until.END_OF_TURN)


def _evasion_targets(g: GameState, p: int, src: int) -> list[Targets]:
    ships = _ships(g, lambda v: R.targetable(g, v, True))
    return [(v.id,) for v in ships]


register("Evasion", targets=_evasion_targets, resolve=_evasion)

# --------------------------------------------------------------------------- abilities


def _railgun_targets(g: GameState, p: int, src: int) -> list[Targets]:
    amounts = range(1, g.credits[p] + 1)
    if not amounts:  # asked at every priority round: no credits, no vessel to look at
        return []
    return [(v.id, x) for v in g.vessels.values() if v.owner == p and R.targetable(g, v, False)
            for x in amounts]


def _own_targetable(g: GameState, p: int, vid: int) -> bool:
    v = g.vessels.get(vid)
    return v is not None and v.owner == p and R.targetable(g, v, False)


def _railgun(g: GameState, p: int, src: int, t: Targets) -> None:
    L.add(g, L.Kind.ATTACK, t[0], src, p, L.Until.END_OF_TURN, t[1])


register("Railgun Turrets", cost="credits", targets=_railgun_targets, resolve=_railgun,
         valid=lambda g, p, src, t: _own_targetable(g, p, t[0]))


def _exp_shields(g: GameState, p: int, src: int, t: Targets) -> None:
    L.add(g, L.Kind.SHIELD, t[0], src, p, L.Until.END_OF_TURN)
    L.add(g, L.Kind.UNTARGETABLE, t[0], src, p, L.Until.END_OF_TURN)


def _exp_shields_targets(g: GameState, p: int, src: int) -> list[Targets]:
    vessels = _vessels(g, lambda v: R.targetable(g, v, False))
    return [(v.id,) for v in vessels]


register("Experimental Shields", cost="discard", resolve=_exp_shields, targets=_exp_shields_targets)


def _drummond_targets(g: GameState, p: int, src: int) -> list[Targets]:
    ships = _ships(g, lambda v: R.targetable(g, v, False) and not L.jump_forbidden(g, v.pos))
    return _move_targets(g, ships, lambda v: [pos for pos in range(len(g.sites)) if pos != v.pos])


# RULING: the ship Drummond sends may be anyone's; the jump uses none of its speed, and
# Interdiction holds it like any other jump.
register("Drummond", cost="discard", targets=_drummond_targets, resolve=_move)

# How clients read each card's target tuple (see ruleset.CardEffect.target_kinds).
register("Orbital Bombardment", target_kinds=("vessel",))
register("Trade Envoy", target_kinds=("pos",))
register("Barrage", target_kinds=("vessel",))
register("Ram", target_kinds=("vessel", "vessel"))
register("Mass Production", target_kinds=("pos", "count"))
register("Maximum Firepower", target_kinds=("vessel",))
register("Spy Network", target_kinds=("player",))
register("Intercept Orders", target_kinds=("card",))
register("Sabotage", target_kinds=("vessel",))
register("Bribery", target_kinds=("vessel", "pos", "explore"))
register("Jump Stabilization", target_kinds=("pos",))
register("Interdiction", target_kinds=("pos",))
register("Raise Shields", target_kinds=("vessel",))
register("Evasion", target_kinds=("vessel",))
register("Railgun Turrets", target_kinds=("vessel", "credits"))
register("Experimental Shields", target_kinds=("vessel",))
register("Drummond", target_kinds=("vessel", "pos", "explore"))
