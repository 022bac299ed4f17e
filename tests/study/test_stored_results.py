"""A results folder names the game it studied; one written before the platform held a second
game names none, and it is Star Commander's (starcom.games.LEGACY_GAME): it still resumes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from starcom.study import runner as R
from starcom.study.spec import StudyError, StudySpec, stored_key


def _spec(folder: Path, **kw: object) -> StudySpec:
    settings: dict[str, object] = dict(only=("Barrage",), agents=("random",), max_games=8, seed=2, out=str(folder))
    settings.update(kw)
    return StudySpec.checked(**settings)


def test_the_key_names_the_game(tmp_path: Path) -> None:
    assert _spec(tmp_path).key()["game"] == "starcom"
    # a key written before the precision stop: every card played to max_games
    assert stored_key({"seed": 1}) == {"seed": 1, "game": "starcom", "precision": None}
    assert stored_key({"seed": 1, "game": "ge", "precision": 0.04}) == {"seed": 1, "game": "ge", "precision": 0.04}


def test_a_folder_written_before_resumes(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    first = R.run_study(spec)
    key_file = tmp_path / R.KEY
    old = json.loads(key_file.read_text("utf-8"))
    assert old["game"] == "starcom"
    del old["game"]  # as the study wrote it before
    key_file.write_text(json.dumps(old, indent=1, sort_keys=True), "utf-8")
    again = R.run_study(spec)
    assert again.pairs_played == 0 and again.pairs_reused == first.pairs_played > 0
    with pytest.raises(StudyError, match=r"other settings \(seed\)"):
        R.run_study(_spec(tmp_path, seed=3))


def test_a_key_file_that_is_not_an_object_is_named(tmp_path: Path) -> None:
    (tmp_path / R.KEY).write_text("[1, 2]", "utf-8")
    with pytest.raises(StudyError, match=r"study\.json is not a study's settings"):
        R.run_study(_spec(tmp_path))
