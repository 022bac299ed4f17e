"""Option labels (starcom.sc.options): one short label per legal action, unique within a decision,
worded from the action's fields, and no more revealing than the observer allows."""
from __future__ import annotations

import random
import re
import sys
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EDITIONS, game_configs, pick_action
from starcom.sc.engine.game import Game
from starcom.sc.cards.catalogue import CARD_DEF
from starcom.sc.options import option_labels
from starcom.sc.scenario import build
from starcom.sc.text import describe_action
from starcom.sc.text import option_labels as reexported

CHECKED = {"decisions": 0, "labels": 0}


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    # How much the property test covered (shown with -s).
    print(f"\noption labels: {CHECKED['decisions']} decisions, {CHECKED['labels']} labels checked",
          file=sys.stderr)


def check_decision(g: Game, det_seed: int | None = None) -> list[str]:
    """Check the labels of ``g``'s current decision for the seat to move; returns them."""
    acts = g.legal_actions()
    seat = g.to_move
    labels = option_labels(g, acts, seat)
    assert len(labels) == len(acts)
    assert all(isinstance(s, str) and s.strip() for s in labels), labels
    dup = {s for s in labels if labels.count(s) > 1}
    assert not dup, f"{g.decision}: equal labels {sorted(dup)[:5]}"
    # The seat that decides can tell its own options apart in words: the last resort of
    # numbering options is never needed for it.
    assert not [s for s in labels if re.search(r"\(option \d+\)$", s)], labels
    # The engine's notation tells every two legal actions apart too.
    nota = [g.notation(a) for a in acts]
    assert len(set(nota)) == len(nota), sorted(n for n in nota if nota.count(n) > 1)[:5]
    if det_seed is not None:
        # Labels come from what the seat may know: on a position re-dealt consistently with
        # its view they read the same.
        det = g.determinize(seat, random.Random(det_seed))
        assert option_labels(det, det.legal_actions(), seat) == labels
    CHECKED["decisions"] += 1
    CHECKED["labels"] += len(labels)
    return labels


configs = game_configs()


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=configs, pick_seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 600))
def test_labels_are_unique_and_non_empty_at_every_decision(edition: str, cfg: dict[str, Any],
                                                          pick_seed: int, steps: int) -> None:
    g = Game.new(edition=edition, **cfg)
    rnd = random.Random(pick_seed)
    for i in range(steps):
        if g.over:
            break
        check_decision(g, det_seed=pick_seed + i if i % 5 == 0 else None)
        g.apply(pick_action(g, rnd))


def test_text_module_re_exports_option_labels() -> None:
    assert reexported is option_labels


# --------------------------------------------------------------------------- the known cases


def test_classic_jump_with_and_without_exploring() -> None:
    g = Game.new(players=2, size=3, edition="classic", seed=4)
    pairs = {}
    for a in g.legal_actions():
        if a[0] == "jump":
            pairs.setdefault(a[1:3] + a[4:], {})[a[3]] = a
    both = [p for p in pairs.values() if len(p) == 2]
    assert both, "a classic game starts with jumps into unexplored systems"
    labels = dict(zip(g.legal_actions(), check_decision(g)))
    for p in both:
        yes, no = labels[p[1]], labels[p[0]]
        assert yes != no
        assert yes.endswith("and explore") and no.endswith("without exploring"), (yes, no)
        assert re.match(rf"Jump Scout #{p[1][1]} to [a-c][1-3] ", yes)
        # notation keeps the explore flag when positions are named
        assert g.notation(p[1]) == g.notation(p[0]) + " +explore"


def test_standard_jump_into_unexplored_system_says_it_explores() -> None:
    g = Game.new(players=2, size=3, edition="standard", seed=4)
    labels = dict(zip(g.legal_actions(), check_decision(g)))
    jumps = [a for a in labels if a[0] == "jump"]
    assert jumps and all(a[3] == 1 for a in jumps)
    assert all(labels[a].endswith(" and explore") for a in jumps)


def _combat(vessels: list[dict], hands: list[list[str]] | None = None, phase: str = "combat",
            players: int = 2) -> tuple[Game, dict[str, int]]:
    hands = hands or [[]] * players
    return build({"players": players, "setup": {
        "active": 0, "phase": phase, "players": [{"hand": h} for h in hands],
        "vessels": [{"card": c, "owner": o, "at": "b2", "label": lab} for c, o, lab in vessels]}})


