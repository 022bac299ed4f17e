"""``starcom bot-link``: a bot takes a seat of a server game, so people can play against their
own bots in the browser.

The bridge holds the seat's link (``http://HOST:PORT/game/ID?seat=TOKEN``), asks the server for
the seat's decision (``GET /api/games/ID/decision``: the protocol's ``newgame`` and ``decide``
bodies, built by the server's observer), hands it to the bot, and sends the bot's answer as
the seat's action (``POST /api/games/ID/actions``). The server checks the action like any
player's; a refusal goes back to the bot as ``illegal`` with the server's reason.
"""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ..games import GameEntry
from ..games import get as get_game
from . import wire
from .host import Bot, default_move

POLL_SECONDS = 0.25


class LinkError(ValueError):
    """A seat link that cannot be used (the message says why)."""


class Server(Protocol):
    """The two requests the bridge makes: each returns the HTTP status and the JSON body."""

    def decision(self) -> tuple[int, dict[str, Any]]:
        ...

    def act(self, action: Any, step: int) -> tuple[int, dict[str, Any]]:
        ...


@dataclass(frozen=True)
class SeatLink:
    """A seat of a game on a server, over HTTP: its token, or an invite code still to claim."""

    base: str
    game_id: str
    token: str = ""
    invite: str = ""

    @classmethod
    def parse(cls, link: str) -> SeatLink:
        """``http://HOST:PORT/game/ID?seat=TOKEN`` (the link a game gives each seat), or an
        invitation, ``http://HOST:PORT/game/ID?invite=CODE``."""
        url = urllib.parse.urlsplit(link)
        parts = url.path.rstrip("/").split("/")
        query = urllib.parse.parse_qs(url.query)
        token, invite = query.get("seat", [""])[0], query.get("invite", [""])[0]
        if url.scheme not in ("http", "https") or len(parts) < 2 or parts[-2] != "game" or not (token or invite):
            raise LinkError(f"{link!r} is not a seat link: it looks like http://HOST:PORT/game/ID?seat=TOKEN "
                            "or ...?invite=CODE (the game's page gives it)")
        return cls(f"{url.scheme}://{url.netloc}", parts[-1], token, "" if token else invite)

    def claimed(self) -> SeatLink:
        """This seat with its token: an invitation is claimed first (``POST .../join``)."""
        if self.token:
            return self
        status, data = self._call("POST", f"/api/games/{self.game_id}/join", {"invite": self.invite})
        if status != 200:
            raise LinkError(f"the server refused the invitation ({status}): {data.get('error', data)}")
        return replace(self, token=str(data["token"]), invite="")

    @property
    def link(self) -> str:
        return f"{self.base}/game/{self.game_id}?seat={self.token}"

    def _call(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.loads(resp.read() or b"{}")
        except urllib.error.HTTPError as exc:
            try:
                return exc.code, json.loads(exc.read() or b"{}")
            except ValueError:
                return exc.code, {"error": exc.reason}
        except (urllib.error.URLError, OSError) as exc:
            raise LinkError(f"cannot reach the server at {self.base}: {getattr(exc, 'reason', exc)}") from None

    def decision(self) -> tuple[int, dict[str, Any]]:
        query = urllib.parse.urlencode({"seat": self.token})
        return self._call("GET", f"/api/games/{self.game_id}/decision?{query}")

    def act(self, action: Any, step: int) -> tuple[int, dict[str, Any]]:
        return self._call("POST", f"/api/games/{self.game_id}/actions",
                          {"seat": self.token, "action": action, "expect_step": step})


def run_link(server: Server, bot: Bot, say: Callable[[str], None] = lambda s: None,
             poll: float = POLL_SECONDS) -> dict[str, Any]:
    """Play the seat with ``bot`` (handshake done) until the game ends; the final decision
    message. LinkError if the server refuses the seat; BotFault if the bot fails."""
    started = False
    decisions = 0
    kind: Any = None
    entry: Any = None
    while True:
        status, data = server.decision()
        if status == 429 or status >= 500:  # busy: ask again a little later
            time.sleep(max(poll, 0.5))
            continue
        if status != 200:
            raise LinkError(f"the server refused the seat ({status}): {data.get('error', data)}")
        if not started:
            info = data["game"]
            entry = get_game(info["game"])
            kind = wire.position_class(info)
            # A game already under way is joined like a restarted bot joins one.
            bot.send(wire.line(wire.RESYNC if data["step"] else wire.NEWGAME, info))
            started = True
            say(f"playing seat {info['seat']} of a {info['players']}-player game")
        if data["over"]:
            bot.send(wire.line(wire.GAMEOVER, {"winner": data["winner"], "reason": data["over_reason"]}))
            say(f"game over: {data['over_reason']}")
            return data
        body = data["decide"]
        if body is None:
            time.sleep(poll)
            continue
        decisions += 1
        body["decision"] = decisions
        _decide(server, bot, body, entry, kind, data["step"], int(data["game"]["retries"]), say)


def _decide(server: Server, bot: Bot, body: dict[str, Any], entry: GameEntry[Any, Any], kind: Any, step: int, retries: int,
            say: Callable[[str], None]) -> None:
    """One decision: ask the bot and send its answer; a refusal goes back to the bot while its
    retries last (as in :func:`.host.play_game`), then the default move is sent for it."""
    position = kind.from_json(body["position"])
    seconds = (body["clock"]["move_ms"] + body["clock"]["bank_ms"]) / 1000
    message: dict[str, Any] = body
    for attempt in range(retries + 1):
        answer = bot.ask(message, seconds)
        try:
            action = position.parse(answer)
        except ValueError as exc:
            reason, rule = f"cannot read {answer[:60]!r} as an action: {exc}", None
        else:
            status, reply = _send(server, entry.rules.encode(action), step)
            if status == 200:
                say(f"played {answer}")
                return
            if status == 409 and "step" in str(reply.get("error", "")):
                return  # the game moved on meanwhile (an automatic pass): ask the server again
            reason, rule = str(reply.get("error", reply)), reply.get("rule")
        say(f"refused: {reason}")
        message = {"illegal": {"answer": answer[:200], "reason": reason, "rule": rule, "retries": retries - attempt}}
    _send(server, entry.rules.encode(position.parse(default_move(body["legal"]))), step)
    say(f"played the default move {body['legal'][0]}")


def _send(server: Server, action: Any, step: int, attempts: int = 20) -> tuple[int, dict[str, Any]]:
    """Send the seat's action; while the server asks to slow down (429) or fails (5xx), wait and
    send it again: only a refusal of the action itself goes back to the bot."""
    for attempt in range(attempts):
        status, reply = server.act(action, step)
        if status != 429 and status < 500:
            return status, reply
        time.sleep(min(2.0, 0.1 * 2 ** attempt))
    return status, reply


__all__ = ["LinkError", "SeatLink", "Server", "run_link"]
