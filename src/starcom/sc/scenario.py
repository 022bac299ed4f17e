"""Star Commander's scenarios: set up any position, script actions and choices, assert the outcome.

The format is documented in ``docs/scenarios.md``. Reading scenario files and running them
(``load``, ``run_files``) is the platform's (:mod:`starcom.scenarios`), which hands each
Star Commander scenario to :func:`run` here (the entry's ``tools.scenario``).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .cards.catalogue import BY_NAME, CARD_DEF, DOMAINS
from .engine import lasting as L
from .engine import rules as R
from .engine.actions import from_json
from .engine.board import parse as parse_pos
from ..games import LEGACY_GAME
from ..scenarios import Runner, Scenario, ScenarioError, load, play, run_files
from .engine.events import Event
from .engine.game import Game
from .engine.notation import parse as parse_notation
from .engine.state import NOBODY

POS_RE = re.compile(r"^[a-h][1-8]$")
NAME = "starcom"  # this game's name in the registry, which a scenario's ``game`` may give


# --------------------------------------------------------------------------- card bookkeeping


def _zones(g: Game) -> list[list[int]]:
    return [*g.decks, *g.discards, *g.hands, *g.techs, g.sysdeck, *g.supply.values()]


def _take(g: Game, name: str) -> int:
    """Remove a free copy of ``name`` from a deck, discard pile, system deck or the supply."""
    if name not in BY_NAME:
        raise ScenarioError(f"unknown card {name!r}")
    for zone in [*g.decks, *g.discards, g.sysdeck, *g.supply.values()]:
        for cid in reversed(zone):
            if CARD_DEF[cid].name == name:
                zone.remove(cid)
                return cid
    raise ScenarioError(f"no free copy of {name!r} left (all {BY_NAME[name].count} are in use)")


def _release(g: Game, cid: int) -> None:
    """Put a card back where unused copies live: its deck, the system deck or the supply."""
    d = CARD_DEF[cid]
    if d.domain == "neutral":
        g.supply[d.name].append(cid)
    elif d.is_system:
        g.sysdeck.insert(0, cid)
    else:
        g.decks[d.domain_index].insert(0, cid)


# --------------------------------------------------------------------------- setup


def _pos(g: Game, text: Any) -> int:
    if isinstance(text, int):
        return text
    try:
        return parse_pos(str(text), g.cfg.size)
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None


def build(spec: dict[str, Any]) -> tuple[Game, dict[str, int]]:
    """Create the game a scenario describes; returns it with the vessel labels."""
    # a misspelt key (``expext``) would otherwise silently check nothing
    stray = set(spec) - {"name", "description", "game", "players", "size", "edition", "seed", "turn_limit",
                         "setup", "actions", "expect", "allow_pending_choice"}
    if stray:
        raise ScenarioError(f"unknown scenario keys: {', '.join(sorted(map(str, stray)))}")
    g = Game.new(players=spec.get("players", 2), size=spec.get("size", 3),
                 edition=spec.get("edition", "standard"), seed=spec.get("seed", 0),
                 turn_limit=spec.get("turn_limit"))
    setup = spec.get("setup", {}) or {}
    labels: dict[str, int] = {}
    unknown = set(setup) - {"active", "turn", "phase", "players", "board", "vessels", "decks",
                            "system_deck"}
    if unknown:
        raise ScenarioError(f"unknown setup keys: {', '.join(sorted(unknown))}")
    g.events = []
    if "active" in setup:
        g.active = setup["active"]
    g.turn = setup.get("turn", 1)
    g.prev_turn = [g.turn - 1] * g.cfg.players
    for p, pspec in enumerate(setup.get("players", []) or []):
        _setup_player(g, p, pspec or {})
    for key, sspec in (setup.get("board", {}) or {}).items():
        _setup_site(g, _pos(g, key), sspec or {})
    if "vessels" in setup:
        for v in list(g.vessels.values()):
            R.remove_vessel(g, v)
        for vspec in setup["vessels"] or []:
            _setup_vessel(g, vspec, labels)
    for dom, names in (setup.get("decks", {}) or {}).items():
        if dom not in DOMAINS:
            raise ScenarioError(f"unknown deck {dom!r}: use one of {', '.join(DOMAINS)}")
        for name in reversed(names):  # first listed ends on top
            cid = _take(g, name)
            g.decks[DOMAINS.index(dom)].append(cid)
    for name in reversed(setup.get("system_deck", []) or []):
        g.sysdeck.append(_take(g, name))
    _start_phase(g, setup.get("phase", "command"))
    return g, labels


def _known(what: str, spec: dict[str, Any], keys: set[str]) -> None:
    stray = set(spec) - keys
    if stray:
        raise ScenarioError(f"unknown {what} keys: {', '.join(sorted(map(str, stray)))}")


def _setup_player(g: Game, p: int, pspec: dict[str, Any]) -> None:
    _known(f"player {p}", pspec, {"credits", "hand", "technologies", "prev_turn", "eliminated"})
    if "credits" in pspec:
        g.credits[p] = pspec["credits"]
    for key, zone in (("hand", g.hands[p]), ("technologies", g.techs[p])):
        if key in pspec:
            for cid in list(zone):
                zone.remove(cid)
                _release(g, cid)
            zone.extend(_take(g, name) for name in pspec[key])
    if "prev_turn" in pspec:
        g.prev_turn[p] = pspec["prev_turn"]
    if pspec.get("eliminated"):
        g.alive[p] = False


def _setup_site(g: Game, pos: int, sspec: dict[str, Any]) -> None:
    _known("board", sspec, {"system", "face_up", "owner", "devs", "combat_this_turn", "combat_turn",
                            "interdicted_by"})
    site = g.sites[pos]
    if "system" in sspec:
        name = sspec["system"]
        if CARD_DEF[site.card].name != name:
            if not BY_NAME.get(name) or not BY_NAME[name].is_system:
                raise ScenarioError(f"{name!r} is not a system card")
            old = site.card
            cid = _take(g, name)
            site.set_card(cid, g.rules.cards[cid])
            _release(g, old)
        site.face_up = sspec.get("face_up", True)
    elif "face_up" in sspec:
        site.face_up = sspec["face_up"]
    if "owner" in sspec:
        site.owner = NOBODY if sspec["owner"] is None else sspec["owner"]
        site.devs = sspec.get("devs", 1 if site.owner != NOBODY else 0)
    elif "devs" in sspec:
        site.devs = sspec["devs"]
    if sspec.get("combat_this_turn"):
        site.combat_turn = g.turn
    if "combat_turn" in sspec:
        site.combat_turn = sspec["combat_turn"]
    if "interdicted_by" in sspec:  # as if these players had played Interdiction here
        val = sspec["interdicted_by"]
        L.drop(g, L.Kind.NO_JUMP, pos)
        for q in [] if val is None else list(val) if isinstance(val, list) else [val]:
            L.add(g, L.Kind.NO_JUMP, pos, NOBODY, q, L.Until.READY)


def _setup_vessel(g: Game, vspec: dict[str, Any], labels: dict[str, int]) -> None:
    _known("vessel", vspec, {"card", "owner", "at", "label", "fresh", "damage", "jumps", "moved",
                             "atk_bonus", "hp_bonus", "shielded", "no_attack"})
    name = vspec.get("card")
    d = BY_NAME.get(name) if isinstance(name, str) else None
    if d is None or not d.is_vessel:
        raise ScenarioError(f"vessel card {name!r} is not a ship or station")
    v = R.place_vessel(g, _take(g, d.name), vspec.get("owner", 0), _pos(g, vspec.get("at")))
    v.fresh = v.built = bool(vspec.get("fresh", False))
    for key in ("damage", "jumps", "moved"):
        if key in vspec:
            setattr(v, key, vspec[key])
    # What cards give for a while, as if cards with no known source had given it:
    for key, kind in (("atk_bonus", L.Kind.ATTACK), ("hp_bonus", L.Kind.HP)):
        if vspec.get(key):
            L.add(g, kind, v.id, NOBODY, v.owner, L.Until.END_OF_TURN, int(vspec[key]))
    if vspec.get("shielded"):
        L.add(g, L.Kind.SHIELD, v.id, NOBODY, v.owner, L.Until.END_OF_TURN)
    if vspec.get("no_attack"):
        L.add(g, L.Kind.NO_ATTACK, v.id, NOBODY, v.owner, L.Until.READY)
    if "label" in vspec:
        labels[vspec["label"]] = v.id


def _start_phase(g: Game, phase: str) -> None:
    """Restart the turn machine at the start of ``phase`` of the active player's turn."""
    from .engine.flow import turn_tasks
    from .engine.kernel import advance
    try:
        g.tasks = turn_tasks(phase)
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    g.step, g.choice, g.trade, g.stack, g.assigned = None, None, None, [], []
    g.fought, g.combat_pos, g.phase = [], -1, phase
    advance(g)
    g.events = []


