"""Actions: tuples ``(kind, *args)`` of strings and integers (typed per kind in :mod:`.moves`),
their argument checks and JSON form, and the dispatch from the current decision step to legality
checks and handlers. The text notation is in :mod:`.notation`.

Every decision of the game is one of these (see ``docs/architecture.md`` for the list).
"""
from __future__ import annotations

from mypy_extensions import mypyc_attr

from functools import cache
from itertools import islice
from typing import Any, Callable, Final, cast

from ..cards.catalogue import STANDARD, Catalogue
from . import combat, commands, priority, trade
from ...errors import IllegalAction
from .kernel import ENGINE_CHOICES
from .moves import ACTION_TYPES, ACTIONS
from .moves import Action as TypedAction
from .ruleset import TARGET_KINDS
from .state import ActionTuple, GameState

Action = ActionTuple  # a plain or typed action tuple
Check = Callable[[GameState, int, Action], "str | None"]
Do = Callable[[GameState, int, Action], None]
Span = Callable[[GameState], tuple[int, int]]


# --------------------------------------------------------------------------- argument kinds
#
# Before any rule check runs, every argument is checked against the kind of its field: its type
# (compared exactly, so a bool is no number and no subclass with an odd __eq__ or __hash__ gets
# in) and its range. The rule checks here, in commands/trade/combat/play and in card effects
# can then rely on exact ints and strs of a sane size.

MAX_AMOUNT: Final = 999_999  # far above any credits, attack or count a game reaches; refuses 10**30
MAX_LIST: Final = 32  # the most values a "*" field (targets, cards) may hold
MAX_CARRY: Final = max(d.carry for d in STANDARD.defs)  # MOVE-3: the most fighters a standard ship carries


@cache
def _most_carried(catalogue: Catalogue) -> int:
    """MOVE-3: the most fighters any ship of ``catalogue`` carries."""
    return max((d.carry for d in catalogue.defs), default=0)


class FieldKind:
    """What one argument may hold: integers in ``span(g)`` (inclusive; none if ``span`` is
    None) and strings in ``words`` (none if None; any string if ``any_word``). ``noun`` names
    the kind in reasons, e.g. "a board position"."""

    __slots__ = ("noun", "span", "words", "any_word")

    def __init__(self, noun: str, span: Span | None = None, words: tuple[str, ...] | None = None,
                 any_word: bool = False) -> None:
        self.noun, self.span, self.words, self.any_word = noun, span, words, any_word

    def takes(self, x: Any) -> bool:
        """Is ``x`` of a type this kind takes? (What can be checked before a game is known.)"""
        t = type(x)
        if t is int:
            return self.span is not None
        return t is str and (self.any_word or self.words is not None)

    def fits(self, g: GameState, x: Any) -> bool:
        """Is ``x`` of the right type and in range in game ``g``?"""
        t = type(x)
        if t is int:
            if self.span is None:
                return False
            lo, hi = self.span(g)
            return bool(lo <= x <= hi)
        if t is str:
            return self.any_word or (self.words is not None and x in self.words)
        return False

    def describe(self, g: GameState | None) -> str:
        """The allowed values in words: "a board position 0..8", or without a game (so without
        ranges) "a board position (an integer)"."""
        parts = []
        if self.span is not None:
            if g is None:
                parts.append("an integer")
            else:
                lo, hi = self.span(g)
                parts.append(f"{lo}..{hi}" if lo < hi else str(lo))
        if self.any_word:
            parts.append("a string")
        elif self.words is not None:
            parts.append("one of " + ", ".join(repr(w) for w in self.words))
        if g is not None and len(parts) == 1 and self.span is not None:
            return f"{self.noun} {parts[0]}"
        return f"{self.noun} ({' or '.join(parts)})"


def _const(lo: int, hi: int) -> Span:
    return lambda g: (lo, hi)


