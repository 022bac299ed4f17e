"""Readable English for engine events and actions, for game logs.

Events are the engine's tuples (``("move", player, vessel, from, to)`` ...). A :class:`Narrator`
follows one game and turns each step's events into lines, merging the ones that belong together
(a jump and the exploration it causes). What a viewer may know is decided by the game's
observer (:data:`starcom.observer.STARCOM`: its ``event``, ``action`` and ``trade``); this module
only puts into words what the observer lets through, and keeps no visibility rule of its own.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from .cards.catalogue import DOMAINS
from .cards.wording import CHOICE_WORDS
from .engine.actions import Action
from .engine.board import name as pos_name
from .engine.game import Game, standard_rules
from .engine.ruleset import Ruleset
from .observer import STARCOM as OBSERVER
from .options import option_labels  # noqa: F401  (short option labels; re-exported here)

Event = tuple[Any, ...]  # a typed event (engine.events) or a plain tuple of the same shape
OwnerOf = Callable[[int], "int | None"]

# Lines for these events are only shown in verbose logs: they repeat what another line says.
DETAIL_EVENTS = frozenset({"phase", "end_phase", "stack", "resolve", "trade_open", "trade_cancel"})

# Every event kind the engine emits, each with its own sentence in :func:`describe_event`.
EVENT_KINDS = frozenset({
    "start", "turn", "phase", "end_phase", "credits", "draw", "no_draw", "skip_draw", "discard",
    "take", "reveal", "buy", "build", "vessel", "destroyed", "damage", "prevented", "develop",
    "explore", "move", "scrap", "repair", "combat", "assign", "redirect", "retreat", "play",
    "ability", "stack", "resolve", "technology", "void", "countered", "siege", "conquer",
    "eliminated", "game_over", "trade_open", "trade_offer", "trade_cancel", "trade_decline",
    "trade_done",
})

def player_name(p: int, names: Sequence[str] | None = None) -> str:
    """``names[p]`` if given, else ``P0``, ``P1``..."""
    if names is not None and 0 <= p < len(names):
        return names[p]
    return f"P{p}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class _Words:
    """Shared helpers to name players, positions and vessels of one game."""

    def __init__(self, size: int, names: Sequence[str] | None, owner_of: OwnerOf | None,
                 rules: Ruleset | None = None) -> None:
        self.size = size
        self.names = names
        self.owner_of = owner_of
        self.rules = rules or standard_rules()  # the game's cards (a study's stand-ins among them)

    def card(self, cid: int | None) -> str:
        """A card instance's name ("a hidden card" for None)."""
        cards = self.rules.cards
        if cid is None or not isinstance(cid, int) or not 0 <= cid < len(cards):
            return "a hidden card"
        return cards[cid].name

    def p(self, q: int) -> str:
        return player_name(q, self.names)

    def pos(self, x: int) -> str:
        return pos_name(x, self.size) if isinstance(x, int) and 0 <= x < self.size * self.size else str(x)

    def vessel(self, vid: int) -> str:
        """``P1's Corvette`` when the owner is known, else ``Corvette``."""
        owner = self.owner_of(vid) if self.owner_of else None
        return f"{self.p(owner)}'s {self.card(vid)}" if owner is not None and owner >= 0 else self.card(vid)

    def targets(self, cid: int, targets: Sequence[Any]) -> str:
        kinds = self.rules.by_card[cid].target_kinds or None
        if self.rules.cards[cid].is_station:
            kinds = ("pos",)
        if not targets:
            return ""
        if kinds is None or len(kinds) != len(targets):
            return " (targets: " + ", ".join(str(t) for t in targets) + ")"
        words = []
        for kind, t in zip(kinds, targets):
            if kind == "vessel":
                words.append(self.vessel(t))
            elif kind == "pos":
                words.append(self.pos(t))
            elif kind == "player":
                words.append(self.p(t))
            elif kind == "card":
                words.append(self.card(t))
            elif kind == "credits":
                words.append(f"paying {_plural(t, 'credit')}")
            elif kind == "explore":
                if t:
                    words.append("exploring")
            elif kind == "count":
                words.append(f"{t} of them")
        return " (" + ", ".join(words) + ")" if words else ""


