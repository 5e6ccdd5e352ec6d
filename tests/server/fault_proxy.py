"""A WebSocket proxy in front of a real server that injects the faults a client must
survive, one per ``act`` it is told to spoil (``faults``, first in first out):

- ``"refuse"``: the act is not forwarded; the client gets ``unavailable`` with a
  ``retry_after`` hint, as from a server whose database is away;
- ``"lose_answer"``: the act is forwarded and made, its ``ack`` is swallowed and the
  client gets ``unavailable`` instead (the worst case: made, but the client cannot know);
- ``"drop"``: the act is forwarded, then the client's socket is closed (1011) before the
  ``ack`` can reach it.

and one per socket opened (``openings``): ``"503"``, the upgrade refused with HTTP 503
and ``Retry-After: 1`` (the database is away); ``"1013"``, the socket accepted, then an
``unavailable`` error and a close with 1013 (it went away meanwhile).

Everything else passes through unchanged, both ways.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from http import HTTPStatus
from typing import Any

from websockets.asyncio.client import connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

HINT = 0.2  # the retry_after of an injected unavailable (seconds)


class FaultProxy:
    def __init__(self, upstream_port: int) -> None:
        self.upstream = f"ws://127.0.0.1:{upstream_port}"
        self.faults: deque[str] = deque()
        self.openings: deque[str] = deque()
        self.refused_openings = 0
        self.injected: list[tuple[str, Any]] = []  # (fault, the spoiled act's key)
        self.server: Server | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await serve(self._relay, "127.0.0.1", 0, max_size=None,
                                  process_request=self._opening)
        self.port = self.server.sockets[0].getsockname()[1] if self.server.sockets else 0

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _opening(self, connection: ServerConnection, _request: Request) -> Response | None:
        if not self.openings or self.openings[0] != "503":
            return None
        self.openings.popleft()
        self.refused_openings += 1
        response = connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "the database is away")
        response.headers["Retry-After"] = "1"
        return response

    async def _relay(self, client: ServerConnection) -> None:
        assert client.request is not None
        if self.openings and self.openings[0] == "1013":
            self.openings.popleft()
            self.refused_openings += 1
            await client.send(json.dumps(_unavailable(None)))
            await client.close(1013, "try again later")
            return
        async with connect(self.upstream + client.request.path, max_size=None) as server:
            swallow: set[Any] = set()  # ids of acks to be replaced by unavailable

            async def downstream() -> None:
                async for frame in server:
                    message = json.loads(frame)
                    kept = [m for m in _messages(message)
                            if not (m["type"] == "ack" and m.get("id") in swallow)]
                    for m in _messages(message):
                        if m["type"] == "ack" and m.get("id") in swallow:
                            swallow.discard(m["id"])
                            kept.append(_unavailable(m["id"]))
                    if kept:
                        await client.send(json.dumps(
                            kept[0] if len(kept) == 1 else {"type": "batch", "messages": kept}))

            down = asyncio.create_task(downstream())
            try:
                async for frame in client:
                    message = json.loads(frame)
                    fault = (self.faults.popleft()
                             if message.get("type") == "act" and self.faults else None)
                    if fault is not None:
                        self.injected.append((fault, message.get("key")))
                    if fault == "refuse":
                        await client.send(json.dumps(_unavailable(message.get("id"))))
                        continue
                    if fault == "lose_answer":
                        swallow.add(message.get("id"))
                    await server.send(frame)
                    if fault == "drop":
                        await client.close(1011, "injected drop")
                        break
            except ConnectionClosed:
                pass
            finally:
                down.cancel()
                with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                    await down


def _messages(message: dict[str, Any]) -> list[dict[str, Any]]:
    return message["messages"] if message["type"] == "batch" else [message]


def _unavailable(ref: Any) -> dict[str, Any]:
    out = {"type": "error", "code": "unavailable", "message": "injected by the test proxy",
           "params": {}, "retry_after": HINT}
    return out if ref is None else {**out, "id": ref}
