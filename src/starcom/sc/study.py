"""Star Commander's side of the balance lab (:class:`~starcom.study.hook.CardStudy`): the entry
``starcom`` gives it as ``study``. It wraps the vanilla stand-ins of
:mod:`starcom.sc.cards.stand_ins` (a card is swapped one for one for its stand-in's paired copy,
``rules.version_for``), and notes what the study reports: the cards each seat played, built or
developed, the rule IDs carried out (:func:`starcom.sc.engine.events.rules_fired`), the studied
card held and legal. Nothing else of the study knows Star Commander.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import Any, ClassVar, Final

from .cards.catalogue import STANDARD, CardDef, CardKind, Catalogue
from .cards.stand_ins import Variant, pinned, studied
from .engine.editions import EDITIONS
from .engine.events import RECORDED_RULES, rules_fired
from .engine.game import Game
from .engine.setup import check_config
from .engine.state import NOBODY, Config
from ..sim.play import Step
from .records import result_of, to_record
from ..study.hook import Change, Settings, Tracked


@cache
def _catalogue(text: str, name: str) -> Catalogue:
    return Catalogue.from_toml(text, name) if text else STANDARD


def catalogue_of(settings: Settings) -> Catalogue:
    """The catalogue studied (ValueError says what is wrong with a file)."""
    return _catalogue(settings.catalogue_text, settings.catalogue_name)


# The numbers a tune may change (``starcom study tune``), by kind: a vessel's cost, attack and
# hit points (a ship's speed too, but a fighter's: fighters move with their carriers), a system's
# maximum development. Commands and technologies have no numbers; every other field is a flag.
_VESSEL_FIELDS: Final = ("cost", "attack", "hp")
_LEAST: Final = {"hp": 1}  # a vessel with no hit points could not stay in play
_MOST: Final = 1000  # as the catalogue file allows


def tunable_fields(d: CardDef) -> tuple[str, ...]:
    """The numbers of ``d`` a tune may change (empty for a command or a technology)."""
    if d.is_ship and not d.is_fighter:
        return (*_VESSEL_FIELDS, "speed")
    if d.is_vessel:
        return _VESSEL_FIELDS
    if d.kind is CardKind.SYSTEM:
        return ("max_dev",)
    return ()


def _card_def(settings: Settings, card: str) -> CardDef:
    try:
        return catalogue_of(settings).card(card)
    except KeyError:
        raise ValueError(f"no card named {card!r} in {catalogue_of(settings).name}") from None


def variant(settings: Settings, card: str, real_for: frozenset[int]) -> Variant:
    """The cards of a game: ``card`` with its stand-in, real for the seats ``real_for``; with
    every seat real, the catalogue's own cards (the A/A check's games)."""
    if real_for >= frozenset(range(settings.players)):
        return Variant(settings.catalogue_text, settings.catalogue_name, (), ())
    return Variant(settings.catalogue_text, settings.catalogue_name, (card,), tuple(sorted(real_for)))


class _Tracker:
    """The cards each seat played, built or developed, the rules fired, and, of the watched
    seat: whether it held the real studied card at one of its decisions and might play it
    (held, legal), and whether it could play, build or develop the card in the version it gets
    in this game, real or stand-in, at one of them (could) and did (played_it).

    A card is *played* from the hand (commands, technologies, and any card dealt to the
    decks), *built* from the supply (neutral ships and stations) or *developed* (systems); the
    tracker asks which of these applies once, from the card's kind, and asks for the legal
    actions only at the watched seat's decisions when the card could be among them (held,
    affordable in the supply, or a system of the card on the board that the seat may develop),
    and no more once found."""

    def __init__(self, game: Game, card: str, watch: int | None) -> None:
        self.game, self.watch = game, watch
        rules = game.rules
        self.cards = rules.cards
        self.defs = rules.catalogue.defs
        self.played: list[set[str]] = [set() for _ in range(game.cfg.players)]
        self.fired = rules_fired(("setup",), game.events)  # the events of the game's start
        self.copies = frozenset(cid for cid, d in enumerate(rules.cards) if d.name == card)
        # both versions: which one the seat gets in this game is the game's business (version_for)
        self.mine = frozenset(cid for cid, d in enumerate(rules.cards) if d.name == card or d.stand_in_for == card)
        # a blank stand-in (of a command or technology) is never playable: holding one asks nothing
        self.playable = frozenset(cid for cid in self.mine if not (rules.cards[cid].stand_in_for
                                                                   and rules.cards[cid].is_command))
        real = rules.catalogue.by_name[card]
        self.build_def = next((i for i, d in enumerate(self.defs) if d.name == card), None) \
            if real in rules.catalogue.buildable else None
        self.cost = real.cost
        self.system = real.is_system
        self.held = self.legal = self.could = self.played_it = False
        if watch is not None:
            self._look()

    def _may(self, watch: int) -> bool:
        """Might a play, build or develop of the card be among ``watch``'s legal actions now?"""
        game = self.game
        if not self.playable.isdisjoint(game.hands[watch]):
            return True
        if self.build_def is not None and game.supply[self.defs[self.build_def].name] \
                and game.credits[watch] >= self.cost:
            return True
        return self.system and any(s.card in self.mine and s.owner in (watch, NOBODY) for s in game.sites)

    def _look(self) -> None:  # at the watched seat's decision: held, legal, could
        game, watch = self.game, self.watch
        if watch is None or game.to_move != watch:
            return
        ask_legal = not self.legal and not self.copies.isdisjoint(game.hands[watch])
        ask_could = not self.could and self._may(watch)
        if not (ask_legal or ask_could):  # asking for the legal actions only then keeps the cost small
            return
        actions = game.legal_actions()
        if ask_legal:
            self.held = True
            self.legal = any(a[0] == "play" and a[1] in self.copies for a in actions)
        if ask_could:
            self.could = any(self._is_it(a) for a in actions)

    def _is_it(self, a: Any) -> bool:
        """Does action ``a`` play, build or develop the studied card (either version)?"""
        kind = a[0]
        if kind == "play":
            return a[1] in self.mine
        if kind == "build":
            return self.build_def is not None and a[1] == self.build_def
        if kind == "develop":
            return self.game.sites[a[1]].card in self.mine
        return False

    def step(self, step: Step) -> None:
        a = step.action
        self.fired.update(rules_fired(a, step.events))
        if self.watch is not None:
            if step.seat == self.watch and not self.played_it and self._is_it(a):
                self.played_it = self.could = True  # a develop is judged after it: the system keeps its card
            self._look()
        if a[0] == "play":
            self.played[step.seat].add(self.cards[a[1]].name)
        elif a[0] == "build":
            self.played[step.seat].add(self.defs[a[1]].name)
        elif a[0] == "develop":
            self.played[step.seat].add(self.game.sites[a[1]].d.name)

    def finish(self) -> Tracked:
        game = self.game
        limit = game.over and sum(game.alive) > 1  # scored at the turn limit (WIN-2), not conquered
        if limit:  # its game_over event ended the game by WIN-2, not WIN-1
            self.fired.discard("WIN-1")
            self.fired.add("WIN-2")
        return Tracked(limit, tuple(tuple(sorted(p)) for p in self.played), tuple(sorted(self.fired)),
                       self.held, self.legal, self.could, self.played_it)


