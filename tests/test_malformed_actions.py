"""The engine answers any malformed action with IllegalAction and an unchanged state (issue 10).

A client may send anything: wrong arity, wrong types, values out of range, bools, floats, None,
huge ints, nested lists, JSON objects with missing, extra or wrongly typed fields. ``validate``
(and so ``Game.apply``) must refuse every such action with :class:`IllegalAction`, never with
another exception, and leave the game exactly as it was; and it must still accept every legal
action. A seeded loop feeds a fixed count of malformed actions (so every run checks at least
``FUZZ_COUNT``), Hypothesis adds shapes of its own, and the shapes that used to crash are pinned.
"""
from __future__ import annotations

import math
import random
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EDITIONS, game_configs, pick_action
from starcom.sc.engine.game import Game
from starcom.errors import IllegalAction
from starcom.sc.engine.ruleset import EffectSet
from starcom.sc.cards.catalogue import CARD_DEF, DEFS
from starcom.sc.engine import actions as A
from starcom.sc.engine.moves import End
from starcom.sc.engine.trade import ITEM_KINDS

FUZZ_COUNT = 100_000  # malformed actions fed by the seeded loop on every run
FULL_SNAPSHOT_EVERY = 97  # compare the whole state (to_json) after every 97th candidate
KINDS = sorted(A.FIELDS)
DECISIONS = ("command", "priority", "choice", "assign", "retreat", "trade_build", "trade_answer",
             "combat_pick")

# Built once: values whose repr or hashing is the trouble, not their size in this file.
DEEP: list[Any] = []
for _ in range(50_000):  # far beyond the recursion limit, so any recursive repr would fail
    DEEP = [DEEP]
HUGE_INT = 10 ** 5000  # repr() of this raises ValueError (more than 4300 digits)
LONG_LIST = list(range(100_000))
LONG_STR = "x" * 100_000


class EvilKey(str):
    """A str subclass whose comparisons and hash raise: exact type checks must keep it out."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("compared")

    def __hash__(self) -> int:
        raise RuntimeError("hashed")


class EvilEqKey(str):
    """Hashes like the str it holds, so a dict lookup of that str compares with it and raises."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("compared")

    __hash__ = str.__hash__


class EvilInt(int):
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("compared")

    __hash__ = int.__hash__

    def __repr__(self) -> str:
        raise RuntimeError("shown")


class EvilTuple(tuple):
    def __iter__(self):  # type: ignore[override]
        raise RuntimeError("iterated")

    def __getitem__(self, i):  # type: ignore[override]
        raise RuntimeError("indexed")

    def __len__(self) -> int:
        raise RuntimeError("measured")


class EvilDict(dict):
    def get(self, *a: Any) -> Any:
        raise RuntimeError("read")

    def __getitem__(self, k: Any) -> Any:
        raise RuntimeError("read")

    def __iter__(self):  # type: ignore[override]
        raise RuntimeError("iterated")

    def __contains__(self, k: object) -> bool:
        raise RuntimeError("searched")


class EvilObject:
    def __repr__(self) -> str:
        raise RuntimeError("shown")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("compared")

    __hash__ = None  # type: ignore[assignment]

    @property  # type: ignore[misc]
    def __class__(self):  # isinstance() consults this, and it raises
        raise RuntimeError("classified")


EXOTIC: tuple[Any, ...] = (
    EvilKey("end"), EvilInt(1), EvilTuple(("end", 1)), EvilDict({"type": "end", "x": 1}),
    EvilDict({"type": "jump", "vessel": 1, "to": 1, "explore": 0, "carry": 0}), EvilObject(),
    (EvilKey("end"),), ("jump", EvilInt(1), 1, 0, 0), ("choose", EvilInt(0)), ("offer", EvilObject()),
    {"type": EvilKey("end")}, {"type": "end", EvilObject: 1}, {EvilEqKey("type"): "end"},
    {"type": "develop", EvilEqKey("at"): 4}, {"type": "accept", "cards": [EvilInt(1)]},
    ("play", 1, EvilInt(3)), {"type": "accept", "cards": EvilTuple((1,))},
    DEEP, (DEEP,), ("jump", DEEP, 1, 0, 0),
    HUGE_INT, ("develop", HUGE_INT), {"type": "develop", "at": HUGE_INT}, LONG_LIST, ("accept", *LONG_LIST),
    {"type": "accept", "cards": LONG_LIST}, LONG_STR, (LONG_STR,), ("give", LONG_STR, 1),
    {"type": LONG_STR}, b"end", (b"end",), bytearray(b"end"), ("end",) * 3, {"end"}, frozenset(),
    iter([("end",)]), range(3), memoryview(b"x"), object(), type, Game, math.nan, -math.inf, 1j,
)


