"""Galactic Empires on the server: its :class:`~starcom.server.adapter.EntryAdapter`, with short
option labels that tell every option of a decision apart in words, the reason a game ended,
and the game-over summary (:mod:`.summary`). The entry's ``serving.adapter`` hook makes it.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..games import GameEntry
from ..server.adapter import EntryAdapter, Recorder
from . import board
from . import moves as M
from .game import GalacticEmpires
from .state import State
from .summary import SummaryRecorder
from .text import describe
from .wording import name, place

WEAPONS = {"phaser": "phasers", "heavy": "heavy weapon"}  # what "add" adds, in words


def _separate(s: State, a: M.Separate) -> str:
    """"Separate Claw Heavy Cruiser: the capsule takes 1 shield damage, with Doctor"."""
    capsule = s.units[a.cruiser].partner if a.cruiser in s.units else None
    part = f" from {name(s, capsule)}" if capsule is not None else ""
    damage = [f"{n} {kind} damage" for n, kind in ((a.shield, "shield"), (a.hull, "hull")) if n]
    movable = [] if capsule is None else [
        u.uid for u in board.on(s, a.cruiser) if u.uid != capsule and s.spec(u.uid).key != "krebiz_armor"]
    moved = [name(s, uid) for i, uid in enumerate(movable[:3]) if a.mask >> i & 1]
    notes = ([f"the capsule takes {' and '.join(damage)}"] if damage else []) + (
        [f"{', '.join(moved)} go{'es' * (len(moved) == 1)} with it"] if moved else [])
    return f"Separate {name(s, a.cruiser)}{part}" + (f": {'; '.join(notes)}" if notes else "")


def _label(game: GalacticEmpires, action: Any, seat: int) -> str:
    """A short label for one legal action of ``seat``: the sentence :func:`.text.describe`
    makes, put more plainly where that sentence leaves something out."""
    s = game.s
    move = M.MOVES.lift(tuple(action))
    if isinstance(move, M.Combine):
        return f"Combine {name(s, move.cruiser)} with {name(s, move.capsule)}"
    if isinstance(move, M.Separate):
        return _separate(s, move)
    if isinstance(move, M.Add):
        return f"Add {name(s, move.card)}'s {WEAPONS.get(move.weapon, move.weapon)}"
    return describe(game, action, seat)


def _where(s: State, uid: int, seat: int) -> str:
    """Where card ``uid`` is, in a few words ("on Moon", "in P1's fleet", "in hand")."""
    unit = s.units.get(uid)
    if unit is not None:
        return f"on {name(s, unit.parent)}" if unit.parent is not None else f"in {place(s, -1 - unit.owner)}"
    p = s.players[s.owner_of[uid]]
    for zone, words in ((p.hand, "in hand"), (p.reserve, "in reserve"), (p.discard, "in the discard pile")):
        if uid in zone:
            return words if s.owner_of[uid] == seat else f"in P{s.owner_of[uid]}'s {words[3:]}"
    return ""


def _cards(s: State, action: Any) -> list[int]:
    """The cards an action names (ids that are cards of this game, not fleets or HQs)."""
    return [x for x in tuple(action)[1:] if type(x) is int and 0 <= x < len(s.spec_of)]


def option_labels(game: GalacticEmpires, actions: Sequence[Any], seat: int) -> list[str]:
    """A short label for each of ``actions`` (legal for ``seat``), no two alike: options whose
    words match are told apart by where the cards they name are, and where even that matches
    (two copies of a card in hand), by counting the copies."""
    s = game.s
    labels = [_label(game, a, seat) for a in actions]
    for same in _repeats(labels):
        places = {i: [_where(s, uid, seat) for uid in _cards(s, actions[i])] for i in same}
        # only the places that tell these options apart
        differ = [k for k in range(min(len(p) for p in places.values()))
                  if len({p[k] for p in places.values()}) > 1]
        for i in same:
            told = [places[i][k] for k in differ if places[i][k]]
            if told:
                labels[i] += f" ({', '.join(told)})"
    for same in _repeats(labels):
        for copy, i in enumerate(same, 1):
            labels[i] += f" (copy {copy})"
    return labels


def _repeats(labels: list[str]) -> list[list[int]]:
    """The indexes of each label that occurs more than once, grouped by label."""
    where: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        where.setdefault(label, []).append(i)
    return [idx for idx in where.values() if len(idx) > 1]


class GalacticEmpiresAdapter(EntryAdapter):
    """Galactic Empires on the server: the plain adapter, with option labels in words, the
    ending's reason and a summary of how the game went."""

    def labels(self, game: Any, actions: Sequence[Any], seat: int) -> list[str]:
        return option_labels(game, actions, seat)

    def over_reason(self, game: Any) -> str | None:
        """The game's end code once it is over: "hq" (a Sector HQ was destroyed), "stall" or
        "turn cap" (a tie-break decided it); None while it runs."""
        return (game.s.end or None) if game.over else None

    def recorder(self, game: Any) -> Recorder:
        return SummaryRecorder(game)


def server_adapter(entry: GameEntry[Any, Any]) -> GalacticEmpiresAdapter:
    """The adapter the server plays Galactic Empires (``entry``) with: the entry's
    ``serving.adapter`` hook."""
    return GalacticEmpiresAdapter(entry)


__all__ = ["GalacticEmpiresAdapter", "option_labels", "server_adapter"]
