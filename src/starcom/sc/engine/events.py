"""Event types: what the engine reports as it changes the state, one small value per kind.

Like actions (:mod:`.moves`), each event is a tuple whose first item is its kind, so
``Draw("draw", 0, 1, 42) == ("draw", 0, 1, 42)``; the fields have names, which the secrecy filter
(:func:`starcom.sc.engine.view.event_for`) and the JSON form use. Players are seat numbers,
``vessel`` and ``card`` card instance ids, ``at``/``to``/``from`` board positions.

:data:`EVENT_KINDS` lists every kind the engine emits, for clients that render them all.
"""
from __future__ import annotations

from typing import Any, Literal, NamedTuple

from ...kit.codec import At, Kinds, Rest, TailTuple


class Start(NamedTuple):
    """The game begins; ``player`` goes first."""
    kind: Literal["start"]
    player: int


class Turn(NamedTuple):
    """Turn number ``turn`` (from 0) of ``player`` begins."""
    kind: Literal["turn"]
    turn: int
    player: int


class Phase(NamedTuple):
    """A phase ("ready", "command", "combat", "end") begins."""
    kind: Literal["phase"]
    phase: str


class EndPhase(NamedTuple):
    """``player`` ends their Command phase."""
    kind: Literal["end_phase"]
    player: int


class Credits(NamedTuple):
    """``player`` gains ``amount`` credits (loses, if negative)."""
    kind: Literal["credits"]
    player: int
    amount: int


class Draw(NamedTuple):
    """``player`` draws ``card`` from deck ``deck`` (a domain index); ``card`` is None for
    viewers who may not see it."""
    kind: Literal["draw"]
    player: int
    deck: int
    card: int | None


class NoDraw(NamedTuple):
    """``player`` cannot draw: no deck of a domain they control has cards."""
    kind: Literal["no_draw"]
    player: int


class SkipDraw(NamedTuple):
    """``player`` skips a draw (hand full)."""
    kind: Literal["skip_draw"]
    player: int


class Discard(NamedTuple):
    """``player`` discards ``card``."""
    kind: Literal["discard"]
    player: int
    card: int


class Take(NamedTuple):
    """``player`` takes ``card`` from player ``from_``'s hand."""
    kind: Literal["take"]
    player: int
    from_: int
    card: int


class Reveal(NamedTuple):
    """``player`` reveals their hand, ``cards``."""
    kind: Literal["reveal"]
    player: int
    cards: tuple[int, ...]


class Buy(NamedTuple):
    """``player`` pays credits to draw a card."""
    kind: Literal["buy"]
    player: int


class Build(NamedTuple):
    """``player`` builds a vessel of the card type named ``name`` at ``at``."""
    kind: Literal["build"]
    player: int
    name: str
    at: int


class Vessel(NamedTuple):
    """``player``'s ``vessel`` enters play at ``at``."""
    kind: Literal["vessel"]
    player: int
    vessel: int
    at: int


class Destroyed(NamedTuple):
    """``player``'s ``vessel`` is destroyed at ``at``."""
    kind: Literal["destroyed"]
    player: int
    vessel: int
    at: int


class Damage(NamedTuple):
    """``vessel`` takes ``amount`` damage."""
    kind: Literal["damage"]
    vessel: int
    amount: int


class Prevented(NamedTuple):
    """``amount`` damage to ``vessel`` is prevented."""
    kind: Literal["prevented"]
    vessel: int
    amount: int


class Develop(NamedTuple):
    """``player`` develops ``at``, which now has ``devs`` developments."""
    kind: Literal["develop"]
    player: int
    at: int
    devs: int


class Explore(NamedTuple):
    """The system ``card`` at ``at`` is turned face up."""
    kind: Literal["explore"]
    at: int
    card: int


class Move(NamedTuple):
    """``player``'s ``vessel`` moves from ``from_`` to ``to``."""
    kind: Literal["move"]
    player: int
    vessel: int
    from_: int
    to: int


class Scrap(NamedTuple):
    """``player`` scraps ``vessel``."""
    kind: Literal["scrap"]
    player: int
    vessel: int


