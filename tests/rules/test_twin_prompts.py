"""No empty prompts, and no tell (issue 30): a seat is prompted in a response window only when it
has something besides passing, yet whether it had must not show to the other seats.

How it is done: the engine opens a window for every seat that could act as far as the others
can tell (RESP-1 ruling: a seat holding cards is always in the round; one with an empty hand and
nothing else to do is passed over, which is public). The seat's own side then skips the prompt
when passing is all it may do: the server passes for it (``Session.auto_passes``), after the same
hold as any pass in a decision whose options may be private (``Session.held``), so the twins
below look alike to everyone else. The timing itself is checked end to end by
``tests/server/test_twin_windows.py``; here the twins are checked message by message."""
from __future__ import annotations

import json
from typing import Any

from starcom.games import get as get_game
from starcom.sc.engine.game import Game
from starcom.sc.guide import decision_text
from starcom.sc.scenario import parse_action
from starcom.sc.server import StarcomAdapter
from starcom.server.sessions import Session
from starcom.server.store import GameRecord

from .helpers import act, setup, vessel


def twin(p1_hand: list[str]) -> tuple[Game, dict[str, int]]:
    """P0's Command phase, with Barrage in hand and a Frigate facing P1's at b2; P1 holds
    ``p1_hand`` (the twins give it one Science card: Evasion, which answers, or Advanced Shields,
    a Technology, which cannot be played outside its owner's Command phase)."""
    return setup(setup={
        "active": 0, "phase": "command",
        "players": [{"hand": ["Barrage"]}, {"hand": p1_hand}],
        "vessels": [vessel("Frigate", 0, "b2", "f0"), vessel("Frigate", 1, "b2", "f1")]})


class _Given(StarcomAdapter):
    """The server's Star Commander adapter, serving a position made by a test."""

    def __init__(self, game: Game) -> None:
        super().__init__(get_game("starcom"))
        self.given = game

    def create(self, config: Any) -> Game:
        return self.given.clone()


def session(game: Game) -> Session:
    seats = [{"seat": s, "kind": "human", "claimed": True} for s in range(game.players)]
    rec = GameRecord("twin", {"players": game.players, "size": game.cfg.size, "edition": game.cfg.edition,
                              "seed": game.cfg.seed, "turn_limit": None}, "hotseat", seats)
    return Session(rec, _Given(game))


def public(s: Session, viewer: int | None) -> str:
    """What the server would send ``viewer`` now (its state message, and the bot protocol's
    decision body for a seat), as text."""
    msg = s.state_message(viewer)
    if viewer is not None:
        msg = {"state": msg, "bot": s.decision_message(viewer)}
    return json.dumps(msg, sort_keys=True)


def test_twins_that_differ_only_in_a_hidden_answer_look_alike_to_the_others() -> None:
    # RULE: RESP-1 RULE: RESP-2 P0 plays Barrage; P1 may answer with Evasion in one twin and can
    # only pass in the other. P1 is asked in both (its hand is not empty), the server passes for
    # it only where passing is all it can do, and seat 0 and a spectator receive the same
    # messages all along.
    (a, la), (b, _) = twin(["Evasion"]), twin(["Advanced Shields"])
    assert a.hands[1] != b.hands[1]
    sa, sb = session(a), session(b)
    for viewer in (0, None):
        assert public(sa, viewer) == public(sb, viewer)
    barrage = parse_action(sa.game, "play Barrage $f0", la)
    for s in (sa, sb):
        s.play(barrage, 0, False)  # P0's hand is now empty: it is passed over (public)
    ga, gb = sa.game, sb.game
    assert ga.to_move == gb.to_move == 1 and ga.decision == gb.decision == "priority"
    # P1's own side: a prompt only with an answer in hand.
    assert len(ga.legal_actions()) > 1 and gb.legal_actions() == [("pass",)]
    assert not sa.auto_passes(1) and sb.auto_passes(1)
    # Everyone else: P1 is asked in both, and both decisions are held alike.
    assert sa.held(1) and sb.held(1)
    assert decision_text(ga) == decision_text(gb) == "Respond to P0's Barrage"
    for viewer in (0, None):
        assert public(sa, viewer) == public(sb, viewer)
    # P1 lets the window go by in one twin, the server passes for it in the other.
    sa.play(("pass",), 1, False)
    sb.play(sb.decline(gb.legal_actions()), 1, True)
    assert sa.step == sb.step
    for viewer in (0, None):
        assert public(sa, viewer) == public(sb, viewer)
    assert not ga.stack and not gb.stack and ga.events == gb.events  # the Barrage resolved alike


def test_a_seat_with_an_empty_hand_and_nothing_to_do_is_not_asked_at_all() -> None:
    # RULE: RESP-1 (engine ruling) P1 holds no card and has no ability, redirect or build: the
    # engine passes it over, which everyone can see, so no window opens for it.
    g, L = twin([])
    act(g, L, "play Barrage $f0")  # P0's hand is empty too: nobody is asked, the Barrage resolves
    assert not g.stack and g.decision == "command" and g.to_move == 0
    assert [e[0] for e in g.events if e[0] in ("stack", "damage", "destroy")][:2] == ["stack", "damage"]
