"""What a finished card study says: ``results.json``, ``cards.csv`` and ``report.html``.

Everything but the ``run`` key of ``results.json`` follows from the study's settings alone, so
two runs with the same settings write the same file apart from ``run``.
"""
from __future__ import annotations

import csv
import html
import io
import json
import platform
from collections import Counter
from pathlib import Path
from typing import Any

from ..sim.selfplay import seat_agents
from .pairs import Job, PairResult, pair_records
from .runner import Outcome, setup_of
from .stats import mean_interval, wilson_interval
from .verdict import VERDICTS, play_rate, verdict

CSV_FIELDS = ("card", "kind", "value", "ci_low", "ci_high", "games", "stop", "flagged", "played_share",
              "verdict", "play_rate", "play_rate_control", "play_rate_diff", "play_rate_ci_low", "play_rate_ci_high")
SUMMARY_LINES = 12  # the one-screen summary's most cards


# The settings a tune (``study tune``) must share with a study for its fair cost to be shown there.
TUNE_MATCH = ("game", "agents", "players", "size", "edition", "turn_limit")


def suggested_costs(folder: Path, key: dict[str, Any]) -> dict[str, str]:
    """The fair costs found by ``study tune --field cost`` runs kept inside a study's folder
    (``FOLDER/*/tune.json``) and played with the study's game and settings (:data:`TUNE_MATCH`):
    card -> ``"7.9 [6.7, 11.4]"``. A tune with no bounded fair cost, other settings or an
    unreadable file is left out."""
    out: dict[str, str] = {}
    for path in sorted(folder.glob("*/tune.json")):
        try:
            data = json.loads(path.read_text("utf-8"))
            if not isinstance(data, dict) or data.get("field") != "cost":
                continue
            settings, fair = data.get("settings") or {}, data.get("fair_value") or {}
            if any(settings.get(k) != key.get(k) for k in TUNE_MATCH) or not fair.get("bounded"):
                continue
            out[str(data["card"])] = f"{fair['estimate']:.1f} [{fair['low']:.1f}, {fair['high']:.1f}]"
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return out


