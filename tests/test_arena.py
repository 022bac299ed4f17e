"""The arena: schedule, determinism, the sign test, the Elo fit, the command and its errors."""
from __future__ import annotations

import dataclasses
import json
import math
import re
from collections import Counter
from itertools import combinations

import pytest
from typer.testing import CliRunner

from starcom.cli.main import app
from starcom.sc.entry import STARCOM
from starcom.sim import arena as A
from starcom.sim.ratings import ELO_MEAN, binomial_test, expected_score, fit_elo

runner = CliRunner()

# Cheap games: random and greedy agents, a short turn limit.
FAST = dict(players=2, size=3, edition="standard", turn_limit=10)


def flat(text: str) -> str:
    """Rich error panels wrap lines and draw boxes; compare messages on plain words."""
    return re.sub(r"[\s│╭╮╰╯─]+", " ", text)


def last_json(text: str) -> dict:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return json.loads(lines[-1])


# --------------------------------------------------------------------------- schedule


def test_two_player_round_robin_plays_every_pair_with_seats_rotated():
    spec = A.ArenaSpec(("a", "b", "c"), games=4, **FAST)
    matches = A.schedule(spec)
    assert [m.index for m in matches] == list(range(len(matches)))
    assert len(matches) == 3 * 4
    by_pair = Counter(frozenset(m.seats) for m in matches)
    assert by_pair == {frozenset(p): 4 for p in combinations("abc", 2)}
    for m in matches:
        first, second = sorted(m.seats, key="abc".index)
        g = m.index % 4  # game number within its pairing
        assert m.seats == ((first, second) if g % 2 == 0 else (second, first))
    # Each agent takes each seat equally often against each opponent.
    seats = Counter((m.seats[0], m.seats[1]) for m in matches)
    assert all(n == 2 for n in seats.values()) and len(seats) == 6


def test_each_deal_is_played_from_every_seat_and_shared_by_all_pairings():
    spec = A.ArenaSpec(("a", "b", "c"), games=6, seed=5, **FAST)
    matches = A.schedule(spec)
    for group in range(3):
        mine = [m for m in matches if m.group == group]
        for d in range(3):
            pair = [m for m in mine if m.deal == d]
            assert len(pair) == 2 and pair[0].config_seed == pair[1].config_seed
            assert pair[0].seats == tuple(reversed(pair[1].seats))
    deals = {m.deal: m.config_seed for m in matches}
    assert all(m.config_seed == deals[m.deal] for m in matches)
    assert len(set(deals.values())) == 3
    other = A.schedule(A.ArenaSpec(("a", "b", "c"), games=6, seed=6, **FAST))
    assert {m.config_seed for m in other}.isdisjoint(deals.values())


def test_multiplayer_schedule_uses_every_subset_and_rotates():
    spec = A.ArenaSpec(("a", "b", "c", "d"), games=3, players=3, size=4, turn_limit=10)
    matches = A.schedule(spec)
    assert len(matches) == 4 * 3
    assert Counter(frozenset(m.seats) for m in matches) == {frozenset(s): 3 for s in combinations("abcd", 3)}
    for group in range(4):
        mine = [m.seats for m in matches if m.group == group]
        lineup = mine[0]
        assert mine == [lineup[r:] + lineup[:r] for r in range(3)]
        assert all(Counter(seat) == Counter(lineup) for seat in zip(*mine))  # every agent in every seat


@pytest.mark.parametrize("agents,players", [(("a", "b"), 3), (("a", "b"), 4), (("a", "b", "c"), 4)])
def test_fewer_agents_than_seats_fills_seats_fairly(agents, players):
    n = len(agents)
    spec = A.ArenaSpec(agents, games=n * players, players=players, size=4, turn_limit=10)
    matches = A.schedule(spec)
    assert len(matches) == n * players
    for m in matches:
        assert len(m.seats) == players and set(m.seats) == set(agents)
    for s in range(players):
        counts = Counter(m.seats[s] for m in matches)
        assert len(set(counts.values())) == 1 and set(counts) == set(agents), (s, counts)
    total = Counter(a for m in matches for a in m.seats)
    assert len(set(total.values())) == 1


# --------------------------------------------------------------------------- playing


def small_spec(seed: int = 3, games: int = 4) -> A.ArenaSpec:
    return A.ArenaSpec(("random", "greedy"), games=games, seed=seed, **FAST)


