"""The rules of High Card, as a :class:`starcom.protocol.Game`.

Each seat is dealt one hidden card from a shuffled deck of ``players + size + 1`` cards
numbered 1 and up. For :data:`ROUNDS` rounds, each seat in turn keeps its card or swaps it for
the top card of the deck (the old one goes face down under the deck). Then every card is shown
and the highest wins. Only a card's holder sees it; nobody sees the deck.

Actions are one-word tuples (:data:`KEEP`, :data:`SWAP`); events are tuples whose first word
says what happened: ``("deal", seat, card)``, ``("keep", seat)``, ``("swap", seat, old, new)``
and ``("show", seat, card)``.
"""
from __future__ import annotations

import random
from typing import Any, Self

from starcom.errors import IllegalAction

NAME = "highcard"
ROUNDS = 2
Action = tuple[str]
Event = tuple[Any, ...]
KEEP: Action = ("keep",)
SWAP: Action = ("swap",)
ACTIONS: tuple[Action, ...] = (KEEP, SWAP)
PLAYERS = range(2, 5)
SIZES = range(1, 9)  # cards in the deck besides the hands, less one
EDITIONS = ("standard",)
JSON_KEYS = ("players", "hands", "deck", "seed", "round", "actor", "over")


def deck_size(players: int, size: int) -> int:
    """How many cards a game of ``players`` seats and setting ``size`` is played with."""
    return players + size + 1


class HighCard:
    """One game of High Card: ``hands[seat]`` is each seat's card, ``deck`` the rest (top
    first), ``round`` counts the rounds played and ``actor`` is the seat deciding."""

    def __init__(self, players: int, hands: list[int], deck: list[int], seed: int) -> None:
        self.players, self.hands, self.deck, self.seed = players, hands, deck, seed
        self.round, self.actor, self.over = 0, 0, False
        self.events: list[Event] = [("deal", p, c) for p, c in enumerate(hands)]

    @classmethod
    def new(cls, players: int = 2, size: int = 3, edition: str = "standard", seed: int = 0,
            turn_limit: int | None = None) -> HighCard:
        """A shuffled deal; ValueError names a setting out of range. ``turn_limit`` is taken
        because clients pass one to every game; the game always lasts :data:`ROUNDS` rounds."""
        if type(players) is not int or players not in PLAYERS:
            raise ValueError(f"players: High Card takes 2 to 4 players, not {players!r}")
        if type(size) is not int or size not in SIZES:
            raise ValueError(f"size: High Card takes a size of 1 to 8, not {size!r}")
        if edition not in EDITIONS:
            raise ValueError(f"edition: High Card has the {EDITIONS[0]} edition only, not {edition!r}")
        if type(seed) is not int:
            raise ValueError(f"seed: a whole number, not {seed!r}")
        cards = list(range(1, deck_size(players, size) + 1))
        random.Random(seed).shuffle(cards)
        return cls(players, cards[:players], cards[players:], seed)

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.actor

    @property
    def winner(self) -> int | None:
        """The seat holding the highest card once the game is over (cards are all different)."""
        return self.hands.index(max(self.hands)) if self.over else None

    def legal_actions(self) -> list[Action]:
        return [] if self.over else list(ACTIONS)

    def check(self, action: Any, player: int | None = None) -> Action:
        """``action`` as a legal action of ``player`` (None: the seat to move), from a tuple or a
        list; IllegalAction says why it is not one."""
        act = tuple(action) if isinstance(action, (list, tuple)) else action
        if self.over:
            raise IllegalAction("the game is over: nothing is a legal action now", action)
        if player is not None and player != self.actor:
            raise IllegalAction(f"it is P{self.actor}'s turn, not P{player}'s: not a legal action of "
                                f"seat {player} now", action)
        for legal in ACTIONS:
            if act == legal:
                return legal
        raise IllegalAction("not a legal action of High Card: keep or swap", action)

    def apply(self, action: Any, player: int | None = None) -> list[Event]:
        """Play ``action`` for the seat to move (see :meth:`check`); the events it caused."""
        act = self.check(action, player)
        p = self.actor
        self.events = [("keep", p)]
        if act == SWAP:
            old, self.hands[p] = self.hands[p], self.deck.pop(0)
            self.deck.append(old)
            self.events = [("swap", p, old, self.hands[p])]
        self.actor = (p + 1) % self.players
        if self.actor == 0:
            self.round += 1
            if self.round == ROUNDS:
                self.over = True
                self.events += [("show", q, c) for q, c in enumerate(self.hands)]
        return self.events

    def clone(self) -> Self:
        other = type(self)(self.players, list(self.hands), list(self.deck), self.seed)
        other.round, other.actor, other.over, other.events = self.round, self.actor, self.over, []
        return other

    def view(self, player: int | None) -> dict[str, Any]:
        from .observer import OBSERVER  # the observer decides every secret, the game's own view too
        return OBSERVER.view(self, player)

    def determinize(self, player: int, rng: random.Random) -> Self:
        """The other hands and the deck dealt again from the cards ``player`` has not seen."""
        h = self.clone()
        unseen = [c for q, c in enumerate(h.hands) if q != player] + h.deck
        rng.shuffle(unseen)
        for q in range(h.players):
            if q != player:
                h.hands[q] = unseen.pop(0)
        h.deck = unseen
        h.seed = rng.getrandbits(32)
        return h

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.players
        best = max(self.hands)
        return [1.0 if c == best else -1.0 for c in self.hands]

    def notation(self, action: Action) -> str:
        return str(action[0])

    def parse(self, text: str) -> Action:
        for legal in ACTIONS:
            if text == legal[0]:
                return legal
        raise IllegalAction(f"no High Card action is written {text!r}: write keep or swap")

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "hands": self.hands, "deck": self.deck, "seed": self.seed,
                "round": self.round, "actor": self.actor, "over": self.over}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """The position :meth:`to_json` saved; ValueError names the first thing wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"a High Card position is a JSON object, not {type(data).__name__}")
        missing = [k for k in JSON_KEYS if k not in data]
        if missing:
            raise ValueError(f"a High Card position needs {', '.join(missing)}")
        players, hands, deck = data["players"], data["hands"], data["deck"]
        if type(players) is not int or players not in PLAYERS:
            raise ValueError(f"players: 2 to 4, not {players!r}")
        if not isinstance(hands, list) or len(hands) != players or not isinstance(deck, list):
            raise ValueError(f"hands: one card per seat ({players}), and deck: a list of cards")
        cards = [*hands, *deck]
        if not all(type(c) is int for c in cards) or sorted(cards) != list(range(1, len(cards) + 1)):
            raise ValueError(f"the hands and the deck must hold the cards 1 to {len(cards)} once each")
        rnd, actor, over = data["round"], data["actor"], data["over"]
        if type(over) is not bool or type(rnd) is not int or not 0 <= rnd <= ROUNDS or (rnd == ROUNDS) != over:
            raise ValueError(f"round {rnd!r} and over {over!r} do not fit a game of {ROUNDS} rounds")
        if type(actor) is not int or not 0 <= actor < players or (over and actor != 0):
            raise ValueError(f"actor: a seat of 0 to {players - 1}, not {actor!r}")
        if type(data["seed"]) is not int:
            raise ValueError(f"seed: a whole number, not {data['seed']!r}")
        g = cls(players, list(hands), list(deck), data["seed"])
        g.round, g.actor, g.over, g.events = rnd, actor, over, []
        return g


__all__ = ["ACTIONS", "EDITIONS", "KEEP", "NAME", "PLAYERS", "ROUNDS", "SIZES", "SWAP", "Action", "Event",
           "HighCard", "deck_size"]
