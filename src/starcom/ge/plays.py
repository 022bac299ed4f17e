"""Card plays, reserve swaps, card functions and discards: what may be announced, and what
happens when it resolves (GE-PLAY-*, GE-ACT-*, GE-DISC-*, GE-VOID-*).

Announcing takes the card from the hand and counts the play; resolving (after the reaction
window, :mod:`.chain`) checks the location again and brings the card into play, or voids it.
"""
from __future__ import annotations

from typing import Any

from . import board
from . import events as E
from .state import PLAYS_PER_TURN, State, Unit


def stage(s: State, seat: int) -> int:
    """The turn number for the play restrictions (GE-TURN-4): 1, 2, or 3 (no restriction)."""
    if s.players[s.first].turns < 2:
        return 1
    return 3 if s.players[seat].turns >= 3 else 2


def restriction(s: State, seat: int, uid: int) -> str | None:
    """Why ``seat`` may not play card ``uid`` now for reasons of turn or count, or None."""
    spec = s.spec(uid)
    st = stage(s, seat)
    if st == 1 and spec.kind != "terrain":
        return "GE-TURN-5: only terrain may be played in turn 1"
    if st == 2 and spec.is_unit and s.players[seat].ships_turn2 >= 1:
        return "GE-TURN-6: one ship or base only while in turn 2"
    if uid in s.players[seat].retreated:
        return "GE-PLAY-8: a card sent back by Forced Retreat waits for its owner's next turn"
    if spec.is_unit and s.edition == "full":  # GE-PLAY-7
        extra = s.effect_of(uid).least_slots(s, seat, uid)
        if s.spec(uid).empire == "indirigan" and not any(
                s.spec(u.uid).empire == "indirigan" and board.is_ship(s, u.uid) for u in board.fleet(s, seat)):
            extra = 0  # GE-CMD-5: the first minor-empire ship goes free
        if extra and board.slots_needed(s, seat, extra) > s.players[seat].slots:
            return "GE-CMD-4: no free command slot"
    return None


def placements(s: State, seat: int, uid: int) -> list[int]:
    return s.effect_of(uid).placements(s, seat, uid)


def plays(s: State, seat: int) -> list[tuple[Any, ...]]:
    """Every card play ``seat`` may announce on its own turn (GE-PLAY-1 … GE-PLAY-6)."""
    p = s.players[seat]
    if p.plays >= PLAYS_PER_TURN:
        return []
    out: list[tuple[Any, ...]] = []
    seen: set[int] = set()
    for uid in sorted(p.hand):
        if s.spec_of[uid] in seen or restriction(s, seat, uid) is not None:
            continue
        seen.add(s.spec_of[uid])  # two copies of one card play alike: the lower uid stands for both
        out += [("play", uid, loc) for loc in placements(s, seat, uid)]
        out += s.effect_of(uid).hand_plays(s, seat, uid)
    for u in board.fleet(s, seat):
        out += s.effect(u).fleet_plays(s, u)
    for r in sorted(set(p.reserve)):
        for h in sorted(p.hand):
            if s.spec(h).strength >= s.spec(r).strength and h not in p.retreated:
                out.append(("swap", h, r))
    return out


def partner_of(action: tuple[Any, ...]) -> int | None:
    """The crew card a transport is played together with as one reaction (GE-MISSION-8):
    ``("play", transport, here, "with", crew, ...)``; None for any other play."""
    return int(action[4]) if len(action) > 4 and action[3] == "with" else None


def announce_play(s: State, seat: int, uid: int, loc: int, reaction: bool,
                  action: tuple[Any, ...] = ()) -> None:
    """A card play leaves the hand for the chain and is counted: every play on one's own turn
    spends one of the turn's card plays, a reaction during the opponent's turn spends none (GE-PLAY-1,
    GE-REACT-5). ``action`` is the whole play, for its choices (a transport played with a crew
    card takes both from the hand, as one play)."""
    p = s.players[seat]
    partner = partner_of(action) if reaction else None
    for card in (uid,) if partner is None else (uid, partner):
        p.hand.remove(card)
        p.unshow(card)
    if not reaction or seat == s.active:
        p.plays += 1  # GE-PLAY-1, GE-REACT-5
    if s.spec(uid).is_unit and stage(s, seat) == 2:
        p.ships_turn2 += 1
    if reaction:
        s.effect_of(uid).announce_reacting(s, seat, action)
    s.say(E.Announce("announce", seat, uid, loc, reaction))


