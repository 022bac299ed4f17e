"""Crew, the cards that carry crew, and the cards that answer plays against crew: Doctor,
Boarding Party, Crewman, Lucky Crew Action, Malpractice, Transporter, Shuttlecraft, Escape Pod,
and the there-and-back mission they share (GE-MISSION-*).

A mission is a transport's function ``("mission", crew, target, *crew_choices)``. It is three
reactable events (GE-MISSION-5): the trip out (the function's own event), the crew's function
at the target (``act``), and the trip home (``back``), each put on the chain as the previous
one resolves.
"""
from __future__ import annotations

from typing import Any, Final, TYPE_CHECKING

from .. import events as E
from .base import Effect, _board, _DisablesCrew

if TYPE_CHECKING:
    from ..state import Item, State, Unit

MAX_MOVED: Final = 3  # crew a shuttlecraft carries at most (GE-MISSION-3)


def places(s: State, seat: int) -> list[int]:
    """``seat``'s locations: its ships, bases and terrain (a combination as one)."""
    b = _board()
    return [u.uid for u in b.fleet(s, seat) if s.spec(u.uid).kind in ("ship", "base", "terrain")
            and b.basis(s, u.uid) == u.uid and not u.against]


def crew_on(s: State, loc: int) -> list[int]:
    return sorted(u.uid for u in _board().on(s, loc) if s.spec(u.uid).kind == "crew")


def pending_against(s: State, victim: int) -> list[Item]:
    """Unresolved card plays of the other seat aimed at card ``victim`` (GE-PLAY-5)."""
    owner = s.units[victim].owner
    return [i for i in s.chain if i.kind == "play" and i.player != owner and not i.void
            and len(i.action) > 2 and i.action[2] == victim]


def _illnesses(s: State, doctor_place: int) -> list[int]:
    b = _board()
    return [c.uid for c in b.stack(s, doctor_place) if c.uid != doctor_place
            and s.spec(c.uid).cls == "illness"]


def own_crew_on(s: State, loc: int, owner: int) -> list[int]:
    """``owner``'s crew on ``loc``, by uid: what a move's crew mask counts over (a visiting crew
    of the other seat is never carried by this seat's transport)."""
    return [c for c in crew_on(s, loc) if s.units[c].owner == owner]


def _masks(n: int, most: int | None = None, empty: bool = False) -> list[int]:
    """Crew masks over ``n`` crew: every subset (of at most ``most`` crew), the empty one only
    if ``empty``."""
    return [m for m in range(0 if empty else 1, 1 << n) if most is None or m.bit_count() <= most]


def _picked(crew: list[int], mask: int) -> list[int]:
    return [c for i, c in enumerate(crew) if mask >> i & 1]


def _is_place(s: State, uid: int) -> bool:
    """Can ``uid`` hold crew: a unit or terrain in play, a combination counted once?"""
    return uid in s.units and s.spec(uid).kind in ("ship", "base", "terrain") and _board().basis(s, uid) == uid


