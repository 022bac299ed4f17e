"""Prompts in words (issue 30, "no empty prompts"): the guide's sentence and the banner's words for
every decision, from public facts only, and never "waiting to resolve" over an empty stack."""
from __future__ import annotations

import random
import re

import pytest

import starcom
from starcom.sc.engine.game import Game
from starcom.sc.guide import decision_text, guide
from starcom.sc.observer import STARCOM

from .helpers import act, setup, vessel

STEPS = ("command", "priority", "choice", "combat_pick", "assign", "retreat", "build_window", "trade_build",
         "trade_answer", "over")
RAW = re.compile(r"\b(" + "|".join(STEPS) + r")\b|_")  # a step's name, or any snake_case word


def fight_with_cards() -> tuple[Game, dict[str, int]]:
    """A fight at b2; both players hold Evasion, so every window asks both."""
    return setup(setup={
        "active": 0, "phase": "combat",
        "players": [{"hand": ["Evasion"]}, {"hand": ["Evasion"]}],
        "vessels": [vessel("Frigate", 0, "b2", "f0"), vessel("Destroyer", 1, "b2", "d1")]})


def test_the_fight_windows_say_when_they_fall_and_never_that_something_waits() -> None:
    # RULE: COMBAT-2 the four windows of a fight open with nothing on the stack: the guide says
    # which one it is (before assignment, before damage lands, before retreats, after them).
    g, L = fight_with_cards()
    said: list[tuple[str, str]] = []
    while g.active == 0 and not g.over:
        if g.decision == "priority":
            assert not g.stack
            sentence, banner = guide(g, g.to_move), decision_text(g)
            assert sentence is not None and "waiting to resolve" not in sentence
            assert "b2" in sentence and "b2" in banner
            said.append((banner, sentence))
            act(g, L, "pass")
        elif g.decision == "assign":
            act(g, L, "assign $f0 $d1 3" if g.to_move == 0 else "done")
        else:
            act(g, L, "done")
    banners = [b for b, _ in said]
    assert banners == ["Combat at b2: before damage is assigned"] * 2 + [
        "Combat at b2: damage is assigned, before it lands"] * 2 + [
        "Combat at b2: the shots have landed, before retreats"] * 2 + ["Combat at b2: after retreats"] * 2
    assert len({s for _, s in said}) == 4
    assert "redirect" in said[2][1]  # the window after assignment is the one for redirects (COMBAT-5)


def test_a_card_on_the_stack_is_named_with_whose_it_is() -> None:
    # RULE: RESP-1 P0 plays Barrage: P0 (active) is asked first, then P1; the guide names the card
    # and says whose it is, the banner names it for everyone.
    g, L = setup(setup={
        "active": 0, "phase": "command",
        "players": [{"hand": ["Barrage", "Evasion"]}, {"hand": ["Evasion"]}],
        "vessels": [vessel("Frigate", 0, "b2", "f0"), vessel("Frigate", 1, "b2", "f1")]})
    act(g, L, "play Barrage $f0")
    assert g.decision == "priority" and g.to_move == 0
    assert decision_text(g) == "Respond to P0's Barrage"
    mine = guide(g, 0)
    assert mine is not None and mine.startswith("Your Barrage is waiting to resolve") and "on top" in mine
    act(g, L, "pass")
    assert g.to_move == 1
    theirs = guide(g, 1)
    assert theirs is not None and theirs.startswith("P0's Barrage is waiting to resolve")
    assert guide(g, 0) is None  # only the seat to move is guided


def test_the_build_window_reads_as_words() -> None:
    # RULE: CARD-Forsei the moment to build in the Ready phase has a banner and a guide sentence.
    g, L = setup(setup={"active": 0, "phase": "ready", "players": [{"credits": 10}],
                        "board": {"b3": {"system": "Forsei", "owner": 0, "devs": 2}}})
    assert g.decision == "build_window"
    assert decision_text(g) == "Ready phase: build ships or go on"
    assert STARCOM.view(g, 1)["decision_text"] == "Ready phase: build ships or go on"
    assert STARCOM.view(g, 1)["decision"] == "build_window"  # the raw name stays, for programs
    sentence = guide(g, 0)
    assert sentence is not None and "build ships" in sentence


def test_retreat_banner_names_the_system() -> None:
    g, L = setup(setup={
        "active": 0, "phase": "combat",
        "board": {"c2": {"system": "Trade World", "owner": 0, "devs": 1}},
        "vessels": [vessel("Frigate", 0, "b2", "f"), vessel("Scout", 1, "b2", "s")]})
    while g.decision != "retreat":
        act(g, L, "done" if g.decision == "assign" else "pass")
    assert decision_text(g) == "Retreat from b2 or stay"


@pytest.mark.parametrize("players,size,edition", [(2, 3, "standard"), (3, 4, "classic"), (4, 5, "standard")])
def test_every_decision_of_a_playout_has_words_and_a_guide(players: int, size: int, edition: str) -> None:
    """Along seeded random playouts: every banner is words (no step name, no snake_case), every
    decision has a guide sentence, no sentence speaks of a waiting card over an empty stack, and
    every viewer gets the same banner."""
    steps: set[str] = set()
    for seed in range(4):
        g = starcom.load_game("starcom", players=players, size=size, edition=edition, seed=seed, turn_limit=30)
        rng = random.Random(seed)
        for _ in range(700):
            if g.over:
                break
            banner = decision_text(g)
            assert banner and not RAW.search(banner), (g.decision, banner)
            views = {STARCOM.view(g, v)["decision_text"] for v in (None, *range(players))}
            assert views == {banner}
            sentence = guide(g, g.to_move)
            assert sentence, g.decision
            if not g.stack:
                assert "waiting to resolve" not in sentence
            steps.add(g.decision)
            g.apply(rng.choice(g.legal_actions()))
        if g.over:
            assert decision_text(g) == "Game over"
    assert {"command", "priority", "assign"} <= steps


def test_a_retreat_with_no_enemy_left_says_why_it_is_still_asked() -> None:
    """COMBAT-7 lets each player move unmoved ships out of a fought system whether or not an enemy
    is left, so the step stays; its guide says that no enemy is left and what the choice is."""
    # RULE: COMBAT-7
    from starcom.sc.engine.rules import vessels_at
    seen = 0
    for seed in range(40):
        g, rng = Game.new(players=2, size=3, seed=seed), random.Random(seed)
        while not g.over:
            if g.step == "retreat":
                enemy = any(v.owner != g.to_move for v in vessels_at(g, g.combat_pos))
                words = guide(g, g.to_move) or ""
                assert ("No enemy is left" in words) == (not enemy), words
                assert any(a[0] == "retreat" for a in g.legal_actions())  # a real choice, never only "done"
                seen += not enemy
            g.apply(rng.choice(g.legal_actions()))
        if seen >= 2:
            break
    assert seen >= 2
