"""What each kind of action does, and why it may be refused: one handler per kind.

:data:`HANDLERS` maps a kind to its :class:`Handler`: ``why`` (the reason an action of that
kind is not legal now, given that it is not among the legal actions; None leaves it to the
general reason), ``do`` (play it, known legal, outside a reaction window) and ``react`` (play
it as a seat's answer in an open window; None for the kinds that cannot be). The game object
(:mod:`.game`) only dispatches: :func:`do` and :func:`why_not`.

``why`` gets the action exactly as it came (maybe malformed: wrong length, a string for a
card); ``do`` and ``react`` get the typed value (:mod:`.moves`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from . import chain, combat, plays, points, turn
from . import events as E
from . import moves as M
from .cards import CARDS
from .state import ALLOCATE, DISCARD, FIRE, OVER, PLAY_A, PLAY_B, SETUP, Item, State

Why = Callable[[State, int | None, tuple[Any, ...]], str | None]
Do = Callable[[State, int, Any], None]


class Handler(NamedTuple):
    why: Why
    do: Do
    react: Do | None = None


def do(s: State, seat: int, act: tuple[Any, ...]) -> None:
    """Play the legal action ``act`` for ``seat`` (the seat to move)."""
    move = M.typed(act)
    handler = HANDLERS[move[0]]
    if s.priority is not None:
        assert handler.react is not None, "only reactions and passes are legal in a window"
        handler.react(s, seat, move)
    else:
        handler.do(s, seat, move)


def why_not(s: State, mover: int | None, act: tuple[Any, ...]) -> str:
    """The reason ``act`` (a non-empty tuple of ints and strings, not legal now) is refused,
    with the rule ID where a rule forbids it."""
    if s.phase == OVER:
        return "the game is over"
    if act[0] == "shoot":
        return _why_shoot(s, mover, act)
    handler = HANDLERS.get(act[0])
    if s.priority is not None and (handler is None or handler.react is None):
        return f"GE-REACT-6: seat {s.priority} may only react or pass now"
    reason = handler.why(s, mover, act) if handler is not None else None
    return reason or f"GE-DIG-1: {' '.join(map(str, act))!r} is not one of the actions open now"


# --------------------------------------------------------------------------- reasons


def _general(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    """No rule of the kind's own: the general reason (GE-DIG-1) stands."""
    return None


