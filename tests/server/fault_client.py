"""A minimal client written from PROTOCOL.md, for the fault suite
(tests/server/fault_scenarios.py, benchmarks/faults.py): one seat of one table, played
to the game's end through the balancer, whatever happens to the servers behind it.

As PROTOCOL.md says a client should: it keeps the highest event number seen and
reconnects with ``since=n``; it names each action with a ``key`` and, when the answer
is lost (the socket closed first) or is ``unavailable``, sends the same action again
with the same key. It waits the server's hint first (an error's ``retry_after``, an
HTTP 503's ``Retry-After``, the ``unavailable`` before a 1013 close) plus jitter, else
an exponential back-off with full jitter (the reference client's ``RetryPolicy``, here
without its limit: the fault suite bounds whole games). Any other refusal is counted
and the seat acts afresh on the next state it is shown, as a person clicking again
would. It records what a fault suite checks: every acknowledgement (its key, action,
time), every error by code, every reconnection.
"""

from __future__ import annotations

import asyncio
import json
import random
import ssl
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from drive import choose
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from usotsuki.client.retry import Backoff, RetryPolicy

RETRY_AFTER = "retry_after"
POLICY = RetryPolicy(attempts=2**31, give_up_after=float("inf"))


@dataclass
class Ack:
    key: str
    action: str  # canonical, as the ack gives it
    n: int  # the table's last event number after it
    at: float  # time.monotonic() when it came


@dataclass
class Seat:
    """One seat, played by a scripted person who thinks ``think`` seconds a turn."""

    ws_base: str  # ws://host:port or wss://host:port
    table_id: str
    token: str
    think: float = 0.1
    tls: ssl.SSLContext | None = None
    seat: int | None = None
    events: dict[int, dict[str, Any]] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    acks: list[Ack] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    finished_at: float | None = None  # time.monotonic() when the game's end was shown
    changed: list[int] = field(default_factory=list)  # events numbers seen with two bodies
    _pending: tuple[str, str] | None = None  # (key, action) sent, its answer not yet had
    _acted_on: int | None = None  # the state number the last action was chosen on
    _backoff: Backoff = field(default_factory=lambda: Backoff(POLICY))
    _hint: float | None = None  # the last retry_after of this socket's ``unavailable``

    @property
    def last_n(self) -> int:
        return max(self.events, default=-1)

    @property
    def finished(self) -> bool:
        return self.state.get("status") == "finished" and self._pending is None

    async def play(self, seconds: float) -> None:
        """Play to the game's end, reconnecting as needed; give up after ``seconds``."""
        deadline = time.monotonic() + seconds
        while not self.finished and time.monotonic() < deadline:
            try:
                async with connect(
                        f"{self.ws_base}/ws/tables/{self.table_id}?token={self.token}"
                        f"&since={self.last_n}", ssl=self.tls, open_timeout=10,
                        ping_interval=None, compression=None) as ws:
                    await self._session(ws, deadline)
            except InvalidStatus as exc:  # refused before the upgrade (503 while unready)
                self.errors[f"http_{exc.response.status_code}"] += 1
                retry = exc.response.headers.get("Retry-After")
                await self._backoff.wait(float(retry) if retry and retry.isdigit() else None)
                continue
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                pass
            if not self.finished and time.monotonic() < deadline:
                self.reconnects += 1
                hint, self._hint = self._hint, None
                await self._backoff.wait(hint)

    async def _session(self, ws: ClientConnection, deadline: float) -> None:
        if self._pending is not None:  # its answer was lost with the last socket
            await self._send(ws, *self._pending)
        while not self.finished:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            message = json.loads(await asyncio.wait_for(ws.recv(), left))
            await self._handle(ws, message)

    async def _send(self, ws: ClientConnection, key: str, action: str) -> None:
        self._pending = (key, action)
        await ws.send(json.dumps({"type": "act", "action": action, "key": key, "id": key}))

    async def _handle(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "welcome":
            self.seat = message["seat"]
        elif kind == "event":
            n, event = message["n"], message["event"]
            if self.events.setdefault(n, event) != event:
                self.changed.append(n)
        elif kind == "state":
            self.state = message
            if message["status"] == "finished" and self.finished_at is None:
                self.finished_at = time.monotonic()
            self._backoff.reset()
            await self._maybe_act(ws)
        elif kind == "ack":
            if self._pending is not None and message.get("id") == self._pending[0]:
                key = self._pending[0]
                self._pending = None
                if not any(a.key == key for a in self.acks):  # (an answer sent again)
                    self.acks.append(Ack(key, message["action"], message["n"],
                                         time.monotonic()))
                await self._maybe_act(ws)
        elif kind == "error":
            self.errors[message["code"]] += 1
            if message["code"] == "unavailable":
                self._hint = message.get(RETRY_AFTER)
            if self._pending is None or message.get("id") != self._pending[0]:
                return
            if message["code"] == "unavailable":  # retryable: the same action, same key
                await self._backoff.wait(self._hint)
                await self._send(ws, *self._pending)
            else:  # refused: act afresh on the state as it is now
                self._pending = self._acted_on = None
                await ws.send(json.dumps({"type": "sync", "since": self.last_n}))

    async def _maybe_act(self, ws: ClientConnection) -> None:
        state = self.state
        if (self._pending is not None or state.get("status") != "playing"
                or state.get("to_move") != self.seat or state.get("legal") is None
                or self._acted_on == state["n"]):
            return
        self._acted_on = state["n"]
        rng = random.Random(f"{self.table_id}:{state['n']}")
        action = choose(state, rng)
        await asyncio.sleep(self.think * rng.uniform(0.5, 1.5))
        # (the key names this action on this state, as the page's does)
        await self._send(ws, f"{self.seat}:{state['n']}", action)
