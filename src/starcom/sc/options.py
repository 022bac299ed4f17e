"""Short labels for the options of one decision: "Build Cruiser at b2", "Jump Corvette #12 to c3
and explore", "Assign 3 damage: Cruiser #4 → P1's Frigate #9".

A label names every field of the action, as the engine's notation does
(:mod:`starcom.sc.engine.notation`, ``Game.notation``), in words: vessels by type and card id (the id tells
two Corvettes apart), other players' things with their owner, positions by name. Labels are
unique among the actions of one decision by construction: a last pass adds, to labels that are
still equal, the fields that tell their actions apart (see :func:`option_labels`).

What a label may name is decided by the engine's observer, as for log lines: every action is
first passed through :func:`starcom.sc.engine.view.action_for`. A label is meant for the seat
that decides, which knows every card its own options name.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Sequence

from .cards.catalogue import DOMAINS
from .cards.wording import CHOICE_WORDS
from .engine.board import name as pos_name
from .engine.commands import develop_cost
from .engine.game import Game
from .engine.notation import field_kinds
from .engine.state import Choice
from .engine.view import action_for, deck_outlook

Action = tuple[Any, ...]
Viewer = int | None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _is_id(x: Any, n: int) -> bool:
    return type(x) is int and 0 <= x < n


class _Words:
    """Names the things of one game as ``viewer`` sees them, for labels."""

    def __init__(self, game: Game, viewer: Viewer) -> None:
        self.g, self.viewer = game, viewer

    def p(self, q: Any) -> str:
        return f"P{q}"

    def pos(self, x: Any) -> str:
        n = self.g.cfg.size
        return pos_name(x, n) if _is_id(x, n * n) else str(x)

    def card(self, cid: Any) -> str:
        cards = self.g.rules.cards
        return cards[cid].name if _is_id(cid, len(cards)) else "a hidden card"

    def vessel(self, vid: Any) -> str:
        """``Corvette #12`` for the viewer's own vessel, ``P1's Corvette #12`` for another's."""
        cards = self.g.rules.cards
        if not _is_id(vid, len(cards)):
            return "a hidden vessel"
        v = self.g.vessels.get(vid)
        tag = f"{cards[vid].name} #{vid}"
        return tag if v is None or v.owner == self.viewer else f"{self.p(v.owner)}'s {tag}"

    def at(self, vid: Any) -> str:
        """" at b2": where a vessel in play stands (vessels in play are public), or ""."""
        v = self.g.vessels.get(vid) if type(vid) is int else None
        return f" at {self.pos(v.pos)}" if v is not None and _is_id(v.pos, self.g.cfg.size ** 2) else ""

    def target(self, vid: Any) -> str:
        """A vessel aimed at, always with its owner and its system, so that two alike ones tell
        apart by more than their number: "your Corvette #12 at b2", "P1's Destroyer #154 at c3"."""
        cards = self.g.rules.cards
        if not _is_id(vid, len(cards)):
            return "a hidden vessel"
        v = self.g.vessels.get(vid)
        tag = f"{cards[vid].name} #{vid}"
        if v is None:
            return tag
        owner = "your" if v.owner == self.viewer else f"{self.p(v.owner)}'s"
        return f"{owner} {tag}{self.at(vid)}"

    def face_down(self, pos: Any) -> bool:
        return _is_id(pos, len(self.g.sites)) and not self.g.sites[pos].face_up

    def explore(self, flag: Any, pos: Any) -> str:
        """" and explore", " without exploring" (only where exploring was possible), or ""."""
        if flag:
            return " and explore"
        return " without exploring" if self.face_down(pos) else ""

    def targets(self, cid: int, targets: Sequence[Any]) -> str:
        """A card's targets as words, read by its declared target kinds: "Frigate #9 to c3 and
        explore", "b2 ×3", "Frigate #9, pay 2 credits"."""
        if not targets:
            return ""
        kinds: tuple[str, ...] = self.g.rules.by_card[cid].target_kinds
        if self.g.rules.cards[cid].is_station:
            kinds = ("pos",)
        if len(kinds) != len(targets):
            return ": " + ", ".join(str(t) for t in targets)
        parts: list[str] = []
        last_pos: Any = None
        prev = ""
        for kind, t in zip(kinds, targets):
            if kind == "vessel" and prev == "vessel":
                parts[-1] += f" → {self.target(t)}"  # one vessel acting on another
            elif kind == "vessel":
                parts.append(self.target(t))
            elif kind == "pos":
                last_pos = t
                if prev == "vessel":
                    parts[-1] += f" to {self.pos(t)}"  # a vessel sent somewhere
                else:
                    parts.append(self.pos(t))
            elif kind == "explore":
                words = self.explore(t, last_pos)
                if parts:
                    parts[-1] += words
                elif words:
                    parts.append(words.strip())
            elif kind == "count" and parts:
                parts[-1] += f" ×{t}"
            elif kind == "credits":
                parts.append(f"pay {_plural(t, 'credit')}" if type(t) is int else f"pay {t}")
            elif kind == "player":
                parts.append(self.p(t))
            elif kind == "card":
                parts.append(self.card(t))
            else:
                parts.append(str(t))
            prev = kind
        if self.g.rules.cards[cid].is_station:
            return f" at {parts[0]}"
        return ": " + ", ".join(parts)