def _CARD_IDS(g: GameState) -> tuple[int, int]:  # noqa: N802  (a span, like the others)
    return 0, len(g.rules.cards) - 1


_AMOUNTS: Final = _const(0, MAX_AMOUNT)
_FLAG: Final = FieldKind("a flag", _const(0, 1))

# The field kinds by name. They include the target kinds of card effects
# (ruleset.TARGET_KINDS), so a card's targets are checked like any other field.
FIELD_KINDS: Final[dict[str, FieldKind]] = {
    "vessel": FieldKind("a vessel's card instance id", _CARD_IDS),
    "card": FieldKind("a card instance id", _CARD_IDS),
    "def": FieldKind("a card type index (Catalogue.defs)", lambda g: (0, len(g.rules.catalogue.defs) - 1)),
    "pos": FieldKind("a board position", lambda g: (0, len(g.sites) - 1)),
    "player": FieldKind("a player index", lambda g: (0, g.cfg.players - 1)),
    "flag": _FLAG,
    "explore": _FLAG,
    "carry": FieldKind("a number of fighters", lambda g: (0, _most_carried(g.rules.catalogue))),
    "amount": FieldKind("an amount", _AMOUNTS),
    "credits": FieldKind("a number of credits", _AMOUNTS),
    "count": FieldKind("a count", _AMOUNTS),
    "item": FieldKind("a trade item kind", words=trade.ITEM_KINDS),
    # Stands for the kind that the item before it picks (_ITEM_VALUE); only its type is known.
    "item_value": FieldKind("a trade item's value", _AMOUNTS),
    # Choices offer card ids, positions, deck indices, 1/0, "skip" or "decline": the rule
    # check looks the value up among the options.
    "option": FieldKind("an offered option", _AMOUNTS, any_word=True),
    # A card target whose kind is not declared (the card cannot be played or used that way,
    # and the rule check says so).
    "target": FieldKind("a target", _AMOUNTS),
}
_BY_ITEM: Final = FIELD_KINDS["item_value"]
_ONE: Final = FieldKind("exactly", _const(1, 1))  # credits and hand cards go one at a time
_ITEM_VALUE: Final[dict[str, FieldKind]] = {
    "credit": _ONE, "hand": _ONE, "card": FIELD_KINDS["card"], "tech": FIELD_KINDS["card"],
    "vessel": FIELD_KINDS["vessel"], "system": FIELD_KINDS["pos"]}

# Each kind's fields in tuple order: (name, field kind, rule). The one table that FIELDS (the
# JSON names) and the argument checks come from. The rule is the one cited when the value is out
# of range or of the wrong type: the rule the kind's own check cites for a value it refuses, so
# that IllegalAction.rule stays the same whichever check refuses. A "*" field takes the rest of
# the tuple as a list: "*cards" holds card ids, "*targets" a card's targets (see _target_kinds).
SIGNATURES: Final[dict[str, tuple[tuple[str, str, str], ...]]] = {
    "jump": (("vessel", "vessel", "MOVE-1"), ("to", "pos", "MOVE-1"), ("explore", "explore", "EXPLORE-1"),
             ("carry", "carry", "MOVE-3")),
    "build": (("card", "def", "BUILD-1"), ("at", "pos", "BUILD-1")),
    "develop": (("at", "pos", "DEV-1"),),
    "play": (("card", "card", "PLAY-1"), ("*targets", "target", "TARGET-2")),
    "ability": (("source", "card", "RESP-1"), ("*targets", "target", "TARGET-2")),
    "scrap": (("vessel", "vessel", "SCRAP-1"),),
    "repair": (("vessel", "vessel", "REPAIR-1"),),
    "buy": (),
    "sell": (("card", "card", "TRADE-2"), ("other", "card", "TRADE-2")),
    "offer": (("to", "player", "TRADE-3"),),
    "give": (("item", "item", "TRADE-3"), ("value", "item_value", "TRADE-3")),
    "ask": (("item", "item", "TRADE-3"), ("value", "item_value", "TRADE-3")),
    "propose": (),
    "cancel": (),
    "accept": (("*cards", "card", "TRADE-3"),),
    "decline": (),
    "end": (),
    "pass": (),
    "redirect": (("vessel", "vessel", "COMBAT-5"), ("from", "vessel", "COMBAT-5")),
    "fight": (("at", "pos", "COMBAT-1"),),
    "assign": (("vessel", "vessel", "COMBAT-3"), ("target", "vessel", "TARGET-1"),
               ("amount", "amount", "COMBAT-4")),
    "retreat": (("vessel", "vessel", "COMBAT-7"), ("to", "pos", "COMBAT-7")),
    "done": (),
    "choose": (("value", "option", ""),),
}

