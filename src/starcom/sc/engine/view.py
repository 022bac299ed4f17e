"""What each seat may know: the engine's observer, per-seat views and determinization.

Hidden information: other players' hands (only their size and the domains on the card backs
show), the order and contents of every deck, face-down systems and the system deck, and the
game's seed while it runs (the seed fixes every shuffle, so it would give all of the above away).
Everything else is public.

Every secrecy decision of the project is made here, by the small functions of the observer
below; views, log lines, action texts, replays and determinizations are all built from them, and
no other module decides what a viewer may see. A viewer is a seat number, or None for a
spectator (who sees only public information).
"""
from __future__ import annotations

import random
from dataclasses import asdict, replace
from typing import Any, Callable, Final, TypeVar

from ..cards.catalogue import DOMAINS
from ..cards.wording import CHOICE_WORDS
from . import events as E
from . import lasting as L
from . import rules as R
from . import tasks as T
from .banner import decision_text
from .board import name as pos_name
from .state import ActionTuple, GameState, Vessel
from ...kit.rng import random_shuffle

Viewer = int | None
Event = tuple[Any, ...]  # a typed event (events.py) or a plain tuple of the same shape
Action = ActionTuple

# --------------------------------------------------------------------------- the observer

# Engine choices whose options are card ids from a hand (the chooser's own, when it is full or
# pays for an ability); a card effect's choice offers card ids when its words say so.
CARD_CHOICES: Final = frozenset({"hand_full", "receive_full", "ability_discard"})
CARD_EFFECT_CARD_CHOICES: Final = frozenset(k for k, w in CHOICE_WORDS.items() if w.value == "card")

# Config fields nobody may see while the game runs: the seed determines every shuffle.
SECRET_CONFIG: Final = frozenset({"seed"})


def card_options(kind: object) -> bool:
    """Whether the options of a choice of this kind are card ids taken from a hand (an engine
    choice of :data:`CARD_CHOICES`, or a card effect's choice worded with card values, such as
    a hand shown to the chooser, ``cards.wording``).
    Only the chooser may know such options, and which of them was chosen."""
    return kind in CARD_CHOICES or kind in CARD_EFFECT_CARD_CHOICES


def sees_choice(g: GameState, p: Viewer) -> bool:
    """Whether ``p`` sees the options (and context) of the pending choice: only the player who
    makes it does. False when no choice is pending."""
    return g.choice is not None and p is not None and g.choice.player == p


def trade_cards_visible(g: GameState, p: Viewer) -> bool:
    """Whether ``p`` may see which hand cards are offered in the trade on the table: the
    offering (active) player always, the receiver only once the offer is proposed, nobody else.
    False when no trade is on the table."""
    if g.trade is None or p is None:
        return False
    return p == g.active or (p == g.trade.to and g.step == "trade_answer")


def trade_for(g: GameState, p: Viewer) -> dict[str, Any] | None:
    """The trade on the table as ``p`` sees it (None without one): who offers to whom, whether
    it is proposed, and its items, with each offered hand card as ``["card", None]`` unless
    :func:`trade_cards_visible`. Nothing can be asked by card id (the asker cannot see the
    other hand), so the asked items are all public."""
    tr = g.trade
    if tr is None:
        return None
    sees = trade_cards_visible(g, p)
    out: dict[str, Any] = {"to": tr.to, "give_credits": tr.give_credits, "ask_credits": tr.ask_credits,
                           "ask_hand": tr.ask_hand}
    out["from"] = g.active
    out["proposed"] = g.step == "trade_answer"
    out["ask"] = [list(i) for i in tr.ask]
    out["give"] = [list(i) if i[0] != "card" or sees else ["card", None] for i in tr.give]
    return out


def config_for(g: GameState) -> dict[str, Any]:
    """The game's settings as anyone may see them: everything but :data:`SECRET_CONFIG` while
    the game runs; all of them once it is over (a finished game may publish its seed, so that
    it can be replayed)."""
    cfg = asdict(g.cfg)
    if not g.over:
        for key in SECRET_CONFIG:
            cfg.pop(key, None)
    return cfg