def fingerprint(g: Game) -> tuple:
    """A cheap summary of everything that changes when an action is played (checked after every
    candidate; the full ``to_json`` is compared on a sample and after every batch)."""
    return (g.step, g.actor, g.rng, g.prio, g.passes, g.turn, g.over, g.offers_made, g.combat_pos,
            tuple(g.credits), repr(g.tasks), repr(g.hands), repr(g.choice), repr(g.trade),
            repr(g.stack), repr(g.assigned), len(g.vessels), repr(g.supply), len(g.events))


def as_legal(cand: Any, player: Any, g: Game, legal: set[tuple]) -> bool:
    """Is ``cand`` (sent as ``player``) one of the legal actions, exactly (so that True does
    not pass for 1, nor 1.0)? Such a mutation is no malformed action: it must apply."""
    if player is not None and (type(player) is not int or player != g.actor):
        return False
    t = type(cand)
    if issubclass(t, dict):  # subclasses too: their content is read past any overrides
        try:
            cand = tuple(A.from_json(cand))  # a typed action: compared as the plain tuple
        except IllegalAction:
            return False
    elif issubclass(t, list):
        cand = tuple(list.__iter__(cand))
    elif issubclass(t, tuple):
        cand = tuple(tuple.__iter__(cand))
    if type(cand) is not tuple or not all(type(x) in (int, str) for x in cand):
        return False
    if len(cand) == 3 and cand[0] == "sell" and type(cand[1]) is type(cand[2]) is int:
        # TRADE-2 lets the two cards come in either order; legal_actions lists the lower id first.
        cand = ("sell", min(cand[1:]), max(cand[1:]))
    return cand in legal


def shown(x: Any) -> str:
    return A._brief(x)


