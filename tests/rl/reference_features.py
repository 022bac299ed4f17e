"""The encoders of the RL features as they were before they were rewritten for speed (issue
31): kept here, outside the package, as the reference the fast ones must match number for number
(``test_fast_encoding.py``). Star Commander's first, then Galactic Empires'."""
from __future__ import annotations

# ---------------------------------------------------------------- Star Commander

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from starcom.sc.cards.catalogue import DOMAINS, CardDef
from starcom.sc.engine.actions import SIGNATURES, target_kinds
from starcom.sc.engine.state import GameState
from starcom.sc.engine.trade import ITEM_KINDS
from starcom.sc.engine.view import sees_choice, trade_cards_visible

_PHASES = ("ready", "command", "combat", "end")
_STEPS = ("command", "priority", "build_window", "combat_pick", "assign", "retreat", "choice",
          "trade_build", "trade_answer")
_AMOUNT_CAP = 7  # amounts, credits and counts in an action are coded 0..7 (7: seven or more)

# Codes an action field's value (its type goes by the field: an int, or a str for a trade
# item) for the seat deciding: a number below the field's radix.
Coder = Callable[[Any, int], int]

# Per kind: how many of its leading fields pick the family (the rest, and duplicates, go by
# slot), and how many slots a family has. A "*" field counts as one field: its first value. The
# slots hold what thousands of games at every setting needed, or cap it where a card offers
# hundreds of target combinations (tests/rl measures how often a legal action has no ID).
_CODED: dict[str, tuple[int, int]] = {
    "jump": (3, 8), "build": (2, 1), "develop": (1, 1), "play": (2, 8), "ability": (2, 16),
    "scrap": (1, 4), "repair": (1, 4), "sell": (1, 8), "offer": (1, 1), "give": (2, 8),
    "ask": (2, 8), "accept": (1, 8), "redirect": (2, 4), "fight": (1, 1), "assign": (2, 8),
    "retreat": (2, 4), "choose": (0, 64)}