# Field names of each kind, for the JSON form; "*" collects the rest. They come from the action
# types (moves.py); SIGNATURES must name the same fields in the same order.
FIELDS: Final[dict[str, tuple[str, ...]]] = {k: ACTIONS.fields(k) for k in SIGNATURES}
assert SIGNATURES.keys() == ACTION_TYPES.keys(), "every action kind needs a type and a signature"
assert all(FIELDS[k] == tuple(f[0] for f in sig) for k, sig in SIGNATURES.items()), \
    "SIGNATURES must name the fields of the action types (moves.py)"


def _prefix(kind: str, rule: str) -> str:
    """The start of a reason about one of ``kind``'s fields: "RULE-ID: kind: " or "kind: "."""
    return f"{rule}: {kind}: " if rule else f"{kind}: "


# Derived once, so that checking an action is a short loop: per kind, the fixed fields as
# (name, FieldKind, reason prefix), the "*" field as (name, element kind name, reason prefix)
# or None, and the JSON keys.
_FIXED: Final[dict[str, tuple[tuple[str, FieldKind, str], ...]]] = {
    k: tuple((f, FIELD_KINDS[fk], _prefix(k, rule)) for f, fk, rule in sig if not f.startswith("*"))
    for k, sig in SIGNATURES.items()}
_STAR: Final[dict[str, tuple[str, str, str] | None]] = {
    k: next(((f[1:], fk, _prefix(k, rule)) for f, fk, rule in sig if f.startswith("*")), None)
    for k, sig in SIGNATURES.items()}
_JSON_KEYS: Final[dict[str, frozenset[str]]] = {
    k: frozenset(f.lstrip("*") for f in fields) | {"type"} for k, fields in FIELDS.items()}
# Per kind, the JSON fields in tuple order as (key, is a "*" field, FieldKind).
_JSON_PLAN: Final[dict[str, tuple[tuple[str, bool, FieldKind], ...]]] = {
    k: tuple((f.lstrip("*"), f.startswith("*"), FIELD_KINDS[fk]) for f, fk, _ in sig)
    for k, sig in SIGNATURES.items()}
assert TARGET_KINDS <= FIELD_KINDS.keys(), "every card target kind needs a field kind"
_TYPED: Final = frozenset(ACTION_TYPES.values())


def target_kinds(g: GameState, kind: str, cid: int) -> tuple[str, ...] | None:
    """The kinds of the targets taken when card ``cid`` is played (``kind`` "play") or its
    ability used ("ability"): a Command's or ability's declared ``target_kinds`` (none without
    a ``targets`` hook), a station's position, none for a technology. None when they are not
    known: the card has no such use (the rule check refuses it), or declares no kinds for its
    ``targets`` hook (a card whose targets are always empty; one that forgot them must not be
    refused here).
    The targets then need only be integers."""
    eff = g.rules.by_card[cid]
    if kind == "play":
        d = g.rules.cards[cid]
        if d.kind == "station":
            return ("pos",)
        if d.kind == "technology":
            return ()
        if d.kind != "command":
            return None
    elif eff.resolve is None:
        return None
    if eff.targets is None:
        return ()
    return eff.target_kinds or None