class Fuzzer:
    """Malformed actions for one position, drawn from a seeded ``random.Random``: mutations of
    the legal actions, their JSON forms gone wrong, other kinds' arguments, and garbage."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    # ------------------------------------------------------------------ values
    def bounds(self, g: Game) -> list[int]:
        """The edges of every field kind's range, on both sides."""
        edges = [0, 1, 2, len(g.sites), g.cfg.players, len(CARD_DEF), len(DEFS), A.MAX_CARRY,
                 A.MAX_AMOUNT, A.MAX_LIST]
        return [e + d for e in edges for d in (-1, 0, 1)]

    def junk(self, depth: int = 0) -> Any:
        r = self.rnd
        pick = r.randrange(22 if depth < 3 else 14)
        if pick == 0:
            return None
        if pick == 1:
            return r.choice((True, False))
        if pick == 2:
            return r.randint(-5, 400)
        if pick == 3:
            return r.choice((10**30, -10**30, 2**63, -2**63, 2**64 + 1, 10**18))
        if pick == 4:
            return r.choice((0.0, 1.0, 2.5, -1.0, math.nan, math.inf, -math.inf, 1e308))
        if pick == 5:
            return r.choice(("", "x", "end", "credit", "card", "skip", "decline", "0", "1", "b2", "é", "\0"))
        if pick == 6:
            return r.choice(KINDS)
        if pick == 7:
            return r.choice((b"", b"1", bytearray(b"1")))
        if pick == 8:
            return r.choice(EXOTIC)
        if pick in (9, 10, 11, 12, 13):
            return r.choice((0, 1, 2, 3, 8, 24, 93, 200, 265, -1))
        if pick in (14, 15, 16):
            return [self.junk(depth + 1) for _ in range(r.randrange(4))]
        if pick in (17, 18):
            return tuple(self.junk(depth + 1) for _ in range(r.randrange(4)))
        if pick == 19:
            return {r.choice(("type", "vessel", "to", "card", "x", "value", "targets")): self.junk(depth + 1)
                    for _ in range(r.randrange(4))}
        key = r.choice((None, True, 0, 1, 1.5, math.nan, "a", "type", "Type", b"type", ("type",), frozenset(),
                        10**30, EvilObject))  # any hashable key
        out = {key: self.junk(depth + 1)}
        if r.random() < 0.5:
            out["type"] = r.choice(KINDS)
        return out

    def replacement(self, g: Game, x: Any) -> Any:
        """A wrong value in place of argument ``x``: a boundary, off by one, of another type."""
        r = self.rnd
        pick = r.randrange(9)
        if pick <= 2:
            return r.choice(self.bounds(g))
        if pick == 3 and type(x) is int:
            return r.choice((x + 1, x - 1, -x - 1, x + len(CARD_DEF), x * 1000, str(x), float(x), bool(x & 1),
                             [x], (x,), {"v": x}))
        if pick == 3 and type(x) is str:
            return r.choice((x.upper(), x + " ", "", r.choice(ITEM_KINDS), 1, [x], None))
        if pick == 4:
            return r.choice((None, True, False, math.nan, 1.5, "", "1", b"1", [], {}, ()))
        if pick == 5:
            return r.choice((-1, -2**31, 10**30, -10**30, 2**63))
        return self.junk()

    def in_range(self, g: Game, kind: str, before: Any = None) -> Any:
        """A well-typed, in-range value of field kind ``kind`` that is mostly nonsense here: the
        id of any card (not only vessels), any position, any player: it reaches the rule checks."""
        r = self.rnd
        if kind == "vessel" or kind == "card":
            known = list(g.vessels) if kind == "vessel" else [c for h in g.hands for c in h] + list(g.vessels)
            return r.choice(known) if known and r.random() < 0.6 else r.randrange(len(CARD_DEF))
        if kind == "pos":
            return r.randrange(len(g.sites))
        if kind == "player":
            return r.randrange(g.cfg.players)
        if kind in ("flag", "explore"):
            return r.randrange(2)
        if kind == "carry":
            return r.randrange(A.MAX_CARRY + 1)
        if kind in ("amount", "credits", "count", "target"):
            return r.choice((0, 1, 2, 3, 5, 12, A.MAX_AMOUNT))
        if kind == "def":
            return r.randrange(len(DEFS))
        if kind == "item":
            return r.choice(ITEM_KINDS)
        if kind == "item_value":
            if before in ("credit", "hand"):
                return 1
            return self.in_range(g, "pos" if before == "system" else "card")
        assert kind == "option"
        options = g.choice.options if g.choice else [0]
        if r.random() < 0.3:
            return r.choice(options)
        return r.choice(("skip", "decline", 0, 1, r.randrange(len(CARD_DEF))))

    def well_typed(self, g: Game) -> tuple:
        """An action of a kind allowed now (mostly), every field well-typed and in range."""
        r = self.rnd
        allowed = sorted(A.STEP_KINDS[g.step])
        kind = r.choice(allowed) if allowed and r.random() < 0.9 else r.choice(KINDS)
        args: list[Any] = []
        for f, fk, _ in A.SIGNATURES[kind]:
            if f.startswith("*"):
                kinds = A.target_kinds(g, kind, args[0]) if fk == "target" else None
                if kinds is None or r.random() < 0.2:
                    kinds = (fk,) * r.randrange(4)
                args.extend(self.in_range(g, k) for k in kinds)
            else:
                args.append(self.in_range(g, fk, args[-1] if args else None))
        return (kind, *args)

    # ------------------------------------------------------------------ actions
    def candidate(self, g: Game, legal: list[tuple]) -> Any:
        r = self.rnd
        base = r.choice(legal)
        how = r.randrange(15)
        if how >= 12:  # well-typed nonsense: for the rule checks
            return self.well_typed(g)
        if how <= 2 and len(base) > 1:  # one argument wrong
            i = r.randrange(1, len(base))
            return base[:i] + (self.replacement(g, base[i]),) + base[i + 1:]
        if how == 3:  # wrong arity
            if len(base) > 1 and r.random() < 0.5:
                return base[:r.randrange(len(base))]
            return base + tuple(self.replacement(g, 1) for _ in range(r.randrange(1, 3)))
        if how == 4 and len(base) > 2:  # arguments swapped or shuffled
            args = list(base[1:])
            r.shuffle(args)
            return (base[0], *args)
        if how == 5:  # another kind with these arguments
            return (r.choice(KINDS), *base[1:])
        if how == 6:  # a legal action of another position, or of another decision
            other = r.choice(KINDS)
            width = len(A.FIELDS[other])
            return (other, *(self.replacement(g, 0) if r.random() < 0.3 else r.choice(self.bounds(g))
                             for _ in range(width + r.choice((0, 0, 1, -1)) if width else r.randrange(2))))
        if how in (7, 8):
            return self.json(g, base)
        if how == 9:  # a list, its elements of the wrong kind
            out = list(base)
            if len(out) > 1:
                i = r.randrange(1, len(out))
                out[i] = self.replacement(g, out[i])
            else:
                out.append(self.junk())
            return out
        if how == 10:
            return tuple([r.choice(KINDS)] + [self.junk() for _ in range(r.randrange(5))])
        return self.junk()

    def json(self, g: Game, base: tuple) -> Any:
        r = self.rnd
        d = A.to_json(base)
        fields = [k for k in d if k != "type"]
        how = r.randrange(7)
        if how == 0 and fields:
            del d[r.choice(fields)]
        elif how == 1:
            extra = r.choice(("x", "player", "Type", "type ", "targets", "cards", "value", "to", "at"))
            if extra not in d:
                d[extra] = self.replacement(g, 1)
            else:
                d[r.choice((1, None, ("type",), "ty\0pe"))] = 1
        elif how == 2 and fields:
            key = r.choice(fields)
            if isinstance(d[key], list):
                d[key] = r.choice((None, 1, "1", {}, (), [[1]], [None], [True], [1.0], [self.junk()],
                                   d[key] + [self.replacement(g, 1)]))
            else:
                d[key] = self.replacement(g, d[key])
        elif how == 3:
            d["type"] = r.choice((None, 1, True, [], ["end"], {"end": 1}, "END", "", "jump ", b"end",
                                  r.choice(KINDS), self.junk()))
        elif how == 4:
            del d["type"]
        elif how == 5:  # another kind's JSON with this one's type
            other = r.choice(KINDS)
            d = {"type": other, **{k: v for k, v in d.items() if k != "type"}}
        else:
            d = {k: self.replacement(g, v) if r.random() < 0.4 else v for k, v in d.items()}
        return d

    def player(self, g: Game) -> Any:
        r = self.rnd
        x = r.random()
        if x < 0.8:
            return None
        if x < 0.9:
            return g.actor
        return r.choice((True, False, -1, g.cfg.players, 10**30, "0", 0.0, [0], math.nan,
                         (g.actor + 1) % g.cfg.players))


