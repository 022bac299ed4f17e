"""The stable action IDs of :mod:`starcom.sc.features`: one meaning per ID, unique within a
decision, never an empty mask, and few legal actions left without an ID."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from starcom import games
from starcom.sc.features import Features

SETTINGS = [(2, 3, "standard"), (3, 4, "standard"), (4, 5, "standard"), (2, 3, "classic")]


def _decisions(players, size, edition, n_games, seed=0):
    rng = random.Random(seed)
    for k in range(n_games):
        game = games.load_game("starcom", players=players, size=size, edition=edition, seed=seed + k,
                               turn_limit=40, action_limit=1500)
        while not game.over:
            legal = game.legal_actions()
            yield game, legal
            game.apply(rng.choice(legal))


@pytest.mark.parametrize("players,size,edition", SETTINGS)
def test_ids_are_unique_in_range_and_cover_nearly_every_action(players, size, edition):
    features = None
    actions = without = decisions = 0
    missing = Counter()
    for game, legal in _decisions(players, size, edition, 12):
        features = features or games.get("starcom").tools.features(game)
        ids = features.action_ids(game, legal)
        given = [i for i in ids if i >= 0]
        assert len(given) == len(set(given)), "two legal actions share an ID"
        assert given and all(0 <= i < features.action_count for i in given)
        assert ids[0] >= 0  # the engine's first legal action always has one: a mask is never empty
        decisions += 1
        actions += len(ids)
        for a, i in zip(legal, ids):
            if i < 0:
                without += 1
                missing[a[0]] += 1
    assert decisions > 2000
    # Actions beyond their family's slots: only some card targets and damage splits (see docs/rl.md).
    print(f"{players}p {size}x{size} {edition}: {without} of {actions} legal actions ({without / actions:.1%}) "
          f"in {decisions} decisions have no ID: {dict(missing)}")
    assert without / actions < 0.06, (without, actions, missing)
    assert "end" not in missing and "pass" not in missing and "choose" not in missing


def test_an_id_means_the_same_in_every_game():
    meanings: dict[int, set[str]] = {}
    for game, legal in _decisions(2, 3, "standard", 6):
        features = games.get("starcom").tools.features(game)
        for a, i in zip(legal, features.action_ids(game, legal)):
            if a[0] == "build":  # a card type and a place: the same in every deal
                meanings.setdefault(i, set()).add(f"{game.rules.catalogue.defs[a[1]].name}@{a[2]}")
            if a[0] == "jump" and i >= 0:
                label = features.action_label(i)
                assert game.rules.cards[a[1]].name in label and f"explore={a[3]}" in label
    assert meanings and all(len(m) == 1 for m in meanings.values())


def test_action_labels_and_their_errors():
    game = games.load_game("starcom", players=2, size=3, seed=0)
    features = Features(game)
    labels = {features.action_label(i) for i in range(0, features.action_count, 97)}
    assert len(labels) == len(range(0, features.action_count, 97))
    for bad in (-1, features.action_count):
        with pytest.raises(ValueError, match="outside"):
            features.action_label(bad)
    assert games.get("starcom").tools.features(game) is games.get("starcom").tools.features(game.clone())


def test_observation_is_seat_relative():
    game = games.load_game("starcom", players=2, size=3, seed=4)
    features = Features(game)
    a, b = features.observe(game, 0), features.observe(game, 1)
    seats = slice(*[features.layout["seats"][0], features.layout["seats"][0] + 2 * features._seat_width])
    w = features._seat_width
    # Each seat sees itself first: seat 0's own block is seat 1's "next player" block.
    assert (a[seats][:w] == b[seats][w:]).all() and (a[seats][w:] == b[seats][:w]).all()
    assert a.shape == (features.observation_size,) and a.dtype.name == "float32"