def test_run_arena_is_deterministic_and_independent_of_workers():
    spec = small_spec()
    seen = []
    one = A.run_arena(spec, workers=1, on_game=seen.append)
    assert len(seen) == len(one.records) == 4
    again = A.run_arena(spec, workers=1)
    two = A.run_arena(spec, workers=2)
    assert one.records == again.records == two.records
    assert one.summary()["pairs"] == two.summary()["pairs"]
    assert one.summary()["elo"] == two.summary()["elo"]
    for rec, m in zip(one.records, A.schedule(spec), strict=True):
        assert rec.index == m.index and rec.seats == m.seats and rec.config_seed == m.config_seed
        assert rec.error is None and rec.winner in (-1, 0, 1) and 1 <= rec.turns <= 11


def test_a_game_replays_from_its_record():
    """The record's config seed and the agents' seeded generators reproduce the game."""
    from starcom.sc.agents import make_agent
    from starcom.sc.engine.game import Game
    spec = small_spec(seed=11, games=2)
    rec = A.run_arena(spec).records[1]
    game = Game.new(2, 3, "standard", rec.config_seed, spec.turn_limit)
    bots = [make_agent(a) for a in rec.seats]
    rngs = [A.agent_rng(spec.seed, rec.index, s) for s in range(2)]
    steps = 0
    while not game.over:
        game.apply(bots[game.to_move].choose(game, rngs[game.to_move]))
        steps += 1
    assert (game.winner, steps) == (rec.winner, rec.steps)


def test_pair_and_agent_tallies_follow_the_records():
    spec = A.ArenaSpec(("a", "b", "c"), games=1, players=3, size=3, turn_limit=10)
    recs = [A.GameRecord(0, 0, ("a", "b", "c"), 1, 0, 5, 9),   # a wins
            A.GameRecord(1, 0, ("b", "c", "a"), 1, 1, 5, 9),   # c wins
            A.GameRecord(2, 0, ("c", "a", "b"), 1, -1, 5, 9),  # draw
            A.GameRecord(3, 0, ("a", "b", "c"), 1, None, 5, 9, error="boom")]
    res = A.ArenaResult(spec, recs)
    pairs = {(p.a, p.b): (p.a_wins, p.b_wins, p.draws) for p in res.pairs()}
    assert pairs == {("a", "b"): (1, 0, 1), ("a", "c"): (1, 1, 1), ("b", "c"): (0, 1, 1)}
    agents = {r.name: (r.games, r.wins, r.draws, r.losses) for r in res.agent_results()}
    assert agents == {"a": (3, 1, 1, 1), "b": (3, 0, 1, 2), "c": (3, 1, 1, 1)}
    assert [r.index for r in res.errors] == [3]


def test_an_agent_that_raises_is_recorded_as_an_error(monkeypatch):
    class Broken:
        name = "broken"

        def choose(self, game, rng):
            raise RuntimeError("no idea")

    broken = dataclasses.replace(STARCOM, ai=dataclasses.replace(STARCOM.ai, make_agent=lambda name, **kw: Broken()))
    monkeypatch.setattr(A, "get_game", lambda name: broken)
    rec = A.play_match(small_spec(), A.schedule(small_spec())[0])
    assert rec.winner is None and not rec.finished and "RuntimeError: no idea" in rec.error


def test_runaway_games_are_cut_off_and_reported():
    spec = small_spec()
    match = A.schedule(spec)[0]
    stuck = A.play_match(spec, match, max_steps_per_turn=2)
    assert not stuck.finished and stuck.error.startswith("stuck: 2 actions in turn")
    long = A.play_match(spec, match, max_steps=5)
    assert not long.finished and long.error == "unfinished after 5 actions" and long.steps == 5
    assert A.play_match(spec, match).finished


# --------------------------------------------------------------------------- sign test


def brute_two_sided(k: int, n: int) -> float:
    """Sum of the probabilities of every outcome no more likely than the observed one."""
    probs = [math.comb(n, i) / 2 ** n for i in range(n + 1)]
    return min(1.0, sum(p for p in probs if p <= probs[k] * (1 + 1e-12)))


def test_binomial_test_known_values():
    assert binomial_test(10, 10) == pytest.approx(2 / 1024)
    assert binomial_test(0, 10) == pytest.approx(2 / 1024)
    assert binomial_test(5, 10) == 1.0
    assert binomial_test(0, 0) == 1.0
    assert binomial_test(1, 1) == 1.0
    assert binomial_test(3, 10) == pytest.approx(2 * (1 + 10 + 45 + 120) / 1024)
    assert binomial_test(60, 100) == pytest.approx(0.056887933640980, rel=1e-9)


