"""The Argonian Warm Front Escort (S2): its "as a reaction" interception (GE-SHIPS-2).

Once per complete turn, while it works, the Escort may answer an opponent's event that is about
to damage a ship of strength 7 or more of the Escort's own fleet (a ruling of cards.md). The
reaction names the ship and how many points to take over. When the reaction resolves it leaves
a marker item (kind ``intercept``) on the chain directly under that event; the damage pipeline
(:func:`starcom.ge.combat.hit`, step (2) of GE-DMG-3) finds it on top of the chain while the event
resolves, takes the points off that one application and deals the Escort twice as many of the
same kind. A marker that finds nothing to take resolves with no effect. No Argonian ship of
Deck A reaches strength 7, so in Deck A the ability never triggers.
"""
from __future__ import annotations

from typing import Any, Final, TYPE_CHECKING

from .. import events as E
from .base import Effect, _board

if TYPE_CHECKING:
    from ..state import Item, State, Unit

BIG: Final = 7  # the least strength of a ship the Escort may cover


def incoming(s: State, item: Item, ship: int) -> int:
    """Damage an unresolved event of the chain would bring to ``ship`` as declared, before the
    ship's defences; 0 when the event does not damage it."""
    from ..combat import damage_of
    a = item.action
    if item.void:
        return 0
    if item.kind == "fire" and a[1] == ship:
        return sum(damage_of(s, w, k, ship) for w, k in a[2] if w in s.units)
    if item.kind == "use" and len(a) > 2 and a[2] == "damage" and a[1] in s.units:
        card = s.units[a[1]]
        fleet = -1 - s.units[ship].owner
        if card.parent in (ship, fleet):  # against the ship, or against its whole fleet
            return s.spec(a[1]).card_damage
        return 0
    if item.kind == "act" and len(a) > 4 and a[4] == "hull" and a[1] in s.units \
            and s.units[a[1]].parent == ship:
        return 1  # a Boarding Party's structural point, aboard the ship
    return 0


def _event(s: State, owner: int, ship: int) -> int | None:
    """Chain index of the newest unresolved event of ``owner``'s opponent that would damage
    ``ship``, or None."""
    for i in range(len(s.chain) - 1, -1, -1):
        item = s.chain[i]
        if item.player != owner and item.kind != "intercept" and incoming(s, item, ship) > 0:
            return i
    return None


def _covered(s: State, u: Unit) -> list[int]:
    """Ships of the Escort's own fleet it may cover now: strength 7 or more, not itself."""
    b = _board()
    return [v.uid for v in b.fleet(s, u.owner) if v.uid != u.uid and b.is_ship(s, v.uid)
            and b.basis(s, v.uid) == v.uid and b.strength(s, v.uid) >= BIG]


class Escort(Effect):
    """GE-SHIPS-2: ``("intercept", ship, n)``, as a reaction: up to ``n`` points of the damage
    about to hit ``ship`` go to the Escort instead, two points on it for each."""

    def reaction_uses(self, s: State, u: Unit) -> list[tuple[Any, ...]]:
        """One option per covered ship under threat and per number of points, from 1 to what
        the newest threatening event would bring as declared."""
        if u.used or not _board().works(s, u.uid):
            return []
        out: list[tuple[Any, ...]] = []
        for ship in _covered(s, u):
            index = _event(s, u.owner, ship)
            if index is not None:
                most = incoming(s, s.chain[index], ship)
                out += [("intercept", ship, n) for n in range(1, most + 1)]
        return out

    def use(self, s: State, u: Unit, args: tuple[Any, ...]) -> None:
        """The reaction resolves: checked again (a failed check voids it, GE-VOID-1), then the
        marker goes under the event it answers."""
        from ..combat import INTERCEPT
        from ..state import Item
        if not args or args[0] != "intercept":
            return
        ship, n = int(args[1]), int(args[2])
        index = _event(s, u.owner, ship) if ship in _covered(s, u) and _board().works(s, u.uid) else None
        if index is None:
            s.say(E.Void("void", u.owner, u.uid))
            return
        s.chain.insert(index, Item(u.owner, INTERCEPT, (INTERCEPT, u.uid, ship, n)))
        s.say(E.Escort("escort", u.uid, ship, n))

