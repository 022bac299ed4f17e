"""What a card study is asked to do, checked before any game runs."""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..games import LEGACY_GAME, GameEntry, default_game, get, list_games
from ..sim.backends import BackendError, check_backend
from .hook import CardStudy, Settings

DEFAULT_TURN_LIMIT = 60
# A card stops once its value's 95% interval is this narrow (``--precision``): a card that
# changes few games stops after a few dozen pairs, one that changes many plays on towards
# ``max_games``. The finest that fits Star Commander's whole catalogue into half an hour on two
# cores (docs/study.md, "Cost": 0.04 took 32 minutes).
DEFAULT_PRECISION = 0.045

def study_of(game: str) -> tuple[GameEntry[Any, Any], CardStudy]:
    """The registry entry of ``game`` and its card study; ValueError names an unknown game or
    one that offers no card study."""
    try:
        entry = get(game)
    except ValueError as exc:
        raise ValueError(f"--game: {exc}") from None
    if entry.tools.study is None:
        able = [n for n in list_games() if get(n).tools.study is not None]
        raise ValueError(f"--game {game}: {entry.title} has no card study; the games that have one: "
                         f"{', '.join(able)}")
    return entry, entry.tools.study()


class StudyError(ValueError):
    """A study that cannot run as asked; the message names the setting and what to do."""


