"""The action notation (starcom.sc.engine.notation), the action and event types (moves, events) and
their JSON forms: every legal action reads back from its text, no two legal actions of one
decision share a text, every type round-trips through JSON, and bad texts get clear errors."""
from __future__ import annotations

import json
import random
import sys
from typing import Any, Iterator

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EDITIONS, game_configs, pick_action
from starcom.sc.engine.game import Game
from starcom.errors import IllegalAction
from starcom.sc.cards.catalogue import BY_NAME, CARD_DEF
from starcom.cli.play import play_moves
from starcom.sc.engine import actions as A
from starcom.sc.engine import events as E
from starcom.sc.engine import moves as M
from starcom.sc.engine.view import event_for
from starcom.sc.scenario import build

SEEN: dict[str, set[str]] = {"actions": set(), "events": set(), "checked": set()}


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    # How much the property test covered (shown with -s).
    print(f"\nnotation: {len(SEEN['checked'])} distinct texts; action kinds {sorted(SEEN['actions'])}; "
          f"event kinds {len(SEEN['events'])}", file=sys.stderr)


def check_decision(g: Game) -> None:
    """Every legal action of ``g``'s decision reads back from its text as the typed value of its
    kind, and the texts of the decision are pairwise distinct."""
    acts = g.legal_actions()
    texts = [g.notation(a) for a in acts]
    dup = sorted({t for t in texts if texts.count(t) > 1})
    assert not dup, f"{g.decision}: one text for several actions: {dup[:5]}"
    for a, text in zip(acts, texts):
        back = g.parse(text)
        assert back == a and type(back) is M.ACTION_TYPES[a[0]], (a, text, back)
        assert g.notation(back) == text
        SEEN["actions"].add(a[0])
        SEEN["checked"].add(text)


configs = game_configs()


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cfg=configs, pick_seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 400))
def test_every_legal_action_reads_back_from_its_text(edition: str, cfg: dict[str, Any],
                                                    pick_seed: int, steps: int) -> None:
    g = Game.new(edition=edition, **cfg)
    rnd = random.Random(pick_seed)
    for _ in range(steps):
        if g.over:
            break
        check_decision(g)
        for e in g.apply(pick_action(g, rnd)):
            assert type(e) is E.EVENT_TYPES[e[0]], e  # every event is built typed
            assert E.from_json(json.loads(json.dumps(E.to_json(e)))) == e
            SEEN["events"].add(e[0])


@pytest.mark.parametrize("edition", EDITIONS)
def test_seeded_playouts_of_every_size_and_player_count(edition: str) -> None:
    """The same check, deterministically, over one seeded game per player count and size."""
    for players in (2, 3, 4):
        for size in (3, 4, 5):
            g = Game.new(players=players, size=size, edition=edition, seed=players * 10 + size, turn_limit=12)
            rnd = random.Random(size)
            while not g.over:
                check_decision(g)
                g.apply(pick_action(g, rnd))


# --------------------------------------------------------------------------- the types


def test_typed_values_equal_the_plain_tuples() -> None:
    jump = M.Jump("jump", 93, 5, 1, 0)
    assert jump == ("jump", 93, 5, 1, 0) and hash(jump) == hash(("jump", 93, 5, 1, 0))
    assert (jump.vessel, jump.to, jump.explore, jump.carry) == (93, 5, 1, 0)
    play = M.Play("play", 17, 40, 3)
    assert play == ("play", 17, 40, 3) and hash(play) == hash(("play", 17, 40, 3))
    assert (play.card, play.targets) == (17, (40, 3))
    assert M.Accept("accept") == ("accept",) and M.Accept("accept", 4, 5).cards == (4, 5)
    assert {("end",): 1}[M.End("end")] == 1  # one key for both
    assert play._replace(targets=[7]) == ("play", 17, 7) and repr(play) == "Play('play', 17, 40, 3)"


def test_fields_come_from_the_types() -> None:
    assert A.FIELDS["jump"] == ("vessel", "to", "explore", "carry")
    assert A.FIELDS["redirect"] == ("vessel", "from")
    assert A.FIELDS["play"] == ("card", "*targets") and A.FIELDS["accept"] == ("*cards",)
    assert set(A.FIELDS) == set(M.ACTION_TYPES) == set(A.SIGNATURES)
    assert E.EVENT_FIELDS["move"] == ("player", "vessel", "from", "to")
    assert E.EVENT_KINDS == frozenset(E.EVENT_TYPES)


# One value of every action kind (well-formed, not necessarily legal anywhere).
ONE_OF_EACH: list[tuple[Any, ...]] = [
    ("jump", 93, 5, 1, 2), ("build", 32, 4), ("develop", 4), ("play", 45, 91), ("play", 86),
    ("ability", 217, 153, 0, 1), ("scrap", 91), ("repair", 91), ("buy",), ("sell", 63, 67), ("offer", 1),
    ("give", "card", 12), ("ask", "system", 2), ("propose",), ("cancel",), ("accept",), ("accept", 4, 5),
    ("decline",), ("end",), ("pass",), ("redirect", 154, 193), ("fight", 0), ("assign", 176, 196, 2),
    ("retreat", 153, 3), ("done",), ("choose", 1), ("choose", "skip"),
]


def test_every_action_kind_round_trips_through_json() -> None:
    assert {a[0] for a in ONE_OF_EACH} == set(M.ACTION_TYPES)
    for a in ONE_OF_EACH:
        data = A.to_json(a)
        back = A.from_json(json.loads(json.dumps(data)))
        assert back == a and type(back) is M.ACTION_TYPES[a[0]]
        assert A.to_json(A.typed(a)) == data  # the typed value writes the same JSON


