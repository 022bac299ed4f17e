"""Every rule ID of the spec (RULES.md) must be cited by some test under tests/.

A rule is cited when its ID appears in a file under tests/ (a ``# RULE: COMBAT-4`` comment next
to the test that pins it) and is not part of a longer ID: ``MOVE-1`` is not cited by ``MOVE-12``.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# A rule line of RULES.md: "- COMBAT-4 text", "- CARD-Orbital-Bombardment: text".
RULE_LINE = re.compile(r"^- ([A-Z][A-Z0-9]*(?:-[A-Za-z0-9]+)+)(?=[\s:]|$)")
ID_CHAR = "A-Za-z0-9-"


def rules_path() -> Path:
    """Where RULES.md should be: $STARCOM_RULES if set, else the shared spec next to the
    project checkout (``<checkout>/../shared/RULES.md``). The file may not exist."""
    env = os.environ.get("STARCOM_RULES")
    if env:
        return Path(env).expanduser()
    return Path(__file__).resolve().parents[1].parent / "shared" / "RULES.md"


def rule_ids(text: str) -> list[str]:
    """The rule IDs defined in a RULES.md text, in order, without duplicates."""
    out: list[str] = []
    for line in text.splitlines():
        m = RULE_LINE.match(line)
        if m and m.group(1) not in out:
            out.append(m.group(1))
    return out


def is_cited(rule: str, text: str) -> bool:
    """Whether ``text`` mentions ``rule`` as a whole ID (not inside a longer one)."""
    return re.search(rf"(?<![{ID_CHAR}]){re.escape(rule)}(?![{ID_CHAR}])", text) is not None


def scanned_files() -> list[Path]:
    """Every readable text file under tests/, except this one (its examples cite nothing)."""
    me = Path(__file__).resolve()
    return sorted(p for p in TESTS.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.resolve() != me)



def uncited(rules: list[str], texts: list[str]) -> list[str]:
    """The rules that none of ``texts`` cites."""
    return [r for r in rules if not any(is_cited(r, t) for t in texts)]


# --------------------------------------------------------------------------- the check


def ge_rules_path() -> Path:
    """Galactic Empires' spec: $STARCOM_GE_RULES if set, else ``<checkout>/../shared/ge/RULES.md``."""
    env = os.environ.get("STARCOM_GE_RULES")
    if env:
        return Path(env).expanduser()
    return Path(__file__).resolve().parents[1].parent / "shared" / "ge" / "RULES.md"


def test_every_rule_is_cited_by_a_test() -> None:
    _check_cited(rules_path(), "STARCOM_RULES")


# RULE coverage of the second game: every GE-… ID of shared/ge/RULES.md.
def test_every_galactic_empires_rule_is_cited_by_a_test() -> None:
    _check_cited(ge_rules_path(), "STARCOM_GE_RULES")


def _check_cited(path: Path, variable: str) -> None:
    assert path.is_file(), (
        f"cannot find the spec RULES.md at {path} "
        f"({'from $' + variable if os.environ.get(variable) else 'default location'}); "
        f"set {variable} to its path")
    rules = rule_ids(path.read_text("utf-8"))
    assert len(rules) > 50, f"{path} yielded only {len(rules)} rule IDs; is it the spec?"
    texts = []
    for f in scanned_files():
        try:
            texts.append(f.read_text("utf-8"))
        except (UnicodeDecodeError, OSError):
            continue  # binary files cite nothing
    missing = uncited(rules, texts)
    assert not missing, (f"{len(missing)} of {len(rules)} rules are cited by no test under "
                         f"tests/ (add '# RULE: <ID>' next to a test that pins each):\n  "
                         + "\n  ".join(missing))


# --------------------------------------------------------------------------- the helpers themselves


def test_rule_ids_are_the_dash_lines_that_start_with_an_id() -> None:
    text = "\n".join([
        "# Title",
        "- ZAP-1 First rule, mentions ZAP-9 in passing.",
        "- ZAP-2 [S] Second rule.",
        "- CARD-Foo-Bar: a card with a long name.",
        "- CARD-Foo: a card whose name is a prefix of another.",
        "  - ZAP-7 indented: not a rule line",
        "- `standard` (default): not a rule",
        "- classic: not a rule",
        "| ZAP-8 | in a table |",
        "- ZAP-1 repeated",
        "- ZAP-3",
    ])
    assert rule_ids(text) == ["ZAP-1", "ZAP-2", "CARD-Foo-Bar", "CARD-Foo", "ZAP-3"]


def test_a_citation_must_be_the_whole_id() -> None:
    assert is_cited("ZAP-1", "# RULE: ZAP-1\n")
    assert is_cited("ZAP-1", "# RULE: ZAP-1 RULE: ZAP-2")
    assert is_cited("ZAP-1", "rule: ZAP-1,")
    assert is_cited("ZAP-1", '"ZAP-1"')
    assert is_cited("ZAP-1", "ends with ZAP-1")  # end of file counts as a boundary
    assert not is_cited("ZAP-1", "# RULE: ZAP-12")
    assert not is_cited("ZAP-1", "# RULE: ZAP-1a")
    assert not is_cited("ZAP-1", "# RULE: ZAP-1-extra")
    assert not is_cited("ZAP-1", "# RULE: XZAP-1")
    assert is_cited("CARD-Foo", "# RULE: CARD-Foo\n")
    assert not is_cited("CARD-Foo", "# RULE: CARD-Foo-Bar\n")
    assert is_cited("CARD-Foo-Bar", "# RULE: CARD-Foo-Bar\n")


def test_uncited_lists_exactly_the_missing_rules() -> None:
    rules = ["ZAP-1", "ZAP-2", "ZAP-10", "CARD-Foo"]
    texts = ["# RULE: ZAP-10", "x = 1  # RULE: CARD-Foo-Bar", "- ZAP-2 here"]
    assert uncited(rules, texts) == ["ZAP-1", "CARD-Foo"]
    assert uncited(rules, []) == rules


def test_rules_path_honours_the_environment(tmp_path: Path, monkeypatch) -> None:
    spec = tmp_path / "RULES.md"
    spec.write_text("- ZAP-1 x\n", "utf-8")
    monkeypatch.setenv("STARCOM_RULES", str(spec))
    assert rules_path() == spec
    monkeypatch.delenv("STARCOM_RULES")
    default = rules_path()
    assert default.parts[-2:] == ("shared", "RULES.md")
    assert default.parent.parent == TESTS.parent.parent


def test_scan_covers_scenarios_and_skips_this_file() -> None:
    files = scanned_files()
    assert any(f.suffix == ".yaml" for f in files)
    assert Path(__file__).resolve() not in [f.resolve() for f in files]
    assert all("__pycache__" not in f.parts for f in files)