def known_cards(g: GameState, p: Viewer) -> set[int]:
    """The cards out of public view whose identity ``p`` knows now: their own hand, the hand
    cards offered in a trade they may see (:func:`trade_cards_visible`), and the options of a
    card choice they are making (:func:`card_options`, e.g. a hand shown to them). Every other
    card in a hand, a deck, the system deck or face down on the board is unknown to ``p``; a
    spectator knows none. (Cards shown earlier, such as a revealed hand, are not remembered.)"""
    if p is None:
        return set()
    known = set(g.hands[p])
    if g.trade is not None and trade_cards_visible(g, p):
        known |= {v for k, v in g.trade.give if k == "card"}
    if g.choice is not None and sees_choice(g, p) and card_options(g.choice.kind):
        known |= {o for o in g.choice.options if isinstance(o, int)}
    return known


def deck_outlook(g: GameState, deck: int) -> tuple[int, dict[str, int], bool]:
    """What anyone may know of the domain deck ``deck`` (an index of ``DOMAINS``): how many cards
    it has left; how many of its domain's cards out of public view are of each kind (card kind
    name to count); and whether those are exactly the deck's cards.

    The cards of a domain out of public view are its deck and the hand cards of that domain
    (whose number each hand's card backs show). Which of them are in the deck and which in a hand
    is hidden, and so is their order, so only their kinds together are public: they are what is
    left of the domain once the cards in public zones (discard piles, technologies, stations on
    the board, the stack) are taken away, and the deck's expected share of each kind. It is
    exact when no hand holds a card of the domain. A re-deal of the hidden cards
    (:func:`determinize`) keeps all three answers: they tell nothing about a hand or the next
    card. (Cards shown earlier, such as a revealed hand, are not remembered, as in
    :func:`known_cards`.)"""
    cards = g.rules.cards
    held = [c for hand in g.hands for c in hand if cards[c].domain_index == deck]
    kinds: dict[str, int] = {}
    for c in (*g.decks[deck], *held):
        kind = str(cards[c].kind)
        kinds[kind] = kinds.get(kind, 0) + 1
    return len(g.decks[deck]), kinds, not held


def _draw_for(event: E.Draw, p: Viewer) -> E.Draw:
    # The others learn which deck, not the card.
    return event if event.player == p else event._replace(card=None)


def _trade_done_for(event: E.TradeDone, p: Viewer) -> E.TradeDone:
    # The others learn how many cards went from the receiver's hand, not which.
    if p in (event.offerer, event.receiver):
        return event
    cards = event.cards
    assert not isinstance(cards, int), "a trade_done event is filtered once"
    return event._replace(cards=len(cards))


# Events that carry something not every viewer may see, each with its filter, which hides
# fields by name. Every other event is public: it names only cards in play, discarded, revealed
# or explored. The fields each filter was written for are checked here, so that a secret event
# that gains a field fails at import instead of showing it unfiltered.
SECRET_EVENTS: Final[dict[str, Callable[[Any, Viewer], Any]]] = {
    "draw": _draw_for,
    "trade_done": _trade_done_for,
}
assert E.EVENT_FIELDS["draw"] == ("player", "deck", "card")
assert E.EVENT_FIELDS["trade_done"] == ("offerer", "receiver", "cards")


def event_for(event: Event, p: Viewer) -> Event:
    """``event`` as ``p`` may see it: a card drawn by someone else becomes None, and the hand
    cards handed over in a trade between two others become their number. (A plain tuple is
    read as the event type of its kind.)"""
    hide = SECRET_EVENTS.get(event[0])
    if hide is None:
        return event
    if type(event) is tuple:
        fields = E.EVENT_FIELDS[event[0]]
        if len(event) != len(fields) + 1:
            raise ValueError(f"a '{event[0]}' event has the fields {fields}, not {event[1:]!r}")
        event = tuple.__new__(E.EVENT_TYPES[event[0]], event)
    shown: Event = hide(event, p)
    return shown


