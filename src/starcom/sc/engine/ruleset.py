"""The engine's extension protocol for cards, and the ruleset a game is played with.

A card's printed facts are catalogue data; what needs code is a :class:`CardEffect`: hooks the
rules call at fixed points, and a few flags. An effects module (``starcom.sc.cards.effects``)
registers them by card name on an :class:`EffectSet` made for its catalogue (the engine kit's
registries), which refuses a name the catalogue does not hold. :meth:`Ruleset.build` then joins a catalogue and an effect
set into one immutable :class:`Ruleset`; a state points to the one it is played with
(``g.rules``), and the engine looks every card behaviour up there, so no card name appears in
engine code and two rulesets can be used side by side.

Hooks (``g`` is the state, ``p`` a player index, ``src`` a card instance id):

* ``targets(g, p, src) -> Iterable[Targets]``: legal target tuples when playing / activating;
  ``target_kinds`` names what each position of such a tuple is (one of ``TARGET_KINDS``). A
  card with ``targets`` should declare them: the engine checks the type and range of every
  target by them before any rule check (``actions.malformed``), and clients describe plays by
  them.
* ``valid(g, p, src, targets) -> bool``: still legal when resolving (RESP-3); default: the
  targets are still among ``targets(...)``.
* ``resolve(g, p, src, targets)``: what happens when it resolves.
* ``cost``: for abilities: ``"credits"`` (last target is the amount paid) or ``"discard"``.
* ``start_of_turn(g, p, src)``; ``commutes``: its order relative to others never matters.
* ``first_developed(g, p, pos)``; ``on_enter(g, vessel)``; ``can_enter(g, vessel, pos) -> bool``.
* ``attack/hp/speed(g, src, vessel) -> int``: a passive bonus from a source card.
* ``unlimited_targets``, ``max_dev_bonus``, ``build_ships_here``, ``build_fighters_near_station``,
  ``build_any_phase``, ``shields_ships_from_commands``: passive flags.
* ``on_jump_from(g, src, vessel)``: a ship of the source's controller jumps out of its system.
* ``conquest(g, vessel)``: in its controller's End phase, after sieges are resolved (END-2).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any, Callable, Final, Iterable, Mapping, Protocol, TYPE_CHECKING

from ...kit.effects import EffectRegistry, EffectTable
# Imported to run, not only for the type checker: the compiled build makes Ruleset's field
# annotations (Catalogue) into real class objects when the module loads.
from ..cards.catalogue import Catalogue, CardDef

if TYPE_CHECKING:
    from .state import Choice, GameState, Vessel

Targets = tuple[int, ...]  # a card's targets, each of a kind in ``TARGET_KINDS``

# What a position of a target tuple may be; each is a field kind in ``engine.actions``.
TARGET_KINDS: Final = frozenset({"vessel", "pos", "player", "card", "credits", "explore", "count"})
STATS: Final = ("attack", "hp", "speed")


class TargetsHook(Protocol):
    def __call__(self, g: GameState, p: int, src: int, /) -> Iterable[Targets]: ...


class ValidHook(Protocol):
    def __call__(self, g: GameState, p: int, src: int, targets: Targets, /) -> bool: ...


class ResolveHook(Protocol):
    def __call__(self, g: GameState, p: int, src: int, targets: Targets, /) -> None: ...


class PlayerHook(Protocol):
    """``start_of_turn(g, p, src)``, and ``first_developed(g, p, pos)``."""

    def __call__(self, g: GameState, p: int, x: int, /) -> None: ...


class VesselHook(Protocol):
    """``on_enter(g, vessel)`` and ``conquest(g, vessel)``."""

    def __call__(self, g: GameState, v: Vessel, /) -> None: ...


class CanEnterHook(Protocol):
    def __call__(self, g: GameState, v: Vessel, pos: int, /) -> bool: ...


class StatHook(Protocol):
    """A passive bonus of the card ``src`` to a stat of ``v``."""

    def __call__(self, g: GameState, src: int, v: Vessel, /) -> int: ...


class JumpHook(Protocol):
    def __call__(self, g: GameState, src: int, v: Vessel, /) -> None: ...


class ChoiceHandler(Protocol):
    """Carries out a card's choice: the state, the choice, the option taken."""

    def __call__(self, g: GameState, choice: Choice, value: Any, /) -> None: ...