# --------------------------------------------------------------------------- actions


def resolve_arg(g: Game, kind: str, arg: Any, labels: dict[str, int],
                used: set[int] | None = None) -> Any:
    """Turn a scenario argument into an action argument: ``$label``, ``b2``, card names (an
    instance not in ``used``, so a name given twice means two copies)."""
    if not isinstance(arg, str):
        return arg
    if arg.startswith("$"):
        if arg[1:] not in labels:
            raise ScenarioError(f"unknown label {arg!r}")
        return labels[arg[1:]]
    if POS_RE.match(arg):
        return _pos(g, arg)
    if arg in BY_NAME:
        if kind == "build":
            return BY_NAME[arg].index
        return _find_card(g, arg, used or set())
    return arg


def _find_card(g: Game, name: str, used: set[int] | frozenset[int] = frozenset()) -> int:
    """The instance of ``name`` a player most likely means: in the deciding player's hand or
    technologies, on the stack, among the choice's options, on the board, in any hand or
    technology row, or a vessel in play (the deciding player's first)."""
    me = g.actor
    pools: list[list[int]] = [g.hands[me] if me >= 0 else [], g.techs[me] if me >= 0 else []]
    pools.append([it[2] for it in g.stack])
    pools.append([o for o in g.choice.options if isinstance(o, int)] if g.choice else [])
    pools.append([s.card for s in g.sites])
    pools.extend(g.hands)
    pools.extend(g.techs)  # e.g. asking for another player's technology in a trade
    # vessels in play (built ones have no label): the deciding player's first
    pools.append(sorted(g.vessels, key=lambda vid: (g.vessels[vid].owner != me, vid)))
    for pool in pools:
        for cid in pool:
            if isinstance(cid, int) and 0 <= cid < len(CARD_DEF) and CARD_DEF[cid].name == name \
                    and cid not in used:
                return cid
    raise ScenarioError(f"no {name!r} found in hand, technologies, stack or board")