def malformed(g: GameState, a: Any) -> str | None:
    """Why ``a`` is not a well-formed action for game ``g`` (a tuple of a known kind, the right
    number of arguments, each of its field's type and range), or None. It reads only the
    catalogue and the game's size and player count, so it is right for any input whatever."""
    t = type(a)
    if (t is not tuple and (t not in _TYPED or not a or ACTION_TYPES.get(a[0]) is not t)) or not a:
        return f"an action is a tuple (kind, *arguments), not {_brief(a)}"
    kind = a[0]
    if type(kind) is not str or kind not in SIGNATURES:
        return f"unknown action kind {_brief(kind)}; kinds are: {', '.join(FIELDS)}"
    fixed = _FIXED[kind]
    star = _STAR[kind]
    n = len(a) - 1
    if n < len(fixed) or (n > len(fixed) and star is None):
        return f"'{kind}' takes the arguments ({', '.join(FIELDS[kind])}), not {n} argument(s)"
    for i, (name, fk, head) in enumerate(fixed, 1):
        x = a[i]
        if fk is _BY_ITEM:  # its kind depends on the item field before it, already checked
            fk = _ITEM_VALUE[a[i - 1]]
            if not fk.fits(g, x):
                return f"{head}field '{name}' must be {fk.describe(g)} for item '{a[i - 1]}', not {_brief(x)}"
        elif not fk.fits(g, x):
            return f"{head}field '{name}' must be {fk.describe(g)}, not {_brief(x)}"
    if star is None:
        return None
    name, elem, head = star
    rest = a[1 + len(fixed):]
    if len(rest) > MAX_LIST:
        return f"{head}field '{name}' holds at most {MAX_LIST} values, not {len(rest)}"
    kinds = target_kinds(g, kind, a[1]) if elem == "target" else (elem,) * len(rest)
    if kinds is None:
        kinds = (elem,) * len(rest)
    else:
        if kind == "play" and g.rules.cards[a[1]].kind == "station":
            head = _prefix(kind, "BUILD-8")  # what check_play cites for a station's place
        if len(kinds) != len(rest):
            return (f"{head}field '{name}' of {g.rules.cards[a[1]].name} holds {len(kinds)} value(s) "
                    f"({', '.join(kinds) or 'none'}), not {len(rest)}")
    for j, (x, k) in enumerate(zip(rest, kinds)):
        fk = FIELD_KINDS[k]
        if not fk.fits(g, x):
            return f"{head}field '{name}' value {j} ({k}) must be {fk.describe(g)}, not {_brief(x)}"
    return None


# --------------------------------------------------------------------------- showing any value

_BRIEF_ITEMS, _BRIEF_CHARS, _BRIEF_DEPTH = 6, 40, 3


def _brief(x: Any, depth: int = 0) -> str:
    """``repr(x)`` for ordinary values; a bounded summary for anything huge, deep or exotic.

    It never raises: ``repr`` itself fails on an int of more than 4300 digits (ValueError) and on
    a deeply nested list (RecursionError), and other classes may do anything in ``__repr__``.
    Containers are read through the base class's own methods, so subclasses cannot interfere.
    """
    t = type(x)
    if x is None or t is bool or t is float:
        return repr(x)
    if t is int:
        bits = x.bit_length()
        return repr(x) if bits <= 64 else f"<an integer of about {int(bits * 0.30103) + 1} digits>"
    if t is str or t is bytes:
        return repr(x) if len(x) <= _BRIEF_CHARS else f"{x[:_BRIEF_CHARS]!r}…<{len(x)} long>"
    for base, left, right in ((tuple, "(", ")"), (list, "[", "]"), (dict, "{", "}")):
        if issubclass(t, base):
            size = base.__len__(x)
            if depth >= _BRIEF_DEPTH and size:
                return f"{left}…{right}"
            if base is dict:
                shown = [f"{_brief(k, depth + 1)}: {_brief(v, depth + 1)}"
                         for k, v in islice(dict.items(x), _BRIEF_ITEMS)]
            else:
                shown = [_brief(v, depth + 1) for v in islice(base.__iter__(x), _BRIEF_ITEMS)]
            if size > _BRIEF_ITEMS:
                shown.append(f"…<{size} items>")
            elif base is tuple and size == 1:
                shown[0] += ","  # (x,)
            return left + ", ".join(shown) + right
    # type.__dict__ holds the real name even for a metaclass that redefines __name__.
    return f"<{type.__dict__['__name__'].__get__(t, type)} object>"


