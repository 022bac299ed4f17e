"""A plain-text client for any registered game: log lines, numbered choices, one answer a line.

It knows a game only through the seam (:mod:`starcom.protocol`, :mod:`starcom.games`): the
entry's narrator and words put the game into words for the viewing seat (asking the game's
observer what that seat may see), its agents play the computer seats, and the game checks every
answer. The full-screen terminal game is :mod:`.game_app`.

What a player may type at the prompt (``help`` says it on screen):

- the **number** of a choice. A number keeps its meaning for as long as the decision lasts (the
  entry's ``words.decision`` says how long: a whole Command phase of Star Commander): an option
  that is no longer legal leaves a gap, and a new one gets the next free number, so an answer
  typed for the list before a move never lands on another option. A choice the game calls
  irreversible (``words.irreversible``: scrapping a vessel, ending a phase with actions unused)
  is played only after a ``y`` to a question, unless the client was started with ``confirm``
  off (``starcom play --text --yes``, for scripts);
- the choice in the game's **action notation** (what ``game.parse`` reads, e.g. ``develop c3``),
  which is played without a question: whoever typed it out meant it;
- a **command**: ``board`` (the table as the seat may see it), ``hand``, ``card NAME`` (a card's
  text from the game's glossary, with a suggestion for a misspelt name), ``list`` (the choices
  again), ``help``, ``quit``.
"""
from __future__ import annotations

import difflib
import random
import sys
import textwrap
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ..games import GameEntry, Narrator

HUMAN = "human"
WIDTH = 80   # lines are wrapped to fit a terminal of this many columns
LONG = 80    # a list of more choices shows this many, and says how to see the others
_KEEP = 16   # numberings of recent decisions kept (a decision may resume after a sub-decision)

COMMANDS = (
    ("board", "the table as you may see it (also: table)"),
    ("hand", "the cards in your hand, with their text"),
    ("card NAME", "a card's text (cards: every card's name)"),
    ("list", "the choices again; list all: every one; list WORD: those naming WORD"),
    ("help", "this help (also: ?)"),
    ("quit", "leave the game unfinished (also: exit)"),
)
_ALIASES = {"table": "board", "choices": "list", "options": "list", "?": "help", "exit": "quit",
            "cards": "card"}
_WORDS = {c.split()[0] for c, _ in COMMANDS}


def _wrap(text: str, indent: str = "", width: int = WIDTH) -> str:
    return textwrap.fill(text, width=width, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_on_hyphens=False) if text else indent


def _choice_line(number: int, words: str, notation: str) -> str:
    """``   7. P0 develops c3 (costs 2 credits; you have 3)  [develop c3]``: on one line if it
    fits, else the words wrapped and the notation, never broken, on a line of its own."""
    line = f"{number:>5}. {words}  [{notation}]"
    if len(line) <= WIDTH:
        return line + "\n"
    return (textwrap.fill(f"{number:>5}. {words}", width=WIDTH, subsequent_indent=" " * 7, break_on_hyphens=False)
            + f"\n{' ' * 7}[{notation}]\n")


def _lines(lines: Sequence[str]) -> str:
    """Lines of a game's table or hand, each too long for the screen wrapped under its own
    indentation (a little deeper), as one text."""
    out = []
    for line in lines:
        if len(line) <= WIDTH:
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip())]
        out.append(textwrap.fill(line.strip(), width=WIDTH, initial_indent=lead, subsequent_indent=lead + "    ",
                                 break_on_hyphens=False))
    return "".join(text + "\n" for text in out)