@dataclass(frozen=True)
class StudySpec:
    """A card study of the game ``game`` (a registry name): which cards (``only``, else every
    card with a stand-in) of which catalogue (``cards_file``, else the built-in one), played by
    which agents (one name for every seat, or one per seat, rotated) at which player count,
    board size (None: a game without a board) and edition; at most ``max_games`` games per card
    (both games of every pair counted), fewer once the value's 95% interval is at most
    ``precision`` on either side (None: every card plays to ``max_games`` unless flagged);
    ``alpha`` the chance that a run flags any card at all when no card matters (shared among
    the cards). The game's card study
    (:mod:`starcom.study.hook`) says which settings apply to it, and its defaults.

    ``workers``, ``backend``, ``address`` and ``out`` say where and how it runs, not what it
    computes: they are left out of :meth:`key`, so a run's results do not depend on them."""

    cards_file: str | None = None
    only: tuple[str, ...] = ()
    agents: tuple[str, ...] = ("greedy",)
    # The player count, board size and edition have no default here: :meth:`checked` takes the
    # game's own (its entry's ``rules.defaults()``) for those left out.
    players: int = field(kw_only=True)
    size: int | None = field(kw_only=True)
    edition: str | None = field(kw_only=True)
    turn_limit: int = DEFAULT_TURN_LIMIT
    max_games: int = 400
    precision: float | None = DEFAULT_PRECISION
    seed: int = 0
    alpha: float = 0.05
    workers: int = 1
    backend: str = "local"
    address: str | None = None
    out: str = "study"
    catalogue_text: str = field(default="", repr=False)  # read once, so workers need no file
    aa: bool = False  # the A/A check: nothing treated, the control an independent game (pairs.play_pair)
    game: str = field(default_factory=default_game)

    @classmethod
    def checked(cls, **settings: Any) -> StudySpec:
        """The spec with ``settings``, every one checked (StudyError names the first that is
        wrong); a catalogue file is read here. Settings left out take the game's card study's
        defaults (its ``defaults``: say its own turn limit), then the game's (its player count,
        board size and edition: its entry's ``rules.defaults()``; None for a setting it does not
        have), then the study's."""
        game = settings.get("game") or default_game()
        try:
            entry, study = study_of(game)
        except ValueError as exc:
            raise StudyError(str(exc)) from None
        given = {"size": None, "edition": None, **entry.rules.defaults(), **study.defaults, **settings}
        if given.get("players") is None:
            raise StudyError(f"--players: {entry.title} names no player count of its own; give one")
        spec = cls(**given)
        text = ""
        try:  # before the file is read: a game that takes no catalogue file says so first
            study.check(spec.settings)
        except ValueError as exc:
            raise StudyError(str(exc)) from None
        if spec.cards_file is not None:
            path = Path(spec.cards_file)
            try:
                text = path.read_text("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise StudyError(f"--cards {path}: cannot read it ({exc})") from None
        spec = cls(**{**asdict(spec), "catalogue_text": text})
        spec.validate()
        return spec

    @cached_property
    def _game(self) -> tuple[GameEntry[Any, Any], CardStudy]:
        try:
            return study_of(self.game)
        except ValueError as exc:
            raise StudyError(str(exc)) from None

    @property
    def entry(self) -> GameEntry[Any, Any]:
        """The registry entry of the game studied (:class:`starcom.games.GameEntry`)."""
        return self._game[0]

    @property
    def study(self) -> CardStudy:
        """The game's side of the study (:mod:`starcom.study.hook`)."""
        return self._game[1]

    @property
    def settings(self) -> Settings:
        """The settings every game of the study is made with."""
        return Settings(self.players, self.size, self.edition, self.turn_limit, self.seed, self.catalogue_text,
                        self.cards_file or "built-in")

    def validate(self) -> None:
        entry, study = self._game
        settings = self.settings
        try:
            study.check(settings)
        except ValueError as exc:
            raise StudyError(str(exc)) from None
        names = set(study.card_names(settings))
        unknown = [n for n in self.only if n not in names]
        if unknown:
            raise StudyError(f"--only: no card named {', '.join(map(repr, unknown))} in "
                             f"{study.catalogue_name(settings)} (names are case-sensitive; `starcom study cards "
                             f"--game {self.game} --list` shows them)")
        able = set(study.studied(settings))
        plain = [n for n in self.only if n not in able]
        if plain:
            raise StudyError(f"--only: {', '.join(plain)} cannot be studied: "
                             f"{study.why_not_studied(settings, plain[0])}")
        if not self.cards:
            raise StudyError("there is no card to study in this catalogue")
        known = entry.ai.agent_names()
        for a in self.agents:
            if a not in known:
                raise StudyError(f"--agents: unknown agent {a!r}; known agents: {', '.join(known)}")
        if len(self.agents) not in (1, self.players):
            raise StudyError(f"--agents: give one agent for every seat or one per seat ({self.players}), "
                             f"not {len(self.agents)}")
        if self.max_games < 2 * self.players:
            raise StudyError(f"--max-games must be at least {2 * self.players} (one pair of games per seat), "
                             f"not {self.max_games}")
        if self.precision is not None and not 0 < self.precision < 1:
            raise StudyError(f"--precision must be between 0 and 1 (0 at the command line: no early stop), "
                             f"not {self.precision}")
        if not 0 < self.alpha < 1:
            raise StudyError(f"--alpha must be between 0 and 1, not {self.alpha}")
        try:
            check_backend(self.backend, self.workers, self.address)
        except BackendError as exc:
            raise StudyError(str(exc)) from None

    @cached_property
    def cards(self) -> tuple[str, ...]:
        """The cards studied, in catalogue order."""
        wanted = set(self.only)
        return tuple(n for n in self.study.studied(self.settings) if not wanted or n in wanted)

    def key(self) -> dict[str, Any]:
        """Everything the results depend on (JSON-ready): a results folder made with another
        key is refused rather than mixed (:func:`stored_key` reads a stored one)."""
        return {"cards": list(self.cards), "catalogue": hashlib.sha256(self.catalogue_text.encode()).hexdigest()[:16]
                if self.catalogue_text else "built-in", "agents": list(self.agents), "players": self.players,
                "size": self.size, "edition": self.edition, "turn_limit": self.turn_limit,
                "max_games": self.max_games, "precision": self.precision, "seed": self.seed, "alpha": self.alpha,
                **({"aa": True} if self.aa else {}), "game": self.game}

    def key_text(self) -> str:
        return json.dumps(self.key(), sort_keys=True)


def stored_key(key: dict[str, Any]) -> dict[str, Any]:
    """A results folder's stored :meth:`StudySpec.key` as it reads today: keys written before
    the platform held a second game name none (:data:`starcom.games.LEGACY_GAME`'s), and keys
    written before the precision stop had none (every card played to ``max_games``)."""
    return {**key, "game": key.get("game", LEGACY_GAME), "precision": key.get("precision")}
