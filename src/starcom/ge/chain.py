"""The reaction chain (GE-REACT-*): windows, priority, and resolving events in reverse order.

Every reactable event of the active player is put on the chain and may be answered before it
resolves. Who may answer follows GE-REACT-2 and the priority protocol of GE-REACT-6.

Secrecy ruling (docs/rulings-ge.md): GE-REACT-10 lets the engine pass for a player who has no
legal reaction. Passing only when the *real* hand holds none would tell the other player what
that hand lacks, so the engine passes at once only when no reaction is possible as far as the
other player can tell (no reaction card of that player's deck list unaccounted for could be
used, and no card in play has a usable reaction); otherwise the player is asked, and may pass.
"""
from __future__ import annotations

from typing import Any

from . import board, combat, plays, points, turn
from . import events as E
from .state import PLAYS_PER_TURN, Item, State, Unit


def allowed(s: State, seat: int) -> bool:
    """GE-REACT-2: the non-active player may always add a reaction to an open window; the
    active player only while the chain holds a reaction of the opponent."""
    if seat != s.active:
        return True
    return any(i.reaction and i.player != seat for i in s.chain)


def reactions(s: State, seat: int) -> list[tuple[Any, ...]]:
    """The reactions ``seat`` holds now: reaction cards from hand (alone, or a transport with a
    reaction crew card, GE-MISSION-8) and the "as a reaction" functions of its working cards in
    play (GE-REACT-3, GE-REACT-4), within the turn limits (GE-PLAY-9, GE-REACT-5). A card in
    play has no other reaction: its weapons never fire back (GE-REACT-8 lets only a reaction
    card played from hand fire, the Shuttlecraft)."""
    if not allowed(s, seat):
        return []
    out: list[tuple[Any, ...]] = []
    p = s.players[seat]
    if seat != s.active or p.plays < PLAYS_PER_TURN:
        ready = [uid for uid in sorted(p.hand) if s.spec(uid).reaction and plays.restriction(s, seat, uid) is None]
        for uid in ready:
            out += s.effect_of(uid).reaction_plays(s, seat, uid)
        for uid in ready:
            for mate in ready:
                if mate != uid:
                    out += s.effect_of(uid).pair_plays(s, seat, uid, mate)
    for u in _ready_to_react(s, seat):  # each effect applies its own once-a-turn limit (GE-ACT-1)
        out += [("use", u.uid, *args) for args in s.effect(u).reaction_uses(s, u)]
    return out


def _ready_to_react(s: State, seat: int) -> list[Unit]:
    """``seat``'s working cards in play whose reaction is not already on the chain (a card
    answers an event once: its reaction resolves before it could be wanted again)."""
    waiting = {i.action[1] for i in s.chain if i.kind == "use"}
    return [u for u in board.fleet(s, seat) if u.uid not in waiting and board.works(s, u.uid)]


def suspected(s: State, seat: int) -> bool:
    """Could ``seat`` react now, as far as its opponent can tell? (See the module docstring.)
    Only public facts are used: the board, the chain, hand size, turn stage, card plays left,
    and which of ``seat``'s reaction cards are known to be out of its hand."""
    if not allowed(s, seat) or s.players[seat].quiet == s.turn_mark:  # GE-REACT-10: "not this turn"
        return False
    for u in _ready_to_react(s, seat):
        if s.effect(u).reaction_uses(s, u):
            return True
    p = s.players[seat]
    if not p.hand or plays.stage(s, seat) == 1 or (seat == s.active and p.plays >= PLAYS_PER_TURN):
        return False
    hidden = [uid for uid in _unaccounted_reaction_cards(s, seat) if plays.restriction(s, seat, uid) is None]
    for uid in hidden:
        if s.effect_of(uid).reaction_plays(s, seat, uid):
            return True
    if len(p.hand) >= 2:
        for uid in hidden:
            for mate in hidden:
                if mate != uid and s.effect_of(uid).pair_plays(s, seat, uid, mate):
                    return True
    return False


