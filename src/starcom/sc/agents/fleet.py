"""Fleet moves: several ships jumping to one system as a single plan.

A one-step search judges one jump at a time, and a lone ship that jumps into a defended
system looks like a loss even when the whole fleet next door would win that fight together:
such a fleet sits beside the enemy homeworld for ever. The agents therefore also score
*fleet moves* (every ship that can reach a system jumping there, or those of one origin), judge
the position after all of them, and play the first jump. On the next decision the rest of the
move is again a candidate, and now looks better still, so the fleet goes in together.

Plans are lists of ``(vessel id, destination)``; :func:`play_plan` turns each step into a
legal jump of the moment, so nothing here bypasses the engine's rules.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..engine.actions import Action
from ..engine.game import Game
from .evaluation import settle

Plan = tuple[tuple[int, int], ...]

MIN_FLEET = 2  # ships in a fleet move (one ship is an ordinary jump)
MAX_PLANS = 12  # fleet moves offered per decision, the largest first


def best_jumps(actions: list[Action]) -> dict[tuple[int, int], Action]:
    """Per (ship, destination), the jump to play: exploring where there is a choice, and
    carrying as many fighters as a Carrier may."""
    best: dict[tuple[int, int], Action] = {}
    for a in actions:
        if a[0] != "jump":
            continue
        key = (a[1], a[2])
        old = best.get(key)
        if old is None or (a[4], a[3]) > (old[4], old[3]):
            best[key] = a
    return best


def fleet_plans(g: Game, actions: list[Action],
                jumps: dict[tuple[int, int], Action] | None = None) -> list[Plan]:
    """Fleet moves of ``g.to_move`` in a Command phase: for each destination, every ship that
    can jump there, and the ships of each origin that can; only moves of :data:`MIN_FLEET` or
    more ships, at most :data:`MAX_PLANS` of them (the largest), in a fixed order. ``jumps``:
    :func:`best_jumps` of ``actions``, if the caller has it."""
    if g.decision != "command":
        return []
    if jumps is None:
        jumps = best_jumps(actions)
    by_dest: dict[int, list[int]] = {}
    for vid, dest in jumps:
        by_dest.setdefault(dest, []).append(vid)
    plans: dict[Plan, None] = {}
    for dest, ships in sorted(by_dest.items()):
        if len(ships) >= MIN_FLEET:
            # The strongest ships first: should the move stop half way, the best are in.
            ships = sorted(ships, key=lambda vid: (-g.vessels[vid].d.attack, vid))
            plans[tuple((vid, dest) for vid in ships)] = None
            origins = {g.vessels[vid].pos for vid in ships}
            if len(origins) > 1:
                for pos in sorted(origins):
                    part = tuple((vid, dest) for vid in ships if g.vessels[vid].pos == pos)
                    if len(part) >= MIN_FLEET:
                        plans[part] = None
    return sorted(plans, key=lambda p: -len(p))[:MAX_PLANS]


def first_jump(g: Game, plan: Plan, actions: list[Action]) -> Action | None:
    """The legal jump that starts ``plan`` now, if any."""
    return best_jumps(actions).get(plan[0])


def play_plan(g: Game, plan: Plan, jumps: dict[tuple[int, int], Action] | None = None) -> None:
    """Play the jumps of ``plan`` on ``g`` (a copy) for as long as they are legal, letting the
    game run on between them (see :func:`~.evaluation.settle`). ``jumps``: :func:`best_jumps`
    of ``g``'s legal actions as it stands, if the caller has it (they are not listed again)."""
    me = g.to_move
    planned: dict[tuple[int, int], Action] = {}
    known = jumps  # the legal jumps of the position as it stands, while nothing has changed
    for step in plan:
        if g.over or g.to_move != me or g.decision != "command":
            return
        if known is not None:  # what listing the legal actions would find: no need to list
            planned.update(known)
            action = known.get(step)
            known = None
        else:
            # The jump chosen at the start usually stays legal: checking it is far cheaper
            # than listing every legal action (thousands, late in a game) after each jump.
            action = planned.get(step)
            if action is None or not g.is_legal(action):
                listed = best_jumps(g.legal_actions())
                planned.update(listed)
                action = listed.get(step)
        if action is None:
            continue
        g.apply_unchecked(action)
        settle(g)


def played_plans(game: Game, sample: Game, actions: list[Action]) -> Iterator[tuple[Action | None, Game]]:
    """For each of :func:`fleet_plans` of ``game`` in turn: the jump that starts it now
    (:func:`first_jump`) and a clone of ``sample`` (a determinization of ``game``) after
    :func:`play_plan`. The same as calling those one by one, but the jumps are worked out
    once, from ``actions`` (``game``'s legal actions): they are ``sample``'s too, since a
    player's legal actions never depend on what the player cannot see."""
    if game.decision != "command":
        return
    jumps = best_jumps(actions)
    plans = fleet_plans(game, actions, jumps)
    if not plans:
        return
    for plan in plans:
        h = sample.clone()
        play_plan(h, plan, jumps)
        yield jumps.get(plan[0]), h
