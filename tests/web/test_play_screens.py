"""Browser tests for the screens a short game does not reach: damage assignment in combat, the
choice dialog and the game-over screen. Each position is reached by planning moves with the engine
(same seed as the server) and sending them through the HTTP API for a hot-seat game; then the page
is opened as the seat to move and the screen is used by clicking."""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from starcom.sc.engine.game import Game
from starcom.sc.agents import make_agent
from starcom.sc.engine.actions import from_json, to_json

from . import api
from .test_browser import screenshot, wait_state

Action = tuple
PASSIVE = ("pass", "done", "decline", "end")


def create_hotseat(server: str, seed: int, turn_limit: int | None = None) -> tuple[str, list[str]]:
    """A 2-player 3x3 hot-seat game; returns its id and the seat tokens by seat."""
    r = api.post(f"{server}/api/games", json={"players": 2, "size": 3, "edition": "standard", "seed": seed,
                                                "turn_limit": turn_limit, "seats": ["human", "human"],
                                                "mode": "hotseat", "ai_takeover": False})
    assert r.status_code == 201, r.text
    made = r.json()
    tokens = [s["token"] for s in sorted(made["seats"], key=lambda s: s["seat"])]
    return made["game_id"], tokens


def api_state(server: str, game_id: str, token: str | None) -> dict:
    params = {"seat": token} if token else {}
    r = api.get(f"{server}/api/games/{game_id}", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def send(server: str, game_id: str, tokens: list[str], action: Action) -> dict:
    """Send ``action`` for the seat to move, after checking the server offers it to that seat."""
    mover = api_state(server, game_id, None)["to_move"]
    s = api_state(server, game_id, tokens[mover])
    wanted = to_json(action)
    assert any(e["action"] == wanted for e in s["legal"]), f"{wanted} not in the legal list of P{mover}"
    r = api.post(f"{server}/api/games/{game_id}/actions",
                   json={"seat": tokens[mover], "action": wanted, "expect_step": s["step"]})
    assert r.status_code == 200, r.text
    return r.json()


def passive(game: Game) -> Action:
    """The do-nothing answer to whatever the engine asks (first option of a choice)."""
    legal = game.legal_actions()
    for kind in PASSIVE:
        for a in legal:
            if a[0] == kind:
                return a
    return legal[0]


def plan_corvette_attack(seed: int, limit: int = 200) -> tuple[list[Action], Game] | None:
    """P0 builds a Corvette (developing first if needed) and flies it to P1's homeworld while P1
    only passes; returns the actions up to P0's first damage assignment, or None."""
    g = Game.new(players=2, size=3, edition="standard", seed=seed)
    target = g.homeworld[1]

    def dist(pos: int) -> int:
        return abs(pos // 3 - target // 3) + abs(pos % 3 - target % 3)

    actions: list[Action] = []
    for _ in range(limit):
        if g.over:
            return None
        if g.to_move == 0 and g.decision == "assign":
            return actions, g
        legal = g.legal_actions()
        a = None
        if g.to_move == 0 and g.decision == "command":
            corvettes = [v for v in g.vessels.values() if v.owner == 0 and v.d.name == "Corvette"]
            if not corvettes:
                a = next((x for x in legal if x[0] == "build" and g.notation(x).startswith("build Corvette")), None)
                a = a or next((x for x in legal if x[0] == "develop"), None)
            else:
                c = corvettes[0]
                closer = [x for x in legal if x[0] == "jump" and x[1] == c.id and x[4] == 0 and dist(x[2]) < dist(c.pos)]
                a = min(closer, key=lambda x: (dist(x[2]), -x[3]), default=None)
        if a is None and g.to_move == 0:
            a = next((x for x in legal if x[0] == "fight"), None)
        a = a or passive(g)
        actions.append(a)
        g.apply_unchecked(a)
    return None


def plan_choice(seed: int, kind: str, limit: int = 120) -> tuple[list[Action], Game] | None:
    """Greedy agents on both seats until someone must answer a ``choose`` question of ``kind``."""
    g = Game.new(players=2, size=3, edition="standard", seed=seed)
    agent, rng = make_agent("greedy"), random.Random(seed)
    actions: list[Action] = []
    for _ in range(limit):
        if g.over:
            return None
        if g.choice and g.choice.kind == kind and any(a[0] == "choose" for a in g.legal_actions()):
            return actions, g
        a = agent.choose(g, rng)
        actions.append(a)
        g.apply_unchecked(a)
    return None


def test_combat_damage_assignment_by_clicking(page, server: str, tmp_path: Path) -> None:
    planned = next(p for p in (plan_corvette_attack(seed) for seed in range(20)) if p)
    actions, g = planned
    seed = g.cfg.seed
    game_id, tokens = create_hotseat(server, seed)
    for a in actions:
        send(server, game_id, tokens, a)
    s = api_state(server, game_id, tokens[0])
    assert s["to_move"] == 0 and s["view"]["decision"] == "assign"
    assigns = [e["action"] for e in s["legal"] if e["action"]["type"] == "assign"]
    assert assigns
    attacker = assigns[0]["vessel"]
    targets = {a["target"] for a in assigns if a["vessel"] == attacker}

    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    s = wait_state(page, "s.seat === 0 && s.view.decision === 'assign' && s.legal.length > 0")
    assert page.locator("#pass").is_hidden()
    assert "Assign damage" in page.locator("#banner").inner_text()
    assert page.locator("g.tile.combat").count() == 1
    assert page.locator(f'g.tile.combat[data-pos="{s["view"]["combat_at"]}"]').count() == 1
    # Nothing is aimed at before a ship is chosen.
    assert page.locator("g.vessel.target").count() == 0

    page.locator(f'g.vessel[data-vessel="{attacker}"]').click()
    page.wait_for_selector("g.vessel.target")
    shown = page.eval_on_selector_all("g.vessel.target", "els => els.map(e => Number(e.dataset.vessel))")
    assert set(shown) == targets
    assert "enemy" in page.locator("#hint").inner_text()
    shot = screenshot(page, tmp_path, "combat")
    shutil.copy(shot, "/tmp/combat.png")

    target = sorted(targets)[0]
    options = [a for a in assigns if a["vessel"] == attacker and a["target"] == target]
    step = s["step"]
    page.locator(f'g.vessel.target[data-vessel="{target}"]').click()
    chosen = options[0]
    if len(options) > 1:  # several amounts: a menu lists exactly them
        page.wait_for_selector("#menu:not(.hidden)")
        offered = [json.loads(x) for x in
                   page.eval_on_selector_all('#menu button[data-type="assign"]', "els => els.map(e => e.dataset.action)")]
        assert sorted(offered, key=lambda a: a["amount"]) == sorted(options, key=lambda a: a["amount"])
        chosen = min(options, key=lambda a: a["amount"])
        page.locator('#menu button[data-type="assign"]').nth(offered.index(chosen)).click()
    wait_state(page, f"s.step === {step + 1}")

    # The server applied exactly that assignment: its view equals the engine's after the same action.
    expected = g.clone()
    expected.apply(from_json(chosen))
    after = api_state(server, game_id, tokens[0])
    assert after["step"] == step + 1
    assert after["view"]["assigned"] == expected.view(0)["assigned"]
    assert after["view"]["vessels"] == expected.view(0)["vessels"]
    assert after["view"]["decision"] == expected.decision


@pytest.mark.parametrize("kind", ["deck", "hand_full"])
def test_choice_dialog_offers_the_options_and_sends_one(page, server: str, kind: str) -> None:
    planned = next(p for p in (plan_choice(seed, kind) for seed in range(30)) if p)
    actions, g = planned
    game_id, tokens = create_hotseat(server, g.cfg.seed)
    for a in actions:
        send(server, game_id, tokens, a)
    mover = g.to_move
    chooses = [to_json(a) for a in g.legal_actions() if a[0] == "choose"]
    page.goto(f"/game/{game_id}?seat={tokens[mover]}")
    s = wait_state(page, f"s.seat === {mover} && s.legal.some(e => e.action.type === 'choose')")
    page.wait_for_selector("#choice:not(.hidden)")
    buttons = page.locator('#choice-box button[data-type="choose"]')
    assert buttons.count() == len(chooses)
    offered = [json.loads(x) for x in
               page.eval_on_selector_all('#choice-box button[data-type="choose"]', "els => els.map(e => e.dataset.action)")]
    assert offered == [e["action"] for e in s["legal"] if e["action"]["type"] == "choose"]
    assert sorted(map(json.dumps, offered)) == sorted(map(json.dumps, chooses))
    labels = buttons.all_inner_texts()
    texts = {json.dumps(e["action"]): e["text"] for e in s["legal"]}
    hand = {c["id"]: c["name"] for c in s["view"]["hand"]}
    for action, label in zip(offered, labels):
        if kind == "deck":  # "P1 draws from the Industry deck" -> the button names that deck
            deck = texts[json.dumps(action)].split("from the ")[1]
            assert deck in label, (label, texts[json.dumps(action)])
        elif action["value"] in hand:  # a card to discard is shown by its name
            assert label.startswith(hand[action["value"]]), label
        else:
            assert label.strip()
    step = s["step"]
    last = buttons.nth(buttons.count() - 1)
    picked = json.loads(last.get_attribute("data-action"))
    last.click()
    wait_state(page, f"s.step === {step + 1}")
    expected = g.clone()
    expected.apply(from_json(picked))
    after = api_state(server, game_id, tokens[mover])
    assert after["step"] == step + 1
    assert after["view"]["choice"] == expected.view(mover)["choice"]
    assert after["view"]["decision"] == expected.decision
    assert after["view"]["players"] == expected.view(mover)["players"]


def test_choice_dialog_carries_the_hint_and_undo_the_top_bar_has(page, server: str) -> None:
    """The dialog covers the top bar: its own Hint asks the AI and marks one of its options."""
    actions, g = next(p for p in (plan_choice(seed, "deck") for seed in range(30)) if p)
    game_id, tokens = create_hotseat(server, g.cfg.seed)
    for a in actions:
        send(server, game_id, tokens, a)
    mover = g.to_move
    page.goto(f"/game/{game_id}?seat={tokens[mover]}")
    wait_state(page, f"s.seat === {mover} && s.legal.some(e => e.action.type === 'choose')")
    page.wait_for_selector("#choice:not(.hidden)")
    assert page.locator("#choice-box .dialog-undo").is_visible()
    page.locator("#choice-box .dialog-hint").click()
    page.wait_for_function("() => /The AI would: /.test(document.getElementById('choice-box').innerText)", timeout=60000)
    marked = page.locator('#choice-box button.hinted[data-type="choose"]')
    assert marked.count() == 1 and marked.is_visible()
    assert page.locator("#choice-box .dialog-tools").count() == 1   # drawn once, not once per render


def test_game_over_screen_names_the_winner(page, server: str) -> None:
    game_id, tokens = create_hotseat(server, seed=5, turn_limit=2)
    for _ in range(200):
        s = api_state(server, game_id, None)
        if s["over"]:
            break
        mine = api_state(server, game_id, tokens[s["to_move"]])
        kinds = {e["action"]["type"]: e["action"] for e in mine["legal"]}
        a = next((kinds[k] for k in PASSIVE if k in kinds), mine["legal"][0]["action"])
        r = api.post(f"{server}/api/games/{game_id}/actions",
                       json={"seat": tokens[s["to_move"]], "action": a, "expect_step": mine["step"]})
        assert r.status_code == 200, r.text
    final = api_state(server, game_id, tokens[0])
    assert final["over"] and final["legal"] == []
    winner = final["winner"]
    assert winner in (-1, 0, 1)

    page.goto(f"/game/{game_id}?seat={tokens[0]}")
    wait_state(page, "s.over === true")
    page.wait_for_selector("#over:not(.hidden)")
    title = page.locator("#over-title").inner_text()
    banner = page.locator("#banner").inner_text()
    if winner == -1:
        assert "draw" in title.lower() and "draw" in banner.lower()
    elif winner == 0:
        assert title == "Victory!" and "P0" in banner
    else:
        assert "P1" in title and "wins" in title and "P1" in banner
    assert page.locator("#over-replay").get_attribute("href") == f"/replay/{game_id}"
    assert page.locator("#actions #main-btns button").count() == 0
    # "Look at the board" closes the screen and the board stays.
    page.locator("#over-close").click()
    assert page.locator("#over").is_hidden()
    assert page.locator("g.tile").count() == 9
