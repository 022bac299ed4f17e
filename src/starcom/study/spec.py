"""What a card study is asked to do, checked before any game runs."""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..agents import agent_names
from ..cards.catalogue import STANDARD, Catalogue
from ..cards.stand_ins import studied
from ..engine.editions import EDITIONS
from ..engine.setup import check_config
from ..engine.state import Config
from ..sim.backends import BackendError, check_backend

DEFAULT_TURN_LIMIT = 60


class StudyError(ValueError):
    """A study that cannot run as asked; the message names the setting and what to do."""


@dataclass(frozen=True)
class StudySpec:
    """A card study: which cards (``only``, else every card with a stand-in) of which catalogue
    (``cards_file``, else the built-in one), played by which agents (one name for every seat,
    or one per seat, rotated) at which player count, board size and edition; at most
    ``max_games`` games per card (both games of every pair counted); ``alpha`` the chance that
    a run flags any card at all when no card matters (shared among the cards).

    ``workers``, ``backend``, ``address`` and ``out`` say where and how it runs, not what it
    computes: they are left out of :meth:`key`, so a run's results do not depend on them."""

    cards_file: str | None = None
    only: tuple[str, ...] = ()
    agents: tuple[str, ...] = ("greedy",)
    players: int = 2
    size: int = 3
    edition: str = "standard"
    turn_limit: int = DEFAULT_TURN_LIMIT
    max_games: int = 400
    seed: int = 0
    alpha: float = 0.05
    workers: int = 1
    backend: str = "local"
    address: str | None = None
    out: str = "study"
    catalogue_text: str = field(default="", repr=False)  # read once, so workers need no file
    aa: bool = False  # the A/A check: nothing treated, the control an independent game (pairs.play_pair)

    @classmethod
    def checked(cls, **settings: Any) -> StudySpec:
        """The spec with ``settings``, every one checked (StudyError names the first that is
        wrong); a catalogue file is read and parsed here."""
        spec = cls(**settings)
        text = ""
        if spec.cards_file is not None:
            path = Path(spec.cards_file)
            try:
                text = path.read_text("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise StudyError(f"--cards {path}: cannot read it ({exc})") from None
        spec = cls(**{**asdict(spec), "catalogue_text": text})
        spec.validate()
        return spec

    def validate(self) -> None:
        try:
            check_config(Config(self.players, self.size, self.edition, self.seed, self.turn_limit))
        except ValueError as exc:
            raise StudyError(f"{exc} (--players 2-4, --size 3-5, --edition "
                             f"{'/'.join(EDITIONS)}, --turn-limit 1 or more)") from None
        try:
            catalogue = self.catalogue
        except ValueError as exc:
            raise StudyError(f"--cards: {exc}") from None
        unknown = [n for n in self.only if n not in catalogue.by_name]
        if unknown:
            raise StudyError(f"--only: no card named {', '.join(map(repr, unknown))} in {catalogue.name} "
                             "(names are case-sensitive; `starcom study cards --list` shows them)")
        plain = [n for n in self.only if not studied(catalogue.by_name[n])]
        if plain:
            raise StudyError(f"--only: {', '.join(plain)} cannot be studied: every seat has it alike")
        if not self.cards:
            raise StudyError("there is no card to study in this catalogue")
        known = agent_names()
        for a in self.agents:
            if a not in known:
                raise StudyError(f"--agents: unknown agent {a!r}; known agents: {', '.join(known)}")
        if len(self.agents) not in (1, self.players):
            raise StudyError(f"--agents: give one agent for every seat or one per seat ({self.players}), "
                             f"not {len(self.agents)}")
        if self.max_games < 2 * self.players:
            raise StudyError(f"--max-games must be at least {2 * self.players} (one pair of games per seat), "
                             f"not {self.max_games}")
        if not 0 < self.alpha < 1:
            raise StudyError(f"--alpha must be between 0 and 1, not {self.alpha}")
        try:
            check_backend(self.backend, self.workers, self.address)
        except BackendError as exc:
            raise StudyError(str(exc)) from None

    @cached_property
    def catalogue(self) -> Catalogue:
        """The catalogue studied (ValueError says what is wrong with a file)."""
        if not self.catalogue_text:
            return STANDARD
        return Catalogue.from_toml(self.catalogue_text, self.cards_file or "--cards")

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards studied, in catalogue order."""
        wanted = set(self.only)
        return tuple(d.name for d in self.catalogue.defs
                     if studied(d) and (not wanted or d.name in wanted))

    def key(self) -> dict[str, Any]:
        """Everything the results depend on (JSON-ready): a results folder made with another
        key is refused rather than mixed."""
        return {"cards": list(self.cards), "catalogue": hashlib.sha256(self.catalogue_text.encode()).hexdigest()[:16]
                if self.catalogue_text else "built-in", "agents": list(self.agents), "players": self.players,
                "size": self.size, "edition": self.edition, "turn_limit": self.turn_limit,
                "max_games": self.max_games, "seed": self.seed, "alpha": self.alpha,
                **({"aa": True} if self.aa else {})}

    def key_text(self) -> str:
        return json.dumps(self.key(), sort_keys=True)