def results(outcome: Outcome) -> dict[str, Any]:
    """The study's results as JSON-ready data (see docs/study.md for every key)."""
    spec = outcome.spec
    game_entry, study = spec.entry, spec.study
    settings = spec.settings
    cards: list[dict[str, Any]] = []
    for c in outcome.cards.values():
        iv = c.rule.interval()
        treated_plays = sum(1 for r in c.pairs if c.card in r.treated.played[r.seat])
        rate = play_rate(c.pairs)
        diff = rate.diff if rate.diff.n else None
        cards.append({
            "card": c.card, "kind": study.kind(settings, c.card),
            "value": round(iv.estimate, 6), "ci_low": round(iv.low, 6), "ci_high": round(iv.high, 6),
            "games": 2 * len(c.pairs), "pairs": len(c.pairs), "stop": c.rule.decision.reason,
            "flagged": c.rule.decision.reason == "excluded_zero",
            "played_share": round(treated_plays / len(c.pairs), 4) if c.pairs else 0.0,
            "play_rate": _rounded(rate.treated), "play_rate_control": _rounded(rate.control),
            "play_rate_diff": _rounded(diff.estimate if diff else None),
            "play_rate_ci": [round(diff.low, 6), round(diff.high, 6)] if diff else None,
            "play_rate_pairs": rate.diff.n,
            "verdict": verdict(iv.low, iv.high, diff),
        })
    cards.sort(key=lambda e: (-e["value"], e["card"]))
    tuned = suggested_costs(Path(spec.out), spec.key())
    for entry in cards:
        if entry["card"] in tuned:
            entry["suggested_cost"] = tuned[entry["card"]]
    pairs = [r for c in outcome.cards.values() for r in c.pairs]
    strength = _by_strength(outcome, pairs)
    if len(strength) > 1:
        for entry in cards:
            entry["by_agent"] = _values_by_agent(outcome, outcome.cards[entry["card"]].pairs, strength)
            weak, strong = entry["by_agent"][0], entry["by_agent"][-1]
            entry["strong_only"] = strong["ci_low"] > 0 and weak["ci_low"] <= 0 < strong["value"] - weak["value"]
    games = [g for r in pairs for g in (r.treated, r.control)]
    seat_wins = {s: 0.0 for s in range(spec.players)}
    for r in pairs:  # control games: every seat with the same cards, so seats alone differ
        w = r.control.winner
        if w is not None and w >= 0:
            seat_wins[w] += 1
        else:  # a draw is shared
            for s in range(spec.players):
                seat_wins[s] += 1 / spec.players
    seats: list[dict[str, Any]] = []
    for s in range(spec.players):
        if not pairs:
            seats.append({"seat": s, "win_rate": None, "ci_low": None, "ci_high": None})
            continue
        iv = wilson_interval(seat_wins[s], len(pairs))
        seats.append({"seat": s, "win_rate": round(iv.estimate, 6), "ci_low": round(iv.low, 6),
                      "ci_high": round(iv.high, 6)})
    lengths = Counter(g.turns for g in games)
    never = sorted(str(c["card"]) for c in cards if c["played_share"] == 0)
    held = {c.card: [r.treated for r in c.pairs if r.treated.held] for c in outcome.cards.values()}
    never_legal = sorted(name for name, games_held in held.items() if games_held and not any(g.legal for g in games_held))
    fired = Counter(rule for g in games for rule in g.rules)
    recorded = study.recorded_rules
    return {
        "settings": spec.key(),
        "game": {"name": game_entry.name, "title": game_entry.title, "stand_in": study.stand_in, "replays": study.replays},
        "cards": cards,
        "seat_advantage": {"players": spec.players, "games": len(pairs), "seats": seats},
        "game_length": {"turns": {str(k): lengths[k] for k in sorted(lengths)},
                        "turn_limit_share": round(sum(g.limit_reached for g in games) / len(games), 6) if games else 0.0},
        "verdicts": {v: sum(c["verdict"] == v for c in cards) for v in VERDICTS},
        "never_played": never,
        "never_legal": never_legal,
        "anomalies": _anomalies(outcome, cards),
        "rules": {"games_fired": {r: fired[r] for r in sorted(fired, key=_rule_order)},
                  "never_fired": sorted(recorded - set(fired), key=_rule_order), "recorded": bool(recorded)},
        "agents_by_strength": strength,
        "games": 2 * len(pairs),
        "run": {"seconds": round(outcome.seconds, 1), "pairs_played": outcome.pairs_played,
                "pairs_reused": outcome.pairs_reused, "workers": spec.workers, "backend": spec.backend,
                "host": platform.node(), "python": platform.python_version()},
    }


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def attention_order(card: dict[str, Any]) -> tuple[int, float, str]:
    """Where a card of ``results.json`` comes where a designer looks: dead cards first (the
    least played against their stand-in first), then weak ones (the weakest first), strong
    ones (the strongest first) and even ones (by value). Results written before verdicts
    count as even."""
    v = card.get("verdict", "even")
    rank = VERDICTS.index(v) if v in VERDICTS else len(VERDICTS)
    diff = card.get("play_rate_diff")
    key = (diff if diff is not None else 0.0) if v == "dead" else card["value"] if v == "weak" else -card["value"]
    return rank, key, card["card"]


def summary(data: dict[str, Any], lines: int = SUMMARY_LINES) -> tuple[list[dict[str, str]], int]:
    """The cards to look at first (dead, weak, then strong; :func:`attention_order`), at most
    ``lines`` of them, as rows of text: card, verdict, value with its interval, play rate (with
    the card vs with the stand-in) and suggested cost ("—" unless the results carry one); and
    how many more there were."""
    picked = sorted((c for c in data["cards"] if c.get("verdict") in ("dead", "weak", "strong")), key=attention_order)
    rows = []
    for c in picked[:lines]:
        cost = c.get("suggested_cost")
        rows.append({"card": str(c["card"]), "verdict": str(c["verdict"]),
                     "value": f"{c['value']:+.3f} [{c['ci_low']:+.3f}, {c['ci_high']:+.3f}]",
                     "play rate": f"{_pct(c.get('play_rate'))} vs {_pct(c.get('play_rate_control'))}",
                     "suggested cost": "—" if cost is None else str(cost)})
    return rows, max(0, len(picked) - lines)