# --- planted changes (``starcom study validate``, :mod:`starcom.study.validate`) ------------------

# Ships the greedy AI builds often (in 4,800 games on 2-player 3x3, per game: Battleship 1.3,
# Cruiser 1.3, Destroyer 0.75, Frigate 0.5): the panel every run studies, and the cards changed
# in the planted runs. Each is worth about zero unchanged (within 0.015 over 750 pairs), which
# the ranking needs: a card with a value of its own holds the first or last place whatever is
# planted. So the Defense Station, built in every game, is left out: to the greedy AI it is worth
# well below its stand-in (-0.14). The Strike Fighter is its own stand-in (worth exactly zero).
PANEL: Final = ("Battleship", "Cruiser", "Destroyer", "Frigate")
CHANGES: Final = (Change("double attack and hit points", True), Change("halve cost", True),
                  Change("halve attack and hit points", False), Change("double cost", False))


def planted(card: str, change: str, factor: float = 2.0, catalogue: Catalogue = STANDARD) -> Catalogue:
    """``catalogue`` with ``card`` changed as ``change`` says (by ``factor``). The card's
    stand-in follows its new numbers (a vessel's, its new cost): a halved cost is then a ship
    with more than the standard curve gives for its price."""
    d = catalogue.card(card)
    if change == "double attack and hit points":
        return catalogue.replaced(card, attack=round(d.attack * factor), hp=round(d.hp * factor))
    if change == "halve attack and hit points":
        return catalogue.replaced(card, attack=max(0, round(d.attack / factor)), hp=max(1, round(d.hp / factor)))
    if change == "halve cost":
        return catalogue.replaced(card, cost=max(1, round(d.cost / factor)))
    if change == "double cost":
        return catalogue.replaced(card, cost=round(d.cost * factor))
    raise ValueError(f"unknown change {change!r}: one of {', '.join(c.name for c in CHANGES)}")


