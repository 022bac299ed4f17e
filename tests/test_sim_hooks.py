"""Self-play and the benches ask a game's entry what differs per game (its tools.ending,
ending_figures and bench_setups); a game that fills none of them still gets every figure."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from starcom import games
from starcom.sim import bench
from starcom.sim.selfplay import run_selfplay, run_settings

PLAIN = "ge-plain"  # Galactic Empires with no self-play hooks and no words for its endings


@pytest.fixture
def plain() -> Iterator[games.GameEntry]:
    ge = games.get("ge")
    entry = dataclasses.replace(
        ge, name=PLAIN, rules=dataclasses.replace(ge.rules, end_reason=lambda g: None),
        tools=dataclasses.replace(ge.tools, ending=None, ending_figures=None, bench_setups=()))
    games.register(entry)
    yield entry
    games.unregister(PLAIN)


def test_a_game_without_ending_hooks_counts_wins_and_draws(plain: games.GameEntry) -> None:
    seen = []
    stats = run_selfplay(3, seed=2, agents=["greedy"], turn_limit=40, game=PLAIN, on_game=seen.append)
    s = stats.summary()
    assert set(s["endings"]) <= {"win", "draw", "action_cap"} and sum(s["endings"].values()) == 3
    assert s["endings"].get("win", 0) == sum(1 for o in seen if o.winner is not None and o.winner >= 0)
    assert "conquests" not in s


def test_star_commanders_endings_are_its_own_figures() -> None:
    s = run_selfplay(2, seed=300, agents=["greedy"], turn_limit=4, check_invariants=False).summary()
    assert "endings" not in s and s["conquests"] + s["turn_limit_wins"] + s["draws"] + s["action_caps"] == 2


def test_settings_left_out_are_the_games_first() -> None:
    sc, ge = games.get("starcom"), games.get("ge")
    assert run_settings(sc, seed=5) == {"players": 2, "size": 3, "edition": "standard", "seed": 5,
                                        "turn_limit": None}
    assert run_settings(ge, size=4, seed=5, turn_limit=30) == {"players": 2, "edition": "full", "seed": 5,
                                                               "turn_limit": 30}
    given = run_selfplay(2, players=2, size=3, edition="standard", seed=3, agents=["greedy"], turn_limit=8,
                         game="starcom").summary()
    default = run_selfplay(2, seed=3, agents=["greedy"], turn_limit=8).summary()
    given.pop("steps_per_second"), default.pop("steps_per_second")
    assert given == default


def test_the_benches_measure_each_setup_of_any_game(plain: games.GameEntry) -> None:
    assert [label for label, _ in bench.setups(games.get("starcom"))] == ["2p3", "4p5"]
    assert [(label, s["edition"]) for label, s in bench.setups(plain)] == [("full", "full"), ("quick", "quick")]
    summary, measured, _ = bench.bench(max_steps=200, anchor=False, game=PLAIN)
    assert set(summary) == {"build", "steps_per_second_full", "steps_per_second_quick", "ratio"}
    assert summary["build"] in ("compiled", "pure")  # which build of the rules ran (docs/build.md)
    assert [m.steps for m in measured] == [200, 200] and all(m.players == 2 for m in measured)
    summary, measured, _ = bench.bench(max_steps=200, anchor=False)
    assert {"build", "steps_per_second_2p3", "steps_per_second_4p5", "ratio"} == set(summary)
    assert [(m.players, m.size) for m in measured] == [(2, 3), (4, 5)]
    found, searched = bench.bench_search(iterations=3)
    assert set(found) == {"ismcts_iterations_per_second_2p3", "ismcts_iterations_per_second_4p5"}
    # the positions of greedy play, as before the bench asked the entry (some decisions end early)
    assert [(m.players, m.size, m.iterations) for m in searched] == [(2, 3, 36), (4, 5, 30)]
    m = bench.measure_search(PLAIN, {"edition": "quick"}, decisions=2, iterations=3)
    assert m.decisions == 2 and m.iterations >= 2 and m.seconds > 0  # the generic search counts its own way


def test_the_search_bench_names_a_game_without_a_search_agent(plain: games.GameEntry) -> None:
    ai = dataclasses.replace(plain.ai, agent_names=lambda: ["random"])
    games.register(dataclasses.replace(plain, ai=ai), replace=True)
    with pytest.raises(ValueError, match=r"Galactic Empires has no 'ismcts' agent to measure; its agents: random"):
        bench.measure_search(PLAIN, {}, decisions=1, iterations=1)