class Numbering:
    """The option numbers of one decision: each option, known by its notation, keeps the number
    it was first given while the decision lasts; a new option takes the next free number and
    the number of an option gone is never given to another."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self.words: dict[int, str] = {}   # number -> the option's words when it was last listed

    def assign(self, notations: Sequence[str]) -> list[int]:
        """The number of each option (in the order given), new ones numbered after the others."""
        out = []
        for text in notations:
            n = self.numbers.get(text)
            if n is None:
                n = self.numbers[text] = len(self.numbers) + 1
            out.append(n)
        return out


class TextTable:
    """The words of one human seat's prompt: the choices, numbered, and the commands."""

    def __init__(self, entry: GameEntry[Any, Any], ask: Callable[[str], str], write: Callable[[str], Any],
                 confirm: bool = True) -> None:
        self.entry, self.ask, self.write, self.confirm = entry, ask, write, confirm
        self.numberings: OrderedDict[Hashable, Numbering] = OrderedDict()
        self.greeted = False
        self._glossary: list[dict[str, Any]] | None = None

    # ------------------------------------------------------------------ numbers
    def decision_key(self, game: Any) -> Hashable:
        hook = self.entry.words.decision
        if hook is not None:
            return hook(game)
        turn = self.entry.rules.turn
        return game.to_move, (turn(game) if turn is not None else None)

    def numbering(self, game: Any) -> Numbering:
        """The numbering of the decision in front of the seat to move (kept for a few decisions,
        so a decision resumed after a question in its middle keeps its numbers)."""
        key = self.decision_key(game)
        found = self.numberings.pop(key, None) or Numbering()
        self.numberings[key] = found
        while len(self.numberings) > _KEEP:
            self.numberings.popitem(last=False)
        return found

    def option_words(self, game: Any, action: Any, seat: int) -> str:
        hook = self.entry.words.option
        return hook(game, action, seat) if hook is not None else self.entry.words.describe(game, action, seat)

    # ------------------------------------------------------------------ asking
    def choose(self, game: Any, seat: int) -> Any:
        """The legal action ``seat`` (the seat to move) picks: by number, by notation, after any
        commands it gives first."""
        actions = game.legal_actions()
        notations = [game.notation(a) for a in actions]
        numbering = self.numbering(game)
        numbers = dict(zip(numbering.assign(notations), range(len(actions))))
        for n, i in numbers.items():
            numbering.words[n] = self.option_words(game, actions[i], seat)
        if not self.greeted:
            self.greeted = True
            self.write("Answer with a choice's number or its notation (the text in brackets); "
                       "type help for the commands (board, hand, card NAME, ...).\n")
        self.show_choices(game, seat, numbers, numbering, notations)
        while True:
            answer = self.ask(f"P{seat}> ").strip()
            if not answer:
                continue
            if answer.isdigit():
                n = int(answer)
                if n in numbers:
                    action = actions[numbers[n]]
                    if self.confirmed(game, action, seat, f"{n}. {numbering.words[n]}"):
                        return action
                    continue
                if n in numbering.words:
                    self.write(f"{n} is no longer a choice (it was: {numbering.words[n]}); "
                               f"the choices now: {self.ranges(numbers)}\n")
                else:
                    self.write(f"there is no choice {n}: the choices now are {self.ranges(numbers)} "
                               "(list shows them)\n")
                continue
            if answer in notations:
                return actions[notations.index(answer)]
            word, _, rest = answer.partition(" ")
            command = _ALIASES.get(word.lower(), word.lower())
            if command in _WORDS and self.command(game, seat, command, rest.strip(), numbers, numbering,
                                                  notations):
                continue
            action = self.parsed(game, seat, answer, actions)
            if action is not None:
                return action

    def parsed(self, game: Any, seat: int, answer: str, actions: Sequence[Any]) -> Any:
        """The legal action ``answer`` names in the game's notation, or None (said why)."""
        try:
            action = game.parse(answer)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            self.write(f"{answer!r} is not one of the choices: give its number or its notation "
                       f"({getattr(exc, 'reason', exc)}); help lists the commands\n")
            return None
        for a in actions:
            if a == action:
                return a
        reason = ""
        try:
            game.clone().apply(action, player=seat)
        except ValueError as exc:  # IllegalAction is one; it names the rule
            reason = f": {getattr(exc, 'reason', exc)}"
        self.write(f"{answer!r} is not one of the choices{reason}\n")
        return None

    def confirmed(self, game: Any, action: Any, seat: int, label: str) -> bool:
        """Whether to play ``action``, picked by number: yes at once, unless the game calls it
        irreversible and confirmation is on; then the player answers y or n."""
        hook = self.entry.words.irreversible
        reason = hook(game, action, seat) if hook is not None and self.confirm else None
        if not reason:
            return True
        self.write(_wrap(f"{label}: {reason}") + "\n")
        while True:
            answer = self.ask("Play it? (y/n) ").strip().lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no", ""):
                self.write("Not played; choose again.\n")
                return False
            self.write("answer y (play it) or n (choose again)\n")

    # ------------------------------------------------------------------ showing
    @staticmethod
    def ranges(numbers: dict[int, int]) -> str:
        """The numbers ``numbers`` holds, as short ranges: ``1-5, 7, 9-12``."""
        out: list[str] = []
        run: list[int] = []
        for n in sorted(numbers):
            if run and n != run[-1] + 1:
                out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
                run = []
            run.append(n)
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        return ", ".join(out) or "none"

    def show_choices(self, game: Any, seat: int, numbers: dict[int, int], numbering: Numbering,
                     notations: Sequence[str], needle: str = "") -> None:
        """The status line, then the choices by number: those that mention ``needle`` when it is
        given ("all": every one), else every one up to :data:`LONG`, and a line on the rest."""
        status = self.entry.words.status
        if status is not None and not needle:
            self.write(_wrap(status(game, seat)) + "\n")
        shown = sorted(numbers)
        if needle and needle.lower() != "all":
            want = needle.lower()
            shown = [n for n in shown if want in numbering.words[n].lower() or want in notations[numbers[n]].lower()]
            if not shown:
                self.write(f"no choice mentions {needle!r}\n")
        rest = len(shown) - LONG if not needle and len(shown) > LONG else 0
        for n in shown[:len(shown) - rest]:
            self.write(_choice_line(n, numbering.words[n], notations[numbers[n]]))
        if rest:
            self.write(_wrap(f"  ... and {rest} more choices: list all shows every one, list WORD those that "
                             "mention WORD") + "\n")

    def command(self, game: Any, seat: int, command: str, arg: str, numbers: dict[int, int],
                numbering: Numbering, notations: Sequence[str]) -> bool:
        """Carry out ``command``; False when it is not one after all (the answer is then read as
        an action)."""
        words = self.entry.words
        if command == "help":
            self.write(self.help_text())
        elif command == "quit":
            raise EOFError("the player left")
        elif command == "list":
            self.show_choices(game, seat, numbers, numbering, notations, arg)
        elif command == "board":
            lines = words.table(game, seat) if words.table is not None else [
                "(this game draws no table: the log says what happened)"]
            self.write(_lines(lines))
        elif command == "hand":
            if words.hand is not None:
                lines = words.hand(game, seat)
            elif words.table is not None:
                lines = ["(this game shows hands on its table: type board)"]
            else:
                lines = ["(this game shows no hand)"]
            self.write(_lines(lines))
        elif command == "card":
            self.write(self.card_text(arg))
        else:
            return False
        return True

    def help_text(self) -> str:
        lines = ["Commands:"]
        lines += [f"  {c:<11}{h}" for c, h in COMMANDS]
        lines += [
            "To act, type a choice's number: numbers keep their meaning while a decision lasts",
            "(an option no longer possible leaves a gap; a new one gets a new number).",
            "Or type the choice's notation, the text in brackets after it (for example",
            "'end'); that works for every choice, listed or not, and asks nothing back.",
        ]
        if self.confirm and self.entry.words.irreversible is not None:
            lines.append("A choice that cannot be taken back, picked by number, asks y/n first.")
        return "".join(line + "\n" for line in lines)

    # ------------------------------------------------------------------ cards
    def glossary(self) -> list[dict[str, Any]]:
        if self._glossary is None:
            hook = self.entry.words.glossary
            seen: set[tuple[str, str]] = set()
            cards = []
            for c in hook() if hook is not None else []:
                key = (str(c.get("name", "")), str(c.get("text", "")))
                if key not in seen:
                    seen.add(key)
                    cards.append(c)
            self._glossary = cards
        return self._glossary

    def card_text(self, name: str) -> str:
        """The text of the card called ``name`` (any case; a unique start or part of a name will
        do), or what the glossary holds that comes close."""
        cards = self.glossary()
        if not cards:
            return "(this game has no card glossary)\n"
        names = list(dict.fromkeys(str(c["name"]) for c in cards))
        if not name:
            return _wrap("card NAME shows a card's text. Cards: " + ", ".join(names) + ".") + "\n"
        want = " ".join(name.lower().split())
        exact = [n for n in names if n.lower() == want]
        found = exact or [n for n in names if n.lower().startswith(want)] or [n for n in names if want in n.lower()]
        if len(found) > 1:
            return _wrap(f"several cards match {name!r}: {', '.join(found)}") + "\n"
        if not found:
            close = difflib.get_close_matches(want, [n.lower() for n in names], n=3, cutoff=0.6)
            lower = {n.lower(): n for n in names}
            hint = f"; did you mean {' or '.join(lower[c] for c in close)}?" if close else "; cards lists them all"
            return f"no card is called {name!r}{hint}\n"
        return "".join(_card_lines(c) for c in cards if c["name"] == found[0])


