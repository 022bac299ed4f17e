"""What holding private decisions open costs a game: how many times a seat is passed for in a
decision its cards might have changed (the server waits the hold each time, docs/security.md,
"Decisions held open"), and how many passes are public (made at once).

Every seat is played by an agent of the game (greedy by default) in the engine alone; a seat
whose options are passes only is passed for, as the server would.

    .venv/bin/python scripts/measure_holds.py --game ge --games 20
    .venv/bin/python scripts/measure_holds.py --game starcom --games 10 --players 3
"""
from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

import starcom
from starcom.games import get as get_game
from starcom.server.adapter import adapter_for
from starcom.server.sessions import WINDOW_HOLD


def one_game(name: str, seed: int, agent: str, settings: dict[str, Any], cap: int) -> tuple[int, int, int]:
    """(held passes, public passes, steps) of one game played by ``agent`` at every seat."""
    entry, adapter = get_game(name), adapter_for(name)
    g = starcom.load_game(name, seed=seed, **settings)
    player, rng = entry.ai.make_agent(agent), random.Random(seed)
    held = public = steps = 0
    while not g.over and steps < cap:
        legal = g.legal_actions()
        if all(adapter.is_pass(a) for a in legal):
            if entry.observer.private_options(g, g.to_move):
                held += 1
            else:
                public += 1
            g.apply(next(a for a in legal if adapter.is_pass(a)))
        else:
            g.apply(player.choose(g, rng))
        steps += 1
    return held, public, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ge", help="a registered game (default ge)")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--players", type=int, default=None, help="players, where the game has a choice")
    parser.add_argument("--cap", type=int, default=3000, help="steps a game may last at most")
    args = parser.parse_args()
    settings: dict[str, Any] = {}
    if args.players is not None:
        settings["players"] = args.players
    if args.game == "starcom":
        settings.setdefault("players", 2)
        settings.update(size=3 if settings["players"] < 4 else 4, edition="standard", turn_limit=60)
    rows = [one_game(args.game, seed, args.agent, settings, args.cap) for seed in range(args.games)]
    held, public, steps = (sorted(col) for col in zip(*rows))
    print(f"{args.game} {settings or ''}: {args.games} games of {args.agent} self-play")
    print(f"  held passes a game: median {statistics.median(held)}, max {held[-1]} "
          f"(at {WINDOW_HOLD} s each: median {statistics.median(held) * WINDOW_HOLD:.1f} s a game)")
    print(f"  public passes a game: median {statistics.median(public)}; steps a game: median "
          f"{statistics.median(steps)}")


if __name__ == "__main__":
    main()
