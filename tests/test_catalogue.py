"""The card catalogue against the 0.9.4 card lists (COMP-1), and the engine's independence from
card names.

The reference CSVs are read at run time from the shared folder next to the project; they are
never copied into the project. Without that folder the comparison tests are skipped.
"""
from __future__ import annotations

import ast
import csv
import re
from pathlib import Path

import pytest

import starcom.sc.cards.effects  # noqa: F401  (registers every card effect)
from starcom.sc.engine.game import Game
from starcom.sc.engine.game import standard_rules
from starcom.sc.cards.catalogue import BY_NAME, DEFS, DOMAINS

PROJECT = Path(__file__).resolve().parents[1]
SHARED = PROJECT.parent / "shared"
REFERENCE = SHARED / "reference"
MAIN_CSV = REFERENCE / "cardlist-0.9.4-main.csv"
SYSTEMS_CSV = REFERENCE / "cardlist-0.9.4-systems.csv"

needs_reference = pytest.mark.skipif(
    not (MAIN_CSV.is_file() and SYSTEMS_CSV.is_file()),
    reason=f"reference card lists not found under {REFERENCE}")

# Printed type line -> (kind, size, capital) in the catalogue's terms.
TYPE_LINES = {
    "Station": ("station", "", False),
    "Command": ("command", "", False),
    "Technology": ("technology", "", False),
    "Ship - Small": ("ship", "small", False),
    "Ship - Medium": ("ship", "medium", False),
    "Ship - Large": ("ship", "large", False),
    "Ship - Fighter": ("ship", "fighter", False),
    "System": ("system", "", False),
    "Capital System": ("system", "", True),
    "Starting System": ("homeworld", "", False),
}


def _number(text: str) -> int:
    """A printed number; blank or '-' means none (0)."""
    text = text.strip()
    return 0 if text in ("", "-") else int(text)


def _domain(text: str) -> str:
    text = text.strip().lower()
    return "none" if text == "empty" else text


def reference_cards() -> list[dict]:
    """One record per row of both card lists, in the catalogue's vocabulary."""
    out = []
    with MAIN_CSV.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            kind, size, capital = TYPE_LINES[row["Card Types"].strip()]
            out.append({"name": row["Name"].strip(), "domain": _domain(row["Domain"]), "kind": kind,
                        "size": size, "capital": capital, "cost": _number(row["Cost"]),
                        "attack": _number(row["Attack"]), "hp": _number(row["HP"]),
                        "speed": _number(row["Speed"]), "max_dev": 0,
                        "count": _number(row["Count"]), "rules": row["Rules"]})
    with SYSTEMS_CSV.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    header = rows[0]
    col = {name: header.index(name) for name in ("Name", "Domain", "Card Types", "MaxDev", "Rules", "Count")}
    for row in rows[1:]:
        if not row or not row[col["Name"]].strip():
            continue
        kind, size, capital = TYPE_LINES[row[col["Card Types"]].strip()]
        out.append({"name": row[col["Name"]].strip(), "domain": _domain(row[col["Domain"]]),
                    "kind": kind, "size": size, "capital": capital, "cost": 0, "attack": 0, "hp": 0,
                    "speed": 0, "max_dev": _number(row[col["MaxDev"]]),
                    "count": _number(row[col["Count"]]), "rules": row[col["Rules"]]})
    return out


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+", text)
    return [_norm(s) for s in parts if len(_norm(s).split()) >= 3]


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower()).strip().rstrip(".!?").strip()


# RULE: COMP-1
@needs_reference
def test_reference_lists_are_readable() -> None:
    cards = reference_cards()
    assert len(cards) == len({c["name"] for c in cards}) > 40


# RULE: COMP-1 RULE: COMP-2
@needs_reference
@pytest.mark.parametrize("field", ["domain", "kind", "size", "capital", "cost", "attack", "hp",
                                   "speed", "max_dev", "count"])
def test_catalogue_matches_the_reference_lists(field: str) -> None:
    wrong = []
    for ref in reference_cards():
        d = BY_NAME.get(ref["name"])
        assert d is not None, f"{ref['name']} is missing from the catalogue"
        got = d.capital if field == "capital" else getattr(d, field)
        if got != ref[field]:
            wrong.append(f"{ref['name']}: {field} is {got!r}, the 0.9.4 card says {ref[field]!r}")
    assert not wrong, "\n".join(wrong)


# RULE: COMP-1
@needs_reference
def test_every_printed_card_and_nothing_else_is_catalogued() -> None:
    printed = {c["name"] for c in reference_cards()}
    catalogued = {d.name for d in DEFS if not d.filler}
    assert catalogued == printed


# RULE: COMP-1
def test_deck_sizes() -> None:
    for dom in DOMAINS:
        assert sum(d.count for d in DEFS if d.in_domain_deck and d.domain == dom) == 30, dom
    assert sum(d.count for d in DEFS if d.kind == "system" and not d.filler) == 25
    assert sum(d.count for d in DEFS if d.kind == "homeworld") == 4


# RULE: COMP-1 RULE: SETUP-1
def test_a_new_game_uses_full_decks() -> None:
    g = Game.new(players=2, size=3, seed=5)
    assert [len(deck) for deck in g.decks] == [30, 30, 30]
    dealt = [s for s in g.sites if s.d.kind == "system"]
    assert len(g.sysdeck) + len(dealt) == 25


@needs_reference
def test_card_texts_are_not_copies_of_the_printed_rules() -> None:
    printed = {s for c in reference_cards() for s in _sentences(c["rules"])}
    assert printed, "no rule sentences were read from the reference lists"
    copied = []
    for d in DEFS:
        ours = _norm(d.text)
        for sentence in printed:
            if ours == sentence or sentence in ours:
                copied.append(f"{d.name}: {d.text!r} copies {sentence!r}")
    assert not copied, "\n".join(copied)


def test_every_command_has_a_resolve_effect() -> None:
    missing = [d.name for d in DEFS if d.kind == "command" and not callable(standard_rules().effect(d.name).resolve)]
    assert not missing, f"Commands without a registered effect: {missing}"


def _code_strings_and_names(tree: ast.AST) -> list[tuple[int, str]]:
    """String constants (docstrings excluded: they are prose) and identifiers in ``tree``."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            out.append((node.lineno, node.value))
        elif isinstance(node, ast.Name):
            out.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            out.append((node.lineno, node.attr))
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            out.append((node.lineno, node.name))
    return out


def test_engine_code_never_names_a_card() -> None:
    """Engine code looks card behaviour up in the registry; it must never compare with, index by
    or name anything after a card. A string constant equal to a card name, or an identifier
    spelling a card's name of two or more words (``jump_nexus``), is such a special case.
    Comments, docstrings and messages that mention a card in a sentence are prose; one-word
    identifiers such as ``homeworld`` name game concepts (a player's Homeworld position) and
    lower-case kinds ("homeworld") are catalogue data, so neither counts."""
    names = {d.name for d in DEFS}
    idents = {re.sub(r"\W+", "_", n.lower()) for n in names if " " in n}
    files = sorted((PROJECT / "src" / "starcom" / "sc" / "engine").glob("*.py"))
    assert files
    found = []
    for path in files:
        for line, text in _code_strings_and_names(ast.parse(path.read_text("utf-8"))):
            if text.strip() in names or text.lower().strip("_") in idents:
                found.append(f"{path.name}:{line}: {text!r}")
    assert not found, "card names in engine code:\n" + "\n".join(found)