_SKIP = {"name", "text", "key", "id", "label", "editions"}


def _card_lines(card: dict[str, Any]) -> str:
    """A card of the glossary: its name and short facts on a line, its text under it."""
    facts = []
    for k, v in card.items():
        v = getattr(v, "value", v)  # enumerations read as their value
        if k in _SKIP or v is None or v is False or v == 0 or v == "" or v == "none" or isinstance(v, (dict, list)):
            continue
        facts.append(k.replace("_", " ") if v is True else str(v) if k in ("kind", "domain", "class", "empire", "size")
                     else f"{k.replace('_', ' ')} {v}")
    head = f"{card['name']}" + (f" ({', '.join(facts)})" if facts else "")
    return _wrap(head) + "\n" + _wrap(str(card.get("text", "")), "  ") + "\n"


def play_text(entry: GameEntry[Any, Any], game: Any, seats: Sequence[str], agent_seed: int = 0,
              ask: Callable[[str], str] = input, write: Callable[[str], Any] | None = None,
              confirm: bool = True) -> Any:
    """Play ``game`` (changed in place) to its end and return it. ``seats[p]`` is ``"human"``
    or an agent or level name of ``entry``. A human sees the log as their seat may know it
    (with several humans, each sees their own log when it is their turn) and answers with the
    number of a choice, its notation or a command (see the module's docstring); anything else
    is refused and asked again. ``confirm``: ask before a choice the game calls irreversible,
    picked by number. ``write`` takes text with its own line ends (default: standard output, as
    it is at the call). EOFError when the player quits or the input ends."""
    if write is None:
        write = sys.stdout.write
    if len(seats) != game.players:
        raise ValueError(f"give one seat kind for each of the {game.players} players, not {len(seats)}")
    agents = {p: entry.ai.make_agent(k) for p, k in enumerate(seats) if k != HUMAN}
    rngs = {p: random.Random(f"text:{agent_seed}:{p}") for p in agents}
    humans = [p for p, k in enumerate(seats) if k == HUMAN]
    viewers: list[int | None] = list(humans) if humans else [None]
    narrators: dict[int | None, Narrator] = {v: entry.words.narrator(game, v, False) for v in viewers}
    unread: dict[int | None, list[str]] = {v: narrators[v].setup_lines(game) for v in viewers}
    table = TextTable(entry, ask, write, confirm)

    def show(viewer: int | None) -> None:
        for line in unread[viewer]:
            write(line + "\n")
        unread[viewer] = []

    while not game.over:
        p = game.to_move
        if p in agents:
            action = agents[p].choose(game, rngs[p])
        else:
            show(p)
            action = table.choose(game, p)
        events = game.apply(action, player=p)
        for v in viewers:
            unread[v] += narrators[v].step_lines(game, action, events)
        if len(viewers) == 1:
            show(viewers[0])
    for v in viewers[:1]:
        show(v)
    return game


__all__ = ["COMMANDS", "HUMAN", "LONG", "Numbering", "TextTable", "play_text"]
