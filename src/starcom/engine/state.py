"""The game state: plain data, a cheap ``clone()`` and a JSON form.

Everything that makes up a position lives here; rules live in the other engine modules.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..cards.catalogue import CARD_DEF, CardDef
from .editions import EDITIONS, Edition

NOBODY = -1


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


class Vessel:
    """A ship or station on the board. Its id is the id of its card instance."""

    __slots__ = ("id", "d", "owner", "pos", "damage", "jumps", "moved", "fresh", "atk_bonus",
                 "hp_bonus", "extra_targets", "shielded", "untargetable", "can_redirect",
                 "redirected", "no_attack", "nexus", "built")

    def __init__(self, cid: int, owner: int, pos: int) -> None:
        self.id = cid
        self.d: CardDef = CARD_DEF[cid]
        self.owner = owner
        self.pos = pos
        self.damage = 0
        self.jumps = 0  # jumps used this turn (MOVE-1)
        self.moved = False  # moved this turn in any way (COMBAT-7)
        self.fresh = True  # not controlled since the start of its controller's turn (MOVE-1)
        self.atk_bonus = 0  # until end of turn
        self.hp_bonus = 0  # until end of turn
        self.extra_targets = 0  # until end of turn (Maximum Firepower)
        self.shielded = False  # all damage prevented this turn
        self.untargetable = False  # cannot be targeted by Commands or abilities this turn
        self.can_redirect = False  # may redirect this turn (Raise Shields)
        self.redirected = False  # has redirected in the current combat
        self.no_attack = False  # cannot attack until its controller's next turn (Black Hole)
        self.nexus = False  # +1 speed for the rest of the turn (Jump Nexus)
        self.built = True  # built (not merely received) this turn (Frigate)

    def copy(self) -> "Vessel":
        # Written out field by field: cloning is the hot path of search agents.
        v = Vessel.__new__(Vessel)
        v.id, v.d, v.owner, v.pos, v.damage = self.id, self.d, self.owner, self.pos, self.damage
        v.jumps, v.moved, v.fresh, v.built = self.jumps, self.moved, self.fresh, self.built
        v.atk_bonus, v.hp_bonus, v.extra_targets = self.atk_bonus, self.hp_bonus, self.extra_targets
        v.shielded, v.untargetable, v.can_redirect = self.shielded, self.untargetable, self.can_redirect
        v.redirected, v.no_attack, v.nexus = self.redirected, self.no_attack, self.nexus
        return v

    def reset_turn(self) -> None:
        """End-of-turn cleanup of the 'until end of turn' fields (TURN-3)."""
        self.jumps = 0
        self.moved = self.built = False
        self.atk_bonus = self.hp_bonus = self.extra_targets = 0
        self.shielded = self.untargetable = self.can_redirect = self.nexus = False

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in Vessel.__slots__ if k != "d"}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Vessel":
        v = cls(data["id"], data["owner"], data["pos"])
        for k, val in data.items():
            setattr(v, k, val)
        return v


class Site:
    """One board position: its system card, whether it is face up, its controller, developments."""

    __slots__ = ("card", "face_up", "owner", "devs", "combat_turn", "interdicted_by")

    def __init__(self, card: int, face_up: bool = False, owner: int = NOBODY, devs: int = 0) -> None:
        self.card = card
        self.face_up = face_up
        self.owner = owner
        self.devs = devs
        self.combat_turn = -1  # last turn number in which damage was assigned here (COMBAT-8)
        self.interdicted_by: list[int] = []  # players whose Interdiction holds ships here

    @property
    def d(self) -> CardDef:
        return CARD_DEF[self.card]

    def copy(self) -> "Site":
        s = Site.__new__(Site)
        s.card, s.face_up, s.owner, s.devs = self.card, self.face_up, self.owner, self.devs
        s.combat_turn, s.interdicted_by = self.combat_turn, list(self.interdicted_by)
        return s

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in Site.__slots__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Site":
        s = cls(data["card"])
        for k, val in data.items():
            setattr(s, k, val)
        return s


# Fields copied with list(...) / nested copies on clone; everything else is immutable or scalar.
_LIST_FIELDS = ("credits", "alive", "prev_turn", "homeworld", "fought", "stabilized", "abandoned",
                "sysdeck")
_LIST_OF_LISTS = ("hands", "techs", "decks", "discards", "assigned", "stack", "tasks")


class GameState:
    """All data of one game position."""

    __slots__ = (
        "cfg", "ed", "rng", "turn", "active", "phase", "credits", "hands", "techs", "decks", "discards",
        "sysdeck", "supply", "sites", "vessels", "homeworld", "alive", "prev_turn", "tasks",
        "step", "prio", "passes", "actor", "choice", "trade", "stack", "assigned",
        "fought", "combat_pos", "extra_turns", "stabilized", "abandoned",
        "offers_made", "winner", "over", "events", "actions_played",
    )

    cfg: Config
    ed: Edition

    def _copy_into(self, other: "GameState") -> None:
        other.cfg, other.ed, other.rng = self.cfg, self.ed, self.rng
        other.turn, other.active, other.step = self.turn, self.active, self.step
        other.phase = self.phase
        other.prio, other.passes, other.actor = self.prio, self.passes, self.actor
        other.combat_pos, other.extra_turns = self.combat_pos, self.extra_turns
        other.offers_made, other.winner, other.over = self.offers_made, self.winner, self.over
        other.actions_played = self.actions_played
        for f in _LIST_FIELDS:
            setattr(other, f, list(getattr(self, f)))
        for f in _LIST_OF_LISTS:
            setattr(other, f, [list(x) for x in getattr(self, f)])
        other.supply = {k: list(v) for k, v in self.supply.items()}
        other.sites = [s.copy() for s in self.sites]
        other.vessels = {k: v.copy() for k, v in self.vessels.items()}
        other.choice = None if self.choice is None else dict(self.choice)
        other.trade = None if self.trade is None else _copy_trade(self.trade)
        other.events = []

    def clone(self) -> "GameState":
        """An independent copy (events buffer emptied)."""
        other = type(self).__new__(type(self))
        self._copy_into(other)
        return other

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        """The full state (hidden information included) as JSON-ready data."""
        data: dict[str, Any] = {"cfg": asdict(self.cfg)}
        for f in GameState.__slots__:
            if f in ("cfg", "ed", "events"):
                continue
            val = getattr(self, f)
            if f == "sites":
                val = [s.to_json() for s in val]
            elif f == "vessels":
                val = [v.to_json() for v in val.values()]
            data[f] = _plain(val)  # a snapshot: shares no list with the live game
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GameState":
        st = cls.__new__(cls)
        st.cfg = Config(**data["cfg"])
        st.ed = EDITIONS[st.cfg.edition]
        for f in GameState.__slots__:
            if f in ("cfg", "ed", "events"):
                continue
            if f == "actions_played" and f not in data:  # states saved before the action cap
                setattr(st, f, 0)
                continue
            val = _plain(data[f])  # the loaded game must not share lists with ``data``
            if f == "sites":
                val = [Site.from_json(s) for s in val]
            elif f == "vessels":
                val = {v["id"]: Vessel.from_json(v) for v in val}
            elif f == "supply":
                val = {k: list(v) for k, v in val.items()}
            elif f in _LIST_OF_LISTS:
                val = [list(x) for x in val]
            elif f == "trade" and val is not None:
                val = _copy_trade(val)
            setattr(st, f, val)
        st.events = []
        return st


def _copy_trade(trade: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in trade.items()}


def _plain(val: Any) -> Any:
    """A deep copy of JSON-like data (lists and dicts copied, scalars and tuples shared)."""
    if isinstance(val, list):
        return [_plain(x) for x in val]
    if isinstance(val, dict):
        return {k: _plain(x) for k, x in val.items()}
    return val
