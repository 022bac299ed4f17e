"""Draw the pictures of the "How to play" page from a real game.

Two computer players play a seeded 3x3 game; positions worth showing are picked from it by what
they contain (not by card names), drawn with the browser's own board code (board.js) in headless
Chromium and cropped to PNGs under src/starcom/sc/web/img/ (Star Commander's own browser files).

    .venv/bin/python scripts/help_images.py
"""
from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import FloatRect, Page, sync_playwright

from starcom.sc.agents import AGENTS
from starcom.sc.engine.game import Game

STATIC = Path(__file__).resolve().parent.parent / "src/starcom/web/static"  # the site's shared files
SC_WEB = STATIC.parents[1] / "sc" / "web"  # Star Commander's own (board.js, its help page's pictures)
OUT = SC_WEB / "img"
SEED = 3
CHROMIUM = "/usr/bin/chromium"
PAGE = ('<!doctype html><html><body class="art"><div id="wrap"><svg id="board" '
        'xmlns="http://www.w3.org/2000/svg"></svg></div></body></html>')
# The crops sit on the help page's panels: a plain dark backdrop, no star field. The board is drawn
# large (board.js leaves out small print on a small board) and shown at half size on the page.
PAGE_CSS = "body.art { background: #0d1430; } #wrap { width: 1160px; height: 840px; padding: 10px; }"

View = dict[str, Any]


def play_views(limit: int = 700) -> list[View]:
    """The spectator's view after every action of a seeded game between two "normal" players."""
    g = Game.new(players=2, size=3, seed=SEED, turn_limit=40)
    agent, rng = AGENTS["heuristic"](None, None), random.Random(SEED)
    views = [g.view(None)]
    while not g.over and len(views) < limit:
        g.apply_unchecked(agent.choose(g, rng))
        views.append(g.view(None))
    return views


def first(views: list[View], test: Callable[[View], bool]) -> View:
    found = next((v for v in views if test(v)), None)
    if found is None:
        raise SystemExit("no position of this game shows what a picture needs; try another SEED")
    return found


def on_board(v: View, pos: int) -> list[dict]:
    return [x for x in v["vessels"] if x["pos"] == pos]


def opening(v: View) -> bool:
    """Early on: several systems explored, a few vessels, still some face-down systems."""
    up = sum(s["face_up"] for s in v["board"])
    return v["phase"] == "command" and 6 <= up < len(v["board"]) and len(v["vessels"]) >= 4


def settled(v: View) -> int | None:
    """A developed system (not a homeworld) with 2+ developments and a vessel of its owner."""
    homes = {p["homeworld"] for p in v["players"]}
    for s in v["board"]:
        if s["pos"] not in homes and s["owner"] >= 0 and s["devs"] >= 2 \
                and any(x["owner"] == s["owner"] for x in on_board(v, s["pos"])):
            return s["pos"]
    return None


def battle(v: View) -> bool:
    """A fight in a system that is also under siege (its owner has nothing there that attacks)."""
    at = v.get("combat_at")
    return at is not None and v["board"][at]["under_siege"] and 2 <= len(on_board(v, at)) <= 6 \
        and len({x["owner"] for x in on_board(v, at)}) > 1


def draw(page: Page, v: View, only: int | None = None) -> None:
    """Draw the board of ``v``; with ``only``, hide every other system (a close-up of one)."""
    page.evaluate("""([v, only]) => {
        drawBoard(document.getElementById('board'), v, {});
        if (only !== null) document.querySelectorAll('g.tile').forEach((t) => {
            if (Number(t.dataset.pos) !== only) t.style.display = 'none'; });
    }""", [v, only])


def shoot(page: Page, selector: str, name: str, margin: int = 6) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    clip: FloatRect = {"x": box["x"] - margin, "y": box["y"] - margin,
            "width": box["width"] + 2 * margin, "height": box["height"] + 2 * margin}
    path = OUT / name
    page.screenshot(path=str(path), clip=clip)
    # A palette of 256 colours (octree: small bright details such as the gold attack star keep
    # their colour) makes the files a third of the size; dithering hides the bands in the gradients.
    rgb = Image.open(path).convert("RGB")
    palette = rgb.quantize(256, method=Image.Quantize.FASTOCTREE)
    rgb.quantize(palette=palette, dither=Image.Dither.FLOYDSTEINBERG).save(path, optimize=True)
    print("wrote", path, path.stat().st_size, "bytes")


def main() -> None:
    views = play_views()
    OUT.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 1180, "height": 860})
        page.set_content(PAGE)
        page.add_style_tag(path=str(STATIC / "app.css"))
        page.add_style_tag(content=PAGE_CSS)
        page.add_script_tag(path=str(STATIC / "dom.js"))
        page.add_script_tag(path=str(SC_WEB / "board.js"))

        draw(page, first(views, opening))
        shoot(page, "#board", "help-board.png", 0)

        v = first(views, lambda v: settled(v) is not None)
        pos = settled(v)
        draw(page, v, pos)
        shoot(page, f'g.tile[data-pos="{pos}"]', "help-system.png")

        fight = first(views, battle)
        draw(page, fight, fight["combat_at"])
        shoot(page, f'g.tile[data-pos="{fight["combat_at"]}"]', "help-combat.png")

        # One ship token, drawn large enough to read its numbers: the strongest on the board.
        ships = [x for x in v["vessels"] if x["pos"] is not None and x["kind"] == "ship"]
        ship = max(ships, key=lambda x: (x["attack"], x["hp"]))
        page.add_style_tag(content="#wrap { width: 2800px; height: 2000px; }")
        page.set_viewport_size({"width": 2820, "height": 2020})
        draw(page, v, ship["pos"])
        shoot(page, f'g.vessel[data-vessel="{ship["id"]}"]', "help-vessel.png", 8)
        browser.close()


if __name__ == "__main__":
    main()
