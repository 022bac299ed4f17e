"""``starcom match``: games between bot programs that speak the protocol (docs/bot-protocol.md).

Every deal is played once per rotation of the engines over the seats (duplicate deals), so no
engine gains from its seat or its cards. Games run ``concurrency`` at a time, each with fresh
bot processes; a bot that crashes, hangs, floods or breaks the protocol loses that game (the
reason is recorded) and the match goes on. Each finished game is appended to the log, which
the same command resumes from. With two engines an SPRT may end the match early.
"""
from __future__ import annotations

import json
import random
import statistics
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from ..games import GameEntry, default_game
from ..games import get as get_game
from ..sim.arena import deal_seed
from ..sim.ratings import Sprt, fit_elo, sprt
from .host import Bot, BotFault, Clock, Outcome, forfeit_winner, play_game

LOG_FORMAT = "starcom-match/1"


class MatchError(ValueError):
    """A match that cannot be played as asked (the message says why and what to change)."""


@dataclass(frozen=True)
class MatchSpec:
    """A match: one engine (a command line) per seat, ``games`` games in all."""

    engines: tuple[str, ...]
    games: int = 10
    game: str = field(default_factory=default_game)  # a registered game's name
    size: int | None = None     # for a game with a board size (None: the game's own default)
    edition: str | None = None  # None: the game's own default
    turn_limit: int | None = None
    seed: int = 0
    move_ms: int = 1000
    bank_ms: int = 30000
    retries: int = 2
    sprt: tuple[float, float] | None = None
    concurrency: int = 1
    options: tuple[tuple[str, str], ...] = ()  # (name, value): set in every engine that declares it

    @property
    def players(self) -> int:
        return len(self.engines)

    def check(self) -> GameEntry[Any, Any]:
        """The game's entry; MatchError names a bad setting."""
        if not 2 <= self.players <= 4:
            raise MatchError(f"--engine: give 2 to 4 engines (one per seat), not {self.players}")
        if self.games < 1:
            raise MatchError(f"--games: play at least one game, not {self.games}")
        if self.concurrency < 1:
            raise MatchError(f"--concurrency: at least 1, not {self.concurrency}")
        if self.move_ms < 1 or self.bank_ms < 0:
            raise MatchError("--move-ms must be at least 1 and --bank-ms at least 0")
        if self.retries < 0:
            raise MatchError(f"--retries: at least 0, not {self.retries}")
        if self.sprt is not None:
            if self.players != 2:
                raise MatchError("--sprt compares two engines: give exactly two")
            if not self.sprt[0] < self.sprt[1]:
                raise MatchError(f"--sprt ELO0,ELO1 needs ELO0 < ELO1, got {self.sprt[0]:g},{self.sprt[1]:g}")
        try:
            entry = get_game(self.game)
            entry.rules.new(**self.settings(0))
        except ValueError as exc:
            raise MatchError(f"--{_option_of(str(exc))}: {exc}") from None
        return entry

    def settings(self, deal: int) -> dict[str, Any]:
        """The settings of deal number ``deal`` (those the game takes)."""
        entry = get_game(self.game)
        own = entry.rules.defaults()  # a size or edition left out is the game's
        every = {"players": self.players, "size": self.size if self.size is not None else own.get("size"),
                 "edition": self.edition if self.edition is not None else own.get("edition"),
                 "turn_limit": self.turn_limit, "seed": deal_seed(self.seed, deal)}
        return {k: v for k, v in every.items() if k in entry.rules.settings and (v is not None or k == "turn_limit")}

    def seating(self, index: int) -> tuple[int, ...]:
        """The engine (by number) in each seat of game ``index``: deal ``index // players``,
        the engines moved on by one seat from one game of a deal to the next."""
        turn = index % self.players
        return tuple((s + turn) % self.players for s in range(self.players))

    def key(self) -> dict[str, Any]:
        """What a log must have been made with to be resumed (all but the concurrency)."""
        data = asdict(self)
        data.pop("concurrency")
        data["engines"] = list(self.engines)
        data["sprt"] = list(self.sprt) if self.sprt else None
        data["options"] = [list(o) for o in self.options]
        return data


def _option_of(message: str) -> str:
    for word, option in (("players", "engine"), ("size", "size"), ("edition", "edition"), ("turn", "turn-limit"),
                         ("game", "game")):
        if word in message:
            return option
    return "game"


@dataclass
class GameResult:
    """One game of a match, as its log line keeps it. ``seats``: the engine number of each
    seat; ``winner``: the winning seat (-1 a draw); ``fault``: the kind of fault that forfeited
    it and ``faulty`` the seat (None: no fault); per seat, its illegal answers, default moves
    and median round trip (ms)."""

    index: int
    seats: list[int]
    winner: int
    reason: str
    turns: int
    steps: int
    fault: str | None = None
    faulty: int | None = None
    illegal: list[int] = field(default_factory=list)
    defaults: list[int] = field(default_factory=list)
    round_trip_ms: list[float | None] = field(default_factory=list)
    saved: str | None = None

    @property
    def winner_engine(self) -> int | None:
        return None if self.winner < 0 else self.seats[self.winner]


