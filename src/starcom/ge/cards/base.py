"""The effect unit every Galactic Empires card starts from, and the small shared kinds.

An :class:`Effect` answers the rules' questions about the card it belongs to ("how much
stronger is the card you sit on?", "where may you be played?", "what does your function do?").
The defaults are what a card without rules text does; a card with its own rules overrides only
the questions its text answers. The rules reach a card's unit through the ruleset its game's
state holds (:mod:`starcom.ge.ruleset`).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TYPE_CHECKING

from .catalogue import POINT_TYPES

if TYPE_CHECKING:
    from ..state import State, Unit

NONE: Final = (0,) * len(POINT_TYPES)
ECONOMY, SUPPLY, ENERGY, AMMO, RESEARCH, REPAIR = range(len(POINT_TYPES))


def _board() -> Any:
    from .. import board  # the board asks the effects, and the effects the board
    return board


class Effect:
    """A card with no rules of its own: its numbers do everything."""

    key = ""

    # --- where it goes (GE-PLAY-3) and what happens as it enters
    def placements(self, s: State, seat: int, uid: int) -> list[int]:
        """Locations (uids) and fleets (``-1 - seat``) this card may be played to by ``seat``."""
        b = _board()
        kind = s.spec(uid).kind
        own = b.fleet(s, seat)
        if kind == "terrain":
            return [-1 - seat]
        if kind == "ship":
            return [-1 - seat] + [u.uid for u in own if s.spec(u.uid).kind == "terrain"]
        if kind == "base":
            return [u.uid for u in own if s.spec(u.uid).kind == "terrain"]
        if kind == "crew":
            return [u.uid for u in own if s.spec(u.uid).kind in ("ship", "base", "terrain")
                    and b.basis(s, u.uid) == u.uid]
        if kind == "equipment":
            return [u.uid for u in own if b.is_unit(s, u.uid) and b.basis(s, u.uid) == u.uid]
        return []

    def enter(self, s: State, u: Unit) -> None:
        """The card has just come into play (its play resolved)."""

    def least_slots(self, s: State, seat: int, uid: int) -> int:
        """[F] Half command slots the cheapest play of this unit card from hand adds (GE-CMD-2)."""
        return int(_board().half_slots(s.spec(uid).strength))

    # --- numbers it changes on the card it sits on or against
    def strength_bonus(self, s: State, u: Unit, target: int) -> int:
        return 0

    def cost_delta(self, s: State, u: Unit, target: int) -> Sequence[int]:
        return NONE

    def phaser_cap(self, s: State, u: Unit, phasers: int) -> int:
        """How many of its own phasers may fire (the card asked about itself)."""
        return phasers

    def disables(self, s: State, u: Unit, target: int) -> bool:
        """Is ``target`` treated as disengaged because of this card (GE-ENG-6)?"""
        return False

    def disengages(self, s: State, u: Unit, target: int) -> bool:
        """Does this card actually turn ``target`` disengaged while it stays (Illness)?"""
        return False

    def unprotects(self, s: State, u: Unit, target: int) -> bool:
        """Does ``target`` (a ship) stop protecting its Sector HQ because of this card?"""
        return False

    def blocks_phasers(self, s: State, u: Unit) -> bool:
        """Does phaser fire from the unit this card is on do no damage (GE-FIRE-12)?"""
        return False

    def heavy_bonus(self, s: State, u: Unit, shooter: int) -> int:
        return 0

    def volley_reduction(self, s: State, u: Unit, target: int) -> int:
        return 0

    def absorb(self, s: State, u: Unit, target: int, amount: int, kind: str) -> int:
        """Damage of ``kind`` about to hit ``target`` passes this card first; what is left."""
        return amount

    def takes_lethal_point(self, s: State, u: Unit, target: int) -> bool:
        return False

    def fired(self, s: State, u: Unit, shooter: int) -> None:
        """The card it sits on has just fired its heavy weapons in a volley."""

    # --- as a target of weapons (GE-FIRE-8)
    def targetable(self, s: State, u: Unit) -> bool:
        return False

    def phaser_proof(self, s: State, u: Unit) -> bool:
        return False

    def may_fire_at(self, s: State, u: Unit, target: int) -> bool:
        return True

    # --- points (GE-ALLOC-*)
    def produces(self, s: State, u: Unit) -> Sequence[int]:
        """Points it adds to its owner's pool this Allocation phase (GE-ALLOC-4)."""
        spec = s.spec(u.uid)
        if not any(spec.generates):
            return NONE
        b = _board()
        if spec.kind == "terrain" or (spec.kind == "equipment" and spec.passive) or b.works(s, u.uid) \
                or (b.has_cost(s, u.uid) and u.paid):
            return spec.generates
        return NONE

    def terrain_bonus(self, s: State, u: Unit) -> tuple[int | None, Sequence[int]]:
        """A terrain whose output this card raises once paid, and by what (GE-ALLOC-6)."""
        return None, NONE

    def doubles(self, s: State, u: Unit, what: str) -> bool:
        return False

    def repairable(self, s: State, u: Unit) -> bool:
        return s.spec(u.uid).kind in ("ship", "base", "terrain")

    def research_negates(self, s: State, u: Unit) -> bool:
        return False

    def allocation_uses(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        return []

    def engagement(self, s: State, u: Unit) -> None:
        """In its controller's Engagement phase, after every card's state is set."""

    def mission_step(self, s: State, item: Any) -> None:
        """A later step of a there-and-back mission this card carries (GE-MISSION-5)."""

    # --- reactions (GE-REACT-3, GE-REACT-4)
    def reaction_plays(self, s: State, seat: int, uid: int) -> list[tuple[Any, ...]]:
        """This reaction card's plays in reaction mode now, as ``("play", uid, location,
        *choices)`` (none: it may not be played as a reaction, GE-REACT-3)."""
        return []

    def reaction_places(self, s: State, seat: int, uid: int) -> list[int]:
        """Where a reaction play of this card may still land when it resolves: the normal
        placement rules of its type (GE-REACT-3, GE-PLAY-5). Whether its function still works
        is a separate question, asked as it enters (a failed function is voided, GE-VOID-1)."""
        return self.placements(s, seat, uid)

    def enter_reacting(self, s: State, u: Unit, choices: tuple[Any, ...]) -> None:
        """It came into play as a reaction: what it does as it enters (GE-ACT-5)."""
        self.enter(s, u)

    def announce_reacting(self, s: State, seat: int, action: tuple[Any, ...]) -> None:
        """A reaction play of this card has just been put on the chain."""

    def pair_plays(self, s: State, seat: int, uid: int, crew: int) -> list[tuple[Any, ...]]:
        """Reaction plays of this card (a transport in hand) together with the reaction crew
        card ``crew`` from the same hand, as one reaction (GE-MISSION-8)."""
        return []

    def mission_uses(self, s: State, owner: int, target: int) -> list[tuple[Any, ...]]:
        """What this crew card of ``owner`` could do at location ``target`` if carried there
        (step 2 of a there-and-back mission, GE-MISSION-5), as argument tuples."""
        return []

    def ignores(self, s: State, u: Unit, seat: int, place: int) -> bool:
        """Does this card in play make a card play of ``seat`` aimed at ``place`` be ignored as
        it resolves, by its own text, with no one asked (Lucky Crew Action)? The card then
        leaves play with it."""
        return False

    def reaction_uses(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        """Its "as a reaction" functions usable now, as argument tuples (asked only while the
        card works; a function limited to once a turn checks ``u.used`` itself, GE-ACT-1)."""
        return []

    # --- card plays other than playing one card to a location (Krebiz combining)
    def hand_plays(self, s: State, seat: int, uid: int) -> list[tuple[Any, ...]]:
        """Further card plays this card in hand offers."""
        return []

    def fleet_plays(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        """Card plays this card in play offers."""
        return []

    def announce_extra(self, s: State, seat: int, action: tuple[Any, ...]) -> None:
        """One of those plays is announced (the first card is already out of the hand)."""

    def resolve_extra(self, s: State, seat: int, action: tuple[Any, ...]) -> None:
        """One of those plays resolves."""

    # --- functions used in a card-play phase (GE-ACT-*)
    def uses(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        return []

    def use(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        """Carry out a function announced earlier (re-checking it: a failed check voids it)."""


class _Against(Effect):
    """A card played against a card of some kinds (hazards, monsters, occurrences)."""

    kinds: tuple[str, ...] = ()

    def placements(self, s: State, seat: int, uid: int) -> list[int]:
        return [t.uid for t in s.units.values() if s.spec(t.uid).kind in self.kinds
                and _board().basis(s, t.uid) == t.uid and self.fits(s, seat, t)]

    def fits(self, s: State, seat: int, t: Unit) -> bool:
        return True


class _DisablesCrew(_Against):
    """Space Vertigo and Illness: the crew it is against performs no function while it lasts."""

    kinds: tuple[str, ...] = ("crew",)

    def disables(self, s: State, u: Unit, target: int) -> bool:
        return u.parent == target


def _at_location(s: State, uid: int) -> list[Unit]:
    """Cards "at the location" of ``uid`` (the Doctor's sense): on or against the card ``uid``
    is on, or on anything sitting on that card."""
    b = _board()
    place = s.units[uid].parent
    if place is None:
        return []
    return [c for c in b.stack(s, place) if c.uid != place]
