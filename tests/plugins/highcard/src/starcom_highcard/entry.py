"""High Card's registry entry, :data:`ENTRY`: what starcom's clients know of the game. The
package's ``pyproject.toml`` names it under the ``starcom.games`` entry points, so
``starcom.games.get("highcard")`` finds it once the package is installed."""
from __future__ import annotations

from typing import Any

from starcom.games import GameEntry, Players, Rules, StateCheck, StepCheck, Tools, Words

from .agents import LEVELS, agent_names, evaluate, make_agent
from .features import features
from .game import NAME, ROUNDS, Action, HighCard
from .invariants import check_state, check_step
from .observer import OBSERVER
from .text import HighCardNarrator, describe, table

SETTINGS = ("players", "size", "edition", "seed", "turn_limit")


def encode(action: Action) -> dict[str, str]:
    """An action as the browser and the API send it: ``{"type": "keep"}``."""
    return {"type": action[0]}


def decode(game: HighCard, data: Any, seat: int | None) -> Action:
    """A legal action of ``seat`` from its JSON form (``{"type": ...}``, a list) or its
    notation; IllegalAction says why ``data`` is not one."""
    if isinstance(data, str):
        act: Any = game.parse(data)
    elif isinstance(data, dict):
        act = (data.get("type"),)
    else:
        act = data
    return game.check(act, seat)


def invariants() -> tuple[StateCheck, StepCheck]:
    return check_state, check_step


ENTRY: GameEntry[HighCard, Action] = GameEntry(
    name=NAME, title="High Card", observer=OBSERVER,
    rules=Rules(new=HighCard.new, settings=SETTINGS, encode=encode, decode=decode,
                turn=lambda g: min(g.round, ROUNDS - 1), winner=lambda g: g.winner,
                end_reason=lambda g: "highest card" if g.over else None, player_counts=(2, 3, 4), sizes=(3, 4, 5, 6)),
    words=Words(narrator=HighCardNarrator, describe=describe, table=table),
    ai=Players(make_agent=make_agent, agent_names=agent_names, levels=tuple(LEVELS), default_level="normal",
               evaluate=evaluate),
    tools=Tools(features=features, invariants=invariants),
)

__all__ = ["ENTRY", "SETTINGS", "decode", "encode", "invariants"]