class Repair(NamedTuple):
    """``player`` repairs ``vessel``."""
    kind: Literal["repair"]
    player: int
    vessel: int


class Combat(NamedTuple):
    """The combat at ``at`` begins."""
    kind: Literal["combat"]
    at: int


class Assign(NamedTuple):
    """``player``'s ``vessel`` aims ``amount`` damage at ``target``."""
    kind: Literal["assign"]
    player: int
    vessel: int
    target: int
    amount: int


class Redirect(NamedTuple):
    """``player``'s ``vessel`` takes over the damage aimed at ``from_``."""
    kind: Literal["redirect"]
    player: int
    vessel: int
    from_: int


class Retreat(NamedTuple):
    """``player``'s ``vessel`` retreats to ``to``."""
    kind: Literal["retreat"]
    player: int
    vessel: int
    to: int


class Technology(NamedTuple):
    """``player`` gains the technology ``card``."""
    kind: Literal["technology"]
    player: int
    card: int


class Void(NamedTuple):
    """``player``'s ``source`` (card or ability) resolves without effect."""
    kind: Literal["void"]
    player: int
    source: int


class Countered(NamedTuple):
    """The Command ``card`` is removed from the stack unresolved."""
    kind: Literal["countered"]
    card: int


class Siege(NamedTuple):
    """``player`` removes ``removed`` developments from ``at``."""
    kind: Literal["siege"]
    player: int
    at: int
    removed: int


class Conquer(NamedTuple):
    """``player`` takes ``at`` from player ``loser``."""
    kind: Literal["conquer"]
    player: int
    at: int
    loser: int


class Eliminated(NamedTuple):
    """``player`` is out of the game."""
    kind: Literal["eliminated"]
    player: int


class GameOver(NamedTuple):
    """The game ends: ``winner`` wins (-1: a draw)."""
    kind: Literal["game_over"]
    winner: int


class TradeOpen(NamedTuple):
    """``player`` starts building a trade offer to ``to``."""
    kind: Literal["trade_open"]
    player: int
    to: int


class TradeOffer(NamedTuple):
    """``player`` sends the trade offer to ``to``."""
    kind: Literal["trade_offer"]
    player: int
    to: int


class TradeCancel(NamedTuple):
    """``player`` withdraws their trade offer."""
    kind: Literal["trade_cancel"]
    player: int


class TradeDecline(NamedTuple):
    """``player`` declines the trade offered to them."""
    kind: Literal["trade_decline"]
    player: int


class TradeDone(NamedTuple):
    """``receiver`` accepts ``offerer``'s trade, handing over ``cards`` from their hand (for
    viewers who may not see them, how many)."""
    kind: Literal["trade_done"]
    offerer: int
    receiver: int
    cards: tuple[int, ...] | int


class Play(TailTuple):
    """``player`` plays ``card`` with ``targets``."""

    __slots__ = ()
    KIND = "play"
    _fields = ("kind", "player", "card", "*targets")
    player = At[int](1)
    card = At[int](2)
    targets = Rest[int](3)


class Ability(TailTuple):
    """``player`` uses the ability of ``source`` with ``targets``."""

    __slots__ = ()
    KIND = "ability"
    _fields = ("kind", "player", "source", "*targets")
    player = At[int](1)
    source = At[int](2)
    targets = Rest[int](3)


class Stack(TailTuple):
    """``player``'s ``source`` goes on the stack: ``what`` is "card" (a card played) or
    "ability", with its ``targets``."""

    __slots__ = ()
    KIND = "stack"
    _fields = ("kind", "what", "player", "source", "*targets")
    what = At[str](1)
    player = At[int](2)
    source = At[int](3)
    targets = Rest[int](4)


class Resolve(TailTuple):
    """``player``'s ``source`` resolves with ``targets``."""

    __slots__ = ()
    KIND = "resolve"
    _fields = ("kind", "player", "source", "*targets")
    player = At[int](1)
    source = At[int](2)
    targets = Rest[int](3)


