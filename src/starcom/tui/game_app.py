"""The full-screen terminal game for any registered game (Textual), playing the engine directly.

It knows a game only through its registry entry (:class:`starcom.games.GameEntry`): the
entry's ``table`` draws the table for the viewing seat, its narrator writes the log, its
``describe`` words the actions, its agents play the computer seats (in a worker thread, on a
copy of the game, so the screen stays responsive) and the game checks every answer. Each of
those asks the game's observer what the viewer may see, so nothing hidden reaches a widget.

With one human the screen always shows that seat. With two or more (hot-seat) the table is
covered between their decisions, and each sees only their own hand and their own log.
A game that draws its table its own way gives a subclass through its entry's ``terminal_app``
hook (:class:`starcom.games.TerminalApp`, which this class is): the same screen with its own
widgets above the log and beside the actions.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from ..games import GameEntry, Narrator
from .board import seat_style
from .screens import ConfirmScreen, CoverScreen, GameOverScreen

HUMAN = "human"
Action = Any


def _decide(agent: Any, game: Any, rng: random.Random) -> tuple[Action | None, Exception | None]:
    """The agent's choice on ``game`` (a private copy; runs in a worker thread), or its error."""
    try:
        return agent.choose(game, rng), None
    except Exception as exc:  # noqa: BLE001 — reported on screen by the app
        return None, exc


def log_style(line: str) -> str:
    """How a log line is coloured: turn headers, the end, and losses stand out."""
    if line.startswith(("Turn ", "— ")):
        return "bold cyan"
    if line.startswith("Game over"):
        return "bold green"
    if any(word in line for word in ("Combat at", "destroyed", "conquers", "eliminated", "damage", "falls")):
        return "red"
    return ""