def _treated_agent(outcome: Outcome, r: PairResult) -> str:
    players = outcome.spec.players
    return seat_agents(outcome.spec.agents, players, Job(r.card, r.pair).rotation(players))[r.seat]


def _by_strength(outcome: Outcome, pairs: list[PairResult]) -> list[str]:
    """The run's agents, weakest first, by their win rate in the control games (ties by name)."""
    spec = outcome.spec
    names = sorted(set(spec.agents))
    if len(names) < 2:
        return names
    wins = {n: 0.0 for n in names}
    seats = {n: 0 for n in names}
    for r in pairs:
        rotation = Job(r.card, r.pair).rotation(spec.players)
        for seat, name in enumerate(seat_agents(spec.agents, spec.players, rotation)):
            wins[name] += r.control.score(seat)
            seats[name] += 1
    return sorted(names, key=lambda n: (wins[n] / seats[n] if seats[n] else 0.0, n))


def _values_by_agent(outcome: Outcome, pairs: list[PairResult], strength: list[str]) -> list[dict[str, Any]]:
    """The card's value when the treated seat is played by each agent, weakest agent first."""
    out = []
    for name in strength:
        diffs = [r.difference for r in pairs if _treated_agent(outcome, r) == name]
        iv = mean_interval(diffs)
        out.append({"agent": name, "value": round(iv.estimate, 6), "ci_low": round(iv.low, 6),
                    "ci_high": round(iv.high, 6), "pairs": len(diffs)})
    return out