# Events that show a viewer something that was hidden before: a card drawn (to the drawer), a
# system explored, a hand revealed, a card taken from a hand, hand cards traded.
REVEALING_EVENTS: Final = frozenset({"draw", "explore", "reveal", "take", "trade_done"})


def reveals(events: list[Event], rng_before: int, rng_after: int) -> bool:
    """Whether a step that emitted ``events`` and moved the generator from ``rng_before`` to
    ``rng_after`` showed anyone something hidden or drew on chance (a shuffle). Such a step
    cannot be taken back without letting its player play it again knowing what it showed."""
    return rng_before != rng_after or any(e[0] in REVEALING_EVENTS for e in events)


def action_for(g: GameState, action: Action, p: Viewer) -> Action:
    """``action``, to be taken by the deciding player in ``g`` (the state before it), as ``p``
    may know it once taken: card ids ``p`` may not see become None. A hand card given to a
    trade is seen only by those who see the trade's cards (:func:`trade_cards_visible`, judged
    before it: the receiver learns it on the proposal); a card picked in a card choice only by
    the chooser; the hand cards handed over on accepting only by the two traders. Playing,
    selling or discarding shows a card to everyone, so those actions are returned whole."""
    kind = action[0]
    if kind == "give" and len(action) == 3 and action[1] == "card" and not trade_cards_visible(g, p):
        return (kind, "card", None)
    if kind == "choose" and len(action) == 2 and g.choice is not None and card_options(g.choice.kind) \
            and not sees_choice(g, p) and isinstance(action[1], int):
        return (kind, None)
    if kind == "accept" and (g.trade is None or p not in (g.active, g.trade.to)):
        return (kind, *(None for _ in action[1:]))
    return action


# --------------------------------------------------------------------------- views


def card_info(g: GameState, cid: int) -> dict[str, Any]:
    d = g.rules.cards[cid]
    return {"id": cid, "name": d.name, "kind": d.kind, "domain": d.domain, "text": d.text}


def vessel_info(g: GameState, v: Vessel) -> dict[str, Any]:
    return {
        "id": v.id, "name": v.d.name, "kind": v.d.kind, "size": v.d.size, "owner": v.owner,
        "pos": v.pos, "attack": R.attack(g, v), "hp": R.max_hp(g, v), "damage": v.damage,
        "speed": R.speed(g, v), "jumps": v.jumps, "fresh": v.fresh, "text": v.d.text,
        "shielded": L.shielded(g, v.id), "untargetable": L.untargetable(g, v.id),
        "no_attack": L.attack_forbidden(g, v.id),
    }


def site_info(g: GameState, pos: int) -> dict[str, Any]:
    s = g.sites[pos]
    out: dict[str, Any] = {"pos": pos, "name": pos_name(pos, g.cfg.size), "face_up": s.face_up,
                           "owner": s.owner, "devs": s.devs, "under_siege": R.under_siege(g, pos),
                           "contested": R.contested(g, pos), "interdicted_by": L.jump_blockers(g, pos)}
    if s.face_up:
        out.update(card=s.d.name, card_id=s.card, domain=s.d.domain, max_dev=R.max_dev(g, pos), text=s.d.text)
    return out


