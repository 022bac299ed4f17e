"""Registry of card effects, keyed by card name.

A card's data lives in the catalogue; what needs code lives in a :class:`CardEffect` registered
here by ``starcom.cards.effects``. The engine only ever looks effects up through this registry
(by the name of a card it holds), so no card name appears in engine code.

Hook signatures (``g`` is the game state, ``p`` a player index, ``src`` a card instance id):

* ``targets(g, p, src) -> Iterable[tuple]``: legal target tuples when playing / activating;
  ``target_kinds`` names what each position of such a tuple is (one of ``TARGET_KINDS``:
  vessel, pos, player, card, credits, explore, count). A card with ``targets`` should declare
  them: the engine checks the type and range of every target by them before any rule check
  (``engine.actions.malformed``; undeclared targets are only checked to be integers), and
  clients use them to describe plays.
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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

if TYPE_CHECKING:
    from ..engine.state import Choice, GameState, Vessel
    from .catalogue import CardDef

Targets = tuple[int, ...]  # a card's targets, each of a kind in ``TARGET_KINDS``


@dataclass(slots=True)
class CardEffect:
    """What one card does beyond its printed numbers: hooks (None when it has none) and flags."""

    name: str
    targets: Callable[[GameState, int, int], Iterable[Targets]] | None = None
    target_kinds: tuple[str, ...] = ()
    valid: Callable[[GameState, int, int, Targets], bool] | None = None
    resolve: Callable[[GameState, int, int, Targets], None] | None = None
    cost: str = ""
    start_of_turn: Callable[[GameState, int, int], None] | None = None
    commutes: bool = False
    first_developed: Callable[[GameState, int, int], None] | None = None
    on_enter: Callable[[GameState, Vessel], None] | None = None
    can_enter: Callable[[GameState, Vessel, int], bool] | None = None
    attack: Callable[[GameState, int, Vessel], int] | None = None
    hp: Callable[[GameState, int, Vessel], int] | None = None
    speed: Callable[[GameState, int, Vessel], int] | None = None
    on_jump_from: Callable[[GameState, int, Vessel], None] | None = None
    conquest: Callable[[GameState, Vessel], None] | None = None
    unlimited_targets: bool = False
    max_dev_bonus: int = 0
    build_ships_here: bool = False
    build_fighters_near_station: bool = False
    build_any_phase: bool = False
    shields_ships_from_commands: bool = False


# What a card's choice handler is called with: the state, the choice, the option taken.
ChoiceHandler = Callable[["GameState", "Choice", Any], None]
StatHook = Callable[["GameState", int, "Vessel"], int]

# What a position of a target tuple may be; each is a field kind in ``engine.actions``.
TARGET_KINDS = frozenset({"vessel", "pos", "player", "card", "credits", "explore", "count"})

EFFECTS: dict[str, CardEffect] = {}
# Handlers for choices that card effects ask for, keyed by choice kind.
CHOICE_HANDLERS: dict[str, ChoiceHandler] = {}
# Choice kinds (asked by card effects) whose options are card ids: views hide and re-deal them.
CARD_OPTION_CHOICES: set[str] = set()


def effect(name: str) -> CardEffect:
    """The effect record of ``name`` (created empty on first use)."""
    eff = EFFECTS.get(name)
    if eff is None:
        eff = EFFECTS[name] = CardEffect(name)
    return eff


def register(name: str, **hooks: Any) -> CardEffect:
    """Set hooks on a card's effect record; unknown hook names raise TypeError."""
    eff = effect(name)
    for key, val in hooks.items():
        if not hasattr(eff, key):
            raise TypeError(f"unknown effect hook {key!r} for {name}")
        setattr(eff, key, val)
    return eff


def choice_handler(kind: str) -> Callable[[ChoiceHandler], ChoiceHandler]:
    """Register the function that carries out a choice of ``kind`` (a card's name)."""
    def deco(fn: ChoiceHandler) -> ChoiceHandler:
        CHOICE_HANDLERS[kind] = fn
        return fn
    return deco


EMPTY = CardEffect("")

# Per card instance id: its effect record (filled by ``freeze`` once every effect is registered).
BY_CARD: list[CardEffect] = []
# Lookup tables that let the engine skip cards without a given hook (built by ``freeze``):
# per stat ("attack", "hp", "speed"), the station instances and the system instances with a
# bonus hook for it; and the station instances that raise a system's maximum development.
STAT_STATIONS: dict[str, tuple[int, ...]] = {}
STAT_SYSTEMS: dict[str, frozenset[int]] = {}
DEV_STATIONS: tuple[int, ...] = ()


def get(name: str) -> CardEffect:
    """The effect of a card, or an empty record for cards without code."""
    return EFFECTS.get(name, EMPTY)


def stat_hook(eff: CardEffect, stat: str) -> StatHook | None:
    """The bonus hook of ``eff`` for ``stat`` ("attack", "hp" or "speed"), or None."""
    hook: StatHook | None = getattr(eff, stat)
    return hook


def freeze(card_defs: Sequence[CardDef]) -> None:
    """Build the lookup tables; instance ids index ``card_defs`` (``catalogue.CARD_DEF``).
    ValueError names an effect whose ``target_kinds`` holds a kind not in ``TARGET_KINDS``."""
    global DEV_STATIONS
    for eff in EFFECTS.values():
        unknown = set(eff.target_kinds) - TARGET_KINDS
        if unknown:
            raise ValueError(f"{eff.name}: unknown target kind(s) {sorted(unknown)}; "
                             f"kinds are {sorted(TARGET_KINDS)}")
    BY_CARD[:] = [get(d.name) for d in card_defs]
    for stat in ("attack", "hp", "speed"):
        ids = [i for i, eff in enumerate(BY_CARD) if stat_hook(eff, stat) is not None]
        STAT_STATIONS[stat] = tuple(i for i in ids if card_defs[i].is_station)
        STAT_SYSTEMS[stat] = frozenset(i for i in ids if card_defs[i].is_system)
    DEV_STATIONS = tuple(i for i, eff in enumerate(BY_CARD) if eff.max_dev_bonus)