class OldStarcomFeatures:
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
        # same tuples come back all game long, so each is worked out once.
        self._known: dict[tuple[Any, int], int] = {}

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
        out: list[int] = []
        used: dict[int, int] = {}
        known = self._known
        if len(known) > 500_000:  # bounded: a long run meets new actions for ever
            known.clear()
        for a in actions:
            key = (a, seat)
            fam = known.get(key)
            if fam is None:
                fam = known[key] = self._family(g, a, seat)
            k = used.get(fam, 0)
            used[fam] = k + 1
            out.append(fam + k if k < self._plan[a[0]][2] else -1)
        return out

    def action_label(self, action_id: int) -> str:
        """What an ID means, in words: its kind, its coded fields and its slot."""
        if not 0 <= action_id < self.action_count:
            raise ValueError(f"action ID {action_id} is outside 0..{self.action_count - 1}")
        kind, (base, fields, slots) = max(
            ((k, p) for k, p in self._plan.items() if p[0] <= action_id), key=lambda kp: kp[1][0])
        rest, slot = divmod(action_id - base, slots)
        values = []
        for radix, _ in reversed(fields):
            rest, v = divmod(rest, radix)
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

    def observe(self, g: GameState, seat: int) -> np.ndarray:
        """Seat ``seat``'s observation: a float32 vector of :attr:`observation_size`."""
        # Written for speed (it runs at every step): the entries set to 1 and to 1/4 are
        # gathered as index lists, the rest as (index, value) pairs, and one bincount adds them.
        n, rel = self.players, self.players - seat  # (q + rel) % n: q's place as seen by seat
        L, W, S, V, D = self.layout, self._site_width, self._sys_n, self._ves_n, self.defs
        cards, vdef, sdef = self._def, self._vdef, self._sdef
        ones: list[int] = []
        quarters: list[int] = []
        at: list[int] = []
        val: list[float] = []
        for pos, s in enumerate(g.sites):
            o = pos * W
            if s.face_up:
                ones += (o, o + 1 + sdef[s.card])
            ones.append(o + 1 + S + (0 if s.owner < 0 else 1 + (s.owner + rel) % n))
            if s.devs:
                at.append(o + 2 + S + n)
                val.append(s.devs / 6.0)
        o = 3 + S + n
        ones += [h * W + o + (q + rel) % n for q, h in enumerate(g.homeworld) if h >= 0]
        ones += [p * W + W - 2 for p in g.fought]
        if g.combat_pos >= 0:
            ones.append(g.combat_pos * W + W - 1)
        o = 3 + S + 2 * n
        for v in g.vessels.values():
            base = v.pos * W + o + ((v.owner + rel) % n) * (V + 1)
            quarters.append(base + vdef[v.id])
            if v.damage:
                at.append(base + V)
                val.append(v.damage / 4.0)
        o0, SW = L["seats"][0], self._seat_width
        rules_cards = g.rules.cards
        for q in range(n):
            o = o0 + ((q + rel) % n) * SW
            hand = g.hands[q]
            if g.alive[q]:
                ones.append(o)
            at += (o + 1, o + 2)
            val += (g.credits[q] / 20.0, len(hand) / 10.0)
            ones += [o + 3 + di for di in (rules_cards[c].domain_index for c in hand) if di >= 0]
            ones += [o + 3 + len(DOMAINS) + cards[c] for c in g.techs[q]]
            if q == g.active:
                ones.append(o + SW - 2)
            if q == g.actor:
                ones.append(o + SW - 1)
        o = L["hand"][0]
        ones += [o + cards[c] for c in g.hands[seat]]
        o = L["discards"][0]
        for pile in g.discards:
            quarters += [o + cards[c] for c in pile]
        o = L["piles"][0]
        at += range(o, o + len(g.decks) + 1)
        val += [len(deck) / 30.0 for deck in g.decks]
        val.append(len(g.sysdeck) / 20.0)
        o = L["supply"][0]
        for ids in g.supply.values():
            if ids and vdef[ids[0]] >= 0:
                at.append(o + vdef[ids[0]])
                val.append(len(ids) / 10.0)
        o = L["turn"][0]
        at.append(o)
        val.append(g.turn / 100.0)
        limit = g.cfg.turn_limit
        if limit:
            at.append(o + 1)
            val.append(min(g.turn / limit, 1.0))
        ones.append(L["phase"][0] + _PHASES.index(g.phase))
        if g.step in _STEPS:
            ones.append(L["step"][0] + _STEPS.index(g.step))
        o = L["stack"][0]
        ones += [o + (0 if item[1] == seat else D) + cards[item[2]] for item in g.stack]
        tr = g.trade
        if tr is not None:
            o = L["trade"][0]
            at += (o, o + 1, o + 2, o + 3)
            val += (tr.give_credits / 10.0, tr.ask_credits / 10.0, tr.ask_hand / 5.0,
                    1.0 if g.step == "trade_answer" else 0.5)
            sees = trade_cards_visible(g, seat)  # the observer's rule: offered hand cards
            ones += [o + 4 + cards[x] for kind, x in tr.give
                     if kind in ("tech", "vessel") or (kind == "card" and sees)]
            ones += [o + 4 + D + cards[x] for kind, x in tr.ask if kind in ("card", "tech", "vessel")]
            ones.append(o + 4 + 2 * D + (0 if seat == g.active else 1 if seat == tr.to else 2))
        if g.choice is not None:
            o = L["choice"][0]
            ones.append(o)
            if sees_choice(g, seat):
                ones.append(o + 1)
        weights = [1.0] * len(ones)
        weights += [0.25] * len(quarters)
        weights += val
        # An index may repeat (two Frigates in one place): bincount sums them.
        return np.bincount(ones + quarters + at, weights, self.observation_size).astype(np.float32)



# ---------------------------------------------------------------- Galactic Empires



from starcom.ge.cards import EMPIRES, deck_list
from starcom.ge.game import GalacticEmpires
from starcom.ge.state import PHASES

GE_SLOTS = 51  # the larger deck
GE_CARD_FEATURES = 13
GE_PLACES = 2 * GE_SLOTS + 2  # own cards, other cards, own fleet/HQ, other fleet/HQ
GE_WORDS = ("phaser", "heavy", "hull", "shield", "research", "repair", "energy", "supply", "move", "mission",
         "cure", "capture", "wreck", "cancel", "evacuate", "intercept", "damage")
GE_KEYS = sorted({c.key for e in EMPIRES for c in deck_list(e)})
# kind -> (sizes of the coded first two arguments, slots for what follows)
GE_ARITY: dict[str, tuple[tuple[int, ...], int]] = {
    "pass": ((), 1), "quiet": ((), 1), "end": ((), 1), "allocate": ((), 1), "fire": ((), 1),
    "pay": ((GE_PLACES,), 1), "pay-part": ((GE_PLACES,), 1), "load": ((GE_PLACES,), 1), "research": ((GE_PLACES,), 1),
    "discard": ((GE_PLACES,), 1), "drop": ((GE_PLACES,), 1), "aim": ((GE_PLACES,), 1),
    "repair": ((GE_PLACES, len(GE_WORDS)), 1), "add": ((GE_PLACES, len(GE_WORDS)), 1),
    "play": ((GE_SLOTS, GE_PLACES), 4), "pair": ((GE_SLOTS, GE_SLOTS), 6), "swap": ((GE_SLOTS, GE_SLOTS), 1),
    "combine": ((GE_SLOTS, GE_SLOTS), 1), "separate": ((GE_SLOTS,), 24), "use": ((GE_SLOTS, len(GE_WORDS) + 8), 12),
    "shoot": ((GE_SLOTS, GE_PLACES), 1), "reserve": ((len(GE_KEYS) + 1, len(GE_KEYS) + 1), 1),
}


