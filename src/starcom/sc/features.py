"""Star Commander as fixed-size numbers, for learning agents (:mod:`starcom.rl`).

:class:`Features` is made once per game setting (seats, board size, cards) and gives

- **observations**: one float32 vector per seat, seen from that seat (seat 0 of the vector is
  the observer, the others follow in turn order), read only from what the observer's view
  shows that seat: the board, every vessel, each player's credits, technologies and hand size,
  the seat's own hand, the discard piles, the stack, the trade as that seat sees it. The leak
  test (``tests/rl``) resamples everything else and checks the vector does not move;
- **stable action IDs**: a fixed range ``0 .. action_count - 1`` in which an ID always means
  the same thing. An action's *family* is its kind and its main fields, each coded by meaning
  rather than by card instance: a vessel or card by its card type, a position as itself, a
  player relative to the one deciding, small numbers capped. A ``jump`` of one ship type to
  one position, exploring or not, is one family; two ships of that type that could both make
  that jump take its slots 0 and 1, in the engine's order of legal actions. Card targets after
  the first and the choice options are told apart by slot too.

A legal action beyond its family's slots has no ID (:meth:`Features.action_ids` gives -1);
``tests/rl/test_codec.py`` measures how often that happens (docs/rl.md has the figures).
"""
from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, Final

import numpy as np

from .cards.catalogue import DOMAINS, CardDef
from .engine.actions import SIGNATURES, target_kinds
from .engine.state import GameState
from .engine.trade import ITEM_KINDS
from .engine.view import sees_choice, trade_cards_visible

_PHASES: Final = ("ready", "command", "combat", "end")
_STEPS: Final = ("command", "priority", "build_window", "combat_pick", "assign", "retreat", "choice",
          "trade_build", "trade_answer")
_AMOUNT_CAP: Final = 7  # amounts, credits and counts in an action are coded 0..7 (7: seven or more)

# What observe reads of a board position (a Site): face up, system card, controller, developments.
_SITE_FACTS: Final = attrgetter("face_up", "card", "owner", "devs")

# Codes an action field's value (its type goes by the field: an int, or a str for a trade
# item) for the seat deciding: a number below the field's radix.
Coder = Callable[[Any, int], int]

# Per kind: how many of its leading fields pick the family (the rest, and duplicates, go by
# slot), and how many slots a family has. A "*" field counts as one field: its first value. The
# slots hold what thousands of games at every setting needed, or cap it where a card offers
# hundreds of target combinations (tests/rl measures how often a legal action has no ID).
_CODED: Final[dict[str, tuple[int, int]]] = {
    "jump": (3, 8), "build": (2, 1), "develop": (1, 1), "play": (2, 8), "ability": (2, 16),
    "scrap": (1, 4), "repair": (1, 4), "sell": (1, 8), "offer": (1, 1), "give": (2, 8),
    "ask": (2, 8), "accept": (1, 8), "redirect": (2, 4), "fight": (1, 1), "assign": (2, 8),
    "retreat": (2, 4), "choose": (0, 64)}