@mypyc_attr(native_class=False)
class _Shown(str):
    """Text that is its own repr: IllegalAction shows its action with ``!r``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str.__str__(self)


def _illegal(reason: str, action: Any) -> IllegalAction:
    """``IllegalAction(reason, action)``, its message showing ``action`` through :func:`_brief`
    (so that building it cannot fail), its ``action`` the value itself."""
    exc = IllegalAction(reason, _Shown(_brief(action)))
    exc.action = action
    return exc


def _always(g: GameState, p: int, a: Action) -> str | None:
    return None


def _check_choose(g: GameState, p: int, a: Action) -> str | None:
    assert g.choice is not None, "a choice is pending at the choice step"
    if len(a) != 2 or a[1] not in g.choice.options:
        return f"choose one of the offered options for '{g.choice.kind}'"
    return None


def _do_choose(g: GameState, p: int, a: Action) -> None:
    choice = g.choice
    assert choice is not None, "a choice is pending at the choice step"
    g.choice, g.step = None, None
    handler = ENGINE_CHOICES.get(choice.kind) or g.rules.choice_handlers[choice.kind]
    handler(g, choice, a[1])


HANDLERS: Final[dict[str, tuple[Check, Do]]] = {
    "jump": (commands.check_jump, commands.do_jump),
    "build": (commands.check_build, commands.do_build),
    "develop": (commands.check_develop, commands.do_develop),
    "play": (commands.check_play, priority.do_play),
    "ability": (commands.check_ability, priority.do_ability),
    "scrap": (commands.check_scrap, commands.do_scrap),
    "repair": (commands.check_repair, commands.do_repair),
    "buy": (commands.check_buy, commands.do_buy),
    "sell": (commands.check_sell, commands.do_sell),
    "offer": (trade.check_offer, trade.do_offer),
    "give": (trade.check_item, trade.do_item),
    "ask": (trade.check_item, trade.do_item),
    "propose": (trade.check_propose, trade.do_propose),
    "cancel": (_always, trade.do_cancel),
    "accept": (trade.check_accept, trade.do_accept),
    "decline": (_always, trade.do_decline),
    "end": (_always, commands.do_end),
    "pass": (_always, priority.do_pass),
    "redirect": (combat.check_redirect, priority.do_redirect),
    "fight": (combat.check_fight, combat.do_fight),
    "assign": (combat.check_assign, combat.do_assign),
    "retreat": (combat.check_retreat, combat.do_retreat),
    "done": (_always, combat.do_done),
    "choose": (_check_choose, _do_choose),
}

STEP_KINDS: Final[dict[str, frozenset[str]]] = {
    "command": frozenset({"jump", "build", "develop", "play", "ability", "scrap", "repair", "buy",
                          "sell", "offer", "end"}),
    "priority": frozenset({"pass", "play", "ability", "redirect", "build"}),
    "build_window": frozenset({"build", "pass"}),
    "combat_pick": frozenset({"fight"}),
    "assign": frozenset({"assign", "done"}),
    "retreat": frozenset({"retreat", "done"}),
    "choice": frozenset({"choose"}),
    "trade_build": frozenset({"give", "ask", "propose", "cancel"}),
    "trade_answer": frozenset({"accept", "decline"}),
    "over": frozenset(),
}


# --------------------------------------------------------------------------- legal actions


def command_actions(g: GameState, p: int) -> list[Action]:
    out: list[Action] = [("end",)]
    out += commands.jump_actions(g, p)
    out += commands.build_actions(g, p)
    out += commands.develop_actions(g, p)
    out += commands.play_actions(g, p, commands_only=False)
    out += commands.ability_actions(g, p)
    out += commands.scrap_actions(g, p)
    out += commands.repair_actions(g, p)
    if commands.check_buy(g, p, ("buy",)) is None:
        out.append(("buy",))
    out += commands.sell_actions(g, p)
    for q in range(g.cfg.players):  # a loop: a comprehension costs more for so few
        if trade.check_offer(g, p, ("offer", q)) is None:
            out.append(("offer", q))
    return out


def trade_build_actions(g: GameState, p: int) -> list[Action]:
    out = trade.item_actions(g, p)
    out.append(("cancel",))
    if trade.check_propose(g, p, ("propose",)) is None:
        out.append(("propose",))
    return out


LEGAL: Final[dict[str, Callable[[GameState, int], list[Action]]]] = {
    "command": command_actions,
    "priority": priority.priority_actions,
    "build_window": lambda g, p: [("pass",)] + commands.build_actions(g, p, ships_only=True),
    "combat_pick": combat.fight_actions,
    "assign": combat.assign_actions,
    "retreat": lambda g, p: combat.retreat_actions(g, p) + [("done",)],
    "choice": lambda g, p: [("choose", v) for v in g.choice.options] if g.choice else [],
    "trade_build": trade_build_actions,
    "trade_answer": trade.answer_actions,
    "over": lambda g, p: [],
}


_new = tuple.__new__


def typed(a: tuple[Any, ...]) -> TypedAction:
    """The typed value (:mod:`.moves`) equal to the well-formed action tuple ``a`` (see
    :func:`malformed`), for named access to its fields: ``typed(a).vessel``."""
    return _new(ACTION_TYPES[a[0]], a)


def legal_actions(g: GameState) -> list[Action]:
    """Every legal action of the player who must decide now (empty when the game is over).

    They are plain tuples, each equal to (and hashing as) its typed value (:func:`typed`):
    building a typed value costs a Python call per action, which made random playouts some 6%
    slower, and this list is the search agents' hot path."""
    step = g.step
    assert step is not None, "a decision is pending while the game runs (step 'over' after)"
    return LEGAL[step](g, g.actor)


