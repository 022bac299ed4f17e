"""Galactic Empires as fixed-size numbers for learning agents (``GameEntry.features``).

**Observation** (float32, seat-relative): a block of :data:`SLOTS` card slots for the observing
seat's own deck list, then one for the other seat's, each slot a card in the list's fixed
order (uid order), with where the card is as far as the seat can tell and, in play, its
counters; then the public facts of both seats and the decision. A card the seat cannot locate
(the other hand but what it saw go there, either deck, a reserve not yet shown) is marked
"hidden" and nothing else, so the vector reads only what the seat may know.

**Action IDs**: an action's *family* is its kind and its first two arguments, coded relative to
the seat deciding (its own cards, the other seat's cards, own fleet or Sector HQ, the other's,
words, small numbers); each family has a few slots for actions that differ only further on.
An ID therefore means the same thing in every game. Actions that fit no slot get -1 (the
first legal action always gets an ID, so a mask is never empty).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .cards import EMPIRES, deck_list
from .game import GalacticEmpires
from .state import PHASES

SLOTS = 51  # the larger deck
CARD_FEATURES = 13
PLACES = 2 * SLOTS + 2  # own cards, other cards, own fleet/HQ, other fleet/HQ
WORDS = ("phaser", "heavy", "hull", "shield", "research", "repair", "energy", "supply", "move", "mission",
         "cure", "capture", "wreck", "cancel", "evacuate", "intercept", "damage")
KEYS = sorted({c.key for e in EMPIRES for c in deck_list(e)})
# kind -> (sizes of the coded first two arguments, slots for what follows)
ARITY: dict[str, tuple[tuple[int, ...], int]] = {
    "pass": ((), 1), "quiet": ((), 1), "end": ((), 1), "allocate": ((), 1), "fire": ((), 1),
    "pay": ((PLACES,), 1), "pay-part": ((PLACES,), 1), "load": ((PLACES,), 1), "research": ((PLACES,), 1),
    "discard": ((PLACES,), 1), "drop": ((PLACES,), 1), "aim": ((PLACES,), 1),
    "repair": ((PLACES, len(WORDS)), 1), "add": ((PLACES, len(WORDS)), 1),
    "play": ((SLOTS, PLACES), 4), "pair": ((SLOTS, SLOTS), 6), "swap": ((SLOTS, SLOTS), 1),
    "combine": ((SLOTS, SLOTS), 1), "separate": ((SLOTS,), 24), "use": ((SLOTS, len(WORDS) + 8), 12),
    "shoot": ((SLOTS, PLACES), 1), "reserve": ((len(KEYS) + 1, len(KEYS) + 1), 1),
}


class Features:
    """The encoding (one object serves every game: Galactic Empires has one setting)."""

    def __init__(self) -> None:
        self.kinds = sorted(ARITY)
        self.offset: dict[str, int] = {}
        total = 0
        for kind in self.kinds:
            sizes, slots = ARITY[kind]
            self.offset[kind] = total
            total += int(np.prod(sizes, dtype=np.int64)) * slots if sizes else slots
        self.action_count = total
        self.globals_size = 40
        self.observation_size = 2 * SLOTS * CARD_FEATURES + self.globals_size

    # ------------------------------------------------------------------ observations
    def _slots(self, g: GalacticEmpires, seat: int) -> list[int]:
        """uid -> slot for ``seat``'s view: own cards first, in uid order."""
        s = g.s
        out = [0] * len(s.spec_of)
        for side, owner in enumerate((seat, 1 - seat)):
            uids = [u for u in range(len(s.spec_of)) if s.owner_of[u] == owner]
            for i, u in enumerate(uids):
                out[u] = side * SLOTS + i
        return out

    def observe(self, g: GalacticEmpires, seat: int) -> np.ndarray:
        s = g.s
        slot = self._slots(g, seat)
        cards = np.zeros((2 * SLOTS, CARD_FEATURES), np.float32)
        for owner, p in enumerate(s.players):
            mine = owner == seat
            for u in p.hand:
                if mine or u in p.shown:
                    cards[slot[u], 0] = 1
                else:
                    cards[slot[u], 1] = 1
            for u in p.deck + p.aside:
                cards[slot[u], 1] = 1
            for u in p.discard:
                cards[slot[u], 2] = 1
            for u in p.reserve:
                cards[slot[u], 3 if (mine or p.reserve_public) else 1] = 1
        for unit in s.units.values():
            row = cards[slot[unit.uid]]
            row[4] = 1
            row[6:13] = (unit.engaged, unit.shield_damage / 4, unit.damage / 4, unit.loaded / 3, unit.used,
                         unit.paid, unit.against)
        for item in s.chain:
            for uid in item.action[1:3]:
                if type(uid) is int and 0 <= uid < len(s.spec_of) and uid not in s.units \
                        and uid not in s.players[s.owner_of[uid]].hand:
                    cards[slot[uid], 5] = 1
        me, other = s.players[seat], s.players[1 - seat]
        glob = np.zeros(self.globals_size, np.float32)
        glob[0:6] = (me.hq / 25, other.hq / 25, len(me.deck) / SLOTS, len(other.deck) / SLOTS,
                     len(me.hand) / 15, len(other.hand) / 15)
        glob[6:12] = np.array(me.pool, np.float32) / 10
        glob[12 + PHASES.index(s.phase)] = 1
        glob[19:27] = (g.to_move == seat, s.priority == seat, s.priority == 1 - seat, s.active == seat,
                       me.plays / 3, other.plays / 3, me.slots / 4, s.edition == "quick")
        glob[27:31] = (me.turns / 40, other.turns / 40, s.aim is not None,
                       s.aim is not None and s.aim == -2 + seat)  # aiming at the other Sector HQ
        glob[31:35] = (len(s.chain) / 5, len(s.aim_weapons) / 8, me.reserve_public, len(me.reserve) / 2)
        return np.concatenate([cards.ravel(), glob])

    # ------------------------------------------------------------------ action IDs
    def _place(self, g: GalacticEmpires, seat: int, x: int, slot: list[int]) -> int:
        if x < 0:
            return 2 * SLOTS + (0 if -1 - x == seat else 1)
        return slot[x]

    def _word(self, x: Any) -> int:
        if type(x) is int:
            return len(WORDS) + max(0, min(7, x))
        return WORDS.index(x) if x in WORDS else len(WORDS) + 7

    def _family(self, g: GalacticEmpires, seat: int, action: tuple[Any, ...], slot: list[int]) -> int | None:
        kind = action[0]
        if kind not in ARITY:
            return None
        sizes, _ = ARITY[kind]
        args = action[1:]
        if kind == "reserve":
            codes = [KEYS.index(k) + 1 for k in args] + [0, 0]
            return codes[0] * sizes[1] + codes[1]
        coded: list[int] = []
        for i, size in enumerate(sizes):
            x = args[i]
            if size == PLACES:
                c = self._place(g, seat, x, slot)
            elif size == SLOTS:
                c = slot[x] % SLOTS if type(x) is int and x >= 0 else 0
            else:
                c = self._word(x)
            coded.append(c)
        family = 0
        for c, size in zip(coded, sizes):
            family = family * size + c
        return family

    def action_ids(self, g: GalacticEmpires, actions: list[Any]) -> list[int]:
        """The ID of each of ``actions`` (legal actions of the seat to move), -1 where none."""
        seat = g.to_move if g.to_move is not None else 0
        slot = self._slots(g, seat)
        used: dict[tuple[str, int], int] = {}
        out = []
        for a in actions:
            a = tuple(a)
            family = self._family(g, seat, a, slot)
            if family is None:
                out.append(-1)
                continue
            slots = ARITY[a[0]][1]
            k = used.get((a[0], family), 0)
            used[(a[0], family)] = k + 1
            out.append(self.offset[a[0]] + family * slots + k if k < slots else -1)
        if out and out[0] < 0:  # the first legal action always has an ID
            a = tuple(actions[0])
            family = self._family(g, seat, a, slot)
            out[0] = self.offset[a[0]] + (family or 0) * ARITY[a[0]][1] if a[0] in ARITY else 0
        return out

    def action_label(self, action_id: int) -> str:
        """What an ID means, in words: its kind, coded arguments and slot."""
        if not 0 <= action_id < self.action_count:
            return f"no action {action_id}"
        kind = max((k for k in self.kinds if self.offset[k] <= action_id), key=lambda k: self.offset[k])
        sizes, slots = ARITY[kind]
        rest = action_id - self.offset[kind]
        family, k = divmod(rest, slots)
        parts = []
        for size in reversed(sizes):
            family, c = divmod(family, size)
            parts.append(self._describe(c, size, kind))
        return " ".join([kind, *reversed(parts), f"#{k}"]).strip()

    def _describe(self, c: int, size: int, kind: str) -> str:
        if kind == "reserve":
            return "-" if c == 0 else KEYS[c - 1]
        if size in (PLACES, SLOTS):
            if c >= 2 * SLOTS:
                return "own-fleet" if c == 2 * SLOTS else "other-fleet"
            return f"{'own' if c < SLOTS else 'other'}[{c % SLOTS}]"
        return WORDS[c] if c < len(WORDS) else f"n{c - len(WORDS)}"


FEATURES = Features()


def features(game: Any) -> Features:
    return FEATURES


__all__ = ["FEATURES", "Features", "features"]