Event = (Start | Turn | Phase | EndPhase | Credits | Draw | NoDraw | SkipDraw | Discard | Take |
              Reveal | Buy | Build | Vessel | Destroyed | Damage | Prevented | Develop | Explore | Move |
              Scrap | Repair | Combat | Assign | Redirect | Retreat | Play | Ability | Stack | Resolve |
              Technology | Void | Countered | Siege | Conquer | Eliminated | GameOver | TradeOpen |
              TradeOffer | TradeCancel | TradeDecline | TradeDone)

EVENTS: Kinds[Event] = Kinds(
    Start, Turn, Phase, EndPhase, Credits, Draw, NoDraw, SkipDraw, Discard, Take, Reveal, Buy, Build,
    Vessel, Destroyed, Damage, Prevented, Develop, Explore, Move, Scrap, Repair, Combat, Assign,
    Redirect, Retreat, Play, Ability, Stack, Resolve, Technology, Void, Countered, Siege, Conquer,
    Eliminated, GameOver, TradeOpen, TradeOffer, TradeCancel, TradeDecline, TradeDone)
EVENT_TYPES = EVENTS.types  # kind -> its type

# Every event kind the engine emits.
EVENT_KINDS: frozenset[str] = frozenset(EVENT_TYPES)

# The rule (an ID of RULES.md) that each kind of event carries out, where one rule does: the
# record of which rules fired in a game (``starcom study`` lists those that never did). Kinds
# that several rules or card texts cause (credits, discard, damage, ...) name none.
EVENT_RULES: dict[str, str] = {
    "start": "SETUP-3", "turn": "TURN-1", "phase": "TURN-1", "draw": "DRAW-1", "no_draw": "DRAW-1",
    "skip_draw": "HAND-1", "buy": "TRADE-1", "build": "BUILD-1", "explore": "EXPLORE-1", "move": "MOVE-1",
    "scrap": "SCRAP-1", "repair": "REPAIR-1", "combat": "COMBAT-1", "assign": "COMBAT-3", "redirect": "COMBAT-5",
    "retreat": "COMBAT-7", "play": "PLAY-1", "technology": "PLAY-1", "stack": "RESP-1", "void": "RESP-3",
    "countered": "RESP-1", "siege": "END-1", "conquer": "END-1", "eliminated": "END-4", "game_over": "WIN-1",
    "trade_open": "TRADE-3", "trade_done": "TRADE-3",
}


def rule_of(event: tuple[Any, ...]) -> str | None:
    """The rule ``event`` carries out (see :data:`EVENT_RULES`), or None. A development is DEV-1
    when it is a system's first and DEV-2 when it adds to one's own."""
    kind = event[0]
    if kind == "develop":
        return "DEV-1" if event[3] == 1 else "DEV-2"
    return EVENT_RULES.get(kind)


# Actions whose rule no event of theirs names (a sale shows only as discards and credits).
ACTION_RULES: dict[str, str] = {"sell": "TRADE-2"}

# Every rule that :func:`rules_fired` can report, and WIN-2: a "game_over" reached at the turn
# limit (more than one player left) carries out WIN-2 instead of WIN-1, which the caller, who
# sees the game, tells apart.
RECORDED_RULES: frozenset[str] = (frozenset(EVENT_RULES.values()) | set(ACTION_RULES.values())
                                  | {"DEV-1", "DEV-2", "WIN-2"})


def rules_fired(action: tuple[Any, ...], events: list[Any]) -> set[str]:
    """The rules that ``action`` and the ``events`` it caused carried out."""
    out = {r for r in map(rule_of, events) if r is not None}
    rule = ACTION_RULES.get(action[0])
    if rule is not None:
        out.add(rule)
    return out

# Per kind, the JSON keys of its fields (see starcom.kit.codec.field_names).
EVENT_FIELDS: dict[str, tuple[str, ...]] = {k: EVENTS.fields(k) for k in EVENTS}


def to_json(event: tuple[Any, ...]) -> dict[str, Any]:
    """``event`` as a JSON object ``{"type": kind, field: value, ...}``."""
    return EVENTS.to_dict(event)


def from_json(data: Any) -> Event:
    """The event :func:`to_json` wrote as ``data`` (lists read back as tuples). ValueError
    names what is wrong: not an object, an unknown type, a missing or unknown field."""
    return EVENTS.from_dict(data, "event")