@pytest.mark.parametrize("n", [1, 2, 7, 12, 25])
def test_binomial_test_matches_enumeration(n):
    for k in range(n + 1):
        assert binomial_test(k, n) == pytest.approx(brute_two_sided(k, n), rel=1e-12)
        assert binomial_test(k, n) == binomial_test(n - k, n)


def test_binomial_test_tiny_values_and_bad_input():
    p = binomial_test(1000, 1000)
    assert 0 < p == pytest.approx(2.0 ** -999, rel=1e-12)
    with pytest.raises(ValueError):
        binomial_test(4, 3)


# --------------------------------------------------------------------------- Elo


def score_gradient(fit, scores, names):
    """Actual minus expected score of each agent, the prior's virtual draws included."""
    out = {}
    for a in names:
        total = 0.0
        for b in names:
            if a == b:
                continue
            s_ab = scores.get((a, b), 0) + 0.5
            n_ab = s_ab + scores.get((b, a), 0) + 0.5
            total += s_ab - n_ab * expected_score(fit.ratings[a], fit.ratings[b])
        out[a] = total
    return out


def test_elo_two_agents_matches_the_closed_form():
    fit = fit_elo(["a", "b"], {("a", "b"): 70, ("b", "a"): 30})
    diff = fit.ratings["a"] - fit.ratings["b"]
    assert diff == pytest.approx(400 * math.log10(70.5 / 30.5), abs=1e-6)
    assert (fit.ratings["a"] + fit.ratings["b"]) / 2 == pytest.approx(ELO_MEAN)
    p = 70.5 / 101
    se_diff = 400 / math.log(10) / math.sqrt(101 * p * (1 - p))
    assert fit.stderr["a"] == pytest.approx(se_diff / 2, rel=1e-6)


def test_elo_orders_agents_and_satisfies_the_likelihood_equations():
    names = ["weak", "mid", "strong", "twin"]
    scores = {("strong", "mid"): 30, ("mid", "strong"): 10, ("mid", "weak"): 28, ("weak", "mid"): 12,
              ("strong", "weak"): 36, ("weak", "strong"): 4, ("twin", "strong"): 4, ("strong", "twin"): 36,
              ("twin", "mid"): 12, ("mid", "twin"): 28, ("twin", "weak"): 20, ("weak", "twin"): 20}
    fit = fit_elo(names, scores)
    r = fit.ratings
    assert r["strong"] > r["mid"] > r["weak"]
    assert r["twin"] == pytest.approx(r["weak"], abs=1e-6)  # same results against everyone
    assert sum(r.values()) / 4 == pytest.approx(ELO_MEAN)
    assert all(abs(g) < 1e-6 for g in score_gradient(fit, scores, names).values())
    assert fit.ranked()[0] == "strong"
    for n in names:
        lo, hi = fit.intervals[n]
        assert lo < r[n] < hi and hi - r[n] == pytest.approx(r[n] - lo)


def test_equal_agents_get_equal_ratings_and_more_games_narrow_the_interval():
    few = fit_elo(["x", "y"], {("x", "y"): 5, ("y", "x"): 5})
    many = fit_elo(["x", "y"], {("x", "y"): 500, ("y", "x"): 500})
    for fit in (few, many):
        assert fit.ratings["x"] == pytest.approx(ELO_MEAN) == fit.ratings["y"]
    assert many.stderr["x"] < few.stderr["x"] / 5


def test_elo_all_wins_is_finite():
    fit = fit_elo(["champ", "b", "c"], {("champ", "b"): 50, ("champ", "c"): 50, ("b", "c"): 10, ("c", "b"): 10})
    assert all(math.isfinite(v) for v in fit.ratings.values())
    assert all(math.isfinite(lo) and math.isfinite(hi) for lo, hi in fit.intervals.values())
    assert fit.ratings["champ"] > fit.ratings["b"] + 400
    with pytest.raises(ValueError):
        fit_elo(["only"], {})


# --------------------------------------------------------------------------- command


