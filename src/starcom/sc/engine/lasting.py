"""Lasting effects: what cards change for a while (bonuses, shields, "cannot jump", extra turns)
kept as records in one layer of the state, ``g.lasting``, which the rules query.

A record says what kind of change it is, what it applies to (a vessel id, a position or a
player: the kind decides which), by how much (bonuses only), who controls it, which card
instance made it (``NOBODY`` when unknown: scenarios, old saves) and when it ends. Records are
immutable and ``g.lasting`` is a tuple replaced on every change, so a clone shares it. Beside
it, ``g.lasting_kinds`` holds one bit (:data:`BIT`) per kind present: every query first tests
its bit, so the rules pay next to nothing for kinds no card has made (most of them, mostly).

Nothing here knows a card: each card's block in ``cards/effects.py`` adds its records; the
rules ask the generic questions below; :func:`expire` ends records at the moments of the turn.
"""
from __future__ import annotations

from enum import StrEnum
from typing import Any, Final, NamedTuple, TYPE_CHECKING

if TYPE_CHECKING:  # the state holds the records, so this module comes below it
    from .state import GameState

NOBODY: Final = -1  # state.NOBODY: no player, or no known source


class Kind(StrEnum):
    """What a record changes. The first group applies to a vessel (target: its id)."""

    ATTACK = "attack"  # +amount attack
    HP = "hp"  # +amount hit points
    SPEED = "speed"  # +amount speed
    TARGETS = "targets"  # +amount targets among which it may divide its combat damage
    SHIELD = "shield"  # all damage dealt to it is prevented
    UNTARGETABLE = "untargetable"  # no Command or ability may target it
    MAY_REDIRECT = "may_redirect"  # may take over damage aimed at another vessel (COMBAT-5)
    REDIRECTED = "redirected"  # has redirected in this combat (once per combat, COMBAT-5)
    NO_ATTACK = "no_attack"  # cannot attack
    # On a position:
    NO_JUMP = "no_jump"  # ships there may neither jump nor retreat
    LONG_JUMP = "long_jump"  # ships there may jump two systems away
    # On a player:
    EXTRA_TURN = "extra_turn"  # the player takes another turn after this one


BIT: Final[dict[Kind, int]] = {k: 1 << i for i, k in enumerate(Kind)}
# Each kind's bit as a plain int, for the tests on the hot path (an enum hashes slowly).
HAS_ATTACK: Final = BIT[Kind.ATTACK]
HAS_HP: Final = BIT[Kind.HP]
HAS_SPEED: Final = BIT[Kind.SPEED]
HAS_TARGETS: Final = BIT[Kind.TARGETS]
HAS_SHIELD: Final = BIT[Kind.SHIELD]
HAS_UNTARGETABLE: Final = BIT[Kind.UNTARGETABLE]
HAS_MAY_REDIRECT: Final = BIT[Kind.MAY_REDIRECT]
HAS_REDIRECTED: Final = BIT[Kind.REDIRECTED]
HAS_NO_ATTACK: Final = BIT[Kind.NO_ATTACK]
HAS_NO_JUMP: Final = BIT[Kind.NO_JUMP]
HAS_LONG_JUMP: Final = BIT[Kind.LONG_JUMP]
HAS_EXTRA_TURN: Final = BIT[Kind.EXTRA_TURN]

VESSEL_KINDS: Final = frozenset({Kind.ATTACK, Kind.HP, Kind.SPEED, Kind.TARGETS, Kind.SHIELD, Kind.UNTARGETABLE,
                          Kind.MAY_REDIRECT, Kind.REDIRECTED, Kind.NO_ATTACK})
# Kinds that are on or off: holding one twice is holding it once, so a repeat is not recorded.
_FLAGS: Final = frozenset(Kind) - {Kind.ATTACK, Kind.HP, Kind.SPEED, Kind.TARGETS, Kind.EXTRA_TURN}


class Until(StrEnum):
    """When a record ends."""

    END_OF_TURN = "end_of_turn"  # END-3 cleanup of the current turn
    # The start of its holder's next Ready phase, or the holder's elimination: the holder is
    # whoever controls the target vessel by then, or the record's controller for other kinds.
    READY = "ready"
    COMBAT = "combat"  # the end of the current combat
    USED = "used"  # when the rule that reads it uses it up (extra turns)