def feed(g: Game, cands: list[tuple[Any, Any]], counts: dict[str, int], full_every: int) -> None:
    """Send every candidate to ``g``: it must be refused with IllegalAction and leave the state
    as it was, or be one of the legal actions (then it must apply, on a clone)."""
    legal = set(g.legal_actions())
    before_json = g.to_json()
    before = fingerprint(g)
    step = g.step
    for i, (cand, player) in enumerate(cands):
        if as_legal(cand, player, g, legal):
            g.clone().apply(cand, player=player)
            counts["legal"] += 1
            continue
        try:
            if i % 2:
                A.validate(g, cand, player)
            else:
                g.apply(cand, player=player)
        except IllegalAction as exc:
            assert exc.reason and str(exc)
        except Exception as exc:  # noqa: BLE001 - anything else is the bug this test is for
            pytest.fail(f"{step}: {shown(cand)} (player {shown(player)}) raised "
                        f"{type(exc).__name__}: {exc!s:.300}")
        else:
            pytest.fail(f"{step}: {shown(cand)} was accepted but is not a legal action")
        counts["refused"] += 1
        assert fingerprint(g) == before, f"{step}: {shown(cand)} changed the state"
        if counts["refused"] % full_every == 0:
            assert g.to_json() == before_json, f"{step}: {shown(cand)} changed the state"
    assert g.to_json() == before_json


# Candidates per position by decision: the common decisions get fewer per position, so that
# the rare ones (trades, combat) get their share of the total.
PER_POSITION = {"command": 12, "priority": 8, "choice": 80, "assign": 30, "retreat": 80,
                "trade_build": 10, "trade_answer": 30, "combat_pick": 40, "build_window": 80}