def player_view(g: GameState, p: Viewer) -> dict[str, Any]:
    """JSON-ready view for player ``p`` (None: a spectator): the public state, ``p``'s own hand,
    and the secrets the observer above lets ``p`` see (options of their own choice, the cards of
    a trade they may see, the seed once the game is over), nothing else."""
    n = g.cfg.players
    players = []
    for q in range(n):
        players.append({
            "seat": q, "alive": g.alive[q], "credits": g.credits[q], "hand_size": len(g.hands[q]),
            "hand_domains": sorted(g.rules.cards[c].domain for c in g.hands[q]),
            "technologies": [card_info(g, c) for c in g.techs[q]], "homeworld": g.homeworld[q],
            "developments": R.total_devs(g, q),
        })
    choice = None
    if g.choice is not None:
        choice = {"player": g.choice.player, "kind": g.choice.kind}
        if sees_choice(g, p):
            choice["options"] = list(g.choice.options)
            # Whether the integer options are card ids (start-of-turn order: public cards).
            choice["cards"] = card_options(g.choice.kind) or g.choice.kind == "order"
            if g.choice.ctx is not None:
                choice["ctx"] = g.choice.ctx
    return {
        "viewer": p,
        "config": config_for(g),
        "turn": g.turn, "active": g.active, "phase": g.phase, "decision": g.step,
        "decision_text": decision_text(g),  # the decision in public words, for banners
        "to_move": None if g.over else g.actor,
        "players": players,
        "hand": [card_info(g, c) for c in g.hands[p]] if p is not None else None,
        "decks": [len(d) for d in g.decks],
        "discards": [[card_info(g, c) for c in pile] for pile in g.discards],
        "system_deck": len(g.sysdeck),
        "supply": {name: len(ids) for name, ids in g.supply.items()},
        "board": [site_info(g, pos) for pos in range(len(g.sites))],
        "vessels": [vessel_info(g, v) for v in g.vessels.values()],
        "stack": [{"kind": it[0], "player": it[1], "card": card_info(g, it[2]), "targets": list(it[3:])}
                  for it in g.stack],
        "combat_at": g.combat_pos if g.combat_pos >= 0 else None,
        "assigned": [list(a) for a in g.assigned],
        "choice": choice, "trade": trade_for(g, p),
        "extra_turns": L.extra_turns(g), "over": g.over, "winner": g.winner,
    }


# --------------------------------------------------------------------------- determinization


S = TypeVar("S", bound=GameState)


def determinize(g: S, p: int, rng: random.Random) -> S:
    """A copy of ``g`` in which everything ``p`` cannot see is re-dealt at random, consistently
    with ``p``'s view: the cards of each domain's deck and of the other hands that ``p`` does
    not know (:func:`known_cards`) are shuffled together (hand sizes and card-back domains
    kept), face-down systems are re-dealt with the system deck, the generator is reseeded from
    ``rng`` and, while the game runs, the config's seed is replaced too (it would give the true
    deal away). Card ids held in a pending choice, queued task or trade are remapped to match."""
    h = g.clone()
    remap: dict[int, int] = {}
    known = known_cards(g, p)
    for d in range(len(DOMAINS)):
        slots: list[tuple[list[int], int]] = [(h.decks[d], i) for i in range(len(h.decks[d]))]
        for q in range(h.cfg.players):
            if q != p:
                slots += [(h.hands[q], i) for i, c in enumerate(h.hands[q])
                          if h.rules.cards[c].domain_index == d and c not in known]
        old = [lst[i] for lst, i in slots]
        new = list(old)
        random_shuffle(new, rng)
        for (lst, i), o, nw in zip(slots, old, new):
            lst[i] = nw
            remap[o] = nw
    sys_slots = [i for i, s in enumerate(h.sites) if not s.face_up]
    pool = [h.sites[i].card for i in sys_slots] + h.sysdeck
    random_shuffle(pool, rng)
    for i, cid in zip(sys_slots, pool):
        h.sites[i].set_card(cid, h.rules.cards[cid])
    h.sysdeck = pool[len(sys_slots):]
    h.rng = rng.getrandbits(64)
    if not h.over:
        # The new generator state doubles as the new seed: drawing another number from ``rng``
        # would shift every agent's random stream (and so every seeded game between agents).
        h.cfg = replace(h.cfg, seed=h.rng)
    if h.choice is not None and card_options(h.choice.kind):
        h.choice = replace(h.choice, options=tuple(remap.get(o, o) if isinstance(o, int) else o
                                                   for o in h.choice.options))
    for i, t in enumerate(h.tasks):
        if isinstance(t, T.Receive):
            h.tasks[i] = replace(t, card=remap.get(t.card, t.card))
        elif isinstance(t, T.Ask) and card_options(t.kind):
            h.tasks[i] = replace(t, options=tuple(remap.get(o, o) if isinstance(o, int) else o for o in t.options))
    if h.trade is not None:
        h.trade = replace(h.trade, give=tuple((k, remap.get(v, v) if k == "card" else v) for k, v in h.trade.give))
    return h