def test_damage_assignments_name_attacker_target_and_amount() -> None:
    # Two Corvettes against two Destroyers: every attacker/target/amount mix is a distinct
    # option, although the vessels' names repeat.
    g, _ = _combat([("Corvette", 0, "x"), ("Corvette", 0, "y"),
                    ("Destroyer", 1, "a"), ("Destroyer", 1, "b")])
    assert g.decision == "assign"
    labels = dict(zip(g.legal_actions(), check_decision(g)))
    assign = {a: s for a, s in labels.items() if a[0] == "assign"}
    assert len(assign) == 8  # 2 attackers x 2 targets x amounts 1..2
    for (_, src, tgt, amt), s in assign.items():
        assert s == f"Assign {amt} damage: Corvette #{src} → P1's Destroyer #{tgt} at b2"
    assert labels[("done",)] == "Done assigning damage"


def test_barrage_targets_and_copies_are_told_apart() -> None:
    g, _ = _combat([("Corvette", 0, "x"), ("Corvette", 0, "y"), ("Frigate", 1, "a")],
                   hands=[["Barrage", "Barrage"], []], phase="command")
    assert g.decision == "command"
    labels = dict(zip(g.legal_actions(), check_decision(g)))
    barrage = {a: s for a, s in labels.items() if a[0] == "play" and CARD_DEF[a[1]].name == "Barrage"}
    assert len(barrage) == 4  # 2 copies x 2 own Corvettes
    for (_, card, target), s in barrage.items():
        assert s == f"Play Barrage: your Corvette #{target} at b2 (copy #{card})"
    # Selling two copies of one card: one option, no copy number needed.
    sells = [s for a, s in labels.items() if a[0] == "sell"]
    assert sells == ["Sell Barrage and Barrage for 3 credits"]


def test_labels_name_other_players_vessels_with_their_owner() -> None:
    g, L = _combat([("Corvette", 0, "x"), ("Frigate", 1, "a"), ("Frigate", 2, "b")],
                   hands=[["Sabotage"], [], []], phase="command", players=3)
    labels = [s for a, s in zip(g.legal_actions(), check_decision(g)) if a[0] == "play"]
    assert sorted(labels) == sorted([f"Play Sabotage: your Corvette #{L['x']} at b2",
                                     f"Play Sabotage: P1's Frigate #{L['a']} at b2",
                                     f"Play Sabotage: P2's Frigate #{L['b']} at b2"])


def test_hand_full_discards_of_two_copies() -> None:
    # P0 controls an Industry system (so draws in the Ready phase) and holds a full hand.
    g, _ = build({"setup": {"active": 0, "phase": "ready", "players": [
        {"hand": ["Barrage", "Barrage", "Ram", "Sabotage", "Evasion"]}, {}],
        "board": {"b2": {"system": "Trade World", "owner": 0}}}})
    assert g.decision == "choice" and g.choice.kind == "hand_full"
    labels = dict(zip(g.legal_actions(), check_decision(g)))
    copies = sorted(c for c in g.hands[0] if CARD_DEF[c].name == "Barrage")
    assert labels[("choose", "skip")] == "Skip the draw"
    for c in copies:
        assert labels[("choose", c)] == f"Discard Barrage to make room (copy #{c})"
    assert any(s == "Discard Ram to make room" for s in labels.values())


def test_a_spectator_never_learns_a_hidden_trade_card() -> None:
    """Offering hand cards in a trade: the seat that offers sees which card each option gives;
    anyone else sees only "a hidden card" (numbered, since nothing else tells them apart)."""
    g, _ = build({"setup": {"active": 0, "phase": "command", "players": [
        {"hand": ["Barrage", "Ram"], "credits": 2}, {}]}})
    g.apply(("offer", 1))
    assert g.decision == "trade_build"
    acts = g.legal_actions()
    gives = [i for i, a in enumerate(acts) if a[:2] == ("give", "card")]
    assert len(gives) == 2
    own = check_decision(g)
    assert sorted(own[i] for i in gives) == ["Offer Barrage", "Offer Ram"]
    for viewer in (None, 1):
        seen = option_labels(g, acts, viewer)
        assert len(set(seen)) == len(seen)
        for i in gives:
            assert seen[i].startswith("Offer a hidden card"), seen[i]
            assert "Barrage" not in seen[i] and "Ram" not in seen[i]
            assert str(acts[i][2]) not in seen[i]


