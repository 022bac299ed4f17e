"""The plain-text client (``starcom play --text``, :mod:`starcom.tui.textplay`) as a person uses
it, through the seam only: stable choice numbers within a decision, the notation accepted
wherever a number is, the commands, and a confirmation before an irreversible pick (issue 30)."""
from __future__ import annotations

import io
import random
import re
from collections.abc import Hashable
from typing import Any

import pytest

import starcom
from starcom import games
from starcom.tui.textplay import Numbering, TextTable, play_text

CHOICE = re.compile(r"^\s+(\d+)\. .*?(?:\s\s\[(.+)\])?$")


class Player:
    """A person at the prompt who answers with a number from the last list shown (now and
    then with the option's notation instead, or a command first), and says yes when asked."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.out = io.StringIO()
        self.read = 0
        self.shown: dict[int, str] = {}   # number -> notation, of the last list
        self.commands = 0

    def write(self, text: str) -> None:
        self.out.write(text)

    def ask(self, prompt: str) -> str:
        new = self.out.getvalue()[self.read:]
        self.read = len(self.out.getvalue())
        if prompt.startswith("Play it?"):
            return "y"
        listed: dict[int, str] = {}
        pending: int | None = None
        for line in new.splitlines():
            m = CHOICE.match(line)
            note = re.match(r"^\s{7}\[(.+)\]$", line)
            if note and pending is not None:
                listed[pending] = note.group(1)
                pending = None
            elif m:
                if m.group(2):
                    listed[int(m.group(1))] = m.group(2)
                else:
                    pending = int(m.group(1))
        if listed:
            self.shown = listed
        if self.rng.random() < 0.05:
            self.commands += 1
            return self.rng.choice(["board", "hand", "list", "help", "card x"])
        number = self.rng.choice(sorted(self.shown))
        return self.shown[number] if self.rng.random() < 0.2 else str(number)


def _play_checking_numbers(name: str, seed: int, **settings: Any) -> tuple[Any, Player, int]:
    """A game of ``name`` with a human (the Player above) at seat 0 against random play,
    checking at every prompt that within one decision (the entry's ``words.decision``) an
    option keeps its number and no number is given to two options. Returns the game, the
    player and how many prompts were checked."""
    entry = games.get(name)
    game = starcom.load_game(name, seed=seed, **settings)
    person = Player(seed)
    table = TextTable(entry, person.ask, person.write, confirm=True)
    agent = entry.ai.make_agent("random")
    rng = random.Random(seed)
    seen: dict[Hashable, dict[str, int]] = {}
    prompts = 0
    for _ in range(400):
        if game.over:
            break
        p = game.to_move
        if p != 0:
            game.apply(agent.choose(game, rng), player=p)
            continue
        key = table.decision_key(game)
        action = table.choose(game, 0)
        numbers = table.numberings[key].numbers
        known = seen.setdefault(key, {})
        for note, n in numbers.items():
            assert known.get(note, n) == n, f"{note} was {known[note]}, now {n}"
        assert len(set(numbers.values())) == len(numbers)
        known.update(numbers)
        assert person.shown and all(numbers[note] == n for n, note in person.shown.items())
        assert action in game.legal_actions()
        game.apply(action, player=0)
        prompts += 1
    return game, person, prompts


@pytest.mark.parametrize("name, settings", [("starcom", {"players": 2, "size": 3}), ("ge", {"edition": "quick"}),
                                            ("starcom", {"players": 3, "size": 4})],
                         ids=["starcom", "ge", "starcom-3p"])
def test_numbers_keep_their_option_for_the_whole_decision(name: str, settings: dict[str, Any]) -> None:
    for seed in (1, 2):
        _, person, prompts = _play_checking_numbers(name, seed, **settings)
        assert prompts >= 10, prompts


def test_a_command_phase_keeps_its_numbers_across_moves() -> None:
    """The issue's case: a Command phase is one decision, so after a move the options left keep
    their numbers, and the options a move opens get numbers never used before."""
    entry = games.get("starcom")
    g = starcom.load_game("starcom", seed=3)
    table = TextTable(entry, lambda _p: "", io.StringIO().write)
    numbering = table.numbering(g)
    before = dict(zip((g.notation(a) for a in g.legal_actions()), numbering.assign(
        [g.notation(a) for a in g.legal_actions()])))
    g.apply(g.parse("build Strike Fighter c3"))
    assert g.decision == "command"
    after_notes = [g.notation(a) for a in g.legal_actions()]
    after = dict(zip(after_notes, table.numbering(g).assign(after_notes)))
    assert all(after[k] == before[k] for k in after if k in before)
    assert all(n > max(before.values()) for k, n in after.items() if k not in before)
    g.apply(g.parse("end"))
    assert table.decision_key(g) != ("over",) and table.numbering(g) is not numbering


def test_numbering_never_reuses_a_number() -> None:
    n = Numbering()
    assert n.assign(["a", "b", "c"]) == [1, 2, 3]
    assert n.assign(["c", "d"]) == [3, 4]
    assert n.assign(["a", "e"]) == [1, 5]


def test_a_misspelt_card_gets_a_suggestion_and_a_unique_part_of_a_name_will_do() -> None:
    table = TextTable(games.get("starcom"), lambda _p: "", io.StringIO().write)
    assert "did you mean Experimental Shields" in table.card_text("experimentl shields")
    shields = table.card_text("experim")
    assert shields.startswith("Experimental Shields (science, technology)") and "yours or another" in shields
    assert "several cards match" in table.card_text("shields")
    assert "Corvette" in table.card_text("").split("Cards: ")[1]
    ge = TextTable(games.get("ge"), lambda _p: "", io.StringIO().write)
    assert "Shuttlecraft" in ge.card_text("shuttle") and "did you mean" in ge.card_text("shutle craft")


def test_the_hand_and_board_show_only_what_the_seat_may_see() -> None:
    from starcom.sc.scenario import build
    g, _ = build({"setup": {"active": 0, "players": [{"hand": ["Evasion", "Barrage"], "credits": 7},
                                                     {"hand": ["Sabotage"]}]}})
    entry = games.get("starcom")
    hand = "\n".join(entry.words.hand(g, 0))
    board = "\n".join(entry.words.table(g, 0))
    assert "Evasion [science command]" in hand and "Barrage" in hand and "Sabotage" not in hand
    assert "Your hand: Evasion, Barrage" in board or "Your hand: Barrage, Evasion" in board
    assert "Sabotage" not in board and "P0 (you): 7 credits" in board and "1 card (statecraft) in hand" in board
    other = "\n".join(entry.words.hand(g, 1))
    assert "Sabotage" in other and "Evasion" not in other
    assert "Hands are hidden" in entry.words.hand(g, None)[0]
    assert "Your hand" not in "\n".join(entry.words.table(g, None))
    assert "You have 7 credits and 2 cards in hand" in entry.words.status(g, 0)


def test_a_ge_discard_picked_by_number_is_confirmed() -> None:
    entry = games.get("ge")
    assert entry.words.irreversible is not None
    g = starcom.load_game("ge", seed=5, edition="quick")
    rng = random.Random(5)
    for _ in range(3000):
        drops = [a for a in g.legal_actions() if a[0] in ("discard", "drop")]
        if drops:
            break
        g.apply(rng.choice(g.legal_actions()))
    assert drops, "no discard came up"
    reason = entry.words.irreversible(g, drops[0], g.to_move)
    assert reason and "for good" in reason
    assert entry.words.irreversible(g, ("end",), g.to_move) is None


def test_the_player_can_quit_and_a_full_game_plays_through_with_yes() -> None:
    g = starcom.load_game("starcom", seed=2, turn_limit=4)
    out = io.StringIO()
    final = play_text(games.get("starcom"), g, ["human", "random"], agent_seed=1,
                      ask=lambda _p: "1", write=out.write, confirm=False)
    assert final.over and "Play it?" not in out.getvalue()
    with pytest.raises(EOFError):
        play_text(games.get("starcom"), starcom.load_game("starcom", seed=2), ["human", "random"],
                  ask=lambda _p: "quit", write=io.StringIO().write)


def test_targets_are_told_apart_by_owner_id_and_system() -> None:
    """Issue 30: "Destroyer #154" and "#153" could only be told apart by guessing; an option
    aimed at a vessel now says whose it is, its card id and its system."""
    from starcom.sc.scenario import build
    g, labels = build({"setup": {"active": 0, "players": [{"hand": ["Maximum Firepower"]}], "vessels": [
        {"card": "Destroyer", "owner": 1, "at": "b2", "label": "near"},
        {"card": "Destroyer", "owner": 1, "at": "a2", "label": "far"}]}})
    option = games.get("starcom").words.option
    assert option is not None
    words = {a[2]: option(g, a, 0) for a in g.legal_actions() if a[0] == "play"}
    assert words[labels["near"]].endswith(f"P1's Destroyer #{labels['near']} at b2")
    assert words[labels["far"]].endswith(f"P1's Destroyer #{labels['far']} at a2")


def test_star_commanders_terminal_words_are_the_same_whatever_a_seat_cannot_see() -> None:
    """What another seat holds changes none of the text seat 0 is shown (the observer decides)."""
    from starcom.sc.scenario import build
    words = games.get("starcom").words
    assert words.table and words.hand and words.status and words.option
    shown = []
    for theirs in (["Sabotage", "Evasion"], ["Bribery", "Raise Shields"]):  # the same card backs
        g, _ = build({"setup": {"active": 0, "players": [{"hand": ["Intercept Orders"], "credits": 4},
                                                         {"hand": theirs}]}})
        shown.append((words.table(g, 0), words.hand(g, 0), words.status(g, 0),
                      [words.option(g, a, 0) for a in g.legal_actions()]))
        assert not any(card in line for card in theirs for line in shown[-1][0] + shown[-1][1])
    assert shown[0] == shown[1]
