"""Card sheets (starcom.sc.cards.sheets): one per catalogue card, numbers only where the kind has
them, the project's own text, and the sheet of the card each legal option is about."""
from __future__ import annotations

import ast
import json
import random
import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from conftest import EDITIONS, pick_action
from starcom.sc.engine.game import Game
from starcom.sc.cards.catalogue import CARD_DEF, DEFS
from starcom.sc.cards.sheets import card_key, card_sheets, sheet_for_action, sheet_of
from starcom.sc.scenario import build

FIELDS = {"key", "name", "domain", "kind", "size", "cost", "attack", "hp", "speed", "carry",
          "max_dev", "text", "editions"}
# The catalogue file read on its own, not through CardDef (whose defaults fill in zeros).
RAW = tomllib.loads(resources.files("starcom.sc.cards").joinpath("catalogue.toml").read_text("utf-8"))


def test_one_sheet_per_catalogue_card_in_catalogue_order() -> None:
    sheets = card_sheets()
    assert [s["name"] for s in sheets] == list(RAW) == [d.name for d in DEFS]
    assert all(set(s) == FIELDS for s in sheets)
    keys = [s["key"] for s in sheets]
    assert len(set(keys)) == len(keys)
    assert all(k and k == k.lower() and " " not in k for k in keys)
    json.dumps(sheets)  # JSON-ready


@pytest.mark.parametrize("name", list(RAW))
def test_sheet_matches_the_catalogue_entry(name: str) -> None:
    raw = RAW[name]
    s = next(s for s in card_sheets() if s["name"] == name)
    assert s["key"] == card_key(name)
    assert s["text"] == raw["text"]
    assert s["kind"] == raw["kind"]
    assert s["domain"] == (raw["domain"] if raw["domain"] in ("industry", "statecraft", "science") else "none")
    kind = raw["kind"]
    vessel = kind in ("ship", "station")
    # Numbers the kind has come from the file (a ship without a carry entry carries none);
    # the others are null.
    assert s["attack"] == (raw["attack"] if vessel else None)
    assert s["hp"] == (raw["hp"] if vessel else None)
    assert s["cost"] == (raw["cost"] if vessel and not raw.get("never_built") else None)
    assert s["speed"] == (raw["speed"] if kind == "ship" else None)
    assert s["carry"] == (raw.get("carry", 0) if kind == "ship" else None)
    assert s["size"] == (raw["size"] if kind == "ship" else None)
    assert s["max_dev"] == (raw["max_dev"] if kind in ("system", "homeworld") else None)
    assert s["editions"] == list(EDITIONS)


def test_sheets_by_edition_and_unknown_edition() -> None:
    for ed in EDITIONS:
        assert card_sheets(ed) == card_sheets()
    with pytest.raises(ValueError, match="unknown edition 'deluxe'.*standard.*classic"):
        card_sheets("deluxe")


def test_sheets_are_fresh_copies() -> None:
    first = card_sheets()
    first[0]["cost"] = 999
    first[0]["editions"].append("x")
    assert card_sheets()[0] != first[0]
    s = sheet_of(0)
    s["name"] = "changed"
    assert sheet_of(0)["name"] == CARD_DEF[0].name


def test_sheet_of_refuses_what_is_not_a_card_id() -> None:
    assert sheet_of(-1) is None and sheet_of(len(CARD_DEF)) is None
    assert sheet_of(None) is None and sheet_of("3") is None and sheet_of(True) is None


# --------------------------------------------------------------------------- sheet_for_action

VESSEL_KINDS = ("jump", "retreat", "scrap", "repair")
CARD_KINDS = ("play", "sell", "ability")


def expected(g: Game, a: tuple) -> str | None:
    """The name of the card ``a`` is about, worked out from the rules of the contract."""
    k = a[0]
    if k == "build":
        return DEFS[a[1]].name
    if k in VESSEL_KINDS or k in CARD_KINDS:
        return CARD_DEF[a[1]].name
    if k == "develop":
        site = g.sites[a[1]]
        return site.d.name if site.face_up else None  # a face-down system stays secret
    if k in ("give", "ask") and a[1] in ("card", "tech", "vessel"):
        return CARD_DEF[a[2]].name
    if k == "choose" and g.choice.kind in ("hand_full", "receive_full", "ability_discard",
                                              "order", "Spy Network") and isinstance(a[1], int):
        return CARD_DEF[a[1]].name
    return None


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seed", range(6))
def test_sheet_for_every_legal_action_of_random_games(edition: str, seed: int) -> None:
    rnd = random.Random(seed)
    g = Game.new(players=2 + seed % 3, size=3 + seed % 3, edition=edition, seed=seed, turn_limit=16)
    kinds = set()
    while not g.over:
        for a in g.legal_actions():
            s = sheet_for_action(g, a)
            want = expected(g, a)
            assert (s and s["name"]) == want, (a, s)
            kinds.add(a[0])
        g.apply(pick_action(g, rnd))
    assert {"build", "jump", "end"} <= kinds


def test_no_sheet_for_a_face_down_system() -> None:
    # Developing needs the system face up (DEV-1); should the question be asked anyway, the
    # answer must not give the hidden system away.
    g, _ = build({"setup": {"active": 0, "phase": "command",
                            "board": {"b2": {"system": "Trade World", "face_up": False}}}})
    assert not g.sites[4].face_up
    assert sheet_for_action(g, ("develop", 4)) is None
    g.sites[4].face_up = True
    assert sheet_for_action(g, ("develop", 4))["name"] == "Trade World"


def test_a_hidden_hand_card_gives_no_sheet_to_others() -> None:
    g, _ = build({"setup": {"active": 0, "phase": "command", "players": [{"hand": ["Barrage"]}, {}]}})
    g.apply(("offer", 1))
    give = next(a for a in g.legal_actions() if a[:2] == ("give", "card"))
    assert sheet_for_action(g, give)["name"] == "Barrage"  # the seat that decides
    assert sheet_for_action(g, give, viewer=0)["name"] == "Barrage"
    assert sheet_for_action(g, give, viewer=1) is None
    assert sheet_for_action(g, give, viewer=None) is None


def test_build_sheet_shows_price_and_numbers() -> None:
    g = Game.new(players=2, size=3, seed=2)
    g.credits[g.to_move] = 20
    builds = [a for a in g.legal_actions() if a[0] == "build"]
    assert builds
    for a in builds:
        s = sheet_for_action(g, a)
        raw = RAW[DEFS[a[1]].name]
        assert (s["cost"], s["attack"], s["hp"], s["text"]) == (raw["cost"], raw["attack"], raw["hp"], raw["text"])


# --------------------------------------------------------------------------- no card names in code


def _strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module's code (docstrings, which are prose, left out)."""
    tree = ast.parse(path.read_text("utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


@pytest.mark.parametrize("module", ["options.py", "text.py", "cards/sheets.py"])
def test_label_code_names_no_card(module: str) -> None:
    """Card names live in the catalogue and card modules; wording code reads them as data."""
    path = Path(__file__).parent.parent / "src" / "starcom" / "sc" / module
    names = [re.compile(rf"\b{re.escape(d.name)}\b") for d in DEFS]
    found = [(line, s) for line, s in _strings(path) if any(n.search(s) for n in names)]
    assert not found, f"card names in {module}: {found}"
