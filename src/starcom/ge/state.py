"""The position of a Galactic Empires game: plain data, no rules.

Every physical card of both decks has a ``uid`` fixed at setup (in catalogue order, before any
shuffle, so a uid tells which card it is but nothing about where it lay in a deck). A card in
play has a :class:`Unit` record (GE-ZONE-5); cards elsewhere are uids in a player's zones.
The rules that change this data live in the other modules of :mod:`starcom.ge`; the state
points to the two things they need beside it: its seeded generator (:mod:`starcom.kit.rng`)
and the ruleset of card effects (:mod:`.ruleset`), which is shared, never copied or saved.
"""
from __future__ import annotations

from ..kit.pickling import reduce_dataclass

import copy
from dataclasses import asdict, dataclass, field, fields
from operator import attrgetter
from typing import Any, Final, Protocol, TYPE_CHECKING

from ..kit import rng as kit_rng
from ..kit.rng import Rng
from .cards import POINT_TYPES, CardSpec

if TYPE_CHECKING:
    from .cards.base import Effect
    from .events import Event

EDITIONS: Final = ("full", "quick")
HQ_LIMIT: Final = 25  # GE-WIN-1 (GE-OPT-2 makes it 15)
STALL_TURNS: Final = 10  # GE-WIN-5
PLAYS_PER_TURN: Final = 3  # GE-PLAY-1

# The steps of a turn (GE-TURN-1). Allocation and engagement are split as the engine runs them.
SETUP: Final = "setup"
ALLOCATE: Final = "allocate"
PLAY_A: Final = "play-a"
FIRE: Final = "fire"
PLAY_B: Final = "play-b"
DISCARD: Final = "discard"
OVER: Final = "over"
PHASES: Final = (SETUP, ALLOCATE, PLAY_A, FIRE, PLAY_B, DISCARD, OVER)


@dataclass(slots=True)
class Unit:
    """One card in play (GE-ZONE-5). ``parent`` is the card it sits on or against (None: it
    stands alone in its owner's fleet); ``against`` marks a card played onto an opponent's."""

    uid: int
    owner: int
    parent: int | None = None
    against: bool = False
    engaged: bool = False
    shield_damage: int = 0
    damage: int = 0  # structural
    card_damage: int = 0  # on terrain, which repair cannot remove (GE-DMG-9)
    loaded: int = 0  # heavy weapons loaded this turn (GE-FIRE-6)
    fired_phasers: int = 0  # this Weapons Fire phase
    fired_heavy: int = 0
    empty: bool = False  # a one-shot phaser that has fired (GE-FIRE-7)
    age: int = 0  # duration counter (GE-DUR-1)
    used: bool = False  # its function this complete turn (GE-ACT-1)
    paid: bool = False  # its cost was paid in this turn's allocation
    new: bool = True  # entered play since its controller's last allocation (GE-ALLOC-3)
    reacted: bool = False  # entered play in reaction mode (GE-ACT-5)
    partner: int | None = None  # the other half of a combined Krebiz ship (GE-KREB-4)
    locked: bool = False  # combined or separated this turn (GE-KREB-5, GE-KREB-6)
    split_paid: bool = False  # this part alone was paid (GE-KREB-7)

    def __reduce__(self) -> tuple[Any, ...]:  # (the compiled record pickles through this)
        return reduce_dataclass(self)

    def copy(self) -> Unit:
        """A separate record with the same fields (``copy.copy`` of a compiled record goes
        through :meth:`__reduce__`, which is slow)."""
        return Unit(*_FIELDS[Unit](self))


