"""A WebSocket proxy in front of a real server that injects the faults a client must
survive, one per ``act`` it is told to spoil (``faults``, first in first out):

- ``"refuse"``: the act is not forwarded; the client gets ``unavailable`` with a
  ``retry_after`` hint, as from a server whose database is away;
- ``"lose_answer"``: the act is forwarded and made, its ``ack`` is swallowed and the
  client gets ``unavailable`` instead (the worst case: made, but the client cannot know);
- ``"drop"``: the act is forwarded, then the client's socket is closed (1011) before the
  ``ack`` can reach it.

Everything else passes through unchanged, both ways.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from typing import Any

from websockets.asyncio.client import connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

HINT = 0.2  # the retry_after of an injected unavailable (seconds)


class FaultProxy:
    def __init__(self, upstream_port: int) -> None:
        self.upstream = f"ws://127.0.0.1:{upstream_port}"
        self.faults: deque[str] = deque()
        self.injected: list[tuple[str, Any]] = []  # (fault, the spoiled act's key)
        self.server: Server | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await serve(self._relay, "127.0.0.1", 0, max_size=None)
        self.port = self.server.sockets[0].getsockname()[1] if self.server.sockets else 0

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _relay(self, client: ServerConnection) -> None:
        assert client.request is not None
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
    return {"type": "error", "code": "unavailable", "message": "injected by the test proxy",
            "params": {}, "retry_after": HINT, "id": ref}
