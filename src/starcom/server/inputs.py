"""Reading what visitors send: strict JSON, known fields of known types, values in range.

Everything a client sends passes through here before it reaches a game, so malformed input of
any kind ends as an :class:`ApiError` with a 4xx status that names what was wrong, never as an
exception deeper down (a 500) and never as a silently "corrected" value.
"""
from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Mapping

from ..games import GameEntry, default_game
from ..games import get as get_game
from ..games import list_games
from .errors import ApiError
from .limits import CHAT_CHARS, DEFAULT_TURN_LIMIT, MAX_DEPTH, MAX_MESSAGE, SEED_MAX, TURN_LIMITS

HUMAN = "human"
MODES = ("vs_ai", "hotseat", "online")

# Tokens and invite codes are what secrets.token_urlsafe makes; anything else is refused before
# it is compared with anything (a non-ASCII token once crashed the comparison).
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
_GAME_ID = re.compile(r"[0-9a-f]{12}")
_INT_DIGITS = 19           # longer integer literals are refused while parsing (no 10**4000)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise ValueError(f"the number {text[:20]} is too large")
    return x


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > _INT_DIGITS:
        raise ValueError(f"the number {text[:20]}... is too large")
    return int(text)


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of ``value`` (stops counting past ``limit``)."""
    if limit < 0:
        return 1
    if isinstance(value, dict):
        return 1 + max((_depth(v, limit - 1) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v, limit - 1) for v in value), default=0)
    return 0


def parse_json(raw: bytes | str, limit: int = MAX_MESSAGE) -> dict[str, Any]:
    """A message body as a JSON object. 413 past ``limit`` bytes; 400 for text that is not
    UTF-8 JSON, non-finite or huge numbers, nesting deeper than :data:`MAX_DEPTH`, or a top
    level that is not an object. An empty body is the empty object."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "replace"))
    if size > limit:
        raise ApiError(413, f"message too large (over {limit} bytes)")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(400, "the message is not UTF-8 text") from None
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw, parse_constant=_reject_constant, parse_float=_finite_float,
                          parse_int=_bounded_int)
    except RecursionError:
        raise ApiError(400, f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError as exc:
        raise ApiError(400, f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the message must be a JSON object")
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise ApiError(400, f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)")
    return data


def check_fields(body: Mapping[str, Any], allowed: tuple[str, ...], what: str) -> None:
    """400 for a field ``what`` does not take (a typo must not be silently ignored)."""
    unknown = sorted(k for k in body if k not in allowed)
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r} in {what}; its fields are: {', '.join(allowed)}")


def secret(value: Any, what: str) -> str | None:
    """A seat token or invite code as sent (None when absent or empty); 400 when it cannot be
    one (wrong type, characters or length)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not _TOKEN.fullmatch(value):
        raise ApiError(400, f"malformed {what}: expected 16 to 64 letters, digits, '-' or '_'")
    return value


def game_id(value: str) -> str:
    """A game id as the server makes them; 404 for anything else (no lookup is made)."""
    if not _GAME_ID.fullmatch(value):
        raise ApiError(404, f"no game {value[:40]!r}")
    return value


def whole(value: Any, name: str, lo: int, hi: int) -> int:
    """``value`` if it is an integer within ``lo..hi`` (booleans are not integers); else 400
    naming the field and the range."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ApiError(400, f"{name} must be an integer from {lo} to {hi}, not {value!r}"[:200])
    if not lo <= value <= hi:
        raise ApiError(400, f"{name} must be from {lo} to {hi}, not {value}")
    return value


def seat_settings(body: Mapping[str, Any], known: Mapping[str, bool]) -> dict[str, bool]:
    """The settings a settings message changes: only names in ``known``, each true or false;
    400 naming anything else."""
    changes = {k: v for k, v in body.items() if k != "type"}
    for k, v in changes.items():
        if k not in known:
            raise ApiError(400, f"unknown setting {k[:40]!r}; settings are: {', '.join(known)}")
        if not isinstance(v, bool):
            raise ApiError(400, f"setting {k!r} must be true or false, not {str(v)[:20]!r}")
    if not changes:
        raise ApiError(400, f"a settings message names at least one of: {', '.join(known)}")
    return changes


def chat_text(value: Any) -> str:
    """A chat line: text of 1..CHAT_CHARS characters once trimmed, without control characters
    (line breaks become spaces). Clients show it as text, never as markup."""
    if not isinstance(value, str):
        raise ApiError(400, "a chat message needs 'text', a string")
    text = " ".join(value.split())
    # Format characters such as right-to-left overrides could disguise a line; the zero-width
    # joiner is allowed (emoji sequences use it).
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch != "\u200d" for ch in text):
        raise ApiError(400, "a chat line may not hold control or unassigned characters")
    if not text:
        raise ApiError(400, "a chat line cannot be empty")
    if len(text) > CHAT_CHARS:
        raise ApiError(400, f"a chat line holds at most {CHAT_CHARS} characters, not {len(text)}")
    return text


