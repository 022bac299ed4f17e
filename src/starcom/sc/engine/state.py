"""The game state: plain data, a cheap ``clone()`` and a JSON form.

Everything that makes up a position lives here; rules live in the other engine modules.
"""
from __future__ import annotations

from ...kit.pickling import reduce_dataclass

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Final, Self

from ..cards.catalogue import CardDef
from ...kit import rng as rnglib
from .editions import EDITIONS, Edition
from .lasting import OLD_VESSEL_FIELDS, Lasting, from_old_layout, kinds_of
from .tasks import Option, Task, task_from_json

if TYPE_CHECKING:
    from .events import Event
    from .ruleset import Ruleset

NOBODY: Final = -1

# An action as the rules read it: (kind, *arguments). The typed actions of ``moves`` are such
# tuples; checks also see plain tuples of any shape, and refuse what does not fit.
ActionTuple = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Config:
    """How a game was created: with the action list, this fully determines the game."""

    players: int = 2
    size: int = 3
    edition: str = "standard"
    seed: int = 0
    turn_limit: int | None = None
    # Hard cap on actions: a game that reaches it ends by WIN-2 scoring, like the turn limit
    # (servers set it so that no game, however it is played, runs for ever).
    action_limit: int | None = None

    def __reduce__(self) -> tuple[Any, ...]:  # (the compiled record pickles through this)
        return reduce_dataclass(self)


# The fields of a vessel and of a state, in their JSON order (their classes' __slots__; a
# module constant because the compiled build has no __slots__ to read through the class).
VESSEL_FIELDS: Final = ("id", "d", "owner", "pos", "damage", "jumps", "moved", "fresh", "built")
STATE_FIELDS: Final = (
    "cfg", "ed", "rules", "rng", "turn", "active", "phase", "credits", "hands", "techs", "decks", "discards",
    "sysdeck", "supply", "sites", "vessels", "homeworld", "alive", "prev_turn", "tasks",
    "step", "prio", "passes", "actor", "choice", "trade", "stack", "assigned",
    "fought", "combat_pos", "lasting", "lasting_kinds", "abandoned",
    "offers_made", "winner", "over", "events", "actions_played",
)


class Vessel:
    """A ship or station on the board. Its id is the id of its card instance."""

    __slots__ = VESSEL_FIELDS

    id: int
    d: CardDef  # the card's printed facts (not saved: it follows from the id)
    owner: int
    pos: int
    damage: int
    jumps: int  # jumps used this turn (MOVE-1)
    moved: bool  # moved this turn in any way (COMBAT-7)
    fresh: bool  # not controlled since the start of its controller's turn (MOVE-1)
    built: bool  # built (not merely received) this turn (BUILD-7, catalogue: jump_when_built)
    # What cards change for a while (bonuses, shields...) is in GameState.lasting.

    def __init__(self, cid: int, owner: int, pos: int, d: CardDef) -> None:
        self.id = cid
        self.d = d
        self.owner = owner
        self.pos = pos
        self.damage = self.jumps = 0
        self.moved = False
        self.fresh = True
        self.built = True

    def copy(self) -> "Vessel":
        # Written out field by field: cloning is the hot path of search agents.
        # (Through the constructor: a compiled class has no __new__ that skips __init__.)
        v = Vessel(self.id, self.owner, self.pos, self.d)
        v.damage, v.jumps, v.moved, v.fresh, v.built = self.damage, self.jumps, self.moved, self.fresh, self.built
        return v

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in VESSEL_FIELDS if k != "d"}

    def __reduce__(self) -> tuple[Any, ...]:
        # (Written out: a compiled class with required arguments does not pickle by itself.)
        return (_restore, (Vessel, (self.id, self.owner, self.pos, self.d),
                           {k: getattr(self, k) for k in VESSEL_FIELDS}))

    @classmethod
    def from_json(cls, data: dict[str, Any], cards: Sequence[CardDef]) -> "Vessel":
        """A vessel saved by :meth:`to_json`, ``cards`` the instances of its ruleset (older
        saves' card flags are read by ``lasting.from_old_layout``)."""
        v = cls(data["id"], data["owner"], data["pos"], cards[data["id"]])
        for k, val in data.items():
            if k not in OLD_VESSEL_FIELDS:
                setattr(v, k, val)
        return v


