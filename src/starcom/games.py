"""Games by name: the registry every client finds a game in.

>>> import starcom
>>> g = starcom.load_game("starcom", players=2, size=3, seed=1)
>>> starcom.list_games()
['ge', 'starcom']

Games are plug-ins: an installed package declares its :class:`GameEntry` under the entry-point
group ``starcom.games`` (starcom's own two in its ``pyproject.toml``), and the registry loads
them the first time a client asks.

A :class:`GameEntry` is all a client needs of one kind of game besides the :class:`~.protocol.Game`
protocol itself: how to make one from its settings, its observer (every secrecy decision), its
computer players, how its actions travel as JSON and how its events read as English. Another
game plugs in by calling :func:`register` with its own entry (the test suite registers a small
card game this way).
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from .observer import Observer
from .protocol import Agent, Game, Viewer

if TYPE_CHECKING:
    from .study.hook import CardStudy

G = TypeVar("G")
A = TypeVar("A")


class Narrator(Protocol):
    """Turns one viewer's share of a game's events into log lines, step by step."""

    def setup_lines(self, game: Any) -> list[str]:
        """Lines for a new game's own events."""
        ...

    def step_lines(self, after: Any, action: Any, events: Sequence[Any], before: Any = None) -> list[str]:
        """Lines for one step: ``action`` caused ``events``; ``after`` is the game afterwards."""
        ...


class AgentFactory(Protocol):
    def __call__(self, name: str, *, think: float | None = None, iterations: int | None = None) -> Agent:
        ...


class Features(Protocol):
    """A fixed-size encoding of one game setting for learning agents (starcom.rl)."""

    observation_size: int
    action_count: int

    def observe(self, game: Any, seat: int) -> Any:
        """What ``seat`` sees, as a flat float vector of ``observation_size``."""
        ...

    def action_ids(self, game: Any, actions: Sequence[Any]) -> list[int]:
        """The id in ``[0, action_count)`` of each of ``actions``."""
        ...

    def action_label(self, action_id: int) -> str:
        """A few words for an action id."""
        ...


StateCheck = Callable[[Any], list[str]]
StepCheck = Callable[[Any, Any, Any], list[str]]


class Runnable(Protocol):
    """A full-screen program: ``run()`` shows it until the player quits."""

    def run(self) -> object:
        ...


class TerminalApp(Protocol):
    """Makes the full-screen terminal game of a game of ``entry`` (``starcom play``): ``seats[p]``
    is ``"human"`` or an AI name of the game; the arguments are those of
    :class:`starcom.tui.game_app.GameApp`, which is one (``confirm``: ask before a choice the
    game calls irreversible)."""

    def __call__(self, entry: GameEntry[Any, Any], game: Any, seats: Sequence[str], *, ai_delay: float,
                 auto_pass: bool, agent_seed: int, think: float | None, confirm: bool = True) -> Runnable:
        ...



@dataclass(frozen=True)
class Rules(Generic[G, A]):
    """How a game is made and played: the facet every client uses.

    ``new(**settings)`` makes a game (ValueError names a bad setting); ``settings`` lists the
    setting names it takes, ``editions`` (default first), ``player_counts`` and ``sizes`` the
    values a form offers (empty: the game has no such setting). ``encode`` turns an action into
    JSON and ``decode(game, data, seat)`` back into a legal action of ``seat`` (a ValueError
    subclass, such as IllegalAction, names the reason). ``play`` plays an action known legal
    (a faster path than ``apply`` where a game has one)."""

    new: Callable[..., G]
    settings: tuple[str, ...]
    encode: Callable[[A], Any]
    decode: Callable[[G, Any, int | None], A]
    play: Callable[[G, A], list[Any]] = field(default=lambda g, a: g.apply(a))
    # The game's turn counter from 0, for statistics and to catch agents stuck in a loop
    # (None: the game has no turns; statistics count actions instead).
    turn: Callable[[G], int] | None = None
    # The winning seat, -1 for a draw, None while the game runs (default: from ``returns``).
    winner: Callable[[G], int | None] = field(default=lambda g: winner_of(g))
    # Why a finished game ended, in a few words (None while it runs, or when the game cannot say).
    end_reason: Callable[[G], str | None] = field(default=lambda g: None)
    # The action the seat to move takes when it lets a moment pass (a reaction window), or None
    # when the decision is a real one; look-ahead plays these for the other seats.
    passive: Callable[[G], A | None] | None = None
    # Whether an action only lets a moment pass (a pass in a reaction window): a server may make
    # it for a seat that asked not to be stopped when passing is all it can do.
    waives: Callable[[A], bool] = field(default=lambda a: False)
    # The action that lets a decision with nothing worth doing go by (a phase where only
    # optional clean-up is left: ending it), or None when the decision is a real one: a server
    # makes it for a seat that asked for that. None: the game has no such decisions.
    idle: Callable[[G], A | None] | None = None
    editions: tuple[str, ...] = ()
    player_counts: tuple[int, ...] = (2,)
    sizes: tuple[int, ...] = ()
    # -- platform-sim: how saved games (starcom.sim.record) hold the settings
    # ``store_settings(settings)``: the fields of a saved game that hold them (its "config" and any
    # other the game keeps beside it; a "game" field names the game). None: ``{"game": name,
    # "config": settings}``.
    store_settings: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    # ``load_settings(record)``: the settings back from a whole saved game (ValueError says what is
    # wrong with them). None: its "config", checked against ``settings``, ``editions`` and
    # ``player_counts``, in a record with no field beyond the format's own.
    load_settings: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None

    def defaults(self) -> dict[str, Any]:
        """The settings a new game has where a form, a command or a spec names none: the first
        of ``player_counts``, ``sizes`` and ``editions``, each only where the game has that
        setting (so the game says its defaults by the order it lists them in)."""
        out: dict[str, Any] = {}
        for key, values in (("players", self.player_counts), ("size", self.sizes), ("edition", self.editions)):
            if values and key in self.settings:
                out[key] = values[0]
        return out


