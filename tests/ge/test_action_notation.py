"""Galactic Empires' action notation: every legal action, in random positions of both editions,
reads back from its text (print → parse gives the same typed action, and prints the same text
again); no two actions of one decision share a text; a number (a count, a bitmask, a damage
share) is printed as a number and a card as a card; texts in the old form (numbers written as
the card of that uid) still read; the JSON form of actions is what it was."""
from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from starcom.ge.game import GalacticEmpires
from starcom.ge.moves import MOVES, value_roles
from starcom.ge.state import EDITIONS, FIRE

from .build import combine, give, put, table

CARD = re.compile(r"^([a-z0-9_]+#\d+|fleet:\d|hq:\d)$")
NUMBER = re.compile(r"^-?\d+$")


def check_decision(g: GalacticEmpires) -> set[str]:
    """Every legal action of ``g``'s decision reads back from its text; the kinds seen."""
    acts = g.legal_actions()
    texts = [g.notation(a) for a in acts]
    assert len(set(texts)) == len(texts), "two actions of one decision share a text"
    for a, text in zip(acts, texts):
        back = g.parse(text)
        assert back == a and type(back) is MOVES.types[a[0]], (a, text, back)
        assert g.notation(back) == text
        assert MOVES.from_json(json.loads(json.dumps(MOVES.to_json(a)))) == a
        roles = value_roles(tuple(a))
        for i, (value, word) in enumerate(zip(a[1:], text.split()[1:]), 1):
            if type(value) is not int:
                assert word == value
            elif roles.get(i) == "number":
                assert NUMBER.match(word), (a, text, i)
            else:
                assert CARD.match(word), (a, text, i)
    return {a[0] for a in acts}


# RULE: GE-DIG-1
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edition=st.sampled_from(EDITIONS), seed=st.integers(0, 2**31 - 1), pick=st.integers(0, 2**32 - 1),
       steps=st.integers(1, 400), prepaired=st.booleans())
def test_every_legal_action_of_a_random_position_reads_back(edition: str, seed: int, pick: int, steps: int,
                                                            prepaired: bool) -> None:
    g = GalacticEmpires.new(edition=edition, seed=seed, options={"prepaired": prepaired})
    rng = random.Random(pick)
    for _ in range(steps):
        if g.over:
            break
        check_decision(g)
        legal = g.legal_actions()
        g.apply(rng.choice(legal[:50] if g.s.phase == "setup" else legal))
    if not g.over:
        check_decision(g)


# RULE: GE-DIG-1
# RULE: GE-KREB-6
# RULE: GE-MISSION-2
def test_positions_with_numbers_in_their_actions() -> None:
    """Separating a Krebiz ship (damage shares and a bitmask), a Transporter's and a
    Shuttlecraft's crew moves (bitmasks), an Escort's interception (a count), a Shuttlecraft's
    reaction shot at a Sector HQ: each decision reads back, and the numbers print as numbers."""
    seen: set[str] = set()
    g = table(active=1)  # a damaged combined Krebiz ship with movable cards on it
    cruiser, capsule = put(g, 1, "krebiz_claw", damage=1), put(g, 1, "krebiz_heavy_capsule")
    combine(g, cruiser, capsule)
    put(g, 1, "boarding_party", on=cruiser)
    put(g, 1, "cargo", on=cruiser)
    seen |= check_decision(g)
    separate = next(a for a in g.legal_actions() if a[0] == "separate" and a[4] == 3)
    assert g.notation(separate) == f"separate krebiz_claw#{cruiser} {separate[2]} {separate[3]} 3"

    g = table()  # crew moves with a Transporter and a Shuttlecraft
    ship, other = put(g, 0, "argonian_sunspot"), put(g, 0, "argonian_blizzard")
    transporter = put(g, 0, "transporter", on=ship)
    put(g, 0, "shuttlecraft", on=other)
    put(g, 0, "technician", on=ship)
    put(g, 0, "doctor", on=ship)
    put(g, 0, "civilian_captain", on=other)
    seen |= check_decision(g)
    move = ("use", transporter, "move", ship, other, 3)
    assert move in g.legal_actions()
    assert g.notation(move) == f"use transporter#{transporter} move argonian_sunspot#{ship} argonian_blizzard#{other} 3"

    g = table(active=1, phase=FIRE)  # an Escort covering a strength-7 ship, and a shot at an HQ
    claw, heavy = put(g, 1, "krebiz_claw"), put(g, 1, "krebiz_heavy_capsule")
    for uid in (claw, heavy):
        g.s.owner_of[uid] = g.s.units[uid].owner = 0
    combine(g, claw, heavy)
    put(g, 0, "argonian_warm_front")
    shuttle, = give(g, 0, "shuttlecraft")
    shooter = put(g, 1, "krebiz_pincer")
    put(g, 1, "divergent_anomaly", on=claw)  # seat 0's HQ is open, and seat 1's has no ship ...
    put(g, 0, "divergent_anomaly", on=shooter)  # ... that protects it either
    g.apply(("aim", claw))
    g.apply(("add", shooter, "phaser"))
    g.apply(("fire",))
    assert g.s.priority == 0
    seen |= check_decision(g)
    texts = {g.notation(a) for a in g.legal_actions()}
    assert any(t.startswith("use argonian_warm_front#") and t.endswith(" 1") for t in texts)
    assert f"play shuttlecraft#{shuttle} krebiz_claw#{claw} fire hq:1" in texts
    assert {"separate", "use", "play"} <= seen


def test_old_texts_with_numbers_written_as_cards_still_read() -> None:
    g = table(active=1)
    cruiser, capsule = put(g, 1, "krebiz_clipper"), put(g, 1, "krebiz_light_capsule")
    combine(g, cruiser, capsule)
    old = f"separate krebiz_clipper#{cruiser} planetary_shield#0 planetary_shield#0 planetary_shield#0"
    assert g.parse(old) == ("separate", cruiser, 0, 0, 0)
    assert g.notation(g.parse(old)) == f"separate krebiz_clipper#{cruiser} 0 0 0"


def test_the_json_form_of_actions_is_unchanged() -> None:
    """Saved games hold actions as JSON lists [kind, *values]; the notation changed, not them."""
    examples: list[tuple[Any, ...]] = [("separate", 81, 1, 0, 3), ("use", 58, "move", 73, 75, 1),
                                       ("play", 5, 3, "fire", -2), ("aim", -2), ("reserve", "moon")]
    for a in examples:
        assert MOVES.to_json(MOVES.typed(a)) == list(a)
        assert MOVES.from_json(list(a)) == a