def _domain(deck: int) -> str:
    return DOMAINS[deck].capitalize() if isinstance(deck, int) and 0 <= deck < len(DOMAINS) else str(deck)


def describe_event(event: Event, size: int, names: Sequence[str] | None = None,
                   owner_of: OwnerOf | None = None, rules: Ruleset | None = None) -> str:
    """One English sentence for an engine event (already filtered for the viewer).

    ``owner_of(vessel_id)`` names vessels' owners where the event does not say; ``rules`` is the
    game's ruleset, whose cards are named (default: the standard one). Unknown event
    kinds are rendered generically rather than raising, so a log never breaks on a new event.
    """
    w = _Words(size, names, owner_of, rules)
    k, a = event[0], event[1:]
    if k == "start":
        return f"The game begins; {w.p(a[0])} goes first"
    if k == "turn":
        return f"Turn {a[0] + 1} — {w.p(a[1])}"
    if k == "phase":
        return f"{a[0].capitalize()} phase"
    if k == "end_phase":
        return f"{w.p(a[0])} ends the Command phase"
    if k == "credits":
        verb = "gains" if a[1] >= 0 else "loses"
        return f"{w.p(a[0])} {verb} {_plural(abs(a[1]), 'credit')}"
    if k == "draw":
        who, deck, cid = a
        if cid is None:
            return f"{w.p(who)} draws a{'n' if _domain(deck)[0] in 'AEIOU' else ''} {_domain(deck)} card"
        return f"{w.p(who)} draws {w.card(cid)} ({_domain(deck)})"
    if k == "no_draw":
        return f"{w.p(a[0])} cannot draw: no deck of a domain they control has cards"
    if k == "skip_draw":
        return f"{w.p(a[0])} skips the draw (hand full)"
    if k == "discard":
        return f"{w.p(a[0])} discards {w.card(a[1])}"
    if k == "take":
        return f"{w.p(a[0])} takes {w.card(a[2])} from {w.p(a[1])}'s hand"
    if k == "reveal":
        shown = ", ".join(w.card(c) for c in a[1]) or "no cards"
        return f"{w.p(a[0])} reveals their hand: {shown}"
    if k == "buy":
        return f"{w.p(a[0])} pays 3 credits to draw a card"
    if k == "build":
        return f"{w.p(a[0])} builds {a[1]} at {w.pos(a[2])}"
    if k == "vessel":
        return f"{w.p(a[0])}'s {w.card(a[1])} enters play at {w.pos(a[2])}"
    if k == "destroyed":
        return f"{w.p(a[0])}'s {w.card(a[1])} is destroyed at {w.pos(a[2])}"
    if k == "damage":
        return f"{w.vessel(a[0])} takes {a[1]} damage"
    if k == "prevented":
        return f"{a[1]} damage to {w.vessel(a[0])} is prevented"
    if k == "develop":
        return f"{w.p(a[0])} develops {w.pos(a[1])} (now {_plural(a[2], 'development')})"
    if k == "explore":
        return f"{w.pos(a[0])} is explored: {w.card(a[1])}"
    if k == "move":
        return f"{w.p(a[0])}'s {w.card(a[1])} moves from {w.pos(a[2])} to {w.pos(a[3])}"
    if k == "scrap":
        return f"{w.p(a[0])} scraps {w.card(a[1])}"
    if k == "repair":
        return f"{w.p(a[0])} repairs {w.card(a[1])}"
    if k == "combat":
        return f"Combat at {w.pos(a[0])}"
    if k == "assign":
        return f"{w.vessel(a[1])} aims {a[3]} damage at {w.vessel(a[2])}"
    if k == "redirect":
        aimed = w.vessel(a[2])
        if aimed == w.vessel(a[1]):   # two of the same kind: "P1's Defense Station ... P1's other one"
            aimed = aimed.replace("'s ", "'s other ", 1) if "'s " in aimed else f"the other {aimed}"
        return f"{w.vessel(a[1])} takes over the damage aimed at {aimed}"
    if k == "retreat":
        return f"{w.p(a[0])}'s {w.card(a[1])} retreats to {w.pos(a[2])}"
    if k == "play":
        return f"{w.p(a[0])} plays {w.card(a[1])}{w.targets(a[1], a[2:])}"
    if k == "ability":
        return f"{w.p(a[0])} uses {w.card(a[1])}{w.targets(a[1], a[2:])}"
    if k == "stack":
        return f"{w.card(a[2])} goes on the stack"
    if k == "resolve":
        return f"{w.card(a[1])} resolves"
    if k == "technology":
        return f"{w.p(a[0])} gains the technology {w.card(a[1])}"
    if k == "void":
        return f"{w.card(a[1])} has no effect (its targets are no longer legal)"
    if k == "countered":
        return f"{w.card(a[0])} is countered"
    if k == "siege":
        return f"{w.p(a[0])} removes {_plural(a[2], 'development')} from {w.pos(a[1])}"
    if k == "conquer":
        return f"{w.p(a[0])} conquers {w.pos(a[1])} from {w.p(a[2])}"
    if k == "eliminated":
        return f"{w.p(a[0])} is eliminated"
    if k == "game_over":
        return "Game over: a draw" if a[0] == -1 else f"Game over: {w.p(a[0])} wins"
    if k == "trade_open":
        return f"{w.p(a[0])} prepares a trade offer to {w.p(a[1])}"
    if k == "trade_offer":
        return f"{w.p(a[0])} offers a trade to {w.p(a[1])}"
    if k == "trade_cancel":
        return f"{w.p(a[0])} withdraws the trade offer"
    if k == "trade_decline":
        return f"{w.p(a[0])} declines the trade"
    if k == "trade_done":
        given = a[2]
        if isinstance(given, int):
            extra = f", handing over {_plural(given, 'card')} from their hand" if given else ""
        else:
            extra = f", handing over {', '.join(w.card(c) for c in given)}" if given else ""
        return f"{w.p(a[1])} accepts {w.p(a[0])}'s trade{extra}"
    return " ".join(str(x) for x in event)


