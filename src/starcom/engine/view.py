"""Per-player views (what one player may know) and determinization (re-dealing what they may not).

Hidden information: other players' hands (only their size and the domains on the card backs
show), the order and contents of every deck, and face-down systems. Everything else is public.
"""
from __future__ import annotations

import random
from dataclasses import asdict
from typing import Any

from ..cards import registry
from ..cards.catalogue import CARD_DEF, DOMAINS
from . import rules as R
from .board import name as pos_name
from .state import GameState

# Choices whose options are card ids from the chooser's (or a victim's) hand.
CARD_CHOICES = frozenset({"hand_full", "receive_full", "ability_discard"})


def _card_choice(kind: object) -> bool:
    """Engine choices above, or card-effect choices registered as having card options."""
    return kind in CARD_CHOICES or kind in registry.CARD_OPTION_CHOICES


def card_info(cid: int) -> dict[str, Any]:
    d = CARD_DEF[cid]
    return {"id": cid, "name": d.name, "kind": d.kind, "domain": d.domain, "text": d.text}


def vessel_info(g: GameState, v) -> dict[str, Any]:
    return {
        "id": v.id, "name": v.d.name, "kind": v.d.kind, "size": v.d.size, "owner": v.owner,
        "pos": v.pos, "attack": R.attack(g, v), "hp": R.max_hp(g, v), "damage": v.damage,
        "speed": R.speed(g, v), "jumps": v.jumps, "fresh": v.fresh, "text": v.d.text,
        "shielded": v.shielded, "untargetable": v.untargetable, "no_attack": v.no_attack,
    }


def site_info(g: GameState, pos: int) -> dict[str, Any]:
    s = g.sites[pos]
    out: dict[str, Any] = {"pos": pos, "name": pos_name(pos, g.cfg.size), "face_up": s.face_up,
                           "owner": s.owner, "devs": s.devs, "under_siege": R.under_siege(g, pos),
                           "contested": R.contested(g, pos), "interdicted_by": list(s.interdicted_by)}
    if s.face_up:
        out.update(card=s.d.name, card_id=s.card, domain=s.d.domain, max_dev=R.max_dev(g, pos), text=s.d.text)
    return out


def player_view(g: GameState, p: int | None) -> dict[str, Any]:
    """JSON-ready view for player ``p`` (None: a spectator, who sees only public information)."""
    n = g.cfg.players
    players = []
    for q in range(n):
        players.append({
            "seat": q, "alive": g.alive[q], "credits": g.credits[q], "hand_size": len(g.hands[q]),
            "hand_domains": sorted(CARD_DEF[c].domain for c in g.hands[q]),
            "technologies": [card_info(c) for c in g.techs[q]], "homeworld": g.homeworld[q],
            "developments": R.total_devs(g, q),
        })
    choice = None
    if g.choice is not None:
        choice = {"player": g.choice["player"], "kind": g.choice["kind"]}
        if g.choice["player"] == p:
            choice["options"] = list(g.choice["options"])
            # Whether the integer options are card ids (start-of-turn order: public cards).
            choice["cards"] = _card_choice(g.choice["kind"]) or g.choice["kind"] == "order"
            if "ctx" in g.choice:
                choice["ctx"] = g.choice["ctx"]
    trade = None
    if g.trade is not None:
        tr = g.trade
        sees_cards = p in (g.active, tr["to"]) and (p == g.active or g.step == "trade_answer")
        trade = {k: tr[k] for k in ("to", "give_credits", "ask_credits", "ask_hand")}
        trade["from"] = g.active
        trade["proposed"] = g.step == "trade_answer"
        trade["ask"] = [list(i) for i in tr["ask"]]
        trade["give"] = [list(i) if i[0] != "card" or sees_cards else ["card", None] for i in tr["give"]]
    return {
        "viewer": p,
        "config": asdict(g.cfg),
        "turn": g.turn, "active": g.active, "phase": g.phase, "decision": g.step,
        "to_move": None if g.over else g.actor,
        "players": players,
        "hand": [card_info(c) for c in g.hands[p]] if p is not None else None,
        "decks": [len(d) for d in g.decks],
        "discards": [[card_info(c) for c in pile] for pile in g.discards],
        "system_deck": len(g.sysdeck),
        "supply": {name: len(ids) for name, ids in g.supply.items()},
        "board": [site_info(g, pos) for pos in range(len(g.sites))],
        "vessels": [vessel_info(g, v) for v in g.vessels.values()],
        "stack": [{"kind": it[0], "player": it[1], "card": card_info(it[2]), "targets": list(it[3:])}
                  for it in g.stack],
        "combat_at": g.combat_pos if g.combat_pos >= 0 else None,
        "assigned": [list(a) for a in g.assigned],
        "choice": choice, "trade": trade,
        "extra_turns": g.extra_turns, "over": g.over, "winner": g.winner,
    }


def event_for(event: tuple, p: int | None) -> tuple:
    """An event as ``p`` may see it: cards drawn by others are hidden."""
    if event[0] == "draw" and event[1] != p:
        return event[:3] + (None,)
    if event[0] == "trade_done" and p not in (event[1], event[2]):
        return event[:3] + (len(event[3]),)
    return event


def determinize(g: GameState, p: int, rng: random.Random) -> GameState:
    """A copy of ``g`` in which everything ``p`` cannot see is re-dealt at random, consistently
    with ``p``'s view (hand sizes and card-back domains kept)."""
    h = g.clone()
    remap: dict[int, int] = {}
    known = set()
    if h.trade is not None and (p == h.active or (p == h.trade["to"] and h.step == "trade_answer")):
        known = {v for k, v in h.trade["give"] if k == "card"}
    if h.choice is not None and h.choice["player"] == p and _card_choice(h.choice["kind"]):
        known |= {o for o in h.choice["options"] if isinstance(o, int)}  # e.g. a revealed hand
    for d in range(len(DOMAINS)):
        slots: list[tuple[list[int], int]] = [(h.decks[d], i) for i in range(len(h.decks[d]))]
        for q in range(h.cfg.players):
            if q != p:
                slots += [(h.hands[q], i) for i, c in enumerate(h.hands[q])
                          if CARD_DEF[c].domain_index == d and c not in known]
        old = [lst[i] for lst, i in slots]
        new = list(old)
        rng.shuffle(new)
        for (lst, i), o, nw in zip(slots, old, new):
            lst[i] = nw
            remap[o] = nw
    sys_slots = [i for i, s in enumerate(h.sites) if not s.face_up]
    pool = [h.sites[i].card for i in sys_slots] + h.sysdeck
    rng.shuffle(pool)
    for i, cid in zip(sys_slots, pool):
        h.sites[i].card = cid
    h.sysdeck = pool[len(sys_slots):]
    h.rng = rng.getrandbits(64)
    if h.choice is not None and _card_choice(h.choice["kind"]):
        h.choice["options"] = [remap.get(o, o) if isinstance(o, int) else o for o in h.choice["options"]]
        if "item" in h.choice:
            h.choice["item"] = list(h.choice["item"])
    for t in h.tasks:
        if t[0] == "receive":
            t[2] = remap.get(t[2], t[2])
        elif t[0] == "ask" and _card_choice(t[2]):
            t[4:] = [remap.get(o, o) for o in t[4:]]
    if h.trade is not None:
        h.trade["give"] = [[k, remap.get(v, v) if k == "card" else v] for k, v in h.trade["give"]]
    return h
