"""Galactic Empires secrecy (GE-DIG-2) where a card is known without being face up: a card
named in a reserve swap stays in its owner's hand until the swap resolves, so every position
made for the opponent (a search's determinization, a bot's canonical position) keeps it there;
and a secret action (the reserve fleet chosen before the deal) is worded for each viewer as
that viewer may know it, in every text: the entry's ``describe``, and ``starcom replay``."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from starcom.cli.main import app
from starcom.games import get
from starcom.ge import board
from starcom.ge.game import GalacticEmpires
from starcom.ge.invariants import check_state
from starcom.ge.scenario import put
from starcom.ge.state import PLAY_A
from starcom.ge.text import describe
from starcom.sim import record

from .build import give, legal, table
from .test_plays import crew_places, pass_all, played, to_reserve

GE = get("ge")


def _watch(g: GalacticEmpires, seat: int) -> None:
    """Make ``seat`` a player who might react to anything (a Transporter could be in its hand
    and move its crew), so every event of the other seat opens a window."""
    crew_places(g, seat)
    give(g, seat, "small_moon")


def _swap_announced() -> tuple[GalacticEmpires, int, int, int]:
    """Seat 0 has taken ``kept`` out of its reserve by a swap that resolved, then announced a
    second swap of ``big`` (from its hand) for ``spare``; seat 1 is deciding whether to react.
    Returns the game, ``big``, ``kept`` and ``spare``."""
    g = table()
    _watch(g, 1)
    kept = to_reserve(g, 0, "argonian_sunspot")  # strength 3
    big, spare, _, _ = give(g, 0, "argonian_typhoon", "argonian_blizzard", "moon", "doctor")  # 6, 4
    played(g, ("swap", spare, kept))
    g.apply(("swap", big, spare))
    assert g.s.priority == 1 and g.s.chain[-1].action == ("swap", big, spare)
    return g, big, kept, spare


# RULE: GE-PLAY-6
# RULE: GE-DIG-2
def test_a_card_announced_for_a_swap_stays_in_every_hand_made_for_the_opponent() -> None:
    g, big, kept, spare = _swap_announced()
    hand = g.s.players[0].hand
    assert big in hand and kept in hand  # the swap has not resolved: the card is still in the hand
    seen = [c["uid"] for c in g.view(1)["players"][0]["hand"]]
    assert sorted(seen) == sorted([big, kept])  # seat 1 saw both named: it knows where they are
    for k in range(200):
        d = g.determinize(1, random.Random(k))
        assert big in d.s.players[0].hand and kept in d.s.players[0].hand, k
        assert d.view(1) == g.view(1) and d.legal_actions() == g.legal_actions()
    assert big in GE.observer.canonical(g, 1).s.players[0].hand  # the bot protocol's position
    pass_all(g)  # the swap resolves: big goes into the reserve, spare comes out
    p = g.s.players[0]
    assert big in p.reserve and big not in p.shown and spare in p.hand and spare in p.shown
    for k in range(50):
        assert spare in g.determinize(1, random.Random(k)).s.players[0].hand


def _twin(g: GalacticEmpires, seat: int, known: set[int], rng: random.Random) -> GalacticEmpires:
    """A copy that differs from ``g`` only in what the other seat cannot know of ``seat``: its
    hand but the ``known`` cards is dealt again from the hand and deck, and the hand's order
    (which card came when) is shuffled. ``known`` comes from the test, not from the engine."""
    copy = g.clone()
    p = copy.s.players[seat]
    hidden = [u for u in p.hand if u not in known]
    pool = hidden + p.deck
    rng.shuffle(pool)
    p.hand = [u for u in p.hand if u in known] + pool[:len(hidden)]
    rng.shuffle(p.hand)
    p.deck = pool[len(hidden):]
    return copy


# RULE: GE-DIG-2
def test_twins_that_differ_only_in_hidden_cards_give_the_same_canonical_position() -> None:
    """``kept`` went into the hand in view of both, ``big`` was dealt in secret and then named
    in a swap: the opponent cannot tell which came into the hand first, nor what else is there."""
    g, big, kept, _ = _swap_announced()
    rng = random.Random(3)
    want = GE.observer.canonical(g, 1).to_json()
    for _ in range(20):
        twin = _twin(g, 0, {big, kept}, rng)
        assert twin.view(1) == g.view(1)
        assert GE.observer.canonical(twin, 1).to_json() == want


def _watched_table(seed: int) -> GalacticEmpires:
    """A dealt game in which both seats may react to every event and hold a public reserve of
    two cards, so reserve swaps come with reaction windows."""
    g = table(seed=seed, empty_hands=False)
    for seat in (0, 1):
        a = put(g, seat, "hcsuar_drahcir")
        put(g, seat, "kalins_nebula")
        put(g, seat, "civilian_captain", on=a)
        p = g.s.players[seat]
        p.reserve += [p.deck.pop(), p.deck.pop()]
        p.reserve_public = True
    return g


# RULE: GE-PLAY-6
# RULE: GE-DIG-2
def test_random_swap_windows_never_move_the_announced_card_out_of_the_hand() -> None:
    windows = 0
    for seed in range(8):
        g = _watched_table(seed)
        s = g.s
        rng = random.Random(seed)
        for _ in range(400):
            if g.over:
                break
            pending = [i for i in s.chain if i.kind == "swap" and i.action[1] in s.players[i.player].hand]
            if pending and g.to_move is not None:
                windows += 1
                item = pending[-1]
                for k in range(10):
                    d = g.determinize(1 - item.player, random.Random(k))
                    assert item.action[1] in d.s.players[item.player].hand, (seed, s.actions, k)
            assert check_state(g) == [], (seed, s.actions)
            acts = g.legal_actions()
            swaps = [a for a in acts if a[0] == "swap"]
            busy = [a for a in acts if a[0] not in ("end", "pass", "quiet")]
            g.apply(rng.choice(swaps) if swaps and rng.random() < 0.5
                    else rng.choice(busy) if busy and rng.random() < 0.7 else rng.choice(acts))
    assert windows >= 5  # the games really held swaps open for a reaction


# RULE: GE-DIG-2
def test_the_bookkeeping_check_names_an_unmarked_swap_card_and_a_stale_mark() -> None:
    g, big, _, _ = _swap_announced()
    assert check_state(g) == []
    g.s.players[0].shown.remove(big)
    assert any(f"card {big}" in m and "swap" in m for m in check_state(g))
    g, big, _, _ = _swap_announced()
    pass_all(g)
    g.s.players[0].shown.append(big)  # big is in the reserve now
    assert any(f"card {big}" in m and "not in" in m for m in check_state(g))


# RULE: GE-KREB-3
# RULE: GE-DIG-2
def test_a_seen_capsule_played_in_a_pair_is_no_longer_marked_as_in_the_hand() -> None:
    g = table(active=1)
    s = g.s
    (cruiser,) = give(g, 1, "krebiz_clipper")
    capsule = put(g, 1, "krebiz_light_capsule")
    board.leave(s, capsule, to="hand")  # back to the hand in view of both
    assert capsule in s.players[1].shown and s.phase == PLAY_A
    pair = next(a for a in legal(g, "pair") if a[1:3] == (cruiser, capsule))
    played(g, pair)
    assert capsule in s.units and capsule not in s.players[1].shown
    assert check_state(g) == []


# --------------------------------------------------------------------------- action texts


CHOICE = ("reserve", "argonian_typhoon", "siobhan_7")  # seat 0's secret reserve fleet
NAMES = ("Typhoon", "Siobhan")


# RULE: GE-SETUP-2
def test_a_reserve_choice_is_worded_for_each_viewer() -> None:
    g = GalacticEmpires.new(seed=5)
    assert CHOICE in g.legal_actions() and g.to_move == 0
    mine = describe(g, CHOICE, 0)
    assert all(n in mine for n in NAMES)
    for viewer in (1, None):  # the other seat and a spectator learn only how many cards
        for text in (describe(g, CHOICE, viewer), GE.words.describe(g, CHOICE, viewer)):
            assert not any(n in text for n in NAMES) and "2 cards" in text, text
    assert "no reserve" in describe(g, ("reserve",), 1).lower()


def _replay(path: Path, viewer: str) -> list[dict[str, Any]]:
    out = CliRunner().invoke(app, ["replay", str(path), "--viewer", viewer, "--json"])
    assert out.exit_code == 0, out.output
    history: list[dict[str, Any]] = json.loads(out.output)["history"]
    return history


# RULE: GE-SETUP-2
# RULE: GE-SETUP-5
def test_replay_as_the_other_seat_never_names_a_secret_reserve(tmp_path: Path) -> None:
    config = {"players": 2, "edition": "full", "seed": 5, "turn_limit": 2}
    game = GE.rules.new(**config)
    actions: list[Any] = [CHOICE, ("reserve", "krebiz_claw")]
    for act in actions:
        GE.rules.play(game, act)
    rng = random.Random(5)
    while not game.over:
        act = rng.choice(game.legal_actions())
        GE.rules.play(game, act)
        actions.append(act)
    path = record.save_game(tmp_path / "g.json", GE, config, actions, result=record.game_result(GE, game))
    for viewer in ("1", "spectator"):
        steps = _replay(path, viewer)
        text = json.dumps(steps[1])
        assert not any(n in text for n in NAMES) and "2 cards" in steps[1]["text"], steps[1]
        if viewer == "1":
            assert "Claw" in steps[2]["text"]  # its own choice, in full
        else:
            assert "Claw" not in json.dumps(steps[2])
    assert "Claw" not in json.dumps(_replay(path, "0")[2])
    for viewer in ("0", "all"):  # the chooser, and the whole finished game
        assert all(n in _replay(path, viewer)[1]["text"] for n in NAMES)
    assert "Claw" in _replay(path, "all")[2]["text"]
