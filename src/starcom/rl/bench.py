"""How fast the AEC environment runs, against the raw engine in the same run (``starcom bench --rl``).

Both loops play random games of the same setting to the end, over and over: the engine loop
lists the legal actions and plays a random one; the environment loop calls ``last()`` (the
observation and action mask of the agent to move) and ``step`` with a random ID whose mask is
1, drawn from the legal IDs that ``last()``'s info lists, with the same generator. They take
turns of a few hundred steps, so a machine whose load changes slows both alike. The wrapper's
cost is the environment's time per step less the engine's.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

from .. import games

ACTION_LIMIT = 3000  # the raw engine's games end here, as the environment's episodes are cut

@dataclass(frozen=True)
class RLBench:
    players: int
    size: int
    engine_steps: int
    engine_seconds: float
    env_steps: int
    env_seconds: float

    @property
    def engine_per_second(self) -> float:
        return self.engine_steps / self.engine_seconds

    @property
    def env_per_second(self) -> float:
        return self.env_steps / self.env_seconds

    @property
    def wrapper_cost(self) -> float:
        """The wrapper's own time per step, as a multiple of the raw engine step."""
        raw = self.engine_seconds / self.engine_steps
        return (self.env_seconds / self.env_steps - raw) / raw

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "size": self.size, "engine_steps_per_second": round(self.engine_per_second),
                "aec_steps_per_second": round(self.env_per_second), "wrapper_cost_x_engine": round(self.wrapper_cost, 2)}


class _Engine:
    """Random games through the engine alone: list the legal actions, play a random one."""

    def __init__(self, game: str, settings: Mapping[str, Any], seed: int) -> None:
        self.game, self.settings = game, dict(settings)
        self.entry = games.get(game)
        self.rng = random.Random(seed)
        self.deal = seed
        self.position = games.load_game(game, **self.settings, seed=seed)
        self.steps, self.seconds = 0, 0.0

    def run(self, steps: int) -> None:
        play, rng = self.entry.rules.play, self.rng
        position = self.position
        start = time.perf_counter()
        for _ in range(steps):
            if position.over:
                self.deal += 1
                position = games.load_game(self.game, **self.settings, seed=self.deal)
            play(position, rng.choice(position.legal_actions()))
        self.seconds += time.perf_counter() - start
        self.position = position
        self.steps += steps


class _Env:
    """Random games through the AEC environment: ``last()`` (the observation and action mask of
    the agent to move), then ``step`` with a uniformly random ID among those whose mask is 1
    (``last()``'s info lists them with their actions), drawn as the engine loop draws."""

    def __init__(self, game: str, settings: Mapping[str, Any], seed: int) -> None:
        from .aec import StarcomAEC
        self.env = StarcomAEC(game=game, **{k: v for k, v in settings.items() if k in ("players", "size", "edition")})
        self.rng = random.Random(seed)
        self.env.reset(seed=seed)
        self.steps, self.seconds = 0, 0.0

    def run(self, steps: int) -> None:
        env, rng = self.env, self.rng
        done = 0
        start = time.perf_counter()
        while done < steps:
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.reset()
                continue
            env.step(rng.choice(info["legal_actions"])[0])
            done += 1
        self.seconds += time.perf_counter() - start
        self.steps += done


_SLICE = 200  # steps per turn: the two loops take turns, so both see the same load


def _race(engine: _Engine, env: _Env, seconds: float, steps: int | None) -> None:
    """Run both loops by turns of :data:`_SLICE` steps, to ``steps`` each, or until each has
    run for ``seconds``."""
    while True:
        if steps is not None:
            left = steps - engine.steps
            if left <= 0:
                return
            engine.run(min(_SLICE, left))
            env.run(min(_SLICE, left))
        else:
            if engine.seconds >= seconds and env.seconds >= seconds:
                return
            if engine.seconds < seconds:
                engine.run(_SLICE)
            if env.seconds < seconds:
                env.run(_SLICE)


def bench_rl(seconds: float = 3.0, seed: int = 0, steps: int | None = None,
             game: str | None = None) -> list[RLBench]:
    """Engine and AEC steps per second for each of the benchmark setups of ``game`` (None: the
    default game; :func:`starcom.sim.bench.setups`, Star Commander's: 2 players on 3x3 and 4 on
    5x5), every game with a turn limit of 60 and, where the game takes one, an action limit of
    3000 (the environment's own truncation)."""
    from ..sim.bench import setups
    name = game if game is not None else games.default_game()
    entry = games.get(name)
    out = []
    for _, setup in setups(entry):
        settings = {**setup, **({"action_limit": ACTION_LIMIT} if "action_limit" in entry.rules.settings else {})}
        engine, env = _Engine(name, settings, seed), _Env(name, setup, seed)
        _race(engine, env, seconds, steps)
        out.append(RLBench(int(settings.get("players") or 0), int(settings.get("size") or 0), engine.steps,
                           engine.seconds, env.steps, env.seconds))
    return out


__all__ = ["RLBench", "bench_rl"]