def _choice_words(w: _Words, kind: str, value: Any) -> str:
    if kind == "deck":
        return f"draws from the {_domain(value)} deck"
    if kind in ("hand_full", "receive_full"):
        if value in ("skip", "decline"):
            return "keeps their hand as it is"
        return f"discards {w.card(value)} to make room"
    if kind == "order":
        return f"resolves {w.card(value)} first"
    if kind == "ability_discard":
        return f"discards {w.card(value)} to pay"
    words = CHOICE_WORDS.get(kind)  # a choice asked by a card effect: worded by the card data
    if words is None:
        return f"chooses {value}"
    if words.value == "flag":
        return words.sentence if value else (words.sentence_no or words.sentence)
    render = {"pos": w.pos, "card": w.card, "player": w.p}.get(words.value, str)
    return words.sentence.format(value=render(value))


def describe_action(game: Game, action: Action, viewer: int | None = None,
                    reveal_all: bool = False) -> str:
    """An English sentence for ``action`` about to be played in ``game`` (its state *before*),
    as ``viewer`` (a seat, or None for a spectator) may know it once played
    (the observer's :meth:`~starcom.observer.StarcomObserver.action`): a card they may not see is "a hidden card", a
    hidden pick in a choice is "makes a choice". ``reveal_all`` names everything (for a
    finished game's full log).
    """
    p = game.to_move if game.to_move is not None else -1
    if not reveal_all:
        action = OBSERVER.action(game, action, viewer)
    w = _Words(game.cfg.size, None, lambda vid: game.vessels[vid].owner if vid in game.vessels else None,
               game.rules)
    who = w.p(p)
    k = action[0]
    if k == "jump":
        carry = f" with {_plural(action[4], 'fighter')}" if action[4] else ""
        v = game.vessels.get(action[1])
        frm = f" from {w.pos(v.pos)}" if v is not None else ""
        return f"{who} jumps {w.card(action[1])}{frm} to {w.pos(action[2])}{carry}"
    if k == "build":
        return f"{who} builds {game.rules.catalogue.defs[action[1]].name} at {w.pos(action[2])}"
    if k == "develop":
        return f"{who} develops {w.pos(action[1])}"
    if k == "play":
        return f"{who} plays {w.card(action[1])}{w.targets(action[1], action[2:])}"
    if k == "ability":
        return f"{who} uses {w.card(action[1])}{w.targets(action[1], action[2:])}"
    if k in ("scrap", "repair"):
        return f"{who} {k}s {w.card(action[1])}"
    if k == "buy":
        return f"{who} pays 3 credits to draw a card"
    if k == "sell":
        return f"{who} discards {w.card(action[1])} and {w.card(action[2])} for 3 credits"
    if k == "offer":
        return f"{who} prepares a trade offer to {w.p(action[1])}"
    if k in ("give", "ask"):
        item, val = action[1], action[2]
        if item == "credit":
            thing = "1 credit"
        elif item == "hand":
            thing = "a card from their hand"
        elif item == "card":
            thing = w.card(val)
        elif item == "system":
            thing = f"the system {w.pos(val)}"
        elif item == "vessel":
            thing = w.card(val)
        else:
            thing = f"the technology {w.card(val)}"
        return f"{who} {'offers' if k == 'give' else 'asks for'} {thing}"
    if k == "propose":
        return f"{who} proposes the trade"
    if k == "cancel":
        return f"{who} withdraws the trade offer"
    if k == "accept":
        return f"{who} accepts the trade"
    if k == "decline":
        return f"{who} declines the trade"
    if k == "end":
        return f"{who} ends the Command phase"
    if k == "pass":
        return f"{who} passes"
    if k == "redirect":
        aimed = w.card(action[2])
        other = "the other " if aimed == w.card(action[1]) else ""
        return f"{who}'s {w.card(action[1])} takes over the damage aimed at {other}{aimed}"
    if k == "fight":
        return f"{who} picks the combat at {w.pos(action[1])}"
    if k == "assign":
        return f"{who}'s {w.card(action[1])} aims {action[3]} damage at {w.vessel(action[2])}"
    if k == "retreat":
        return f"{who} retreats {w.card(action[1])} to {w.pos(action[2])}"
    if k == "done":
        return f"{who} is done"
    if k == "choose":
        kind = game.choice.kind if game.choice else "?"
        value = action[1]
        if value is None:  # the observer hid which card was picked
            return f"{who} makes a choice"
        return f"{who} {_choice_words(w, kind, value)}"
    return f"{who}: {game.notation(action)}"