class Lasting(NamedTuple):
    """One lasting effect (see the module docstring)."""

    kind: Kind
    target: int
    amount: int
    controller: int
    source: int
    until: Until

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "target": self.target, "amount": self.amount,
                "controller": self.controller, "source": self.source, "until": self.until.value}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Lasting:
        """A record saved by :meth:`to_json`; an unknown kind or duration raises ValueError."""
        return cls(Kind(data["kind"]), int(data["target"]), int(data["amount"]), int(data["controller"]),
                   int(data["source"]), Until(data["until"]))


# --------------------------------------------------------------------------- changes


def kinds_of(records: tuple[Lasting, ...]) -> int:
    """The bits (:data:`BIT`) of the kinds among ``records``."""
    bits = 0
    for r in records:
        bits |= BIT[r.kind]
    return bits


def _store(g: GameState, records: tuple[Lasting, ...]) -> None:
    g.lasting, g.lasting_kinds = records, kinds_of(records)


def add(g: GameState, kind: Kind, target: int, source: int, controller: int, until: Until,
        amount: int = 0) -> None:
    """Record a lasting effect (a flag already held the same way is not recorded twice)."""
    rec = Lasting(kind, target, amount, controller, source, until)
    if kind in _FLAGS:
        for r in g.lasting:
            if r.kind is kind and r.target == target and r.controller == controller and r.until is until:
                return
    _store(g, g.lasting + (rec,))


def expire(g: GameState, moment: Until, player: int = NOBODY) -> None:
    """End the records whose duration ends at ``moment``. For ``Until.READY``, ``player``'s
    Ready phase starts (or ``player`` is eliminated and will have none): the records they hold
    end. ``Until.USED`` records end only through :func:`use`."""
    if not g.lasting:
        return
    if moment is Until.READY:
        vessels = g.vessels
        _store(g, tuple(r for r in g.lasting if r.until is not Until.READY or (
            vessels[r.target].owner if r.kind in VESSEL_KINDS else r.controller) != player))
    else:
        _store(g, tuple(r for r in g.lasting if r.until is not moment))


def use(g: GameState, kind: Kind, target: int) -> bool:
    """Use up the first record of ``kind`` on ``target``; False if there is none."""
    for i, r in enumerate(g.lasting):
        if r.kind is kind and r.target == target:
            _store(g, g.lasting[:i] + g.lasting[i + 1:])
            return True
    return False


def drop(g: GameState, kind: Kind, target: int | None = None) -> None:
    """End every record of ``kind`` (on ``target`` only, if given)."""
    if g.lasting_kinds & BIT[kind]:
        _store(g, tuple(r for r in g.lasting if r.kind is not kind or target not in (None, r.target)))


def forget_vessel(g: GameState, vid: int) -> None:
    """The vessel left play: what applied to it ends (a card coming back is a new vessel)."""
    if g.lasting:
        _store(g, tuple(r for r in g.lasting if r.target != vid or r.kind not in VESSEL_KINDS))


# --------------------------------------------------------------------------- queries


def total(g: GameState, kind: Kind, target: int) -> int:
    """The sum of the amounts of the records of ``kind`` on ``target``."""
    n = 0
    for r in g.lasting:
        if r.target == target and r.kind is kind:
            n += r.amount
    return n


def holds(g: GameState, kind: Kind, target: int) -> bool:
    """Whether some record of ``kind`` applies to ``target``."""
    for r in g.lasting:
        if r.target == target and r.kind is kind:
            return True
    return False


def records(g: GameState, kind: Kind, target: int) -> list[Lasting]:
    """The records of ``kind`` on ``target``, oldest first."""
    return [r for r in g.lasting if r.target == target and r.kind is kind]


def attack_bonus(g: GameState, vid: int) -> int:
    return total(g, Kind.ATTACK, vid) if g.lasting_kinds & HAS_ATTACK else 0


def hp_bonus(g: GameState, vid: int) -> int:
    return total(g, Kind.HP, vid) if g.lasting_kinds & HAS_HP else 0


def speed_bonus(g: GameState, vid: int) -> int:
    return total(g, Kind.SPEED, vid) if g.lasting_kinds & HAS_SPEED else 0


def extra_targets(g: GameState, vid: int) -> int:
    return total(g, Kind.TARGETS, vid) if g.lasting_kinds & HAS_TARGETS else 0


def shielded(g: GameState, vid: int) -> bool:
    """All damage dealt to the vessel is prevented."""
    return bool(g.lasting_kinds & HAS_SHIELD) and holds(g, Kind.SHIELD, vid)