def _anomalies(outcome: Outcome, cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the report flags, each with the pair of games to replay: every flagged card and
    every "strong only" card (its first pair that went the card's way: the treated seat did
    better with it than with the stand-in, or worse for a card worth less than its stand-in),
    every card never legal when held (its first pair in which the treated seat held it), and
    the first pair in which a game reached the turn limit."""
    out: list[dict[str, Any]] = []
    spec = outcome.spec

    def entry(kind: str, card: str, pair: int, what: str) -> dict[str, Any]:
        stem = f"replays/{_slug(card)}-pair{pair}"
        return {"kind": kind, "card": card, "pair": pair, "what": what,
                "replays": {"treated": f"{stem}-treated.json", "control": f"{stem}-control.json"}}

    strongest = (_by_strength(outcome, [r for c in outcome.cards.values() for r in c.pairs]) or [""])[-1]
    for c in cards:
        pairs = sorted(outcome.cards[c["card"]].pairs, key=lambda r: r.pair)
        sign = 1 if c["value"] >= 0 else -1
        for kind, flagged, who in (("flagged", c["flagged"], None), ("strong_only", c.get("strong_only"), strongest)):
            way = [r for r in pairs if r.difference * sign > 0 and (who is None or _treated_agent(outcome, r) == who)]
            if flagged and way:
                r = way[0]
                what = (f"P{r.seat} did {'better' if sign > 0 else 'worse'} with {c['card']} than with its "
                        "stand-in on the same deal")
                out.append(entry(kind, c["card"], r.pair, what))
    for progress in outcome.cards.values():
        held = sorted((r for r in progress.pairs if r.treated.held), key=lambda r: r.pair)
        if held and not any(r.treated.legal for r in held):
            out.append(entry("never_legal", progress.card, held[0].pair,
                             f"P{held[0].seat} held {progress.card} but could never play it"))
    limit = next((r for c in outcome.cards.values() for r in sorted(c.pairs, key=lambda r: r.pair)
                  if r.treated.limit_reached or r.control.limit_reached), None)
    if limit is not None:
        out.append(entry("turn_limit", limit.card, limit.pair,
                         f"a game that reached the turn limit of {spec.turn_limit} turns"))
    return out


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-")


def save_replays(outcome: Outcome, anomalies: list[dict[str, Any]]) -> None:
    """Play the games of each anomaly again and save them where its ``replays`` say (a game
    already saved is kept)."""
    folder = Path(outcome.spec.out)
    setup = setup_of(outcome.spec)
    for a in anomalies:
        paths = {k: folder / v for k, v in a["replays"].items()}
        if all(p.exists() for p in paths.values()):
            continue
        treated, control = pair_records(setup, Job(a["card"], a["pair"]))
        for key, record in (("treated", treated), ("control", control)):
            if record is None:  # a game that saves no games: the anomaly has no replay to link
                a["replays"].pop(key, None)
                continue
            paths[key].parent.mkdir(parents=True, exist_ok=True)
            paths[key].write_text(json.dumps(record, indent=1) + "\n", "utf-8")


def write(outcome: Outcome) -> dict[str, Any]:
    """Write ``results.json``, ``cards.csv``, ``report.html`` and the anomalies' replays
    (``replays/``) into the study's folder."""
    out = Path(outcome.spec.out)
    data = results(outcome)
    save_replays(outcome, data["anomalies"])
    (out / "results.json").write_text(json.dumps(data, indent=1), "utf-8")
    with (out / "cards.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, CSV_FIELDS, extrasaction="ignore")
        w.writeheader()
        for c in data["cards"]:
            ci = c.get("play_rate_ci") or (None, None)
            w.writerow({**c, "play_rate_ci_low": ci[0], "play_rate_ci_high": ci[1]})
    (out / "report.html").write_text(html_report(data), "utf-8")
    return data


def _pyplot() -> Any:
    """matplotlib's pyplot, drawing to files only (no display needed)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _inline_svg(fig: Any) -> str:
    """``fig`` as an ``<svg>`` element to put in the page (and the figure closed)."""
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    _pyplot().close(fig)
    svg = buf.getvalue()
    return svg[svg.index("<svg"):]


def _forest_svg(cards: list[dict[str, Any]]) -> str:
    """A forest plot of the card values and their intervals, as inline SVG (matplotlib)."""
    plt = _pyplot()
    n = len(cards)
    fig, ax = plt.subplots(figsize=(7.5, 0.26 * n + 1.2))
    ys = list(range(n))[::-1]
    for y, c in zip(ys, cards):
        color = "#c0392b" if c["flagged"] and c["value"] > 0 else "#2471a3" if c["flagged"] else "#555555"
        ax.plot([c["ci_low"], c["ci_high"]], [y, y], color=color, lw=1.6)
        ax.plot([c["value"]], [y], "o", color=color, ms=4)
    ax.axvline(0, color="#999999", lw=0.8, ls="--")
    ax.set_yticks(ys, [c["card"] for c in cards], fontsize=8)
    ax.set_xlabel("change in the treated seat's win rate (95% interval)")
    ax.set_ylim(-1, n)
    return _inline_svg(fig)


_STYLE = """body{font-family:system-ui,sans-serif;margin:2em;max-width:60em;color:#222}
table{border-collapse:collapse;margin:1em 0}th,td{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:right}
th{cursor:pointer;background:#f4f4f4}td:first-child,th:first-child{text-align:left}.flag{color:#c0392b;font-weight:bold}
.v-dead{color:#7d3c98;font-weight:bold}.v-weak{color:#2471a3;font-weight:bold}.v-strong{color:#c0392b;font-weight:bold}
.summary{border:1px solid #ccc;padding:.2em 1em;background:#fafafa}"""

_SORT = """document.querySelectorAll('th').forEach((th,i)=>th.addEventListener('click',()=>{
const t=th.closest('table'),b=t.tBodies[0],rows=[...b.rows],asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';
rows.sort((x,y)=>{const a=x.cells[i].dataset.v??x.cells[i].textContent,c=y.cells[i].dataset.v??y.cells[i].textContent;
const p=parseFloat(a),q=parseFloat(c);const r=isNaN(p)||isNaN(q)?a.localeCompare(c):p-q;return asc?r:-r});
rows.forEach(r=>b.appendChild(r))}));"""


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.1%}"


def _lengths_svg(turns: dict[str, int]) -> str:
    """A bar chart of how many games lasted how many turns, as inline SVG."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 2.4))
    ax.bar([int(k) for k in turns], list(turns.values()), color="#2471a3", width=0.8)
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    return _inline_svg(fig)


def _table(rows: list[dict[str, Any]], cols: list[str]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = []
    for r in rows:
        cells = []
        for c in cols:
            v = r.get(c)
            shown = f"{v:+.3f}" if isinstance(v, float) and c in ("value", "ci_low", "ci_high") else \
                f"{v:.1%}" if isinstance(v, float) and ("share" in c or "rate" in c) else str(v)
            cls = ' class="flag"' if c == "card" and r.get("flagged") else \
                f' class="v-{html.escape(str(v))}"' if c == "verdict" else ""
            key = VERDICTS.index(v) if c == "verdict" and v in VERDICTS else v  # sorts in attention order
            cells.append(f'<td{cls} data-v="{html.escape(str(key))}">{html.escape(shown)}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _points(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.0f}"


def _summary_section(data: dict[str, Any]) -> str:
    """The one-screen summary at the top: the cards to look at first (:func:`summary`)."""
    rows, more = summary(data)
    counts = data.get("verdicts", {})
    tally = ", ".join(f"{counts[v]} {v}" for v in VERDICTS if v in counts)
    head = f"<h2>Look at these first</h2><p>Verdicts: {html.escape(tally)} (see below for what they mean).</p>" \
        if tally else "<h2>Look at these first</h2>"
    if not rows:
        return (f'<div class="summary">{head}<p>No card is dead, weak or strong: every value\'s interval contains '
                "zero, and no card is played markedly less often than its stand-in.</p></div>")
    cols = ["card", "verdict", "value", "play rate", "suggested cost"]
    body = "".join("<tr>" + "".join(
        f'<td{f" class=v-{r[c]}" if c == "verdict" else ""}>{html.escape(r[c])}</td>' for c in cols) + "</tr>"
        for r in rows)
    tail = f"<p>… and {more} more: see the card table.</p>" if more else ""
    return (f'<div class="summary">{head}<table><thead><tr>'
            + "".join(f"<th>{html.escape(c)}</th>" for c in cols)
            + f"</tr></thead><tbody>{body}</tbody></table>{tail}<p>Value: the change in the treated seat's score "
            "with the 95% interval; play rate: how often the seat played the card when it could, with the real card "
            "vs with its stand-in.</p></div>")


def _card_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The card table's rows, in attention order, with the play rates written out."""
    rows = []
    for c in sorted(data["cards"], key=attention_order):
        ci = c.get("play_rate_ci")
        rows.append({**c, "play rate": _pct(c.get("play_rate")), "stand-in's": _pct(c.get("play_rate_control")),
                     "difference (points)": _points(c.get("play_rate_diff"))
                     + (f"\u00a0[{_points(ci[0])},\u00a0{_points(ci[1])}]" if ci else "")})  # kept on one line
    return rows


def _by_agent_section(data: dict[str, Any]) -> str:
    """Each card's value by the agent playing the treated seat (runs with several agents)."""
    order = data.get("agents_by_strength", [])
    if len(order) < 2:
        return ""
    rows = []
    for c in data["cards"]:
        row: dict[str, Any] = {"card": c["card"], "strong only": "yes" if c.get("strong_only") else ""}
        for a in c.get("by_agent", []):
            row[a["agent"]] = f"{a['value']:+.3f} [{a['ci_low']:+.3f}, {a['ci_high']:+.3f}]"
        rows.append(row)
    return (f"<h2>Value by agent strength</h2><p>Agents from weakest to strongest (by their win rate in the "
            f"control games): {html.escape(', '.join(order))}. \"Strong only\": worth something in the "
            "strongest agent's hands (its interval above zero) but not in the weakest's.</p>"
            + _table(rows, ["card", *order, "strong only"]))


def _anomalies_section(data: dict[str, Any]) -> str:
    rows = [{"what": a["kind"].replace("_", " "), "card": a["card"], "game": a["what"],
             "replays": a["replays"]} for a in data["anomalies"]]
    if not rows:
        return ("<h2>Anomalies</h2><p>None: no card was flagged or never legal when held, and no game reached "
                "the turn limit.</p>")
    body = "".join(
        f"<tr><td>{html.escape(r['what'])}</td><td>{html.escape(r['card'])}</td><td>{html.escape(r['game'])}</td>"
        + "".join(f"<td><a href=\"{html.escape(path)}\">{key}</a></td>" for key, path in r["replays"].items())
        + "</tr>" for r in rows)
    how = data.get("game", {}).get("replays", "")
    return (f"<h2>Anomalies</h2><p>Each with the two games of its pair, saved beside this page. {how}</p>"
            "<table><thead><tr><th>what</th><th>card</th><th>game</th>"
            f"<th>with the card</th><th>with the stand-in</th></tr></thead><tbody>{body}</tbody></table>")


def _rule_order(rule: str) -> tuple[str, int]:
    """COMBAT-10 after COMBAT-9."""
    group, _, number = rule.rpartition("-")
    return group, int(number) if number.isdigit() else 0


_VERDICTS_TEXT = (
    "<p>The table lists dead and weak cards first. <b>Verdict</b>: <span class=v-strong>strong</span> when the "
    "value's 95% interval is above zero, <span class=v-weak>weak</span> when it is below; "
    "<span class=v-dead>dead</span> when it contains zero but the seat plays the real card markedly less often than "
    "it plays the stand-in (the play-rate difference's 95% interval is below zero): a card the agents stop playing "
    "changes no game, whatever it could do; <b>even</b> otherwise. <b>Play rate</b>: in how many of the pairs in "
    "which the treated seat could play, build or develop the card it did, with the real card (treated games) and "
    "with the stand-in (control games); the difference is taken pair by pair, in percentage points. A stand-in that "
    "can never be played (a blank) has no play rate, and its card cannot be dead: read its own play rate. These "
    "are per-card intervals: among many even cards, about one in twenty gets another verdict by chance "
    "(docs/study.md).</p>")


def html_report(data: dict[str, Any]) -> str:
    """The whole report as one self-contained HTML page."""
    s = data["settings"]
    game = data.get("game", {})
    board = f", {s['size']}x{s['size']}" if s.get("size") is not None else ""
    of = f" of {game['title']}" if game.get("title") else ""
    title = (f"Card study{of}: {s['players']} players{board}, {s['edition']}, agents "
             f"{', '.join(s['agents'])}, seed {s['seed']}")
    seats = data["seat_advantage"]
    lengths = data["game_length"]
    parts = [f"<!doctype html><meta charset=utf-8><title>{html.escape(title)}</title><style>{_STYLE}</style>",
             f"<h1>{html.escape(title)}</h1>",
             _summary_section(data),
             f"<p>{data['games']} games. A card's value is how much more often the seat holding it wins than "
             "with its stand-in, on the same deals (docs/study.md). "
             + (f"The stand-in: {html.escape(game['stand_in'])}. " if game.get("stand_in") else "")
             + f"Red: flagged, its interval of the whole run at error rate {s['alpha']} excludes zero.</p>",
             "<h2>Card values</h2>", _forest_svg(data["cards"]) if data["cards"] else "",
             _VERDICTS_TEXT,
             _table(_card_rows(data), ["card", "verdict", "kind", "value", "ci_low", "ci_high", "play rate", "stand-in's",
                                       "difference (points)", "games", "stop", "played_share"]),
             f"<h2>Seat advantage ({seats['players']} players, {seats['games']} control games)</h2>",
             _table([{"seat": e["seat"], "win rate": _pct(e["win_rate"]),
                      "95% interval": f"{_pct(e['ci_low'])} – {_pct(e['ci_high'])}"} for e in seats["seats"]],
                    ["seat", "win rate", "95% interval"]),
             "<h2>Game length</h2>",
             f"<p>Share of games that reached the turn limit: {lengths['turn_limit_share']:.1%}.</p>",
             _lengths_svg(lengths["turns"]) if lengths["turns"] else "",
             "<h2>Never played</h2><p>" + (html.escape(", ".join(data["never_played"])) or "none") + "</p>",
             "<h2>Never legal when held</h2><p>Cards the treated seat held in its hand but could never play: "
             + (html.escape(", ".join(data["never_legal"])) or "none") + ".</p>",
             _anomalies_section(data),
             "<h2>Rules that never fired</h2><p>" + ("Of the rules the engine records as they are carried out "
             "(docs/study.md): " + (html.escape(", ".join(data["rules"]["never_fired"])) or "none")
             if data["rules"].get("recorded", True) else "This game's engine does not record the rules it "
             "carries out") + ".</p>",
             _by_agent_section(data),
             f"<script>{_SORT}</script>"]
    return "\n".join(parts)