def why_illegal(g: GameState, a: Any) -> str | None:
    """The reason ``a`` is illegal now (with the rule ID), or None if it is legal. ``a`` may be
    anything: what is not a well-formed action tuple (see :func:`malformed`) is refused before any
    rule is looked at, and nothing here changes the state."""
    if g.over:
        return "WIN-1: the game is over"
    reason = malformed(g, a)
    if reason is not None:
        return reason
    step = g.step
    assert step is not None, "a decision is pending while the game runs"
    if a[0] not in STEP_KINDS[step]:
        allowed = ", ".join(sorted(STEP_KINDS[step]))
        return f"'{a[0]}' is not possible now: player {g.actor} must decide ({g.step}: {allowed})"
    return HANDLERS[a[0]][0](g, g.actor, a)


def perform(g: GameState, a: Action) -> None:
    """Apply a legal action (checked or generated by :func:`legal_actions`)."""
    HANDLERS[a[0]][1](g, g.actor, a)


def validate(g: GameState, a: Any, player: Any = None) -> TypedAction:
    """Normalise ``a`` (tuple, list or JSON dict) and raise :class:`IllegalAction` if it is not
    legal now for ``player`` (default: whoever must decide); return the typed action.

    Contract: for any ``a`` and ``player`` whatever, the only exception raised is IllegalAction,
    and the state is never changed (only :func:`perform` changes it)."""
    t = type(a)
    if t is tuple or t in _TYPED:
        act = a
    elif t is list:
        act = tuple(a)
    elif issubclass(t, dict):
        act = from_json(a)
    elif issubclass(t, (tuple, list)):  # read through the base class: overrides do not run
        act = tuple(tuple.__iter__(a) if issubclass(t, tuple) else list.__iter__(a))
    else:
        act = a
    if player is not None and (type(player) is not int or player != g.actor):
        raise _illegal(f"RESP-2: it is player {g.actor}'s decision, not player {_brief(player)}'s", act)
    reason = why_illegal(g, act)
    if reason is not None:
        raise _illegal(reason, act)
    return typed(act)