def parse_action(g: Game, raw: Any, labels: dict[str, int]) -> tuple[Any, ...]:
    """The action a scenario step writes: a JSON object, a list of arguments (each as
    :func:`resolve_arg` reads it), or a text in the engine's notation
    (:mod:`starcom.sc.engine.notation`) with the scenario shortcuts ``$label`` and a card's bare
    name (the copy :func:`_find_card` finds; a name given twice means two copies)."""
    if isinstance(raw, dict):
        return from_json(raw)
    if isinstance(raw, str):
        if not raw.split():
            raise ScenarioError("empty action")
        used: set[int] = set()

        def lookup(token: str, kind: str) -> int:
            val = resolve_arg(g, kind, token, labels, used)
            if not token.startswith("$"):
                used.add(val)
            return int(val)

        return parse_notation(g, raw, lookup, strict=False)
    parts = list(raw)
    if not parts:
        raise ScenarioError("empty action")
    kind = str(parts[0])
    used = set()
    args = []
    for raw_arg in parts[1:]:
        val = resolve_arg(g, kind, raw_arg, labels, used)
        if isinstance(raw_arg, str) and raw_arg in BY_NAME and kind != "build":
            used.add(val)
        args.append(val)
    return (kind, *args)


# --------------------------------------------------------------------------- expectations


