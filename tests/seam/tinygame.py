"""High Card: a tiny second game, registered to prove that clients need only the seam.

Each seat is dealt one hidden card from a shuffled deck of ``players + size + 1`` cards
numbered 1 and up. For :data:`ROUNDS` rounds, each seat in turn keeps its card or swaps it for
the top card of the deck (the old one goes face down under the deck). Then every card is shown
and the highest wins. Only a card's holder sees it; nobody sees the deck.

Nothing here imports Star Commander: the game, its observer, its narrator and its search
domain are written against :mod:`starcom.protocol` and registered in :mod:`starcom.games`.
"""
from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Self

from starcom.agents.ismcts import Ismcts
from starcom.agents.random_agent import RandomAgent
from starcom.games import GameEntry, Players, Rules, Words, register
from starcom.observer import canonical
from starcom.protocol import Agent, Viewer

NAME = "highcard"
ROUNDS = 2
ACTIONS = (("keep",), ("swap",))


class Refused(ValueError):
    """An action High Card does not allow now."""


class HighCard:
    """One game of High Card (the :class:`starcom.protocol.Game` protocol)."""

    def __init__(self, players: int, hands: list[int], deck: list[int], seed: int) -> None:
        self.players, self.hands, self.deck, self.seed = players, hands, deck, seed
        self.round, self.actor, self.over = 0, 0, False
        self.events: list[tuple[Any, ...]] = [("deal", p, c) for p, c in enumerate(hands)]

    @classmethod
    def new(cls, players: int = 2, size: int = 3, edition: str = "standard", seed: int = 0,
            turn_limit: int | None = None) -> HighCard:
        """A shuffled deal (``turn_limit`` is taken for the server's sake and has no effect)."""
        if not 2 <= players <= 4 or not 1 <= size <= 8 or edition != "standard":
            raise ValueError(f"High Card takes 2-4 players, size 1-8, edition standard; not "
                             f"{players}, {size}, {edition!r}")
        cards = list(range(1, players + size + 2))
        random.Random(seed).shuffle(cards)
        return cls(players, cards[:players], cards[players:], seed)

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.actor

    def legal_actions(self) -> list[Any]:
        return [] if self.over else list(ACTIONS)

    def apply(self, action: Any, player: int | None = None) -> list[Any]:
        act = tuple(action) if isinstance(action, (list, tuple)) else action
        if self.over or act not in ACTIONS or player not in (None, self.actor):
            raise Refused(f"{action!r} is not a legal action of seat {player} now")
        p = self.actor
        self.events = [("keep", p)]
        if act == ("swap",):
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

    def notation(self, action: Any) -> str:
        return str(action[0])

    def parse(self, text: str) -> Any:
        if (text,) not in ACTIONS:
            raise Refused(f"no High Card action is written {text!r}")
        return (text,)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "hands": self.hands, "deck": self.deck, "seed": self.seed,
                "round": self.round, "actor": self.actor, "over": self.over}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        g = cls(data["players"], list(data["hands"]), list(data["deck"]), data["seed"])
        g.round, g.actor, g.over, g.events = data["round"], data["actor"], data["over"], []
        return g


class HighCardObserver:
    """What each viewer may see: their own card, and every card once the game is over."""

    def view(self, game: HighCard, viewer: Viewer) -> dict[str, Any]:
        return {"viewer": viewer, "to_move": game.to_move, "round": game.round, "over": game.over,
                "deck": len(game.deck), "winner": winner(game),
                "hands": [c if game.over or q == viewer else None for q, c in enumerate(game.hands)]}

    def event(self, event: Any, viewer: Viewer) -> Any:
        if event[0] in ("deal", "swap") and event[1] != viewer:
            return (event[0], event[1], *(None for _ in event[2:]))
        return event

    def action(self, game: Any, action: Any, viewer: Viewer) -> Any:
        return action  # keeping or swapping is done in the open

    def chance_mark(self, game: Any) -> Hashable:
        return 0  # no chance after the deal

    def reveals(self, events: Sequence[Any], mark_before: Hashable, mark_after: Hashable) -> bool:
        return any(e[0] in ("swap", "show") for e in events)  # a swap shows its seat a new card

    def canonical(self, game: Any, seat: int) -> Any:
        return canonical(game, seat)

    def private_options(self, game: Any, seat: int) -> bool:
        return False  # keep or swap, whatever the card: the options are public


OBSERVER = HighCardObserver()


def winner(game: HighCard) -> int | None:
    return game.hands.index(max(game.hands)) if game.over else None


