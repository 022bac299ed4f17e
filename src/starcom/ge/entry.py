"""Galactic Empires as its clients see it: its observer and its registry entry (``"ge"``).

``starcom.load_game("ge", edition="quick", seed=7)`` makes a game; every client reaches it
through :data:`GE`, never through the modules of this package.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..agents.generic import LEVELS, agent_factory
from ..games import GameEntry, Players, Rules, Serving, Tools, WebAssets, Words
from .evaluation import evaluate
from .game import GalacticEmpires, IllegalAction, _as_action
from .moves import MOVES, Move, Pass
from .observer import OBSERVER

SETTINGS = ("players", "edition", "seed", "turn_limit", "options")


def new(players: int = 2, edition: str = "full", seed: int = 0, turn_limit: int | None = None,
        options: dict[str, Any] | None = None) -> GalacticEmpires:
    """A new game; ``turn_limit`` is the optional turn cap of GE-OPT-3 (complete turns of the
    second player, then the tie-break decides), ``options`` the other optional rules by name
    (``disengaged_unprotected``, ``small_hq``, ``prepaired``)."""
    if players != 2:
        raise ValueError(f"players: Galactic Empires is for exactly 2 players, not {players!r}")
    opts = dict(options or {})
    if turn_limit is not None:
        opts["turn_cap"] = turn_limit
    return GalacticEmpires.new(edition=edition, seed=seed, options=opts)


def decode(game: GalacticEmpires, data: Any, seat: int | None) -> Move:
    """A legal action of ``seat`` from its JSON form (a list) or its notation (a string), typed."""
    act = game.parse(data) if isinstance(data, str) else _as_action(data)
    if seat is not None and seat != game.to_move:
        raise IllegalAction(f"GE-DIG-1: it is seat {game.to_move}'s decision, not seat {seat}'s", act)
    if act not in game.legal_actions():
        game.clone().apply(act)  # raises the reason, with its rule ID
    return MOVES.typed(act)  # legal, so of a known kind and shape


def _narrator(game: Any, viewer: int | None, reveal_all: bool = False) -> Any:
    from .text import Narrator
    return Narrator(game, viewer, reveal_all)


def _describe(game: Any, action: Any, viewer: int | None) -> str:
    from .text import describe
    return describe(game, action, viewer)


def _table(game: Any, viewer: int | None) -> list[str]:
    from .text import table
    return table(game, viewer)


def _hand(game: Any, viewer: int | None) -> list[str]:
    from .text import hand
    return hand(game, viewer)


def _irreversible(game: Any, action: Any, seat: int) -> str | None:
    from .text import irreversible
    return irreversible(game, action, seat)


def _features(game: Any) -> Any:
    from .features import FEATURES
    return FEATURES


def _invariants() -> tuple[Any, Any]:
    from .invariants import check_state, check_step
    return check_state, check_step


def _glossary() -> list[dict[str, Any]]:
    from .glossary import glossary
    return glossary()


def _study() -> Any:
    from .study import STUDY
    return STUDY


def _scenario(spec: Mapping[str, Any]) -> list[str]:
    from .scenario import run
    return run(spec)


def _guide(game: GalacticEmpires, seat: int) -> str | None:
    from .text import guide
    return guide(game, seat)


# Actions that only tidy up: a phase whose other options are these has nothing worth doing.
TIDY = frozenset(("end", "discard", "drop"))


def idle(game: GalacticEmpires) -> Any:
    """The end of a phase in which the seat to move can do nothing but tidy up (end it, or
    discard its own cards), for a seat that asked the server to end such phases for it (the
    entry's ``rules.idle``); None anywhere else."""
    s = game.s
    if game.over or s.priority is not None or s.phase not in ("play-a", "fire", "play-b", "discard"):
        return None
    legal = game.legal_actions()
    return ("end",) if ("end",) in legal and all(a[0] in TIDY for a in legal) else None


def _win_chance(game: GalacticEmpires, seat: int, rng: Any) -> float:
    from .hint import win_chance
    return win_chance(GE, game, seat, rng)


def _server_adapter(entry: GameEntry[Any, Any]) -> Any:
    from .server import server_adapter
    return server_adapter(entry)


def _turn_limit_in(config: Mapping[str, Any]) -> tuple[object, str] | None:
    """The turn cap a config's ``options`` hold (GE-OPT-3: what ``new`` makes of ``turn_limit``),
    as found, for the server's limits on saved games; None when they hold none."""
    options = config.get("options")
    if isinstance(options, dict) and options.get("turn_cap") is not None:
        return options["turn_cap"], "config option 'turn_cap'"
    return None


# The browser's table for Galactic Empires: both sides' fleets, the chain and the hand.
WEB = WebAssets(directory=Path(__file__).resolve().parent / "web", scripts=("ge-table.js",), styles=("ge.css",))


_make_agent, _agent_names = agent_factory("ge")

GE: GameEntry[GalacticEmpires, Move] = GameEntry(
    name="ge", title="Galactic Empires", observer=OBSERVER,
    rules=Rules(
        new=new, settings=SETTINGS, encode=MOVES.to_json, decode=decode,
        play=lambda g, a: g.apply_unchecked(a), turn=lambda g: g.turn, winner=lambda g: g.winner,
        end_reason=lambda g: (g.s.end or None) if g.over else None,
        passive=lambda g: Pass("pass") if g.s.priority is not None else None,
        waives=lambda a: a[0] in ("pass", "quiet"), idle=idle, editions=("full", "quick"), player_counts=(2,)),
    words=Words(narrator=_narrator, describe=_describe, glossary=_glossary, table=_table,
                turn_limit_words="rounds: each is over when the second player's turn ends; then the tie-break decides",
                guide=_guide, tagline="Two empires, two fleets, one Sector HQ each: wreck theirs, guard yours.",
                hand=_hand, irreversible=_irreversible,
                decision=lambda g: (g.turn, g.s.phase, g.to_move, g.s.priority is not None)),
    ai=Players(make_agent=_make_agent, agent_names=_agent_names, levels=tuple(LEVELS), default_level="normal",
               evaluate=lambda g, seat: evaluate(g.s, seat), win_chance=_win_chance),
    tools=Tools(features=_features, invariants=_invariants, study=_study, scenario=_scenario),
    serving=Serving(adapter=_server_adapter, web=WEB, help_page="ge-help.html", cards_page="ge-cards.html",
                    turn_limit_in=_turn_limit_in),
)