@dataclass(frozen=True)
class Words(Generic[G, A]):
    """How a game reads as English, each part asking the observer what a viewer may know.

    ``narrator(game, viewer, reveal_all)`` follows a game's events step by step;
    ``describe(game, action, viewer)`` names one action."""

    narrator: Callable[[G, Viewer, bool], Narrator]
    describe: Callable[[G, A, Viewer], str]
    # Every card of the game as the browser's glossary lists it (JSON-ready dicts, each with at
    # least ``name`` and ``text``). None: the game has no glossary.
    glossary: Callable[[], list[dict[str, Any]]] | None = None
    # The table as ``table(game, viewer)`` lines of text, drawn from the observer's view of
    # ``viewer`` (the full-screen terminal game shows them). None: that screen shows the log alone.
    table: Callable[[G, Viewer], list[str]] | None = None
    # What a turn limit counts, in a few words for a form's hint ("" when the game takes none).
    turn_limit_words: str = ""
    # --- platform-clients: the terminal commands' logs and screen (starcom demo, replay, play) ---
    # A narrator that also tells phases, passes and other detail (``--verbose``), called as
    # ``narrator`` is. None: the narrator tells all there is.
    detailed_narrator: Callable[[G, Viewer, bool], Narrator] | None = None
    # Settings (as ``new`` takes them) in words for a log's heading: the first item a phrase
    # ("2 players on 3x3, standard edition"), any others notes a reader needs before the log, a
    # line each. The seed and the turn limit are left out: the caller adds what it may show.
    # None: the settings as "name value" pairs.
    setup_words: Callable[[Mapping[str, Any]], list[str]] | None = None
    # The settings of ``game``, made with ``config``, that a seat or a spectator may see in a log.
    # None: all but the seed (it could give hidden cards away).
    public_settings: Callable[[G, Mapping[str, Any]], dict[str, Any]] | None = None
    # The position at a glance, one row per seat (column -> text, the same columns for every
    # seat), for the table that ends ``starcom demo``. None: the table shows each seat's result.
    standings: Callable[[G], list[dict[str, str]]] | None = None
    # The full-screen terminal game, drawing the game its own way (a GameApp subclass). None: the
    # shared starcom.tui.game_app.GameApp, which draws ``table``.
    terminal_app: TerminalApp | None = None
    # web-hooks
    # ``guide(game, seat)``: what the decision in front of ``seat`` (the seat to move) asks of it,
    # a sentence or two for a newcomer (the browser's guided mode); None when there is nothing
    # to explain. None: the game has no guide.
    guide: Callable[[G, int], str | None] | None = None
    # One line under the game's title on the lobby page ("" for none).
    tagline: str = ""
    # --- platform-clients: the terminal games' choices (starcom play, --text above all) ---
    # ``option(game, action, seat)``: one option of the decision in front of ``seat`` in words, with
    # what it costs or brings in where it does ("Develop c3 (costs 2 credits)"). None: ``describe``.
    option: Callable[[G, A, int], str] | None = None
    # ``hand(game, viewer)``: the cards in the viewer's hand, one a line with its text, as the
    # observer lets ``viewer`` see them. None: the game shows hands in its ``table`` alone.
    hand: Callable[[G, Viewer], list[str]] | None = None
    # ``status(game, seat)``: one line on where ``seat`` stands as it decides (the phase, its
    # credits or points, its hand size), shown above its choices. None: no such line.
    status: Callable[[G, int], str] | None = None
    # ``irreversible(game, action, seat)``: why ``action`` (legal for ``seat``, the seat to move)
    # deserves a second look before it is played: it gives up something for good, such as a
    # vessel scrapped or a phase ended with actions left unused; None for an ordinary action. A
    # client asks the player to confirm such a choice picked by its number. None: never asks.
    irreversible: Callable[[G, A, int], str | None] | None = None
    # ``decision(game)``: a value that stays equal for as long as the decision in front of the
    # seat to move lasts (one Command phase of many actions is one decision) and changes when
    # another begins: the plain-text game keeps each option's number for that long. None: the
    # seat to move and ``rules.turn``.
    decision: Callable[[G], Hashable] | None = None