def test_cli_json_last_line_and_plot(tmp_path):
    plot = tmp_path / "out" / "ratings.png"
    args = ["arena", "--agents", "random,greedy", "--games", "4", "--turn-limit", "10", "--seed", "3",
            "--plot", str(plot), "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    data = last_json(res.stdout)
    assert len([ln for ln in res.stdout.splitlines() if ln.strip()]) == 1  # tables went to stderr
    assert "random" in res.stderr and "plot written to" in res.stderr
    assert data["games"] == 4 and data["errors"] == 0
    (pair,) = data["pairs"]
    assert (pair["a"], pair["b"]) == ("random", "greedy")
    assert all(isinstance(pair[k], int) for k in ("a_wins", "b_wins", "draws"))
    assert pair["a_wins"] + pair["b_wins"] + pair["draws"] == 4
    assert pair["p_value"] == pytest.approx(binomial_test(pair["a_wins"], pair["a_wins"] + pair["b_wins"]))
    assert set(data["elo"]) == {"random", "greedy"} and all(isinstance(v, float) for v in data["elo"].values())
    for name, (lo, hi) in data["elo_interval"].items():
        assert lo <= data["elo"][name] <= hi
    assert data["config"]["agents"] == ["random", "greedy"] and data["config"]["turn_limit"] == 10
    assert data["plot"] == str(plot)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 1000
    # Same seed, two workers: the same results.
    again = runner.invoke(app, args[:-3] + ["--no-plot", "--workers", "2", "--json"])
    assert again.exit_code == 0, again.output
    other = last_json(again.stdout)
    assert (other["pairs"], other["elo"], other["plot"]) == (data["pairs"], data["elo"], None)


def test_cli_log_gets_one_line_per_game_as_it_ends(tmp_path):
    log = tmp_path / "games.jsonl"
    log.write_text('{"earlier": "run"}\n')  # appended to, never truncated
    args = ["arena", "--agents", "random,greedy", "--games", "4", "--turn-limit", "10", "--seed", "3",
            "--no-plot", "--json", "--log", str(log)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    lines = [json.loads(ln) for ln in log.read_text().splitlines()]
    assert lines[0] == {"earlier": "run"}
    rows = sorted(lines[1:], key=lambda r: r["index"])
    summary = last_json(res.stdout)["results"]
    assert [{k: r[k] for k in summary[0]} for r in rows] == summary
    for r in rows:
        won = r["seats"][r["winner"]] if r["winner"] >= 0 else None
        assert r["winner_agent"] == won and r["seconds"] >= 0
    bad = runner.invoke(app, [*args[:-1], str(tmp_path / "missing" / "x.jsonl")])
    assert bad.exit_code == 2 and "cannot open" in flat(bad.stderr)


def test_cli_tables_and_svg_plot(tmp_path):
    plot = tmp_path / "r.svg"
    res = runner.invoke(app, ["arena", "--agents", "random,easy,greedy", "--games", "2", "--players", "3",
                              "--turn-limit", "6", "--plot", str(plot)])
    assert res.exit_code == 0, res.output
    out = flat(res.stdout)
    for words in ("win rate", "95% interval", "a wins", "p-value", "plot written to", "2 games"):
        assert words in out
    text = plot.read_text()
    assert "<svg" in text and "easy" in text


@pytest.mark.parametrize("args,words", [
    (["--agents", "random,bogus"], "unknown agent 'bogus'"),
    (["--agents", "random,hard@fast"], "unknown build 'fast' in agent 'hard@fast'"),
    (["--agents", "random,bogus@pure"], "unknown agent 'bogus@pure'"),
    (["--agents", "random"], "at least two agents"),
    (["--agents", "random,greedy,random"], "repeated: random"),
    (["--agents", "random,greedy", "--players", "5"], "players must be 2 to 4"),
    (["--agents", "random,greedy", "--size", "1"], "board size must be"),
    (["--agents", "random,greedy", "--edition", "deluxe"], "unknown edition"),
    (["--agents", "random,greedy", "--games", "0"], "at least one game"),
    (["--agents", "random,greedy", "--think", "0"], "above 0"),
    (["--agents", "random,greedy", "--iterations", "0"], "at least 1"),
    (["--agents", "random,greedy", "--workers", "0"], "at least 1"),
    (["--agents", "random,greedy", "--plot", "x.txt"], "must end in .png"),
])
def test_cli_rejects_bad_options(args, words, tmp_path):
    plot = [] if "--plot" in args else ["--plot", str(tmp_path / "arena.png")]
    res = runner.invoke(app, ["arena", *args, *plot, "--turn-limit", "4"])
    assert res.exit_code == 2
    assert words in flat(res.stderr)
    assert not (tmp_path / "arena.png").exists()


def test_every_agent_name_is_accepted():
    from starcom.sc.agents import agent_names
    spec = A.ArenaSpec(tuple(agent_names()), games=1, **FAST)
    spec.check()  # no ValueError
    assert len(A.schedule(spec)) == math.comb(len(agent_names()), 2)


def test_tiny_arena_with_the_search_agents():
    spec = A.ArenaSpec(("heuristic", "ismcts"), games=2, iterations=20, seed=1, players=2, size=3,
                       edition="standard", turn_limit=6)
    res = A.run_arena(spec)
    assert not res.errors, [r.error for r in res.errors]
    (pair,) = res.pairs()
    assert pair.games == 2
    assert set(res.summary()["elo"]) == {"heuristic", "ismcts"}


# --------------------------------------------------------------------------- agents in another build


def test_an_agent_thinks_in_the_build_it_names():
    """``random@pure`` is the random agent in a pure Python child process: the game it plays is
    the one an in-process random agent plays with the seeds the arena sends the child."""
    from starcom.agents.random_agent import RandomAgent
    from starcom.sc.agents import make_agent
    from starcom.sc.engine.game import Game
    from starcom.sim.crossbuild import BuildAgent
    spec = A.ArenaSpec(("random@pure", "greedy"), games=2, seed=4, **FAST)
    res = A.run_arena(spec)
    assert not res.errors, [r.error for r in res.errors]
    for rec in res.records:
        game = Game.new(2, 3, "standard", rec.config_seed, spec.turn_limit)
        rngs = [A.agent_rng(spec.seed, rec.index, s) for s in range(2)]
        remote = rec.seats.index("random@pure")
        steps = 0
        while not game.over:
            p = game.to_move
            if p == remote:  # what the child does with the seed it is sent
                action = RandomAgent().choose(game, __import__("random").Random(rngs[p].getrandbits(63)))
            else:
                action = make_agent("greedy").choose(game, rngs[p])
            game.apply(action, player=p)
            steps += 1
        assert (game.winner, steps) == (rec.winner, rec.steps)
    agent = BuildAgent("starcom", spec.settings(1), "random", "pure", [])
    try:
        assert agent.build == "pure"
    finally:
        agent.close()


def test_an_agent_in_another_build_that_fails_is_recorded_not_raised(monkeypatch):
    """A child that answers with an error (here: sent an action its copy of the game refuses)
    ends that game with the child's message; the arena goes on."""
    from starcom.sim import crossbuild
    real = crossbuild.BuildAgent.choose

    def forged(self, game, rng):
        self.history.append({"type": "jump", "vessel": 999, "to": 0})  # no such vessel
        return real(self, game, rng)

    monkeypatch.setattr(crossbuild.BuildAgent, "choose", forged)
    res = A.run_arena(A.ArenaSpec(("random@pure", "random"), games=2, seed=2, **FAST))
    assert len(res.errors) == 2
    assert all("child process failed" in r.error for r in res.errors)


def test_an_agent_can_run_another_checkout(tmp_path):
    """``--baseline``: the NAME@BUILD agents run the code of the checkout named (here this one,
    under another folder name), and a folder without starcom is refused before any game."""
    import os
    from pathlib import Path
    import starcom
    src = Path(starcom.__file__).resolve().parents[1]
    (tmp_path / "other").mkdir()
    os.symlink(src, tmp_path / "other" / "src")
    spec = A.ArenaSpec(("random@pure", "greedy"), games=2, seed=4, baseline=str(tmp_path / "other"), **FAST)
    same = A.ArenaSpec(("random@pure", "greedy"), games=2, seed=4, **FAST)
    assert [r.row() for r in A.run_arena(spec).records] == [r.row() for r in A.run_arena(same).records]
    from starcom.sim.crossbuild import BuildAgent
    agent = BuildAgent("starcom", spec.settings(1), "random", "pure", [], baseline=str(tmp_path / "other"))
    try:
        assert (agent.build, agent.source) == ("pure", str(tmp_path / "other" / "src"))
    finally:
        agent.close()
    with pytest.raises(ValueError, match="not a starcom checkout"):
        A.ArenaSpec(("random@pure", "greedy"), games=2, baseline=str(tmp_path), **FAST).check()
    with pytest.raises(ValueError, match="only used by agents named"):
        A.ArenaSpec(("random", "greedy"), games=2, baseline=str(tmp_path / "other"), **FAST).check()
