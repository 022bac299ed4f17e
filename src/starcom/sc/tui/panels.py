"""Side panels of the terminal game as Rich text, each rendered from a player view."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from ..cards.catalogue import DOMAINS
from ...tui.board import seat_style

DECISIONS = {
    "command": "Command phase: act, then end the phase",
    "priority": "may respond to the stack (play a card) or pass",
    "choice": "must make a choice",
    "combat_pick": "picks the next combat",
    "assign": "assigns combat damage",
    "retreat": "may retreat vessels",
    "trade_build": "is preparing a trade offer",
    "trade_answer": "answers a trade offer",
}


def seat_word(seat: int, kinds: Sequence[str]) -> str:
    """``P1 (greedy)`` / ``P0 (you)`` style label of a seat."""
    kind = kinds[seat] if 0 <= seat < len(kinds) else "?"
    return f"P{seat} ({kind})"


def status_text(view: dict[str, Any], kinds: Sequence[str]) -> Text:
    """Turn, phase and whose decision it is."""
    cfg = view["config"]
    limit = f"/{cfg['turn_limit']}" if cfg.get("turn_limit") else ""
    out = Text()
    out.append(f"Turn {view['turn'] + 1}{limit}", style="bold")
    out.append(f" · {cfg['players']} players, {cfg['size']}x{cfg['size']}, {cfg['edition']} · active ")
    out.append(f"P{view['active']}", style=seat_style(view["active"]))
    out.append(f" · {view['phase']} phase\n")
    if view["over"]:
        w = view["winner"]
        out.append("Game over: " + ("a draw" if w == -1 else f"P{w} wins"), style="bold green")
        return out
    who = view["to_move"]
    out.append("Decision: ")
    out.append(seat_word(who, kinds), style=seat_style(who))
    if view.get("decision_text"):  # the engine's words for the decision (every step has them)
        out.append(" — " + view["decision_text"])
        return out
    what = DECISIONS.get(view["decision"], view["decision"])
    if view["decision"] == "choice" and view.get("choice"):
        what += f" ({view['choice']['kind']})"
    out.append(" " + what)
    return out


def players_table(view: dict[str, Any], kinds: Sequence[str]) -> Table:
    """Credits, hand sizes (with the domains on the card backs), developments and technologies."""
    t = Table(box=None, padding=(0, 1), expand=True, show_edge=False)
    for col in ("seat", "cr", "hand", "devs", "technologies"):
        t.add_column(col, justify="left" if col in ("seat", "technologies") else "right",
                     overflow="fold", ratio=3 if col == "technologies" else None)
    for p in view["players"]:
        seat = Text(seat_word(p["seat"], kinds), style=seat_style(p["seat"]))
        if not p["alive"]:
            seat.append(" out", style="dim")
        backs = "".join(d[0].upper() for d in p["hand_domains"])
        techs = ", ".join(c["name"] for c in p["technologies"]) or "-"
        t.add_row(seat, str(p["credits"]), f"{p['hand_size']} {backs}".strip(), str(p["developments"]), techs)
    return t


def decks_text(view: dict[str, Any]) -> Text:
    out = Text("Decks: ", style="bold")
    out.append(", ".join(f"{d} {n} (discard {len(view['discards'][i])})"
                         for i, (d, n) in enumerate(zip(DOMAINS, view["decks"]))))
    out.append(f"; systems {view['system_deck']}")
    return out


def stack_text(view: dict[str, Any]) -> Text:
    """The response stack, top first."""
    out = Text("Stack: ", style="bold")
    if not view["stack"]:
        out.append("empty", style="dim")
        return out
    for item in reversed(view["stack"]):
        out.append("\n  ")
        out.append(f"P{item['player']}", style=seat_style(item["player"]))
        out.append(f" {item['card']['name']}: ")
        out.append(item["card"]["text"], style="italic")
    return out


def hand_text(view: dict[str, Any], seat: int | None) -> Text:
    """The viewer's hand with every card's text, or a note that it is hidden."""
    if seat is None or view.get("hand") is None:
        return Text("Hand hidden", style="dim italic")
    out = Text(f"P{seat}'s hand ({len(view['hand'])})", style="bold")
    if not view["hand"]:
        out.append("\n  (empty)", style="dim")
    for c in view["hand"]:
        out.append("\n• ")
        out.append(c["name"], style="bold")
        out.append(f" [{c['domain']} {c['kind']}] ", style="dim")
        out.append(c["text"])
    techs = view["players"][seat]["technologies"]
    if techs:
        out.append("\nTechnologies in play:", style="bold")
        for c in techs:
            out.append(f"\n• {c['name']}: ", style="bold")
            out.append(c["text"])
    return out
