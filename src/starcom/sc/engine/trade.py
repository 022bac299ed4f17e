"""Trades between players (TRADE-3), built up one item at a time so the list of legal actions
stays complete and finite.

The active player opens an offer to one player (``offer``), adds what they give and what they ask
(``give`` / ``ask`` with an item kind), then ``propose``s or ``cancel``s. The other player
``accept``s (naming which of their hand cards go, when cards from hand were asked) or
``decline``s. RULINGS: at most three offers opened per turn; an offer may ask for a number of hand cards
(the giver picks them on accepting), since the asker cannot see them; a trade may not leave
anyone above the hand limit; a player's own Homeworld cannot be traded (that would be a
resignation, not a trade).
"""
from __future__ import annotations

from typing import Final

from itertools import combinations

from . import events as E
from .rules import emit, set_controller, version_for
from .state import ActionTuple, GameState, Trade, TradeItem

OFFERS_PER_TURN: Final = 3
ITEM_KINDS: Final = ("credit", "card", "tech", "system", "vessel", "hand")


def _trade(g: GameState) -> Trade:
    """The trade on the table (the trade steps have one)."""
    assert g.trade is not None, "no trade on the table"
    return g.trade


def _capacity_ok(g: GameState, tr: Trade) -> bool:
    me, you = g.active, tr.to
    given = sum(1 for k, _ in tr.give if k == "card")
    limit = g.ed.hand_limit
    return (len(g.hands[me]) - given + tr.ask_hand <= limit
            and len(g.hands[you]) - tr.ask_hand + given <= limit)


def check_offer(g: GameState, p: int, a: ActionTuple) -> str | None:
    if len(a) != 2 or a[1] == p or not isinstance(a[1], int) or not 0 <= a[1] < g.cfg.players \
            or not g.alive[a[1]]:
        return "TRADE-3: offer a trade to another player still in the game"
    if g.offers_made >= OFFERS_PER_TURN:
        return f"TRADE-3: at most {OFFERS_PER_TURN} offers per turn"
    return None


def do_offer(g: GameState, p: int, a: ActionTuple) -> None:
    g.offers_made += 1  # counted when opened, so opening and cancelling cannot go on forever
    g.trade = Trade(a[1])
    g.step = "trade_build"
    emit(g, E.TradeOpen("trade_open", p, a[1]))


def check_item(g: GameState, p: int, a: ActionTuple) -> str | None:
    if len(a) != 3 or a[1] not in ITEM_KINDS:
        return f"TRADE-3: {a[0]} takes an item kind ({', '.join(ITEM_KINDS)}) and a value"
    tr = _trade(g)
    giving = a[0] == "give"
    owner = p if giving else tr.to
    kind, val = a[1], a[2]
    if kind == "credit":
        if val != 1 or (tr.give_credits if giving else tr.ask_credits) >= g.credits[owner]:
            return "TRADE-3: credits are added one at a time, up to what that player has"
        return None
    if kind == "hand":
        if giving or val != 1 or tr.ask_hand >= len(g.hands[owner]):
            return "TRADE-3: ask for cards from their hand one at a time, up to their hand size"
        return None
    if kind == "card" and not giving:
        return "TRADE-3: you cannot see their hand; ask for a number of cards instead (kind 'hand')"
    if (a[0], kind, val) not in item_actions(g, p):
        return f"TRADE-3: that {kind} cannot be added"
    return None


def do_item(g: GameState, p: int, a: ActionTuple) -> None:
    tr = _trade(g)
    give, ask, give_credits, ask_credits, ask_hand = tr.give, tr.ask, tr.give_credits, tr.ask_credits, tr.ask_hand
    giving = a[0] == "give"
    if a[1] == "credit":
        if giving:
            give_credits += 1
        else:
            ask_credits += 1
    elif a[1] == "hand":
        ask_hand += 1
    elif giving:
        give += ((a[1], a[2]),)
    else:
        ask += ((a[1], a[2]),)
    g.trade = Trade(tr.to, give, ask, give_credits, ask_credits, ask_hand)