def _names(cids: list[int]) -> list[str]:
    return sorted(CARD_DEF[c].name for c in cids)


# Vessel fields a scenario may expect that cards set for a while (lasting effects).
_LASTING_FIELDS: dict[str, Callable[[Game, int], object]] = {
    "shielded": L.shielded, "untargetable": L.untargetable, "no_attack": L.attack_forbidden,
    "atk_bonus": L.attack_bonus, "hp_bonus": L.hp_bonus, "extra_targets": L.extra_targets,
    "can_redirect": L.may_redirect, "redirected": L.has_redirected,
}


def check(g: Game, expect: dict[str, Any], labels: dict[str, int]) -> list[str]:
    """Compare the game with an expectation mapping; returns the mismatches."""
    bad: list[str] = []

    def cmp(what: str, got: Any, want: Any) -> None:
        if got != want:
            bad.append(f"{what}: expected {want!r}, got {got!r}")

    for key, want in expect.items():
        if key == "credits":
            for p, n in want.items():
                cmp(f"credits of P{p}", g.credits[p], n)
        elif key == "hand_size":
            for p, n in want.items():
                cmp(f"hand size of P{p}", len(g.hands[p]), n)
        elif key == "hand":
            for p, names in want.items():
                cmp(f"hand of P{p}", _names(g.hands[p]), sorted(names))
        elif key == "technologies":
            for p, names in want.items():
                cmp(f"technologies of P{p}", _names(g.techs[p]), sorted(names))
        elif key == "site":
            for name, fields in want.items():
                site = g.sites[_pos(g, name)]
                for f, val in fields.items():
                    if f == "system":
                        cmp(f"system at {name}", CARD_DEF[site.card].name, val)
                    elif f == "owner":
                        cmp(f"owner of {name}", None if site.owner == NOBODY else site.owner, val)
                    elif f in ("under_siege", "contested"):
                        cmp(f"{f} at {name}", getattr(R, f)(g, _pos(g, name)), val)
                    elif f == "max_dev":
                        cmp(f"max_dev at {name}", R.max_dev(g, _pos(g, name)), val)
                    elif f == "interdicted_by":
                        cmp(f"{f} of {name}", L.jump_blockers(g, _pos(g, name)), val)
                    else:
                        cmp(f"{f} of {name}", getattr(site, f), val)
        elif key == "vessel":
            for label, fields in want.items():
                if label.lstrip("$") not in labels:
                    bad.append(f"vessel {label}: unknown label (labels: {', '.join(sorted(labels))})")
                    continue
                vid = labels.get(label.lstrip("$"))
                v = g.vessels.get(vid) if vid is not None else None
                if fields == "destroyed" or fields is None:
                    if v is not None:
                        bad.append(f"vessel {label}: expected destroyed, still at {v.pos}")
                    continue
                if v is None:
                    bad.append(f"vessel {label}: expected in play, but it is gone")
                    continue
                for f, val in fields.items():
                    got = {"pos": lambda: v.pos, "attack": lambda: R.attack(g, v),
                           "hp": lambda: R.max_hp(g, v), "speed": lambda: R.speed(g, v)}.get(f)
                    if f == "pos":
                        val = _pos(g, val)
                    if f in _LASTING_FIELDS:
                        cmp(f"{f} of {label}", _LASTING_FIELDS[f](g, v.id), val)
                    else:
                        cmp(f"{f} of {label}", got() if got else getattr(v, f), val)
        elif key == "vessels_at":
            for name, per_player in want.items():
                pos = _pos(g, name)
                for p, names in per_player.items():
                    cmp(f"vessels of P{p} at {name}",
                        sorted(v.d.name for v in g.vessels.values() if v.pos == pos and v.owner == p),
                        sorted(names))
        elif key == "supply":
            for name, n in want.items():
                cmp(f"supply of {name}", len(g.supply[name]), n)
        elif key == "deck_size":
            for dom, n in want.items():
                cmp(f"{dom} deck size", len(g.decks[DOMAINS.index(dom)]), n)
        elif key == "discard":
            for dom, names in want.items():
                cmp(f"{dom} discard pile", _names(g.discards[DOMAINS.index(dom)]), sorted(names))
        elif key == "alive":
            for p, val in want.items():
                cmp(f"P{p} alive", g.alive[p], val)
        elif key == "legal":
            legal = set(g.legal_actions())
            for raw in want:
                a = parse_action(g, raw, labels)
                if a not in legal:
                    bad.append(f"expected {a!r} to be legal")
        elif key == "not_legal":
            legal = set(g.legal_actions())
            for raw in want:
                a = parse_action(g, raw, labels)
                if a in legal:
                    bad.append(f"expected {a!r} not to be legal")
        elif key == "legal_count":
            for kind, n in want.items():
                cmp(f"number of legal '{kind}' actions",
                    sum(1 for a in g.legal_actions() if a[0] == kind), n)
        elif key == "events":
            kinds = [e[0] for e in g.events]
            for k in want:
                if k not in kinds:
                    bad.append(f"expected an event '{k}' (got {sorted(set(kinds))})")
        elif key == "no_events":
            seen = {e[0] for e in g.events}
            for k in want:
                if k in seen:
                    bad.append(f"expected no event '{k}'")
        elif key == "extra_turns":
            cmp(key, L.extra_turns(g), want)
        elif key in ("step", "phase", "active", "turn", "winner", "over", "to_move"):
            cmp(key, getattr(g, "decision" if key == "step" else key), want)
        elif key == "choice":
            cmp("pending choice", None if g.choice is None else g.choice.kind, want)
        else:
            bad.append(f"unknown expectation {key!r}")
    return bad


