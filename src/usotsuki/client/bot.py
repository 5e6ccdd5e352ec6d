"""The Bot API's calls (docs/bots.md) for an outside bot, with its token.

Every call carries ``Authorization: Bearer <token>`` and no cookie. Reads, and the calls
that do the same when made twice (a seek, its cancel, a withdrawal), are tried again when
their answer is lost; all are tried again after ``unavailable``, a 503 or a 429 (after
its ``Retry-After``), with ``RetryPolicy``'s backoff.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx

from usotsuki.client.errors import GaveUp, ServerError
from usotsuki.client.http import Api
from usotsuki.client.retry import Backoff, RetryPolicy
from usotsuki.client.seat import Message, Seat

LONGEST_WAIT = 30.0
"""The longest wait of a poll of the events the server allows (seconds)."""
POLL_MARGIN = 15.0
"""How much longer than its wait a poll may take before its answer counts as lost."""


@dataclass(frozen=True)
class Me:
    """The bot the token belongs to."""

    id: str
    name: str
    scopes: tuple[str, ...]


@dataclass(frozen=True)
class GameSeat:
    """A seat given to the bot (a ``game`` event, or an accepted challenge's answer):
    open it with :meth:`BotClient.seat`."""

    table_id: str
    seat: int
    token: str
    game: str | None = None
    rated: bool = False
    arena: bool = False

    @classmethod
    def of(cls, data: Message) -> GameSeat:
        return cls(str(data["table_id"]), int(data["seat"]), str(data["token"]),
                   data.get("game"), bool(data.get("rated")), bool(data.get("arena")))


class BotClient:
    """A bot's client of the server at ``base_url`` (``http://host:port``) with its API
    ``token``. Use it as an async context manager (or ``close()`` it)."""

    def __init__(self, base_url: str, token: str, *, policy: RetryPolicy | None = None,
                 timeout: float = 30.0,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.base_url = base_url
        self.policy = policy or RetryPolicy()
        self.api = Api(base_url, self.policy, timeout, transport,
                       headers={"Authorization": f"Bearer {token}"})
        self.after = 0  # the number of the last event seen (``events`` goes on from it)

    async def close(self) -> None:
        await self.api.close()

    async def __aenter__(self) -> BotClient:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    # the bot

    async def me(self) -> Me:
        out = await self.api.request("GET", "/api/bot/me")
        return Me(str(out["id"]), str(out["name"]), tuple(out.get("scopes", ())))

    async def poll(self, after: int | None = None, wait: float = 25.0) -> list[Message]:
        """The events after number ``after`` (default: the last seen), waiting up to
        ``wait`` seconds for one; the last seen moves on past them."""
        wait = max(0.0, min(wait, LONGEST_WAIT))
        out = await self.api.request(
            "GET", "/api/bot/events",
            params={"after": self.after if after is None else after, "wait": wait},
            timeout=wait + POLL_MARGIN)
        events: list[Message] = out["events"]
        self.after = int(out.get("next", events[-1]["n"] if events else self.after))
        return events

    async def events(self, after: int | None = None, wait: float = 25.0
                     ) -> AsyncIterator[Message]:
        """Every event from ``after`` on (default: after the last seen), each once and in
        order, for as long as it is read: a long poll after another. A poll that fails
        for a passing reason (the server away, a dropped connection) is tried again with
        the policy's backoff, without limit: a bot waits for its server."""
        if after is not None:
            self.after = after
        backoff = Backoff(self.policy)
        while True:
            try:
                events = await self.poll(wait=wait)
            except Exception as exc:  # (GaveUp, a transport error)
                if not _passing(exc):
                    raise
                if not await backoff.wait():
                    backoff.reset()  # (a bot waits on; the backoff stays at its cap)
                continue
            backoff.reset()
            for event in events:
                yield event

    # seeking a game

    async def seek(self, game: str = "bluff", players: int | None = 2,
                   preset: str | None = None, rated: bool = False) -> Message:
        """Wait in the arena for a game (a ``game`` event comes when it is found):
        ``players`` None for any, ``preset`` None for the server's default."""
        body: Message = {"game": game, "players": players, "rated": rated}
        if preset is not None:
            body["preset"] = preset
        out: Message = await self.api.request("POST", "/api/bot/seek", body, repeatable=True)
        return out

    async def seek_state(self) -> Message:
        out: Message = await self.api.request("GET", "/api/bot/seek")
        return out

    async def cancel_seek(self) -> None:
        await self.api.request("DELETE", "/api/bot/seek", repeatable=True)

    # challenges

    async def challenge(self, to: str, game: str = "bluff", players: int = 2,
                        preset: str | None = None,
                        turn_seconds: float | None = None) -> Message:
        """Challenge player ``to`` (its id; a house level is ``bot:<game>:<level>``);
        needs the token's ``challenge`` scope. Unset options are the server's defaults.
        Accepted, the seat comes as a ``game`` event (and in ``challenge_state``)."""
        body: Message = {"to": to, "game": game, "players": players}
        if preset is not None:
            body["preset"] = preset
        if turn_seconds is not None:
            body["turn_seconds"] = turn_seconds
        out: Message = await self.api.request("POST", "/api/challenges", body)
        return out

    async def challenge_state(self, challenge_id: str, wait: float = 0.0) -> Message:
        """One challenge of the bot's; with ``wait``, once it is no longer open (or the
        wait is over)."""
        out: Message = await self.api.request(
            "GET", f"/api/challenges/{challenge_id}", params={"wait": wait} if wait else None,
            timeout=wait + POLL_MARGIN)
        return out

    async def challenges(self) -> Message:
        """The open challenges: ``{"incoming": [...], "outgoing": [...]}``."""
        out: Message = await self.api.request("GET", "/api/challenges")
        return out

    async def accept(self, challenge_id: str) -> GameSeat:
        return GameSeat.of(await self.api.request(
            "POST", f"/api/challenges/{challenge_id}/accept"))

    async def decline(self, challenge_id: str) -> None:
        await self.api.request("POST", f"/api/challenges/{challenge_id}/decline")

    async def withdraw(self, challenge_id: str) -> None:
        await self.api.request("DELETE", f"/api/challenges/{challenge_id}", repeatable=True)

    # playing

    def seat(self, given: GameSeat, **options: Any) -> Seat:
        """The seat's WebSocket (``Seat``: open it, or ``async with``); ``options`` go
        to ``Seat``."""
        options.setdefault("policy", self.policy)
        return Seat(self.base_url, given.table_id, given.token, **options)

    async def resign(self, given: GameSeat) -> None:
        """Resign the game at the seat: a house bot plays it out."""
        await self.api.request("POST", f"/api/tables/{given.table_id}/resign",
                               {"token": given.token})


def _passing(exc: BaseException) -> bool:
    """Whether a failed poll may be tried again: the server could not be reached or
    answered that it is away; not a refusal of the bot (a revoked token, a lost scope)."""
    if isinstance(exc, GaveUp):
        return exc.last is None or _passing(exc.last)
    if isinstance(exc, ServerError):
        return exc.retryable or exc.status == 500
    return isinstance(exc, httpx.TransportError)
