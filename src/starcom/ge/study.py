"""Galactic Empires' side of the balance lab (``starcom study cards --game ge``): the
:class:`~starcom.study.hook.CardStudy` the ``ge`` entry gives as ``study``.

**The stand-in is a blank** (the ruling, docs/study.md "Galactic Empires"): every copy of the
studied card in a seat's deck stays where it is, with its id and printed strength, but is dealt
as a blank (:meth:`GalacticEmpires.new`'s ``blank``). A blank cannot be played, paired with a
Krebiz part or swapped into or out of the reserve; it takes room in the hand and may be
discarded from it (the full edition's discard, which costs a card play). The same seed
therefore deals the same cards in the same order, the ante (which compares strengths) picks
the same first player, and the two games of a pair part only when the real card is played.

A card's value is thus what the card adds to its deck over a dead card in its place. The game
has no cost curve to draw a vanilla card from (a card's cost is an upkeep, its strength its
level), and the only cards without rules of their own are the terrains, four Argonian ships
and the Laboratory, all of which have numbers of their own: no card could stand in for
another without being a real card itself.

**Which deck the treated seat plays.** A card in both decks is studied with the Argonian deck
at seat 0 and the Krebiz deck at seat 1, the treated seat taking each seat (and so each deck)
in turn. A card of one deck only is always studied in the hands of that deck: the treated seat
gets it, so that no pair is wasted on a seat that could never hold the card.
"""
from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import replace as _replace
from functools import cache
from importlib import resources
from typing import Any, ClassVar

from ..sim.play import Step
from ..study.hook import Change, Settings, Tracked
from .cards import CARDS, EMPIRES, POINT_TYPES, CardSpec
from .cards.catalogue import from_toml
from .game import GalacticEmpires, IllegalAction
from .moves import cards_played as _cards_played
from .ruleset import Ruleset, tuned
from .state import EDITIONS

BY_NAME: dict[str, CardSpec] = {c.name: c for c in CARDS}
FORMAT = "starcom-ge-study/1"
CATALOGUE_NAME = "Galactic Empires' catalogue"  # what messages call the cards studied
TURN_LIMIT = 40  # complete turns (GE-OPT-3); greedy games end by a Sector HQ in 7 to 22


def empires_for(card: str, seat: int) -> tuple[str, str]:
    """The decks of seats 0 and 1 in a pair whose treated seat is ``seat`` (module docstring)."""
    argonian, krebiz = BY_NAME[card].copies
    if argonian and krebiz:
        return EMPIRES[0], EMPIRES[1]
    holder = EMPIRES[0] if argonian else EMPIRES[1]
    other = EMPIRES[1] if argonian else EMPIRES[0]
    return (holder, other) if seat == 0 else (other, holder)


def new_game(edition: str, seed: int, turn_limit: int, card: str, seat: int,
             real_for: frozenset[int], rules: Ruleset | None = None) -> GalacticEmpires:
    """A game of a study: ``card`` real for the seats ``real_for``, a blank for the others;
    ``rules``: a tune's cards (:func:`rules_of`), None for the built-in ones."""
    key = BY_NAME[card].key
    return GalacticEmpires.new(edition=edition, seed=seed, empires=empires_for(card, seat),
                               options={"turn_cap": turn_limit},
                               blank=[(s, key) for s in range(2) if s not in real_for], rules=rules)


# --- tuning a card's numbers (``starcom study tune --game ge``) ---------------------------------

_POINT_TABLES = ("cost", "generates")


@cache
def _built_in_text() -> str:
    return resources.files("starcom.ge.cards").joinpath("catalogue.toml").read_text("utf-8")


@cache
def _cards(text: str, name: str) -> tuple[CardSpec, ...]:
    return from_toml(text, name) if text else CARDS


def cards_of(settings: Settings) -> tuple[CardSpec, ...]:
    """The cards of a study's catalogue: the built-in ones, or a tune's (ValueError says what
    is wrong with its text)."""
    return _cards(settings.catalogue_text, settings.catalogue_name)


