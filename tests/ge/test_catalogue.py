"""The Galactic Empires card catalogue against the spec's card table (shared/ge/cards.csv), the
deck lists, the own-words rule for card texts, and the loader's checks.

The spec is read at run time from the shared folder next to the project and never copied into
it; without that folder the comparisons with it are skipped.
"""
from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from starcom.ge.cards import (
    BY_ID,
    BY_KEY,
    CARDS,
    EMPIRES,
    KREBIZ_PAIRS,
    POINT_TYPES,
    QUICK_RESERVE,
    catalogue,
    deck_list,
)

PROJECT = Path(__file__).resolve().parents[2]
SPEC = PROJECT.parent / "shared" / "ge"  # = parents[3] / "shared" / "ge"
CARDS_CSV = SPEC / "cards.csv"
PROSE = (SPEC / "cards.md", SPEC / "RULES.md")

needs_csv = pytest.mark.skipif(not CARDS_CSV.is_file(), reason=f"GE card table not found at {CARDS_CSV}")
needs_prose = pytest.mark.skipif(not all(p.is_file() for p in PROSE),
                                 reason=f"GE cards.md / RULES.md not found under {SPEC}")


def _rows() -> list[dict[str, str]]:
    with CARDS_CSV.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


ROWS = _rows() if CARDS_CSV.is_file() else []

# The CSV's wording -> the catalogue's.
EMPIRE_OF = {"Argonian": "argonian", "Krebiz": "krebiz", "Indirigan (minor)": "indirigan",
             "Indirigan (technology)": "indirigan", "generic": "generic", "none": "none"}
EFFECT_OF = {"own": "own", "data": "data", "shared:krebiz": "krebiz", "shared:indirigan": "indirigan"}


def _class(text: str) -> str:
    kind, _, sub = text.partition(":")
    if kind == "krebiz_cruiser":
        return f"cruiser_{sub}"
    if kind == "krebiz_capsule":
        return f"capsule_{sub}"
    if kind == "terrain":
        return sub.replace(" ", "_")
    return {"equipment shuttle": "shuttle", "occurrence illness": "illness"}.get(text, text.replace(" ", "_"))


def _duration(text: str) -> int | None:
    if not text:
        return None
    return 0 if text == "this turn" else int(text)


def _half_slots(text: str) -> int | None:
    return None if not text else {"0": 0, "0.5": 1, "1": 2}[text]


# --------------------------------------------------------------------------- against cards.csv


@needs_csv
def test_the_catalogue_has_exactly_the_cards_of_the_table() -> None:
    assert sorted(BY_ID) == sorted(r["id"] for r in ROWS)
    assert len(BY_ID) == len(CARDS)


@needs_csv
@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_each_card_matches_its_row(row: dict[str, str]) -> None:
    card = BY_ID[row["id"]]
    assert card.name in row["name"].split(" - ")
    assert card.letter == row["type"]
    assert card.reaction == (row["reaction"] == "R/")
    assert card.strength == int(row["strength"])
    assert card.empire == EMPIRE_OF[row["empire"]]
    assert card.cls == _class(row["class"])
    assert card.cost == tuple(int(row[f"cost_{p}"]) for p in POINT_TYPES)
    assert card.generates == tuple(int(row[f"gen_{p}"]) for p in POINT_TYPES)
    assert card.card_damage == int(row["card_damage"])
    assert card.shields == int(row["shields"])
    assert card.phasers == int(row["phasers"])
    assert card.one_shot == (row["phaser_one_shot"] == "1")
    assert card.heavy == int(row["heavy_weapons"])
    assert card.passive == {"P": True, "NP": False, "": None}[row["equipment_mode"]]
    assert card.duration == _duration(row["duration_turns"])
    assert card.slots == _half_slots(row["command_slots"])
    assert card.is_unit == (card.slots is not None)
    assert card.copies == (int(row["count_argonian"]), int(row["count_krebiz"]))
    assert card.effect == EFFECT_OF[row["effect_code"]]


# --------------------------------------------------------------------------- the catalogue itself


