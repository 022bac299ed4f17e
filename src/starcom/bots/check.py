"""``starcom protocol-check CMD``: does a bot program follow the protocol? (docs/bot-protocol.md)

The checker runs the program through a fixed list of steps (handshake, options, games at every
player count, board size and edition the game has, refused answers, a short clock, a restart in
the middle of a game, quitting) and reports each as passed or failed, with what it saw. Seats the
bot does not play are played by the built-in random AI inside the checker.
"""
from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..games import GameEntry, default_game
from ..games import get as get_game
from . import wire
from .host import HANDSHAKE_SECONDS, Bot, BotFault, Clock, seat_to_move

GAME_STEPS = 5000  # actions; the checker's games end by then (a turn limit keeps them short)
TURN_LIMIT = 12


@dataclass
class Step:
    """One check: what it asks, whether the bot passed, and what was seen."""

    name: str
    ok: bool
    detail: str = ""
    ms: float = 0.0


@dataclass
class Report:
    """Every step, in order."""

    command: str
    steps: list[Step] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.steps) and all(s.ok for s in self.steps)

    def summary(self) -> dict[str, Any]:
        return {"command": self.command, "passed": self.passed, "steps": len(self.steps),
                "failed": sum(not s.ok for s in self.steps),
                "results": [{"step": i + 1, "check": s.name, "ok": s.ok, "detail": s.detail, "ms": round(s.ms, 2)}
                            for i, s in enumerate(self.steps)]}


@dataclass
class Played:
    """What a checker game saw of the bot."""

    decisions: int = 0
    round_trips: list[float] = field(default_factory=list)
    over: bool = False


