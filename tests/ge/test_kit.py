"""Galactic Empires on the engine kit (starcom.kit): typed actions and events that are the old
tuples, a generator that deals what random.Random dealt, positions and games saved before the
kit that still load and play on identically, and a ruleset in place of an import-time registry."""
from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from starcom.games import get
from starcom.ge import moves as M
from starcom.ge.actions import HANDLERS
from starcom.ge.cards import CARDS
from starcom.ge.cards import effects as card_effects
from starcom.ge.events import EVENTS
from starcom.ge.game import GalacticEmpires
from starcom.ge.moves import MOVES
from starcom.ge.ruleset import standard
from starcom.kit import rng as kit_rng
from starcom.kit.rng import Mersenne
from starcom.sim import record

GE = get("ge")
DATA = Path(__file__).parent / "data"
GAMES = [("full", 3, {}), ("quick", 4, {}), ("full", 5, {"prepaired": True}), ("full", 8, {"small_hq": True})]


def random_games(steps: int = 600) -> Any:
    """Each position of a few seeded random games of both editions: (game, its legal actions)."""
    for edition, seed, options in GAMES:
        g = GalacticEmpires.new(edition=edition, seed=seed, options=options)
        rng = random.Random(seed)
        while not g.over and g.s.actions < steps:
            acts = g.legal_actions()
            yield g, acts
            g.apply(rng.choice(acts))


def same_rng(a: Any, b: Any) -> bool:
    """Two saved generators (old list form or the kit's) are the same stream."""
    return bool(kit_rng.from_json(a) == kit_rng.from_json(b))


def without_rng(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "rng"}


# --------------------------------------------------------------------------- typed actions


# RULE: GE-DIG-1
def test_every_legal_action_reads_back_typed_from_its_notation_and_its_json() -> None:
    kinds: set[str] = set()
    for g, acts in random_games():
        seat = g.to_move
        for a in acts:
            cls = MOVES.types[a[0]]
            for back in (g.parse(g.notation(a)), MOVES.from_json(json.loads(json.dumps(GE.rules.encode(a)))),
                         GE.rules.decode(g, json.loads(json.dumps(GE.rules.encode(a))), seat),
                         GE.rules.decode(g, g.notation(a), seat)):
                assert back == a and type(back) is cls, (a, back)
            assert list(M.typed(a)) == list(a) and GE.rules.encode(M.typed(a)) == GE.rules.encode(a)
            kinds.add(a[0])
    assert {"reserve", "pay", "allocate", "play", "aim", "add", "fire", "pass", "end"} <= kinds


def test_typed_actions_are_the_tuples_the_game_always_used() -> None:
    play = M.Play("play", 12, -1)
    assert play == ("play", 12, -1) and hash(play) == hash(("play", 12, -1)) and list(play) == ["play", 12, -1]
    assert (play.card, play.place, play.choices) == (12, -1, ())
    crew = MOVES.typed(("play", 7, 3, "with", 9, 4))
    assert isinstance(crew, M.Play) and crew.choices == ("with", 9, 4)
    assert M.Pass("pass") == ("pass",) and M.Use("use", 4, "cure").choices == ("cure",)
    assert GE.rules.waives(M.Quiet("quiet")) and GE.rules.waives(("pass",)) and not GE.rules.waives(M.End("end"))
    assert MOVES.types.keys() == HANDLERS.keys()


def test_an_action_played_is_typed_on_the_chain() -> None:
    g = GalacticEmpires.new(seed=3)
    rng = random.Random(3)
    while not g.over and g.s.actions < 600:
        acts = g.legal_actions()
        plays = [a for a in acts if a[0] == "play"]
        if plays and g.s.priority is None:
            g.apply(list(plays[0]))  # the JSON form
            item = next(i for i in g.s.chain + g.s.queued if i.kind == "play") if g.s.chain else None
            if item is not None:
                assert type(item.action) is M.Play and item.action == plays[0]
                return
        else:
            g.apply(rng.choice(acts))
    pytest.fail("no play stayed on the chain")


# --------------------------------------------------------------------------- typed events


def test_every_event_is_typed_and_round_trips_through_json() -> None:
    seen: set[str] = set()
    for edition, seed, options in GAMES:
        g = GalacticEmpires.new(edition=edition, seed=seed, options=options)
        rng = random.Random(seed)
        while not g.over:
            for e in g.apply_unchecked(rng.choice(g.legal_actions())):
                assert type(e) is EVENTS.types[e[0]], e
                assert EVENTS.from_json(json.loads(json.dumps(EVENTS.to_json(e)))) == e
                seen.add(e[0])
    assert {"turn", "phase", "enter", "announce", "damage", "pool", "pass"} <= seen


