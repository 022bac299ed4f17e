"""Actions: plain tuples ``(kind, *args)`` of strings and integers, their JSON form, their short
text notation, and the dispatch from the current decision step to legality checks and handlers.

Every decision of the game is one of these (see ``docs/architecture.md`` for the list).
"""
from __future__ import annotations

from typing import Any, Callable

from ..cards.catalogue import CARD_DEF, DEFS
from . import combat, commands, trade
from .board import name as pos_name
from .errors import IllegalAction
from .flow import next_alive, settle_priority
from .state import GameState

Action = tuple
Check = Callable[[GameState, int, Action], "str | None"]
Do = Callable[[GameState, int, Action], None]

# Field names of each kind, for the JSON form; "*" collects the rest.
FIELDS: dict[str, tuple[str, ...]] = {
    "jump": ("vessel", "to", "explore", "carry"),
    "build": ("card", "at"),
    "develop": ("at",),
    "play": ("card", "*targets"),
    "ability": ("source", "*targets"),
    "scrap": ("vessel",),
    "repair": ("vessel",),
    "buy": (),
    "sell": ("card", "other"),
    "offer": ("to",),
    "give": ("item", "value"),
    "ask": ("item", "value"),
    "propose": (),
    "cancel": (),
    "accept": ("*cards",),
    "decline": (),
    "end": (),
    "pass": (),
    "redirect": ("vessel", "from"),
    "fight": ("at",),
    "assign": ("vessel", "target", "amount"),
    "retreat": ("vessel", "to"),
    "done": (),
    "choose": ("value",),
}


def _always(g: GameState, p: int, a: Action) -> str | None:
    return None


def _check_choose(g: GameState, p: int, a: Action) -> str | None:
    if len(a) != 2 or a[1] not in g.choice["options"]:
        return f"choose one of the offered options for '{g.choice['kind']}'"
    return None


def _do_choose(g: GameState, p: int, a: Action) -> None:
    from ..cards.registry import CHOICE_HANDLERS
    from .flow import ENGINE_CHOICES
    choice = g.choice
    g.choice, g.step = None, None
    handler = ENGINE_CHOICES.get(choice["kind"]) or CHOICE_HANDLERS[choice["kind"]]
    handler(g, choice, a[1])


def _do_pass(g: GameState, p: int, a: Action) -> None:
    if g.step == "build_window":
        g.tasks.pop()
        g.step = None
        return
    g.passes += 1
    g.prio = next_alive(g, g.prio)
    settle_priority(g)


HANDLERS: dict[str, tuple[Check, Do]] = {
    "jump": (commands.check_jump, commands.do_jump),
    "build": (commands.check_build, commands.do_build),
    "develop": (commands.check_develop, commands.do_develop),
    "play": (commands.check_play, commands.do_play),
    "ability": (commands.check_ability, commands.do_ability),
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
    "pass": (_always, _do_pass),
    "redirect": (combat.check_redirect, combat.do_redirect),
    "fight": (combat.check_fight, combat.do_fight),
    "assign": (combat.check_assign, combat.do_assign),
    "retreat": (combat.check_retreat, combat.do_retreat),
    "done": (_always, combat.do_done),
    "choose": (_check_choose, _do_choose),
}