def item_actions(g: GameState, p: int) -> list[ActionTuple]:
    """Every item ``p`` may add next to the offer on the table: credits, a number of cards from
    the other hand, then what ``p`` may give (hand cards by id, technologies, systems, vessels)
    and what they may ask for, in that order. (About a quarter of random play's steps are trade
    steps, so the systems and vessels are sorted by owner in one pass each, and loops, not
    comprehensions, build the list.)"""
    tr = _trade(g)
    you = tr.to
    out: list[ActionTuple] = []
    if tr.give_credits < g.credits[p]:
        out.append(("give", "credit", 1))
    if tr.ask_credits < g.credits[you]:
        out.append(("ask", "credit", 1))
    if tr.ask_hand < len(g.hands[you]):
        out.append(("ask", "hand", 1))
    mine_home, yours_home = g.homeworld[p], g.homeworld[you]  # RULING: a player's own Homeworld is never traded
    my_systems: list[int] = []
    your_systems: list[int] = []
    for pos, s in enumerate(g.sites):
        if s.owner == p:
            if pos != mine_home:
                my_systems.append(pos)
        elif s.owner == you and pos != yours_home:
            your_systems.append(pos)
    my_vessels: list[int] = []
    your_vessels: list[int] = []
    for v in g.vessels.values():
        if v.owner == p:
            my_vessels.append(v.id)
        elif v.owner == you:
            your_vessels.append(v.id)
    # a hand card is given by id; the other hand is asked for by number (above)
    _add_items(out, "give", tr.give, g.hands[p], g.techs[p], my_systems, my_vessels)
    _add_items(out, "ask", tr.ask, [], g.techs[you], your_systems, your_vessels)
    return out


def _add_items(out: list[ActionTuple], verb: str, side: tuple[TradeItem, ...], cards: list[int], techs: list[int],
               systems: list[int], vessels: list[int]) -> None:
    """Append ``verb``'s items of each kind to ``out``, leaving out those already on ``side``."""
    if not side:
        for cid in cards:
            out.append((verb, "card", cid))
        for cid in techs:
            out.append((verb, "tech", cid))
        for pos in systems:
            out.append((verb, "system", pos))
        for vid in vessels:
            out.append((verb, "vessel", vid))
        return
    for kind, values in (("card", cards), ("tech", techs), ("system", systems), ("vessel", vessels)):
        taken = [x for k, x in side if k == kind]
        for x in values:
            if x not in taken:
                out.append((verb, kind, x))


def check_propose(g: GameState, p: int, a: ActionTuple) -> str | None:
    tr = _trade(g)
    if not (tr.give or tr.ask or tr.give_credits or tr.ask_credits or tr.ask_hand):
        return "TRADE-3: the offer is empty"
    if not _capacity_ok(g, tr):
        return "HAND-1: the trade would leave a player above the hand limit"
    return None


def do_propose(g: GameState, p: int, a: ActionTuple) -> None:
    to = _trade(g).to
    g.step, g.actor = "trade_answer", to
    emit(g, E.TradeOffer("trade_offer", p, to))


def do_cancel(g: GameState, p: int, a: ActionTuple) -> None:
    g.trade = None
    g.step, g.actor = "command", g.active
    emit(g, E.TradeCancel("trade_cancel", p))


def check_accept(g: GameState, p: int, a: ActionTuple) -> str | None:
    cards = a[1:]
    tr = _trade(g)
    if len(cards) != tr.ask_hand or len(set(cards)) != len(cards) or \
            any(c not in g.hands[p] for c in cards) or list(cards) != sorted(cards):
        return f"TRADE-3: name {tr.ask_hand} different cards from your hand, in increasing order"
    return None


def do_accept(g: GameState, p: int, a: ActionTuple) -> None:
    """The trade happens at once and whole."""
    tr, me = _trade(g), g.active
    g.credits[me] += tr.ask_credits - tr.give_credits
    g.credits[p] += tr.give_credits - tr.ask_credits
    for frm, to, items in ((me, p, tr.give), (p, me, tr.ask)):
        for kind, val in items:
            _transfer(g, frm, to, kind, val)
    for cid in a[1:]:
        g.hands[p].remove(cid)
        g.hands[me].append(version_for(g, cid, me))
    emit(g, E.TradeDone("trade_done", me, p, tuple(a[1:])))
    g.trade = None
    g.step, g.actor = "command", me


def _transfer(g: GameState, frm: int, to: int, kind: str, val: int) -> None:
    if kind == "card":
        g.hands[frm].remove(val)
        g.hands[to].append(version_for(g, val, to))
    elif kind == "tech":
        g.techs[frm].remove(val)
        g.techs[to].append(version_for(g, val, to))
    elif kind == "system":
        set_controller(g, val, to)
    elif kind == "vessel":
        v = g.vessels[val]
        v.owner, v.fresh, v.built = to, True, False


def do_decline(g: GameState, p: int, a: ActionTuple) -> None:
    emit(g, E.TradeDecline("trade_decline", p))
    g.trade = None
    g.step, g.actor = "command", g.active


def answer_actions(g: GameState, p: int) -> list[ActionTuple]:
    n = _trade(g).ask_hand
    return [("decline",)] + [("accept", *c) for c in combinations(sorted(g.hands[p]), n)]
