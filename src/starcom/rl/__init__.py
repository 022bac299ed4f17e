"""Learning environments for every registered game with features for learning agents
(``pip install 'starcom[rl]'``); ``game=NAME`` picks one, the default game otherwise.

- :func:`env`: a PettingZoo AEC environment, every seat an agent;
- :func:`gym_env`: a Gymnasium single-agent environment against built-in AIs chosen by name;
- the OpenSpiel games ``python_<name>`` (``python_starcom``, ``python_ge``), registered when this
  package is imported and ``pyspiel`` is installed (:func:`register_spiel` does it explicitly).

Observations are fixed-size vectors with an action mask; actions are stable IDs (the game's
features: its entry's ``tools.features``). See ``docs/rl.md``.
"""
from __future__ import annotations

from typing import Any

_HINT = "the RL environments need the rl extra: pip install 'starcom[rl]'"


def env(**config: Any) -> Any:
    """A PettingZoo AEC environment (see :mod:`starcom.rl.aec`)."""
    try:
        from .aec import env as make
    except ImportError as exc:
        raise ImportError(f"{_HINT} ({exc})") from exc
    return make(**config)


def raw_env(**config: Any) -> Any:
    """The AEC environment without PettingZoo's order-enforcing wrapper."""
    try:
        from .aec import StarcomAEC
    except ImportError as exc:
        raise ImportError(f"{_HINT} ({exc})") from exc
    return StarcomAEC(**config)


def gym_env(opponents: str | list[str] = "random", **config: Any) -> Any:
    """A Gymnasium environment: the learner takes seat ``seat`` (default 0) and the other seats
    are played by the built-in AIs named in ``opponents`` (one name for all, or one per seat)."""
    try:
        from .single import StarcomGym
    except ImportError as exc:
        raise ImportError(f"{_HINT} ({exc})") from exc
    return StarcomGym(opponents=opponents, **config)


def register_spiel() -> bool:
    """Register ``python_<name>`` of every game with features with OpenSpiel; False if
    ``pyspiel`` is not installed."""
    try:
        from . import spiel
    except ImportError:
        return False
    spiel.register()
    return True


register_spiel()

__all__ = ["env", "gym_env", "raw_env", "register_spiel"]