def _no_window(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    return "GE-REACT-6: there is no reaction window open"


def _blank(s: State, act: tuple[Any, ...]) -> str | None:
    if set(M.cards_played(act)) & set(s.blank):
        return "a blank (a balance study's stand-in) cannot be played or swapped, only discarded"
    return None


def _hand_card(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    """The checks a card from hand meets before its own kind's (GE-ZONE-1, GE-PLAY-1, -2)."""
    uid = act[1]
    if mover is None or uid not in s.players[mover].hand:
        return "GE-ZONE-1: that card is not in your hand"
    if s.phase not in (PLAY_A, PLAY_B) and s.priority is None:
        return "GE-PLAY-2: cards are played in the Play Cards phases"
    if s.players[mover].plays >= 3 and (s.priority is None or mover == s.active):
        return "GE-PLAY-1: no card plays are left this turn"
    return plays.restriction(s, mover, uid)


def _names_a_card(act: tuple[Any, ...]) -> bool:
    return len(act) >= 2 and isinstance(act[1], int)


def _why_play(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    why = _blank(s, act)
    if why or not _names_a_card(act):
        return why
    why = _hand_card(s, mover, act)
    if why:
        return why
    assert mover is not None  # _hand_card refused a play with no seat to move
    uid = act[1]
    if any(c == uid for c, _ in s.players[mover].pairs):
        return "GE-OPT-4: a pre-paired cruiser enters play only together with its capsule"
    if s.priority is not None:
        return "GE-REACT-3: that card cannot be played as a reaction now"
    return f"GE-PLAY-3: {CARDS[s.spec_of[uid]].name} cannot be played there"


def _why_swap(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    why = _blank(s, act)
    if why or not _names_a_card(act):
        return why
    return _hand_card(s, mover, act) or \
        "GE-PLAY-6: the card put into the reserve must be at least as strong as the card taken"


def _why_pair(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    return _blank(s, act)


def _points_phase(reason: str) -> Why:
    """A point spent on a card: only in the Allocation phase (GE-PTS-6), then ``reason``."""
    def why(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
        if s.phase != ALLOCATE:
            return "GE-PTS-6: points exist only in the Allocation phase"
        return reason
    return why


def _why_research(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if s.phase != ALLOCATE:
        return "GE-PTS-6: points exist only in the Allocation phase"
    if len(act) == 2 and act[1] in s.players[s.active].negating:
        return "GE-ALLOC-11: that card has had its points in this allocation"
    return "GE-ALLOC-8: research goes onto a card against your own that research negates"


def _why_aim(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if s.phase != FIRE:
        return "GE-PHASE-4: weapons fire in the Weapons Fire phase"
    if len(act) == 2 and act[1] in s.volleyed:
        return "GE-FIRE-3: that target has had its volley this phase"
    return "GE-FIRE-10: not a target your weapons may fire at now"


def _fire_phase(reason: str | None) -> Why:
    """Only in the Weapons Fire phase (GE-PHASE-4), then ``reason``."""
    def why(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
        return "GE-PHASE-4: weapons fire in the Weapons Fire phase" if s.phase != FIRE else reason
    return why


def _why_use(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    return "GE-ACT-1: that card has no function it may use now"


def _why_discard(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if s.phase != DISCARD:
        return "GE-PHASE-6: cards are discarded in the Discard phase"
    return "GE-DISC-1: only your own cards in play may be discarded"


def _why_drop(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    """Why a hand card may not be discarded now (GE-DISC-2, GE-DISC-3)."""
    if s.edition == "quick":
        return "GE-QUICK-3: the quick edition has no discarding from hand"
    if s.phase != DISCARD:
        return "GE-PHASE-6: cards are discarded in the Discard phase"
    if len(act) != 2 or act[1] not in s.players[s.active].hand:
        return "GE-ZONE-1: that card is not in your hand"
    return "GE-DISC-2: each hand card discarded takes an unused card play, and none is left"


def _why_shoot(s: State, mover: int | None, act: tuple[Any, ...]) -> str:
    """Firing back with a card in play is never a reaction: only a reaction card played from
    hand may fire in the opponent's Weapons Fire phase (a Shuttlecraft played with ``fire``)."""
    return ("GE-REACT-4: a card in play has no reaction of its own but an \"as a reaction\" function; "
            "its weapons never fire back (GE-REACT-8: only a reaction card played from hand may)")


def _why_reserve(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if s.phase == SETUP and s.edition == "quick":
        return "GE-QUICK-2: in the quick edition the reserve is two cards of your deck, no more, no fewer"
    return "GE-SETUP-2: not a reserve fleet you may choose"


# --------------------------------------------------------------------------- effects


def _pass(s: State, seat: int, a: M.Pass) -> None:
    chain.pass_priority(s, seat)


def _quiet(s: State, seat: int, a: M.Quiet) -> None:
    s.players[seat].quiet = s.turn_mark  # GE-REACT-10: pass now and for the rest of this turn
    chain.pass_priority(s, seat)


def _react(s: State, seat: int, a: M.Play | M.Use) -> None:
    chain.react(s, seat, a)


def _unreachable(s: State, seat: int, a: Any) -> None:
    raise AssertionError(f"{a[0]!r} is played only in a reaction window")


def _reserve(s: State, seat: int, a: M.Reserve) -> None:
    turn.set_reserve(s, seat, a.keys)
    if s.phase == SETUP:
        s.active = seat + 1


def _pay(s: State, seat: int, a: M.Pay) -> None:
    points.pay(s, a.card)


def _pay_part(s: State, seat: int, a: M.PayPart) -> None:
    points.pay_part(s, a.card)


def _load(s: State, seat: int, a: M.Load) -> None:
    points.load(s, a.card)


def _repair(s: State, seat: int, a: M.Repair) -> None:
    points.repair(s, a.card, a.part)


def _research(s: State, seat: int, a: M.Research) -> None:
    points.research(s, a.card)


def _use(s: State, seat: int, a: M.Use) -> None:
    """In the Allocation phase a function acts at once; later it goes on the chain."""
    u = s.units[a.card]
    u.used = True
    if s.phase == ALLOCATE:
        s.effect(u).use(s, u, a.choices)
        return
    s.say(E.Use("use", seat, a.card, *a.choices))
    chain.announce(s, Item(seat, "use", a))


def _allocate(s: State, seat: int, a: M.Allocate) -> None:
    s.say(E.Allocate("allocate", seat))
    if s.players[seat].research_cap is not None:  # a second plan opens no new window
        chain.end_allocation(s)
    else:
        chain.announce(s, Item(seat, "allocate", a))


def _play(s: State, seat: int, a: M.Play) -> None:
    plays.announce_play(s, seat, a.card, a.place, reaction=False)
    chain.announce(s, Item(seat, "play", a))


def _pair(s: State, seat: int, a: M.Pair) -> None:
    p = s.players[seat]
    if [a.cruiser, a.capsule] in p.pairs:  # GE-OPT-4: the waiting half joins
        p.pairs.remove([a.cruiser, a.capsule])
        p.aside.remove(a.capsule)
        p.hand.append(a.capsule)
    _krebiz(s, seat, a)


def _krebiz(s: State, seat: int, a: M.Pair | M.Combine | M.Separate) -> None:
    plays.announce_extra(s, seat, a)
    chain.announce(s, Item(seat, a[0], a))


def _swap(s: State, seat: int, a: M.Swap) -> None:
    plays.announce_swap(s, seat, a.card, a.reserve)
    chain.announce(s, Item(seat, "swap", a))


def _aim(s: State, seat: int, a: M.Aim) -> None:
    s.aim, s.aim_weapons = a.target, []
    s.say(E.Aim("aim", seat, a.target))


def _add(s: State, seat: int, a: M.Add) -> None:
    s.aim_weapons.append((a.card, a.weapon))


def _fire(s: State, seat: int, a: M.Fire) -> None:
    target, fired = s.aim, tuple(s.aim_weapons)
    assert target is not None
    combat.spend(s)
    s.volleyed.append(target)
    s.aim, s.aim_weapons = None, []
    s.say(E.Fire("fire", seat, target, fired))
    chain.announce(s, Item(seat, "fire", ("fire", target, fired)))


def _discard(s: State, seat: int, a: M.Discard) -> None:
    s.say(E.Discard("discard", seat, a.card))
    chain.announce(s, Item(seat, "discard", a))


def _drop(s: State, seat: int, a: M.Drop) -> None:
    p = s.players[seat]
    p.plays += 1
    p.hand.remove(a.card)
    p.unshow(a.card)
    chain.announce(s, Item(seat, "drop", a))


def _end(s: State, seat: int, a: M.End) -> None:
    turn.end_phase(s)


HANDLERS: dict[str, Handler] = {
    "pass": Handler(_no_window, _unreachable, _pass),
    "quiet": Handler(_no_window, _unreachable, _quiet),
    "reserve": Handler(_why_reserve, _reserve),
    "pay": Handler(_points_phase("GE-ALLOC-8: that card's whole cost cannot be paid from the pool"), _pay),
    "pay-part": Handler(_general, _pay_part),
    "load": Handler(_points_phase("GE-ALLOC-8: heavy weapons are loaded on a card paid this phase, "
                                  "one ammunition each"), _load),
    "repair": Handler(_points_phase("GE-PTS-5: nothing there that a repair point may remove"), _repair),
    "research": Handler(_why_research, _research),
    "allocate": Handler(_general, _allocate),
    "play": Handler(_why_play, _play, _react),
    "pair": Handler(_why_pair, _pair),
    "combine": Handler(_general, _krebiz),
    "separate": Handler(_general, _krebiz),
    "swap": Handler(_why_swap, _swap),
    "use": Handler(_why_use, _use, _react),
    "aim": Handler(_why_aim, _aim),
    "add": Handler(_fire_phase("GE-FIRE-4: that weapon cannot fire at this target now"), _add),
    "fire": Handler(_fire_phase(None), _fire),
    "shoot": Handler(_why_shoot, _unreachable),  # kept so that an old record's shot is refused by its rule
    "discard": Handler(_why_discard, _discard),
    "drop": Handler(_why_drop, _drop),
    "end": Handler(_general, _end),
}
assert HANDLERS.keys() == set(M.MOVES), "every kind of action needs a handler, and only those"