class HighCardNarrator:
    """English lines for one viewer, through the observer."""

    def __init__(self, game: HighCard, viewer: Viewer, reveal_all: bool = False) -> None:
        self.viewer, self.reveal_all = viewer, reveal_all

    def setup_lines(self, game: HighCard) -> list[str]:
        return self.step_lines(game, None, game.events)

    def step_lines(self, after: Any, action: Any, events: Sequence[Any], before: Any = None) -> list[str]:
        lines = []
        for e in events:
            e = e if self.reveal_all else OBSERVER.event(e, self.viewer)
            card = "a card" if len(e) < 3 or e[2] is None else f"the {e[2]}"
            if e[0] == "deal":
                lines.append(f"P{e[1]} is dealt {card}")
            elif e[0] == "keep":
                lines.append(f"P{e[1]} keeps their card")
            elif e[0] == "swap":
                lines.append(f"P{e[1]} swaps {card}" + ("" if e[3] is None else f" for the {e[3]}"))
            elif e[0] == "show":
                lines.append(f"P{e[1]} shows the {e[2]}")
        if after.over and events and events[-1][0] == "show":
            lines.append(f"Game over: P{winner(after)} wins")
        return lines


def describe(game: Any, action: Any, viewer: Viewer) -> str:
    return f"P{game.to_move} {'keeps' if action == ('keep',) else 'swaps'} their card"


class HighCardDomain:
    """High Card for the ISMCTS search: the tree runs to the end of the game; the others keep a
    card above the middle and swap the rest; a leaf is played out that way and scored."""

    def canonical(self, game: HighCard, me: int) -> HighCard:
        return OBSERVER.canonical(game, me)

    def forced(self, game: Any, actions: list[Any]) -> Any:
        return None

    def evaluate(self, game: HighCard, me: int) -> float:
        return float(game.hands[me])

    def root_choices(self, game: Any, actions: list[Any], rng: random.Random) -> list[Any]:
        return list(actions)

    def choices(self, game: HighCard) -> list[Any]:
        return game.legal_actions()

    def available(self, game: HighCard, choices: list[Any]) -> list[Any]:
        return [a for a in choices if a in game.legal_actions()]

    def horizon(self, game: Any) -> Hashable:
        return 0

    def stops(self, game: Any, choice: Any) -> bool:
        return False

    def play(self, game: HighCard, choice: Any) -> None:
        game.apply(choice)

    def reply(self, game: HighCard) -> None:
        middle = (game.players + len(game.deck) + 1) / 2
        game.apply(("keep",) if game.hands[game.actor] > middle else ("swap",))

    def reward(self, game: HighCard, horizon: Hashable, me: int, baseline: float) -> float:
        while not game.over:
            self.reply(game)
        return (game.returns()[me] + 1) / 2

    def widen_weight(self, choice: Any) -> float:
        return 1.0

    def resolve(self, game: Any, choice: Any, actions: list[Any], searched: list[Any],
                prior: dict[Any, float]) -> Any:
        return choice


LEVELS = {"easy": "random", "normal": "ismcts", "hard": "ismcts"}


def make_agent(name: str, *, think: float | None = None, iterations: int | None = None) -> Agent:
    kind = LEVELS.get(name, name)
    if kind == "random":
        return RandomAgent()
    if kind == "ismcts":
        return Ismcts(HighCardDomain(), think=think, iterations=iterations or (200 if name == "hard" else 40))
    raise ValueError(f"unknown agent {name!r} for High Card: choose one of {', '.join(agent_names())}")


def agent_names() -> list[str]:
    return ["ismcts", "random", *LEVELS]


def decode(game: HighCard, data: Any, seat: int | None) -> Any:
    act = (data.get("type"),) if isinstance(data, dict) else tuple(data) if isinstance(data, list) else data
    if act not in game.legal_actions() or seat not in (None, game.to_move):
        raise Refused(f"{data!r} is not a legal action of seat {seat} now")
    return act


ENTRY = GameEntry(
    name=NAME, title="High Card", observer=OBSERVER,
    rules=Rules(new=HighCard.new, settings=("players", "size", "edition", "seed", "turn_limit"),
                encode=lambda a: {"type": a[0]}, decode=decode, turn=lambda g: min(g.round, ROUNDS - 1),
                player_counts=(2, 3, 4), sizes=(3, 4, 5, 6)),
    words=Words(narrator=HighCardNarrator, describe=describe),
    ai=Players(make_agent=make_agent, agent_names=agent_names, levels=tuple(LEVELS), default_level="normal"),
)
register(ENTRY, replace=True)
