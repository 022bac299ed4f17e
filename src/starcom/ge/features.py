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

from array import array
from typing import Any, Final

import numpy as np

from .cards import EMPIRES, deck_list
from .game import GalacticEmpires
from .state import PHASES

SLOTS: Final = 51  # the larger deck
CARD_FEATURES: Final = 13
PLACES: Final = 2 * SLOTS + 2  # own cards, other cards, own fleet/HQ, other fleet/HQ
WORDS: Final = ("phaser", "heavy", "hull", "shield", "research", "repair", "energy", "supply", "move", "mission",
         "cure", "capture", "wreck", "cancel", "evacuate", "intercept", "damage")
KEYS: Final = sorted({c.key for e in EMPIRES for c in deck_list(e)})
_KEY_INDEX: Final = {k: i for i, k in enumerate(KEYS)}
# kind -> (sizes of the coded first two arguments, slots for what follows)
ARITY: Final[dict[str, tuple[tuple[int, ...], int]]] = {
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
        self._blank = array("f", bytes(4 * self.observation_size))  # all zeros
        self._phase_index = {p: i for i, p in enumerate(PHASES)}
        self._pool_tenths = [float(np.float32(x) / np.float32(10)) for x in range(100)]
        self._game_tables: dict[int, _GameTables] = {}  # by id(owner_of): see _tables

    # ------------------------------------------------------------------ observations
    def _tables(self, g: GalacticEmpires) -> "_GameTables":
        """The tables of ``g``'s deal: a game's ``owner_of`` is fixed at setup and shared by its
        copies (``state._FIXED``), so they are kept with the list they were made from and found
        again by identity."""
        owner_of = g.s.owner_of
        found = self._game_tables.get(id(owner_of))
        if found is None or found.owner_of is not owner_of:
            if len(self._game_tables) >= 256:  # bounded: a long run deals new games for ever
                self._game_tables.clear()
            found = self._game_tables[id(owner_of)] = _GameTables(owner_of)
        return found

    def _slots(self, g: GalacticEmpires, seat: int) -> list[int]:
        """uid -> slot for ``seat``'s view: own cards first, in uid order."""
        return self._tables(g).slots[seat]

    def observe(self, g: GalacticEmpires, seat: int) -> np.ndarray:
        # Written for speed (it runs at every step): a float32 buffer copied from a blank one,
        # which the returned vector wraps (no copy); card row r's feature k at
        # r * CARD_FEATURES + k, the globals after the cards. Every entry is set, never summed.
        s = g.s
        row = self._tables(g).rows[seat]  # uid -> where its card row starts
        buf = self._blank[:]
        for owner, p in enumerate(s.players):
            mine = owner == seat
            if mine:
                for u in p.hand:
                    buf[row[u]] = 1.0
            else:
                shown = p.shown
                for u in p.hand:
                    buf[row[u] + (0 if u in shown else 1)] = 1.0
            for u in p.deck:
                buf[row[u] + 1] = 1.0
            for u in p.aside:
                buf[row[u] + 1] = 1.0
            for u in p.discard:
                buf[row[u] + 2] = 1.0
            k = 3 if (mine or p.reserve_public) else 1
            for u in p.reserve:
                buf[row[u] + k] = 1.0
        for unit in s.units.values():
            o = row[unit.uid]
            buf[o + 4] = 1.0
            buf[o + 6] = unit.engaged
            buf[o + 7] = unit.shield_damage / 4
            buf[o + 8] = unit.damage / 4
            buf[o + 9] = unit.loaded / 3
            buf[o + 10] = unit.used
            buf[o + 11] = unit.paid
            buf[o + 12] = unit.against
        if s.chain:
            n, units, players, owner_of = len(s.spec_of), s.units, s.players, s.owner_of
            for item in s.chain:
                for uid in item.action[1:3]:
                    if type(uid) is int and 0 <= uid < n and uid not in units \
                            and uid not in players[owner_of[uid]].hand:
                        buf[row[uid] + 5] = 1.0
        me, other = s.players[seat], s.players[1 - seat]
        o = 2 * SLOTS * CARD_FEATURES
        buf[o:o + 6] = array("f", (me.hq / 25, other.hq / 25, len(me.deck) / SLOTS, len(other.deck) / SLOTS,
                                   len(me.hand) / 15, len(other.hand) / 15))
        tenths = self._pool_tenths
        for i, x in enumerate(me.pool):  # a tenth of each point count, worked out in float32
            buf[o + 6 + i] = tenths[x] if 0 <= x < len(tenths) else float(np.float32(x) / np.float32(10))
        buf[o + 12 + self._phase_index[s.phase]] = 1.0
        buf[o + 19:o + 27] = array("f", (g.to_move == seat, s.priority == seat, s.priority == 1 - seat,
                                         s.active == seat, me.plays / 3, other.plays / 3, me.slots / 4,
                                         s.edition == "quick"))
        buf[o + 27:o + 31] = array("f", (me.turns / 40, other.turns / 40, s.aim is not None,
                                         s.aim is not None and s.aim == -2 + seat))  # aiming at the other Sector HQ
        buf[o + 31:o + 35] = array("f", (len(s.chain) / 5, len(s.aim_weapons) / 8, me.reserve_public,
                                         len(me.reserve) / 2))
        return np.frombuffer(buf, np.float32)

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
            codes = [_KEY_INDEX[k] + 1 for k in args] + [0, 0]
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
        tables = self._tables(g)
        slot, known = tables.slots[seat], tables.known[seat]
        if len(known) > 100_000:  # bounded, as a long game meets new actions
            known.clear()
        used: dict[int, int] = {}
        out = []
        for a in actions:
            a = tuple(a)
            found = known.get(a)
            if found is None:
                family = self._family(g, seat, a, slot)
                found = known[a] = (-1, 0) if family is None else \
                    (self.offset[a[0]] + family * ARITY[a[0]][1], ARITY[a[0]][1])
            first, slots = found
            if first < 0:
                out.append(-1)
                continue
            k = used.get(first, 0)
            used[first] = k + 1
            out.append(first + k if k < slots else -1)
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


class _GameTables:
    """What the encoding works out once per deal (``owner_of``: uid -> owning seat): for each
    seat, each uid's slot and where its card row starts in the observation, and the IDs of the
    actions met so far (action -> (its family's first ID, slots), first -1 for none)."""

    def __init__(self, owner_of: list[int]) -> None:
        self.owner_of = owner_of
        slots = []
        for seat in (0, 1):
            out = [0] * len(owner_of)
            for side, owner in enumerate((seat, 1 - seat)):
                uids = [u for u in range(len(owner_of)) if owner_of[u] == owner]
                for i, u in enumerate(uids):
                    out[u] = side * SLOTS + i
            slots.append(out)
        self.slots = (slots[0], slots[1])
        self.rows = tuple([x * CARD_FEATURES for x in table] for table in self.slots)
        self.known: tuple[dict[tuple[Any, ...], tuple[int, int]], ...] = ({}, {})


FEATURES: Final = Features()


def features(game: Any) -> Features:
    return FEATURES


__all__ = ["FEATURES", "Features", "features"]