def test_indexes_and_lookups_agree() -> None:
    assert [c.index for c in CARDS] == list(range(len(CARDS)))
    assert all(BY_KEY[c.key] is c and BY_ID[c.id] is c for c in CARDS)
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", c.key) for c in CARDS)


# RULE: GE-SETUP-1
def test_deck_sizes_and_shared_cards() -> None:
    assert EMPIRES == ("argonian", "krebiz")
    assert len(deck_list("argonian")) == 46
    assert len(deck_list("krebiz")) == 51
    assert len(CARDS) == 49
    assert sum(1 for c in CARDS if all(c.copies)) == 36
    assert len({c.key for c in deck_list("argonian")}) == 41
    # decks.md's table footer says 45, but its own lines (36 shared + 8 Krebiz-only) give 44.
    assert len({c.key for c in deck_list("krebiz")}) == 44
    for empire in EMPIRES:
        indexes = [c.index for c in deck_list(empire)]
        assert indexes == sorted(indexes)  # catalogue order, copies side by side


def test_an_unknown_deck_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="argonian, krebiz"):
        deck_list("mechad")


def test_quick_reserve_and_krebiz_pairs_come_from_their_decks() -> None:
    assert QUICK_RESERVE == {"argonian": ("siobhan_7", "argonian_sunspot"),
                             "krebiz": ("siobhan_7", "krebiz_pincer")}
    for empire, picks in QUICK_RESERVE.items():
        deck = [c.key for c in deck_list(empire)]
        assert all(k in deck for k in picks)
    assert [BY_KEY[k].letter + str(BY_KEY[k].strength) for k in QUICK_RESERVE["argonian"]] == ["T4", "S3"]
    pairs = [(BY_KEY[a].name, BY_KEY[b].name) for a, b in KREBIZ_PAIRS]
    assert pairs == [("Krebiz Clipper Frigate", "Krebiz Light Capsule")] * 2 + \
        [("Krebiz Pincer Destroyer", "Krebiz Medium Capsule")] * 2 + \
        [("Krebiz Claw Heavy Cruiser", "Krebiz Heavy Capsule")] * 2
    krebiz = [c.key for c in deck_list("krebiz")]
    for cruiser, capsule in KREBIZ_PAIRS:
        assert BY_KEY[cruiser].cls.startswith("cruiser_") and BY_KEY[capsule].cls.startswith("capsule_")
        assert BY_KEY[cruiser].cls[len("cruiser_"):] == BY_KEY[capsule].cls[len("capsule_"):]
        assert krebiz.count(capsule) == sum(1 for _, c in KREBIZ_PAIRS if c == capsule)


def test_labels_and_derived_properties() -> None:
    assert BY_KEY["doctor"].label == "R/C2 Doctor"
    assert BY_KEY["argonian_typhoon"].label == "S6 Argonian Typhoon Heavy Cruiser"
    assert BY_KEY["biruks_comet"].label == "T2 Biruk's Comet"
    assert BY_KEY["fleet_freighter"].has_cost and not BY_KEY["small_moon"].has_cost
    assert BY_KEY["defensive_satellites"].is_unit and not BY_KEY["cargo"].is_unit
    assert BY_KEY["fuser_mechanism"].empire == "indirigan"
    assert BY_KEY["krebiz_armor"].empire == "krebiz"
    assert BY_KEY["illness"].cls == "illness"


def test_errata_are_applied() -> None:
    # RULE: GE-GEN-3
    assert BY_KEY["doctor"].strength == 2 and "discarded after use" in BY_KEY["forced_retreat"].text.lower()
    assert BY_KEY["fuser_mechanism"].passive is False and BY_KEY["laboratory"].passive is True


# --------------------------------------------------------------------------- own words

RUN = 8  # this many words in a row shared with the spec counts as copied


def _words(text: str) -> list[str]:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).split()


def _runs(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}