class Features:
    """Observation encoder and action codec of one game setting (``players``, ``size`` and the
    ruleset of ``game``): every game with that setting shares them."""

    def __init__(self, game: GameState) -> None:
        cfg, rules = game.cfg, game.rules
        self.players, self.positions = cfg.players, cfg.size * cfg.size
        defs: Sequence[CardDef] = rules.catalogue.defs
        index = {id(d): i for i, d in enumerate(defs)}
        self.defs = len(defs)
        self.def_names = tuple(d.name for d in defs)
        # Per card instance: its type, and its vessel type (-1 for a card that is no vessel).
        self._def = [index[id(d)] for d in rules.cards]
        self._vessel_defs = vessel_defs = [i for i, d in enumerate(defs) if d.kind.value in ("ship", "station")]
        self.vessel_names = tuple(defs[i].name for i in vessel_defs)
        vindex = {d: j for j, d in enumerate(vessel_defs)}
        self._vdef = [vindex.get(i, -1) for i in self._def]
        system_defs = [i for i, d in enumerate(defs) if d.kind.value in ("system", "homeworld")]
        sindex = {d: j for j, d in enumerate(system_defs)}
        self._sdef = [sindex.get(i, -1) for i in self._def]
        self._sys_n, self._ves_n = len(system_defs), len(vessel_defs)
        self._defs, self._rules = defs, rules
        self._build_codec()
        self._build_layout()
        # An action's family depends only on the action, the seat deciding and the cards: the
        # same tuples come back all game long, so each is worked out once (per seat: action ->
        # its family's first ID and its number of slots).
        self._known: dict[int, dict[tuple[Any, ...], tuple[int, int]]] = {}

    # ------------------------------------------------------------------ action IDs
    def _build_codec(self) -> None:
        # Per kind: its first ID, and per coded field its radix and coder; then the slots.
        n, P, D, V = self.players, self.positions, self.defs, self._ves_n
        small = _AMOUNT_CAP + 1
        target = 1 + max(P, V, n, small)  # a first target: 0 for none, else 1 + its code
        vdef, cdef = self._vdef, self._def

        def relative(x: int, seat: int) -> int:
            return (x - seat) % n

        coders: dict[str, tuple[int, Coder]] = {
            "vessel": (V, lambda x, s: vdef[x]), "card": (D, lambda x, s: cdef[x]),
            "def": (D, lambda x, s: x), "pos": (P, lambda x, s: x), "player": (n, relative),
            "explore": (2, lambda x, s: x), "flag": (2, lambda x, s: x),
            "amount": (small, lambda x, s: min(x, _AMOUNT_CAP)),
            "item": (len(ITEM_KINDS), lambda x, s: ITEM_KINDS.index(x)),
        }
        # The card played, or whose ability is used, is coded among the cards that can be.
        playable = [i for i, d in enumerate(self._defs) if d.kind.value in ("command", "station", "technology")]
        usable = [i for i, d in enumerate(self._defs)
                  if self._rules.effect(d.name).resolve is not None]
        play_index = {d: j for j, d in enumerate(playable)}
        use_index = {d: j for j, d in enumerate(usable)}
        vessel_defs = self._vessel_defs
        build_index = {d: j for j, d in enumerate(vessel_defs)}
        subject = {"play": (len(playable), lambda x, s: play_index[cdef[x]]),
                   "ability": (len(usable), lambda x, s: use_index[cdef[x]]),
                   "build": (len(vessel_defs), lambda x, s: build_index[x])}
        self._subject_defs = {"play": playable, "ability": usable, "build": vessel_defs}
        self._coders = coders
        self._plan: dict[str, tuple[int, tuple[tuple[int, Any], ...], int]] = {}
        base = 0
        for kind, sig in SIGNATURES.items():
            coded, slots = _CODED.get(kind, (0, 1))
            fields: list[tuple[int, Any]] = []
            for k, (name, fk, _) in enumerate(sig[:coded]):
                if k == 0 and kind in subject:
                    fields.append(subject[kind])
                elif name.startswith("*"):
                    fields.append((target if fk == "target" else 1 + coders[fk][0], "*"))
                elif fk == "item_value":
                    fields.append((max(D, P, V), "item_value"))
                else:
                    fields.append(coders[fk])
            self._plan[kind] = (base, tuple(fields), slots)
            families = 1
            for radix, _ in fields:
                families *= radix
            base += families * slots
        self.action_count = base

    def _first_value(self, g: GameState, kind: str, action: tuple[Any, ...], i: int) -> int:
        """0 for an empty "*" field at ``action[i]``, else 1 + its first value's code."""
        if len(action) <= i:
            return 0
        x: int = action[i]  # a target (a card, vessel, position, player or amount) or a card
        if kind in ("play", "ability"):
            kinds = target_kinds(g, kind, action[1])
            tk = kinds[0] if kinds else "amount"
            if tk == "card":  # a card target goes by slot: cards have too many types to code
                return 0
            radix, code = self._coders.get(tk, self._coders["amount"])
            return 1 + code(x, g.actor)
        return 1 + self._def[x]

    def _family(self, g: GameState, action: tuple[Any, ...], seat: int) -> int:
        kind = action[0]
        base, fields, slots = self._plan[kind]
        code = 0
        for i, (radix, coder) in enumerate(fields, 1):
            if coder == "*":
                x = self._first_value(g, kind, action, i)
            elif coder == "item_value":
                item, v = action[i - 1], action[i]
                x = self._def[v] if item in ("card", "tech") else self._vdef[v] if item == "vessel" \
                    else v if item == "system" else 0
            else:
                x = coder(action[i], seat)
            code = code * radix + x
        return base + code * slots

    def action_ids(self, g: GameState, actions: Sequence[tuple[Any, ...]]) -> list[int]:
        """The stable ID of each of ``actions`` (the legal actions of ``g.actor``, in the
        engine's order): its family's first ID plus its rank among the actions of its family
        so far; -1 for one beyond its family's slots."""
        seat = g.actor
        known = self._known.get(seat)
        if known is None or len(known) > 250_000:  # bounded: a long run meets new actions for ever
            known = self._known[seat] = {}
        out: list[int] = []
        used: dict[int, int] = {}
        for a in actions:
            found = known.get(a)
            if found is None:
                found = known[a] = (self._family(g, a, seat), self._plan[a[0]][2])
            fam, slots = found
            k = used.get(fam, 0)
            used[fam] = k + 1
            out.append(fam + k if k < slots else -1)
        return out

    def action_label(self, action_id: int) -> str:
        """What an ID means, in words: its kind, its coded fields and its slot."""
        if not 0 <= action_id < self.action_count:
            raise ValueError(f"action ID {action_id} is outside 0..{self.action_count - 1}")
        kind, (base, fields, slots) = max(
            ((k, p) for k, p in self._plan.items() if p[0] <= action_id), key=lambda kp: kp[1][0])
        rest, slot = divmod(action_id - base, slots)
        values = []
        for field in fields[::-1]:
            rest, v = divmod(rest, field[0])
            values.append(v)
        words = [kind]
        for k, ((name, fk, _), v) in enumerate(zip(SIGNATURES[kind], reversed(values))):
            if k == 0 and kind in self._subject_defs:
                v, fk = self._subject_defs[kind][v], "def"
            elif name.startswith("*"):
                words.append(f"{name.lstrip('*')}={'none' if v == 0 else f'code {v - 1}'}")
                continue
            words.append(f"{name.lstrip('*')}={self._word(fk, v)}")
        words.append(f"#{slot}")
        return " ".join(words)

    def _word(self, field_kind: str, v: int) -> str:
        side = int(round(self.positions ** 0.5))
        if field_kind == "vessel":
            return self.vessel_names[v]
        if field_kind in ("card", "def"):
            return self.def_names[v]
        if field_kind == "pos":
            return f"{'abcde'[v % side]}{v // side + 1}"
        if field_kind == "player":
            return f"next+{v}" if v else "self"
        if field_kind == "item":
            return ITEM_KINDS[v]
        return str(v)

    # ------------------------------------------------------------------ observations
    def _build_layout(self) -> None:
        n, P, D, V, S = self.players, self.positions, self.defs, self._ves_n, self._sys_n
        at = 0
        layout: dict[str, tuple[int, int]] = {}

        def block(name: str, size: int) -> None:
            nonlocal at
            layout[name] = (at, size)
            at += size

        # Per board position: face up, system type, controller (relative, or none), developments,
        # whose homeworld, each seat's vessels by type and their damage, fought or being fought.
        self._site_width = 1 + S + (n + 1) + 1 + n + n * (V + 1) + 2
        block("board", P * self._site_width)
        # Per seat (relative): alive, credits, hand size, hand domains, technologies by type,
        # is active, decides now, turns played.
        self._seat_width = 1 + 1 + 1 + len(DOMAINS) + D + 1 + 1
        block("seats", n * self._seat_width)
        block("hand", D)  # the observer's own hand by card type
        block("discards", D)  # every discard pile by card type
        block("piles", len(DOMAINS) + 1)  # domain decks' and the system deck's sizes
        block("supply", V)  # neutral vessels left, by type
        block("turn", 2)  # turn number, share of the turn limit used
        block("phase", len(_PHASES))
        block("step", len(_STEPS))
        block("stack", 2 * D)  # cards on the stack by type: the observer's, the others'
        block("trade", 4 + 2 * D + 4)  # credits and hand asked, items given and asked, roles
        block("choice", 2)  # a choice is pending; it is the observer's
        self.layout = layout
        self.observation_size = at
        self._build_tables()

    def _build_tables(self) -> None:
        """What :meth:`observe` reads at every step, worked out once per setting: per seat, where
        each other seat's entries go; per card instance, its type and its hand domain."""
        n, S, V, W = self.players, self._sys_n, self._ves_n, self._site_width
        L = self.layout
        self._rest = array("f", bytes(4 * (self.observation_size - self.positions * self._site_width)))
        # The parts of the vector that change seldom, as worked out before: see observe.
        self._boards: dict[tuple[Any, ...], array[float]] = {}
        self._supplies: dict[tuple[Any, ...], array[float]] = {}
        # rel[seat][q]: q's place as seat sees it (0: seat itself, then the others in turn order).
        self._rel = tuple(tuple((q - seat) % n for q in range(n)) for seat in range(n))
        # Per seat and owner: where a site's controller flag goes, where the owner's vessels
        # start in a site, where the owner's seat block starts.
        self._owner_flag = tuple(tuple(1 + S + 1 + r for r in rel) for rel in self._rel)
        self._vessel_at = tuple(tuple(3 + S + 2 * n + r * (V + 1) for r in rel) for rel in self._rel)
        self._homeworld_at = tuple(tuple(3 + S + n + r for r in rel) for rel in self._rel)
        o0, SW = L["seats"][0], self._seat_width
        self._seat_at = tuple(tuple(o0 + r * SW for r in rel) for rel in self._rel)
        # Per card instance: its entry in a seat's hand domains (-1: none), technologies, the
        # observer's hand, the discards, the stack (the observer's, the others').
        self._hand_domain = [3 + d.domain_index if d.domain_index >= 0 else -1 for d in self._rules.cards]
        self._tech_at = [3 + len(DOMAINS) + c for c in self._def]
        self._hand_at = [L["hand"][0] + c for c in self._def]
        self._discard_at = [L["discards"][0] + c for c in self._def]
        self._stack_mine = [L["stack"][0] + c for c in self._def]
        self._stack_theirs = [L["stack"][0] + self.defs + c for c in self._def]
        self._phase_at = {p: L["phase"][0] + i for i, p in enumerate(_PHASES)}
        self._step_at: dict[str | None, int] = {p: L["step"][0] + i for i, p in enumerate(_STEPS)}
        self._site_face = [[pos * W + 1 + sd for sd in self._sdef] for pos in range(self.positions)]

    def _board(self, sites: tuple[Any, ...]) -> array[float]:
        """The first P * W entries of the vector of seat ``sites[0]`` where the board's systems
        show ``sites[1:]`` (each as :data:`_SITE_FACTS` reads it): only what the systems say."""
        seat, W = sites[0], self._site_width
        out = array("f", bytes(4 * self.positions * W))
        flag = self._owner_flag[seat]
        nobody, devs_at = 1 + self._sys_n, 2 + self._sys_n + self.players
        o = 0
        for (face_up, card, owner, devs), face in zip(sites[1:], self._site_face):
            if face_up:
                out[o] = 1.0
                out[face[card]] += 1.0
            out[o + (nobody if owner < 0 else flag[owner])] = 1.0
            if devs:
                out[o + devs_at] = devs / 6.0
            o += W
        return out

    def _supply(self, supply: dict[str, list[int]]) -> array[float]:
        """The supply block: neutral vessels left, by type."""
        out = array("f", bytes(4 * self._ves_n))
        vdef = self._vdef
        sums: dict[int, float] = {}  # summed as Python floats, rounded to float32 once
        for ids in supply.values():
            if ids and vdef[ids[0]] >= 0:
                sums[vdef[ids[0]]] = sums.get(vdef[ids[0]], 0.0) + len(ids) / 10.0
        for j, x in sums.items():
            out[j] = x
        return out

    def observe(self, g: GameState, seat: int) -> np.ndarray:
        """Seat ``seat``'s observation: a float32 vector of :attr:`observation_size`."""
        # Written for speed (it runs at every step): the entries go into a float32 buffer copied
        # from a blank one, which the returned vector then wraps (no copy), with every per-seat
        # and per-card offset looked up in the tables of _build_tables. An entry is set (=)
        # where nothing else writes it and added to (+=) where several things may (two
        # Frigates in one place); the sums are of quarters and whole numbers, exact in float32.
        n, W, V = self.players, self._site_width, self._ves_n
        L = self.layout
        cards = self._def
        # The board's systems change seldom: their part of the vector (the first P * W entries)
        # is kept per seat and what the systems show, and the rest of the buffer appended.
        sites = (seat, *map(_SITE_FACTS, g.sites))
        board = self._boards.get(sites)
        if board is None:
            if len(self._boards) >= 2048:  # bounded (a 5x5 board's part is 9 kB): deals bring new boards
                self._boards.clear()
            board = self._boards[sites] = self._board(sites)
        buf = board + self._rest
        hw = self._homeworld_at[seat]
        for q, h in enumerate(g.homeworld):
            if h >= 0:
                buf[h * W + hw[q]] += 1.0
        for p in g.fought:
            buf[p * W + W - 2] += 1.0
        if g.combat_pos >= 0:
            buf[g.combat_pos * W + W - 1] += 1.0
        at, vdef = self._vessel_at[seat], self._vdef
        for v in g.vessels.values():
            base = v.pos * W + at[v.owner]
            buf[base + vdef[v.id]] += 0.25
            if v.damage:
                buf[base + V] += v.damage / 4.0
        seat_at, SW = self._seat_at[seat], self._seat_width
        hand_domain, tech_at = self._hand_domain, self._tech_at
        hands, credits, alive = g.hands, g.credits, g.alive
        for q, techs in enumerate(g.techs):
            o = seat_at[q]
            hand = hands[q]
            if alive[q]:
                buf[o] = 1.0
            buf[o + 1] = credits[q] / 20.0
            buf[o + 2] = len(hand) / 10.0
            for c in hand:
                d = hand_domain[c]
                if d >= 0:
                    buf[o + d] += 1.0
            for c in techs:
                buf[o + tech_at[c]] += 1.0
        if 0 <= g.active < n:
            buf[seat_at[g.active] + SW - 2] = 1.0
        if 0 <= g.actor < n:
            buf[seat_at[g.actor] + SW - 1] = 1.0
        hand_at = self._hand_at
        for c in hands[seat]:
            buf[hand_at[c]] += 1.0
        discard_at = self._discard_at
        for pile in g.discards:
            for c in pile:
                buf[discard_at[c]] += 0.25
        o = L["piles"][0]
        for deck in g.decks:
            buf[o] = len(deck) / 30.0
            o += 1
        buf[o] = len(g.sysdeck) / 20.0
        supply = g.supply
        counts = (*supply, *map(len, supply.values()))  # its names and sizes: they change seldom
        block = self._supplies.get(counts)
        if block is None:
            if len(self._supplies) >= 4096:
                self._supplies.clear()
            block = self._supplies[counts] = self._supply(supply)
        o = L["supply"][0]
        buf[o:o + V] = block
        o = L["turn"][0]
        buf[o] = g.turn / 100.0
        limit = g.cfg.turn_limit
        if limit:
            buf[o + 1] = min(g.turn / limit, 1.0)
        buf[self._phase_at[g.phase]] = 1.0
        step = self._step_at.get(g.step)
        if step is not None:
            buf[step] = 1.0
        if g.stack:
            mine, theirs = self._stack_mine, self._stack_theirs
            for item in g.stack:
                buf[(mine if item[1] == seat else theirs)[item[2]]] += 1.0
        tr = g.trade
        if tr is not None:
            D = self.defs
            o = L["trade"][0]
            buf[o] = tr.give_credits / 10.0
            buf[o + 1] = tr.ask_credits / 10.0
            buf[o + 2] = tr.ask_hand / 5.0
            buf[o + 3] = 1.0 if g.step == "trade_answer" else 0.5
            sees = trade_cards_visible(g, seat)  # the observer's rule: offered hand cards
            for kind, x in tr.give:
                if kind in ("tech", "vessel") or (kind == "card" and sees):
                    buf[o + 4 + cards[x]] += 1.0
            for kind, x in tr.ask:
                if kind in ("card", "tech", "vessel"):
                    buf[o + 4 + D + cards[x]] += 1.0
            buf[o + 4 + 2 * D + (0 if seat == g.active else 1 if seat == tr.to else 2)] = 1.0
        if g.choice is not None:
            o = L["choice"][0]
            buf[o] = 1.0
            if sees_choice(g, seat):
                buf[o + 1] = 1.0
        return np.frombuffer(buf, np.float32)

__all__ = ["Features"]
