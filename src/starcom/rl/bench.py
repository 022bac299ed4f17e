"""How fast the AEC environment runs, against the raw engine in the same run (``starcom bench --rl``).

Both loops play random games of the same setting to the end, over and over: the engine loop
lists the legal actions and plays a random one; the environment loop calls ``last()`` (the
observation and action mask of the agent to move) and ``step`` with a random ID whose mask is
1, drawn from the legal IDs that ``last()``'s info lists. The wrapper's cost is the environment's time per step less the engine's.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

import numpy as np

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


def _engine(game: str, settings: Mapping[str, Any], seconds: float, steps: int | None, seed: int) -> tuple[int, float]:
    entry = games.get(game)
    rng = random.Random(seed)
    done, deal = 0, seed
    position = games.load_game(game, **settings, seed=deal)
    start = time.perf_counter()
    while (done < steps) if steps else (time.perf_counter() - start < seconds):
        if position.over:
            deal += 1
            position = games.load_game(game, **settings, seed=deal)
        entry.rules.play(position, rng.choice(position.legal_actions()))
        done += 1
    return done, time.perf_counter() - start


def _env(game: str, settings: Mapping[str, Any], seconds: float, steps: int | None, seed: int) -> tuple[int, float]:
    from .aec import StarcomAEC
    env = StarcomAEC(game=game, **{k: v for k, v in settings.items() if k in ("players", "size", "edition")})
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while (done < steps) if steps else (time.perf_counter() - start < seconds):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.reset()
            continue
        # A uniformly random ID among those whose mask is 1 (info lists them with their actions).
        legal = info["legal_actions"]
        env.step(legal[int(rng.integers(len(legal)))][0])
        done += 1
    return done, time.perf_counter() - start


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
        e_steps, e_secs = _engine(name, settings, seconds, steps, seed)
        a_steps, a_secs = _env(name, setup, seconds, steps, seed)
        out.append(RLBench(int(settings.get("players") or 0), int(settings.get("size") or 0), e_steps, e_secs,
                           a_steps, a_secs))
    return out


__all__ = ["RLBench", "bench_rl"]