@needs_prose
def test_card_texts_are_in_our_own_words() -> None:
    spec_runs: set[tuple[str, ...]] = set()
    for path in PROSE:
        spec_runs |= _runs(_words(path.read_text("utf-8")))
    copied = {c.key: " ".join(run) for c in CARDS for run in _runs(_words(c.text)) if run in spec_runs}
    assert not copied, f"card texts share {RUN}+ words in a row with the spec: {copied}"


def test_every_card_has_a_short_text() -> None:
    for c in CARDS:
        assert 3 <= len(c.text.split()) <= 45, c.key
        assert c.text.count(".") <= 3, c.key


# --------------------------------------------------------------------------- the loader's checks

GOOD = '''
[doctor]
id = "C2_-_Doctor_PE"
name = "Doctor"
kind = "crew"
class = "crew"
empire = "none"
reaction = true
strength = 2
cost = {}
generates = { research = 1 }
card_damage = 0
shields = 0
phasers = 0
one_shot = false
heavy = 0
argonian = 1
krebiz = 1
effect = "own"
text = "A test card."
'''


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "catalogue.toml"
    path.write_text(text, "utf-8")
    return path


def test_the_loader_reads_a_good_file(tmp_path: Path) -> None:
    (doctor,) = catalogue.load(_write(tmp_path, GOOD))
    assert doctor.key == "doctor" and doctor.index == 0 and doctor.generates == (0, 0, 0, 0, 1, 0)
    assert doctor.slots is None and doctor.passive is None and doctor.duration is None


@pytest.mark.parametrize(("old", "new", "field"), [
    ("strength = 2\n", "", "strength"),                            # missing
    ("strength = 2\n", "strength = 2\nspeed = 3\n", "speed"),      # unknown
    ('kind = "crew"', 'kind = "spaceship"', "kind"),                # not a kind
    ('class = "crew"', 'class = "moon"', "class"),                  # not a class of its kind
    ("strength = 2", 'strength = "2"', "strength"),                 # wrong type
    ("strength = 2", "strength = 0", "strength"),                   # out of range
    ("reaction = true", "reaction = 1", "reaction"),                # a number is not a bool
    ("{ research = 1 }", "{ research = 0 }", "generates"),          # zero points are left out
    ("{ research = 1 }", "{ science = 1 }", "generates"),           # no such point type
    ('effect = "own"', 'effect = "shared:krebiz"', "effect"),       # the CSV spelling
    ('empire = "none"', 'empire = "Argonian"', "empire"),           # case matters
    ("heavy = 0\n", "heavy = 0\nslots = 1\n", "slots"),             # slots on a non-unit
    ("heavy = 0\n", "heavy = 0\npassive = true\n", "passive"),      # passive on a non-equipment
])
def test_the_loader_names_the_card_and_field(tmp_path: Path, old: str, new: str, field: str) -> None:
    assert GOOD.count(old) == 1
    path = _write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(ValueError, match=rf"card 'doctor'.*'{field}'"):
        catalogue.load(path)


def test_the_loader_wants_slots_on_units_and_passive_on_equipment(tmp_path: Path) -> None:
    ship = GOOD.replace('kind = "crew"', 'kind = "ship"').replace('class = "crew"', 'class = "frigate"')
    with pytest.raises(ValueError, match=r"card 'doctor'.*'slots'"):
        catalogue.load(_write(tmp_path, ship))
    kit = GOOD.replace('kind = "crew"', 'kind = "equipment"').replace('class = "crew"', 'class = "equipment"')
    with pytest.raises(ValueError, match=r"card 'doctor'.*'passive'"):
        catalogue.load(_write(tmp_path, kit))
    with pytest.raises(ValueError, match=r"card 'doctor'.*'slots'"):
        catalogue.load(_write(tmp_path, ship.replace("heavy = 0\n", "heavy = 0\nslots = 3\n")))


def test_the_loader_refuses_a_repeated_id_and_broken_toml(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"card 'nurse'.*'id'.*'doctor'"):
        catalogue.load(_write(tmp_path, GOOD + GOOD.replace("[doctor]", "[nurse]")))
    with pytest.raises(ValueError, match="catalogue.toml"):
        catalogue.load(_write(tmp_path, "[doctor\n"))