def expect_step(value: Any) -> int | None:
    """The optional ``expect_step`` of an action or undo message."""
    return None if value is None else whole(value, "expect_step", 0, 10 ** 9)


def ai_choices(entry: GameEntry[Any, Any] | None = None) -> list[str]:
    """What may follow ``ai:`` in a seat kind of the game ``entry`` (and be a takeover level):
    its levels first, then its other agents. None: the default game's."""
    entry = entry if entry is not None else get_game(default_game())
    levels = list(entry.ai.levels)
    return levels + [n for n in entry.ai.agent_names() if n not in levels]


def _ai_name(name: Any, entry: GameEntry[Any, Any]) -> str | None:
    if not isinstance(name, str):
        return None
    key = name.strip().lower()
    return key if key in ai_choices(entry) else None


def seat_kind(kind: Any, entry: GameEntry[Any, Any]) -> str:
    """The normalised seat kind of a game of ``entry``: ``human`` or ``ai:<level or agent>``;
    400 lists the choices."""
    if kind == HUMAN:
        return HUMAN
    which = ""
    if isinstance(kind, str) and kind[:3].lower() == "ai:":
        name = _ai_name(kind[3:], entry)
        if name is not None:
            return f"ai:{name}"
        which = f" {entry.title} has no AI {kind[3:].strip()[:40]!r};"
    raise ApiError(400, f"seat kind {str(kind)[:40]!r}:{which} use 'human' or 'ai:<level>' with level one of "
                        f"{', '.join(ai_choices(entry))}")


def takeover_level(level: Any, entry: GameEntry[Any, Any]) -> str:
    """The AI level asked for a departed player's seat (default: the game's default level);
    400 lists the choices."""
    if level is None:
        return entry.ai.default_level
    name = _ai_name(level, entry)
    if name is None:
        raise ApiError(400, f"takeover_level {str(level)[:40]!r}: {entry.title} has no such AI; use one of "
                            f"{', '.join(ai_choices(entry))}")
    return name


@dataclass(frozen=True)
class NewGame:
    """A checked game-creation request."""

    mode: str
    players: int
    size: int | None        # None: the game has no board size
    edition: str | None     # None: the game has no editions
    seed: int | None        # None: the server draws one
    turn_limit: int
    seats: tuple[str, ...]
    ai_takeover: bool
    takeover_level: str | None
    game: str | None = None  # a registered game's name (starcom.games); None: the server's own
    listed: bool = False     # online only: listed in the lobby's open games (else seats by invite only)


CREATE_FIELDS = ("game", "players", "size", "edition", "seed", "turn_limit", "seats", "mode", "ai_takeover",
                 "takeover_level", "listed")


def _one_of(value: Any, name: str, choices: tuple[Any, ...], title: str) -> Any:
    """``value`` if it is one of ``choices`` (the game ``title``'s); else 400 listing them."""
    if value not in choices:
        raise ApiError(400, f"{name} {str(value)[:40]!r}: {title} takes one of {', '.join(map(str, choices))}")
    return value


def _count(value: Any, name: str, choices: tuple[int, ...], title: str) -> int:
    """An integer setting (players, size) that must be one of ``choices``."""
    lo, hi = min(choices), max(choices)
    if list(choices) == list(range(lo, hi + 1)) and lo < hi:
        return whole(value, name, lo, hi)
    whole(value, name, 0, SEED_MAX)
    if value not in choices:
        raise ApiError(400, f"{name}: {title} takes {' or '.join(map(str, choices))}, not {value}")
    return int(value)


