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
from typing import Any, Final, NamedTuple

from . import board, chain, combat, plays, points, turn
from . import events as E
from . import moves as M
from .cards import CARDS, krebiz
from .state import ALLOCATE, DISCARD, FIRE, OVER, PLAY_A, PLAY_B, PLAYS_PER_TURN, SETUP, Item, State

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
    starting with the ID of the rule that forbids it (GE-DIG-3)."""
    if s.phase == OVER:
        return _why_over(s)
    shape = M.MOVES.why_not(tuple(act))
    if shape is not None:
        return f"GE-DIG-1: {shape}"
    if act[0] == "shoot":
        return _why_shoot(s, mover, act)
    handler = HANDLERS[act[0]]
    if s.priority is not None and handler.react is None:
        return f"GE-REACT-6: seat {s.priority} may only react or pass now"
    reason = handler.why(s, mover, act)
    return reason or f"GE-DIG-1: {' '.join(map(str, act))!r} is not one of the actions open now"


# --------------------------------------------------------------------------- reasons
# Each ``why`` gets an action that fits its kind's shape (the right number of values), not yet
# checked for the types of its values: a card is an int, a word a string.


def _why_over(s: State) -> str:
    if s.end == "hq":
        return "GE-WIN-1: the game is over: a Sector HQ has fallen"
    if s.end == "stall":
        return "GE-WIN-5: the game is over: nothing changed for ten complete turns"
    if s.end == "turn cap":
        return "GE-OPT-3: the game is over: the turn cap was reached"
    return f"GE-WIN-6: the game is over ({s.end or 'decided'})"


def _no_window(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    return "GE-REACT-6: there is no reaction window open"


def _blank(s: State, act: tuple[Any, ...]) -> str | None:
    if set(M.cards_played(act)) & set(s.blank):
        return "GE-DIG-1: a blank (a balance study's stand-in) cannot be played or swapped, only discarded"
    return None


def _ints(act: tuple[Any, ...], *at: int) -> bool:
    return all(type(act[i]) is int for i in at)


def _own_in_play(s: State, mover: int | None, uid: Any) -> bool:
    return type(uid) is int and uid in s.units and mover is not None and s.units[uid].owner == mover


def _card_play(s: State, mover: int | None) -> str | None:
    """A card play of another form (a swap, a Krebiz pair, combining, separating): only on one's
    own turn in a card-play phase (GE-PLAY-2), within the three card plays (GE-PLAY-1)."""
    if s.phase not in (PLAY_A, PLAY_B) or s.priority is not None:
        return "GE-PLAY-2: cards are played in the Play Cards phases of one's own turn"
    if mover is not None and s.players[mover].plays >= PLAYS_PER_TURN:
        return "GE-PLAY-1: no card plays are left this turn"
    return None


def _hand_card(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    """The checks a card from hand meets before its own kind's (GE-ZONE-1, GE-PLAY-1, -2)."""
    uid = act[1]
    if mover is None or uid not in s.players[mover].hand:
        return "GE-ZONE-1: that card is not in your hand"
    if s.phase not in (PLAY_A, PLAY_B) and s.priority is None:
        return "GE-PLAY-2: cards are played in the Play Cards phases"
    if s.players[mover].plays >= PLAYS_PER_TURN and (s.priority is None or mover == s.active):
        return "GE-PLAY-1: no card plays are left this turn"
    return plays.restriction(s, mover, uid)