# --------------------------------------------------------------------------- JSON and notation


def to_json(a: Action) -> dict[str, Any]:
    """``a`` as a JSON object: ``{"type": kind, field: value, ...}``, the fields named as in
    :data:`FIELDS` (a "*" field as a list)."""
    return ACTIONS.to_dict(a)


def from_json(data: Any) -> TypedAction:
    """Inverse of :func:`to_json`. Raises IllegalAction naming what is malformed: ``data`` that
    is not a dict, a ``type`` that is not a known kind, a missing field, a field the kind does
    not take, or a field of the wrong shape (a "*" field must be a list of integers, any other an
    integer or string as its kind takes). Ranges need the game: :func:`why_illegal` checks them."""
    if not issubclass(type(data), dict):
        raise _illegal(f"an action in JSON form is an object like {{\"type\": \"end\"}}, "
                       f"not {_brief(data)}", data)
    # Keys first, and by exact type: any lookup below compares keys, and a str subclass could
    # do anything in its __eq__.
    for key in dict.__iter__(data):
        if type(key) is not str:
            raise _illegal(f"field names are strings, not {_brief(key)}", data)
    if not dict.__contains__(data, "type"):
        raise _illegal(f"the action has no 'type'; types are: {', '.join(FIELDS)}", data)
    kind = dict.__getitem__(data, "type")
    if type(kind) is not str or kind not in SIGNATURES:
        raise _illegal(f"unknown action type {_brief(kind)}; types are: {', '.join(FIELDS)}", data)
    plan = _JSON_PLAN[kind]
    if dict.__len__(data) != len(plan) + 1:  # with every field present, no key is unknown
        keys = _JSON_KEYS[kind]
        for key in dict.__iter__(data):
            if key not in keys:
                fields = ", ".join(f.lstrip("*") for f in FIELDS[kind]) or "none"
                raise _illegal(f"action '{kind}' has no field {_brief(key)} (its fields: {fields})", data)
    args: list[Any] = []
    for key, star, fk in plan:
        if not dict.__contains__(data, key):
            raise _illegal(f"action '{kind}' is missing the field '{key}'", data)
        val = dict.__getitem__(data, key)
        if star:
            vt = type(val)
            if not issubclass(vt, (list, tuple)):
                raise _illegal(f"action '{kind}': field '{key}' must be a list, not {_brief(val)}", data)
            base = list if issubclass(vt, list) else tuple
            if base.__len__(val) > MAX_LIST:
                raise _illegal(f"action '{kind}': field '{key}' holds at most {MAX_LIST} values, "
                               f"not {base.__len__(val)}", data)
            vals = tuple(base.__iter__(val))
            for j, x in enumerate(vals):
                if type(x) is not int:  # every card id and target kind is an integer
                    raise _illegal(f"action '{kind}': field '{key}' value {j} must be an integer, "
                                   f"not {_brief(x)}", data)
            args.extend(vals)
        elif not fk.takes(val):
            raise _illegal(f"action '{kind}': field '{key}' must be {fk.describe(None)}, "
                           f"not {_brief(val)}", data)
        else:
            args.append(val)
    return typed((kind, *args))
