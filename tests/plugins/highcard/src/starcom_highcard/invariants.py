"""Facts every High Card position keeps, which self-play checks after each action (the entry's
``tools.invariants``). Each check returns messages; an empty list means all is well."""
from __future__ import annotations

from .game import ROUNDS, SWAP, Action, HighCard


def check_state(g: HighCard) -> list[str]:
    """Every card is in one place; the round, the seat to move and the end agree."""
    problems = []
    cards = [*g.hands, *g.deck]
    if sorted(cards) != list(range(1, len(cards) + 1)):
        problems.append(f"the hands {g.hands} and the deck {g.deck} do not hold the cards 1 to {len(cards)} once each")
    if len(g.hands) != g.players:
        problems.append(f"{len(g.hands)} hands for {g.players} players")
    if not 0 <= g.round <= ROUNDS:
        problems.append(f"round {g.round} is outside 0 to {ROUNDS}")
    if g.over != (g.round == ROUNDS):
        problems.append(f"over is {g.over} in round {g.round} of {ROUNDS}")
    if not 0 <= g.actor < g.players or (g.over and g.actor != 0):
        problems.append(f"seat {g.actor} is to act in a game of {g.players} (over: {g.over})")
    if g.over and g.returns().count(1.0) != 1:
        problems.append(f"a finished game without exactly one winner: returns {g.returns()}")
    return problems


def check_step(before: HighCard, action: Action, after: HighCard) -> list[str]:
    """Only the mover's card may change, and only by a swap with the top of the deck (the old
    card going under it); the turn passes to the next seat."""
    problems = []
    p = before.actor
    for q in range(before.players):
        if q != p and after.hands[q] != before.hands[q]:
            problems.append(f"P{q}'s card changed from {before.hands[q]} to {after.hands[q]} on P{p}'s {action[0]}")
    if tuple(action) == SWAP:
        if after.hands[p] != before.deck[0] or after.deck != [*before.deck[1:], before.hands[p]]:
            problems.append(f"P{p} swapped the {before.hands[p]} for the {after.hands[p]}, not for the top card "
                            f"{before.deck[0]} with the old card under the deck")
    elif after.hands[p] != before.hands[p] or after.deck != before.deck:
        problems.append(f"P{p} kept their card, yet the cards moved")
    if after.actor != (p + 1) % before.players:
        problems.append(f"after P{p}, P{after.actor} acts instead of P{(p + 1) % before.players}")
    return problems


__all__ = ["check_state", "check_step"]