# --------------------------------------------------------------------------- the generator


def test_the_state_deals_from_the_mersenne_stream_of_its_seed() -> None:
    g = GalacticEmpires.new(seed=31)
    assert isinstance(g.s.rng, Mersenne) and g.s.rng == Mersenne(31)
    assert g.s.rng.getstate() == random.Random(31).getstate()
    twin = g.clone()
    assert twin.s.rng == g.s.rng and twin.s.rng is not g.s.rng
    d = g.determinize(0, random.Random(5))
    assert isinstance(d.s.rng, Mersenne) and d.s.rng == g.determinize(0, random.Random(5)).s.rng
    assert d.s.rng != g.s.rng and d.s.seed == 0  # a copy for a seat does not carry the real stream
    assert GE.observer.canonical(g, 1).s.rng == Mersenne(0)  # its bits are all 0


def test_a_game_pickles_with_its_generator_and_ruleset() -> None:
    g = GalacticEmpires.new(seed=2)
    rng = random.Random(2)
    for _ in range(60):
        g.apply(rng.choice(g.legal_actions()))
    twin = pickle.loads(pickle.dumps(g))
    assert twin.s.rules is g.s.rules and twin.s.rng == g.s.rng and twin.to_json() == g.to_json()


# --------------------------------------------------------------------------- saved before the kit


def test_a_position_saved_before_the_kit_loads_and_plays_on_identically() -> None:
    """tests/ge/data/before-kit-state.json: a position written by the code before the kit (its
    generator as random.Random.getstate() in a list), the actions played on from it, their events
    and the position after, all recorded then."""
    data = json.loads((DATA / "before-kit-state.json").read_text())
    assert isinstance(data["state"]["state"]["rng"], list)  # the old form
    g = GalacticEmpires.from_json(data["state"])
    assert same_rng(g.to_json()["state"]["rng"], data["state"]["state"]["rng"])
    for step, (action, events) in enumerate(zip(data["actions"], data["events"]), 1):
        got = g.apply(action)
        assert json.loads(json.dumps(got)) == events, f"step {step}"
    final = g.to_json()
    assert without_rng(final["state"]) == without_rng(data["final"]["state"])
    assert same_rng(final["state"]["rng"], data["final"]["state"]["rng"])
    assert [g.s.rng.random() for _ in range(3)] == data["next_random"]


def test_a_game_saved_before_the_kit_replays_to_the_same_end() -> None:
    """tests/ge/data/before-kit-game.json: a starcom-game/1 record and the final position it
    reached, both written by the code before the kit."""
    data = json.loads((DATA / "before-kit-game.json").read_text())
    saved = record.from_game_record(data["record"])
    assert saved.result == data["record"]["result"]
    final = saved.game.to_json()["state"]
    assert without_rng(final) == without_rng(data["final_state"]["state"])
    assert same_rng(final["rng"], data["final_state"]["state"]["rng"])


def test_a_position_saved_now_loads_back() -> None:
    g = GalacticEmpires.new(edition="quick", seed=6)
    rng = random.Random(6)
    for _ in range(80):
        g.apply(rng.choice(g.legal_actions()))
    data = json.loads(json.dumps(g.to_json()))
    assert data["state"]["rng"]["kind"] == "mt19937"
    back = GalacticEmpires.from_json(data)
    assert back.to_json() == g.to_json() and back.legal_actions() == g.legal_actions()


# --------------------------------------------------------------------------- the ruleset


def test_the_effect_units_live_in_the_ruleset_the_state_holds() -> None:
    g = GalacticEmpires.new(seed=1)
    rules = g.s.rules
    assert rules is standard() and g.clone().s.rules is rules
    assert len(rules.effects) == len(CARDS)
    assert all(unit.key == card.key for unit, card in zip(rules.effects, CARDS))
    uid = g.s.players[0].deck[0]
    assert g.s.effect_of(uid) is rules.effect(g.s.spec_of[uid])
    fresh = card_effects.table()  # each build makes its own units: nothing is kept at module level
    assert fresh[0] is not rules.effects[0] and type(fresh[0]) is type(rules.effects[0])


def test_the_effects_module_refuses_a_unit_for_a_card_the_catalogue_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(card_effects._BY_KEY, "docter", card_effects._BY_KEY["doctor"])
    with pytest.raises(ValueError, match="'docter' is no card of the catalogue .did you mean 'doctor'"):
        card_effects.table()
