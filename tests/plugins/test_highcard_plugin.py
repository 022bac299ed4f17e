"""A third party's game needs no change to starcom: High Card, a separate package installed from
tests/plugins/highcard (scripts/setup.sh does it with the test tools), is found through its
``starcom.games`` entry point and played through every client: self-play, the arena, bot
matches, the RL environments and the terminal (the browser: tests/web/test_highcard.py). A
broken plug-in leaves the other games working and says why it is missing."""
from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import warnings
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import starcom
from starcom import games
from starcom.cli.main import app as cli
from starcom.tui.textplay import play_text

try:
    import starcom_highcard
    from starcom_highcard.game import ROUNDS, HighCard
except ModuleNotFoundError as exc:  # scripts/test.sh installs it; say how when it is missing
    raise ModuleNotFoundError(f"{exc}: install the test game first: pip install -e tests/plugins/highcard") from exc

NAME = "highcard"
GROUP = "starcom.games"
PLUGIN = Path(__file__).with_name("highcard")
runner = CliRunner()


def invoke(*args: str) -> Any:
    """Run ``starcom ARGS`` in this process; the result (its output includes stderr)."""
    return runner.invoke(cli, list(args), catch_exceptions=False)


def last_json(output: str) -> dict[str, Any]:
    """The JSON object a command printed as its last line."""
    return json.loads(output.strip().splitlines()[-1])


# --------------------------------------------------------------------------- discovery


def test_the_package_declares_its_game_under_the_entry_point_group() -> None:
    points = {p.name: p for p in entry_points(group=GROUP)}
    assert NAME in points, f"no {GROUP!r} entry point named {NAME!r}: is tests/plugins/highcard installed?"
    point = points[NAME]
    assert point.value == "starcom_highcard.entry:ENTRY"
    assert point.dist is not None and point.dist.name.replace("_", "-") == "starcom-highcard"
    # Installed from this checkout (editable), not a copy from somewhere else.
    assert Path(starcom_highcard.__file__).resolve().is_relative_to(PLUGIN.resolve())


