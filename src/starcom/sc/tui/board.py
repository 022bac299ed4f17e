"""Star Commander's board as Rich text: the N×N grid drawn as a diamond, (0, 0) at the top (BOARD-1).

Everything is rendered from a player view (the observer's, :mod:`starcom.sc.observer`), so what
the viewer may not know (face-down systems) is never in the text.
"""
from __future__ import annotations

from typing import Any

from rich.text import Text

from ...tui.board import NEUTRAL, seat_style

# Three-letter names so a vessel fits on one line of a cell.
SHORT_NAMES = {
    "Scout": "Sct", "Strike Fighter": "Ftr", "Corvette": "Crv", "Frigate": "Frg", "Destroyer": "Dst",
    "Cruiser": "Crs", "Battleship": "Bsh", "Carrier": "Car", "Defense Station": "Def",
    "Jump Nexus": "Nex", "Missile Platform": "Msl", "Orbital Habitat": "Hab", "Refinery": "Ref",
    "Shipyard": "Yrd",
}
UNKNOWN = "??"
LEGEND = "vessels: name attack/hp, -N = damage taken · ?? = unexplored · devs = developments/maximum"


def short_name(name: str) -> str:
    return SHORT_NAMES.get(name, name[:3])


def vessel_label(v: dict[str, Any]) -> str:
    """``Crv 2/3`` (attack/hit points), ``-1`` appended for damage taken."""
    dmg = f" -{v['damage']}" if v.get("damage") else ""
    return f"{short_name(v['name'])} {v['attack']}/{v['hp']}{dmg}"


def cell_lines(site: dict[str, Any], vessels: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The lines of one system's cell as (text, style) pairs."""
    own = seat_style(site["owner"])
    if site["face_up"]:
        title = f"{site['name']} {site['card']}"
        dom = site.get("domain") or ""
        dom = "" if dom in ("none", "") else f" {dom[:3]}"
        second = f"devs {site['devs']}/{site.get('max_dev', '?')}{dom}"
    else:
        title = f"{site['name']} {UNKNOWN}"
        second = "face down"
    owner = f" P{site['owner']}" if site["owner"] is not None and site["owner"] >= 0 else ""
    lines = [(title, own), (second + owner, own if owner else NEUTRAL)]
    marks = []
    if site.get("contested"):
        marks.append("contested")
    if site.get("under_siege"):
        marks.append("siege")
    if marks:
        lines.append((" ".join(marks), "bold magenta"))
    for v in sorted(vessels, key=lambda v: (v["owner"], v["name"], v["id"])):
        lines.append((f"P{v['owner']} {vessel_label(v)}", seat_style(v["owner"])))
    return lines


def render_board(view: dict[str, Any], highlight: int | None = None) -> Text:
    """The diamond of ``view['board']``; ``highlight`` (a position) gets a bright frame."""
    size = view["config"]["size"]
    by_pos: dict[int, list[dict[str, Any]]] = {}
    for v in view["vessels"]:
        by_pos.setdefault(v["pos"], []).append(v)
    cells = [cell_lines(s, by_pos.get(s["pos"], [])) for s in view["board"]]
    inner = max(14, max(len(t) for lines in cells for t, _ in lines))
    height = max(3, max(len(lines) for lines in cells))
    width = inner + 2
    half = (width + 1) // 2
    canvas_w = (2 * size - 2) * half + width
    rows: list[list[tuple[int, str, str]]] = []  # per text line: (x, text, style) segments
    for diag in range(2 * size - 1):
        block: list[list[tuple[int, str, str]]] = [[] for _ in range(height + 2)]
        for r in range(size):
            c = diag - r
            if not 0 <= c < size:
                continue
            pos = r * size + c
            x = (c - r + size - 1) * half
            site = view["board"][pos]
            frame = "bold white" if pos == highlight else seat_style(site["owner"])
            block[0].append((x, "┌" + "─" * inner + "┐", frame))
            lines = cells[pos]
            for i in range(height):
                text, style = lines[i] if i < len(lines) else ("", "")
                block[i + 1].append((x, "│", frame))
                block[i + 1].append((x + 1, text.ljust(inner)[:inner], style))
                block[i + 1].append((x + 1 + inner, "│", frame))
            block[height + 1].append((x, "└" + "─" * inner + "┘", frame))
        rows.extend(block)
    out = Text(no_wrap=True)
    for segs in rows:
        col = 0
        for x, text, style in sorted(segs, key=lambda s: s[0]):
            if x > col:
                out.append(" " * (x - col))
            out.append(text, style=style)
            col = x + len(text)
        out.append(" " * max(0, canvas_w - col) + "\n")
    out.append(LEGEND, style="dim")
    return out


__all__ = ["LEGEND", "SHORT_NAMES", "cell_lines", "render_board", "short_name", "vessel_label"]