class OldGEFeatures:
    """The encoding (one object serves every game: Galactic Empires has one setting)."""

    def __init__(self) -> None:
        self.kinds = sorted(GE_ARITY)
        self.offset: dict[str, int] = {}
        total = 0
        for kind in self.kinds:
            sizes, slots = GE_ARITY[kind]
            self.offset[kind] = total
            total += int(np.prod(sizes, dtype=np.int64)) * slots if sizes else slots
        self.action_count = total
        self.globals_size = 40
        self.observation_size = 2 * GE_SLOTS * GE_CARD_FEATURES + self.globals_size

    # ------------------------------------------------------------------ observations
    def _slots(self, g: GalacticEmpires, seat: int) -> list[int]:
        """uid -> slot for ``seat``'s view: own cards first, in uid order."""
        s = g.s
        out = [0] * len(s.spec_of)
        for side, owner in enumerate((seat, 1 - seat)):
            uids = [u for u in range(len(s.spec_of)) if s.owner_of[u] == owner]
            for i, u in enumerate(uids):
                out[u] = side * GE_SLOTS + i
        return out

    def observe(self, g: GalacticEmpires, seat: int) -> np.ndarray:
        s = g.s
        slot = self._slots(g, seat)
        cards = np.zeros((2 * GE_SLOTS, GE_CARD_FEATURES), np.float32)
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
        glob[0:6] = (me.hq / 25, other.hq / 25, len(me.deck) / GE_SLOTS, len(other.deck) / GE_SLOTS,
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
            return 2 * GE_SLOTS + (0 if -1 - x == seat else 1)
        return slot[x]

    def _word(self, x: Any) -> int:
        if type(x) is int:
            return len(GE_WORDS) + max(0, min(7, x))
        return GE_WORDS.index(x) if x in GE_WORDS else len(GE_WORDS) + 7

    def _family(self, g: GalacticEmpires, seat: int, action: tuple[Any, ...], slot: list[int]) -> int | None:
        kind = action[0]
        if kind not in GE_ARITY:
            return None
        sizes, _ = GE_ARITY[kind]
        args = action[1:]
        if kind == "reserve":
            codes = [GE_KEYS.index(k) + 1 for k in args] + [0, 0]
            return codes[0] * sizes[1] + codes[1]
        coded: list[int] = []
        for i, size in enumerate(sizes):
            x = args[i]
            if size == GE_PLACES:
                c = self._place(g, seat, x, slot)
            elif size == GE_SLOTS:
                c = slot[x] % GE_SLOTS if type(x) is int and x >= 0 else 0
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
            slots = GE_ARITY[a[0]][1]
            k = used.get((a[0], family), 0)
            used[(a[0], family)] = k + 1
            out.append(self.offset[a[0]] + family * slots + k if k < slots else -1)
        if out and out[0] < 0:  # the first legal action always has an ID
            a = tuple(actions[0])
            family = self._family(g, seat, a, slot)
            out[0] = self.offset[a[0]] + (family or 0) * GE_ARITY[a[0]][1] if a[0] in GE_ARITY else 0
        return out

    def action_label(self, action_id: int) -> str:
        """What an ID means, in words: its kind, coded arguments and slot."""
        if not 0 <= action_id < self.action_count:
            return f"no action {action_id}"
        kind = max((k for k in self.kinds if self.offset[k] <= action_id), key=lambda k: self.offset[k])
        sizes, slots = GE_ARITY[kind]
        rest = action_id - self.offset[kind]
        family, k = divmod(rest, slots)
        parts = []
        for size in reversed(sizes):
            family, c = divmod(family, size)
            parts.append(self._describe(c, size, kind))
        return " ".join([kind, *reversed(parts), f"#{k}"]).strip()

    def _describe(self, c: int, size: int, kind: str) -> str:
        if kind == "reserve":
            return "-" if c == 0 else GE_KEYS[c - 1]
        if size in (GE_PLACES, GE_SLOTS):
            if c >= 2 * GE_SLOTS:
                return "own-fleet" if c == 2 * GE_SLOTS else "other-fleet"
            return f"{'own' if c < GE_SLOTS else 'other'}[{c % GE_SLOTS}]"
        return GE_WORDS[c] if c < len(GE_WORDS) else f"n{c - len(GE_WORDS)}"









