"""Property tests over random legal play: invariants, round trips, determinism, hidden
information, clone independence and the rejection of illegal actions."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EDITIONS, game_configs, pick_action
from starcom.sc.engine.game import Game
from starcom.errors import IllegalAction
from starcom.sc.cards.catalogue import DEFS, INSTANCES, SUPPLY_NAMES
from starcom.sc.engine import actions as A
from starcom.sc.engine import rules as R
from starcom.sc.invariants import check_state, check_step

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

configs = game_configs(st.one_of(st.none(), st.integers(1, 25)), edition=True)
pick_seeds = st.integers(0, 2**32 - 1)


def walk(cfg: dict[str, Any], pick_seed: int, steps: int) -> tuple[Game, list[tuple]]:
    """A game after up to ``steps`` random legal actions, and the actions taken."""
    g = Game.new(**cfg)
    rnd = random.Random(pick_seed)
    taken: list[tuple] = []
    while len(taken) < steps and not g.over:
        a = pick_action(g, rnd)
        g.apply(a)
        taken.append(a)
    return g, taken


def same_action(a: Any, b: tuple) -> bool:
    """Equal including the types of the arguments (so True is not taken for 1)."""
    return isinstance(a, tuple) and len(a) == len(b) and all(
        type(x) is type(y) and x == y for x, y in zip(a, b))


# --------------------------------------------------------------------------- every step


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=400, **SETTINGS)
@given(cfg=configs, pick_seed=pick_seeds, steps=st.integers(1, 250))
def test_every_step_keeps_invariants_and_round_trips(edition, cfg, pick_seed, steps) -> None:
    # RULE: COMP-2
    # RULE: HAND-1
    # RULE: HAND-2
    # RULE: DEV-3
    # check_step also pins the build caps at the moment of building on every random action:
    # RULE: BUILD-2
    # RULE: BUILD-4
    # RULE: BUILD-6
    g = Game.new(**{**cfg, "edition": edition})
    assert check_state(g) == []
    rnd = random.Random(pick_seed)
    for i in range(steps):
        legal = g.legal_actions()
        assert bool(legal) != g.over
        assert (g.to_move is None) == g.over
        if g.over:
            break
        for a in legal:
            assert A.why_illegal(g, a) is None, (a, A.why_illegal(g, a))
            j = A.to_json(a)
            assert A.from_json(json.loads(json.dumps(j))) == a
        assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
        a = pick_action(g, rnd)
        before = g.clone()
        g.apply(a)
        assert check_state(g) == [], (i, a)
        assert check_step(before, a, g) == [], (i, a)

        data = json.loads(json.dumps(g.to_json()))
        back = Game.from_json(data)
        assert back.to_json() == g.to_json()
        assert back.legal_actions() == g.legal_actions()
        for p in range(g.cfg.players):
            view = g.view(p)
            assert json.loads(json.dumps(view)) == view
            other = g.determinize(p, random.Random(i))
            assert check_state(other) == []
            assert other.view(p) == view, f"determinizing changed what player {p} sees"
    assert g.view(None)["hand"] is None


# --------------------------------------------------------------------------- determinism


@settings(max_examples=400, **SETTINGS)
@given(cfg=configs, pick_seed=pick_seeds, steps=st.integers(1, 300))
def test_replay_reproduces_every_state(cfg, pick_seed, steps) -> None:
    g = Game.new(**cfg)
    rnd = random.Random(pick_seed)
    taken, states = [], []
    while len(taken) < steps and not g.over:
        a = pick_action(g, rnd)
        g.apply(a)
        taken.append(a)
        states.append(g.to_json())
    assert Game.replay(g.cfg, taken).to_json() == g.to_json()
    # The saved form of actions replays the same, state by state.
    h = Game.from_config(g.cfg)
    for a, expected in zip(taken, states):
        h.apply(json.loads(json.dumps(A.to_json(a))))
        assert h.to_json() == expected


@settings(max_examples=300, **SETTINGS)
@given(cfg=configs, pick_seed=pick_seeds, steps=st.integers(0, 200), more=st.integers(1, 20))
def test_clone_is_independent(cfg, pick_seed, steps, more) -> None:
    g, _ = walk(cfg, pick_seed, steps)
    snapshot = g.to_json()
    c = g.clone()
    rnd = random.Random(pick_seed + 1)
    for _ in range(more):
        if c.over:
            break
        c.apply(pick_action(c, rnd))
    assert g.to_json() == snapshot
    # and the other way round: playing on in the original leaves an earlier clone alone
    c2 = g.clone()
    c2_snapshot = c2.to_json()
    for _ in range(more):
        if g.over:
            break
        g.apply(pick_action(g, rnd))
    assert c2.to_json() == c2_snapshot
    for p in range(c2.cfg.players):
        c2.view(p)
        c2.determinize(p, random.Random(p))
    assert c2.to_json() == c2_snapshot, "view/determinize changed the game"


def test_saved_state_is_a_snapshot() -> None:
    """Regression: to_json() and from_json() used to share lists with the live game, so a saved
    state changed as play went on and playing a loaded game changed the saved data."""
    g = Game.new(players=3, size=4, seed=5)
    saved = g.to_json()
    text = json.dumps(saved)
    loaded = Game.from_json(saved)
    rnd = random.Random(5)
    for _ in range(60):
        g.apply(pick_action(g, rnd))
        loaded.apply(pick_action(loaded, rnd))
    assert json.dumps(saved) == text
    saved["credits"][0] = 999
    saved["hands"][0].append(0)
    assert g.credits[0] != 999 and 0 not in g.hands[0]


def test_determinize_keeps_a_hand_revealed_by_spy_network() -> None:
    """Regression: while the spy picks a card from a revealed hand, determinizing for the spy
    used to re-deal that hand, changing the options the spy sees."""
    g = Game.new(players=3, size=4, seed=7)
    p = g.active
    q = (p + 1) % 3
    for _ in range(3):
        g.hands[q].append(g.decks[0].pop())
    spy = INSTANCES["Spy Network"][0]
    for pile in g.decks:
        if spy in pile:
            pile.remove(spy)
    g.hands[p].append(spy)
    assert check_state(g) == []
    g.apply(("play", spy, q))
    while g.decision == "priority":
        g.apply(("pass",))
    assert g.decision == "choice" and g.choice.kind == "Spy Network"
    view = g.view(p)
    assert sorted(view["choice"]["options"]) == sorted(g.hands[q])
    for seed in range(20):
        other = g.determinize(p, random.Random(seed))
        assert other.view(p) == view
        assert sorted(other.hands[q]) == sorted(g.hands[q])


# --------------------------------------------------------------------------- illegal actions


@pytest.mark.parametrize("action", [("end", 5), ("pass", 0), ("buy", 1), ("end", "x"),
                                    ("develop",), ("build", 3)])
def test_wrong_number_of_arguments_is_refused(action) -> None:
    """Regression: actions without arguments used to accept (and ignore) extra ones."""
    g = Game.new(seed=2)
    g.credits[g.active] = 10
    snapshot = g.to_json()
    with pytest.raises(IllegalAction, match="argument"):
        g.apply(action)
    assert g.to_json() == snapshot

junk_args = st.one_of(st.integers(-3, 400), st.text(max_size=4), st.none(), st.booleans(),
                      st.floats(allow_nan=False), st.lists(st.integers(0, 5), max_size=2))
junk_kinds = st.one_of(st.sampled_from(sorted(A.FIELDS)), st.text(max_size=6))


def candidates(data: st.DataObject, g: Game) -> Any:
    """Something a client might send: junk, a near miss of a legal action, another player's
    action, or a JSON form with a field missing."""
    legal = g.legal_actions()
    how = data.draw(st.sampled_from(["junk", "mutate", "kind", "other", "dict", "scalar"]))
    if how == "junk":
        return (data.draw(junk_kinds), *data.draw(st.lists(junk_args, max_size=5)))
    if how == "scalar":
        return data.draw(st.one_of(st.none(), st.integers(), st.text(max_size=5), st.just(())))
    base = data.draw(st.sampled_from(legal))
    if how == "mutate" and len(base) > 1:
        i = data.draw(st.integers(1, len(base) - 1))
        new = data.draw(st.one_of(st.integers(-2, 400), st.just(base[i] + 1 if isinstance(base[i], int) else 0)))
        return base[:i] + (new,) + base[i + 1:]
    if how == "kind":
        return (data.draw(st.sampled_from(sorted(A.FIELDS))), *base[1:])
    if how == "other":
        others = [q for q in range(g.cfg.players) if q != g.to_move and g.alive[q]]
        q = data.draw(st.sampled_from(others))
        theirs = A.LEGAL[g.step](g, q)
        return data.draw(st.sampled_from(theirs)) if theirs else ("end",)
    d = A.to_json(base)
    key = data.draw(st.sampled_from(sorted(d)))
    del d[key]
    return d


def normalised(x: Any) -> Any:
    try:
        return A.from_json(x) if isinstance(x, dict) else tuple(x) if isinstance(x, list) else x
    except IllegalAction:
        return None


@settings(max_examples=1200, **SETTINGS)
@given(cfg=configs, pick_seed=pick_seeds, steps=st.integers(0, 200), data=st.data())
def test_illegal_actions_raise_and_leave_state_unchanged(cfg, pick_seed, steps, data) -> None:
    g, _ = walk(cfg, pick_seed, steps)
    if g.over:
        assert g.legal_actions() == []
        return
    legal = g.legal_actions()
    snapshot = g.to_json()
    for _ in range(8):
        cand = candidates(data, g)
        norm = normalised(cand)
        if any(same_action(norm, a) for a in legal):
            continue
        try:
            g.apply(cand)
        except IllegalAction as exc:
            assert str(exc).strip() and exc.reason.strip()
        else:
            raise AssertionError(f"{cand!r} was accepted but is not among the legal actions")
        assert g.to_json() == snapshot


@settings(max_examples=300, **SETTINGS)
@given(cfg=configs, pick_seed=pick_seeds, steps=st.integers(0, 200))
def test_only_the_player_to_move_may_act(cfg, pick_seed, steps) -> None:
    g, _ = walk(cfg, pick_seed, steps)
    if g.over:
        return
    snapshot = g.to_json()
    a = g.legal_actions()[pick_seed % len(g.legal_actions())]
    for q in range(g.cfg.players):
        if q == g.to_move:
            continue
        try:
            g.apply(a, player=q)
        except IllegalAction as exc:
            assert exc.reason.strip()
        else:
            raise AssertionError(f"player {q} acted in player {g.to_move}'s place")
        assert g.to_json() == snapshot
    c = g.clone()
    c.apply(a, player=g.to_move)  # the right player may


# --------------------------------------------------------------------------- pinned rules


def draw_greedy(g: Game, rnd: random.Random) -> tuple:
    """A policy that fills its hand: buys cards and keeps them, so hand limits come into play."""
    acts = g.legal_actions()
    for pref in (("buy",),):
        if pref in acts and rnd.random() < 0.9:
            return pref
    keep = [a for a in acts if a[0] not in ("sell", "play", "offer", "ability")]
    return rnd.choice(keep or acts)


@settings(max_examples=150, **SETTINGS)
@given(cfg=configs, pick_seed=pick_seeds)
def test_hand_limit_by_edition(cfg, pick_seed) -> None:
    # RULE: HAND-1
    # RULE: HAND-2
    g = Game.new(**{**cfg, "turn_limit": None})
    limit = 5 if cfg["edition"] == "standard" else 8
    assert g.ed.hand_limit == limit
    rnd = random.Random(pick_seed)
    for _ in range(400):
        if g.over:
            break
        if g.decision == "choice" and g.choice.kind in ("hand_full", "receive_full"):
            p = g.choice.player
            assert len(g.hands[p]) == limit
            opts = g.choice.options
            assert set(g.hands[p]) <= set(opts)
            # Standard lets the player skip (or decline) the card; classic forces a discard.
            assert (("skip" in opts) or ("decline" in opts)) == (cfg["edition"] == "standard")
        if cfg["edition"] == "standard" and len(g.hands[g.active]) >= limit:
            assert ("buy",) not in g.legal_actions() or g.to_move != g.active  # TRADE-1
        g.apply(draw_greedy(g, rnd))
        assert all(len(h) <= limit for h in g.hands)


@settings(max_examples=250, **SETTINGS)
@given(cfg=configs, pick_seed=pick_seeds, steps=st.integers(1, 300))
def test_supply_is_finite_and_conserved(cfg, pick_seed, steps) -> None:
    # RULE: COMP-2
    g = Game.new(**cfg)
    count = {d.name: d.count for d in DEFS}
    rnd = random.Random(pick_seed)
    for _ in range(steps):
        if g.over:
            break
        for a in g.legal_actions():
            if a[0] == "build":
                assert g.supply[DEFS[a[1]].name], f"{DEFS[a[1]].name} offered with an empty supply"
        a = pick_action(g, rnd)
        before = {n: len(g.supply[n]) for n in SUPPLY_NAMES}
        g.apply(a)
        if a[0] == "build":
            assert len(g.supply[DEFS[a[1]].name]) == before[DEFS[a[1]].name] - 1
        for name in SUPPLY_NAMES:
            on_board = sum(1 for v in g.vessels.values() if v.d.name == name)
            assert len(g.supply[name]) + on_board == count[name]


@settings(max_examples=250, **SETTINGS)
@given(cfg=configs, pick_seed=pick_seeds, steps=st.integers(1, 300))
def test_developments_stay_within_the_maximum(cfg, pick_seed, steps) -> None:
    # RULE: DEV-3
    g = Game.new(**cfg)
    rnd = random.Random(pick_seed)
    for _ in range(steps):
        if g.over:
            break
        for a in g.legal_actions():
            if a[0] == "develop":
                assert g.sites[a[1]].devs < R.max_dev(g, a[1])
        a = pick_action(g, rnd)
        if a[0] == "develop":
            pos = a[1]
            g.apply(a)
            assert 1 <= g.sites[pos].devs <= R.max_dev(g, pos)
        else:
            g.apply(a)