# Card kinds in the order a deck's shares are told, with their plural.
_KIND_WORDS = (("ship", "ships"), ("command", "commands"), ("station", "stations"),
               ("technology", "technologies"), ("system", "systems"))


def _percentages(counts: list[int]) -> list[int]:
    """Whole percentages of ``counts`` that add up to 100 (largest remainders round up)."""
    total = sum(counts)
    exact = [100 * c / total for c in counts]
    out = [int(x) for x in exact]
    for i in sorted(range(len(counts)), key=lambda i: out[i] - exact[i])[:100 - sum(out)]:
        out[i] += 1
    return out


def deck_words(g: Game, deck: int) -> str:
    """A domain deck as anyone may know it (:func:`~.engine.view.deck_outlook`): "22 cards left,
    about 55% commands, 27% technologies, 18% stations" ("about" unless the shares are exactly
    the deck's: no hand holds a card of its domain). Never the order or the next card."""
    left, kinds, exact = deck_outlook(g, deck)
    named = [(plural, kinds[kind]) for kind, plural in _KIND_WORDS if kinds.get(kind)]
    head = f"{_plural(left, 'card')} left"
    if not named:
        return head
    shares = ", ".join(f"{pct}% {plural}" for (plural, _), pct in zip(named, _percentages([n for _, n in named])))
    return f"{head}, {'' if exact else 'about '}{shares}"


def _choice_label(w: _Words, choice: Choice | None, value: Any) -> str:
    if value is None or choice is None:  # the observer hid which card it is
        return "Make a choice"
    kind = choice.kind
    if kind == "deck":
        if not _is_id(value, len(DOMAINS)):
            return f"Draw from the {value} deck"
        return f"Draw from the {DOMAINS[value].capitalize()} deck: {deck_words(w.g, value)}"
    if kind in ("hand_full", "receive_full"):
        if value == "skip":
            return "Skip the draw"
        if value == "decline":
            return "Decline the card"
        return f"Discard {w.card(value)} to make room"
    if kind == "order":
        return f"Resolve {w.card(value)} first"
    if kind == "ability_discard":
        return f"Discard {w.card(value)} to pay"
    words = CHOICE_WORDS.get(kind)
    if words is None:
        return f"Choose {value}"
    render = {"pos": w.pos, "card": w.card, "player": w.p}
    ctx = render.get(words.ctx, str)(choice.ctx)
    if words.value == "flag":
        text = words.label if value else (words.label_no or words.label)
        return text.format(ctx=ctx, value=value)
    return words.label.format(value=render.get(words.value, str)(value), ctx=ctx)