class StarcomPlanting:
    """Star Commander's planted changes: a ship's or station's numbers."""

    panel = PANEL
    changes = CHANGES
    target = "a ship or station"
    cost_field = "cost"  # a vessel's stand-in stays the card's as it was (pinned): the yardstick of its price

    def plantable(self, settings: Settings, card: str) -> bool:
        return _card_def(settings, card).is_vessel

    def plant(self, settings: Settings, card: str, change: str, factor: float) -> Settings:
        catalogue = planted(card, change, factor, catalogue_of(settings))
        return replace(settings, catalogue_text=catalogue.to_toml(),
                       catalogue_name=f"{catalogue_of(settings).name}, {card}: {change} x{factor:g}")


class StarcomStudy:
    """Star Commander's card study: vanilla stand-ins (docs/study.md, "The method")."""

    defaults: ClassVar[dict[str, Any]] = {}  # the entry's (2 players, 3x3, standard), the study's turn limit 60
    stand_in = ("a vanilla stand-in: a blank command or technology, or a ship, station or system "
                "with the standard curve's numbers for its cost and no text")
    recorded_rules = RECORDED_RULES
    planting: ClassVar[StarcomPlanting] = StarcomPlanting()
    replays = "Read one with <code>starcom replay FOLDER/replays/FILE.json</code>, or open it in the browser: " \
              "the lobby's <i>Open a saved game</i>."

    def check(self, settings: Settings) -> None:
        try:
            check_config(Config(settings.players, settings.size, settings.edition, settings.seed,  # type: ignore[arg-type]
                                settings.turn_limit))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{exc} (--players 2-4, --size 3-5, --edition {'/'.join(EDITIONS)}, "
                             "--turn-limit 1 or more)") from None
        try:
            catalogue_of(settings)
        except ValueError as exc:
            raise ValueError(f"--cards: {exc}") from None

    def catalogue_name(self, settings: Settings) -> str:
        return catalogue_of(settings).name

    def card_names(self, settings: Settings) -> list[str]:
        return [d.name for d in catalogue_of(settings).defs]

    def studied(self, settings: Settings) -> list[str]:
        return [d.name for d in catalogue_of(settings).defs if studied(d)]

    def why_not_studied(self, settings: Settings, card: str) -> str:
        return "every seat has it alike"

    def kind(self, settings: Settings, card: str) -> str:
        return str(catalogue_of(settings).card(card).kind)

    def new_game(self, settings: Settings, card: str, seat: int, real_for: frozenset[int], seed: int) -> Game:
        return Game.new(settings.players, settings.size, settings.edition, seed, settings.turn_limit,  # type: ignore[arg-type]
                        rules=variant(settings, card, real_for).rules())

    def tracker(self, game: Game, settings: Settings, card: str, watch: int | None) -> _Tracker:
        return _Tracker(game, card, watch)

    def record(self, game: Game, settings: Settings, card: str, seat: int, real_for: frozenset[int], seed: int,
               actions: Sequence[Any], agents: Sequence[str]) -> dict[str, Any]:
        return to_record(game.cfg, actions, agents, result_of(game), variant(settings, card, real_for))

    def fields(self, settings: Settings, card: str) -> dict[str, int]:
        d = _card_def(settings, card)
        return {f: int(getattr(d, f)) for f in tunable_fields(d)}

    def with_field(self, settings: Settings, card: str, field: str, value: int) -> Settings:
        d = _card_def(settings, card)
        names = tunable_fields(d)
        if field not in names:
            has = f"its fields are {', '.join(names)}" if names else f"a {d.kind} has no numbers to tune"
            raise ValueError(f"{card} has no field {field!r} to tune; {has}")
        least = _LEAST.get(field, 0)
        if type(value) is not int or not least <= value <= _MOST:
            raise ValueError(f"{card}'s {field} must be a whole number from {least} to {_MOST}, not {value!r}")
        name = f"{catalogue_of(settings).name}, {card} {field} {value}"
        text = pinned(catalogue_of(settings), card, **{field: value}).to_toml()
        Catalogue.from_toml(text, name)  # the catalogue's own checks (ValueError says what is wrong)
        return replace(settings, catalogue_text=text, catalogue_name=name)


STUDY = StarcomStudy()

__all__ = ["CHANGES", "PANEL", "STUDY", "StarcomPlanting", "StarcomStudy", "catalogue_of", "planted",
           "tunable_fields", "variant"]
