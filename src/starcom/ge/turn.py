"""The turn (GE-TURN-*, GE-PHASE-*): setup, record keeping, engagement, moving from phase to
phase, drawing, and the ends of the game that are not a destroyed Sector HQ.
"""
from __future__ import annotations

from typing import Final

from . import board, combat, plays, points
from . import events as E
from .cards import CARDS, QUICK_RESERVE
from .state import (
    ALLOCATE,
    DISCARD,
    FIRE,
    OVER,
    PLAY_A,
    PLAY_B,
    STALL_TURNS,
    Item,
    State,
)

HAND_SIZE: Final = 9  # GE-SETUP-6


def reserve_options(s: State, seat: int) -> list[tuple[str, ...]]:
    """The reserve fleets ``seat`` may set aside from the cards now in its deck: 0, 1 or 2 in
    the full edition (GE-SETUP-2), exactly 2 in the quick one (GE-QUICK-2); card keys. The
    quick edition's proposed default comes first (GE-DIG-4), the rest sorted."""
    counts: dict[str, int] = {}
    for uid in s.players[seat].deck:  # the deck, not the list: pre-paired capsules wait aside
        counts[s.spec(uid).key] = counts.get(s.spec(uid).key, 0) + 1
    keys = sorted(counts)
    pairs: list[tuple[str, ...]] = [(a, b) for i, a in enumerate(keys) for b in keys[i:]
                                    if a != b or counts[a] > 1]
    if s.edition == "quick":
        default = default_reserve(s, seat)
        first = [default] if default in pairs else []
        return first + [p for p in pairs if p != default]
    return [(), *[(k,) for k in keys], *pairs]


def default_reserve(s: State, seat: int) -> tuple[str, ...]:
    """The reserve the quick edition proposes (Siobhan-7 and the S3 ship of the deck,
    GE-QUICK-2), as a sorted pair of keys like every other option."""
    return tuple(sorted(QUICK_RESERVE[s.players[seat].empire]))


def set_reserve(s: State, seat: int, keys: tuple[str, ...]) -> None:
    """Set the chosen cards aside (face down); once both seats have chosen, deal (GE-SETUP-3 …
    GE-SETUP-7)."""
    p = s.players[seat]
    for key in keys:
        uid = next(u for u in p.deck if CARDS[s.spec_of[u]].key == key)
        p.deck.remove(uid)
        p.reserve.append(uid)
    p.reserve_public = False
    s.say(E.Reserve("reserve", seat, len(keys)))
    if seat == len(s.players) - 1:
        deal(s)


def deal(s: State) -> None:
    for p in s.players:
        s.rng.shuffle(p.deck)
    antes = []
    for seat, p in enumerate(s.players):  # GE-SETUP-4
        uid = p.deck.pop()
        p.discard.append(uid)
        antes.append(s.spec(uid).strength)
        s.say(E.Ante("ante", seat, uid))
    best = max(antes)
    tied = [seat for seat, a in enumerate(antes) if a == best]
    s.first = tied[0] if len(tied) == 1 else s.rng.choice(tied)
    for p in s.players:  # GE-SETUP-5, GE-SETUP-6
        p.reserve_public = True
        for _ in range(HAND_SIZE):
            if p.deck:
                p.hand.append(p.deck.pop())
    s.say(E.First("first", s.first))
    start_turn(s, s.first)


def start_turn(s: State, seat: int) -> None:
    """A player turn begins: record keeping, production (GE-PHASE-1, GE-ALLOC-1)."""
    s.active, s.phase = seat, ALLOCATE
    p = s.players[seat]
    p.turns += 1
    p.plays = 0
    p.retreated.clear()  # GE-PLAY-8: the owner's next turn has come
    if seat == s.first:
        _stall_guard(s)
        if s.winner is not None:
            return
    s.say(E.Turn("turn", seat, p.turns))
    for u in list(board.fleet(s, seat)):  # (a) durations
        duration = s.spec(u.uid).duration
        if duration is None or duration == 0 or u.uid not in s.units:
            continue
        u.age += 1
        if u.age >= duration:
            for i, n in enumerate(s.effect(u).produces(s, u)):  # GE-DUR-2: it produces first
                p.pool[i] += n
            s.say(E.Expire("expire", u.uid))
            board.leave(s, u.uid)
    for u in board.fleet(s, seat):
        if u.shield_damage > 0:  # (b) GE-ALLOC-2
            u.shield_damage -= 1
        u.loaded = u.fired_heavy = u.fired_phasers = 0  # (c) GE-FIRE-6
        u.used = u.paid = u.new = u.locked = False  # (d) GE-ACT-1
    if s.edition == "full":  # (e) GE-CMD-1: two command points, four half slots
        p.slots = 4
    points.produce(s)


def engage(s: State) -> None:
    """The Engagement phase (GE-PHASE-2, GE-ENG-1), then Play Cards A."""
    seat = s.active
    units = board.fleet(s, seat)
    for u in units:
        if board.has_cost(s, u.uid):
            u.engaged = u.paid
    for u in units:
        spec = s.spec(u.uid)
        if not board.has_cost(s, u.uid):
            if spec.kind == "equipment" and spec.passive is False and u.parent in s.units:
                u.engaged = s.units[u.parent].engaged
            else:  # engaged, unless a card against it keeps it disengaged (an Illness)
                u.engaged = not any(s.effect(c).disengages(s, c, u.uid) for c in board.on(s, u.uid))
        if u.partner is not None and u.parent == u.partner:  # a combined capsule follows its ship
            u.engaged = s.units[u.partner].engaged
    for u in units:
        s.effect(u).engagement(s, u)
    s.say(E.Engaged("engaged", seat, tuple(sorted(u.uid for u in units if u.engaged))))
    s.phase = PLAY_A
    s.say(E.Phase("phase", PLAY_A))


