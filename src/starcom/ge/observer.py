"""What each seat of a Galactic Empires game may see (GE-DIG-2): every view, event and
canonical position comes from here."""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import asdict
from typing import Any, Final, TYPE_CHECKING

from ..observer import canonical
from .cards import CARDS, POINT_TYPES
from .combat import hq_limit
from .events import REVEALING
from .moves import value_roles
from .state import State, Unit
from .wording import link_words

if TYPE_CHECKING:
    from .game import GalacticEmpires

Viewer = int | None


def card(s: State, uid: int) -> dict[str, Any]:
    """A card the viewer may see: its id in this game, its catalogue key, name and kind."""
    spec = CARDS[s.spec_of[uid]]
    return {"uid": uid, "key": spec.key, "name": spec.name, "kind": spec.kind}


def _unit(s: State, u: Unit) -> dict[str, Any]:
    """A card in play with every counter the engine keeps on it (GE-ZONE-5): all are public."""
    counters = {k: v for k, v in asdict(u).items() if k not in ("uid", "parent")}
    return {**card(s, u.uid), **counters, "on": u.parent, "fired": u.fired_phasers + u.fired_heavy}


def _link_words(game: GalacticEmpires, action: tuple[Any, ...]) -> str:
    """A link of the reaction chain in the notation's words. A link may hold more than an
    action does (a volley's weapons, a shot's damage), so nested parts are written in brackets."""
    roles = {1: "hq"} if action[0] == "fire" else value_roles(action)  # a volley's link: (fire, target, weapons)

    def word(arg: Any, role: str) -> str:
        if isinstance(arg, tuple):
            return "(" + " ".join(word(x, "card") for x in arg) + ")"
        return game.word(arg, role)
    return " ".join([str(action[0])] + [word(a, roles.get(i, "card")) for i, a in enumerate(action[1:], 1)])


def view(game: GalacticEmpires, viewer: Viewer) -> dict[str, Any]:
    """Everything ``viewer`` (a seat, or None for a spectator) may know: its own hand, both
    fleets with every counter, discard piles, Sector HQs, reserves once revealed (a seat always
    sees its own), deck and hand sizes, the chain. Never deck order or another seat's hand."""
    s = game.s
    players = []
    for seat, p in enumerate(s.players):
        mine = viewer == seat
        players.append({
            "empire": p.empire, "hq": p.hq, "deck": len(p.deck), "hand_size": len(p.hand),
            "hand": [card(s, u) for u in sorted(p.hand)] if mine
            else [card(s, u) for u in sorted(set(p.shown) & set(p.hand))],  # only cards seen going in
            "discard": [card(s, u) for u in p.discard],
            "reserve": [card(s, u) for u in sorted(p.reserve)] if (mine or p.reserve_public) else len(p.reserve),
            "aside": [card(s, u) for u in p.aside],  # pre-paired capsules are no secret (GE-OPT-4)
            "pairs": [list(pair) for pair in p.pairs],
            "turns": p.turns, "plays": p.plays, "pool": list(p.pool), "slots": p.slots,
        })
    return {
        "game": "ge", "edition": s.edition, "phase": s.phase, "active": s.active, "first": s.first,
        "to_move": game.to_move, "priority": s.priority, "players": players,
        "units": [_unit(s, u) for u in sorted(s.units.values(), key=lambda u: u.uid)],
        "chain": [{"player": i.player, "kind": i.kind, "action": _link_words(game, i.action),
                   "words": link_words(s, i.player, i.kind, i.action), "void": i.void} for i in s.chain],
        "aim": s.aim, "aim_weapons": [list(w) for w in s.aim_weapons], "volleyed": list(s.volleyed),
        "winner": s.winner, "end": s.end or None,
        # fixed facts a table needs to draw the counters: the HQ's damage limit, the point types
        "hq_limit": hq_limit(s), "point_types": list(POINT_TYPES),
    }


class GalacticEmpiresObserver:
    """What each viewer may see (GE-DIG-2). Every event of the engine (:mod:`.events`) is public
    and passes as it is, typed; the one secret action is a reserve fleet chosen before the deal,
    which others see as a count."""

    def view(self, game: GalacticEmpires, viewer: int | None) -> dict[str, Any]:
        return view(game, viewer)

    def event(self, event: Any, viewer: int | None) -> Any:
        return event

    def events(self, events: Sequence[Any], viewer: int | None) -> list[Any]:
        return [self.event(e, viewer) for e in events]

    def action(self, game: GalacticEmpires, action: Any, viewer: int | None) -> Any:
        act = tuple(action)
        if act[0] == "reserve" and viewer != game.to_move:
            return ("reserve", len(act) - 1)
        return act

    def chance_mark(self, game: GalacticEmpires) -> Hashable:
        s = game.s
        return tuple(len(p.deck) for p in s.players) + (hash(s.rng.mark()),)

    def reveals(self, events: Sequence[Any], mark_before: Hashable, mark_after: Hashable) -> bool:
        return mark_before != mark_after or any(e[0] in REVEALING for e in events)

    def canonical(self, game: GalacticEmpires, seat: int) -> GalacticEmpires:
        return canonical(game, seat)

    def private_options(self, game: GalacticEmpires, seat: int) -> bool:
        # The hand is a seat's only secret it can act from (a reaction card); the engine opens a
        # window whenever one could be there as far as the opponent can tell (chain.suspected).
        return bool(game.s.players[seat].hand)


OBSERVER: Final = GalacticEmpiresObserver()
