"""Star Commander's domain for the ISMCTS search (:mod:`.ismcts`), and the "hard" agent.

The search is guided by the heuristic player's judgement:

* it starts from the canonical form of the position (hidden cards in a fixed order,
  :func:`starcom.observer.canonical`);
* the root judges every action and every fleet move (:mod:`.fleet`, several ships jumping to
  one system as one choice); trade offers, scraps and wasteful actions are not searched
  (:func:`search_actions`), and late in a game the builds are sampled;
* the tree holds the searching player's own decisions for the rest of the current turn (the
  horizon is the turn number) and stops at the end of its Command phase; the other players
  answer by a quick script (:mod:`.playout`: they pass and decline, but fight back);
* at a leaf the rest of the turn is played out by that script for everyone, so the fights the
  player set up are fought, and the position is then evaluated, relative to the root's
  evaluation, and squashed into a reward in [0, 1].
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable, ClassVar, Final, Hashable

from ..cards.catalogue import DOMAINS
from ..engine import tasks as T
from ..engine.game import Game
from ..engine.view import card_options, known_cards
from ..observer import STARCOM as OBSERVER
from .evaluation import WIN, Weights, scores, win_chances
from .fleet import first_jump, fleet_plans, play_plan
from .heuristic import HEURISTIC, MAX_FIRST, candidate_pool
from ...agents.ismcts import Ismcts
from ...kit.rng import random_shuffle
from .playout import finish_turn, scripted

Action = Any  # a legal action (a typed tuple) or ("fleet", plan)

REWARD_SCALE: Final = 15.0  # evaluation difference that makes a win chance of 73% against 50%
UNSEARCHED: Final = frozenset({"offer", "scrap"})  # action kinds the tree never tries (see search_actions)
FLEET: Final = "fleet"  # root pseudo-action: ("fleet", plan), a fleet move played as one choice

# How likely each kind of action is to be tried next when a node widens: actions that score
# at once (developing, fighting) before moves and builds, ending and selling last.
WIDEN_WEIGHT: Final = {"develop": 8.0, "fight": 6.0, "assign": 6.0, "play": 3.0, "build": 3.0,
                "ability": 2.0, "jump": 2.0, "retreat": 2.0, "choose": 2.0}


def search_actions(g: Game) -> list[Action]:
    """The actions the search considers: all legal ones but trade offers (opening a trade is
    judged over several turns, beyond the horizon), scraps and :func:`wasteful` ones; an open
    trade draft is cancelled.

    Scrapping is left out because the evaluation cannot see what a ship will be worth in the
    fights to come: a deep search found that selling its fleet paid for developments, and lost
    its homeworld to the next attack."""
    actions = g.legal_actions()
    if g.decision == "trade_build" and ("cancel",) in actions:
        return [("cancel",)]
    # Every wasteful action is a scrap, so leaving the unsearched kinds out leaves them out too.
    kept = [a for a in actions if a[0] not in UNSEARCHED]
    return kept or actions


def names_hidden_cards(g: Game) -> bool:
    """Whether cards that may be hidden are also named outside the piles (a card choice, a
    queued card task, a trade): a determinization must then remap them (:func:`dealer` leaves
    such positions to the engine)."""
    return (g.trade is not None or (g.choice is not None and card_options(g.choice.kind))
            or any(isinstance(t, (T.Receive, T.Ask)) for t in g.tasks))


def dealer(g: Game, p: int) -> Callable[[random.Random], Game]:
    """A maker of determinizations of ``g`` for ``p``: each call gives what
    ``g.determinize(p, rng)`` gives (the same cards, the same draws from ``rng``), with the
    unknown cards of each domain, the face-down systems and the piles they are shuffled from
    worked out once instead of at every call. Positions whose hidden cards are also named
    elsewhere (a card choice, a queued card task, a trade), which the engine remaps after the
    deal, are dealt by the engine."""
    if names_hidden_cards(g):
        return lambda rng: g.determinize(p, rng)
    cards = g.rules.cards
    known = known_cards(g, p)
    # Per domain: the deck's length, the other hands' unknown slots (seat, index) after it, and
    # the cards in those places, in the engine's order.
    piles: list[tuple[int, int, list[tuple[int, int]], list[int]]] = []
    for d in range(len(DOMAINS)):
        hand_slots = [(q, i) for q in range(g.cfg.players) if q != p
                      for i, c in enumerate(g.hands[q]) if cards[c].domain_index == d and c not in known]
        old = list(g.decks[d]) + [g.hands[q][i] for q, i in hand_slots]
        piles.append((d, len(g.decks[d]), hand_slots, old))
    sys_slots = [i for i, s in enumerate(g.sites) if not s.face_up]
    pool_cards = [g.sites[i].card for i in sys_slots] + list(g.sysdeck)
    width = len(sys_slots)
    over = g.over

    def deal(rng: random.Random) -> Game:
        h = g.clone()
        for d, deck_len, hand_slots, old in piles:
            new = list(old)
            random_shuffle(new, rng)
            h.decks[d][:] = new[:deck_len]
            for (q, i), c in zip(hand_slots, new[deck_len:]):
                h.hands[q][i] = c
        pool = list(pool_cards)
        random_shuffle(pool, rng)
        sites = h.sites
        for i, cid in zip(sys_slots, pool):
            sites[i].set_card(cid, cards[cid])
        h.sysdeck = pool[width:]
        h.rng = rng.getrandbits(64)
        if not over:
            h.cfg = replace(h.cfg, seed=h.rng)
        return h

    return deal


def play_choice(g: Game, action: Action) -> None:
    """Apply a legal action, or every jump of a fleet move."""
    if action[0] == FLEET:
        play_plan(g, action[1])
    else:
        g.apply_unchecked(action)


class StarcomDomain:
    """What :class:`~.ismcts.Ismcts` needs to know about Star Commander (see the module
    docstring); ``weights`` is the evaluation's judgement."""

    # A player's legal actions never depend on what they cannot see (the table shows them), so
    # the root's playable choices are worked out once per search rather than per iteration.
    root_moves_visible = True

    def __init__(self, weights: Weights = HEURISTIC) -> None:
        self.weights = weights

    def canonical(self, game: Game, me: int) -> Game:
        return OBSERVER.canonical(game, me)

    def dealer(self, game: Game, me: int) -> Callable[[random.Random], Game]:
        return dealer(game, me)

    def forced(self, game: Game, actions: list[Action]) -> Action | None:
        # An open trade draft is always withdrawn: trades are judged beyond the horizon.
        return ("cancel",) if game.decision == "trade_build" and ("cancel",) in actions else None

    def evaluate(self, game: Game, me: int) -> float:
        return scores(game, self.weights)[me]

    def root_choices(self, game: Game, actions: list[Action], rng: random.Random) -> list[Action]:
        choices = search_actions(game) if len(actions) > 1 else actions
        if len(choices) > MAX_FIRST:  # thousands of builds late in a game: score a sample
            choices = candidate_pool(game, choices, None, MAX_FIRST, rng)
        # Fleet moves join the root as single choices (see agents/fleet.py): one jump at a
        # time, a fleet never finds the attack that only works with every ship in.
        choices += [(FLEET, plan) for plan in fleet_plans(game, actions)]
        return choices

    def choices(self, game: Game) -> list[Action]:
        return search_actions(game)

    def available(self, game: Game, choices: list[Action]) -> list[Action]:
        legal: list[Action] = game.legal_actions()
        jumps = {(a[1], a[2]) for a in legal if a[0] == "jump"}  # where a fleet move can start
        legal_set = set(legal)
        return [a for a in choices if a in legal_set or a[0] == FLEET and a[1][0] in jumps]

    def horizon(self, game: Game) -> Hashable:
        # The tree covers the rest of this turn only: the opponents' turns are judged by the
        # evaluation (threats, losses to come) rather than by guessing their hidden plans.
        return game.turn

    def stops(self, game: Game, choice: Action) -> bool:
        # Ending the Command phase: the script fights the turn's battles out (the player's own
        # combat decisions are searched only when a decision is taken inside combat).
        return choice == ("end",) and game.decision == "command"

    def play(self, game: Game, choice: Action) -> None:
        play_choice(game, choice)

    def reply(self, game: Game) -> None:
        scripted(game)

    def reward(self, game: Game, horizon: Hashable, me: int, baseline: float) -> float:
        """A position inside the searched turn is first played to the turn's end by the script
        (the searching player ending its phase there); one past it is judged as it stands. The
        evaluation is taken relative to the root's (``baseline``) before it is squashed:
        squashing absolute values made every move look alike (a win chance of 0.9999) once a
        player was far ahead, and a player far ahead then sat at home instead of finishing."""
        if game.turn == horizon:
            finish_turn(game)
        value = scores(game, self.weights)[me]
        if abs(value) >= WIN:
            return win_chances([value], REWARD_SCALE)[0]
        return win_chances([value - baseline], REWARD_SCALE)[0]

    def widen_weight(self, choice: Action) -> float:
        return WIDEN_WEIGHT.get(choice[0], 1.0)

    def resolve(self, game: Game, choice: Action, actions: list[Action], searched: list[Action],
                prior: dict[Action, float]) -> Action:
        if choice[0] != FLEET:
            return choice
        # Play the fleet move's first jump; the rest is chosen anew at the next decision.
        start = first_jump(game, choice[1], actions)
        if start is not None:
            return start
        return max((a for a in searched if a[0] != FLEET), key=lambda a: prior[a], default=actions[0])


class IsmctsAgent(Ismcts):
    """The "hard" player: ISMCTS over :class:`StarcomDomain` with the heuristic player's
    weights; budget by ``think`` seconds per decision, ``iterations``, or both."""

    weights: ClassVar[Weights] = HEURISTIC

    def __init__(self, think: float | None = 1.0, iterations: int | None = None) -> None:
        super().__init__(StarcomDomain(self.weights), think, iterations)


__all__ = ["FLEET", "REWARD_SCALE", "UNSEARCHED", "WIDEN_WEIGHT", "IsmctsAgent", "StarcomDomain",
           "dealer", "names_hidden_cards", "play_choice", "search_actions"]