def test_seeded_fuzz_refuses_every_malformed_action() -> None:
    """At least FUZZ_COUNT malformed actions over positions of seeded random playouts (both
    editions, 2-4 players, boards 3x3 to 5x5): each raises IllegalAction, none changes the state."""
    rnd = random.Random(20240610)
    fuzz = Fuzzer(rnd)
    counts = {"refused": 0, "legal": 0}
    decisions: dict[str, int] = {}
    game_no = 0
    while counts["refused"] < FUZZ_COUNT:
        edition = EDITIONS[game_no % 2]
        players, size = 2 + game_no % 3, 3 + (game_no // 2) % 3
        g = Game.new(players=players, size=size, edition=edition, seed=game_no, turn_limit=30)
        game_no += 1
        while not g.over and counts["refused"] < FUZZ_COUNT:
            legal = g.legal_actions()
            n = PER_POSITION.get(g.step, 10)
            cands = [(fuzz.candidate(g, legal), fuzz.player(g)) for _ in range(n)]
            feed(g, cands, counts, FULL_SNAPSHOT_EVERY)
            decisions[g.step] = decisions.get(g.step, 0) + 1
            g.apply_unchecked(pick_action(g, rnd))
    assert counts["refused"] >= FUZZ_COUNT
    missing = [d for d in DECISIONS if d not in decisions]
    assert not missing, f"no position reached for {missing}: {decisions}"


# --------------------------------------------------------------------------- hypothesis

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-3, 300), st.floats(),
                    st.text(max_size=6), st.binary(max_size=3), st.sampled_from(KINDS),
                    st.sampled_from(ITEM_KINDS))
json_keys = st.one_of(
    st.sampled_from(["type", "vessel", "to", "card", "targets", "cards", "value", "item", "x"]), st.text(max_size=3))
jsonish = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.tuples(inner, inner), st.dictionaries(json_keys, inner, max_size=5)),
    max_leaves=12)


@st.composite
def shaped(draw: st.DrawFn, g: Game) -> Any:
    """A near miss: a legal action or its JSON form with one part replaced by ``jsonish``."""
    base = draw(st.sampled_from(g.legal_actions()))
    if draw(st.booleans()):
        d = A.to_json(base)
        key = draw(st.sampled_from(sorted(d) + ["extra"]))
        d[key] = draw(jsonish)
        return d
    i = draw(st.integers(0, len(base)))
    return base[:i] + (draw(jsonish),) + base[i + 1:]


configs = game_configs(st.just(30), edition=True)


@settings(max_examples=400, **SETTINGS)
@given(cfg=configs, pick_seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 150), data=st.data())
def test_hypothesis_malformed_actions_are_refused(cfg, pick_seed, steps, data) -> None:
    g = Game.new(**cfg)
    rnd = random.Random(pick_seed)
    for _ in range(steps):
        if g.over:
            break
        g.apply_unchecked(pick_action(g, rnd))
    if g.over:
        return
    cands = data.draw(st.lists(st.one_of(jsonish, shaped(g)), min_size=1, max_size=12))
    player = data.draw(st.one_of(st.none(), st.none(), jsonish))
    feed(g, [(c, player) for c in cands], {"refused": 0, "legal": 0}, 1)


# --------------------------------------------------------------------------- pinned shapes


def start(**kw: Any) -> Game:
    g = Game.new(**{"seed": 2, **kw})
    assert g.decision == "command"
    return g


def refused(g: Game, action: Any, player: Any = None) -> IllegalAction:
    """Apply ``action``: it must raise IllegalAction and leave ``g`` unchanged."""
    snapshot = g.to_json()
    with pytest.raises(IllegalAction) as info:
        g.apply(action, player=player)
    assert g.to_json() == snapshot
    assert info.value.reason.strip()
    return info.value


def a_ship(g: Game) -> int:
    return next(v.id for v in g.vessels.values() if v.owner == g.actor and v.d.kind == "ship")