class Checker:
    """Runs the steps against ``command`` for ``game``; ``on_step`` hears each result."""

    def __init__(self, command: str, game: str | None = None, on_step: Callable[[Step], None] | None = None) -> None:
        self.command, self.entry = command, get_game(game if game is not None else default_game())
        self.report = Report(command)
        self.on_step = on_step
        self.bot: Bot | None = None
        self.options: dict[str, str] = {}

    # ------------------------------------------------------------------ helpers
    def record(self, name: str, ok: bool, detail: str = "", ms: float = 0.0) -> bool:
        step = Step(name, ok, detail, ms)
        self.report.steps.append(step)
        if self.on_step is not None:
            self.on_step(step)
        return ok

    def check(self, name: str, fn: Callable[[], str]) -> bool:
        """Run ``fn`` as step ``name``: passed unless it raises (BotFault or AssertionError);
        its string is the detail."""
        start = time.monotonic()
        try:
            detail = fn()
        except (BotFault, AssertionError, ValueError, KeyError) as exc:
            return self.record(name, False, str(exc) or type(exc).__name__, (time.monotonic() - start) * 1000)
        return self.record(name, True, detail, (time.monotonic() - start) * 1000)

    def start(self) -> Bot:
        if self.bot is not None:
            self.bot.close()
        self.bot = Bot(self.command)
        return self.bot

    def ready(self) -> Bot:
        """The bot, started and greeted (restarted if an earlier step left it dead)."""
        if self.bot is None or self.bot.proc.poll() is not None:
            bot = self.start()
            bot.handshake()
            return bot
        return self.bot

    def silent(self, seconds: float = 0.3) -> str:
        """Passes when the bot says nothing (but info) for ``seconds``."""
        assert self.bot is not None
        time.sleep(seconds)
        unasked = self.bot.pending()
        assert unasked is None, f"it sent {unasked!r} unasked"
        assert self.bot.proc.poll() is None, "it exited"
        return "quiet"

    def play(self, settings: dict[str, Any], seat: int, clock: Clock | None = None,
             hook: Callable[[Any, int, dict[str, Any]], str | None] | None = None,
             resume: Any = None) -> Played:
        """Play a game in which the bot holds ``seat`` and the checker's random AI the others;
        BotFault or AssertionError if the bot fails. ``hook(game, decision, body)`` may carry
        out a decision's exchange itself and return the bot's answer (None: the usual exchange).
        ``resume``: a game in progress, joined with ``resync``."""
        bot = self.ready()
        entry, clock = self.entry, clock or Clock(2000, 10000)
        game = resume if resume is not None else entry.rules.new(**settings)
        info = wire.game_info(entry, settings, seat, game.players, clock.as_json(), 2)
        bot.send(wire.line(wire.RESYNC if resume is not None else wire.NEWGAME, info))
        rng = random.Random(f"check:{seat}")
        seen = Played()
        steps = 0
        while not game.over and steps < GAME_STEPS:
            steps += 1
            legal = game.legal_actions()
            if game.to_move != seat:
                entry.rules.play(game, rng.choice(legal))
                continue
            seen.decisions += 1
            body = wire.decision(entry, game, seat, seen.decisions, clock.as_json(), legal)
            answer = hook(game, seen.decisions, body) if hook is not None else None
            if answer is None:
                answer, took = bot.ask_timed(body, clock)
                seen.round_trips.append(took)
            try:
                action = game.parse(answer)
            except ValueError as exc:
                raise AssertionError(f"decision {seen.decisions}: {answer[:60]!r} is not an action ({exc})") from None
            assert action in legal, f"decision {seen.decisions}: {answer[:60]!r} is not legal now"
            entry.rules.play(game, action)
        seen.over = game.over
        if game.over:
            bot.send(wire.line(wire.GAMEOVER, {"winner": entry.rules.winner(game), "reason": "the game ended"}))
        return seen

    # ------------------------------------------------------------------ the steps
    def run(self) -> Report:
        """Every step in order; the report."""
        self.check("the program starts", self._starts)
        if not self.report.steps[-1].ok:
            return self.report
        self.check("it answers the greeting with 'id name …'", self._greets)
        self.check(f"it says 'ready {wire.VERSION}' within {HANDSHAKE_SECONDS:.0f} s", self._was_ready)
        self.check("its option lines have the form 'option name NAME default VALUE'",
                   lambda: self._assert(self.greeted, "the handshake failed") or
                   ", ".join(f"{k}={v}" for k, v in self.options.items()) or "no options")
        self.check("it takes a value for each option it declared", self._set_options)
        self.check("it ignores a command it does not know", self._unknown_command)
        self.check("it waits silently for a game", self.silent)
        games = settings_to_check(self.entry)
        seen: list[Played] = []
        for n, (label, settings, seat) in enumerate(games):
            full = self._settings(100 + n, **settings)
            self.check(f"it plays a whole game with legal actions: {label}",
                       lambda full=full, seat=seat: self._game(full, seat, seen))  # type: ignore[misc]
        played = [p for p in seen]
        self.check("it answered every decision of those games within the move time (2 s), no bank used",
                   lambda: self._within_move(played))
        self.check("it answers a decision with a single legal action",
                   lambda: self._answers_at(910, lambda n: n == 1))
        self.check("it answers a decision with 20 or more legal actions",
                   lambda: self._answers_at(920, lambda n: n >= 20))
        self.check("it says nothing more after answering a decision", self._silent_after_answer)
        self.check("it plays a second game after 'gameover' in the same process", self._second_game)
        self.check("after 'illegal' it answers again with a legal action", self._illegal_once)
        self.check("after two 'illegal' in a row it still answers", self._illegal_twice)
        self.check("with a refused answer of a single-action decision it repeats that action", self._illegal_single)
        self.check("it keeps to a short clock (250 ms a move, no bank)", self._short_clock)
        self.check("a restarted bot continues a game after 'resync'", self._resync)
        self.check("after 'resync' it plays the game to its end",
                   lambda: self._assert(self.resynced_to_end, "the resynced game did not reach its end") or "ended")
        self.check("it accepts 'resync' for another seat of another game", self._resync_other)
        self.check("it answers a decision whose number it did not expect", self._unexpected_number)
        self.check("its median round trip is at most 2 ms",
                   lambda: self._median_trip(played))
        self.check("it quits when asked, with exit code 0, within 2 s", self._quits)
        self.check("it ends when its input closes", self._input_closes)
        if self.bot is not None:
            self.bot.close()
        return self.report

    @staticmethod
    def _assert(cond: bool, message: str) -> None:
        assert cond, message

    def _starts(self) -> str:
        bot = self.start()
        time.sleep(0.2)
        assert bot.proc.poll() is None, f"it exited with code {bot.proc.returncode} before the greeting"
        return f"pid {bot.proc.pid}"

    greeted = False
    handshake_ms = 0.0
    resynced_to_end = False

    def _greets(self) -> str:
        assert self.bot is not None
        start = time.monotonic()
        info = self.bot.handshake()
        self.handshake_ms = (time.monotonic() - start) * 1000
        self.greeted = True
        self.options = dict(info.options)
        assert info.name and info.name != self.bot.command[0], "no 'id name' line"
        return f"name {info.name!r}" + (f", author {info.author!r}" if info.author else "")

    def _was_ready(self) -> str:
        assert self.greeted, "no 'ready' line (see the step before)"
        return f"ready after {self.handshake_ms:.0f} ms"

    def _within_move(self, played: list[Played]) -> str:
        slowest = max((t for p in played for t in p.round_trips), default=0.0) * 1000
        assert played, "no game was played"
        assert slowest <= 2000, f"the slowest answer took {slowest:.0f} ms"
        return f"{sum(p.decisions for p in played)} decisions, slowest {slowest:.1f} ms"

    def _silent_after_answer(self) -> str:
        bot = self.ready()
        settings = self._settings(800)
        game = self.entry.rules.new(**settings)
        seat = seat_to_move(game)
        bot.send(wire.line(wire.NEWGAME, wire.game_info(self.entry, settings, seat, game.players, Clock().as_json(), 2)))
        answer = bot.ask(wire.decision(self.entry, game, seat, 1, Clock().as_json()), 5.0)
        assert game.parse(answer) in game.legal_actions(), f"it played {answer[:60]!r}"
        return self.silent(0.5)

    def _set_options(self) -> str:
        bot = self.ready()
        for name, default in self.options.items():
            bot.set_option(name, "7" if name == "seed" else default)
        return self.silent() if self.options else "no options to set"

    def _unknown_command(self) -> str:
        self.ready().send(wire.line("futurecommand", {"from": "a later version"}))
        return self.silent()

    def _game(self, settings: dict[str, Any], seat: int, seen: list[Played]) -> str:
        p = self.play(settings, seat)
        seen.append(p)
        assert p.decisions > 0, "the bot's seat had no decision"
        return f"{p.decisions} decisions, median {sorted(p.round_trips)[len(p.round_trips) // 2] * 1000:.2f} ms"

    def _settings(self, seed: int, players: int | None = None, size: int | None = None,
                  edition: str | None = None) -> dict[str, Any]:
        """The settings of a checker game the game takes: ``players``, ``size`` and ``edition``
        default to its first."""
        rules = self.entry.rules
        full = {"players": players if players is not None else rules.player_counts[0],
                "size": size if size is not None else rules.sizes[0] if rules.sizes else None,
                "edition": edition if edition is not None else rules.editions[0] if rules.editions else None,
                "turn_limit": TURN_LIMIT, "seed": seed}
        return {k: v for k, v in full.items() if k in rules.settings and v is not None}

    def _settings_at(self, seed: int, i: int) -> dict[str, Any]:
        """:meth:`_settings` with the game's ``i``-th player count and board size (its last
        where it has fewer)."""
        counts, sizes = self.entry.rules.player_counts, self.entry.rules.sizes
        return self._settings(seed, players=counts[min(i, len(counts) - 1)] if counts else None,
                              size=sizes[min(i, len(sizes) - 1)] if sizes else None)

    def _second_game(self) -> str:
        p = self.play(self._settings(200), 0)
        return f"{p.decisions} decisions"

    def _refuse(self, times: int) -> str:
        """A game in which the bot's answer to some decisions is refused ``times`` times (the
        answer was legal: the checker pretends), and it must answer again each time."""
        count = 0

        def hook(game: Any, number: int, body: dict[str, Any]) -> str | None:
            nonlocal count
            if count >= 3 or (number - 1) % 3:  # decisions 1, 4 and 7
                return None
            count += 1
            return self._refused(game, body, times)

        self.play(self._settings(300 + times), 0, hook=hook)
        assert count, "no decision to refuse came up"
        return f"{count} refused answers, each answered again"

    def _refused(self, game: Any, body: dict[str, Any], times: int) -> str:
        """Ask ``body``, refuse the answer ``times`` times, and return the last answer (each
        must be legal)."""
        bot = self.ready()
        answer = bot.ask(body, 5.0)
        for left in range(times, 0, -1):
            refusal = {"answer": answer, "reason": "refused by the checker to test the retry", "rule": None,
                       "retries": left}
            answer = bot.ask({"illegal": refusal}, 5.0)
            assert game.parse(answer) in game.legal_actions(), f"after 'illegal' it played {answer[:60]!r}"
        return answer

    def _illegal_once(self) -> str:
        return self._refuse(1)

    def _illegal_twice(self) -> str:
        return self._refuse(2)

    def _illegal_single(self) -> str:
        game, body = self._joined(900, lambda n: n == 1)
        answer = self._refused(game, body, 1)
        return f"played {answer!r} again"

    def _joined(self, seed: int, wanted: Callable[[int], bool]) -> tuple[Any, dict[str, Any]]:
        """A game played at random until its player to move has a number of legal actions
        that ``wanted``, the bot joined to it as that player (``resync``), and the decision."""
        for attempt in range(20):  # such positions come up in most games; try a few
            settings = self._settings_at(seed + attempt, attempt % 2)
            try:
                game = self._random_game(settings, lambda g: wanted(len(g.legal_actions())))
                break
            except AssertionError:
                continue
        else:
            raise AssertionError("the checker found no such position in 20 games")
        seat = seat_to_move(game)
        self.ready().send(wire.line(wire.RESYNC, wire.game_info(self.entry, settings, seat, game.players,
                                                                Clock().as_json(), 1)))
        return game, wire.decision(self.entry, game, seat, 1, Clock().as_json())

    def _answers_at(self, seed: int, wanted: Callable[[int], bool]) -> str:
        game, body = self._joined(seed, wanted)
        answer = self.ready().ask(body, 5.0)
        assert game.parse(answer) in game.legal_actions(), f"it played {answer[:60]!r}"
        return f"{len(body['legal'])} legal actions, it played {answer!r}"

    def _random_game(self, settings: dict[str, Any], until: Callable[[Any], bool], steps: int = 2000) -> Any:
        """A game of ``settings`` played at random until ``until(game)`` holds."""
        game = self.entry.rules.new(**settings)
        rng = random.Random(str(settings))
        for _ in range(steps):
            if game.over or until(game):
                break
            self.entry.rules.play(game, rng.choice(game.legal_actions()))
        assert not game.over and until(game), "the checker found no such position"
        return game

    def _short_clock(self) -> str:
        p = self.play(self._settings(400), 1, Clock(250, 0))
        return f"{p.decisions} decisions, slowest {max(p.round_trips) * 1000:.1f} ms"

    def _resync(self) -> str:
        entry = self.entry
        sizes = entry.rules.sizes  # the first player count on a bigger board
        settings = self._settings(500, size=sizes[min(1, len(sizes) - 1)] if sizes else None)
        game = self._random_game(settings, lambda g: (entry.rules.turn(g) if entry.rules.turn else 0) >= 6)  # some way in
        bot = self.start()  # a fresh process, as after a crash
        bot.handshake()
        for name, default in self.options.items():
            bot.set_option(name, default)
        seat = seat_to_move(game)
        p = self.play(settings, seat, resume=game)
        self.resynced_to_end = p.over
        assert p.decisions > 0
        return f"resynced as seat {seat} at turn {entry.rules.turn(game) if entry.rules.turn else '?'}"

    def _resync_other(self) -> str:
        """The bot joins another game as its last seat (of the game's second player count)."""
        settings = self._settings_at(600, 1)
        last = self.entry.rules.new(**settings).players - 1
        game = self._random_game(settings, lambda g: g.to_move == last)
        seat = seat_to_move(game)
        p = self.play(settings, seat, resume=game)
        return f"seat {seat}, {p.decisions} decisions"

    def _unexpected_number(self) -> str:
        bot = self.ready()
        game = self.entry.rules.new(**self._settings(700))
        seat = seat_to_move(game)
        bot.send(wire.line(wire.RESYNC, wire.game_info(self.entry, self._settings(700), seat, game.players,
                                                       Clock().as_json(), 2)))
        body = wire.decision(self.entry, game, seat, 999, Clock().as_json())
        answer = bot.ask(body, 5.0)
        assert game.parse(answer) in game.legal_actions(), f"it played {answer[:60]!r}"
        return "answered decision 999"

    def _median_trip(self, played: list[Played]) -> str:
        trips = sorted(t for p in played for t in p.round_trips)
        assert trips, "no decisions"
        median = trips[len(trips) // 2] * 1000
        assert median <= 2.0, f"median {median:.2f} ms"
        return f"median {median:.3f} ms over {len(trips)} decisions"

    def _quits(self) -> str:
        bot = self.ready()
        bot.send(wire.line(wire.QUIT))
        start = time.monotonic()
        try:
            code = bot.proc.wait(2.0)
        except subprocess.TimeoutExpired:
            bot.proc.kill()
            raise AssertionError("it was still running 2 s after 'quit'") from None
        assert code == 0, f"exit code {code}"
        return f"exit code 0 after {(time.monotonic() - start) * 1000:.0f} ms"

    def _input_closes(self) -> str:
        bot = self.start()
        bot.handshake()
        assert bot.proc.stdin is not None
        bot.proc.stdin.close()
        try:
            code = bot.proc.wait(2.0)
        except subprocess.TimeoutExpired:
            bot.proc.kill()
            raise AssertionError("it was still running 2 s after its input closed") from None
        return f"ended with code {code}"


def settings_to_check(entry: GameEntry[Any, Any]) -> list[tuple[str, dict[str, Any], int]]:
    """The whole games the checker plays, as (label, settings, the bot's seat): the first player
    count on each board size (on the first from both seats), each other player count on a bigger
    board from its last seat, then each other edition at the first two player counts."""
    rules = entry.rules
    counts, sizes, editions = list(rules.player_counts) or [2], list(rules.sizes), list(rules.editions)

    def board(i: int) -> dict[str, Any]:
        return {"size": sizes[min(i, len(sizes) - 1)]} if sizes else {}

    def words(players: int, settings: dict[str, Any]) -> str:
        size = settings.get("size")
        return f"{players} players" + (f", {size}×{size}" if size is not None else "")

    first = counts[0]
    out: list[tuple[str, dict[str, Any], int]] = []
    for seat in (0, 1):
        out.append((f"{words(first, board(0))}, seat {seat}", {"players": first, **board(0)}, seat))
    for i in range(1, len(sizes)):
        out.append((words(first, board(i)), {"players": first, **board(i)}, (i - 1) % 2))
    for i, players in enumerate(counts[1:], 1):
        out.append((f"{words(players, board(i))}, seat {players - 1}", {"players": players, **board(i)}, players - 1))
    for edition in editions[1:]:
        for i, players in enumerate(counts[:2]):
            out.append((f"{players} players, {edition} edition", {"players": players, **board(i), "edition": edition},
                        i))
    return out


def check(command: str, game: str | None = None, on_step: Callable[[Step], None] | None = None) -> Report:
    """Check ``command`` against the protocol on the game ``game`` (None: the default game);
    the report of every step."""
    return Checker(command, game, on_step).run()


__all__ = ["Checker", "Report", "Step", "check"]
