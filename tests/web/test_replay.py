"""The replay page of a finished game: step through it with the buttons and the keyboard."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

from . import api


BOARD = "() => document.getElementById('board').innerHTML"


def _finished_game(server: str) -> tuple[str, int]:
    r = api.post(server + "/api/games", json={"seats": ["ai:greedy", "ai:greedy"], "turn_limit": 3, "seed": 5})
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    end = time.monotonic() + 30
    while not api.get(f"{server}/api/games/{gid}").json()["over"]:
        assert time.monotonic() < end, "the all-AI game did not finish"
        time.sleep(0.05)
    return gid, len(api.get(f"{server}/api/games/{gid}/replay").json()["actions"])


def _at(page, step: int, total: int) -> None:
    page.wait_for_function(f"() => document.body.dataset.step === '{step}'", timeout=15000)
    assert page.locator("#counter").inner_text() == f"step {step} of {total}"
    assert page.locator("#slider").input_value() == str(step)


def test_step_through_a_replay(page, server: str, tmp_path: Path) -> None:
    gid, total = _finished_game(server)
    page.goto("/")
    page.wait_for_selector(f'#all-games a[href="/replay/{gid}"]')
    page.goto(f"/replay/{gid}")
    _at(page, 0, total)
    assert page.locator("#step-first").is_disabled() and page.locator("#step-back").is_disabled()
    board0 = page.evaluate(BOARD)
    assert 'class="tile"' in board0

    # Forward until the board looks different (some steps only change the phase).
    step = 0
    while page.evaluate(BOARD) == board0:
        assert step < total, "the board never changed over the whole replay"
        page.locator("#step-forward").click()
        step += 1
        _at(page, step, total)
    changed = page.evaluate(BOARD)
    assert page.locator("#last-action").inner_text() not in ("", "The game is set up.")

    page.locator("#step-back").click()
    _at(page, step - 1, total)
    assert page.evaluate(BOARD) == board0
    page.keyboard.press("ArrowRight")
    _at(page, step, total)
    assert page.evaluate(BOARD) == changed
    page.keyboard.press("ArrowLeft")
    _at(page, step - 1, total)

    page.locator("#step-last").click()
    _at(page, total, total)
    assert "Game over" in page.locator("#banner").inner_text()
    assert page.locator("#step-forward").is_disabled()
    assert page.locator("#log div").count() > 0
    shot = tmp_path / "replay.png"
    page.screenshot(path=str(shot))
    shutil.copy(shot, "/tmp/replay.png")

    page.locator("#step-first").click()
    _at(page, 0, total)


def test_open_a_saved_study_game_from_the_lobby(page, server: str, tmp_path: Path) -> None:
    """A balance study's replay file, chosen in the lobby, opens on the replay page with its
    stand-in cards named; a file that is not a saved game is refused with the reason."""
    import json

    from starcom.study.pairs import Job, Setup, pair_records
    setup = Setup("", "built-in", ("Frigate",), ("random",), 2, 3, "standard", 10, 3)
    _treated, control = pair_records(setup, Job("Frigate", 3))  # P0 builds a Frigate: the stand-in
    saved = tmp_path / "frigate-pair3-control.json"
    saved.write_text(json.dumps(control))
    total = len(control["actions"])

    page.goto("/")
    page.locator("#open-file").set_input_files(str(saved))
    page.wait_for_url("**/replay/*", timeout=15000)
    _at(page, 0, total)
    page.locator("#step-last").click()
    _at(page, total, total)
    assert "Frigate (stand-in)" in page.locator("#log").inner_text()

    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**control, "actions": control["actions"][:4]}))
    page.goto("/")
    page.locator("#open-file").set_input_files(str(broken))
    page.wait_for_selector("#home-error-box:not(.hidden)", timeout=15000)
    assert "broken.json" in page.locator("#home-error-what").inner_text()
    assert "not finished" in page.locator("#home-error").inner_text() or \
        "does not match" in page.locator("#home-error").inner_text()
    not_json = tmp_path / "notes.json"
    not_json.write_text("these are my notes")
    page.locator("#home-error-close").click()
    page.locator("#open-file").set_input_files(str(not_json))
    page.wait_for_selector("#home-error-box:not(.hidden)", timeout=15000)
    assert "not a saved game" in page.locator("#home-error").inner_text()