def test_the_registry_loads_the_game_without_anyone_importing_it_first() -> None:
    """In a fresh interpreter, ``starcom.games.get`` finds High Card through the entry point
    alone: nothing imported the package before it was asked for."""
    code = ("import sys, starcom, starcom.games as games\n"
            "before = 'starcom_highcard' in sys.modules\n"
            "entry = games.get('highcard')\n"
            "print(before, entry.title, type(entry).__name__, games.list_games())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split(None, 3)[:3] == ["False", "High", "Card"]
    assert "GameEntry" in out.stdout and "'highcard'" in out.stdout


def test_starcom_itself_never_names_the_game() -> None:
    """No file of starcom (code, browser scripts, pages) mentions High Card: every client below
    plays it through the registry and the protocols only."""
    root = Path(starcom.__file__).parent
    named = [str(p.relative_to(root)) for p in sorted(root.rglob("*"))
             if p.is_file() and p.suffix in (".py", ".js", ".html", ".css", ".toml")
             and any(word in p.read_text("utf-8").lower() for word in ("highcard", "high card"))]
    assert named == []


def _fake_plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Install, besides the real games, three broken plug-ins: one whose module raises on import,
    one naming something that is not a GameEntry, one naming a module that does not exist; and
    make the registry discover again."""
    (tmp_path / "hc_test_broken_game.py").write_text('raise RuntimeError("its rules file is missing")\n')
    (tmp_path / "hc_test_not_a_game.py").write_text('ENTRY = {"name": "oops", "title": "Oops"}\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    for module in ("hc_test_broken_game", "hc_test_not_a_game"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    fakes = [EntryPoint("broken", "hc_test_broken_game:ENTRY", GROUP),
             EntryPoint("oops", "hc_test_not_a_game:ENTRY", GROUP),
             EntryPoint("gone", "hc_test_no_such_module:ENTRY", GROUP)]
    real = entry_points

    def patched(**select: Any) -> Any:
        found = list(real(**select))
        return [*found, *fakes] if select.get("group") == GROUP else found

    monkeypatch.setattr(games, "entry_points", patched)
    monkeypatch.setattr(games, "_REGISTRY", {})
    monkeypatch.setattr(games, "_BROKEN", {})
    monkeypatch.setattr(games, "_discovered", False)


def test_a_broken_plugin_leaves_the_other_games_working_and_says_why(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    _fake_plugins(monkeypatch, tmp_path)
    try:
        listed = games.list_games()
        assert {"ge", NAME, "starcom"} <= set(listed) and not {"broken", "oops", "gone"} & set(listed)
        with pytest.raises(ValueError, match=r"'broken' is installed but failed to load: RuntimeError: its rules "
                                             r"file is missing"):
            games.get("broken")
        with pytest.raises(ValueError, match=r"'oops' is installed but failed to load: TypeError: "
                                             r"hc_test_not_a_game:ENTRY is a dict, not a GameEntry"):
            games.get("oops")
        with pytest.raises(ValueError, match=r"'gone' is installed but failed to load: ModuleNotFoundError"):
            games.get("gone")
        with pytest.raises(ValueError, match=r"unknown game 'chess': choose one of .*\bhighcard\b") as err:
            games.get("chess")
        assert not any(name in str(err.value) for name in ("broken", "oops", "gone"))  # not offered
        # The working games still play, High Card to its end.
        g = games.load_game(NAME, players=3, seed=1)
        rng = random.Random(0)
        while not g.over:
            g.apply(rng.choice(g.legal_actions()))
        assert sorted(g.returns()) == [-1.0, -1.0, 1.0]
        sc = games.load_game("starcom", players=2, size=3, seed=1)
        sc.apply(sc.legal_actions()[0])
        assert games.load_game("ge", seed=1).to_move == 0
        # A client asked for the broken game says why on the command line.
        res = runner.invoke(cli, ["selfplay", "--game", "broken", "-n", "1"])
        assert res.exit_code == 2 and "failed to load" in res.output and "rules file is missing" in res.output
    finally:
        for module in ("hc_test_broken_game", "hc_test_not_a_game"):
            sys.modules.pop(module, None)


# --------------------------------------------------------------------------- self-play, arena, match


def test_selfplay_plays_high_card_and_checks_its_invariants(tmp_path: Path) -> None:
    res = invoke("selfplay", "--game", NAME, "-n", "6", "--players", "3", "--agents", "random,ismcts,hard",
                 "--seed", "4", "--json", "--save-dir", str(tmp_path))
    assert res.exit_code == 0, res.output
    s = last_json(res.output)
    assert s["games"] == s["finished"] == 6 and s["errors"] == 0 and s["invariant_violations"] == 0
    assert sum(s["wins"].values()) == 6 and s["draws"] == 0
    assert s["mean_turns"] == ROUNDS and s["endings"] == {"highest card": 6}
    # Each game was saved, and `starcom replay` reads it back with the game's own narrator.
    saved = sorted(tmp_path.glob("game-*.json"))
    assert len(saved) == 6 and json.loads(saved[0].read_text())["game"] == NAME
    res = invoke("replay", str(saved[0]))
    assert res.exit_code == 0, res.output
    assert "High Card" in res.output and "P2 is dealt the" in res.output and "Game over: P" in res.output


def test_selfplay_reports_a_broken_invariant(monkeypatch: pytest.MonkeyPatch) -> None:
    """The invariants really run: a game that loses a card on a swap is caught, exit code 1."""
    apply = HighCard.apply

    def losing(self: HighCard, action: Any, player: int | None = None) -> list[Any]:
        events = apply(self, action, player)
        if tuple(action) == ("swap",) and len(self.deck) > 1:
            self.deck.pop()  # the swapped-away card vanishes
        return events

    monkeypatch.setattr(HighCard, "apply", losing)
    res = invoke("selfplay", "--game", NAME, "-n", "3", "--seed", "1")
    assert res.exit_code == 1
    assert "do not hold the cards" in res.output


def test_the_arena_rates_high_cards_agents(tmp_path: Path) -> None:
    args = ("arena", "--game", NAME, "--agents", "random,ismcts", "--games", "6", "--iterations", "20", "--seed",
            "2", "--no-plot", "--json")
    res = invoke(*args)
    assert res.exit_code == 0, res.output
    out = last_json(res.output)
    assert out["config"]["game"] == NAME and out["finished"] == out["games"] > 0 and out["errors"] == 0
    assert set(out["agents"]) == {"random", "ismcts"}
    assert sum(a["wins"] for a in out["agents"].values()) == out["games"]  # High Card has no draws
    assert last_json(invoke(*args).output)["agents"] == out["agents"]  # seeded: the same again
    res = invoke("arena", "--game", NAME, "--agents", "random,greedy", "--no-plot")
    assert res.exit_code != 0 and "greedy" in res.output


def test_a_match_between_two_built_in_bots(tmp_path: Path) -> None:
    bot = f"{sys.executable} -m starcom.cli.main bot --game {NAME} --agent"
    res = invoke("match", "--game", NAME, "--engine", f"{bot} random", "--engine", f"{bot} hard", "--games", "2",
                 "--concurrency", "2", "--seed", "3", "--save", str(tmp_path), "--json")
    assert res.exit_code == 0, res.output
    out = last_json(res.output)
    assert out["match"]["game"] == NAME and out["games"] == 2
    assert [r["fault"] for r in out["results"]] == [None] * 2
    assert all(r["reason"] == "highest card" and r["turns"] == ROUNDS for r in out["results"])
    rows = {row["engine"]: row for row in out["engines"]}
    assert set(rows) == {"starcom-random", "starcom-hard"}
    assert all(row["illegal"] == 0 and row["forfeits"] == 0 for row in rows.values())
    assert sum(row["wins"] for row in rows.values()) == 2
    saved = sorted(tmp_path.glob("*.json"))
    assert len(saved) == 2 and all(json.loads(p.read_text())["game"] == NAME for p in saved)


# --------------------------------------------------------------------------- learning environments

def _rl() -> Any:
    pytest.importorskip("pettingzoo", reason="the RL environments need the rl extra: pip install 'starcom[rl]'")
    pytest.importorskip("gymnasium", reason="the RL environments need the rl extra: pip install 'starcom[rl]'")
    import starcom.rl
    return starcom.rl


@pytest.mark.parametrize("config", [dict(players=2, size=3), dict(players=4, size=6)], ids=["2p", "4p"])
def test_the_pettingzoo_and_gymnasium_checkers_pass(config: dict[str, int]) -> None:
    rl = _rl()
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice to use flat Box spaces: we give a dict with a mask
        api_test(rl.env(game=NAME, **config), num_cycles=200)
        seed_test(lambda: rl.env(game=NAME, **config), num_cycles=100)
        check_env(rl.gym_env(game=NAME, opponents="random", **config), skip_render_check=True)


def test_a_whole_aec_episode_gives_each_seat_its_return_and_hides_the_other_cards() -> None:
    rl = _rl()
    import numpy as np
    env = rl.env(game=NAME, players=3, size=4)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter(max_iter=1000):
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].tolist() == [1, 1]
        assert [env.unwrapped.action_label(i) for i, _ in info["legal_actions"]] == ["keep", "swap"]
        # What the agent sees is the same in every game it cannot tell from this one.
        twin = env.unwrapped.determinize(agent, seed=steps)
        assert np.array_equal(twin.observe(agent)["observation"], obs["observation"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    game = env.unwrapped.table.game
    assert game.over and steps == 3 * ROUNDS
    assert [totals[a] for a in env.possible_agents] == game.returns()


def test_a_gymnasium_learner_against_the_built_in_ai() -> None:
    rl = _rl()
    env = rl.gym_env(game=NAME, opponents=["normal", "easy"], players=3, seat="rotate")
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        done, reward = False, 0.0
        while not done:
            assert obs["action_mask"].tolist() == [1, 1]
            obs, reward, done, truncated, info = env.step(1)  # always swap
            assert not truncated
        assert reward in (-1.0, 1.0) and info["winner"] is not None
        assert (reward == 1.0) == (info["winner"] == env.seat)
    with pytest.raises(ValueError, match="unknown agent 'greedy' for High Card"):
        rl.gym_env(game=NAME, opponents="greedy")


def test_openspiel_plays_python_highcard() -> None:
    rl = _rl()
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open-spiel)")
    assert rl.register_spiel()
    assert "python_highcard" in pyspiel.registered_names()
    game = pyspiel.load_game("python_highcard", {"players": 3, "size": 5, "deals": 50})
    assert game.num_players() == 3 and game.num_distinct_actions() == 2
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 50
    state.apply_action(7)
    while not state.is_terminal():
        assert state.legal_actions() == [0, 1]
        assert len(state.observation_tensor(state.current_player())) == game.observation_tensor_size()
        state.apply_action(0)  # everyone keeps: the dealt cards decide
    dealt = HighCard.new(players=3, size=5, seed=7).hands  # outcome 7 deals the game of seed 7
    assert state.returns() == [1.0 if c == max(dealt) else -1.0 for c in dealt]


# --------------------------------------------------------------------------- the terminal


def test_play_in_plain_text_from_the_command_line() -> None:
    res = invoke("play", "--game", NAME, "--text", "--seats", "random,random,easy", "--players", "3", "--seed", "3")
    assert res.exit_code == 0, res.output
    assert "P2 is dealt a card" in res.output and "Game over: P" in res.output and " wins" in res.output
    res = runner.invoke(cli, ["play", "--game", NAME, "--players", "5", "--text"])
    assert res.exit_code != 0 and "2 to 4 players" in res.output


def test_a_human_plays_high_card_in_plain_text_and_sees_only_their_own_card() -> None:
    g = starcom.load_game(NAME, players=2, seed=6)
    own, hidden = f"P0 is dealt the {g.hands[0]}", f"P1 is dealt the {g.hands[1]}"
    out = io.StringIO()
    answers = iter(["fold", "keep", "swap"])
    final = play_text(games.get(NAME), g, ["human", "normal"], agent_seed=2, ask=lambda _prompt: next(answers),
                      write=out.write)
    text = out.getvalue()
    assert final.over and own in text
    assert "not one of the choices" in text and hidden not in text and "Game over" in text


def test_the_text_client_commands_work_for_a_game_without_the_new_hooks() -> None:
    """High Card fills none of the terminal hooks added for issue 30 (option, hand, status,
    irreversible, decision, glossary): the commands still answer, from its table or with a
    plain note, and the choices keep their numbers by the default decision (seat and turn)."""
    entry = games.get(NAME)
    assert entry.words.hand is None and entry.words.decision is None and entry.words.irreversible is None
    g = starcom.load_game(NAME, players=2, seed=6)
    out = io.StringIO()
    answers = iter(["help", "board", "hand", "card ace", "list", "1", "2", "1", "2", "1"])
    final = play_text(entry, g, ["human", "normal"], agent_seed=2, ask=lambda _prompt: next(answers),
                      write=out.write)
    text = out.getvalue()
    assert final.over and "Commands:" in text and f"{g.hands[0]}" in text
    assert "(this game shows hands on its table: type board)" in text
    assert "(this game has no card glossary)" in text
    assert "asks y/n first" not in text  # no game hook: nothing is ever asked


def test_play_opens_the_full_screen_game(monkeypatch: pytest.MonkeyPatch) -> None:
    from starcom.tui import GameApp
    started: list[Any] = []
    monkeypatch.setattr(GameApp, "run", lambda self, *a, **k: started.append(self))
    res = invoke("play", "--game", NAME, "--seed", "3", "--ai", "hard", "--players", "3")
    assert res.exit_code == 0, res.output
    assert started and started[-1].entry.name == NAME and started[-1].seats == ["human", "hard", "hard"]
    assert started[-1].game.players == 3 and started[-1].title == "High Card"


@pytest.mark.asyncio
async def test_a_human_plays_the_full_screen_game_by_keys_to_the_end() -> None:
    from rich.text import Text
    from textual.widgets import Static

    from starcom.tui import GameApp
    from starcom.tui.screens import GameOverScreen

    def shown(app: GameApp, selector: str) -> str:
        screen = app.screen if selector == "#result" else app.screen_stack[0]
        content = screen.query_one(selector, Static).content
        return content.plain if isinstance(content, Text) else str(content)

    game = starcom.load_game(NAME, players=2, seed=9)
    mine, theirs = game.hands
    app = GameApp(games.get(NAME), game, ["human", "random"], ai_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.title == "High Card"
        table = shown(app, "#table")
        assert f"P0 (you): the {mine}" in table and "P1: a hidden card" in table and f"the {theirs}" not in table
        assert len(app.listed) == 2
        for _ in range(400):
            if isinstance(app.screen, GameOverScreen):
                break
            if app._human_turn() and app.listed:
                await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, GameOverScreen) and app.errors == 0
        assert app.game.over and [s for s, _ in app.history].count(0) == ROUNDS
        result = shown(app, "#result")
        assert f"P{app.game.winner}" in result and "highest card" in result
