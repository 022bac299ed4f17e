"""Star Commander in the words of the terminal games (the entry's ``words`` hooks ``table``,
``hand``, ``status``, ``option``, ``irreversible`` and ``decision``): the table as plain lines
(every system with what is in it, the players' credits and hands, the stack), the viewer's hand
with each card's text, the price of each option that costs, and which choices give something up
for good.

Everything a viewer is shown is drawn from the observer's view of that viewer
(:data:`starcom.sc.observer.STARCOM`) or worded by :func:`starcom.sc.text.describe_action`,
which asks the observer too, so nothing hidden reaches the screen. The prices are those the
rules charge (``engine.commands``): a price is the seat's own business and public anyway.

Which choices ask for a confirmation, picked by number (``irreversible``): scrapping a ship (it
is gone for good, for half its cost), selling two cards, ending the Command phase while a
vessel could still jump or something could still be built, developed, played, used or bought,
and finishing a damage assignment while a vessel could still fire.
"""
from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from .cards.catalogue import DOMAINS
from .engine.board import name as pos_name
from .engine.game import Game
from .engine.notation import field_kinds
from .observer import STARCOM as OBSERVER
from .options import price
from .text import describe_action

Action = tuple[Any, ...]
PHASES = {"ready": "Ready", "command": "Command", "combat": "Combat", "end": "End"}
# What each decision asks, in a few words, for the status line.
DECISIONS = {
    "command": "your Command phase", "priority": "answer the stack or pass", "choice": "a choice",
    "combat_pick": "pick the next combat", "assign": "assign combat damage", "retreat": "retreat or stay",
    "build_window": "build a ship or pass", "trade_build": "prepare your trade offer",
    "trade_answer": "answer a trade offer",
}


def _val(x: Any) -> str:
    return str(getattr(x, "value", x))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _credits(n: int) -> str:
    return _plural(n, "credit")


def _vessel_words(v: dict[str, Any]) -> str:
    """``P1 Corvette #130 (attack 2, 3 hp, 1 damage, shielded)``."""
    notes = [f"attack {v['attack']}", f"{v['hp']} hp"]
    if v.get("damage"):
        notes.append(f"{v['damage']} damage")
    notes += [word for word in ("shielded", "untargetable") if v.get(word)]
    return f"P{v['owner']} {v['name']} #{v['id']} ({', '.join(notes)})"


def _seat(q: int, viewer: int | None) -> str:
    return f"P{q} (you)" if q == viewer else f"P{q}"


def table(game: Game, viewer: int | None) -> list[str]:
    """The table as ``viewer`` may see it, in plain lines: the turn and decision, each player
    (credits, developments, hand size and card backs, technologies), each system with its
    owner, developments and vessels, the stack, the decks, and the viewer's hand by name."""
    v = OBSERVER.view(game, viewer)
    cfg = v["config"]
    limit = f" of {cfg['turn_limit']}" if cfg.get("turn_limit") else ""
    out = [f"Turn {v['turn'] + 1}{limit} · {PHASES.get(v['phase'], v['phase'])} phase · P{v['active']}'s turn"]
    if v["over"]:
        w = v["winner"]
        out.append("Game over: " + ("a draw" if w == -1 else f"P{w} wins"))
    elif v["to_move"] is not None:
        out.append(f"P{v['to_move']} to decide: {DECISIONS.get(v['decision'], v['decision'])}")
    out.append("Players:")
    for p in v["players"]:
        backs = ", ".join(_val(d) for d in p["hand_domains"])
        techs = ", ".join(c["name"] for c in p["technologies"]) or "none"
        held = _plural(p["hand_size"], "card") + (f" ({backs})" if backs else "")
        out.append(f"  {_seat(p['seat'], viewer)}: {_credits(p['credits'])}, "
                   f"{_plural(p['developments'], 'development')}, {held} in hand, technologies: {techs}"
                   + ("" if p["alive"] else " — out of the game"))
    n = cfg["size"]
    out.append(f"Board ({n}x{n}: columns a-{'abcde'[n - 1]}, rows 1-{n}; b2 is next to a2, c2, b1 and b3):")
    at: dict[int, list[dict[str, Any]]] = {}
    for vessel in v["vessels"]:
        at.setdefault(vessel["pos"], []).append(vessel)
    for site in v["board"]:
        if site["face_up"]:
            owner = f"P{site['owner']}'s" if site["owner"] is not None and site["owner"] >= 0 else "nobody's"
            dom = _val(site.get("domain") or "none")
            words = f"{site['card']}, {owner}, {site['devs']}/{site.get('max_dev', '?')} developments"
            words += "" if dom == "none" else f", {dom}"
        else:
            words = "unexplored"
        marks = [m for m, on in (("contested", site.get("contested")), ("under siege", site.get("under_siege")))
                 if on]
        if marks:
            words += f" ({', '.join(marks)})"
        here = sorted(at.get(site["pos"], []), key=lambda x: (x["owner"], x["name"], x["id"]))
        out.append(f"  {site['name']}: {words}" + (":" if here else ""))
        out += [f"    {_vessel_words(x)}" for x in here]
    if v["stack"]:
        out.append("Stack (the last resolves first):")
        out += [f"  P{item['player']} {item['card']['name']}: {item['card']['text']}" for item in v["stack"]]
    decks = ", ".join(f"{_val(d)} {n}" for d, n in zip(DOMAINS, v["decks"]))
    out.append(f"Decks: {decks}; systems {v['system_deck']}")
    if viewer is not None and v.get("hand") is not None:
        names = ", ".join(c["name"] for c in v["hand"]) or "empty"
        out.append(f"Your hand: {names} (hand shows the cards' text)")
    return out


