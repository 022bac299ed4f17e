"""The ruleset: built once from a catalogue and an effect set, immutable, held by the state."""
from __future__ import annotations

import dataclasses
import json

import pytest

from starcom.sc.cards import effects
from starcom.sc.cards.catalogue import CARD_DEF, DEFS, STANDARD, Catalogue, CardDef, CardKind, Domain
from starcom.sc.engine.game import Game
from starcom.sc.engine import rules as R
from starcom.sc.engine.game import standard_rules
from starcom.sc.engine.ruleset import EffectSet, Ruleset
from starcom.sc.engine.state import Vessel


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
    assert {e.name for e in rules.effects if e.name} == set(effects.EFFECTS.effects)
    assert len(rules.effects) == len(STANDARD.defs)  # one unit per card, registered or not
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.by_card = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        rules.effects.units[0] = rules.effect("Refinery")  # type: ignore[index]
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


def _with_probe(**fields: object) -> Catalogue:
    """The standard catalogue with a test card added at its end (two copies)."""
    probe = CardDef(index=len(DEFS), name="Test Beacon", domain=Domain.NEUTRAL, kind=CardKind.STATION,
                    text="(test) +3 attack to its controller's ships.", count=2, hp=1, **fields)
    return Catalogue("test", (*STANDARD.defs, probe))


def test_a_ruleset_with_a_test_card() -> None:
    """A test card joins a ruleset of its own, beside the standard one: its effect, its stat
    tables and its choice handler are found by its instance id."""
    catalogue = _with_probe()
    test_effects = EffectSet(catalogue.by_name)
    test_effects.register("Test Beacon", attack=lambda g, src, v: 3, max_dev_bonus=1)
    chosen: list[object] = []
    test_effects.choice_handler("Test Beacon")(lambda g, choice, value: chosen.append(value))
    rules = Ruleset.build(catalogue, test_effects, "test")
    ids = (len(CARD_DEF), len(CARD_DEF) + 1)
    assert catalogue.ids["Test Beacon"] == ids and rules.cards[ids[0]].name == "Test Beacon"
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
        Ruleset.build(STANDARD, test_effects)  # an effect for a card the ruleset lacks


def test_a_game_is_played_with_the_cards_of_its_ruleset() -> None:
    """The rules read printed facts through the game's ruleset: a card only the test catalogue
    has is in the supply and can be built, and a changed number is the one played."""
    scout = STANDARD.card("Scout")
    faster = tuple(dataclasses.replace(d, speed=3) if d is scout else d for d in _with_probe(cost=1).defs)
    catalogue = Catalogue("fast scouts", faster)
    rules = Ruleset.build(catalogue, effects.EFFECTS, "fast scouts")
    g = Game.new(seed=5, rules=rules)
    beacon = catalogue.card("Test Beacon")
    assert sorted(g.supply["Test Beacon"]) == list(catalogue.ids["Test Beacon"])
    me = g.to_move
    assert ("build", beacon.index, g.homeworld[me]) in g.legal_actions()
    mine = next(v for v in g.vessels.values() if v.owner == me)
    assert mine.d.speed == 3 and R.speed(g, mine) == 3
    events = g.apply(("build", beacon.index, g.homeworld[me]))
    built = [e for e in events if e[0] == "vessel"]
    assert built and g.vessels[built[0][2]].d is beacon
    assert g.notation(("build", beacon.index, g.homeworld[me])).startswith("build Test Beacon")
    # A clone and a saved game keep the ruleset's cards.
    back = Game.from_json(json.loads(json.dumps(g.to_json())), rules)
    assert back.vessels[built[0][2]].d is beacon and back.to_json() == g.to_json()
    # Without the ruleset, the standard one cannot hold the test card: refused, not misread.
    with pytest.raises((IndexError, KeyError, ValueError)):
        Game.from_json(json.loads(json.dumps(g.to_json())))


def test_a_catalogue_file_is_read_or_refused_with_the_reason(tmp_path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text('["Scout"]\ndomain = "neutral"\nkind = "ship"\ncount = 4\ntext = "t"\n', "utf-8")
    assert Catalogue.load(path).card("Scout").count == 4
    for text, why in (('["Scout"\n', "not a TOML file"), ('["Scout"]\nkind = "boat"\n', "'Scout'"),
                      ('["A"]\nkind = "ship"\ndomain = "neutral"\ncount = 1\ntext = "t"\n["Scout"]\ncount = 4\nattack = "x"\n', r"'Scout' \(line 6\), line 8: field 'attack' must be a whole number"),
                      ('["Scout"]\ncount = 0\n', "'count' must be from 1"),
                      ('["Scout"]\ncolour = "red"\n', "unknown field 'colour'"),
                      ('["Scout"]\nkind = "ship"\n', "missing field.*domain, text, count"),
                      ('Scout = 3\n', "must be a table"), ('["Scout"]\ndomain = "neutral"\n', "'Scout'")):
        path.write_text(text, "utf-8")
        with pytest.raises(ValueError, match=why):
            Catalogue.load(path)
    with pytest.raises(ValueError, match="cannot read"):
        Catalogue.load(tmp_path / "missing.toml")
    small = Catalogue("tiny", tuple(dataclasses.replace(d, count=1) if d.kind == "homeworld" else d
                                    for d in STANDARD.defs))
    with pytest.raises(ValueError, match="lacks 2 Homeworlds"):
        Game.new(seed=1, rules=Ruleset.build(small, EffectSet(small.by_name), "tiny"))


def test_two_rulesets_play_side_by_side() -> None:
    """A variant where the start-of-turn income card gives more runs in the same process as a
    standard game, and only the variant's game sees the change."""
    variant = EffectSet(d.name for d in DEFS)
    for name, eff in effects.EFFECTS.effects.items():
        variant.cards.register(name, eff)
    for kind, fn in effects.EFFECTS.choice_handlers.items():
        variant.choices.register(kind, fn)
    gained: list[int] = []

    def rich(g: Game, p: int, src: int) -> None:
        gained.append(src)
        g.credits[p] += 5

    variant.register("Refinery", start_of_turn=rich)
    rules = Ruleset.build(STANDARD, variant, "variant")
    a, b = Game.new(seed=3), Game.new(seed=3, rules=rules)
    assert b.rules is rules and a.rules is standard_rules()
    refinery = next(i for i, d in enumerate(CARD_DEF) if d.name == "Refinery")
    for g in (a, b):  # give player 0 a Refinery at its Homeworld and play on to its next Ready
        g.vessels[refinery] = Vessel(refinery, 0, g.homeworld[0], CARD_DEF[refinery])
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
    other = Ruleset.build(STANDARD, effects.EFFECTS, "variant")
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(other)