class Site:
    """One board position: its system card, whether it is face up, its controller, developments."""

    __slots__ = ("card", "d", "face_up", "owner", "devs", "combat_turn")

    card: int  # the system card's instance id (change it with set_card, which keeps d with it)
    d: CardDef  # that card's printed facts (a slot, not a property: read at every decision)
    face_up: bool
    owner: int  # NOBODY when uncontrolled
    devs: int  # developments (all of the controller's)
    combat_turn: int  # last turn number in which damage was assigned here (COMBAT-8)

    def __init__(self, card: int, d: CardDef, face_up: bool = False, owner: int = NOBODY, devs: int = 0) -> None:
        self.set_card(card, d)
        self.face_up = face_up
        self.owner = owner
        self.devs = devs
        self.combat_turn = -1

    def set_card(self, card: int, d: CardDef) -> None:
        """Put the system card ``card``, whose definition is ``d``, here."""
        self.card = card
        self.d = d

    def copy(self) -> "Site":
        s = Site(self.card, self.d, self.face_up, self.owner, self.devs)
        s.combat_turn = self.combat_turn
        return s

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (Site, (self.card, self.d), {"face_up": self.face_up, "owner": self.owner,
                                                       "devs": self.devs, "combat_turn": self.combat_turn}))

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "face_up": self.face_up, "owner": self.owner, "devs": self.devs,
                "combat_turn": self.combat_turn}

    @classmethod
    def from_json(cls, data: dict[str, Any], cards: Sequence[CardDef]) -> "Site":
        """A site saved by :meth:`to_json`, ``cards`` the instances of its ruleset."""
        s = cls(data["card"], cards[data["card"]])
        for k, val in data.items():
            if k not in ("card", "interdicted_by"):  # older saves: read by lasting.from_old_layout
                setattr(s, k, val)
        return s


@dataclass(frozen=True, slots=True)
class Choice:
    """A pending choice (step "choice"): ``player`` picks one of ``options``.

    ``kind`` is an engine choice (``kernel.ENGINE_CHOICES``) or the name of the card that asks
    (``g.rules.choice_handlers``); ``ctx`` is what a card's question is about (a position or a
    player). A discard paying for an ability keeps the ability's stack ``item`` and whether it
    was used during a priority round (``in_round``)."""

    player: int
    kind: str
    options: tuple[Option, ...]
    ctx: int | None = None
    item: tuple[Any, ...] | None = None
    in_round: bool = False

    def __reduce__(self) -> tuple[Any, ...]:  # (the compiled record pickles through this)
        return reduce_dataclass(self)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "kind": self.kind, "options": list(self.options)}
        if self.ctx is not None:
            out["ctx"] = self.ctx
        if self.item is not None:
            out["item"], out["in_round"] = list(self.item), self.in_round
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Choice:
        item = data.get("item")
        return cls(data["player"], data["kind"], tuple(data["options"]), data.get("ctx"),
                   None if item is None else tuple(item), bool(data.get("in_round", False)))


TradeItem = tuple[str, int]  # (item kind, value): ("card", 42), ("system", 4), ...


@dataclass(frozen=True, slots=True)
class Trade:
    """The trade on the table (TRADE-3): the active player offers it to ``to``; ``give`` and
    ``ask`` hold cards, technologies, systems and vessels; credits are counted, and so are the
    cards asked from the other hand (``ask_hand``: the asker cannot name them)."""

    to: int
    give: tuple[TradeItem, ...] = ()
    ask: tuple[TradeItem, ...] = ()
    give_credits: int = 0
    ask_credits: int = 0
    ask_hand: int = 0

    def __reduce__(self) -> tuple[Any, ...]:  # (the compiled record pickles through this)
        return reduce_dataclass(self)

    def to_json(self) -> dict[str, Any]:
        return {"to": self.to, "give": [list(i) for i in self.give], "ask": [list(i) for i in self.ask],
                "give_credits": self.give_credits, "ask_credits": self.ask_credits,
                "ask_hand": self.ask_hand}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Trade:
        return cls(data["to"], tuple((k, v) for k, v in data["give"]), tuple((k, v) for k, v in data["ask"]),
                   data["give_credits"], data["ask_credits"], data["ask_hand"])


