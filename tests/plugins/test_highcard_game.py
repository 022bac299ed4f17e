"""High Card's own parts, as a plug-in author would test them: the protocol's contract, bad
input refused by name, the hooks' secrecy (table, narrator, features) and invariants that catch
a broken position."""
from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from starcom import games
from starcom.errors import IllegalAction
from starcom.protocol import Game

try:
    from starcom_highcard.entry import ENTRY
    from starcom_highcard.game import ACTIONS, KEEP, ROUNDS, SWAP, HighCard
    from starcom_highcard.invariants import check_state, check_step
except ModuleNotFoundError as exc:  # scripts/test.sh installs it; say how when it is missing
    raise ModuleNotFoundError(f"{exc}: install the test game first: pip install -e tests/plugins/highcard") from exc


def positions(players: int, size: int, seed: int) -> list[HighCard]:
    """Every position of one random game, from the deal to the showdown (copies)."""
    g = HighCard.new(players, size, seed=seed)
    rng = random.Random(seed)
    out = [g.clone()]
    while not g.over:
        g.apply(rng.choice(g.legal_actions()))
        out.append(g.clone())
    return out


SETTINGS = [(2, 1), (2, 3), (3, 4), (4, 8)]


def test_the_registry_gives_the_plugins_entry() -> None:
    assert games.get("highcard") is ENTRY
    g = games.load_game("highcard", players=4, size=2, seed=1)
    assert isinstance(g, HighCard) and isinstance(g, Game) and len(g.deck) == 3


@pytest.mark.parametrize("players,size", SETTINGS)
def test_the_protocols_contract_holds_in_every_position(players: int, size: int) -> None:
    for seed in range(5):
        for g in positions(players, size, seed):
            assert check_state(g) == []
            saved = json.loads(json.dumps(g.to_json()))
            assert HighCard.from_json(saved).to_json() == g.to_json()
            for a in g.legal_actions():
                assert g.parse(g.notation(a)) == a
                assert ENTRY.rules.decode(g, json.loads(json.dumps(ENTRY.rules.encode(a))), g.to_move) == a
            if g.over:
                assert g.to_move is None and g.legal_actions() == [] and sorted(g.returns())[-2:] == [-1.0, 1.0]
                assert ENTRY.rules.winner(g) == g.hands.index(max(g.hands))
            else:
                assert g.returns() == [0.0] * players and ENTRY.rules.winner(g) is None