@dataclass(frozen=True, slots=True)
class CardEffect:
    """What one card does beyond its printed numbers: hooks (None when it has none) and flags."""

    name: str
    targets: TargetsHook | None = None
    target_kinds: tuple[str, ...] = ()
    valid: ValidHook | None = None
    resolve: ResolveHook | None = None
    cost: str = ""
    start_of_turn: PlayerHook | None = None
    commutes: bool = False
    first_developed: PlayerHook | None = None
    on_enter: VesselHook | None = None
    can_enter: CanEnterHook | None = None
    attack: StatHook | None = None
    hp: StatHook | None = None
    speed: StatHook | None = None
    on_jump_from: JumpHook | None = None
    conquest: VesselHook | None = None
    unlimited_targets: bool = False
    max_dev_bonus: int = 0
    build_ships_here: bool = False
    build_fighters_near_station: bool = False
    build_any_phase: bool = False
    shields_ships_from_commands: bool = False


HOOK_NAMES: Final = frozenset(f.name for f in fields(CardEffect)) - {"name"}
EMPTY: Final = CardEffect("")


class EffectSet:
    """Card effects as an effects module registers them, by card name, for one catalogue: two
    registries of the engine kit (:mod:`starcom.kit.effects`), one of effects and one of
    choice handlers. It only collects: :meth:`Ruleset.build` turns it into the immutable
    tables a game uses."""

    def __init__(self, card_names: Iterable[str]) -> None:
        self.cards: EffectRegistry[CardEffect] = EffectRegistry(card_names)
        self.choices: EffectRegistry[ChoiceHandler] = EffectRegistry(self.cards.names)

    @property
    def effects(self) -> Mapping[str, CardEffect]:
        """The effects registered so far, by card name."""
        return self.cards.registered

    @property
    def choice_handlers(self) -> Mapping[str, ChoiceHandler]:
        """The choice handlers registered so far, by the asking card's name."""
        return self.choices.registered

    def register(self, name: str, **hooks: Any) -> CardEffect:
        """Set hooks on the effect of card ``name`` (several calls add up). ValueError names a
        card the catalogue does not hold or a target kind not in ``TARGET_KINDS``; TypeError
        names an unknown hook."""
        self.cards.check(name)
        unknown = set(hooks) - HOOK_NAMES
        if unknown:
            raise TypeError(f"unknown effect hook(s) {sorted(unknown)} for {name}")
        kinds = set(hooks.get("target_kinds", ())) - TARGET_KINDS
        if kinds:
            raise ValueError(f"{name}: unknown target kind(s) {sorted(kinds)}; "
                             f"kinds are {sorted(TARGET_KINDS)}")
        return self.cards.update(name, lambda eff: replace(eff or CardEffect(name), **hooks))

    def choice_handler(self, kind: str) -> Callable[[ChoiceHandler], ChoiceHandler]:
        """Register the function that carries out a choice of ``kind`` (the asking card's name)."""
        self.choices.check(kind)

        def deco(fn: ChoiceHandler) -> ChoiceHandler:
            return self.choices.register(kind, fn)
        return deco


# Rulesets that can be rebuilt by name in another process (the AI pool sends games to worker
# processes by pickling them): name -> a function returning the one ruleset of that name.
_NAMED: Final[dict[str, Callable[[], Ruleset]]] = {}


def register_named(name: str, build: Callable[[], Ruleset]) -> None:
    """Let games with the ruleset ``build()`` (whose name is ``name``) be pickled: they travel
    as the name, and the receiving process calls ``build`` (it imports the registering module
    first, since a game's class lives there)."""
    _NAMED[name] = build