class Doctor(Effect):
    """Research each turn (its numbers); a function that discards illness at its location; a
    rule that keeps illness from being played there (GE-VOID-2 voids a pending one)."""

    def uses(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        return [("cure",)] if u.parent is not None and _illnesses(s, u.parent) else []

    def use(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        cure(s, u, u.parent)

    def mission_uses(self, s: State, owner: int, target: int) -> list[tuple[Any, ...]]:
        return [("cure",)] if _illnesses(s, target) else []

    def reaction_plays(self, s: State, seat: int, uid: int) -> list[tuple[Any, ...]]:
        """As a reaction (GE-REACT-3, GE-REACT-9): onto a location where it cures an illness at
        once or where its rule voids a pending one; or anywhere, spending the research point
        it makes as it enters on negating an Illness against one of ``seat``'s crew."""
        out: list[tuple[Any, ...]] = []
        sick = _ill_crew_cards(s, seat)
        for loc in places(s, seat):
            crews = crew_on(s, loc)
            if _illnesses(s, loc) or any(
                    s.spec(i.action[1]).cls == "illness" for c in crews for i in pending_against(s, c)):
                out.append(("play", uid, loc))
            out += [("play", uid, loc, "research", ill) for ill in sick]
        return out

    def enter_reacting(self, s: State, u: Unit, choices: tuple[Any, ...]) -> None:
        if choices and choices[0] == "research":
            negate_with_research(s, u, int(choices[1]))
        elif u.parent is not None:
            cure(s, u, u.parent)


def _ill_crew_cards(s: State, seat: int) -> list[int]:
    """Illness cards in play against ``seat``'s crew: what its research may negate."""
    return sorted(c.uid for c in s.units.values() if s.spec(c.uid).cls == "illness" and c.parent in s.units
                  and s.units[c.parent].owner == seat and s.effect(c).research_negates(s, c))


def negate_with_research(s: State, doctor: Unit, illness: int) -> None:
    """GE-REACT-9: the research point a Doctor makes as it enters in reaction mode negates an
    Illness of strength 1 (checked again now; a point nothing can take is lost). It goes
    nowhere else: such points never pay for engaging a card."""
    if illness not in _ill_crew_cards(s, doctor.owner) or s.spec(illness).strength > sum(s.spec(doctor.uid).generates):
        s.say(E.Void("void", doctor.owner, doctor.uid))
        return
    s.say(E.Negate("negate", doctor.owner, illness))
    _board().leave(s, illness)


def cure(s: State, doctor: Unit, place: int | None) -> None:
    if place is None or place not in s.units or not _board().works(s, doctor.uid):
        s.say(E.Void("void", doctor.owner, doctor.uid))
        return
    for c in _illnesses(s, place):
        s.say(E.Cure("cure", doctor.uid, c))
        _board().leave(s, c)


class BoardingParty(Effect):
    """At its location (reached by a mission to act on an opponent's card), one of: a point of
    structural damage to the ship or base, capturing a crew or destroying an equipment of
    strength 1 or less; only the opponent's cards (rulings in cards.md)."""

    def uses(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        return self.mission_uses(s, u.owner, u.parent) if u.parent is not None else []

    def mission_uses(self, s: State, owner: int, target: int) -> list[tuple[Any, ...]]:
        if target not in s.units or s.units[target].owner == owner:
            return []
        b = _board()
        out: list[tuple[Any, ...]] = []
        if b.is_unit(s, target):
            out.append(("hull",))
        for c in b.on(s, target):
            spec = s.spec(c.uid)
            if c.owner != owner and spec.strength <= 1 and spec.kind in ("crew", "equipment"):
                out.append(("capture" if spec.kind == "crew" else "wreck", c.uid))
        return out

    def use(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        from ..combat import hit
        where = u.parent
        if where is None or where not in s.units or tuple(args) not in self.mission_uses(s, u.owner, where):
            s.say(E.Void("void", u.owner, u.uid))
            return
        if args[0] == "hull":
            hit(s, where, 1, "structural", u.owner)
        else:
            s.say(E.Capture("capture", u.uid, args[1]) if args[0] == "capture" else E.Wreck("wreck", u.uid, args[1]))
            _board().leave(s, args[1])


class Crewman(Effect):
    """In reaction mode it takes the place of a crew an opponent's card is aimed at or sits
    against; the opponent's card then goes to the Crewman."""

    def reaction_plays(self, s: State, seat: int, uid: int) -> list[tuple[Any, ...]]:
        b = _board()
        out = []
        for u in b.fleet(s, seat):
            if s.spec(u.uid).kind != "crew" or u.parent is None:
                continue
            if pending_against(s, u.uid) or any(c.owner != seat for c in b.on(s, u.uid)):
                out.append(("play", uid, u.uid))
        return out

    def reaction_places(self, s: State, seat: int, uid: int) -> list[int]:
        """It is announced onto the crew it stands in for, and enters at that crew's location:
        that crew must still be in play, in ``seat``'s fleet, somewhere."""
        return [u.uid for u in _board().fleet(s, seat) if s.spec(u.uid).kind == "crew" and u.parent in s.units]

    def enter_reacting(self, s: State, u: Unit, choices: tuple[Any, ...]) -> None:
        b = _board()
        replaced = u.parent
        assert replaced is not None
        u.parent = s.units[replaced].parent
        for item in pending_against(s, replaced):
            item.action = (item.action[0], item.action[1], u.uid, *item.action[3:])
        for c in b.on(s, replaced):
            if c.owner != u.owner:
                c.parent = u.uid
        for crew in (replaced, u.uid):  # GE-DUR-5: the freed crew engages again, the stand-in may not
            s.units[crew].engaged = not any(s.effect(c).disengages(s, c, crew) for c in b.on(s, crew))
        s.say(E.StandIn("stand-in", u.uid, replaced))


class LuckyCrewAction(Effect):
    """On one of its owner's crew: the first opponent card play against that crew is ignored
    (the card discarded, the play still counted), and this card is discarded with it.

    In play it has no reaction of its own (GE-REACT-4: its text has no "as a reaction"
    function): nobody is asked; its text does the work by itself as that play resolves
    (:meth:`ignores`). Played from hand as a reaction, it goes onto the crew a pending
    opponent play targets and cancels that play (GE-REACT-3)."""

    def placements(self, s: State, seat: int, uid: int) -> list[int]:
        return [u.uid for u in _board().fleet(s, seat) if s.spec(u.uid).kind == "crew"]

    def reaction_plays(self, s: State, seat: int, uid: int) -> list[tuple[Any, ...]]:
        return [("play", uid, c) for c in self.placements(s, seat, uid) if pending_against(s, c)]

    def enter_reacting(self, s: State, u: Unit, choices: tuple[Any, ...]) -> None:
        self.use(s, u, ("cancel",))

    def ignores(self, s: State, u: Unit, seat: int, place: int) -> bool:
        return u.parent == place and seat != u.owner and s.spec(place).kind == "crew"

    def use(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        """Cancel the newest pending opponent play against its crew, then go (it is discarded
        only once it has ignored a play; with nothing left to cancel the use is voided and the
        card stays on its crew for the next one)."""
        found = pending_against(s, u.parent) if u.parent is not None and u.parent in s.units else []
        if not found:
            s.say(E.Void("void", u.owner, u.uid))
            return
        found[-1].void = True
        s.say(E.Lucky("lucky", u.uid, found[-1].action[1]))
        _board().leave(s, u.uid)


def _doctor_pending(s: State, doctor: int) -> bool:
    """Is something of Doctor ``doctor``'s owner on the chain that the Doctor's research or
    function is part of: an allocation, its own function, or a there-and-back mission that
    carries it (GE-MISSION-5, any of the three steps)?"""
    owner = s.units[doctor].owner
    for i in s.chain:
        a = i.action
        if i.player != owner or i.void:
            continue
        if i.kind == "allocate" or (i.kind in ("use", "act") and a[1] == doctor):
            return True
        if i.kind == "use" and len(a) > 3 and a[2] == "mission" and a[3] == doctor:
            return True
    return False


class Malpractice(_DisablesCrew):
    """Against a Doctor: for one complete turn of its player the Doctor does nothing at all."""

    def fits(self, s: State, seat: int, t: Unit) -> bool:
        return s.effect(t).key == "doctor"

    def reaction_plays(self, s: State, seat: int, uid: int) -> list[tuple[Any, ...]]:
        """As a reaction: against a Doctor whose research is in the allocation being declared,
        or whose function is on the chain."""
        return [("play", uid, t.uid) for t in s.units.values()
                if t.owner != seat and s.effect(t).key == "doctor" and _doctor_pending(s, t.uid)]

    def enter_reacting(self, s: State, u: Unit, choices: tuple[Any, ...]) -> None:
        """Against an allocation being declared, the Doctor's research point is taken back
        (GE-ALLOC-15); against its function on the chain, that use will find it disabled."""
        from ..points import RESEARCH, withdraw
        doctor = u.parent
        if doctor is None or doctor not in s.units:
            return
        d = s.units[doctor]
        produced = d.engaged and not any(s.effect(c).disables(s, c, doctor) for c in _board().on(s, doctor)
                                         if c.uid != u.uid)  # only a Doctor that worked made its point
        if produced and any(i.kind == "allocate" and i.player == d.owner for i in s.chain):
            withdraw(s, d.owner, RESEARCH, sum(s.spec(doctor).generates))


class _Transport(Effect):
    """Transporter and Shuttlecraft: move crew, or send one on a there-and-back mission.

    Functions are re-checked when they resolve (GE-ACT-6): a move or mission that is no longer
    legal then is voided (it still counts as used, GE-ACT-1). A move's crew mask counts over
    the owner's crew on the source location, by uid, as they are when the move resolves."""

    shielded_stop = True  # the Transporter cannot reach an opponent's card with shields up

    def mission_step(self, s: State, item: Any) -> None:
        (mission_act if item.kind == "act" else mission_back)(s, item)

    def reachable(self, s: State, owner: int, target: int) -> bool:
        """May this transport of ``owner`` carry a crew to ``target`` (GE-MISSION-2, -3)?"""
        if not self.shielded_stop or s.units[target].owner == owner:
            return True
        return bool(_board().shields(s, target) - s.units[target].shield_damage <= 0)

    def targets(self, s: State, owner: int, here: int) -> list[int]:
        """Mission destinations from ``here``: any location in play but ``here``, in either
        fleet, that this transport reaches (GE-MISSION-5)."""
        return sorted(t for t in s.units if t != here and _is_place(s, t) and self.reachable(s, owner, t))

    def missions(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        """Missions for a crew of its owner at its location that could use its function at the
        destination (engaged and not disabled, GE-MISSION-6)."""
        b = _board()
        out: list[tuple[Any, ...]] = []
        if u.parent is None or u.parent not in s.units:
            return out
        for crew in own_crew_on(s, u.parent, u.owner):
            if not b.works(s, crew):
                continue
            for target in self.targets(s, u.owner, u.parent):
                out += [("mission", crew, target, *args)
                        for args in s.effect(s.units[crew]).mission_uses(s, u.owner, target)]
        return out

    def mission_ok(self, s: State, u: Unit, crew: int, target: int) -> bool:
        """Step 1 may still happen: the crew is one of the owner's at the transport's location
        and the destination is still a reachable location elsewhere."""
        c = s.units.get(crew)
        return (c is not None and u.parent is not None and c.owner == u.owner and c.parent == u.parent
                and target in self.targets(s, u.owner, u.parent))

    def use(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        if args and args[0] == "mission":
            if not self.mission_ok(s, u, args[1], args[2]):
                s.say(E.Void("void", u.owner, u.uid))
                return
            start_mission(s, u, args)
        elif args and args[0] == "move":
            self.move(s, u, args)

    def move(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        raise NotImplementedError

    def pair_plays(self, s: State, seat: int, uid: int, crew: int) -> list[tuple[Any, ...]]:
        """GE-MISSION-8: ``("play", transport, here, "with", crew, target, *crew_choices)``:
        the transport and a reaction crew card from the hand enter ``here`` together, and the
        transport at once sends the crew on a there-and-back mission to ``target``, where it
        uses its function (GE-MISSION-5). A crew card without R/ never qualifies."""
        spec = s.spec(crew)
        if spec.kind != "crew" or not spec.reaction:
            return []
        crew_effect = s.effect_of(crew)
        crew_places = set(crew_effect.placements(s, seat, crew))
        out: list[tuple[Any, ...]] = []
        for here in self.placements(s, seat, uid):
            if here not in crew_places:
                continue
            for target in self.targets(s, seat, here):
                out += [("play", uid, here, "with", crew, target, *args)
                        for args in crew_effect.mission_uses(s, seat, target)]
        return out

    def enter_reacting(self, s: State, u: Unit, choices: tuple[Any, ...]) -> None:
        if choices and choices[0] == "with":
            crew, target, rest = choices[1], choices[2], list(choices[3:])  # (no starred unpacking in mypyc)
            if crew not in s.units or not self.mission_ok(s, u, crew, target):
                s.say(E.Void("void", u.owner, u.uid))
                return
            start_mission(s, u, ("mission", crew, target, *rest))
        elif choices and choices[0] == "fire":
            self.fire_reacting(s, u, int(choices[1]))
        else:
            self.move(s, u, choices)

    def fire_reacting(self, s: State, u: Unit, target: int) -> None:
        s.say(E.Void("void", u.owner, u.uid))  # only the shuttlecraft has a phaser


class Transporter(_Transport):
    def placements(self, s: State, seat: int, uid: int) -> list[int]:
        return places(s, seat)

    def moves(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        """Any number of its owner's crew between its own location and another of its owner's
        locations, either way (GE-MISSION-2, GE-MISSION-4)."""
        if u.parent is None or u.parent not in s.units:
            return []
        return self._moves(s, u.owner, u.parent)

    def _moves(self, s: State, owner: int, here: int) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        away = _masks(len(own_crew_on(s, here, owner)))
        for there in places(s, owner):
            if there == here:
                continue
            out += [("move", here, there, m) for m in away]
            out += [("move", there, here, m) for m in _masks(len(own_crew_on(s, there, owner)))]
        return out

    def uses(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        return self.moves(s, u) + self.missions(s, u)

    def move(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        _, source, dest, mask = args
        own = places(s, u.owner)
        if source == dest or source not in own or dest not in own or u.parent not in (source, dest):
            s.say(E.Void("void", u.owner, u.uid))
            return
        crew = own_crew_on(s, source, u.owner)
        if mask >= 1 << len(crew):
            s.say(E.Void("void", u.owner, u.uid))
            return
        for c in _picked(crew, mask):
            s.units[c].parent = dest
            s.say(E.Move("move", c, dest))

    def reaction_plays(self, s: State, seat: int, uid: int) -> list[tuple[Any, ...]]:
        """As a reaction it enters and at once moves crew between where it enters and another
        of its owner's locations, either way (its other reaction, with a crew card from the
        same hand, is :meth:`pair_plays`). A crew already in play is never sent on a mission
        by it: only a reaction crew card may act on the opponent's turn (GE-MISSION-8)."""
        out: list[tuple[Any, ...]] = []
        for here in places(s, seat):
            out += [("play", uid, here, *move) for move in self._moves(s, seat, here)]
        return out


class Shuttlecraft(_Transport):
    shielded_stop = False

    def uses(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        """Carry 0–3 of its owner's crew to another of its owner's locations, going along; or a
        mission. (Its phaser is fired in the Weapons Fire phase and uses the same once-a-turn.)"""
        if u.parent is None or u.parent not in s.units:
            return []
        out: list[tuple[Any, ...]] = []
        n = len(own_crew_on(s, u.parent, u.owner))
        for there in places(s, u.owner):
            if there != u.parent:
                out += [("move", there, m) for m in _masks(n, MAX_MOVED, empty=True)]
        return out + self.missions(s, u)

    def move(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        _, dest, mask = args
        crew = own_crew_on(s, u.parent, u.owner) if u.parent is not None and u.parent in s.units else []
        if u.parent is None or dest == u.parent or dest not in places(s, u.owner) \
                or mask >= 1 << len(crew) or mask.bit_count() > MAX_MOVED:
            s.say(E.Void("void", u.owner, u.uid))
            return
        for c in _picked(crew, mask):
            s.units[c].parent = dest
            s.say(E.Move("move", c, dest))
        u.parent = dest
        s.say(E.Move("move", u.uid, dest))

    def reaction_plays(self, s: State, seat: int, uid: int) -> list[tuple[Any, ...]]:
        """As a reaction it enters on a unit and at once carries 1–3 crew from there; or, in
        the opponent's Weapons Fire phase once a volley is declared, fires its phaser as it
        enters (GE-REACT-8): a volley of its own at any legal target."""
        b = _board()
        out: list[tuple[Any, ...]] = []
        for here in self.placements(s, seat, uid):
            n = len(own_crew_on(s, here, seat))
            for there in places(s, seat):
                if there != here and n:
                    out += [("play", uid, here, "move", there, m) for m in _masks(n, MAX_MOVED)]
            if b.is_unit(s, here):
                out += [("play", uid, here, "fire", t) for t in _reaction_targets(s, seat, here)]
        return out

    def announce_reacting(self, s: State, seat: int, action: tuple[Any, ...]) -> None:
        if len(action) > 4 and action[3] == "fire":
            s.react_volleyed.append(action[4])  # one reaction volley per target (GE-REACT-8)

    def fire_reacting(self, s: State, u: Unit, target: int) -> None:
        """Its one shot, fired as it enters (it is then empty, GE-FIRE-7)."""
        from ..combat import PHASER, resolve_volley
        u.empty = u.used = True
        resolve_volley(s, u.owner, target, [(u.uid, PHASER)])


def _reaction_targets(s: State, seat: int, here: int) -> list[int]:
    """Targets a shuttlecraft entering on unit ``here`` may fire at as a reaction: only in the
    opponent's Weapons Fire phase, once the opponent has a volley on the chain (GE-REACT-8); any
    legal target but its own carrier, one reaction volley per target; a Sector HQ only in the
    full edition, its carrier being a ship (GE-FIRE-10, GE-QUICK-5)."""
    from ..combat import hq_seat, is_target
    b = _board()
    if s.phase != "fire" or seat == s.active or not any(i.kind == "fire" and i.player == s.active for i in s.chain):
        return []
    out = []
    for t in [-1 - p for p in range(len(s.players))] + sorted(s.units):
        if t == here or t in s.react_volleyed or not is_target(s, t, seat):
            continue
        if hq_seat(t) is not None and not (s.edition == "full" and b.is_ship(s, here)):
            continue
        out.append(t)
    return out


def start_mission(s: State, transport: Unit, args: tuple[Any, ...]) -> None:
    """Step 1 resolves: the crew travels; step 2, its function there, is the next event. The
    steps of a mission a reaction started are reactions too (so the active player may answer
    them, GE-REACT-2)."""
    from ..state import Item
    crew, target, rest = args[1], args[2], list(args[3:])  # (no starred unpacking: mypyc 2.4 mistypes it)
    c = s.units[crew]
    home = c.parent
    c.parent = target
    c.used = True  # GE-MISSION-5: the crew's function is used too
    s.say(E.Travel("travel", crew, target))
    if s.effect(transport).key == "shuttlecraft":
        transport.parent = target
    s.queued.append(Item(c.owner, "act", ("act", crew, home if home is not None else -1, transport.uid, *rest),
                         reaction=c.owner != s.active))


def mission_act(s: State, item: Item) -> None:
    """Step 2: the crew uses its function where it is (voided if it cannot, GE-MISSION-6,
    GE-MISSION-7); the trip home follows whatever happened."""
    from ..state import Item as It
    crew, home, transport, choices = item.action[1], item.action[2], item.action[3], list(item.action[4:])
    c = s.units.get(crew)
    if c is not None and _board().works(s, crew):
        s.effect(c).use(s, c, tuple(choices))
    else:
        s.say(E.Void("void", item.player, crew))
    s.queued.insert(0, It(item.player, "back", ("back", crew, home, transport), reaction=item.reaction))


def mission_back(s: State, item: Item) -> None:
    """Step 3: the crew (and a shuttlecraft, which travels with it) goes home; if home has
    left play, to another of the owner's locations (the first, the default the engine
    proposes, GE-DIG-4), or, with no location left, to the discard pile (GE-MISSION-7). A
    shuttlecraft whose crew is gone still flies home."""
    _, crew, home, transport = item.action
    if home not in s.units or not _is_place(s, home):
        options = places(s, item.player)
        home = options[0] if options else None
    shuttle = s.units.get(transport)
    if shuttle is not None and s.effect(shuttle).key == "shuttlecraft":
        if home is None:
            _board().leave(s, transport)
        else:
            shuttle.parent = home
    c = s.units.get(crew)
    if c is None:
        return
    if home is None:
        _board().leave(s, crew)
        return
    c.parent = home
    s.say(E.Return("return", crew, home))


class EscapePod(Effect):
    """As a reaction, when an opponent's event would destroy its unit: up to three crew there
    leave for another of its owner's locations, and the Pod is discarded."""

    def reaction_uses(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        from ..combat import threatened
        unit = u.parent
        if u.used or unit is None or unit not in s.units or not crew_on(s, unit) or not threatened(s, unit):
            return []
        return [("evacuate", there, mask) for mask in self.masks(s, unit)
                for there in places(s, u.owner) if there != unit]

    def masks(self, s: State, unit: int) -> list[int]:
        """Which crew go, as bitmasks over the unit's crew by uid: the first three first (the
        default the engine proposes, GE-DIG-4), then every other choice of up to three."""
        crew = crew_on(s, unit)
        full = min(len(crew), MAX_MOVED)
        default = (1 << full) - 1
        others = [m for m in range(1, 1 << len(crew)) if m != default and bin(m).count("1") <= MAX_MOVED]
        return [default] + others

    def use(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        unit, dest, mask = u.parent, args[1], args[2]
        if unit is None or unit not in s.units or dest not in s.units:
            s.say(E.Void("void", u.owner, u.uid))
            return
        for i, c in enumerate(crew_on(s, unit)):
            if mask >> i & 1:
                s.units[c].parent = dest
                s.say(E.Move("move", c, dest))
        _board().leave(s, u.uid)