def _unaccounted_reaction_cards(s: State, seat: int) -> list[int]:
    """Reaction cards of ``seat``'s deck list that its opponent cannot place outside its hand
    and deck (not in play, not in its discard pile, not in its public reserve), one stand-in
    uid per distinct card: a card seen going into the hand is there for sure and stands for
    itself (its restrictions, Forced Retreat's included, are public)."""
    p = s.players[seat]
    public = set(p.discard) | {u.uid for u in s.units.values() if s.owner_of[u.uid] == seat}
    public |= {uid for i in s.chain if i.player == seat and i.kind == "play" for uid in _played(i.action)}
    if p.reserve_public:
        public |= set(p.reserve)
    public -= set(p.shown)
    stand_ins: dict[int, int] = {}
    cards, spec_of = s.rules.cards, s.spec_of  # (s.spec, looked up once: this runs in every window)
    for uid, owner in enumerate(s.owner_of):
        if owner == seat and uid not in public and cards[spec_of[uid]].reaction:
            index = spec_of[uid]
            # a shown copy speaks for its card (its restriction is known); else the lowest uid
            if index not in stand_ins or (uid in p.shown and stand_ins[index] not in p.shown):
                stand_ins[index] = uid
    return sorted(stand_ins.values())


def _played(action: tuple[Any, ...]) -> tuple[int, ...]:
    """The cards a play on the chain took from the hand."""
    partner = plays.partner_of(action)
    return (action[1],) if partner is None else (action[1], partner)


def announce(s: State, item: Item) -> None:
    """Put an event on the chain and open the window it may get (GE-REACT-6)."""
    s.chain.append(item)
    s.passed = None
    _after(s, item.player, acted=True)


def react(s: State, seat: int, action: tuple[Any, ...]) -> None:
    """``seat`` adds a reaction (a card from hand, or a card's reaction function)."""
    if action[0] == "play":
        plays.announce_play(s, seat, action[1], action[2], reaction=True, action=action)
        item = Item(seat, "play", action, reaction=True)
    else:
        s.units[action[1]].used = True
        item = Item(seat, "use", action, reaction=True)
    s.chain.append(item)
    s.passed = None
    _after(s, seat, acted=True)


def pass_priority(s: State, seat: int) -> None:
    s.say(E.Pass("pass", seat))
    _after(s, seat, acted=False)


def _after(s: State, seat: int, acted: bool) -> None:
    other = 1 - seat
    if (acted or s.passed != other) and suspected(s, other):
        s.priority, s.passed = other, (None if acted else seat)
        return
    if acted and suspected(s, seat):  # the other passed at once, having no reaction to add
        s.priority, s.passed = seat, other
        return
    s.priority = s.passed = None
    resolve(s)


def resolve(s: State) -> None:
    """Resolve the chain, most recent event first (GE-REACT-6, GE-REACT-7). An event that a
    resolving item starts (a mission's following step, card damage after its card's play) goes
    on top of what is left and opens its own window at once; resolving goes on when that
    window closes, so a reaction's later steps still come before the event it answered."""
    while s.chain and s.winner is None:
        item = s.chain.pop()
        _resolve(s, item)
        if s.queued and s.winner is None:
            announce(s, s.queued.pop(0))
            return
    if s.queued and s.winner is None:
        announce(s, s.queued.pop(0))
    elif s.winner is None:
        turn.settle(s)


def end_allocation(s: State) -> None:
    """The declared plan stands: negations happen, leftover points are lost, engagement."""
    points.negate(s)
    points.clear(s)
    turn.engage(s)


def _resolve(s: State, item: Item) -> None:
    a = item.action
    kind = a[0]
    if kind == "play":
        plays.resolve_play(s, item.player, a, item.reaction, item.void)
    elif kind in ("pair", "combine", "separate"):
        plays.resolve_extra(s, item.player, a)
    elif kind == "swap":
        plays.resolve_swap(s, item.player, a[1], a[2])
    elif kind == "use":
        u = s.units.get(a[1])
        if u is None:
            s.say(E.Void("void", item.player, a[1]))
        else:
            s.effect(u).use(s, u, tuple(a[2:]))
    elif kind == "fire":
        target, fired = item.action[1], [tuple(w) for w in item.action[2]]
        combat.resolve_volley(s, item.player, target, fired)
    elif kind == "discard":
        if a[1] in s.units:
            board.leave(s, a[1])
    elif kind == "drop":
        p = s.players[item.player]
        p.discard.append(a[1])
        s.say(E.Drop("drop", item.player, a[1]))
    elif kind == "allocate":
        if s.players[item.player].short:  # a reaction broke the plan: its player plans again
            points.replan(s)
        else:
            end_allocation(s)
    elif kind == "act":
        s.effect_of(a[3]).mission_step(s, item)  # the carrier's unit runs its mission
    elif kind == "back":
        s.effect_of(a[3]).mission_step(s, item)