def _seat_seed(spec: MatchSpec, index: int, seat: int) -> str:
    return str(random.Random(f"match:{spec.seed}:{index}:{seat}").getrandbits(32))


def play_one(spec: MatchSpec, index: int, names: list[str], save: Path | None = None,
             bot_logs: Path | None = None) -> GameResult:
    """Play game ``index`` of ``spec`` with fresh bot processes (their error output to files in
    ``bot_logs``, if given)."""
    entry = get_game(spec.game)
    seats = spec.seating(index)
    settings = spec.settings(index // spec.players)
    bots: list[Bot] = []
    outcome: Outcome | None = None
    try:
        for seat, engine in enumerate(seats):
            try:
                bot = Bot(spec.engines[engine], _log_file(bot_logs, index, seat))
                bots.append(bot)
                info = bot.handshake()
                if "seed" in info.options:  # bots that take a seed play the same match the same way
                    bot.set_option("seed", _seat_seed(spec, index, seat))
                for name, value in spec.options:
                    if name in info.options:
                        bot.set_option(name, value)
            except BotFault as fault:
                outcome = Outcome(forfeit_winner(spec.players, seat), f"seat {seat} forfeits: {fault}", [], [],
                                  seat, fault.kind)
                break
        if outcome is None:
            clocks = [Clock(spec.move_ms, spec.bank_ms) for _ in seats]
            outcome = play_game(entry, settings, bots, clocks, spec.retries, end_reason=entry.rules.end_reason)
    finally:
        for bot in bots:
            bot.close()
    rts = [statistics.median(s.round_trips) * 1000 if s.round_trips else None for s in outcome.seats]
    result = GameResult(index, list(seats), outcome.winner, outcome.reason, outcome.turns, len(outcome.actions),
                        outcome.fault, outcome.faulty, [s.illegal for s in outcome.seats],
                        [s.defaults for s in outcome.seats], [None if r is None else round(r, 4) for r in rts])
    if save is not None:
        result.saved = str(_save(save, spec, settings, index, outcome, [names[e] for e in seats]))
    return result


def _log_file(folder: Path | None, index: int, seat: int) -> IO[Any] | None:
    """Where a bot's error output goes: a file of ``folder``, or nowhere."""
    if folder is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    return (folder / f"game-{index:04d}-seat-{seat}.log").open("wb")


def _save(folder: Path, spec: MatchSpec, settings: dict[str, Any], index: int, outcome: Outcome,
          names: list[str]) -> Path:
    """The game as a saved-game file ``starcom replay`` and the browser open (any game's)."""
    from ..sim.record import save_game
    result = {"over": outcome.over, "winner": outcome.winner if outcome.over else None, "turns": outcome.turns,
              "reason": outcome.reason}
    return save_game(folder / f"game-{index:04d}.json", spec.game, settings, outcome.actions, names, result)


@dataclass
class MatchResult:
    """The games of a match (in order), the engines' names, and the SPRT's state."""

    spec: MatchSpec
    names: list[str]
    records: list[GameResult]
    sprt: Sprt | None = None

    def tally(self) -> list[dict[str, Any]]:
        """Per engine: games, wins, draws, losses, score, forfeits, illegal answers, default
        moves and the median round trip (ms)."""
        out = []
        for e, name in enumerate(self.names):
            games = [r for r in self.records if e in r.seats]
            wins = sum(r.winner_engine == e for r in games)
            draws = sum(r.winner < 0 for r in games)
            trips = [t for r in games for s, t in enumerate(r.round_trip_ms) if r.seats[s] == e and t is not None]
            out.append({"engine": name, "command": self.spec.engines[e], "games": len(games), "wins": wins,
                        "draws": draws, "losses": len(games) - wins - draws,
                        "score": round((wins + draws / 2) / len(games), 4) if games else None,
                        "forfeits": sum(r.faulty is not None and r.seats[r.faulty] == e for r in games),
                        "illegal": sum(r.illegal[s] for r in games for s in range(len(r.seats)) if r.seats[s] == e),
                        "defaults": sum(r.defaults[s] for r in games for s in range(len(r.seats)) if r.seats[s] == e),
                        "round_trip_ms": round(statistics.median(trips), 4) if trips else None})
        return out

    def elo(self) -> dict[str, dict[str, float]]:
        """Ratings (mean 1500) with 95% intervals, from every pair's head-to-head results."""
        scores: dict[tuple[str, str], float] = {}
        for r in self.records:
            won = r.winner_engine
            present = sorted(set(r.seats))
            for a in present:
                for b in present:
                    if a == b or (won is not None and won not in (a, b)):
                        continue
                    key = (self.names[a], self.names[b])
                    scores[key] = scores.get(key, 0.0) + (1.0 if won == a else 0.5 if won is None else 0.0)
        fit = fit_elo(self.names, scores)
        return {n: {"elo": round(fit.ratings[n], 1), "low": round(fit.intervals[n][0], 1),
                    "high": round(fit.intervals[n][1], 1)} for n in self.names}

    def summary(self) -> dict[str, Any]:
        """What ``starcom match --json`` prints: the settings, each engine's results, each game's
        seats, winner and the reason it ended, the SPRT, and the round trip."""
        trips = [t for r in self.records for t in r.round_trip_ms if t is not None]
        return {
            "match": self.spec.key(),
            "games": len(self.records),
            "engines": self.tally(),
            "elo": self.elo(),
            "results": [{"game": r.index, "seats": [self.names[e] for e in r.seats],
                         "winner": None if r.winner_engine is None else self.names[r.winner_engine],
                         "reason": r.reason, "fault": r.fault, "turns": r.turns, "saved": r.saved}
                        for r in self.records],
            "sprt": None if self.sprt is None else {"llr": round(self.sprt.llr, 4), "lower": round(self.sprt.lower, 4),
                                                    "upper": round(self.sprt.upper, 4), "verdict": self.sprt.verdict},
            "round_trip_ms": {"median": round(statistics.median(trips), 4) if trips else None,
                              "p95": round(_quantile(trips, 0.95), 4) if trips else None},
        }


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def engine_names(spec: MatchSpec) -> list[str]:
    """Start each engine once and read its name (MatchError if one cannot start or greet);
    names made unique by a number where two engines share one."""
    names: list[str] = []
    for e, command in enumerate(spec.engines):
        try:
            bot = Bot(command)
        except (BotFault, ValueError) as exc:
            raise MatchError(f"--engine {command!r}: {exc}") from None
        try:
            name = bot.handshake().name
        except BotFault as fault:
            raise MatchError(f"--engine {command!r}: the handshake failed ({fault})") from None
        finally:
            bot.close()
        names.append(name if name not in names else f"{name}#{e + 1}")
    return names


def _read_log(path: Path, spec: MatchSpec) -> dict[int, GameResult]:
    """The games a log already has; MatchError if it belongs to another match."""
    done: dict[int, GameResult] = {}
    if not path.exists():
        return done
    lines = path.read_text("utf-8").splitlines()
    try:
        header = json.loads(lines[0]) if lines else None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != LOG_FORMAT:
        raise MatchError(f"--log {path}: not a match log; give another file")
    if header.get("match") != json.loads(json.dumps(spec.key())):
        raise MatchError(f"--log {path}: it is the log of another match (other engines or settings); "
                         "give another file, or the same settings to resume it")
    for text in lines[1:]:
        try:
            r = GameResult(**json.loads(text))
        except (ValueError, TypeError):
            continue  # a line torn by an interruption: that game is played again
        done[r.index] = r
    return done


def run_match(spec: MatchSpec, log: Path | None = None, save: Path | None = None,
              on_game: Callable[[GameResult], None] | None = None, bot_logs: Path | None = None) -> MatchResult:
    """Play the match (resuming ``log`` if it has games already); saved games go to ``save``,
    the bots' error output to files in ``bot_logs``."""
    spec.check()
    names = engine_names(spec)
    done = _read_log(log, spec) if log is not None else {}
    if log is not None:
        if not log.exists():
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(json.dumps({"format": LOG_FORMAT, "match": spec.key()}) + "\n", "utf-8")
        elif not log.read_bytes().endswith(b"\n"):  # a line torn by an interruption: new lines start afresh
            with log.open("a", encoding="utf-8") as f:
                f.write("\n")
    results = dict(done)
    verdict: Sprt | None = None
    stop_at = spec.games

    def counted() -> Iterator[GameResult]:  # the finished games in order, up to the first gap
        i = 0
        while i in results and i < stop_at:
            yield results[i]
            i += 1

    def judge() -> None:
        nonlocal verdict, stop_at
        if spec.sprt is None:
            return
        w = d = lost = 0
        for r in counted():
            won = r.winner_engine
            w, d, lost = w + (won == 0), d + (won is None), lost + (won == 1)
            verdict = sprt(w, d, lost, *spec.sprt)
            if verdict.verdict is not None:
                stop_at = r.index + 1
                return

    judge()
    todo = iter(i for i in range(spec.games) if i not in results)
    with ThreadPoolExecutor(spec.concurrency) as pool:
        running: set[Future[GameResult]] = set()
        while True:
            for i in todo:
                if i >= stop_at:
                    break
                running.add(pool.submit(play_one, spec, i, names, save, bot_logs))
                if len(running) >= spec.concurrency:
                    break
            if not running:
                break
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for fut in finished:
                r = fut.result()
                results[r.index] = r
                if log is not None:
                    with log.open("a", encoding="utf-8") as f:
                        f.write(json.dumps(asdict(r)) + "\n")
                if on_game is not None:
                    on_game(r)
            judge()
    return MatchResult(spec, names, list(counted()), verdict)


__all__ = ["LOG_FORMAT", "GameResult", "MatchError", "MatchResult", "MatchSpec", "engine_names", "play_one",
           "run_match"]
