"""A Galactic Empires game behind starcom's :class:`~starcom.protocol.Game` protocol.

Actions are tuples ``(kind, *args)`` of strings and integers: card arguments are uids, a Sector
HQ or a fleet is ``-1 - seat``. Each kind has a type (:mod:`.moves`) whose values equal the
plain tuples; the legal-action lists hold plain tuples (cheaper to make), and what comes in
through :meth:`~GalacticEmpires.parse`, :meth:`~GalacticEmpires.apply` or the JSON form (the
list) is typed once it fits a kind. Each action has one text form (``play doctor#12 moon#3``,
``aim hq:1``) that :meth:`GalacticEmpires.parse` reads back. What each kind does, and why one
is refused, is in :mod:`.actions`.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Self

from ..errors import IllegalAction  # one refusal type for both games (.reason, .rule)
from ..kit.codec import Notation, Show
from ..kit.rng import Mersenne, RandomSource
from . import actions, board, chain, combat, plays, points, turn
from .cards import BY_KEY, CARDS, EMPIRES, KREBIZ_PAIRS, deck_list
from .cards.base import Effect
from .moves import MOVES, Move, value_roles
from .moves import cards_played as _cards_played
from .ruleset import Ruleset, standard
from .state import ALLOCATE, EDITIONS, FIRE, OVER, PLAY_A, PLAY_B, PLAYS_PER_TURN, SETUP, Options, Player, State

Action = tuple[Any, ...]  # a plain or a typed (moves.Move) action


class GalacticEmpires:
    """One two-player game, Argonian against Krebiz (Basic Deck A)."""

    players = 2

    def __init__(self, state: State) -> None:
        self.s = state

    def __reduce__(self) -> tuple[Any, ...]:
        # (Written out: a compiled class with a required argument does not pickle by itself.)
        return (type(self), (self.s,))

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, edition: str = "full", seed: int = 0, empires: tuple[str, str] = ("argonian", "krebiz"),
            options: dict[str, Any] | None = None, blank: Iterable[tuple[int, str]] = (),
            rules: Ruleset | None = None) -> GalacticEmpires:
        """A game before the reserve fleets are chosen (ValueError names a bad setting).

        ``blank``: ``(seat, card key)`` pairs, a balance study's deck variant: every copy of that
        card in that seat's deck is dealt as a blank, which may be discarded from the hand but
        never played or swapped. The decks, their order and the card ids stay as they are, so
        the same seed deals the same cards (docs/study.md). ``rules``: the ruleset to play with
        (default: the standard one; a tune's, :func:`.ruleset.tuned`, changes cards' numbers)."""
        if edition not in EDITIONS:
            raise ValueError(f"edition must be one of {', '.join(EDITIONS)}, not {edition!r}")
        if sorted(empires) != sorted(EMPIRES):
            raise ValueError(f"empires must be {' and '.join(EMPIRES)} in some order, not {empires!r}")
        if type(seed) is not int:
            raise ValueError(f"seed must be an integer, not {seed!r}")
        try:
            opts = Options(**(options or {}))
        except TypeError as exc:
            raise ValueError(f"unknown option: {exc}") from None
        if opts.turn_cap is not None and (type(opts.turn_cap) is not int or not 1 <= opts.turn_cap <= 1000):
            raise ValueError(f"turn_cap must be an integer from 1 to 1000, not {opts.turn_cap!r}")
        owner_of: list[int] = []
        spec_of: list[int] = []
        players = []
        for seat, empire in enumerate(empires):
            p = Player(empire)
            for card in deck_list(empire):
                p.deck.append(len(spec_of))
                owner_of.append(seat)
                spec_of.append(card.index)
            if opts.prepaired and empire == "krebiz":
                _set_pairs_aside(p, spec_of)
            players.append(p)
        state = State(edition, opts, seed, owner_of, spec_of, players, Mersenne(seed), rules or standard())
        state.blank = _blanks(owner_of, spec_of, blank)
        return cls(state)

    # ------------------------------------------------------------------ the protocol
    @property
    def to_move(self) -> int | None:
        s = self.s
        if s.phase == OVER:
            return None
        return s.priority if s.priority is not None else s.active

    @property
    def over(self) -> bool:
        return self.s.phase == OVER

    @property
    def winner(self) -> int | None:
        return self.s.winner if self.over else None

    def returns(self) -> list[float]:
        w = self.winner
        if w is None or w < 0:
            return [0.0, 0.0]
        return [1.0 if seat == w else -1.0 for seat in range(2)]

    def legal_actions(self) -> list[Action]:
        s = self.s
        if s.phase == OVER:
            return []
        if s.priority is not None:
            acts = chain.reactions(s, s.priority) + [("pass",), ("quiet",)]
            return _without_blanks(s, acts) if s.blank else acts
        if s.phase == SETUP:
            return [("reserve", *keys) for keys in turn.reserve_options(s, s.active)]
        if s.phase == ALLOCATE:
            return points.actions(s)
        if s.phase in (PLAY_A, PLAY_B):
            acts = _paired_plays(s, s.active, plays.plays(s, s.active)) + plays.uses(s, s.active) + [("end",)]
            return _without_blanks(s, acts) if s.blank else acts
        if s.phase == FIRE:
            if s.aim is None:
                return [("aim", t) for t in combat.aims(s, s.active)] + [("end",)]
            adds: list[Action] = [("add", uid, kind) for uid, kind in combat.additions(s, s.active)]
            return adds + ([("fire",)] if s.aim_weapons else [])
        return plays.discards(s, s.active) + [("end",)]

    def apply(self, action: Any, player: int | None = None) -> list[Any]:
        """Play ``action`` for the seat to move; IllegalAction (the game unchanged) if it is not
        legal now, or if ``player`` is given and is not the seat to move."""
        act = _as_action(action)
        if player is not None and player != self.to_move:
            raise IllegalAction(f"GE-DIG-1: it is seat {self.to_move}'s decision, not seat {player}'s", act)
        if act not in self.legal_actions():
            raise IllegalAction(self._why_not(act), act)
        return self.apply_unchecked(act)

    def apply_unchecked(self, act: Action) -> list[Any]:
        """Play ``act``, known legal (the fast path of self-play and search); its events."""
        s = self.s
        s.log = []
        s.actions += 1
        seat = self.to_move
        assert seat is not None
        actions.do(s, seat, act)
        if s.winner is not None and s.phase != OVER:
            turn.finish(s)
        events, s.log = s.log, []
        return events

    def _why_not(self, act: Action) -> str:
        """The reason ``act`` is not legal now, with the rule ID where a rule forbids it."""
        return actions.why_not(self.s, self.to_move, act)

    # ------------------------------------------------------------------ copies and secrecy
    def clone(self) -> Self:
        return type(self)(self.s.clone())

    def determinize(self, player: int, rng: RandomSource) -> Self:
        """A position ``player`` cannot tell from this one: the other hand (but the cards known
        to be in it, ``Player.shown``), both decks' order and a reserve not yet revealed are
        redrawn."""
        g = self.clone()
        s = g.s
        for seat, p in enumerate(s.players):
            if seat == player:
                rng.shuffle(p.deck)
                continue
            hidden_hand = [u for u in p.hand if u not in p.shown]
            hidden_reserve = [] if p.reserve_public else list(p.reserve)
            pool = sorted(hidden_hand + p.deck + hidden_reserve)
            rng.shuffle(pool)
            n_hand, n_res = len(hidden_hand), len(hidden_reserve)
            # sorted: where a known card lies in the hand would tell when it was drawn
            p.hand = sorted(u for u in p.hand if u in p.shown) + pool[:n_hand]
            if not p.reserve_public:
                p.reserve = pool[n_hand:n_hand + n_res]
            p.deck = pool[n_hand + n_res:]
        s.rng = Mersenne(rng.getrandbits(64))
        s.seed = 0  # the real seed fixes every shuffle: a copy for a seat must not carry it
        return g

    def view(self, player: int | None) -> dict[str, Any]:
        from .observer import view
        return view(self, player)

    # ------------------------------------------------------------------ notation and files
    def notation(self, action: Any) -> str:
        """``action`` as one line of words: the kind, then a word per value: a card as its
        catalogue key and uid (``moon#12``), a fleet or Sector HQ as ``fleet:1``/``hq:1``, a
        number (a count, a bitmask, a damage share: :func:`.moves.value_roles`) as itself,
        any other word as it is."""
        act = _as_action(action)
        roles = value_roles(act)
        return self._words(lambda kind, i, arg: self.word(arg, roles.get(i + 1, "card"))).write(act)

    def _words(self, show: Show | None = None) -> Notation[Move]:
        """The notation of this game's actions (``show`` words a value; :meth:`parse` needs
        none: every word reads back by its form)."""
        return Notation(MOVES, show or (lambda kind, i, arg: self.word(arg)), lambda kind, i, word: self._read(word))

    def word(self, arg: Any, role: str = "card") -> str:
        """One value of an action in the notation: ``role`` is "card" (an int names a card, or
        a fleet when negative), "hq" (a card, or a Sector HQ when negative) or "number"."""
        if type(arg) is not int or role == "number":
            return str(arg)
        if arg < 0:
            return f"hq:{-1 - arg}" if role == "hq" else f"fleet:{-1 - arg}"
        if arg < len(self.s.spec_of):
            return f"{CARDS[self.s.spec_of[arg]].key}#{arg}"
        return str(arg)

    def parse(self, text: str) -> Action:
        """The action :meth:`notation` writes as ``text`` (typed if it fits a kind; a text that
        does not is refused when played, with its reason); IllegalAction for a word that names
        no card or seat of this game."""
        if not isinstance(text, str) or not text.strip():
            raise IllegalAction("GE-DIG-1: an action needs at least a word")
        return self._words().read(text)

    def _read(self, word: str) -> Any:
        if word.startswith(("hq:", "fleet:")):
            seat = word.split(":", 1)[1]
            if seat not in ("0", "1"):
                raise IllegalAction(f"GE-DIG-1: no seat {seat!r} (seats are 0 and 1)")
            return -1 - int(seat)
        if "#" in word:
            key, _, num = word.partition("#")
            if not num.isdigit() or int(num) >= len(self.s.spec_of):
                raise IllegalAction(f"GE-DIG-1: no card {word!r} in this game")
            uid = int(num)
            if key and CARDS[self.s.spec_of[uid]].key != key:
                raise IllegalAction(f"GE-DIG-1: card #{uid} is {CARDS[self.s.spec_of[uid]].key}, not {key}")
            return uid
        if word.lstrip("-").isdigit() and len(word) < 12:
            return int(word)
        return word

    def to_json(self) -> dict[str, Any]:
        return {"game": "ge", "state": self.s.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        try:
            if data.get("game") != "ge":
                raise ValueError("not a Galactic Empires position")
            return cls(State.from_json(data["state"], standard()))
        except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
            raise ValueError(f"not a valid Galactic Empires save: {exc}") from None

    @property
    def turn(self) -> int:
        """Rounds begun, from 0 (the first player's turns)."""
        return max(0, self.s.players[self.s.first].turns - 1)


def _set_pairs_aside(p: Player, spec_of: list[int]) -> None:
    """GE-OPT-4: each listed cruiser stays in the deck and its capsule waits beside the reserve
    fleet, to enter play with it."""
    taken: set[int] = set()
    for cruiser_key, capsule_key in KREBIZ_PAIRS:
        cruiser = next(u for u in p.deck if CARDS[spec_of[u]].key == cruiser_key and u not in taken)
        capsule = next(u for u in p.deck if CARDS[spec_of[u]].key == capsule_key)
        taken.add(cruiser)
        p.deck.remove(capsule)
        p.aside.append(capsule)
        p.pairs.append([cruiser, capsule])


def _paired_plays(s: State, seat: int, acts: list[Action]) -> list[Action]:
    """GE-OPT-4: a pre-paired cruiser in hand is played only with its waiting capsule, as one
    ``pair`` play (one card play, one ship), to wherever a ship may go."""
    p = s.players[seat]
    waiting = {cruiser: capsule for cruiser, capsule in p.pairs}
    if not waiting:
        return acts
    out = [a for a in acts if not (a[0] in ("play", "pair") and a[1] in waiting)]
    if p.plays >= PLAYS_PER_TURN:
        return out
    extra: list[Action] = []
    seen: set[int] = set()
    for cruiser in sorted(u for u in p.hand if u in waiting):
        if s.spec_of[cruiser] in seen or plays.restriction(s, seat, cruiser) is not None:
            continue
        capsule = waiting[cruiser]
        if s.edition == "full":  # the combination's strength sets its command need (GE-KREB-4)
            need = board.half_slots(s.spec(cruiser).strength + s.spec(capsule).strength)
            if board.slots_needed(s, seat, need) > p.slots:
                continue
        seen.add(s.spec_of[cruiser])  # the other copy, paired alike, plays the same
        locs = Effect.placements(s.effect_of(cruiser), s, seat, cruiser)
        extra += [("pair", cruiser, capsule, loc) for loc in locs]
    plays_end = max((i + 1 for i, a in enumerate(out) if a[0] in ("play", "pair")), default=0)
    return out[:plays_end] + extra + out[plays_end:]


def _blanks(owner_of: list[int], spec_of: list[int], blank: Iterable[tuple[int, str]]) -> list[int]:
    """The uids dealt as blanks: every copy of each ``(seat, key)``'s card in that seat's deck."""
    wanted = set()
    for pair in blank:
        seat, key = pair if isinstance(pair, (tuple, list)) and len(pair) == 2 else (None, None)
        if seat not in (0, 1) or key not in BY_KEY:
            raise ValueError(f"blank: {pair!r} is not a seat (0 or 1) and a card key")
        wanted.add((seat, key))
    return [uid for uid, (seat, index) in enumerate(zip(owner_of, spec_of)) if (seat, CARDS[index].key) in wanted]


def _without_blanks(s: State, acts: list[Action]) -> list[Action]:
    """``acts`` less every play and swap of a blank (State.blank)."""
    blank = set(s.blank)
    return [a for a in acts if a[0] not in ("play", "pair", "swap") or blank.isdisjoint(_cards_played(a))]


def _as_action(action: Any) -> Action:
    """``action`` (a tuple or its JSON list) as a tuple of ints and strings, typed when it fits a
    kind; IllegalAction (GE-DIG-1) for anything else."""
    if isinstance(action, list):
        action = tuple(action)
    if not isinstance(action, tuple) or not action or not isinstance(action[0], str):
        raise IllegalAction(f"GE-DIG-1: an action is a list starting with its kind, not {action!r}")
    for arg in action[1:]:
        if type(arg) not in (int, str) or (type(arg) is int and abs(arg) > 10**6) or (type(arg) is str and len(arg) > 40):
            raise IllegalAction(f"GE-DIG-1: {arg!r} is not a card, seat or word", action)
    return MOVES.lift(action)


__all__ = ["GalacticEmpires", "IllegalAction"]