class GameState:
    """All data of one game position. Every field is declared here; the constructor gives each
    its value before setup (``setup.new_state`` deals the cards and starts the first turn)."""

    __slots__ = STATE_FIELDS

    cfg: Config  # how the game was created
    ed: Edition  # the rules switches of cfg.edition (not saved: it follows from cfg)
    rules: Ruleset  # the cards and their effects (ruleset.py; shared by clones, not saved)
    rng: int  # the whole random generator (rng.py)
    turn: int  # turn number, from 0
    active: int  # whose turn it is
    phase: str  # ready | command | combat | end
    # Per player (indexed by seat):
    credits: list[int]
    hands: list[list[int]]  # card instance ids
    techs: list[list[int]]  # technologies in play
    homeworld: list[int]  # positions
    alive: list[bool]
    prev_turn: list[int]  # the number of the player's last finished turn, -1 before it
    # Cards out of play:
    decks: list[list[int]]  # per domain (catalogue.DOMAINS); the last card is on top
    discards: list[list[int]]  # per domain
    sysdeck: list[int]  # system cards not on the board
    supply: dict[str, list[int]]  # neutral cards by name: instances not in play
    # The board:
    sites: list[Site]  # by position
    vessels: dict[int, Vessel]  # by card instance id, in the order they came into play
    # The turn machine (flow.py):
    tasks: list[Task]  # queued tasks, the last runs next (tasks.py)
    step: str | None  # the decision awaited (actions.STEP_KINDS), None while tasks run
    actor: int  # who must decide, NOBODY when nobody is
    prio: int  # who holds priority in a priority round
    passes: int  # passes in a row in the current priority round
    choice: Choice | None  # the pending choice when step is "choice"
    trade: Trade | None  # the trade on the table
    stack: list[list[Any]]  # cards and abilities waiting to resolve (play.py), last on top
    # Combat (combat.py):
    assigned: list[list[int]]  # [source vessel, target vessel, amount] assigned this combat
    fought: list[int]  # positions fought this Combat phase
    combat_pos: int  # the system being fought, -1 outside a fight
    # What cards change for a while (lasting.py): immutable records, shared by clones.
    lasting: tuple[Lasting, ...]
    lasting_kinds: int  # one bit per kind in lasting (lasting.BIT), not saved: it follows from it
    abandoned: list[int]  # fighters abandoned at the start of the turn (FIGHTER-2)
    offers_made: int  # trade offers opened this turn
    # The outcome:
    winner: int | None  # the winner, -1 for a draw, None while the game runs
    over: bool
    actions_played: int  # actions applied so far (Config.action_limit)
    events: list[Event]  # what the last action caused (not saved)

    def __init__(self, cfg: Config, rules: Ruleset) -> None:
        """An empty position for ``cfg``: no cards dealt, no task queued."""
        n = cfg.players
        self.cfg, self.ed, self.rng = cfg, EDITIONS[cfg.edition], rnglib.seed(cfg.seed)
        self.rules = rules
        self.turn, self.active, self.phase = 0, 0, "ready"
        self.credits, self.hands, self.techs = [0] * n, [[] for _ in range(n)], [[] for _ in range(n)]
        self.homeworld, self.alive, self.prev_turn = [NOBODY] * n, [True] * n, [-1] * n
        self.decks, self.discards, self.sysdeck, self.supply = [], [], [], {}
        self.sites, self.vessels = [], {}
        self.tasks, self.step, self.actor, self.prio, self.passes = [], None, NOBODY, NOBODY, 0
        self.choice, self.trade, self.stack = None, None, []
        self.assigned, self.fought, self.combat_pos = [], [], -1
        self.lasting, self.lasting_kinds, self.abandoned, self.offers_made = (), 0, [], 0
        self.winner, self.over, self.actions_played = None, False, 0
        self.events = []

    def _copy_into(self, other: GameState) -> None:
        # Written out field by field: cloning is the hot path of search agents. Tasks, the
        # choice, the trade, the config and the edition are immutable and shared.
        other.cfg, other.ed, other.rules, other.rng = self.cfg, self.ed, self.rules, self.rng
        other.turn, other.active, other.phase = self.turn, self.active, self.phase
        other.credits, other.alive = list(self.credits), list(self.alive)
        other.prev_turn, other.homeworld = list(self.prev_turn), list(self.homeworld)
        other.hands = [list(x) for x in self.hands]
        other.techs = [list(x) for x in self.techs]
        other.decks = [list(x) for x in self.decks]
        other.discards = [list(x) for x in self.discards]
        other.sysdeck = list(self.sysdeck)
        other.supply = {k: list(v) for k, v in self.supply.items()}
        other.sites = [s.copy() for s in self.sites]
        other.vessels = {k: v.copy() for k, v in self.vessels.items()}
        other.tasks = list(self.tasks)
        other.step, other.actor, other.prio, other.passes = self.step, self.actor, self.prio, self.passes
        other.choice, other.trade = self.choice, self.trade
        other.stack = [list(x) for x in self.stack]
        other.assigned = [list(x) for x in self.assigned]
        other.fought, other.combat_pos = list(self.fought), self.combat_pos
        other.lasting, other.lasting_kinds = self.lasting, self.lasting_kinds
        other.offers_made, other.abandoned = self.offers_made, list(self.abandoned)
        other.winner, other.over, other.actions_played = self.winner, self.over, self.actions_played
        other.events = []

    def __reduce__(self) -> tuple[Any, ...]:
        # (Written out: a compiled class with required arguments does not pickle by itself.)
        return (_restore, (type(self), (self.cfg, self.rules), {f: getattr(self, f) for f in STATE_FIELDS}))

    def clone(self) -> Self:
        """An independent copy (events buffer emptied)."""
        other = type(self)(self.cfg, self.rules)  # a compiled class has no __new__ that skips __init__
        self._copy_into(other)
        return other

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """The full state (hidden information included) as JSON-ready data, sharing no list
        with the live game. Fields in :data:`STATE_FIELDS` order; cfg, ed, rules and events are not
        fields of the JSON form (cfg comes first, as a dict; ed follows from it; the ruleset is
        given when loading)."""
        data: dict[str, Any] = {"cfg": asdict(self.cfg)}
        for f in STATE_FIELDS:
            if f in ("cfg", "ed", "rules", "events", "lasting_kinds"):
                continue
            val = getattr(self, f)
            if f == "sites":
                data[f] = [s.to_json() for s in val]
            elif f == "vessels":
                data[f] = [v.to_json() for v in val.values()]
            elif f == "tasks":
                data[f] = [t.to_json() for t in val]
            elif f in ("choice", "trade"):
                data[f] = None if val is None else val.to_json()
            elif f == "lasting":
                data[f] = [r.to_json() for r in val]
            else:
                data[f] = _plain(val)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: Ruleset | None = None) -> Self:
        """The state saved by :meth:`to_json` (sharing no list with ``data``), played with
        ``rules`` (required here; ``Game.from_json`` defaults to the standard ruleset). A
        missing or malformed field raises KeyError, TypeError, ValueError or AttributeError."""
        if rules is None:
            raise TypeError("a saved state is loaded with the ruleset it is played with")
        return cls.load_state(data, rules)

    @classmethod
    def load_state(cls, data: dict[str, Any], rules: Ruleset) -> Self:
        """:meth:`from_json` with its ruleset given (what ``Game.from_json`` calls: the compiled
        build's ``super()`` in a class method does not pass the subclass on)."""
        st = cls(Config(**data["cfg"]), rules)  # every field below is then read from data
        for f in STATE_FIELDS:
            if f in ("cfg", "ed", "rules", "events"):
                continue
            if f == "actions_played" and f not in data:  # states saved before the action cap
                st.actions_played = 0
                continue
            if f == "lasting_kinds":
                continue
            if f == "lasting" and f not in data:  # saved when cards set fields of vessels and sites
                st.lasting = from_old_layout(data)
                continue
            val = _plain(data[f])
            if f == "sites":
                val = [Site.from_json(s, rules.cards) for s in val]
            elif f == "vessels":
                val = {v["id"]: Vessel.from_json(v, rules.cards) for v in val}
            elif f == "tasks":
                val = [task_from_json(t) for t in val]
            elif f == "choice":
                val = None if val is None else Choice.from_json(val)
            elif f == "trade":
                val = None if val is None else Trade.from_json(val)
            elif f == "lasting":
                val = tuple(Lasting.from_json(r) for r in val)
            setattr(st, f, val)
        st.lasting_kinds = kinds_of(st.lasting)
        st.events = []
        return st


def _restore(cls: Any, args: tuple[Any, ...], fields: dict[str, Any]) -> Any:
    """An object unpickled: made with ``args``, then each of ``fields`` set (see ``__reduce__``)."""
    obj = cls(*args)
    for name, value in fields.items():
        setattr(obj, name, value)
    return obj


def _plain(val: Any) -> Any:
    """A deep copy of JSON-like data (lists and dicts copied, scalars and tuples shared)."""
    if isinstance(val, list):
        return [_plain(x) for x in val]
    if isinstance(val, dict):
        return {k: _plain(x) for k, x in val.items()}
    return val