def test_action_json_is_unchanged() -> None:
    """The JSON form that saved games and the server protocol hold, byte for byte."""
    shown = [json.dumps(A.to_json(a)) for a in (("jump", 93, 5, 1, 0), ("play", 45, 91), ("accept",),
                                                  ("redirect", 154, 193), ("choose", "skip"))]
    assert shown == ['{"type": "jump", "vessel": 93, "to": 5, "explore": 1, "carry": 0}',
                     '{"type": "play", "card": 45, "targets": [91]}',
                     '{"type": "accept", "cards": []}',
                     '{"type": "redirect", "vessel": 154, "from": 193}',
                     '{"type": "choose", "value": "skip"}']


def test_every_event_kind_round_trips_through_json() -> None:
    for kind, cls in E.EVENT_TYPES.items():
        names = E.EVENT_FIELDS[kind]
        values: list[Any] = []
        for i, name in enumerate(names):
            if name.startswith("*"):
                values += [7, 8]
            elif name in ("cards",):
                values.append((3, 4))
            elif name in ("phase", "name", "what"):
                values.append("command")
            else:
                values.append(i + 1)
        ev = cls(kind, *values)
        data = E.to_json(ev)
        assert data["type"] == kind and set(data) == {"type", *(n.lstrip("*") for n in names)}
        back = E.from_json(json.loads(json.dumps(data)))
        assert back == ev and type(back) is cls


def test_event_json_errors_name_the_problem() -> None:
    for data, words in (([1], "object"), ({"type": "nope"}, "unknown event type"),
                        ({"type": "draw", "player": 0, "deck": 1}, "missing the field 'card'"),
                        ({"type": "end_phase", "player": 0, "x": 1}, "no field 'x'")):
        with pytest.raises(ValueError, match=words):
            E.from_json(data)


def test_secret_events_are_hidden_by_field_name() -> None:
    draw = E.Draw("draw", 0, 1, 42)
    assert event_for(draw, 1) == ("draw", 0, 1, None) and type(event_for(draw, 1)) is E.Draw
    assert event_for(draw, 0) is draw
    done = E.TradeDone("trade_done", 0, 1, (5, 6))
    assert event_for(done, None) == ("trade_done", 0, 1, 2) and event_for(done, 0) is done


# --------------------------------------------------------------------------- the texts


def _game() -> Game:
    g, _ = build({"setup": {"active": 0, "phase": "command", "players": [{"hand": ["Barrage", "Barrage"],
                                                                          "credits": 10}, {}],
                            "vessels": [{"card": "Corvette", "owner": 0, "at": "b2"},
                                        {"card": "Frigate", "owner": 1, "at": "b2"}]}})
    return g


def test_texts_read_as_documented() -> None:
    g = _game()
    texts = {g.notation(a) for a in g.legal_actions()}
    corvette = next(v.id for v in g.vessels.values() if v.d.name == "Corvette")
    barrages = sorted(c for c in g.hands[0] if CARD_DEF[c].name == "Barrage")
    assert "end" in texts and "build Defense Station c3" in texts and "offer P1" in texts
    assert f"sell Barrage#{barrages[0]} Barrage#{barrages[1]}" in texts
    assert g.parse(f"play Barrage#{barrages[1]} Corvette#{corvette}") == ("play", barrages[1], corvette)
    assert g.parse("build Strike Fighter c3") == ("build", BY_NAME["Strike Fighter"].index, 8)
    # bare numbers are read in any field, the positional jump flags too
    assert g.parse(f"jump {corvette} 1 1 0") == g.parse(f"jump Corvette#{corvette} b1 +explore")
    assert g.parse(f"jump Corvette#{corvette} b1 +2 fighters") == ("jump", corvette, 1, 0, 2)
    assert g.parse("offer P1") == g.parse("offer 1") == ("offer", 1)


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("fly b2", "unknown action kind 'fly'"),
    ("build Corvette", "'at' is missing"),
    ("develop b2 c3", "left over"),
    ("develop z9", "bad position|off the"),
    ("develop Corvette", "expected a position"),
    ("scrap Frigate#0", "is a Refinery, not a Frigate"),
    ("scrap #9999", "no card #9999"),
    ("scrap Corvette", "name which Corvette"),
    ("scrap $corv", "scenario label"),
    ("scrap ?", "hidden"),
    ("offer someone", "expected a player"),
    ("give nothing 1", "expected an item kind"),
    ("jump 1 1 5 0", "explore"),
])
def test_malformed_texts_get_clear_errors(text: str, words: str) -> None:
    g = _game()
    with pytest.raises(IllegalAction, match=words):
        g.parse(text)
    with pytest.raises(ValueError):  # IllegalAction is one: Game.parse keeps the protocol's promise
        g.parse(text)


def test_parse_refuses_what_is_not_text() -> None:
    with pytest.raises(IllegalAction, match="string"):
        _game().parse(("end",))  # type: ignore[arg-type]


def test_the_terminal_game_plays_moves_given_in_the_notation() -> None:
    g = Game.new(seed=7)
    first = g.notation(g.legal_actions()[1])
    assert play_moves(g, [f"{first}; end"]) == 2 and g.actions_played == 2
    with pytest.raises(typer.BadParameter, match=r"move 1 \('build Scout c3'\): BUILD-1.*legal now: end"):
        play_moves(Game.new(seed=7), ["build Scout c3"])
    with pytest.raises(typer.BadParameter, match="move 2"):
        play_moves(Game.new(seed=7), ["end", "fly"])