@dataclass(slots=True)
class Player:
    """One seat's zones and counters."""

    empire: str
    deck: list[int] = field(default_factory=list)  # top is the end of the list
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)  # top is the end of the list
    reserve: list[int] = field(default_factory=list)
    reserve_public: bool = False  # GE-SETUP-5
    aside: list[int] = field(default_factory=list)  # pre-paired capsules beside the reserve (GE-OPT-4)
    pairs: list[list[int]] = field(default_factory=list)  # [cruiser, capsule] still waiting (GE-OPT-4)
    hq: int = 0  # Sector HQ damage
    turns: int = 0  # own turns begun
    plays: int = 0  # card plays this turn (GE-PLAY-1)
    ships_turn2: int = 0  # ships and bases played while in turn 2 (GE-TURN-6)
    retreated: list[int] = field(default_factory=list)  # not playable before own next turn (GE-PLAY-8)
    # cards in hand the opponent knows are there: seen going in, or named by a pending swap
    shown: list[int] = field(default_factory=list)
    quiet: int = -1  # "never react this turn" (GE-REACT-10): the turn mark it was chosen in
    pool: list[int] = field(default_factory=lambda: [0] * len(POINT_TYPES))  # allocation points
    cargo_supply: dict[int, int] = field(default_factory=dict)  # unit uid -> supply only it may use
    negating: list[int] = field(default_factory=list)  # cards given research this allocation
    withheld: list[int] = field(default_factory=lambda: [0] * len(POINT_TYPES))  # taken by reactions
    short: int = 0  # points a reaction took that the declared plan had spent (GE-ALLOC-15)
    research_cap: list[int] | None = None  # on a re-plan: the only cards research may go to (GE-ALLOC-11)
    boosted: list[int] = field(default_factory=list)  # terrains whose output a freighter raised (GE-ALLOC-6)
    tech: str = ""  # the Technician's option this allocation (GE-ALLOC-13)
    slots: int = 0  # command allowance in half slots [F] (GE-CMD-1)

    def __reduce__(self) -> tuple[Any, ...]:  # (the compiled record pickles through this)
        return reduce_dataclass(self)

    def show(self, uid: int) -> None:
        """Card ``uid`` in this hand is now known to the opponent (GE-DIG-2): views and every
        position made for the opponent keep it there."""
        if uid not in self.shown:
            self.shown.append(uid)

    def unshow(self, uid: int) -> None:
        """Card ``uid`` has left the hand: it is no longer known to be there."""
        if uid in self.shown:
            self.shown.remove(uid)


@dataclass(slots=True)
class Item:
    """An event on the reaction chain (GE-REACT-6): who caused it, its kind and the action."""

    player: int
    kind: str
    action: tuple[Any, ...]
    reaction: bool = False
    void: bool = False  # cancelled before it resolves (Lucky Crew Action)

    def __reduce__(self) -> tuple[Any, ...]:  # (the compiled record pickles through this)
        return reduce_dataclass(self)


@dataclass
class Options:
    """The optional rules (GE-OPT-*), all off by default."""

    disengaged_unprotected: bool = False  # GE-OPT-1
    small_hq: bool = False  # GE-OPT-2
    turn_cap: int | None = None  # GE-OPT-3
    prepaired: bool = False  # GE-OPT-4

    def __reduce__(self) -> tuple[Any, ...]:  # (the compiled record pickles through this)
        return reduce_dataclass(self)


class Rules(Protocol):
    """What a state asks of the ruleset it is played with (:class:`.ruleset.Ruleset`): the
    effect unit of each catalogue card. (A protocol, not the class: the compiled build makes a
    dataclass's field types into class objects when this module loads, before the ruleset's.)"""

    @property
    def units(self) -> tuple[Effect, ...]: ...

    @property
    def cards(self) -> tuple[CardSpec, ...]: ...


