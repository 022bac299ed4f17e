"""Every view of a Galactic Empires game, at every step of random games, is JSON the clients
can read: what the browser table, spectators, replays and OpenSpiel's observation strings are
drawn from. (A volley on the reaction chain once broke the view: its link holds the weapons,
which an action's notation cannot write.)"""
from __future__ import annotations

import json
import random

import pytest

import starcom
from starcom.games import get

GE = get("ge")


@pytest.mark.parametrize("edition", ["full", "quick"])
def test_every_view_of_random_games_is_json(edition: str) -> None:
    links = set()
    for seed in range(6):
        g = starcom.load_game("ge", edition=edition, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            for viewer in (0, 1, None):
                v = GE.observer.view(g, viewer)
                assert json.loads(json.dumps(v)) == v
                for link in v["chain"]:
                    assert isinstance(link["action"], str) and link["action"].strip()
                    links.add(link["action"].split()[0])
            GE.rules.play(g, rng.choice(g.legal_actions()))
    assert "fire" in links, "random games should put a volley on the chain"


def test_a_volley_on_the_chain_is_written_with_its_weapons() -> None:
    for seed in range(40):
        g = starcom.load_game("ge", seed=seed)
        rng = random.Random(seed)
        while not g.over:
            fire = [i for i in g.s.chain if i.action[0] == "fire"]
            if fire:
                text = GE.observer.view(g, 0)["chain"][-1]["action"] if g.s.chain[-1].action[0] == "fire" else None
                if text:
                    assert text.startswith("fire ") and "(" in text and ("phaser" in text or "heavy" in text), text
                    return
            GE.rules.play(g, rng.choice(g.legal_actions()))
    pytest.fail("no volley reached the chain in 40 random games")
