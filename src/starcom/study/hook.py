"""What a game gives the balance lab: the object its registry entry's ``study()`` returns.

The study (spec, pairs, runner, report, the ``starcom study cards`` command) knows no game: it
plays every game through the game's :class:`~starcom.games.GameEntry` (agents, ``play``,
``winner``, ``turn``) and asks the game's :class:`CardStudy` for the rest: which cards can be
studied, and a game of given settings and seed in which the studied card is real for some
seats and its stand-in for the others. Star Commander's is :mod:`starcom.sc.study`, Galactic
Empires' :mod:`starcom.ge.study`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..sim.play import Step


@dataclass(frozen=True)
class Settings:
    """The settings every game of a study is made with (plain values): the player count, the
    board size (None: the game has no board), the edition (None: the game has none), the turn
    limit, the study's seed, and a catalogue's TOML text (empty: the game's built-in cards) with
    the name it goes by."""

    players: int
    size: int | None
    edition: str | None
    turn_limit: int
    seed: int = 0
    catalogue_text: str = ""
    catalogue_name: str = "built-in"


@dataclass(frozen=True)
class Tracked:
    """What a game's :class:`Tracker` noted of one game: whether the turn limit ended it, the
    card names each seat played (built, developed, ...), the rule IDs carried out (empty for a
    game that records none), and whether the watched seat held the real studied card at one of
    its decisions (``held``) and was allowed to play it at one of them (``legal``).

    The play rate (docs/study.md, "Play rate and verdicts") needs two more facts, noted in the
    treated and the control game alike: whether the watched seat could, at one of its decisions,
    play, build or develop the studied card in the version it gets in that game (the real card,
    or its stand-in) (``could``), and whether it did (``played_it``)."""

    limit_reached: bool
    played: tuple[tuple[str, ...], ...]
    rules: tuple[str, ...] = ()
    held: bool = False
    legal: bool = False
    could: bool = False
    played_it: bool = False


class Tracker(Protocol):
    """Follows one game of a study from its start (it is made before the first action)."""

    def step(self, step: Step) -> None:
        """One action has been played."""
        ...

    def finish(self) -> Tracked:
        """The game is over (or was stopped): what was noted."""
        ...


@dataclass(frozen=True)
class Change:
    """A change a validation plants in a card: its name, and whether it makes the card stronger."""

    name: str
    stronger: bool


class Planting(Protocol):
    """What a game's card study may give the validation (its optional ``planting`` attribute;
    a game without one has no ``study validate``).

    ``panel`` is the cards every run studies by default: cards the agents play often and worth
    about zero as they are (a card with a value of its own would hold the first or last place
    whatever is planted). ``changes`` are the changes planted, the first a strengthening (the
    sweep's); ``target`` names, for a message, the cards a change applies to. ``cost_field`` is
    the field (of :meth:`CardStudy.fields`) that is a card's price, for the tune check: moved by
    a few points, a tune of it should find the price again. None when the stand-ins cannot show
    that (a blank is worth nothing at any price): the game then has no tune check."""

    panel: tuple[str, ...]
    changes: tuple[Change, ...]
    target: str
    cost_field: str | None

    def plantable(self, settings: Settings, card: str) -> bool:
        """Whether the changes apply to ``card``."""
        ...

    def plant(self, settings: Settings, card: str, change: str, factor: float) -> Settings:
        """``settings`` with a catalogue in which ``card`` underwent ``change`` by ``factor``
        (2: doubled or halved) and no other card changed."""
        ...


class CardStudy(Protocol):
    """A game's side of a card study.

    ``defaults`` are the study settings the game changes from the study's own and from its
    entry's ``rules.defaults()`` (say its own turn limit); ``stand_in`` says in a sentence what a
    card is measured against; ``recorded_rules`` are the rule IDs its trackers can report (empty:
    none); ``replays`` says how the saved games of a report's anomalies are read."""

    defaults: Mapping[str, Any]
    stand_in: str
    recorded_rules: frozenset[str]
    replays: str

    def check(self, settings: Settings) -> None:
        """ValueError naming the option that does not apply to the game, and what is allowed."""
        ...

    def catalogue_name(self, settings: Settings) -> str:
        """What the cards' catalogue is called in messages."""
        ...

    def card_names(self, settings: Settings) -> Sequence[str]:
        """Every card of the catalogue, in catalogue order."""
        ...

    def studied(self, settings: Settings) -> Sequence[str]:
        """The cards that have a stand-in (and so a value), in catalogue order."""
        ...

    def why_not_studied(self, settings: Settings, card: str) -> str:
        """Why a card of :meth:`card_names` is not among :meth:`studied`."""
        ...

    def kind(self, settings: Settings, card: str) -> str:
        """The card's kind, as the report's table shows it."""
        ...

    def new_game(self, settings: Settings, card: str, seat: int, real_for: frozenset[int], seed: int) -> Any:
        """A new game with ``seed``: ``card`` is real for the seats ``real_for`` and its stand-in
        for the others. ``seat`` is the pair's treated seat (the same in both games of a pair),
        for what a game must fix around it, such as which deck it plays."""
        ...

    def tracker(self, game: Any, settings: Settings, card: str, watch: int | None) -> Tracker:
        """A tracker of ``game`` (just made by :meth:`new_game`); ``watch`` is the seat whose
        holding and playing of ``card`` is noted (real or stand-in, as that seat gets it in
        ``game``: :class:`Tracked`), or None. Legal actions are asked for only at the watched
        seat's decisions, and no more once what they can tell is known."""
        ...

    def record(self, game: Any, settings: Settings, card: str, seat: int, real_for: frozenset[int], seed: int,
               actions: Sequence[Any], agents: Sequence[str]) -> dict[str, Any] | None:
        """The JSON-ready saved game of a finished ``game`` that :meth:`new_game` made with these
        arguments, for the report's replays (None: the game cannot save one)."""
        ...

    # --- tuning a card's numbers (``starcom study tune``, :mod:`starcom.study.tune`) ---

    def fields(self, settings: Settings, card: str) -> Mapping[str, int]:
        """The numbers of ``card`` a tune may change, by the names the game's catalogue file
        gives them, with their values in the catalogue of ``settings`` (empty: the card has
        none). ValueError names an unknown card."""
        ...

    def with_field(self, settings: Settings, card: str, field: str, value: int) -> Settings:
        """``settings`` with a catalogue in which ``card``'s ``field`` is ``value`` and no other
        card's number has changed. Every value of a tune is measured against one stand-in: the
        card's as it was (a game whose stand-in follows the number, as Star Commander's follows a
        vessel's cost, keeps that one in the catalogue). ValueError names an unknown card, a
        field the card has not (and the fields it has) or a value the catalogue refuses."""
        ...


__all__ = ["CardStudy", "Change", "Planting", "Settings", "Tracked", "Tracker"]