def _why_play(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    why = _blank(s, act)
    if why or not _ints(act, 1, 2):
        return why
    why = _hand_card(s, mover, act)
    if why:
        return why
    assert mover is not None  # _hand_card refused a play with no seat to move
    uid = act[1]
    if any(c == uid for c, _ in s.players[mover].pairs):
        return "GE-OPT-4: a pre-paired cruiser enters play only together with its capsule"
    if s.priority is not None:
        if not s.spec(uid).reaction:
            return "GE-REACT-3: only an R/ card may be played as a reaction"
        return "GE-REACT-3: that card has no reaction to make here now"
    return f"GE-PLAY-3: {CARDS[s.spec_of[uid]].name} cannot be played there"


def _why_pair(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    why = _blank(s, act)
    if why or not _ints(act, 1, 2, 3):
        return why
    p = s.players[mover] if mover is not None else None
    waiting = p is not None and [act[1], act[2]] in p.pairs
    if p is None or (act[2] not in p.hand and not waiting):
        return "GE-ZONE-1: that card is not in your hand"
    why = _hand_card(s, mover, act)
    if why:
        return why
    return "GE-KREB-3: a cruiser and a capsule are played together only if they fit, as one ship, where a ship may go"


def _why_swap(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    why = _blank(s, act)
    if why or not _ints(act, 1, 2):
        return why
    p = s.players[mover] if mover is not None else None
    if p is None or act[1] not in p.hand:
        return "GE-ZONE-1: that card is not in your hand"
    if act[2] not in p.reserve:
        return "GE-ZONE-1: that card is not in your reserve fleet"
    why = _card_play(s, mover)
    if why:
        return why
    if act[1] in p.retreated:
        return "GE-PLAY-8: a card sent back by Forced Retreat waits for its owner's next turn"
    return "GE-PLAY-6: the card put into the reserve must be at least as strong as the card taken"


def _why_combine(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if not _ints(act, 1, 2) or not (_own_in_play(s, mover, act[1]) and _own_in_play(s, mover, act[2])):
        return "GE-KREB-5: only two Krebiz parts of your own fleet in play are combined"
    why = _card_play(s, mover)
    if why:
        return why
    cruiser, capsule = (s.units[act[1]], s.units[act[2]])
    if cruiser.locked or capsule.locked:
        return "GE-KREB-5: not in a turn in which either part was combined or separated"
    if krebiz.is_cruiser(s, cruiser.uid) and krebiz.alone(s, cruiser.uid) and krebiz.alone(s, capsule.uid) \
            and krebiz.fits(s, cruiser.uid, capsule.uid):
        return "GE-CMD-4: the combined ship would need more command slots than are free"
    return "GE-KREB-5: a cruiser alone combines with a capsule alone that fits it (GE-KREB-2)"


def _why_separate(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if not _ints(act, 1, 2, 3, 4):
        return None
    if not _own_in_play(s, mover, act[1]) or s.units[act[1]].partner is None \
            or not krebiz.is_cruiser(s, act[1]):
        return "GE-KREB-6: only a combined Krebiz ship of your own fleet is separated (name its cruiser)"
    if s.phase not in (PLAY_A, PLAY_B) or s.priority is not None:
        return "GE-KREB-6: a combined ship is separated in a card-play phase of its owner's turn"
    if mover is not None and s.players[mover].plays >= PLAYS_PER_TURN:
        return "GE-PLAY-1: no card plays are left this turn (separating takes one)"
    if s.units[act[1]].locked:
        return "GE-KREB-6: not in the turn in which the two parts were combined"
    if not krebiz.splits(s, act[1]):
        return "GE-CMD-4: the two parts would need more command slots than are free"
    return ("GE-KREB-6: no part may take more shield damage than its shields or structural damage that "
            "would destroy it, and only the movable cards on the ship may go with the capsule")


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
    if act[1] in s.players[s.active].negating:
        return "GE-ALLOC-11: that card has had its points in this allocation"
    return "GE-ALLOC-8: research goes onto a card against your own that research negates"


def _why_allocate(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    return "GE-PHASE-1: the allocation is declared in the Point Allocation phase"


def _why_end(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if s.phase == SETUP:
        return "GE-SETUP-2: the game begins once each player has chosen a reserve fleet"
    if s.phase == ALLOCATE:
        return "GE-ALLOC-14: the Point Allocation phase ends when the plan is declared"
    if s.phase == FIRE and s.aim is not None:
        return "GE-FIRE-2: the volley declared must be fired first"
    return None


def _fire_limit(s: State, uid: int, target: int) -> str | None:
    """The rule that keeps card ``uid`` from firing at ``target``, or None (the card-level
    limits of :func:`combat.may_fire_at`, worded)."""
    if combat.may_fire_at(s, uid, target):
        return None
    if target == uid or (target in s.units and board.basis(s, uid) == target):
        return "GE-FIRE-9: a card never fires at itself"
    if combat.hq_seat(target) is not None:
        if s.spec(uid).kind == "equipment" and s.edition == "quick":
            return "GE-QUICK-5: in the quick edition only ships fire at a Sector HQ"
        return "GE-FIRE-10: only ships (and, in the full edition, equipment on a ship) fire at a Sector HQ"
    if s.spec(uid).empire != "indirigan":
        return None  # the Indirigan tribe rule is the only limit a card's own text sets (Deck A)
    return ("GE-IND-2: an Indirigan ship fires at a base or a ship that is not Indirigan only while "
            "the opponent has no Indirigan ship in play")


def _why_target(s: State, seat: int, target: int) -> str | None:
    """The rule that makes ``target`` no target for ``seat`` at all, or None
    (:func:`combat.is_target`, worded)."""
    hq = combat.hq_seat(target)
    if hq is not None:
        if hq not in range(len(s.players)):
            return "GE-DIG-1: no such seat"
        if hq == seat:
            return "GE-FIRE-10: no player may fire at their own Sector HQ"
        if not board.hq_open(s, hq):
            return "GE-FIRE-10: a Sector HQ may be targeted only while no ship of its owner protects it"
        return None
    if target not in s.units:
        return "GE-FIRE-8: only a card in play can be a target"
    kind = s.spec(target).kind
    if kind == "terrain" and any(s.spec(u.uid).kind == "base" for u in board.on(s, target)):
        return "GE-FIRE-9: a terrain with a base on it cannot be targeted while the base is in play"
    if kind in ("ship", "base") and board.basis(s, target) != target:
        return "GE-KREB-4: a combined Krebiz ship is one card: aim at its cruiser"
    if not combat.is_target(s, target, seat):
        return "GE-FIRE-8: crew, equipment, luck, hazards and occurrences are not targets"
    return None


def _why_aim(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if s.phase != FIRE:
        return "GE-PHASE-4: weapons fire in the Weapons Fire phase"
    if s.aim is not None:
        return "GE-FIRE-2: one volley at a time: add weapons to the volley declared and fire it"
    if not _ints(act, 1) or mover is None:
        return None
    target = act[1]
    if target in s.volleyed:
        return "GE-FIRE-3: that target has had its volley this phase"
    why = _why_target(s, mover, target)
    if why:
        return why
    armed = [u.uid for u in board.fleet(s, mover) if combat.weapons(s, u.uid)]
    if not armed:
        return "GE-FIRE-4: none of your cards has a weapon left that may fire this phase"
    limits = [_fire_limit(s, uid, target) for uid in armed]
    return next((w for w in limits if w and w.startswith("GE-IND-2")), None) or \
        next((w for w in limits if w), None)


def _why_add(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if s.phase != FIRE:
        return "GE-PHASE-4: weapons fire in the Weapons Fire phase"
    if s.aim is None:
        return "GE-FIRE-2: declare the target of the volley first"
    if not _ints(act, 1) or act[2] not in (combat.PHASER, combat.HEAVY):
        return None
    uid, kind = act[1], act[2]
    if not _own_in_play(s, mover, uid):
        return "GE-FIRE-2: only cards of your own fleet in play fire in your volley"
    why = _fire_limit(s, uid, s.aim)
    if why:
        return why
    u = s.units[uid]
    if not u.engaged:
        return "GE-ENG-4: a disengaged card fires no weapon"
    if kind == combat.HEAVY and not s.spec(uid).one_shot and u.loaded == 0:
        return "GE-FIRE-5: a heavy weapon fires only if it was loaded in the Allocation phase"
    if s.spec(uid).one_shot and (u.empty or u.used):
        return "GE-FIRE-7: the one-shot phaser is empty, or its card has used its function this turn"
    return "GE-FIRE-4: each weapon fires at most once in a Weapons Fire phase"


def _why_fire(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if s.phase != FIRE:
        return "GE-PHASE-4: weapons fire in the Weapons Fire phase"
    return "GE-FIRE-2: a volley is fired once it has a target and at least one weapon"


def _why_use(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if not _ints(act, 1):
        return None
    uid = act[1]
    if not _own_in_play(s, mover, uid):
        return "GE-ACT-2: a card's functions are used by its controller, while it is in play"
    u = s.units[uid]
    effect = s.effect(u)
    if s.priority is not None:
        return ("GE-REACT-4: a card in play reacts only through a function printed \"as a reaction\", "
                "while engaged, and that function is not open now")
    if s.phase not in (ALLOCATE, PLAY_A, PLAY_B):
        return "GE-ACT-2: functions are used in the Play Cards phases (point functions in Allocation)"
    if not board.works(s, uid):
        return "GE-ACT-3: a disengaged or disabled card has no usable functions"
    if u.used:
        return "GE-ACT-1: each function is used at most once per complete turn"
    choices = act[2:]
    reachable = getattr(effect, "reachable", None)  # a transport's reach (GE-MISSION-2, -3)
    if len(choices) >= 3 and choices[0] == "mission" and type(choices[2]) is int and choices[2] in s.units \
            and reachable is not None and not reachable(s, u.owner, choices[2]):
        return "GE-MISSION-2: the Transporter cannot carry crew onto an opponent's card whose shields are not all damaged"
    return "GE-DIG-1: that card has no such function it may use now"


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
    if act[1] not in s.players[s.active].hand:
        return "GE-ZONE-1: that card is not in your hand"
    return "GE-DISC-2: each hand card discarded takes an unused card play, and none is left"


def _why_shoot(s: State, mover: int | None, act: tuple[Any, ...]) -> str:
    """Firing back with a card in play is never a reaction: only a reaction card played from
    hand may fire in the opponent's Weapons Fire phase (a Shuttlecraft played with ``fire``)."""
    return ("GE-REACT-4: a card in play has no reaction of its own but an \"as a reaction\" function; "
            "its weapons never fire back (GE-REACT-8: only a reaction card played from hand may)")


def _why_reserve(s: State, mover: int | None, act: tuple[Any, ...]) -> str | None:
    if s.phase != SETUP:
        return "GE-SETUP-2: the reserve fleet is chosen before the game begins"
    if s.edition == "quick":
        return "GE-QUICK-2: in the quick edition the reserve is two cards of your deck, no more, no fewer"
    return "GE-SETUP-2: the reserve fleet is 0, 1 or 2 cards of your own deck"


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


HANDLERS: Final[dict[str, Handler]] = {
    "pass": Handler(_no_window, _unreachable, _pass),
    "quiet": Handler(_no_window, _unreachable, _quiet),
    "reserve": Handler(_why_reserve, _reserve),
    "pay": Handler(_points_phase("GE-ALLOC-8: that card's whole cost cannot be paid from the pool"), _pay),
    "pay-part": Handler(_points_phase("GE-KREB-7: one part of an unpaid combined Krebiz ship may be paid alone, "
                                      "with its whole cost, if the other part is not"), _pay_part),
    "load": Handler(_points_phase("GE-ALLOC-8: heavy weapons are loaded on a card paid this phase, "
                                  "one ammunition each"), _load),
    "repair": Handler(_points_phase("GE-PTS-5: nothing there that a repair point may remove"), _repair),
    "research": Handler(_why_research, _research),
    "allocate": Handler(_why_allocate, _allocate),
    "play": Handler(_why_play, _play, _react),
    "pair": Handler(_why_pair, _pair),
    "combine": Handler(_why_combine, _krebiz),
    "separate": Handler(_why_separate, _krebiz),
    "swap": Handler(_why_swap, _swap),
    "use": Handler(_why_use, _use, _react),
    "aim": Handler(_why_aim, _aim),
    "add": Handler(_why_add, _add),
    "fire": Handler(_why_fire, _fire),
    "shoot": Handler(_why_shoot, _unreachable),  # kept so that an old record's shot is refused by its rule
    "discard": Handler(_why_discard, _discard),
    "drop": Handler(_why_drop, _drop),
    "end": Handler(_why_end, _end),
}
assert HANDLERS.keys() == set(M.MOVES), "every kind of action needs a handler, and only those"