class Narrator:
    """Turns the events of a game, step by step, into log lines for one viewer.

    ``viewer``: a player index, or None for a spectator; ``reveal_all`` shows every card (for
    a finished game's full log). ``verbose`` adds phase changes, passes and other detail.
    """

    def __init__(self, game: Game, viewer: int | None = None, names: Sequence[str] | None = None,
                 verbose: bool = False, reveal_all: bool = False) -> None:
        self.size = game.cfg.size
        self.rules = game.rules
        self.viewer = viewer
        self.names = names
        self.verbose = verbose
        self.reveal_all = reveal_all
        self.owners: dict[int, int] = {}
        self._remember(game)

    def _remember(self, game: Game) -> None:
        for v in game.vessels.values():
            self.owners[v.id] = v.owner

    def _visible(self, event: Event) -> Event:
        return event if self.reveal_all else OBSERVER.event(event, self.viewer)

    def _trade_terms(self, game: Game) -> str:
        """What the offer on the table gives and asks, as the viewer may see it
        (the observer's :meth:`~starcom.observer.StarcomObserver.trade`; a hidden hand card reads
        "a hidden card")."""
        if self.reveal_all:
            tr = None if game.trade is None else game.trade.to_json()
        else:
            tr = OBSERVER.trade(game, self.viewer)
        if tr is None:
            return ""
        w = _Words(self.size, self.names, self.owners.get, self.rules)

        def items(pairs: Iterable[Sequence[Any]], credits: int, hand: int) -> str:
            out = []
            for kind, val in pairs:
                if kind == "system":
                    out.append(f"system {w.pos(val)}")
                else:
                    out.append(w.card(val))
            if credits:
                out.append(_plural(credits, "credit"))
            if hand:
                out.append(_plural(hand, "card") + " from hand")
            return ", ".join(out) or "nothing"

        give = items(tr["give"], tr["give_credits"], 0)
        ask = items(tr["ask"], tr["ask_credits"], tr["ask_hand"])
        return f": gives {give}; asks {ask}"

    def setup_lines(self, game: Game) -> list[str]:
        """Lines for the events of a freshly created game (``game.events`` after ``Game.new``)."""
        return self.step_lines(game, None, game.events)

    def step_lines(self, after: Game, action: Action | None, events: Sequence[Event],
                   before: Game | None = None) -> list[str]:
        """Lines for one step: ``action`` (None for setup) caused ``events``; ``after`` is the
        game afterwards. ``before`` (a copy of the game before the action), if given, lets
        actions that cause no event (passes, trade items) be described in verbose logs."""
        seen = [self._visible(raw) for raw in events]  # only these are put into words
        for e in seen:
            if e[0] == "vessel":
                self.owners[e[2]] = e[1]
        lines: list[str] = []
        if self.verbose and before is not None and action is not None and action[0] in (
                "pass", "done", "give", "ask", "choose"):
            lines.append(describe_action(before, action, self.viewer, self.reveal_all))
        owner_of = self.owners.get
        w = _Words(self.size, self.names, owner_of, self.rules)
        skip = set()
        for i, e in enumerate(seen):
            if i in skip:
                continue
            k = e[0]
            following = seen[i + 1] if i + 1 < len(seen) else None
            if k in DETAIL_EVENTS and not self.verbose:
                continue
            if k == "build" and following is not None and following[0] == "vessel":
                skip.add(i + 1)
                # the vessel that entered: a study's stand-in where the builder plays one
                lines.append(f"{w.p(e[1])} builds {w.card(following[2])} at {w.pos(e[3])}")
                continue
            if k == "retreat" and following is not None and following[0] == "move":
                skip.add(i + 1)
            if k == "play" and following is not None and following[0] == "stack":
                skip.add(i + 1)
            if k == "move":
                line = self._move_line(e, action)
                if following is not None and following[0] == "explore" and following[1] == e[4]:
                    line += f" (explores: {w.card(following[2])})"
                    skip.add(i + 1)
                lines.append(line)
                continue
            line = describe_event(e, self.size, self.names, owner_of, self.rules)
            if k == "trade_offer":
                line += self._trade_terms(after)
            lines.append(line)
        self._remember(after)
        return lines

    def _move_line(self, e: Event, action: Action | None) -> str:
        _, p, vid, frm, to = e
        w = _Words(self.size, self.names, self.owners.get, self.rules)
        if action is not None and action[0] == "jump":
            if action[1] == vid:
                return f"{w.p(p)} jumps {w.card(vid)} from {w.pos(frm)} to {w.pos(to)}"
            return f"{w.p(p)}'s {w.card(vid)} goes along to {w.pos(to)}"
        return describe_event(e, self.size, self.names, self.owners.get, self.rules)


def game_lines(game_start: Game, actions: Iterable[Any], viewer: int | None = None,
               names: Sequence[str] | None = None, verbose: bool = False,
               reveal_all: bool = False) -> Iterable[str]:
    """Play ``actions`` (validated) on ``game_start`` (a fresh game, changed in place) and
    yield the log lines. IllegalAction propagates."""
    narrator = Narrator(game_start, viewer, names, verbose, reveal_all)
    yield from narrator.setup_lines(game_start)
    for a in actions:
        before = game_start.clone() if verbose else None
        events = game_start.apply(a)
        act = tuple(a) if not isinstance(a, dict) else None
        if act is None:
            from .engine.actions import from_json
            act = from_json(a)
        yield from narrator.step_lines(game_start, act, events, before)
