"""The ruleset: built once from a catalogue and an effect set, immutable, held by the state."""
from __future__ import annotations

import dataclasses
import json

import pytest

from starcom.cards import effects
from starcom.cards.catalogue import CARD_DEF, DEFS, CardDef
from starcom.engine import Game
from starcom.engine.game import standard_rules
from starcom.engine.ruleset import EffectSet, Ruleset
from starcom.engine.state import Vessel


def test_an_effect_for_a_misspelt_card_is_refused() -> None:
    effects_ = EffectSet(d.name for d in DEFS)
    with pytest.raises(ValueError, match="'Refinary'.*did you mean 'Refinery'"):
        effects_.register("Refinary", commutes=True)
    with pytest.raises(ValueError, match="Refinary"):
        effects_.choice_handler("Refinary")
    assert not effects_.effects and not effects_.choice_handlers


def test_an_unknown_hook_is_refused() -> None:
    with pytest.raises(TypeError, match="no_such_hook"):
        EffectSet(["Refinery"]).register("Refinery", no_such_hook=1)


def test_the_standard_ruleset_is_built_once_and_frozen() -> None:
    rules = standard_rules()
    assert standard_rules() is rules
    assert rules.cards == tuple(CARD_DEF)
    assert len(rules.by_card) == len(CARD_DEF)
    assert set(rules.effects) == set(effects.EFFECTS.effects)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.by_card = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.effects["Refinery"] = rules.effect("Refinery")  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.effect("Refinery").commutes = False  # type: ignore[misc]


def test_states_share_the_ruleset_and_its_json_is_unchanged() -> None:
    g = Game.new(players=2, size=3, seed=4)
    assert g.rules is standard_rules()
    h = g.clone()
    assert h.rules is g.rules
    data = g.to_json()
    assert "rules" not in data
    back = Game.from_json(json.loads(json.dumps(data)))
    assert back.rules is standard_rules() and back.to_json() == data


def test_a_ruleset_with_a_test_card() -> None:
    """A test card joins a ruleset of its own, beside the standard one: its effect, its stat
    tables and its choice handler are found by its instance id."""
    probe = CardDef(index=len(DEFS), name="Test Beacon", domain="neutral", kind="station",
                    text="(test) +3 attack to its controller's ships.", count=2, hp=1)
    cards = [*CARD_DEF, probe, probe]
    test_effects = EffectSet(d.name for d in [*DEFS, probe])
    test_effects.register("Test Beacon", attack=lambda g, src, v: 3, max_dev_bonus=1)
    chosen: list[object] = []
    test_effects.choice_handler("Test Beacon")(lambda g, choice, value: chosen.append(value))
    rules = Ruleset.build(cards, test_effects, "test")
    ids = (len(CARD_DEF), len(CARD_DEF) + 1)
    assert rules.stat_stations["attack"] == ids and rules.dev_stations == ids
    assert rules.by_card[ids[0]].name == "Test Beacon"
    assert rules.stat_hook(ids[1], "attack") is not None
    assert rules.effect("Refinery").name == ""  # not registered in this set: no code
    rules.choice_handlers["Test Beacon"](None, None, 7)  # type: ignore[arg-type]
    assert chosen == [7]
    # The standard ruleset is untouched by it.
    assert "Test Beacon" not in standard_rules().effects
    assert len(standard_rules().by_card) == len(CARD_DEF)
    with pytest.raises(ValueError, match="Test Beacon"):
        Ruleset.build(CARD_DEF, test_effects)  # an effect for a card the ruleset lacks
    # The rules read printed facts from the built-in catalogue: a game over other cards is
    # refused with the reason, not played with the wrong facts.
    with pytest.raises(ValueError, match="other than the built-in catalogue"):
        Game.new(seed=1, rules=rules)


def test_two_rulesets_play_side_by_side() -> None:
    """A variant where the start-of-turn income card gives more runs in the same process as a
    standard game, and only the variant's game sees the change."""
    variant = EffectSet(d.name for d in DEFS)
    for name, eff in effects.EFFECTS.effects.items():
        variant.effects[name] = eff
    for kind, fn in effects.EFFECTS.choice_handlers.items():
        variant.choice_handlers[kind] = fn
    gained: list[int] = []

    def rich(g: Game, p: int, src: int) -> None:
        gained.append(src)
        g.credits[p] += 5

    variant.register("Refinery", start_of_turn=rich)
    rules = Ruleset.build(CARD_DEF, variant, "variant")
    a, b = Game.new(seed=3), Game.new(seed=3, rules=rules)
    assert b.rules is rules and a.rules is standard_rules()
    refinery = next(i for i, d in enumerate(CARD_DEF) if d.name == "Refinery")
    for g in (a, b):  # give player 0 a Refinery at its Homeworld and play on to its next Ready
        g.vessels[refinery] = Vessel(refinery, 0, g.homeworld[0])
    while not gained and not b.over:
        b.apply(b.legal_actions()[0])
    assert gained == [refinery]
    assert standard_rules().effect("Refinery").start_of_turn is not rich


def test_games_pickle_with_their_ruleset_by_name() -> None:
    """The server's AI pool sends games to worker processes by pickling them: the standard
    ruleset travels as its name; an unregistered one is refused with a reason."""
    import pickle
    g = Game.new(2, 3, "standard", 5)
    h = pickle.loads(pickle.dumps(g))
    assert h.rules is g.rules and h.legal_actions() == g.legal_actions() and h.to_json() == g.to_json()
    other = Ruleset.build(CARD_DEF, effects.EFFECTS, "variant")
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(other)