class GameApp(App[None]):
    """Play one game of ``entry``. ``seats[p]`` is ``"human"``, a difficulty level or an agent
    name of the game; ``think`` (seconds per decision) overrides the search budget of searching
    AIs; ``ai_delay`` (seconds) paces the computer's moves so a human can follow them;
    ``auto_pass`` lets a moment pass for a human when that is all they can do; ``confirm``
    asks before a choice the game calls irreversible (its ``words.irreversible``)."""

    CSS = """
    #left { width: 3fr; }
    #right { width: 2fr; }
    #tablebox { height: 2fr; border: round $primary; }
    #log { height: 1fr; border: round $primary; }
    #status { height: auto; padding: 0 1; background: $boost; }
    #actions-title { height: auto; padding: 0 1; background: $boost; }
    #filter { height: 3; }
    #actions { height: 1fr; }
    """
    # The boxes' titles, by selector.
    BORDER_TITLES: ClassVar[dict[str, str]] = {"#tablebox": "Table", "#log": "Log"}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", "cycle_kind", "Next action kind"),
        Binding("K", "cycle_kind(-1)", "Previous kind", show=False),
        Binding("slash", "focus_filter", "Filter"),
        Binding("escape", "clear_filter", "Clear filter"),
        Binding("ctrl+q", "quit", "Quit"),
    ]

    def __init__(self, entry: GameEntry[Any, Any], game: Any, seats: Sequence[str], ai_delay: float = 0.3,
                 auto_pass: bool = True, agent_seed: int = 0, think: float | None = None,
                 confirm: bool = True) -> None:
        super().__init__()
        self.confirm = confirm
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats for {game.players} players")
        self.entry = entry
        self.title = entry.title
        self.game = game
        self.seats = [s if s == HUMAN else s.lower() for s in seats]
        self.agents = {p: entry.ai.make_agent(s, think=think) for p, s in enumerate(self.seats) if s != HUMAN}
        self.rngs = {p: random.Random(f"tui:{agent_seed}:{p}") for p in self.agents}
        self.humans = [p for p, s in enumerate(self.seats) if s == HUMAN]
        self.hotseat = len(self.humans) >= 2
        self.ai_delay = ai_delay
        self.auto_pass = auto_pass
        # Who the screen shows; None while covered (hot-seat) or when only computers play.
        self.viewer: int | None = None if self.hotseat or not self.humans else self.humans[0]
        keys: list[int | None] = [None, *self.humans]
        self.narrators: dict[int | None, Narrator] = {k: entry.words.narrator(game, k, False) for k in keys}
        self.logs: dict[int | None, list[Text]] = {k: [] for k in keys}
        for k, n in self.narrators.items():
            self._add_lines(k, n.setup_lines(game))
        self.listed: list[Action] = []
        self.kind_filter: str | None = None
        self.text_filter = ""
        self.errors = 0
        self.history: list[tuple[int, Action]] = []  # (seat, action) of every accepted move
        self._ai_pending = False   # a computer move is scheduled or being thought about
        self._ai_jobs: dict[Worker[Any], tuple[int, int]] = {}   # worker -> (seat, moves made when asked)
        self.thinking: int | None = None   # the computer seat thinking right now
        self._covered_for: int | None = None
        self._over_shown = False
        self._shown_log: int | None | str = "unset"
        self._log_count = 0

    @property
    def kinds(self) -> list[str]:
        """How each seat is labelled on screen: you / human, or "AI · <level or agent>"."""
        return [("human" if self.hotseat else "you") if s == HUMAN else f"AI · {s}" for s in self.seats]

    # ------------------------------------------------------------------ what a game draws
    def table_widgets(self) -> Iterator[Widget]:
        """The widgets above the log (the game's table)."""
        with VerticalScroll(id="tablebox"):
            yield Static(id="table")

    def side_widgets(self) -> Iterator[Widget]:
        """The widgets above the actions."""
        yield Static(id="status")

    def refresh_table(self) -> None:
        """Draw the table and the status for the viewer."""
        table = self.entry.words.table
        lines = table(self.game, self.viewer) if table is not None else ["(this game draws no table: see the log)"]
        self._w("#table", Static).update(Text("\n".join(lines)))
        self._w("#status", Static).update(self.status_text())

    def status_text(self) -> Text:
        """Whose decision it is, and who sits where."""
        text = Text()
        p = self.game.to_move
        if p is not None:
            text.append(f"P{p} to decide", style=seat_style(p))
            text.append(f" ({self.kinds[p]})  ·  ")
        text.append("  ".join(f"P{q}: {k}" for q, k in enumerate(self.kinds)), style="dim")
        return text

    def describe(self, action: Action) -> str:
        """An action in words, for the viewer: when it is the viewer's own option, with what it
        costs (the game's ``words.option``)."""
        words = self.entry.words
        if words.option is not None and self.viewer is not None and self.viewer == self.game.to_move:
            return words.option(self.game, action, self.viewer)
        return words.describe(self.game, action, self.viewer)

    def on_highlight(self, action: Action) -> None:
        """An action was highlighted in the list (a game may point at where it happens)."""

    def summary(self) -> Text:
        """The game-over screen's text."""
        w = self.entry.rules.winner(self.game)
        text = Text("Game over\n\n", style="bold")
        if w is None or w == -1:
            text.append("A draw", style="bold")
        else:
            text.append(f"P{w} ({self.kinds[w]}) wins", style=seat_style(w))
        reason = self.entry.rules.end_reason(self.game)
        if reason:
            text.append(f" ({reason})")
        text.append("\n\nq: quit · Escape: look at the table", style="dim")
        return text

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="left"):
                yield from self.table_widgets()
                yield RichLog(id="log", wrap=True, markup=False, max_lines=2000)
            with Vertical(id="right"):
                yield from self.side_widgets()
                yield Static(id="actions-title")
                yield Input(placeholder="type to filter the actions ( / )", id="filter")
                yield OptionList(id="actions")
        yield Footer()

    def on_mount(self) -> None:
        for box, title in self.BORDER_TITLES.items():
            self._w(box).border_title = title
        self._after_change()

    # ------------------------------------------------------------------ state to screen
    def _w(self, selector: str, kind: type | None = None) -> Any:
        """A widget of the game screen, even while a cover or the end screen is on top."""
        main = self.screen_stack[0]
        return main.query_one(selector, kind) if kind is not None else main.query_one(selector)

    def _human_turn(self) -> bool:
        """The viewer is a human who must decide now."""
        p = self.game.to_move
        return p is not None and p == self.viewer and self.seats[p] == HUMAN

    def refresh_all(self) -> None:
        self.refresh_table()
        self._refresh_log()
        self._refresh_actions()

    def _refresh_log(self) -> None:
        log = self._w("#log", RichLog)
        if self._shown_log != self.viewer:
            log.clear()
            self._shown_log = self.viewer
            self._log_count = 0
        lines = self.logs[self.viewer]
        for line in lines[self._log_count:]:
            log.write(line)
        self._log_count = len(lines)

    def _add_lines(self, key: int | None, lines: Sequence[str]) -> None:
        for line in lines:
            self.logs[key].append(Text(line, style=log_style(line)))

    def _note(self, text: str, style: str = "yellow") -> None:
        """A line in the log of whoever is looking now."""
        self.logs[self.viewer].append(Text(text, style=style))

    def _refresh_actions(self) -> None:
        ol = self._w("#actions", OptionList)
        title = self._w("#actions-title", Static)
        ol.clear_options()
        self.listed = []
        if not self._human_turn():
            p = self.game.to_move
            if p is None:
                msg = "Game over"
            elif self.thinking == p:
                msg = f"P{p} ({self.kinds[p]}) is thinking…"
            else:
                msg = f"Waiting for P{p} ({self.kinds[p]})…"
            title.update(Text("Actions", style="bold"))
            ol.add_option(Option(Text(msg, style="dim"), disabled=True))
            return
        legal = self.game.legal_actions()
        kinds = list(dict.fromkeys(a[0] for a in legal))
        if self.kind_filter not in kinds:
            self.kind_filter = None
        words = [(a, self.describe(a)) for a in legal]
        if self.kind_filter is not None:
            words = [(a, w) for a, w in words if a[0] == self.kind_filter]
        if self.text_filter:
            needle = self.text_filter.lower()
            words = [(a, w) for a, w in words if needle in w.lower() or needle in a[0]]
        shown = Text("Actions ", style="bold")
        shown.append(f"({len(words)} of {len(legal)}) · kind: ")
        shown.append(self.kind_filter or "all", style="bold cyan")
        shown.append(" · k: next kind · Enter: play it", style="dim")
        title.update(shown)
        opts: list[Option | None] = []
        current = None
        for a, w in sorted(words, key=lambda aw: kinds.index(aw[0][0])):
            if a[0] != current and self.kind_filter is None and len(kinds) > 1:
                current = a[0]
                opts.append(Option(Text(f"— {current} —", style="bold dim"), disabled=True))
            self.listed.append(a)
            opts.append(Option(w, id=str(len(self.listed) - 1)))
        if not self.listed:
            opts.append(Option(Text("no action matches the filter", style="dim"), disabled=True))
        ol.add_options(opts)
        first = next((i for i, o in enumerate(opts) if o is not None and not o.disabled), None)
        if first is not None:
            ol.highlighted = first
        if not isinstance(self.focused, Input):
            ol.focus()

    # ------------------------------------------------------------------ playing
    def apply_action(self, action: Action, seat: int) -> bool:
        """Play ``action`` for ``seat`` on a copy, keeping the copy only if the engine accepts it;
        any engine error goes to the log instead of ending the app."""
        trial = self.game.clone()
        try:
            events = trial.apply(action, player=seat)
        except Exception as exc:  # noqa: BLE001 — the engine's word is shown, whatever went wrong
            self.errors += 1
            self._note(f"Engine error for P{seat}: {exc}", style="bold red")
            return False
        self.game = trial
        self.history.append((seat, action))
        for key, narrator in self.narrators.items():
            self._add_lines(key, narrator.step_lines(trial, action, events))
        return True

    def _after_change(self) -> None:
        """Bring the screen up to date and start whatever must happen next."""
        g = self.game
        p = g.to_move
        only = self._only_waiver()
        if (p is not None and self.seats[p] == HUMAN and self.auto_pass and only is not None
                and self.apply_action(only, p)):
            self.call_later(self._after_change)
            return
        if p is not None and self.seats[p] == HUMAN and p != self.viewer and self.hotseat:
            self._cover(p)
            return
        self.refresh_all()
        if g.over:
            self._show_game_over()
        elif p is not None and self.seats[p] != HUMAN:
            self._schedule_ai()

    def _only_waiver(self) -> Action | None:
        """The one legal action, when it only lets a moment pass."""
        legal = self.game.legal_actions()
        return legal[0] if len(legal) == 1 and self.entry.rules.waives(legal[0]) else None

    def _cover(self, seat: int) -> None:
        if self._covered_for == seat:
            return
        self.viewer = None
        self._covered_for = seat
        self.refresh_all()

        def uncover(_: None) -> None:
            self._covered_for = None
            self.viewer = seat
            self._after_change()

        self.push_screen(CoverScreen(seat), uncover)

    def _schedule_ai(self) -> None:
        if self._ai_pending:
            return
        self._ai_pending = True
        if self.ai_delay > 0:
            self.set_timer(self.ai_delay, self._ai_step)
        else:  # a zero-length timer is not allowed; the next idle moment will do
            self.call_later(self._ai_step)

    def _ai_step(self) -> None:
        """Start the computer's decision in a worker thread (on a copy of the game)."""
        g = self.game
        p = g.to_move
        if p is None or self.seats[p] == HUMAN:
            self._ai_pending = False
            return
        self.thinking = p
        worker = self.run_worker(partial(_decide, self.agents[p], g.clone(), self.rngs[p]), name=f"P{p} thinks",
                                 group="ai", thread=True, exit_on_error=False)
        self._ai_jobs[worker] = (p, len(self.history))
        self._refresh_actions()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        job = self._ai_jobs.get(event.worker)
        if job is None or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        del self._ai_jobs[event.worker]
        self._ai_pending = False
        self.thinking = None
        p, moves = job
        if event.state == WorkerState.CANCELLED or len(self.history) != moves or self.game.to_move != p:
            self._after_change()  # the game moved on meanwhile: this decision is void
            return
        result = event.worker.result if event.state == WorkerState.SUCCESS else None
        action, error = result if result is not None else (None, event.worker.error)
        self._ai_move(p, action, error)

    def _ai_move(self, p: int, action: Action | None, error: BaseException | None) -> None:
        """Play the computer's decision for seat ``p``; if it failed or is refused, its first legal
        action (a broken agent must not stop the game)."""
        g = self.game
        if action is None:
            self._note(f"P{p}'s agent failed ({error!r}); it plays its first legal action")
            action = g.legal_actions()[0]
        if not self.apply_action(action, p):
            fallback = g.legal_actions()[0]
            if fallback == action or not self.apply_action(fallback, p):
                self._note(f"P{p} cannot move; the game is stuck", style="bold red")
                self.refresh_all()
                return
        self._after_change()

    def _show_game_over(self) -> None:
        if self._over_shown:
            return
        self._over_shown = True
        self.push_screen(GameOverScreen(self.summary()))

    # ------------------------------------------------------------------ input
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is None or not self._human_turn():
            return
        action = self.listed[int(event.option.id)]
        seat, moves = self.viewer, len(self.history)
        assert seat is not None  # the viewer's own turn (_human_turn)
        hook = self.entry.words.irreversible
        reason = hook(self.game, action, seat) if hook is not None and self.confirm else None
        if not reason:
            self._play_chosen(action)
            return

        def answered(yes: bool | None) -> None:
            if yes and self.viewer == seat and len(self.history) == moves and self._human_turn():
                self._play_chosen(action)

        self.push_screen(ConfirmScreen(self.describe(action), reason), answered)

    def _play_chosen(self, action: Action) -> None:
        """Play the viewer's chosen ``action`` and go on."""
        if self.apply_action(action, self.viewer):  # type: ignore[arg-type]
            self.text_filter = ""
            self.kind_filter = None
            self._w("#filter", Input).value = ""
        self._after_change()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is None or not self.listed:
            return
        self.on_highlight(self.listed[int(event.option.id)])

    def on_input_changed(self, event: Input.Changed) -> None:
        self.text_filter = event.value.strip()
        self._refresh_actions()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._w("#actions", OptionList).focus()

    def action_cycle_kind(self, step: int = 1) -> None:
        if not self._human_turn():
            return
        kinds: list[str | None] = [None, *dict.fromkeys(a[0] for a in self.game.legal_actions())]
        i = kinds.index(self.kind_filter) if self.kind_filter in kinds else 0
        self.kind_filter = kinds[(i + step) % len(kinds)]
        self._refresh_actions()

    def action_focus_filter(self) -> None:
        self._w("#filter", Input).focus()

    def action_clear_filter(self) -> None:
        self.text_filter = ""
        self.kind_filter = None
        self._w("#filter", Input).value = ""
        self._w("#actions", OptionList).focus()
        self._refresh_actions()


__all__ = ["HUMAN", "GameApp", "log_style"]