@dataclass(frozen=True)
class Players(Generic[G]):
    """The game's computer players: ``agent_names()`` are what ``make_agent`` accepts
    (ValueError for others), ``levels`` the difficulty levels among them and
    ``default_level`` the one offered first."""

    make_agent: AgentFactory
    agent_names: Callable[[], list[str]]
    levels: tuple[str, ...]
    default_level: str
    # How good a position is for a seat (larger is better): what the shared agents of
    # starcom.agents.generic judge by. None: the game brings its own agents.
    evaluate: Callable[[G, int], float] | None = None
    # ``win_chance(game, seat, rng)``: the estimated chance, from 0 to 1, that ``seat`` goes on
    # to win from ``game`` (a position made from what the seat sees: a determinization); the
    # Hint button shows it beside the search's advice. None: hints give no chance.
    win_chance: Callable[[G, int, Any], float] | None = None


@dataclass(frozen=True)
class Tools(Generic[G]):
    """What the study and testing tools use; each None where the game has none."""

    # The fixed-size encoding for learning agents (starcom.rl), shared by every game of the
    # setting of the game it is given.
    features: Callable[[G], Features] | None = None
    # Self-play's checks after every action: ``invariants()`` gives ``(check_state(game),
    # check_step(before, action, after))``, each returning messages.
    invariants: Callable[[], tuple[StateCheck, StepCheck]] | None = None
    # The balance lab's side of the game (``starcom study cards --game NAME``): a
    # starcom.study.hook.CardStudy.
    study: Callable[[], CardStudy] | None = None
    # -- platform-sim: self-play's report and the speed benchmarks
    # ``ending(game)``: how a finished game ended, in the word self-play counts it under (a game it
    # stops unfinished counts as "action_cap"). None: ``rules.end_reason``, else "draw" or "win".
    ending: Callable[[G], str] | None = None
    # ``ending_figures(endings, games)``: the figures self-play's summary gives for the count of
    # each ending over ``games`` games. None: ``{"endings": endings}``.
    ending_figures: Callable[[Mapping[str, int], int], dict[str, Any]] | None = None
    # The setups the speed benchmarks (starcom.sim.bench, starcom.rl.bench) measure, each a short
    # label and the settings it takes besides the seed (and a turn limit the bench sets). Empty:
    # one per edition, else the game's defaults.
    bench_setups: tuple[tuple[str, Mapping[str, Any]], ...] = ()
    # --- platform-clients ---
    # Runs one rule scenario (docs/scenarios.md: a mapping read from a scenario file, whose
    # ``game`` names this game) and returns what failed, empty when it passed (``starcom scenario``).
    scenario: Callable[[Mapping[str, Any]], list[str]] | None = None


@dataclass(frozen=True)
class WebAssets:
    """A game's own files for the browser, all in ``directory`` (served under
    ``/static/games/<game name>/``). ``scripts`` and ``styles`` are file names in that
    directory, in the order the game and replay pages load them; the scripts register the
    game's table drawing as ``GAME_TABLES[<game name>]`` (``web/static/tables.js`` says what a
    table holds)."""

    directory: Path
    scripts: tuple[str, ...] = ()
    styles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Serving(Generic[G]):
    """How the game server plays the game."""

    # ``adapter(entry)`` gives a starcom.server.adapter.EntryAdapter (or subclass) serving
    # ``entry``, made once per server process. None: the plain EntryAdapter serves it.
    adapter: Callable[[GameEntry[Any, Any]], Any] | None = None
    # --- platform-clients: the game's pages, as files among its browser files (``web``'s
    # directory; None: none). Served at /help/NAME and /cards/NAME, and the server's own game's
    # also at /help and /cards; what they load is served with the game's other browser files,
    # under /static/games/NAME/.
    help_page: str | None = None   # how to play
    cards_page: str | None = None  # the card glossary
    # web-hooks
    # The game's table drawing for the browser (its scripts and styles). None: the pages show
    # the orders as a plain list of buttons, and the log.
    web: WebAssets | None = None
    # ``turn_limit_in(config)``: the turn limit a stored or saved config holds somewhere other than
    # its ``turn_limit`` field, with the words that name where (``(900, "config option 'cap'")``),
    # or None when it holds none there. Read, as found (any type), before a saved game is replayed,
    # so the server can refuse a file asking for a longer game than it plays
    # (starcom.server.limits.import_limits). None: ``turn_limit`` is the only place.
    turn_limit_in: Callable[[Mapping[str, Any]], tuple[object, str] | None] | None = None