# --------------------------------------------------------------------------- running


def _pending(g: Game) -> str | None:
    """The choice the engine awaits, which only a ``choose`` step may answer."""
    if g.choice is not None and g.decision == "choice":
        return f"unscripted choice '{g.choice.kind}' for P{g.actor} (options {list(g.choice.options)})"
    return None


def _apply(g: Game, a: tuple[Any, ...]) -> list[Event]:
    g.events = []
    g.apply(a)
    return list(g.events)


def _check(g: Game, expect: Mapping[str, Any], labels: dict[str, int], events: list[Event]) -> list[str]:
    g.events = events  # what ``events`` / ``no_events`` look at
    return check(g, dict(expect), labels)


RUNNER: Runner[Game, tuple[Any, ...]] = Runner(
    build=lambda spec: build(dict(spec)), parse=parse_action, apply=_apply, check=_check,
    snapshot=lambda g: g.to_json(), pending=_pending, answers=lambda a: a[0] == "choose")


def run(sc: Scenario) -> list[str]:
    """Run one Star Commander scenario; returns failure messages (empty when it passes). The
    platform's runner (:mod:`starcom.scenarios`, ``starcom scenario``) hands each scenario to
    the runner of the game its ``game`` names; the loop itself is the platform's
    (:func:`starcom.scenarios.play`), with this game's hooks (:data:`RUNNER`)."""
    game = sc.spec.get("game", LEGACY_GAME)
    if game != NAME:
        return [f"setup: a scenario of the game {game!r}, not of Star Commander: run it with `starcom scenario`"]
    return play(sc, RUNNER)


__all__ = ["NAME", "Scenario", "ScenarioError", "build", "check", "load", "parse_action", "run", "run_files"]