@pytest.mark.parametrize("action,field", [
    ({"type": []}, "type"),
    ({"type": {"a": 1}}, "type"),
    ({"type": None}, "type"),
    ({"type": 3}, "type"),
    ({"vessel": 1}, "type"),
    ({"type": "end", "extra": 1}, "'extra'"),
    ({"type": "end", 1: 2}, "field names are strings, not 1"),
    ({"type": "develop"}, "'at'"),
    ({"type": "develop", "at": [4]}, "'at'"),
    ({"type": "develop", "at": "4"}, "'at'"),
    ({"type": "develop", "at": 4.0}, "'at'"),
    ({"type": "develop", "at": True}, "'at'"),
    ({"type": "play", "card": 1, "targets": "x"}, "'targets'"),
    ({"type": "play", "card": 1, "targets": [[1]]}, "'targets'"),
    ({"type": "accept", "cards": [1, None]}, "'cards'"),
    (([],), "kind"),
    (({"a": 1}, 1), "kind"),
    ((None,), "kind"),
    ((), "tuple"),
    (("develop", 10**30), "'at'"),
    (("develop", -1), "'at'"),
    (("develop", 9), "'at'"),
    (("develop", None), "'at'"),
    (("develop", [4]), "'at'"),
    (("develop", 4.0), "'at'"),
    (("develop", False), "'at'"),
    (("build", -1, 8), "'card'"),
    (("build", len(DEFS), 8), "'card'"),
    (("build", "Corvette", 8), "'card'"),
    (("offer", 1.0), "'to'"),
    (("offer", 2), "'to'"),
    (("offer", -1), "'to'"),
    (("scrap", 10**30), "'vessel'"),
    (("scrap", len(CARD_DEF)), "'vessel'"),
    (("sell", 1, "x"), "'other'"),
    (("play", -5), "'card'"),
    (("play", 1, *[0] * (A.MAX_LIST + 1)), "'targets'"),
    (("ability", None), "'source'"),
    (("jump", 1, 2, 2, 0), "'explore'"),
    (("jump", 1, 2, 0, A.MAX_CARRY + 1), "'carry'"),
    (("end", None), "argument"),
    (("jump", 1), "argument"),
])
def test_previously_crashing_shapes_are_refused_naming_the_field(action: Any, field: str) -> None:
    exc = refused(start(), action)
    assert field in exc.reason, exc.reason


def test_reason_names_the_field_and_the_allowed_range() -> None:
    g = start()
    v = a_ship(g)
    exc = refused(g, ("jump", v, 12, 1, 0))
    assert exc.reason == "MOVE-1: jump: field 'to' must be a board position 0..8, not 12"
    assert exc.rule == "MOVE-1"
    exc = refused(g, {"type": "jump", "vessel": v, "to": "b2", "explore": 1, "carry": 0})
    assert exc.reason == "action 'jump': field 'to' must be a board position (an integer), not 'b2'"
    exc = refused(g, ("offer", 5))
    assert exc.reason == "TRADE-3: offer: field 'to' must be a player index 0..1, not 5"
    exc = refused(g, ("choose", [1]))
    assert exc.reason == "choose: field 'value' must be an offered option (0..999999 or a string), not [1]"
    assert exc.rule is None


def test_card_targets_are_checked_by_their_declared_kinds() -> None:
    """A Command's targets are type- and range-checked by the card's ``target_kinds``."""
    g = start()
    ram = next(i for i, d in enumerate(CARD_DEF) if d.name == "Ram")
    exc = refused(g, ("play", ram, 5))
    assert "'targets'" in exc.reason and "2 value(s) (vessel, vessel)" in exc.reason
    exc = refused(g, ("play", ram, 5, 10**9))
    assert "'targets' value 1 (vessel)" in exc.reason
    envoy = next(i for i, d in enumerate(CARD_DEF) if d.name == "Trade Envoy")
    exc = refused(g, ("play", envoy, 9))
    assert "'targets' value 0 (pos)" in exc.reason and "0..8" in exc.reason


def test_trade_values_are_checked_by_their_item() -> None:
    g = start()
    g.apply(("offer", 1 - g.actor))
    assert g.decision == "trade_build"
    assert "'item'" in refused(g, ("give", "money", 1)).reason
    assert "'item'" in refused(g, ("give", 1, 1)).reason
    assert "exactly 1 for item 'credit'" in refused(g, ("give", "credit", 10**30)).reason
    assert "for item 'system'" in refused(g, ("ask", "system", 9)).reason
    assert "for item 'card'" in refused(g, ("give", "card", -1)).reason
    assert "'value'" in refused(g, {"type": "give", "item": "credit", "value": [1]}).reason


def test_choice_values_must_be_plain_ints_or_strings() -> None:
    rnd = random.Random(3)
    for seed in range(40):
        g = Game.new(players=2, size=3, edition="classic", seed=seed, turn_limit=30)
        while not g.over and g.decision != "choice":
            g.apply_unchecked(pick_action(g, rnd))
        if g.over:
            continue
        option = g.choice.options[0]
        for bad in (True, False, float(option) if type(option) is int else 1.5, [option], None, 10**30):
            assert "'value'" in refused(g, ("choose", bad)).reason
        g.apply(("choose", option))
        return
    pytest.fail("no choice reached")