STEP_KINDS: dict[str, frozenset[str]] = {
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
    out += [("scrap", v.id) for v in g.vessels.values() if v.owner == p and commands.check_scrap(g, p, ("scrap", v.id)) is None]
    if g.ed.repair:
        out += [("repair", v.id) for v in g.vessels.values() if v.owner == p and commands.check_repair(g, p, ("repair", v.id)) is None]
    if commands.check_buy(g, p, ("buy",)) is None:
        out.append(("buy",))
    out += commands.sell_actions(g, p)
    out += [("offer", q) for q in range(g.cfg.players) if trade.check_offer(g, p, ("offer", q)) is None]
    return out


def priority_actions(g: GameState, p: int) -> list[Action]:
    out: list[Action] = [("pass",)]
    out += commands.play_actions(g, p, commands_only=True)
    out += commands.ability_actions(g, p)
    out += combat.redirect_actions(g, p)
    if p == g.active and not g.stack and commands.builds_any_phase(g, p):
        out += commands.build_actions(g, p, ships_only=True)
    return out


def trade_build_actions(g: GameState, p: int) -> list[Action]:
    out = trade.item_actions(g, p) + [("cancel",)]
    if trade.check_propose(g, p, ("propose",)) is None:
        out.append(("propose",))
    return out


LEGAL: dict[str, Callable[[GameState, int], list[Action]]] = {
    "command": command_actions,
    "priority": priority_actions,
    "build_window": lambda g, p: [("pass",)] + commands.build_actions(g, p, ships_only=True),
    "combat_pick": combat.fight_actions,
    "assign": combat.assign_actions,
    "retreat": lambda g, p: combat.retreat_actions(g, p) + [("done",)],
    "choice": lambda g, p: [("choose", v) for v in g.choice["options"]],
    "trade_build": trade_build_actions,
    "trade_answer": trade.answer_actions,
    "over": lambda g, p: [],
}


def legal_actions(g: GameState) -> list[Action]:
    """Every legal action of the player who must decide now (empty when the game is over)."""
    return LEGAL[g.step](g, g.actor)


def why_illegal(g: GameState, a: Action) -> str | None:
    """The reason ``a`` is illegal now (with the rule ID), or None if it is legal."""
    if g.over:
        return "WIN-1: the game is over"
    if not isinstance(a, tuple) or not a or a[0] not in HANDLERS:
        return f"unknown action {a!r}; kinds are: {', '.join(FIELDS)}"
    if any(not isinstance(x, (int, str)) or isinstance(x, bool) for x in a[1:]):
        return f"action {a!r}: arguments must be integers or strings"
    fields = FIELDS[a[0]]
    fixed = len([f for f in fields if not f.startswith("*")])
    if len(a) - 1 < fixed or (len(a) - 1 > fixed and fixed == len(fields)):
        return f"'{a[0]}' takes the arguments ({', '.join(fields)}), not {len(a) - 1} argument(s)"
    if a[0] not in STEP_KINDS[g.step]:
        allowed = ", ".join(sorted(STEP_KINDS[g.step]))
        return f"'{a[0]}' is not possible now: player {g.actor} must decide ({g.step}: {allowed})"
    return HANDLERS[a[0]][0](g, g.actor, a)


def perform(g: GameState, a: Action) -> None:
    """Apply a legal action (checked or generated by :func:`legal_actions`)."""
    HANDLERS[a[0]][1](g, g.actor, a)


def validate(g: GameState, a: Any, player: int | None = None) -> Action:
    """Normalise ``a`` (tuple, list or JSON dict) and raise :class:`IllegalAction` if it is not
    legal now for ``player`` (default: whoever must decide)."""
    act = from_json(a) if isinstance(a, dict) else tuple(a) if isinstance(a, (list, tuple)) else a
    if player is not None and player != g.actor:
        raise IllegalAction(f"RESP-2: it is player {g.actor}'s decision, not player {player}'s", act)
    reason = why_illegal(g, act)
    if reason is not None:
        raise IllegalAction(reason, act)
    return act


# --------------------------------------------------------------------------- JSON and notation


def to_json(a: Action) -> dict[str, Any]:
    fields = FIELDS[a[0]]
    out: dict[str, Any] = {"type": a[0]}
    for i, f in enumerate(fields):
        if f.startswith("*"):
            out[f[1:]] = list(a[1 + i:])
            break
        out[f] = a[1 + i]
    return out


def from_json(data: dict[str, Any]) -> Action:
    """Inverse of :func:`to_json`; raises IllegalAction naming what is malformed."""
    kind = data.get("type")
    if kind not in FIELDS:
        raise IllegalAction(f"unknown action type {kind!r}; types are: {', '.join(FIELDS)}", data)
    args: list[Any] = []
    for f in FIELDS[kind]:
        key = f.lstrip("*")
        if key not in data:
            raise IllegalAction(f"action '{kind}' is missing the field '{key}'", data)
        val = data[key]
        if f.startswith("*"):
            if not isinstance(val, list):
                raise IllegalAction(f"action '{kind}': field '{key}' must be a list", data)
            args.extend(val)
        else:
            args.append(val)
    return (kind, *args)


def notation(a: Action, size: int | None = None) -> str:
    """A short text form for logs, e.g. ``jump #93 b2`` or ``build Corvette c3``."""
    def pos(x: int) -> str:
        return pos_name(x, size) if size else str(x)

    def card(x: int) -> str:
        return f"{CARD_DEF[x].name}#{x}" if isinstance(x, int) and 0 <= x < len(CARD_DEF) else str(x)

    k = a[0]
    if k == "jump":
        extra = (" +explore" if a[3] and size is None else "") + (f" +{a[4]} fighters" if a[4] else "")
        return f"jump {card(a[1])} {pos(a[2])}{extra}"
    if k == "build":
        return f"build {DEFS[a[1]].name} {pos(a[2])}"
    if k in ("develop", "fight"):
        return f"{k} {pos(a[1])}"
    if k in ("play", "ability"):
        return f"{k} {card(a[1])}" + "".join(f" {x}" for x in a[2:])
    if k in ("scrap", "repair"):
        return f"{k} {card(a[1])}"
    if k == "assign":
        return f"assign {card(a[1])} -> {card(a[2])} x{a[3]}"
    if k == "retreat":
        return f"retreat {card(a[1])} {pos(a[2])}"
    if k == "redirect":
        return f"redirect {card(a[2])} -> {card(a[1])}"
    return " ".join(str(x) for x in a)