def end_phase(s: State) -> None:
    """The active player declares the phase over (GE-TURN-1)."""
    if s.phase == PLAY_A:
        for u in board.fleet(s, s.active):  # GE-KREB-7: a part paid alone and not parted loses it
            if u.split_paid:
                u.split_paid = False
                u.loaded = 0
        s.phase = FIRE
        s.volleyed.clear()
        s.react_volleyed.clear()
        for u in s.units.values():  # GE-FIRE-4: every phaser may fire once in each Weapons Fire phase
            u.fired_phasers = 0
        s.say(E.Phase("phase", FIRE))
        settle(s)
    elif s.phase == FIRE:
        s.phase = PLAY_B
        s.say(E.Phase("phase", PLAY_B))
    elif s.phase == PLAY_B:
        s.phase = DISCARD
        s.say(E.Phase("phase", DISCARD))
    elif s.phase == DISCARD:
        _draw_phase(s)


def settle(s: State) -> None:
    """After a step: a Weapons Fire phase with nothing left to fire ends by itself (GE-FIRE-14)."""
    if s.winner is not None:
        finish(s)
        return
    if s.phase == FIRE and s.aim is None and s.priority is None and not s.chain \
            and not combat.aims(s, s.active):
        end_phase(s)


def _draw_phase(s: State) -> None:
    """GE-DRAW-1 … GE-DRAW-3, then the turn passes."""
    seat = s.active
    p = s.players[seat]
    n = 2 if len(p.hand) <= 9 else 1 if len(p.hand) <= 11 else 0
    drawn = 0
    for _ in range(n):
        if p.deck:
            p.hand.append(p.deck.pop())
            drawn += 1
    if drawn:
        s.quiet_mark += 1  # a draw changes the game: the stall guard starts over (GE-WIN-5)
    s.say(E.Draw("draw", seat, drawn))
    for u in list(board.fleet(s, seat)):  # GE-DUR-4: "this turn" cards end with the turn
        if s.spec(u.uid).duration == 0 and u.uid in s.units:
            s.say(E.Expire("expire", u.uid))
            board.leave(s, u.uid)
    if seat != s.first:
        s.complete_turns += 1
        cap = s.options.turn_cap
        if cap is not None and s.complete_turns >= cap:  # GE-OPT-3
            tie_break(s, "turn cap")
            return
    start_turn(s, 1 - seat)


def _stall_guard(s: State) -> None:
    """GE-WIN-5, checked as each complete turn of the first player begins: 10 complete turns
    in a row in which no Sector HQ took damage, no card entered or left play and no card was
    drawn end the game by the tie-break. Once both decks are empty no card can be drawn; the
    draw clause also ends a game frozen with cards left in a deck because every hand is too big
    to draw (12 or more, GE-DRAW-1). A complete turn in which the last card was drawn is not
    quiet, so with empty decks the count starts after it."""
    s.quiet_turns = s.quiet_turns + 1 if s.quiet_mark == s.quiet_seen else 0
    s.quiet_seen = s.quiet_mark
    if s.quiet_turns >= STALL_TURNS:
        tie_break(s, "stall")


def tie_break(s: State, why: str) -> None:
    """GE-WIN-6: less Sector HQ damage wins; then the larger printed strength of engaged ships
    protecting their HQ; then the seeded generator."""
    hq = [p.hq for p in s.players]
    if hq[0] != hq[1]:
        s.winner = 0 if hq[0] < hq[1] else 1
    else:
        guard = [sum(s.spec(x).strength for u in board.fleet(s, seat) if u.engaged and board.protects_hq(s, u.uid)
                     for x in board.parts(s, u.uid) if x == u.uid)
                 for seat in range(len(s.players))]
        s.winner = (0 if guard[0] > guard[1] else 1) if guard[0] != guard[1] else s.rng.randrange(2)
    s.end = why
    s.say(E.TieBreak("tie-break", why, s.winner))
    finish(s)


def finish(s: State) -> None:
    """The game is over. Cards still on the chain go back to their owners' hands (their plays
    never resolved). A player eliminated by Sector HQ damage loses every card in play, and the
    cards played against theirs go to their owners' discard piles with them (GE-WIN-1)."""
    if s.phase == OVER:
        return
    s.phase = OVER
    s.priority = s.aim = None
    s.aim_weapons = []
    for item in s.chain + s.queued:
        for uid in held(item):
            owner = s.players[s.owner_of[uid]]
            owner.hand.append(uid)
            owner.show(uid)  # it was announced: everyone knows where it went
    s.chain.clear()
    s.queued.clear()
    if s.end == "hq" and s.winner in (0, 1):
        loser = 1 - s.winner
        for uid in [u.uid for u in board.fleet(s, loser)]:
            if uid in s.units:
                board.leave(s, uid)


def held(item: Item) -> list[int]:
    """The cards an event on the chain holds outside every zone: a card play's card (and the
    crew played with a transport), a Krebiz pair, a hand card being discarded."""
    a = item.action
    if item.kind == "play":
        partner = plays.partner_of(a) if item.reaction else None
        return [a[1]] if partner is None else [a[1], partner]
    if item.kind == "pair":
        return [a[1], a[2]]
    if item.kind == "drop":
        return [a[1]]
    return []