def rules_of(settings: Settings) -> Ruleset | None:
    """The ruleset of a tune's catalogue (None: the built-in cards). ValueError for a catalogue
    that is not the built-in cards with other numbers."""
    return tuned(cards_of(settings)) if settings.catalogue_text else None


def tunable(c: CardSpec) -> dict[str, int]:
    """The numbers of ``c`` a tune may change, by their catalogue names: strength, card damage,
    shields, phasers, heavy weapons, a unit's half slots, a duration the card has, and each
    point type of its cost and output it has (``cost.energy``, ``generates.supply``...)."""
    out = {"strength": c.strength, "card_damage": c.card_damage, "shields": c.shields, "phasers": c.phasers,
           "heavy": c.heavy}
    if c.slots is not None:
        out["slots"] = c.slots
    if c.duration is not None:
        out["duration"] = c.duration
    for table, points in (("cost", c.cost), ("generates", c.generates)):
        out.update({f"{table}.{kind}": n for kind, n in zip(POINT_TYPES, points) if n})
    return out


def _set_field(text: str, key: str, field: str, value: int) -> str:
    """The catalogue ``text`` with card ``key``'s ``field`` set to ``value``, every other line
    as it was (a point table is written again, its zero entries left out)."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == f"[{key}]")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    top, _, kind = field.partition(".")
    at = next(i for i in range(start + 1, end) if lines[i].split("=", 1)[0].strip() == top)
    if kind:
        table = dict(tomllib.loads(lines[at])[top])
        table[kind] = value
        inner = ", ".join(f"{k} = {table[k]}" for k in POINT_TYPES if table.get(k))
        lines[at] = f"{top} = {{ {inner} }}\n" if inner else f"{top} = {{}}\n"
    else:
        lines[at] = f"{top} = {value}\n"
    return "".join(lines)


class _Tracker:
    """The cards each seat played (a Krebiz pair counts both parts), whether the turn cap ended
    the game, and whether the watched seat held a real copy of the card at one of its decisions
    and might play it (held, legal). Every card of the game is played from the hand, and its
    stand-in, a blank, never can be: the seat *could* play the card (the play rate's fact) when
    it might play a real copy, and *played it* when it did (played or paired one), so in a
    control game, where every copy is blank, neither is ever noted. Galactic Empires records no
    rule IDs."""

    def __init__(self, game: GalacticEmpires, card: str, watch: int | None) -> None:
        self.game, self.watch = game, watch
        index = BY_NAME[card].index
        blank = set(game.s.blank)
        self.copies = frozenset(uid for uid, i in enumerate(game.s.spec_of) if i == index and uid not in blank)
        self.played: list[set[str]] = [set(), set()]
        self.held = self.legal = self.played_it = False
        if watch is not None:
            self._look()

    def _look(self) -> None:
        g, watch = self.game, self.watch
        if self.legal or watch is None or g.to_move != watch or self.copies.isdisjoint(g.s.players[watch].hand):
            return
        self.held = True  # the legal actions are asked for only then
        self.legal = any(a[0] in ("play", "pair") and not self.copies.isdisjoint(_cards_played(a))
                         for a in g.legal_actions())

    def step(self, step: Step) -> None:
        a = tuple(step.action)
        if self.watch is not None:
            if step.seat == self.watch and a[0] in ("play", "pair") and not self.copies.isdisjoint(_cards_played(a)):
                self.played_it = self.legal = self.held = True
            self._look()
        if a[0] in ("play", "pair"):
            for uid in _cards_played(a):
                self.played[step.seat].add(CARDS[self.game.s.spec_of[uid]].name)

    def finish(self) -> Tracked:
        g = self.game
        return Tracked(g.over and g.s.end == "turn cap", tuple(tuple(sorted(p)) for p in self.played), (),
                       self.held, self.legal, self.legal, self.played_it)


def card_of(settings: Settings, card: str) -> CardSpec:
    """``card`` as the catalogue of ``settings`` has it; ValueError names an unknown card."""
    if card not in BY_NAME:
        raise ValueError(f"no card named {card!r} in {CATALOGUE_NAME}")
    return cards_of(settings)[BY_NAME[card].index]


def with_field(settings: Settings, card: str, field: str, value: int) -> Settings:
    """``settings`` with ``card``'s ``field`` (a name of :func:`tunable`) set to ``value``
    (:meth:`~starcom.study.hook.CardStudy.with_field`)."""
    c = card_of(settings, card)
    have = tunable(c)
    if field not in have:
        raise ValueError(f"{card} has no field {field!r} to tune; its fields are {', '.join(have)}")
    least = 1 if field == "strength" else 0
    if type(value) is not int or value < least:
        raise ValueError(f"{card}'s {field} must be a whole number of {least} or more, not {value!r}")
    name = f"{CATALOGUE_NAME}, {card} {field} {value}"
    text = _set_field(settings.catalogue_text or _built_in_text(), c.key, field, value)
    try:
        tuned(from_toml(text, name))
    except ValueError as exc:
        raise ValueError(f"{card}'s {field} cannot be {value}: {exc}") from None
    return _replace(settings, catalogue_text=text, catalogue_name=name)


# --- planted changes (``starcom study validate --game ge``, :mod:`starcom.study.validate`) -------

# Ships of both decks, from a frigate to a light cruiser: what a planted change is made to.
PANEL = ("Argonian Sunspot Frigate", "Argonian Blizzard Destroyer", "Krebiz Pincer Destroyer",
         "Krebiz Mandible Light Cruiser")
CHANGES = (Change("double shields and weapons", True), Change("halve cost", True),
           Change("halve shields and weapons", False), Change("double cost", False))
_ARMS = ("shields", "phasers", "heavy")


def _scaled(value: int, factor: float, up: bool) -> int:
    # Halving rounds down, so that a 1 becomes 0: a halved cost of one point is no cost at all.
    return round(value * factor) if up else int(value / factor)


class GalacticEmpiresPlanting:
    """Galactic Empires' planted changes: a ship's shields and weapons, or its cost (every
    point type of it)."""

    panel = PANEL
    changes = CHANGES
    target = "a ship"
    cost_field = None  # a blank stand-in is worth nothing at any price: no price to find again

    def plantable(self, settings: Settings, card: str) -> bool:
        return card_of(settings, card).kind == "ship"

    def plant(self, settings: Settings, card: str, change: str, factor: float) -> Settings:
        fields = tunable(card_of(settings, card))
        if change.endswith("shields and weapons"):
            names = [f for f in _ARMS if fields[f]]
        elif change.endswith("cost"):
            names = [f for f in fields if f.startswith("cost.")]
        else:
            raise ValueError(f"unknown change {change!r}: one of {', '.join(c.name for c in CHANGES)}")
        up = change.startswith("double")
        name = settings.catalogue_name
        for f in names:
            settings = with_field(settings, card, f, _scaled(fields[f], factor, up))
        return _replace(settings, catalogue_name=f"{name}, {card}: {change} x{factor:g}")


class GalacticEmpiresStudy:
    """Galactic Empires' card study: every card against a blank (module docstring)."""

    defaults: ClassVar[dict[str, Any]] = {"size": None, "edition": EDITIONS[0], "turn_limit": TURN_LIMIT}
    stand_in = ("a blank: the card's copies keep their place in the deck and their strength, but cannot be "
                "played, paired or swapped, only discarded from the hand")
    recorded_rules: frozenset[str] = frozenset()
    planting: ClassVar[GalacticEmpiresPlanting] = GalacticEmpiresPlanting()
    replays = (f"They are {FORMAT} records (the settings, the blanks and every action), which "
               "<code>starcom.ge.study.replay(record)</code> plays again; <code>starcom replay</code> reads "
               "Star Commander's games only.")

    def check(self, settings: Settings) -> None:
        if settings.players != 2:
            raise ValueError(f"--players {settings.players}: Galactic Empires is for exactly 2 players "
                             "(leave --players out, or give 2)")
        if settings.size is not None:
            raise ValueError(f"--size {settings.size}: Galactic Empires has no board, so no board size "
                             "(leave --size out)")
        if settings.edition not in EDITIONS:
            raise ValueError(f"--edition {settings.edition!r}: Galactic Empires' editions are "
                             f"{' and '.join(EDITIONS)}")
        if type(settings.turn_limit) is not int or not 1 <= settings.turn_limit <= 1000:
            raise ValueError(f"--turn-limit {settings.turn_limit}: Galactic Empires' turn cap (GE-OPT-3) is "
                             "1 to 1000 complete turns")
        if settings.catalogue_text:  # a tune's: the built-in cards with one number changed
            try:
                rules_of(settings)
            except ValueError as exc:
                raise ValueError(f"--cards {settings.catalogue_name}: {exc}") from None
        elif settings.catalogue_name != "built-in":
            raise ValueError(f"--cards {settings.catalogue_name}: Galactic Empires is studied with its own "
                             "catalogue only (leave --cards out)")

    def catalogue_name(self, settings: Settings) -> str:
        return CATALOGUE_NAME

    def card_names(self, settings: Settings) -> list[str]:
        return [c.name for c in CARDS]

    def studied(self, settings: Settings) -> list[str]:
        return [c.name for c in CARDS]  # every card has its blank

    def why_not_studied(self, settings: Settings, card: str) -> str:
        return "it has no stand-in"

    def kind(self, settings: Settings, card: str) -> str:
        c = cards_of(settings)[BY_NAME[card].index]
        return f"{c.kind} {'R/' if c.reaction else ''}{c.letter}{c.strength}"

    def new_game(self, settings: Settings, card: str, seat: int, real_for: frozenset[int],
                 seed: int) -> GalacticEmpires:
        assert settings.edition is not None  # check() refused any edition but the game's
        return new_game(settings.edition, seed, settings.turn_limit, card, seat, real_for, rules_of(settings))

    def tracker(self, game: GalacticEmpires, settings: Settings, card: str, watch: int | None) -> _Tracker:
        return _Tracker(game, card, watch)

    def record(self, game: GalacticEmpires, settings: Settings, card: str, seat: int, real_for: frozenset[int],
               seed: int, actions: Sequence[Any], agents: Sequence[str]) -> dict[str, Any]:
        s = game.s
        return {"format": FORMAT, "game": "ge", "edition": settings.edition, "seed": seed,
                "turn_limit": settings.turn_limit, "card": card, "treated_seat": seat,
                "real_for": sorted(real_for), "empires": list(empires_for(card, seat)),
                "blank": sorted(real_for ^ {0, 1}), "agents": list(agents),
                "actions": [list(a) for a in actions],
                "result": {"over": game.over, "winner": game.winner, "turns": game.turn + 1,
                           "end": s.end or None, "steps": len(actions)},
                **({"catalogue": settings.catalogue_text, "catalogue_name": settings.catalogue_name}
                   if settings.catalogue_text else {})}

    def fields(self, settings: Settings, card: str) -> dict[str, int]:
        return tunable(card_of(settings, card))

    def with_field(self, settings: Settings, card: str, field: str, value: int) -> Settings:
        return with_field(settings, card, field, value)


def replay(record: dict[str, Any]) -> GalacticEmpires:
    """The game a study saved (:meth:`GalacticEmpiresStudy.record`), played again from its
    settings with every action checked; ValueError says where it fails."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} record")
    try:
        text = record.get("catalogue", "")
        rules = rules_of(Settings(2, None, record["edition"], record["turn_limit"], catalogue_text=text,
                                  catalogue_name=record.get("catalogue_name", "saved catalogue"))) if text else None
        game = new_game(record["edition"], record["seed"], record["turn_limit"], record["card"],
                        record["treated_seat"], frozenset(record["real_for"]), rules)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{FORMAT} record without a valid {exc}") from None
    for n, action in enumerate(record["actions"], 1):
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise ValueError(f"step {n}: {exc}") from None
    return game


STUDY = GalacticEmpiresStudy()

__all__ = ["BY_NAME", "CHANGES", "PANEL", "STUDY", "TURN_LIMIT", "GalacticEmpiresPlanting", "GalacticEmpiresStudy",
           "card_of", "cards_of", "empires_for", "new_game", "replay", "rules_of", "tunable", "with_field"]