def untargetable(g: GameState, vid: int) -> bool:
    return bool(g.lasting_kinds & HAS_UNTARGETABLE) and holds(g, Kind.UNTARGETABLE, vid)


def may_redirect(g: GameState, vid: int) -> bool:
    """A card lets the vessel redirect (besides vessels whose card says so)."""
    return bool(g.lasting_kinds & HAS_MAY_REDIRECT) and holds(g, Kind.MAY_REDIRECT, vid)


def has_redirected(g: GameState, vid: int) -> bool:
    return bool(g.lasting_kinds & HAS_REDIRECTED) and holds(g, Kind.REDIRECTED, vid)


def attack_forbidden(g: GameState, vid: int) -> bool:
    return bool(g.lasting_kinds & HAS_NO_ATTACK) and holds(g, Kind.NO_ATTACK, vid)


def jump_forbidden(g: GameState, pos: int) -> bool:
    """Ships at ``pos`` may neither jump nor retreat."""
    return bool(g.lasting_kinds & HAS_NO_JUMP) and holds(g, Kind.NO_JUMP, pos)


def jump_blockers(g: GameState, pos: int) -> list[int]:
    """The players whose effects keep ships at ``pos`` from jumping, in the order they came."""
    return [r.controller for r in g.lasting if r.target == pos and r.kind is Kind.NO_JUMP]


def long_jump(g: GameState, pos: int) -> bool:
    """Ships at ``pos`` may jump two systems away."""
    return bool(g.lasting_kinds & HAS_LONG_JUMP) and holds(g, Kind.LONG_JUMP, pos)


def extra_turns(g: GameState) -> int:
    """Extra turns still to be taken (only the active player can have any)."""
    return sum(1 for r in g.lasting if r.kind is Kind.EXTRA_TURN)


# --------------------------------------------------------------------------- old saves

_OLD_VESSEL_FLAGS: Final = {"shielded": Kind.SHIELD, "untargetable": Kind.UNTARGETABLE,
                     "can_redirect": Kind.MAY_REDIRECT, "redirected": Kind.REDIRECTED,
                     "no_attack": Kind.NO_ATTACK, "nexus": Kind.SPEED}
_OLD_VESSEL_AMOUNTS: Final = {"atk_bonus": Kind.ATTACK, "hp_bonus": Kind.HP, "extra_targets": Kind.TARGETS}
OLD_VESSEL_FIELDS: Final = frozenset(_OLD_VESSEL_FLAGS) | frozenset(_OLD_VESSEL_AMOUNTS)
_OLD_UNTIL: Final = {Kind.REDIRECTED: Until.COMBAT, Kind.NO_ATTACK: Until.READY}


def from_old_layout(data: dict[str, Any]) -> tuple[Lasting, ...]:
    """The records of a state saved before this layer existed, when cards set fields of vessels
    (bonuses and flags), of sites (``interdicted_by``) and of the state (``stabilized``,
    ``extra_turns``). Their sources were not saved: they are ``NOBODY``; a vessel's flags are
    taken as its controller's."""
    out: list[Lasting] = []
    for v in data.get("vessels", []):
        vid, owner = v["id"], v["owner"]
        for key, kind in _OLD_VESSEL_AMOUNTS.items():
            if v.get(key):
                out.append(Lasting(kind, vid, int(v[key]), owner, NOBODY, Until.END_OF_TURN))
        for key, kind in _OLD_VESSEL_FLAGS.items():
            if v.get(key):
                amount = 1 if kind is Kind.SPEED else 0  # Jump Nexus: +1 speed this turn
                out.append(Lasting(kind, vid, amount, owner, NOBODY, _OLD_UNTIL.get(kind, Until.END_OF_TURN)))
    for pos, s in enumerate(data.get("sites", [])):
        for q in s.get("interdicted_by", []):
            out.append(Lasting(Kind.NO_JUMP, pos, 0, int(q), NOBODY, Until.READY))
    for pos in dict.fromkeys(data.get("stabilized", [])):
        out.append(Lasting(Kind.LONG_JUMP, int(pos), 0, int(data.get("active", 0)), NOBODY, Until.END_OF_TURN))
    for _ in range(int(data.get("extra_turns", 0))):
        out.append(Lasting(Kind.EXTRA_TURN, int(data["active"]), 0, int(data["active"]), NOBODY, Until.USED))
    return tuple(out)