@pytest.mark.parametrize("players,size", SETTINGS)
def test_every_step_keeps_the_invariants(players: int, size: int) -> None:
    for seed in range(5):
        g = HighCard.new(players, size, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            before, act = g.clone(), rng.choice(ACTIONS)
            g.apply(act)
            assert check_step(before, act, g) == [] and check_state(g) == []


def test_the_invariants_catch_a_broken_position_and_a_broken_step() -> None:
    g = HighCard.new(3, 3, seed=2)
    g.deck[0] = g.hands[1]  # a card in two places
    assert any("once each" in m for m in check_state(g))
    g = HighCard.new(3, 3, seed=2)
    g.over = True  # over in the first round
    assert any("over is True" in m for m in check_state(g))
    before = HighCard.new(2, 3, seed=2)
    after = before.clone()
    after.apply(SWAP)
    after.hands[1], after.deck[-1] = after.deck[-1], after.hands[1]  # the other seat's card moved too
    assert any("P1's card changed" in m for m in check_step(before, SWAP, after))
    after = before.clone()
    after.apply(KEEP)
    after.deck.reverse()
    assert check_step(before, KEEP, after) == ["P0 kept their card, yet the cards moved"]


def test_bad_settings_positions_and_actions_are_refused_by_name() -> None:
    for settings, word in [({"players": 5}, "players"), ({"players": True}, "players"), ({"size": 0}, "size"),
                           ({"edition": "classic"}, "edition"), ({"seed": "x"}, "seed")]:
        with pytest.raises(ValueError, match=f"^{word}: "):
            HighCard.new(**settings)
    good = HighCard.new(2, 3, seed=1).to_json()
    for broken, words in [({**good, "hands": [1, 1]}, "cards 1 to"), ({**good, "round": 2}, "do not fit"),
                          ({**good, "actor": 2}, "actor"), ({k: v for k, v in good.items() if k != "deck"}, "deck"),
                          ([], "JSON object")]:
        with pytest.raises(ValueError, match=words):
            HighCard.from_json(broken)  # type: ignore[arg-type]
    g = HighCard.new(2, 3, seed=1)
    for action, seat, words in [(("fold",), None, "keep or swap"), (KEEP, 1, "P0's turn, not P1's"),
                                ({"type": "raise"}, 0, "keep or swap"), ("fold", 0, "written 'fold'")]:
        with pytest.raises(IllegalAction, match=words):
            ENTRY.rules.decode(g, action, seat)
    assert g.to_json() == HighCard.new(2, 3, seed=1).to_json()  # nothing changed
    assert ENTRY.rules.decode(g, "swap", 0) == SWAP and ENTRY.rules.decode(g, ["keep"], None) == KEEP
    while not g.over:
        g.apply(KEEP)
    with pytest.raises(IllegalAction, match="the game is over"):
        g.apply(KEEP)


def twins(g: HighCard, seat: int) -> list[HighCard]:
    """Positions ``seat`` cannot tell from ``g`` (other hands and the deck redrawn)."""
    return [g.determinize(seat, random.Random(k)) for k in range(8)]


@pytest.mark.parametrize("players,size", SETTINGS)
def test_what_a_seat_is_shown_depends_only_on_what_it_may_see(players: int, size: int) -> None:
    """The table, the view and the features are the same in every twin of a running game; the
    narrator never names another seat's card before the showdown."""
    for seed in range(4):
        for g in positions(players, size, seed):
            if g.over:
                continue
            features = ENTRY.tools.features(g)
            for seat in range(players):
                obs = features.observe(g, seat)
                assert obs.shape == (features.observation_size,) and obs.dtype == np.float32
                assert obs.min() >= 0.0 and obs.max() <= 1.0
                for t in twins(g, seat):
                    assert ENTRY.words.table(t, seat) == ENTRY.words.table(g, seat)
                    assert ENTRY.observer.view(t, seat) == ENTRY.observer.view(g, seat)
                    assert np.array_equal(features.observe(t, seat), obs)
    g = HighCard.new(players, size, seed=3)
    narrator = ENTRY.words.narrator(g, 0, False)
    lines = narrator.setup_lines(g)
    assert lines[0] == f"P0 is dealt the {g.hands[0]}" and all(line.endswith("a card") for line in lines[1:])


def test_the_features_differ_where_the_seat_sees_a_difference() -> None:
    """The observation is not blind either: the seat's own card, the round and the showdown show."""
    g = HighCard.new(2, 3, seed=4)
    features = ENTRY.tools.features(g)
    other = g.clone()
    other.hands[0], other.deck[0] = other.deck[0], other.hands[0]
    assert not np.array_equal(features.observe(g, 0), features.observe(other, 0))
    before = features.observe(g, 1)
    g.apply(KEEP)
    assert not np.array_equal(features.observe(g, 1), before)
    while not g.over:
        g.apply(KEEP)
    shown = features.observe(g, 0)[-4:]
    assert shown[1] == g.hands[1] / (2 + len(g.deck)) > 0
    assert features.action_ids(g, [SWAP, KEEP, ("fold",)]) == [1, 0, -1]
    assert [features.action_label(i) for i in range(features.action_count)] == ["keep", "swap"]
    for bad in (2, -1, True, "0"):
        with pytest.raises(ValueError, match="action IDs are 0"):
            features.action_label(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "random", "ismcts"])
def test_every_level_plays_legal_actions_to_the_end(level: str) -> None:
    agent = ENTRY.ai.make_agent(level, iterations=30 if level != "easy" else None)
    g = HighCard.new(3, 4, seed=11)
    rng = random.Random(0)
    while not g.over:
        act: Any = agent.choose(g, rng)
        assert act in g.legal_actions()
        g.apply(act)
    assert ENTRY.rules.turn is not None and ENTRY.rules.turn(g) == ROUNDS - 1
    assert ENTRY.ai.evaluate is not None and ENTRY.ai.evaluate(g, g.winner) == 100.0
    with pytest.raises(ValueError, match="unknown agent 'greedy' for High Card"):
        ENTRY.ai.make_agent("greedy")
