"""A plain-text client for any registered game: log lines, numbered choices, one answer a line.

It knows a game only through the seam (:mod:`starcom.protocol`, :mod:`starcom.games`): the
entry's narrator and ``describe`` put the game into words for the viewing seat (asking the
game's observer what that seat may see), its agents play the computer seats, and the game
checks every answer. The full-screen terminal game is :mod:`.game_app`.
"""
from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..games import GameEntry, Narrator

HUMAN = "human"


def play_text(entry: GameEntry[Any, Any], game: Any, seats: Sequence[str], agent_seed: int = 0,
              ask: Callable[[str], str] = input, write: Callable[[str], Any] | None = None) -> Any:
    """Play ``game`` (changed in place) to its end and return it. ``seats[p]`` is ``"human"``
    or an agent or level name of ``entry``. A human sees the log as their seat may know it
    (with several humans, each sees their own log when it is their turn) and answers with the
    number of a choice or its notation; anything else is refused and asked again. ``write``
    takes text with its own line ends (default: standard output, as it is at the call)."""
    if write is None:
        write = sys.stdout.write
    if len(seats) != game.players:
        raise ValueError(f"give one seat kind for each of the {game.players} players, not {len(seats)}")
    agents = {p: entry.ai.make_agent(k) for p, k in enumerate(seats) if k != HUMAN}
    rngs = {p: random.Random(f"text:{agent_seed}:{p}") for p in agents}
    humans = [p for p, k in enumerate(seats) if k == HUMAN]
    viewers: list[int | None] = list(humans) if humans else [None]
    narrators: dict[int | None, Narrator] = {v: entry.words.narrator(game, v, False) for v in viewers}
    unread: dict[int | None, list[str]] = {v: narrators[v].setup_lines(game) for v in viewers}

    def show(viewer: int | None) -> None:
        for line in unread[viewer]:
            write(line + "\n")
        unread[viewer] = []

    while not game.over:
        p = game.to_move
        if p in agents:
            action = agents[p].choose(game, rngs[p])
        else:
            show(p)
            action = _ask(entry, game, p, ask, write)
        events = game.apply(action, player=p)
        for v in viewers:
            unread[v] += narrators[v].step_lines(game, action, events)
        if len(viewers) == 1:
            show(viewers[0])
    for v in viewers[:1]:
        show(v)
    return game


def _ask(entry: GameEntry[Any, Any], game: Any, seat: int, ask: Callable[[str], str], write: Callable[[str], Any]) -> Any:
    """The legal action ``seat`` picks, by number or notation."""
    actions = game.legal_actions()
    for i, a in enumerate(actions, 1):
        write(f"  {i:>3}. {entry.words.describe(game, a, seat)}  [{game.notation(a)}]\n")
    while True:
        answer = ask(f"P{seat}> ").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(actions):
            return actions[int(answer) - 1]
        for a in actions:
            if game.notation(a) == answer:
                return a
        write(f"{answer!r} is not one of the choices: give its number (1-{len(actions)}) or its notation\n")


__all__ = ["HUMAN", "play_text"]
