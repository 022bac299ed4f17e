"""A trained policy as a computer player, so the arena (and everything that takes an agent by
name) can measure it. It sees what its seat may see: the same observation and action mask the
environments give."""
from __future__ import annotations

import random
from typing import Any

from .. import games
from ..protocol import Agent


class PolicyAgent:
    """Plays the legal action that ``model`` (an sb3-contrib MaskablePPO policy) favours: drawn
    with the arena's ``rng`` from the policy's probabilities (so games are reproducible and a
    policy cannot loop for ever on its favourite), or its most likely one if ``deterministic``."""

    def __init__(self, model: Any, name: str = "policy", deterministic: bool = False, game: str | None = None) -> None:
        self.model, self.name, self.deterministic = model, name, deterministic
        self.entry = games.get(game if game is not None else games.default_game())

    def choose(self, game: Any, rng: random.Random) -> Any:
        assert self.entry.tools.features is not None, "the game has an encoding for learning agents"
        features = self.entry.tools.features(game)
        seat = game.to_move
        legal = game.legal_actions()
        ids = features.action_ids(game, legal)
        import numpy as np
        import torch
        mask = np.zeros(features.action_count, dtype=bool)
        mask[[i for i in ids if i >= 0]] = True
        policy = self.model.policy
        obs, _ = policy.obs_to_tensor(features.observe(game, seat))
        with torch.no_grad():
            probs = policy.get_distribution(obs, action_masks=mask).distribution.probs[0].numpy()
        playable = [(a, float(probs[i])) for a, i in zip(legal, ids) if i >= 0]
        if self.deterministic:
            return max(playable, key=lambda ap: ap[1])[0]
        return rng.choices([a for a, _ in playable], [p for _, p in playable])[0]


def register_policy_agent(name: str, path: str, game: str | None = None) -> None:
    """Make ``name`` a computer player of ``game`` (None: :func:`starcom.games.default_game`)
    that plays the MaskablePPO policy saved at ``path``: in this process the game's registry
    entry is replaced by one whose ``ai.make_agent`` and ``ai.agent_names`` (``starcom arena``'s
    agent lists) know it too."""
    import dataclasses

    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load(path, device="cpu")
    game = game if game is not None else games.default_game()
    entry = games.get(game)
    policy = name

    def make(name: str, *, think: float | None = None, iterations: int | None = None) -> Agent:
        if name == policy:
            return PolicyAgent(model, policy, game=game)
        return entry.ai.make_agent(name, think=think, iterations=iterations)

    players = dataclasses.replace(entry.ai, make_agent=make, agent_names=lambda: [*entry.ai.agent_names(), policy])
    games.register(dataclasses.replace(entry, ai=players), replace=True)


__all__ = ["PolicyAgent", "register_policy_agent"]
