"""The public face of the engine: :class:`Game`.

>>> g = Game.new(players=2, size=3, seed=1)
>>> while not g.over:
...     g.apply(g.legal_actions()[0])
"""
from __future__ import annotations

import random
from functools import cache
from typing import Any, Iterable, Self

from ..cards import catalogue, effects
from . import actions as A
from . import endphase as _endphase  # noqa: F401  (registers the End phase tasks)
from ...errors import IllegalAction
from .events import Event
from .kernel import advance
from .ruleset import Ruleset, register_named
from .setup import new_state
from .state import ActionTuple, Config, GameState


@cache
def standard_rules() -> Ruleset:
    """The ruleset of Star Commander: the catalogue's cards with the effects of
    ``starcom.sc.cards.effects`` (built on first use, then shared by every game)."""
    return Ruleset.build(catalogue.STANDARD, effects.EFFECTS, "standard")


register_named("standard", standard_rules)


class Game(GameState):
    """A game in progress: state plus the operations on it.

    ``apply`` changes the game in place (like ``chess.Board.push``); use ``clone()`` first to
    keep the old position.
    """

    __slots__ = ()

    @classmethod
    def new(cls, players: int = 2, size: int = 3, edition: str = "standard", seed: int = 0,
            turn_limit: int | None = None, rules: Ruleset | None = None) -> "Game":
        """Set up a new game (SETUP-1..3), with the standard ruleset unless ``rules`` is given.
        ValueError names a bad setting."""
        return new_state(Config(players, size, edition, seed, turn_limit), cls, rules or standard_rules())

    @classmethod
    def from_config(cls, cfg: Config, rules: Ruleset | None = None) -> "Game":
        return new_state(cfg, cls, rules or standard_rules())

    # ------------------------------------------------------------------ decisions
    @property
    def to_move(self) -> int | None:
        """The player who must decide now, or None when the game is over."""
        return None if self.over else self.actor

    @property
    def decision(self) -> str:
        """What kind of decision is awaited: command, priority, choice, assign, retreat, ..."""
        return self.step or ""  # a decision is awaited whenever the game is not running tasks

    def legal_actions(self) -> list[ActionTuple]:
        """Every legal action for :attr:`to_move` (empty when the game is over), as plain
        tuples equal to their typed values (:mod:`.moves`). (A method that calls the engine's
        function: a function assigned in the class body is no method in the compiled build.)"""
        return A.legal_actions(self)

    def is_legal(self, action: Any) -> bool:
        try:
            A.validate(self, action)
        except IllegalAction:  # the only thing validate raises, whatever it is given
            return False
        return True

    def apply(self, action: Any, player: Any = None) -> list[Event]:  # Any: a bad player is refused, not a TypeError
        """Play ``action`` (a tuple, list or JSON dict) and return the events it caused.

        Raises :class:`IllegalAction` (naming the reason and rule) and leaves the game unchanged
        if the action is malformed, not legal now, or ``player`` is given and is not the one to
        decide.
        """
        act = A.validate(self, action, player)
        return self.apply_unchecked(act)

    def apply_unchecked(self, action: ActionTuple) -> list[Event]:
        """Apply an action known to be legal (e.g. taken from :meth:`legal_actions`)."""
        self.events = []
        A.perform(self, action)
        advance(self)
        self.actions_played += 1
        limit = self.cfg.action_limit
        if limit is not None and self.actions_played >= limit and not self.over:
            _endphase.finish_by_score(self)  # RULING: the action cap scores like the turn limit
        return self.events

    # ------------------------------------------------------------------ outcome
    @property
    def players(self) -> int:
        """How many seats the game has (eliminated players keep theirs)."""
        return self.cfg.players

    def returns(self) -> list[float]:
        """Every seat's result (:class:`starcom.protocol.Game`): once the game is won, 1 for
        the winner and -1 for every other seat; 0 for everyone on a draw or while it runs."""
        if not self.over or self.winner is None or self.winner < 0:
            return [0.0] * self.cfg.players
        return [1.0 if p == self.winner else -1.0 for p in range(self.cfg.players)]

    # ------------------------------------------------------------------ views
    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may know (None: a spectator), as JSON-ready data."""
        from .view import player_view
        return player_view(self, player)

    def determinize(self, player: int, rng: random.Random) -> "Game":
        """A full state consistent with ``player``'s view, hidden cards re-dealt at random."""
        from .view import determinize
        return determinize(self, player, rng)

    @classmethod
    def from_json(cls, data: dict[str, Any], rules: Ruleset | None = None) -> Self:
        """Load a state saved with :meth:`to_json`, played with ``rules`` (default: the
        standard ruleset, which the JSON form does not name); ReplayError names what is wrong."""
        from ...errors import ReplayError
        try:
            return cls.load_state(data, rules or standard_rules())
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ReplayError(f"not a valid saved state: {exc!r}") from exc

    @classmethod
    def replay(cls, cfg: Config, actions: Iterable[Any]) -> "Game":
        """Recreate a game from its setup and action list (the save format)."""
        g = cls.from_config(cfg)
        for a in actions:
            g.apply(a)
        return g

    def notation(self, action: Any) -> str:
        """``action`` in the action notation (:mod:`.notation`), read in this position:
        ``jump Corvette#93 b2 +explore``, ``build Corvette c3``, ``end``."""
        from .notation import notation
        return notation(self, tuple(action))

    def parse(self, text: Any) -> Any:  # Any: what is not text is refused (IllegalAction), in both builds
        """The action that ``text`` writes in the notation (:mod:`.notation`), as a typed value;
        :class:`IllegalAction` (a ValueError) names what is wrong with a text that is not a
        well-formed action here. It is not checked for legality now: :meth:`apply` does that."""
        from .notation import parse
        return parse(self, text)