def new_game(body: Mapping[str, Any], ai_only: bool = False, own_game: str | None = None) -> NewGame:
    """Check a creation request (docs/protocol.md) against the game it names (``own_game``
    when it names none; None: the default game): players, size and edition must be ones that
    game takes, and AI seats AIs it has. Every setting out of range or of the wrong type is
    refused with 400 naming it and what is allowed; nothing is coerced. Games without a human
    seat are refused unless the server's operator allowed them (``ai_only``)."""
    check_fields(body, CREATE_FIELDS, "a new game")
    game = body.get("game")
    if game is not None and not (isinstance(game, str) and game in list_games()):
        raise ApiError(400, f"game {str(game)[:40]!r}: use one of {', '.join(list_games())}")
    entry = get_game(game or own_game or default_game())
    mode = body.get("mode", "vs_ai")
    if mode not in MODES:
        raise ApiError(400, f"mode {str(mode)[:40]!r}: use one of {', '.join(MODES)}")
    own = entry.rules.defaults()  # what a request leaves out
    players = _count(body.get("players", own.get("players", entry.rules.player_counts[0])), "players",
                     entry.rules.player_counts, entry.title)
    size: int | None = None
    if entry.rules.sizes:
        size = _count(body.get("size", own.get("size", entry.rules.sizes[0])), "size", entry.rules.sizes, entry.title)
    elif body.get("size") is not None:
        raise ApiError(400, f"{entry.title} has no board size: leave 'size' out")
    edition = body.get("edition")
    if entry.rules.editions:
        edition = _one_of(own.get("edition", entry.rules.editions[0]) if edition is None else edition, "edition",
                          entry.rules.editions, entry.title)
    elif edition is not None:
        raise ApiError(400, f"{entry.title} has no editions: leave 'edition' out")
    seed = body.get("seed")
    if seed is not None:
        if mode == "online":
            # Every seat of an online game could otherwise recompute the others' hands.
            raise ApiError(400, "online games choose their own secret seed; leave 'seed' out "
                                "(vs_ai and hotseat games may take one)")
        seed = whole(seed, "seed", 0, SEED_MAX)
    limit = body.get("turn_limit")
    limit = DEFAULT_TURN_LIMIT if limit is None else whole(limit, "turn_limit", *TURN_LIMITS)
    kinds = body.get("seats")
    if mode == "hotseat" and isinstance(kinds, list) and any(k != HUMAN for k in kinds):
        raise ApiError(400, "hotseat games have only human seats; use vs_ai for AI seats")
    if kinds is None:
        kinds = [HUMAN] + [f"ai:{entry.ai.default_level}"] * (players - 1) if mode == "vs_ai" else [HUMAN] * players
    if not isinstance(kinds, list) or len(kinds) != players:
        raise ApiError(400, f"seats must list one kind for each of the {players} players")
    seats = tuple(seat_kind(k, entry) for k in kinds)
    if HUMAN not in seats and not ai_only:
        raise ApiError(400, "a game needs at least one human seat (to watch AIs play each other, "
                            "use `starcom demo`, or a server started with --allow-ai-games)")
    takeover = body.get("ai_takeover", False)
    if not isinstance(takeover, bool):
        raise ApiError(400, f"ai_takeover must be true or false, not {str(takeover)[:20]!r}")
    if takeover and mode != "online":
        raise ApiError(400, "ai_takeover is for online games only")
    level = takeover_level(body.get("takeover_level"), entry)
    listed = body.get("listed", False)
    if not isinstance(listed, bool):
        raise ApiError(400, f"listed must be true (open to anyone: listed in the lobby) or false (by invite only), "
                            f"not {str(listed)[:20]!r}")
    if listed and mode != "online":
        raise ApiError(400, "listed is for online games only (other games have no seats to offer)")
    return NewGame(mode, players, size, edition, seed, limit, seats, takeover, level if takeover else None, game,
                   listed)