# By index: pytest itself would trip over some of these values when collecting them.
@pytest.mark.parametrize("index", range(len(EXOTIC)), ids=[type(x).__name__ for x in EXOTIC])
def test_exotic_values_are_refused(index: int) -> None:
    """Subclasses whose __eq__, __hash__, __iter__ or __repr__ raise, objects whose __class__
    raises, values whose repr fails (an int of 5000 digits, a list nested 50,000 deep), huge
    lists and strings: all refused, as actions and as players, with a bounded message."""
    value = EXOTIC[index]
    g = start()
    exc = refused(g, value)
    assert len(str(exc)) < 2000
    exc = refused(g, ("end",), player=value)
    assert len(str(exc)) < 2000


def test_subclasses_are_read_past_their_overrides() -> None:
    """A tuple, list or dict subclass is read through the base class's own methods: a legal
    action in one is accepted (as the typed action, read from a plain tuple) without running
    any override."""
    g = start()

    class EvilList(list):
        def __iter__(self):  # type: ignore[override]
            raise RuntimeError("iterated")

    for value in (EvilTuple(("end",)), EvilList(["end"]), EvilDict({"type": "end"})):
        act = A.validate(g, value)
        assert type(act) is End and act == ("end",)
    refused(g, EvilDict({"type": "jump", "vessel": 1, "to": 1, "explore": 0, "carry": 0}))


def test_wrong_player_values_are_refused() -> None:
    g = start()
    me = g.actor
    for player in (1 - me, -1, 2, bool(me), 1 - me == 1, float(me), str(me), [me], 10**30, math.nan):
        assert refused(g, ("end",), player=player).rule == "RESP-2"
    g.apply(("end",), player=me)


def test_from_json_refuses_non_dicts() -> None:
    for data in (None, [], ["end"], ("end",), "end", 1, b"{}", DEEP):
        with pytest.raises(IllegalAction):
            A.from_json(data)


def test_from_json_round_trips_every_kind() -> None:
    g = start()
    for a in g.legal_actions():
        assert A.from_json(A.to_json(a)) == a


def test_why_illegal_and_malformed_take_anything() -> None:
    g = start()
    for value in (*EXOTIC, ("jump", 1, 2, 3, 4), None):
        assert isinstance(A.why_illegal(g, value), str)
        assert isinstance(A.malformed(g, value), str)
    assert A.malformed(g, ("end",)) is None
    assert A.why_illegal(g, ("end",)) is None


def test_unknown_target_kinds_are_refused_when_an_effect_is_registered() -> None:
    effects = EffectSet(d.name for d in DEFS)
    with pytest.raises(ValueError, match="planet"):
        effects.register("Ram", target_kinds=("planet",))


# --------------------------------------------------------------------------- no regression


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players,size", [(2, 3), (3, 4), (4, 5)])
def test_every_legal_action_still_validates(edition: str, players: int, size: int) -> None:
    """Every generated action passes the argument checks and validates, as a tuple, a list and
    JSON, at every decision of seeded playouts; card targets match the declared target kinds."""
    rnd = random.Random(players * 31 + size)
    seen: set[str] = set()
    for seed in range(8):
        g = Game.new(players=players, size=size, edition=edition, seed=seed, turn_limit=40)
        step = 0
        while not g.over:
            legal = g.legal_actions()
            if step % 3 == 0 or g.decision not in ("command", "priority"):
                for a in legal:
                    assert A.malformed(g, a) is None, (a, A.malformed(g, a))
                    assert A.validate(g, a) == a
                    if a[0] in ("play", "ability") and len(a) > 2:
                        assert A.target_kinds(g, a[0], a[1]) is not None, \
                            f"{CARD_DEF[a[1]].name} takes targets {a[2:]} but declares no target_kinds"
                for a in rnd.sample(legal, min(5, len(legal))):
                    assert A.validate(g, list(a)) == a
                    assert A.validate(g, A.to_json(a), g.actor) == a
                seen.add(g.decision)
            g.apply(pick_action(g, rnd))
            step += 1
    assert {"command", "priority", "choice", "trade_build", "trade_answer"} <= seen, seen


def test_recursion_limit_is_untouched() -> None:
    """Refusing a deeply nested value must not need a deeper stack."""
    limit = sys.getrecursionlimit()
    refused(start(), (DEEP, DEEP))
    assert sys.getrecursionlimit() == limit