def _item(w: _Words, item: Any, val: Any) -> str:
    if item == "credit":
        return "1 credit"
    if item == "hand":
        return "a card from their hand"
    if item == "card":
        return w.card(val)
    if item == "system":
        return f"system {w.pos(val)}"
    if item == "vessel":
        return w.vessel(val)
    return f"technology {w.card(val)}"


def price(game: Game, action: Action, seat: int) -> tuple[int, int] | None:
    """What ``action`` costs ``seat`` and what it brings in, in credits, when it does either;
    None for an action that neither costs nor pays. The prices are those the rules charge
    (``engine.commands``): building (the card's cost), developing (DEV-1, DEV-2), repairing,
    buying and selling, scrapping (half the cost back) and a station card played from hand
    (BUILD-8)."""
    k = action[0]
    cards = game.rules.cards
    defs = game.rules.catalogue.defs
    if k == "build" and _is_id(action[1], len(defs)):
        return defs[action[1]].cost, 0
    if k == "develop" and _is_id(action[1], len(game.sites)):
        cost = develop_cost(game, seat, action[1])
        return (cost, 0) if isinstance(cost, int) else None
    if k == "repair":
        return 2, 0
    if k == "buy":
        return 3, 0
    if k == "sell":
        return 0, 3
    if k == "scrap" and type(action[1]) is int and action[1] in game.vessels:
        return 0, max(1, game.vessels[action[1]].d.cost // 2)
    if k == "play" and _is_id(action[1], len(cards)) and cards[action[1]].is_station:
        return cards[action[1]].cost or 0, 0  # a station card from hand is paid for (BUILD-8)
    return None


def _price_words(g: Game, a: Action, seat: Viewer) -> str:
    """" — 2 credits" after an option that costs, " — 1 credit back" after a scrap; "" for the
    rest and for buying and selling, whose labels say their price already."""
    if a[0] in ("buy", "sell"):
        return ""
    payer = g.to_move if seat is None else seat
    paid = None if payer is None else price(g, a, payer)
    if paid is None:
        return ""
    cost, gain = paid
    if cost:
        return f" — {_plural(cost, 'credit')}"
    return f" — {_plural(gain, 'credit')} back" if gain else ""


def _label(g: Game, w: _Words, a: Action) -> str:
    """The label of one (observed) action, before duplicates are told apart."""
    k = a[0]
    if k == "jump":
        carry = f" with {_plural(a[4], 'fighter')}" if a[4] else ""
        return f"Jump {w.vessel(a[1])} to {w.pos(a[2])}{carry}{w.explore(a[3], a[2])}"
    if k == "build":
        defs = g.rules.catalogue.defs
        name = defs[a[1]].name if _is_id(a[1], len(defs)) else str(a[1])
        return f"Build {name} at {w.pos(a[2])}"
    if k == "develop":
        return f"Develop {w.pos(a[1])}"
    if k in ("play", "ability"):
        verb = "Play" if k == "play" else "Use"
        if not _is_id(a[1], len(g.rules.cards)):
            return f"{verb} a hidden card"
        return f"{verb} {w.card(a[1])}{w.targets(a[1], a[2:])}"
    if k in ("scrap", "repair", "retreat"):
        to = f" to {w.pos(a[2])}" if k == "retreat" else ""
        return f"{_cap(k)} {w.vessel(a[1])}{w.at(a[1])}{to}"
    if k == "buy":
        return "Buy a card for 3 credits"
    if k == "sell":
        return f"Sell {w.card(a[1])} and {w.card(a[2])} for 3 credits"
    if k == "offer":
        return f"Start a trade with {w.p(a[1])}"
    if k in ("give", "ask"):
        return f"{'Offer' if k == 'give' else 'Ask for'} {_item(w, a[1], a[2])}"
    if k == "accept":
        cards = a[1:]
        if not cards:
            return "Accept the trade"
        if any(c is None for c in cards):
            return f"Accept the trade, handing over {_plural(len(cards), 'card')}"
        return "Accept the trade, handing over " + ", ".join(w.card(c) for c in cards)
    if k == "assign":
        return f"Assign {a[3]} damage: {w.vessel(a[1])} → {w.target(a[2])}"
    if k == "redirect":
        return f"Redirect: {w.target(a[1])} takes the damage aimed at {w.target(a[2])}"
    if k == "fight":
        return f"Resolve the combat at {w.pos(a[1])}"
    if k == "done":
        return {"assign": "Done assigning damage", "retreat": "Done: no more retreats"}.get(g.decision, "Done")
    if k == "choose":
        return _choice_label(w, g.choice, a[1])
    fixed = {"propose": "Send the trade offer", "cancel": "Withdraw the trade offer",
             "decline": "Decline the trade", "end": "End the Command phase", "pass": "Pass"}
    return fixed.get(k) or _cap(g.notation(a))


# --------------------------------------------------------------------------- telling apart


def _field(w: _Words, kind: str, x: Any) -> str:
    if x is None:
        return "hidden"
    if kind == "card" and type(x) is int:
        return f"copy #{x}"  # the card instance: tells two copies of one card apart
    if kind == "vessel" and type(x) is int:
        return f"#{x}"
    if kind == "pos":
        return w.pos(x)
    if kind in ("explore", "flag"):
        return "explore" if x else "no explore"
    defs = w.g.rules.catalogue.defs
    if kind == "def" and _is_id(x, len(defs)):
        return str(defs[x].name)
    return str(x)


def _differences(g: Game, w: _Words, group: list[Action]) -> list[str]:
    """For actions with the same label: per action, the arguments in which the group differs."""
    width = max(len(a) for a in group)
    cols = [i for i in range(1, width) if len({a[i] if i < len(a) else ... for a in group}) > 1]
    out = []
    for a in group:
        kinds = field_kinds(g, a)
        shown = [_field(w, kinds[i - 1] if i - 1 < len(kinds) else "", a[i]) if i < len(a) else "—"
                 for i in cols]
        out.append(" (" + ", ".join(shown) + ")" if shown else "")
    return out


def _duplicates(labels: list[str]) -> list[list[int]]:
    """Groups (of two or more) of the indices of equal labels."""
    at: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(labels):
        at[s].append(i)
    return [ix for ix in at.values() if len(ix) > 1]


def option_labels(game: Game, actions: Sequence[Action], viewer: Viewer) -> list[str]:
    """One short label per action of ``actions`` (the legal actions of ``game``'s current
    decision, as tuples), as ``viewer`` may know them: non-empty and pairwise distinct.

    Labels that are still equal after the first wording (two copies of a card in hand, say)
    get the arguments that differ appended ("Discard Jump Nexus to make room (copy #62)"); then, if
    need be, the engine's notation; then the price of an option that costs ("Develop c3 — 2
    credits", see :func:`price`); and last, which always succeeds, their option number."""
    seen = [action_for(game, tuple(a), viewer) for a in actions]
    w = _Words(game, viewer)
    labels = [_label(game, w, a) or _cap(game.notation(a)) for a in seen]
    for ix in _duplicates(labels):
        for i, extra in zip(ix, _differences(game, w, [seen[i] for i in ix])):
            labels[i] += extra
    for ix in _duplicates(labels):
        for i in ix:
            labels[i] += f" [{game.notation(seen[i])}]"
    # The price last, so it ends the label: "Play Missile Platform at c5 (copy #31) — 5 credits".
    labels = [s + _price_words(game, a, viewer) for s, a in zip(labels, seen)]
    for ix in _duplicates(labels):
        for i in ix:  # equal actions, or actions the viewer cannot tell apart
            labels[i] += f" (option {i + 1})"
    if _duplicates(labels):
        # Every label then ends in its own number, so no two can be equal.
        labels = [f"{s} (option {i + 1})" for i, s in enumerate(labels)]
    return labels