@dataclass(frozen=True)
class GameEntry(Generic[G, A]):
    """One game as its clients see it: its name and title, its observer (every secrecy
    decision), and one facet per concern: :class:`Rules`, :class:`Words`, :class:`Players`,
    :class:`Tools` and :class:`Serving`. ``G`` is the game's position type, ``A`` its action."""

    name: str
    title: str
    observer: Observer
    rules: Rules[G, A]
    words: Words[G, A]
    ai: Players[G]
    tools: Tools[G] = field(default_factory=Tools)
    serving: Serving[G] = field(default_factory=Serving)


def winner_of(game: Game) -> int | None:
    """The winning seat by :meth:`~.protocol.Game.returns` (the one seat with the highest
    positive return), -1 for a draw (no such seat), None while the game runs."""
    if not game.over:
        return None
    ret = game.returns()
    best = max(ret, default=0.0)
    top = [p for p, r in enumerate(ret) if r == best]
    return top[0] if best > 0 and len(top) == 1 else -1


# Saved games and stored configs written before the platform held a second game carry no "game"
# key: they are all games of this name. A fact of the file formats, not a preference.
LEGACY_GAME = "starcom"

ENTRY_POINT_GROUP = "starcom.games"  # where installed packages declare their games

_REGISTRY: dict[str, GameEntry[Any, Any]] = {}
_BROKEN: dict[str, str] = {}  # plug-ins that failed to load: entry-point name -> why
_discovered = False


def discover() -> None:
    """Register every game installed under the ``starcom.games`` entry-point group (once per
    process; :func:`get` and :func:`list_games` call it). Each entry point names a
    :class:`GameEntry`; one that fails to load is left out, and :func:`get` says why."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        try:
            entry = point.load()
            if not isinstance(entry, GameEntry):
                raise TypeError(f"{point.value} is a {type(entry).__name__}, not a GameEntry")
            register(entry, replace=True)
        except Exception as exc:  # a broken plug-in must not take the other games down
            _BROKEN[point.name] = f"{type(exc).__name__}: {exc}"


def register(entry: GameEntry[Any, Any], replace: bool = False) -> GameEntry[Any, Any]:
    """Add ``entry`` under its name; ValueError if the name is taken (unless ``replace``)."""
    if not replace and entry.name in _REGISTRY and _REGISTRY[entry.name] is not entry:
        raise ValueError(f"a game named {entry.name!r} is registered already")
    _REGISTRY[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Remove the game ``name`` (tests that registered one clean up with this)."""
    _REGISTRY.pop(name, None)


def list_games() -> list[str]:
    """The names of every registered game, sorted."""
    discover()
    return sorted(_REGISTRY)


def get(name: str) -> GameEntry[Any, Any]:
    """The entry of game ``name``; ValueError lists the known games (and names a plug-in of
    that name that failed to load)."""
    discover()
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        if isinstance(name, str) and name in _BROKEN:
            raise ValueError(f"the game {name!r} is installed but failed to load: {_BROKEN[name]}") from None
        raise ValueError(f"unknown game {name!r}: choose one of {', '.join(list_games())}") from None


def default_game() -> str:
    """The game a command or form offers when none is named: the one whose files carry no
    name (:data:`LEGACY_GAME`) when installed, else the first registered."""
    names = list_games()
    if not names:
        raise ValueError(f"no game is installed: none is registered under the {ENTRY_POINT_GROUP!r} entry points")
    return LEGACY_GAME if LEGACY_GAME in names else names[0]


def load_game(name: str, **settings: Any) -> Game:
    """A new game of kind ``name`` with ``settings`` (the names its entry's ``rules.settings``
    lists). ValueError names an unknown game or setting."""
    entry = get(name)
    unknown = sorted(set(settings) - set(entry.rules.settings))
    if unknown:
        raise ValueError(f"{name} takes no setting {', '.join(map(repr, unknown))}; "
                         f"it takes {', '.join(entry.rules.settings)}")
    game: Game = entry.rules.new(**settings)
    return game


__all__ = ["ENTRY_POINT_GROUP", "LEGACY_GAME", "Features", "GameEntry", "Narrator", "Players", "Rules", "Runnable",
           "Serving", "TerminalApp", "Tools", "WebAssets", "Words", "default_game", "discover", "get",
           "list_games", "load_game", "register", "unregister", "winner_of"]