def named(name: str) -> Ruleset:
    """The ruleset registered as ``name``; ValueError if there is none."""
    try:
        return _NAMED[name]()
    except KeyError:
        raise ValueError(f"no ruleset named {name!r} is registered") from None


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The cards a game is played with and what each does, built once and never changed.

    ``catalogue`` is the set of cards and ``effects`` the effect of each of its cards (an
    empty record for a card without code; a kit :class:`~starcom.kit.effects.EffectTable`);
    ``cards[cid]`` (its ``instances``) is the definition of card instance ``cid`` and
    ``by_card[cid]`` its effect. ``stat_stations[stat]`` and
    ``stat_systems[stat]`` list the station and system instances with a bonus hook for a stat
    ("attack", "hp", "speed"), ``stat_cards[stat]`` every instance with one, ``board_stats`` the stats
    some station or system adds to, and
    ``dev_stations`` the stations that raise a system's maximum
    development and ``ability_cards`` the technologies and systems with an ability, so that the
    rules skip every other card in those frequent queries."""

    name: str
    catalogue: Catalogue
    cards: tuple[CardDef, ...]
    effects: EffectTable[CardEffect]
    by_card: tuple[CardEffect, ...]
    choice_handlers: Mapping[str, ChoiceHandler]
    stat_stations: Mapping[str, tuple[int, ...]] = field(repr=False)
    stat_systems: Mapping[str, frozenset[int]] = field(repr=False)
    dev_stations: tuple[int, ...] = field(repr=False)
    stat_cards: Mapping[str, frozenset[int]] = field(repr=False)
    ability_cards: frozenset[int] = field(repr=False)
    board_stats: frozenset[str] = field(repr=False)
    # A balance study's treatment (empty otherwise): each real copy and its stand-in's copy
    # (cards/stand_ins.py), both ways; the stand-in copies; the seats that get real copies when
    # they draw or build one (None: every seat, as in any ordinary game). See rules.version_for.
    versions: Mapping[int, int] = field(repr=False)
    stand_ins: frozenset[int] = field(repr=False)
    real_for: frozenset[int] | None = field(repr=False)

    @classmethod
    def build(cls, catalogue: Catalogue, effects: EffectSet, name: str = "",
              real_for: frozenset[int] | None = None) -> Ruleset:
        """The ruleset of the cards of ``catalogue`` with ``effects``. ValueError names an
        effect for a card the catalogue lacks. ``real_for``: with stand-ins in the catalogue,
        the seats that get the real cards (None: every seat)."""
        cards = catalogue.instances
        table = effects.cards.build(lambda name: EMPTY, catalogue.by_name)
        stray = sorted(set(effects.choice_handlers) - set(catalogue.by_name))
        if stray:
            raise ValueError(f"choice handlers registered for cards not in the catalogue: {stray}")
        by_card = tuple(table.by_name(d.name) for d in cards)
        versions: dict[int, int] = {}
        for d in catalogue.defs:  # the i-th copy of a stand-in pairs with the i-th real copy
            if d.stand_in_for:
                for real, stand in zip(catalogue.ids[d.stand_in_for], catalogue.ids[d.name]):
                    versions[real], versions[stand] = stand, real
        stat_stations, stat_systems, stat_cards = {}, {}, {}
        for stat in STATS:
            ids = [i for i, eff in enumerate(by_card) if getattr(eff, stat) is not None]
            stat_stations[stat] = tuple(i for i in ids if cards[i].is_station)
            stat_systems[stat] = frozenset(i for i in ids if cards[i].is_system)
            stat_cards[stat] = frozenset(ids)
        return cls(name, catalogue, cards, table, by_card,
                   MappingProxyType(dict(effects.choice_handlers)),
                   MappingProxyType(stat_stations), MappingProxyType(stat_systems),
                   tuple(i for i, eff in enumerate(by_card) if eff.max_dev_bonus),
                   MappingProxyType(stat_cards),
                   frozenset(i for i, eff in enumerate(by_card)
                             if eff.resolve is not None and (cards[i].is_technology or cards[i].is_system)),
                   frozenset(stat for stat in STATS if stat_stations[stat] or stat_systems[stat]),
                   MappingProxyType(versions), frozenset(i for i, d in enumerate(cards) if d.stand_in_for),
                   real_for)

    def __reduce__(self) -> tuple[Callable[[str], Ruleset], tuple[str]]:
        # Hooks are functions and the tables read-only views: a ruleset travels by its name.
        build = _NAMED.get(self.name)
        if build is None or build() is not self:
            raise TypeError(f"the ruleset {self.name or '(unnamed)'!r} cannot be pickled: only rulesets "
                            "registered with register_named travel between processes")
        return named, (self.name,)

    def effect(self, name: str) -> CardEffect:
        """The effect of the card ``name``, or an empty record for a card without code."""
        return self.effects.by_name(name) if name in self.effects else EMPTY

    def stat_hook(self, cid: int, stat: str) -> StatHook | None:
        """The bonus hook of card instance ``cid`` for ``stat``, or None."""
        hook: StatHook | None = getattr(self.by_card[cid], stat)
        return hook