def resolve_play(s: State, seat: int, action: tuple[Any, ...], reaction: bool, cancelled: bool = False) -> None:
    """GE-PLAY-5, GE-VOID-2: a location that is no longer legal voids the card (discarded);
    so does a play cancelled by a reaction (the play still counted). A reaction card whose
    location is still legal enters and uses its function as it enters (GE-ACT-5); a function
    that has become impossible is voided there and the card stays (GE-VOID-1)."""
    uid, loc, choices = action[1], action[2], tuple(action[3:])
    partner = partner_of(action) if reaction else None
    cards = (uid,) if partner is None else (uid, partner)
    if reaction:
        legal = all(loc in s.effect_of(c).reaction_places(s, seat, c) for c in cards)
    else:
        legal = loc in placements(s, seat, uid)
    guard = _guard(s, seat, loc) if legal and not cancelled else None
    if cancelled or not legal or guard is not None:
        for c in cards:
            s.players[seat].discard.append(c)
            s.say(E.Cancelled("cancelled", seat, c) if cancelled or guard is not None else E.Void("void", seat, c))
        if guard is not None:  # a Lucky Crew Action on the targeted crew ignores the play, and goes
            s.say(E.Lucky("lucky", guard, uid))
            board.leave(s, guard)
        return
    u = _enter(s, seat, uid, loc, reaction)
    if partner is not None:
        _enter(s, seat, partner, loc, reaction)
    if reaction:
        s.effect(u).enter_reacting(s, u, choices)
    else:
        s.effect(u).enter(s, u)


def _guard(s: State, seat: int, loc: int) -> int | None:
    """A card on ``loc`` whose own text ignores ``seat``'s card play aimed at it (the first
    such play: the card leaves play with it), or None."""
    if loc < 0 or loc not in s.units:
        return None
    return next((c.uid for c in board.on(s, loc) if s.effect(c).ignores(s, c, seat, loc)), None)


def _enter(s: State, seat: int, uid: int, loc: int, reaction: bool) -> Unit:
    """Card ``uid`` comes into play at ``loc`` (a card, or ``-1 - seat``: alone in a fleet)."""
    spec = s.spec(uid)
    parent = None if loc < 0 and spec.kind != "hazard" else loc
    against = loc >= 0 and s.units[loc].owner != seat
    u = Unit(uid, seat, parent=parent, against=against, reacted=reaction)
    u.engaged = not spec.has_cost  # GE-ENG-3
    if spec.kind == "equipment" and spec.passive is False and parent is not None:
        u.engaged = s.units[parent].engaged
    u.used = reaction  # GE-ACT-5: a reaction card uses its one function as it enters
    s.units[uid] = u
    s.quiet_mark += 1
    s.say(E.Enter("enter", seat, uid, loc))
    return u


def announce_extra(s: State, seat: int, action: tuple[Any, ...]) -> None:
    """A card play of another form (``pair``, ``combine``, ``separate``) is announced."""
    p = s.players[seat]
    p.plays += 1
    first = action[1]
    if first in p.hand:
        p.hand.remove(first)
        if s.spec(first).is_unit and stage(s, seat) == 2:
            p.ships_turn2 += 1
    s.effect_of(first).announce_extra(s, seat, action)
    for uid in action[1:3] if action[0] == "pair" else ():  # both halves left the hand
        p.unshow(uid)
    s.say(E.Announce("announce", seat, *action))


def resolve_extra(s: State, seat: int, action: tuple[Any, ...]) -> None:
    s.effect_of(action[1]).resolve_extra(s, seat, action)


def announce_swap(s: State, seat: int, hand: int, reserve: int) -> None:
    """GE-PLAY-6: the swap is announced naming both cards; the hand card stays in the hand
    until it resolves, now known to the opponent to be there (GE-DIG-2)."""
    p = s.players[seat]
    p.plays += 1
    p.show(hand)
    s.say(E.AnnounceSwap("announce-swap", seat, hand, reserve))


def resolve_swap(s: State, seat: int, hand: int, reserve: int) -> None:
    """GE-PLAY-6: the hand card goes to the reserve (face up), the reserve card to the hand."""
    p = s.players[seat]
    if hand not in p.hand or reserve not in p.reserve:
        s.say(E.Void("void", seat, hand))
        return
    p.hand.remove(hand)
    p.unshow(hand)
    p.reserve.remove(reserve)
    p.reserve.append(hand)
    p.hand.append(reserve)
    p.show(reserve)
    s.say(E.Swap("swap", seat, hand, reserve))


def uses(s: State, seat: int) -> list[tuple[Any, ...]]:
    """Functions of ``seat``'s working cards it may use now (GE-ACT-1 … GE-ACT-3)."""
    out: list[tuple[Any, ...]] = []
    for u in board.fleet(s, seat):
        if u.used or not board.works(s, u.uid):
            continue
        out += [("use", u.uid, *args) for args in s.effect(u).uses(s, u)]
    return out


def discards(s: State, seat: int) -> list[tuple[Any, ...]]:
    """GE-DISC-1, GE-DISC-2: own cards in play; [F] hand cards for unused card plays."""
    out: list[tuple[Any, ...]] = [("discard", u.uid) for u in board.fleet(s, seat)]
    p = s.players[seat]
    if s.edition == "full" and p.plays < PLAYS_PER_TURN:
        out += [("drop", uid) for uid in sorted(p.hand)]
    return out
