"""The HTTP calls of PROTOCOL.md (create, join, start ...), retried when that is safe."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from usotsuki.client.errors import AnswerLost, GaveUp, ServerError, retry_after_header
from usotsuki.client.retry import Backoff, RetryPolicy


@dataclass(frozen=True)
class Created:
    """A new table: its id, the invite friends join with, the host's token."""

    table_id: str
    invite: str
    host_token: str
    table: dict[str, Any]


@dataclass(frozen=True)
class Joined:
    """A seat taken: its number and its token (the seat's secret)."""

    table_id: str
    seat: int
    token: str


class Api:
    """The server's HTTP API at ``base_url`` (``http://host:port``). A refusal raises
    ``ServerError``; 503 (``unavailable``, ``busy``) and a connection that could not be
    made are tried again with ``policy``'s backoff (nothing was done), and so is a read
    answered 500 (``internal``). A request whose answer is lost after it was sent is
    tried again only if it is safe to repeat (a read, or a call said ``repeatable``); else
    ``AnswerLost``.
    ``transport``: httpx's, e.g. to go through a proxy; ``headers``: sent with every
    request."""

    def __init__(self, base_url: str, policy: RetryPolicy | None = None,
                 timeout: float = 30.0,
                 transport: httpx.AsyncBaseTransport | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.base_url = base_url
        self.policy = policy or RetryPolicy()
        self.http = httpx.AsyncClient(base_url=base_url, timeout=timeout,
                                      transport=transport, headers=headers)

    async def close(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> Api:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    # the routes

    async def create_table(self, game: str, seats: Sequence[str | None],
                           rules: dict[str, Any] | None = None, games: int = 1,
                           **more: Any) -> Created:
        """A table of ``game`` (``bluff``, ``liar``): one entry per seat, a bot level or
        None for a person's seat. ``more``: ``turn_seconds``."""
        body = {"game": game, "seats": [{"bot": s} for s in seats],
                "rules": rules or {}, "games": games, **more}
        out = await self.request("POST", "/api/tables", body)
        return Created(out["table_id"], out["invite"], out["host_token"], out["table"])

    async def join(self, invite: str, name: str, seat: int | None = None) -> Joined:
        out = await self.request("POST", f"/api/invites/{invite}/join",
                                 {"name": name, "seat": seat})
        return Joined(out["table_id"], out["seat"], out["token"])

    async def table(self, table_id: str) -> dict[str, Any]:
        info: dict[str, Any] = await self.request("GET", f"/api/tables/{table_id}")
        return info

    async def start(self, table_id: str, token: str) -> int:
        out = await self.request("POST", f"/api/tables/{table_id}/start", {"token": token})
        return int(out["game_number"])

    async def rematch(self, table_id: str, token: str) -> int | None:
        """Accept the rematch (offering it if none stands): the game it started once
        every person accepted, else None."""
        out = await self.request("POST", f"/api/tables/{table_id}/rematch",
                                 {"token": token})
        return None if out["game_number"] is None else int(out["game_number"])

    async def decline_rematch(self, table_id: str, token: str) -> None:
        await self.request("POST", f"/api/tables/{table_id}/rematch/decline",
                           {"token": token})

    async def leave(self, table_id: str, token: str) -> None:
        await self.request("POST", f"/api/tables/{table_id}/leave", {"token": token})

    async def resign(self, table_id: str, token: str) -> None:
        await self.request("POST", f"/api/tables/{table_id}/resign", {"token": token})

    async def record(self, table_id: str, game: int) -> dict[str, Any]:
        out: dict[str, Any] = await self.request(
            "GET", f"/api/tables/{table_id}/games/{game}/record")
        return out

    # one request, retried

    async def request(self, method: str, path: str, body: Any = None, *,
                      repeatable: bool | None = None, timeout: float | None = None,
                      params: dict[str, Any] | None = None) -> Any:
        """One call, tried again while that is safe. ``repeatable``: whether making it
        twice does what making it once does (default: for a GET), so that a lost answer
        or a 500 may be retried; ``timeout``: this call's (e.g. a long poll's)."""
        if repeatable is None:
            repeatable = method == "GET"
        backoff = Backoff(self.policy)
        extra: dict[str, Any] = {} if timeout is None else {"timeout": timeout}
        while True:
            hint: float | None = None
            try:
                response = await self.http.request(method, path, json=body, params=params,
                                                   **extra)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                failure: BaseException = exc  # never sent: safe to send again
            except httpx.TransportError as exc:
                if not repeatable:
                    raise AnswerLost(f"{method} {path}: the answer was lost ({exc!r}); "
                                     "it may have been made") from exc
                failure = exc
            else:
                if response.status_code < 400:
                    return response.json() if response.content else None
                failure = refusal(response)
                if not (failure.retryable or (repeatable and failure.status == 500)):
                    raise failure  # (a write that failed inside may have been made)
                hint = failure.retry_after
            if not await backoff.wait(hint):
                raise GaveUp(f"{method} {path}", backoff.failures, failure)


def refusal(response: httpx.Response) -> ServerError:
    """The error body of PROTOCOL.md (``{"error", "message", "params"}``) as an exception;
    a body of another shape (a proxy's page) still gives the status."""
    try:
        data = response.json()
    except ValueError:
        data = None
    if not isinstance(data, dict):
        data = {}
    hint = data.get("retry_after")
    if not isinstance(hint, int | float) or isinstance(hint, bool):
        hint = retry_after_header(response.headers.get("retry-after"))
    code = data.get("error") or data.get("code") or f"http_{response.status_code}"
    return ServerError(str(code), str(data.get("message") or response.reason_phrase),
                       status=response.status_code, params=data.get("params") or {},
                       retry_after=hint)