def hand(game: Game, viewer: int | None) -> list[str]:
    """The viewer's hand, a card a line with its domain, kind and text, then the viewer's
    technologies in play; a spectator is told hands are hidden."""
    v = OBSERVER.view(game, viewer)
    if viewer is None or v.get("hand") is None:
        return ["Hands are hidden from spectators."]
    cards = v["hand"]
    out = [f"Your hand ({len(cards)} card{'s' * (len(cards) != 1)}):" if cards else "Your hand is empty."]
    out += [f"  {c['name']} [{_val(c['domain'])} {_val(c['kind'])}]: {c['text']}" for c in cards]
    techs = v["players"][viewer]["technologies"]
    if techs:
        out.append("Your technologies in play:")
        out += [f"  {c['name']}: {c['text']}" for c in techs]
    return out


def status(game: Game, seat: int) -> str:
    """One line before ``seat`` decides: the turn and phase, what the decision asks, the seat's
    credits and hand, and every other player's credits."""
    v = OBSERVER.view(game, seat)
    me = v["players"][seat]
    others = ", ".join(f"P{p['seat']} {p['credits']}" for p in v["players"] if p["seat"] != seat)
    ask = DECISIONS.get(v["decision"], v["decision"])
    return (f"Turn {v['turn'] + 1}, {PHASES.get(v['phase'], v['phase'])} phase — P{seat}, {ask}. "
            f"You have {_credits(me['credits'])} and {_plural(me['hand_size'], 'card')} in hand; "
            f"credits of the others: {others}.")


def option(game: Game, action: Action, seat: int) -> str:
    """An option of ``seat``'s decision in words, with its price where it costs or pays:
    "P0 develops c3 (costs 2 of your 5 credits)"."""
    text = describe_action(game, action, seat) + _where(game, action, seat)
    paid = price(game, action, seat)
    if paid is None:
        return text
    cost, gain = paid
    have = game.credits[seat]
    if action[0] == "buy":  # its sentence says the price
        text += f" (you have {_credits(have)})"
    elif cost:
        text += f" (costs {_credits(cost)}; you have {have})"
    elif gain and action[0] == "scrap":  # selling's sentence says what it brings in
        text += f" (you get {_credits(gain)} back)"
    return text


def _where(game: Game, action: Action, seat: int) -> str:
    """For a card, an ability or combat damage aimed at vessels: which vessel each is (its card
    id), whose, and in which system, so that two of a kind tell apart (" — P1's Destroyer #154
    at a2"). Vessels in play are public."""
    if action[0] not in ("play", "ability", "assign", "redirect"):
        return ""
    kinds = field_kinds(game, action)
    named = []
    for kind, x in zip(kinds, action[1:]):
        v = game.vessels.get(x) if kind == "vessel" and type(x) is int else None
        if v is not None:
            owner = "your" if v.owner == seat else f"P{v.owner}'s"
            named.append(f"{owner} {v.d.name} #{v.id} at {pos_name(v.pos, game.cfg.size)}")
    return f" — {'; '.join(named)}" if named else ""


def _left_unused(game: Game, seat: int) -> list[str]:
    """What ``seat`` could still do in its Command phase, besides trading and selling."""
    legal = game.legal_actions()
    jumpers = {a[1] for a in legal if a[0] == "jump"}
    kinds = {a[0] for a in legal}
    out = []
    if jumpers:
        out.append(f"{len(jumpers)} vessel{'s' * (len(jumpers) > 1)} that can still jump")
    for kind, words in (("build", "building"), ("develop", "developing"), ("play", "cards to play"),
                        ("ability", "abilities to use"), ("buy", "buying a card")):
        if kind in kinds:
            out.append(words)
    return out


def irreversible(game: Game, action: Action, seat: int) -> str | None:
    """Why ``action`` deserves a confirmation before it is played (see the module's docstring),
    or None."""
    k = action[0]
    if k == "scrap" and action[1] in game.vessels:
        v = game.vessels[action[1]]
        ships = [x for x in game.vessels.values() if x.owner == seat and x.d.is_ship]
        last = " It is your only ship." if len(ships) == 1 else ""
        back = max(1, v.d.cost // 2)
        return f"scrapping destroys your {v.d.name} #{v.id} for good; you get {_credits(back)} back.{last}"
    if k == "sell":
        return ("selling discards both cards for good, for 3 credits.")
    if k == "end" and game.decision == "command":
        unused = _left_unused(game, seat)
        if unused:
            return ("ending the Command phase gives up what you have not done yet: "
                    + ", ".join(unused) + ".")
    if k == "done" and game.decision == "assign" and any(a[0] == "assign" for a in game.legal_actions()):
        return "your vessels could still fire; done gives that up for this combat."
    return None


def decision(game: Game) -> Hashable:
    """The decision in front of the seat to move, as a value that stays equal while it lasts:
    a Command phase is one (responses to its cards and questions in its middle come and go
    inside it), as is one seat's damage assignment or retreat in one combat; every choice and
    every response window is one of its own."""
    if game.over:
        return ("over",)
    step = game.decision
    if step == "command":
        return (game.turn, game.active, step)
    if step in ("assign", "retreat", "trade_build"):
        return (game.turn, game.active, step, game.to_move, game.combat_pos)
    return (game.turn, game.active, step, game.to_move, game.actions_played)


__all__ = ["decision", "hand", "irreversible", "option", "price", "status", "table"]