def test_card_choice_is_worded_from_the_card_data() -> None:
    # A choice asked by a card effect (here the Cruiser's, in the End phase) reads from
    # starcom.sc.cards.wording; the log sentence stays as it was.
    g, _ = build({"setup": {"active": 0, "phase": "end",
                            "board": {"b2": {"system": "Trade World", "owner": 1, "devs": 2}},
                            "vessels": [{"card": "Cruiser", "owner": 0, "at": "b2"},
                                        {"card": "Defense Station", "owner": 1, "at": "b2"}]}})
    assert g.decision == "choice" and g.choice.kind == "Cruiser"
    labels = dict(zip(g.legal_actions(), check_decision(g)))
    assert labels == {("choose", 1): "Cruiser takes a development off b2",
                      ("choose", 0): "Cruiser holds fire at b2"}
    assert describe_action(g, ("choose", 1), 0) == "P0 lets the Cruiser remove a development"
    assert describe_action(g, ("choose", 0), 0) == "P0 lets the Cruiser hold fire"


def test_every_vessel_target_names_its_owner_and_system() -> None:
    """Two alike enemy vessels in different systems: each target says whose it is and where it
    stands, so the player never tells them apart by their number alone."""
    g, L = build({"players": 2, "setup": {"active": 0, "phase": "command",
                  "players": [{"hand": ["Sabotage"]}, {}],
                  "vessels": [{"card": "Corvette", "owner": 0, "at": "b2", "label": "x"},
                              {"card": "Destroyer", "owner": 1, "at": "b2", "label": "a"},
                              {"card": "Corvette", "owner": 0, "at": "c3", "label": "y"},
                              {"card": "Destroyer", "owner": 1, "at": "c3", "label": "b"}]}})
    labels = [s for a, s in zip(g.legal_actions(), check_decision(g)) if a[0] == "play"]
    assert f"Play Sabotage: P1's Destroyer #{L['a']} at b2" in labels
    assert f"Play Sabotage: P1's Destroyer #{L['b']} at c3" in labels
    for s in labels:
        assert re.search(r"(your|P\d's) \w[\w ]* #\d+ at [a-e][1-5]", s), s


# RULE: DEV-1
# RULE: DEV-2
def test_prices_on_every_option_that_costs() -> None:
    """Developing, building, repairing and scrapping say their price in the label, from the
    engine's own costs: the first development of a system costs 1, a further one its count + 1."""
    g, L = build({"players": 2, "setup": {"active": 0, "phase": "command", "players": [{"credits": 20}, {}],
                  "board": {"b2": {"system": "Trade World", "owner": 0, "devs": 1}},
                  "vessels": [{"card": "Corvette", "owner": 0, "at": "b2", "label": "x"},
                              {"card": "Corvette", "owner": 0, "at": "c3", "label": "y"}]}})
    acts = g.legal_actions()
    labels = dict(zip(acts, check_decision(g)))
    dev = {g.notation(a): s for a, s in labels.items() if a[0] == "develop"}
    assert dev, labels
    for a, s in labels.items():
        if a[0] == "develop":
            assert s.endswith(" credits") or s.endswith(" credit"), s
            want = g.sites[a[1]].devs + 1 if g.sites[a[1]].owner == 0 else 1
            assert s.endswith(f" — {want} credit" + ("" if want == 1 else "s")), s
        if a[0] == "build":
            cost = g.rules.catalogue.defs[a[1]].cost
            assert s.endswith(f" — {cost} credit" + ("" if cost == 1 else "s")), s
        if a[0] == "scrap":
            assert s.endswith(" back") and " at " in s, s
    b2 = [s for a, s in labels.items() if a[0] == "develop" and g.sites[a[1]].owner == 0]
    assert "Develop b2 — 2 credits" in b2, b2  # one development there already: the next costs 2