@dataclass
class State:
    """The whole position, hidden parts included."""

    edition: str
    options: Options
    seed: int
    owner_of: list[int]  # uid -> owning seat
    spec_of: list[int]  # uid -> catalogue index
    players: list[Player]
    rng: Rng  # a Mersenne Twister (kit.rng.Mersenne): the stream GE has always dealt with
    rules: Rules  # the cards' effect units; shared by every copy, never written to JSON
    units: dict[int, Unit] = field(default_factory=dict)
    phase: str = SETUP
    active: int = 0
    first: int = 0
    priority: int | None = None  # the seat that may react now (GE-REACT-6)
    passed: int | None = None  # the seat that passed last in this window
    chain: list[Item] = field(default_factory=list)
    queued: list[Item] = field(default_factory=list)  # events a resolving item started (GE-REACT-6)
    volleyed: list[int] = field(default_factory=list)  # targets of this phase's volleys (GE-FIRE-3); -1-p = HQ of p
    react_volleyed: list[int] = field(default_factory=list)  # targets of the other seat's reaction fire
    aim: int | None = None  # the target of the volley being declared
    aim_weapons: list[tuple[int, str]] = field(default_factory=list)
    quiet_turns: int = 0  # complete turns in a row with no HQ damage, no card in or out of play, no draw (GE-WIN-5)
    quiet_mark: int = 0  # a counter bumped by every change the stall guard cares about
    quiet_seen: int = -1  # its value when the last complete turn began
    complete_turns: int = 0  # of the second player (GE-OPT-3)
    winner: int | None = None  # -1: draw
    end: str = ""
    actions: int = 0  # actions taken
    log: list[Event] = field(default_factory=list)  # events of the step being played
    plan_pool: list[int] = field(default_factory=list)  # the pool when this allocation's steps began
    plan_units: list[Unit] = field(default_factory=list)  # the active fleet then (a re-plan starts over)
    # Cards dealt as blanks (uids): a balance study's stand-ins, which may be discarded from the
    # hand but never played or swapped (GalacticEmpires.new's ``blank``, docs/study.md).
    blank: list[int] = field(default_factory=list)

    def __reduce__(self) -> tuple[Any, ...]:  # (the compiled record pickles through this)
        return reduce_dataclass(self)

    def say(self, event: Event) -> None:
        """Record an event (:mod:`.events`) of the step being played; the game hands the step's
        events to its caller."""
        self.log.append(event)

    @property
    def turn_mark(self) -> int:
        """A number that changes with every player turn (turns begun by both seats)."""
        return sum(p.turns for p in self.players)

    def spec(self, uid: int) -> CardSpec:
        return self.rules.cards[self.spec_of[uid]]

    def effect(self, u: Unit) -> Effect:
        """The effect unit of the card ``u`` in play (from the ruleset)."""
        return self.rules.units[self.spec_of[u.uid]]

    def effect_of(self, uid: int) -> Effect:
        """The effect unit of card ``uid`` wherever it is (a card in hand, say)."""
        return self.rules.units[self.spec_of[uid]]

    def clone(self) -> State:
        """A copy that shares nothing the rules change. Written out rather than ``deepcopy``,
        which was most of a search's time; the per-uid tables, fixed at setup, are shared."""
        new = copy.copy(self)
        for name in _CHANGING:
            setattr(new, name, _fresh(getattr(self, name)))
        return new

    def to_json(self) -> dict[str, Any]:
        data = {k: getattr(self, k) for k in _NAMES
                if k not in ("rng", "rules", "players", "units", "options", "chain", "queued", "log", "plan_units")}
        data["plan_units"] = [asdict(u) for u in self.plan_units]
        data["rng"] = self.rng.to_json()
        data["players"] = [asdict(p) for p in self.players]
        data["units"] = [asdict(u) for u in self.units.values()]
        data["options"] = asdict(self.options)
        data["chain"] = [[i.player, i.kind, list(i.action), i.reaction, i.void] for i in self.chain]
        data["queued"] = [[i.player, i.kind, list(i.action), i.reaction, i.void] for i in self.queued]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: Rules) -> State:
        """The state :meth:`to_json` wrote, played with ``rules``. A state saved before the
        engine kit holds its generator as ``random.Random.getstate()`` in a list: it is read as
        the same Mersenne Twister stream (:func:`starcom.kit.rng.from_json`)."""
        d = dict(data)
        d["rng"] = kit_rng.from_json(d["rng"])
        d["rules"] = rules
        d["players"] = [_player(p) for p in d["players"]]
        d["units"] = {u["uid"]: Unit(**u) for u in d["units"]}
        d["plan_units"] = [Unit(**u) for u in d.get("plan_units", [])]
        d["options"] = Options(**d["options"])
        d["chain"] = [Item(p, k, _tuples(a), r, v) for p, k, a, r, v in d["chain"]]
        d["queued"] = [Item(p, k, _tuples(a), r, v) for p, k, a, r, v in d["queued"]]
        d["aim_weapons"] = [tuple(w) for w in d["aim_weapons"]]
        d.pop("log", None)
        return cls(**d)


_FIXED: Final = frozenset(("owner_of", "spec_of", "rules"))  # what no rule changes after setup
# A state's fields in order (read by name: a compiled class has no __dict__), and those a clone copies.
_NAMES: Final = tuple(f.name for f in fields(State))
_CHANGING: Final = tuple(name for name in _NAMES if name not in _FIXED)
# A record's fields in order, read at C speed; a Unit's and an Item's fields are all immutable.
# (Their dataclass fields, not __slots__, which a compiled class does not have.)
_FIELDS: Final = {kind: attrgetter(*[f.name for f in fields(kind)]) for kind in (Unit, Player, Item)}
_FLAT: Final = (Unit, Item)
_GENERATORS: Final = (kit_rng.Mersenne, kit_rng.SplitMix)


def _fresh(value: Any) -> Any:
    """A copy of one part of a state, as deep as its mutable parts go (tuples, numbers and
    strings are shared)."""
    kind = type(value)
    if kind in _FLAT:
        return kind(*_FIELDS[kind](value))
    if kind is list:
        if value and type(value[0]) in (int, str, tuple):
            return value[:]
        return [_fresh(v) for v in value]
    if kind is dict:
        return {k: _fresh(v) for k, v in value.items()}
    if kind is Player:
        return Player(*[_fresh(v) for v in _FIELDS[Player](value)])
    if kind in _GENERATORS:
        return value.clone()
    if kind is Options:
        return copy.copy(value)
    return value


def _player(data: dict[str, Any]) -> Player:
    if "cargo_supply" in data:  # JSON made the keys strings (turned back before the compiled Player checks them)
        data = {**data, "cargo_supply": {int(k): v for k, v in data["cargo_supply"].items()}}
    return Player(**data)


def _tuples(data: Any) -> Any:
    """JSON lists back into the tuples actions are made of."""
    return tuple(_tuples(x) for x in data) if isinstance(data, list) else data
