"""Issue 29: Galactic Empires in plain words. Along seeded random games: every option label, log
line, chain link and guide sentence names cards as printed and holds no identifier (``key#12``,
``snake_case``, ``fleet:0``, a Transporter's crew mask); every decision has a guide; the Sector
HQ is counted as damage in the log as on the table; an unpaid ship's guide says what it needs;
the Hint's win chance (the entry's ``ai.win_chance``) is a probability."""
from __future__ import annotations

import random
import re

import pytest

import starcom
from starcom.games import get
from starcom.ge import board
from starcom.ge.server import option_labels
from starcom.ge.text import guide, unpaid_reasons
from starcom.ge.wording import link_words, use_words
from starcom.server.adapter import search_hint

IDENTIFIER = re.compile(r"[a-z_]#\d|\b[a-z]+_[a-z_]+\b|\b(?:fleet|hq):\d")
GE = get("ge")


def games(seeds: range, edition: str = "full"):  # type: ignore[no-untyped-def]
    """Each position of seeded random games where a seat is to decide."""
    for seed in seeds:
        g = starcom.load_game("ge", seed=seed, edition=edition)
        rng = random.Random(seed)
        while not g.over:
            yield g
            g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("edition", ["full", "quick"])
def test_every_text_a_player_reads_is_words(edition: str) -> None:
    uses = chains = lines = 0
    for seed in range(4):
        g = starcom.load_game("ge", seed=seed, edition=edition)
        narrator = GE.words.narrator(g, None, False)
        rng = random.Random(seed)
        while not g.over:
            seat = g.to_move
            legal = g.legal_actions()
            bad = [x for x in option_labels(g, legal, seat) if IDENTIFIER.search(x)]
            assert not bad, bad[:3]
            words = guide(g, seat)
            assert words, f"no guide at {g.s.phase}"
            assert not IDENTIFIER.search(words), words
            for link in GE.observer.view(g, seat)["chain"]:
                chains += 1
                assert not IDENTIFIER.search(link["words"]) and link["words"].startswith(f"P{link['player']}"), link
            uses += sum(a[0] == "use" for a in legal)
            action = rng.choice(legal)
            for line in narrator.step_lines(g, action, g.apply(action)):
                lines += 1
                assert not IDENTIFIER.search(line), line
                assert not re.search(r"\((?:move|mission) [-\d ]+\)", line), line  # a function's raw choices
                if "Sector HQ takes" in line:  # counted as damage, as on the table
                    assert re.search(r"takes \d+ damage \(\d+ of \d+ now\)", line), line
    assert uses and chains and lines, (uses, chains, lines)


def test_a_transporters_crew_move_names_the_crew() -> None:
    found = 0
    for g in games(range(12)):
        for a in g.legal_actions():
            if a[0] == "use" and len(a) > 2 and a[2] == "move":
                text = use_words(g.s, a[1], tuple(a[2:]))
                assert text.startswith(("move ", "fly to ")) and not re.search(r"(?<![\w-])\d+(?![\w-])", text), text
                found += 1
        if found > 20:
            return
    assert found, "no transporter move came up"


def test_an_unpaid_ship_says_what_it_needs() -> None:
    for g in games(range(8)):
        s = g.s
        if s.phase != "allocate" or s.priority is not None:
            continue
        unpaid = [u for u in board.fleet(s, s.active) if board.has_cost(s, u.uid) and not u.paid
                  and board.basis(s, u.uid) == u.uid and not u.against and ("pay", u.uid) not in g.legal_actions()]
        if unpaid:
            reasons = unpaid_reasons(s, s.active)
            assert reasons and all(" needs " in r for r in reasons), reasons
            words = guide(g, s.active)
            assert words is not None and "Not payable now: " in words and reasons[0] in words
            return
    pytest.fail("no allocation with an unpayable ship came up")


def test_chain_links_read_as_sentences() -> None:
    s = starcom.load_game("ge", seed=1).s
    assert link_words(s, 1, "allocate", ("allocate",)) == "P1 declares the allocation"
    assert link_words(s, 0, "fire", ("fire", -2, ())) == "P0 fires a volley at P1's Sector HQ"


def test_the_hint_gives_a_win_chance() -> None:
    g = starcom.load_game("ge", seed=3, edition="quick")
    rng = random.Random(3)
    while not (g.s.phase == "play-a" and g.s.players[0].turns >= 2 and g.to_move == 0 and g.s.priority is None):
        g.apply(rng.choice(g.legal_actions()))
    action, chance = search_hint("ge", g, "seed")
    assert action in g.legal_actions()
    assert chance is not None and 0.0 <= chance <= 1.0
    # the chance follows the position: the same side far ahead is more likely to win
    ahead = g.clone()
    ahead.s.players[1].hq = 20
    assert GE.ai.win_chance(ahead, 0, random.Random(1)) > GE.ai.win_chance(g, 0, random.Random(1))
