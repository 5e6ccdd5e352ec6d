"""One seat's (or a spectator's) WebSocket, kept open across drops and server restarts.

The stream resumes with ``since=n`` after a reconnect, so each event is seen once and
none is missed; an action carries a ``key`` and is sent again with it until answered,
so a lost answer never makes it twice (PROTOCOL.md, WebSocket). A seat contributes
random bytes of its own to each game's deal as soon as the server awaits them
(docs/fairness.md), the same value again on a new socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import (
    ConnectionClosed,
    InvalidHandshake,
    InvalidStatus,
    WebSocketException,
)

from usotsuki.client.errors import (
    ClientError,
    GaveUp,
    SeatLost,
    ServerError,
    retry_after_header,
)
from usotsuki.client.retry import Backoff, RetryPolicy

Message = dict[str, Any]
log = logging.getLogger(__name__)

FATAL_CLOSE = {4404: "not_found", 4403: "forbidden"}
FATAL_ERRORS = frozenset({"not_found", "forbidden", "left", "expired"})
# An act refused with one of these was not made and may be sent again as it is: the
# server is busy or moving the table; ``internal`` (a server fault) is treated alike,
# the key making a repeat harmless, and the policy's limit ending a fault that stays.
RESEND = frozenset({"unavailable", "busy", "rate_limited", "internal"})
_END = object()  # the end of the stream, in the message queue


def socket_url(server: str, table_id: str, query: dict[str, str]) -> str:
    """``ws(s)://host/ws/tables/<id>?...`` from the server's ``http(s)://`` address."""
    parts = urlsplit(server)
    scheme = {"https": "wss", "http": "ws"}.get(parts.scheme, parts.scheme)
    path = parts.path.rstrip("/") + f"/ws/tables/{table_id}"
    return urlunsplit((scheme, parts.netloc, path, urlencode(query), ""))


@dataclass
class _Pending:
    """An act waiting for its answer, resent with the same key until it has one."""

    action: str
    key: str
    answer: asyncio.Future[Message]
    backoff: Backoff
    resend: asyncio.Task[None] | None = field(default=None)
    sent_on: int = 0  # the socket (``Seat.connects``) it was last sent on; 0: none


class Seat:
    """A seat of ``table_id`` on the server at ``server`` (``http://host:port``), acting
    with ``token``; without one, a spectator.

    ``messages()`` yields what the server says (``welcome``, ``event``, ``state``,
    ``table``), each event once and in order, however often the socket is reopened;
    ``act()`` sends an action and returns its ``ack``. A dropped socket, a server
    restart, a 503 before the upgrade, ``unavailable``: tried again with ``policy``'s
    backoff and hints. The table gone, the seat lost (``left``, ``forbidden``,
    ``not_found``, ``expired``): ``SeatLost``. Retries run out: ``GaveUp``. ``since``:
    the last event seen already (-1: none); ``headers``: sent with each opening."""

    def __init__(self, server: str, table_id: str, token: str | None = None, *,
                 policy: RetryPolicy | None = None, hints: bool = False,
                 since: int = -1, open_timeout: float = 10.0,
                 headers: dict[str, str] | None = None) -> None:
        self.server, self.table_id, self.token = server, table_id, token
        self.headers = headers or {}
        self.policy = policy or RetryPolicy()
        self.hints = hints
        self.open_timeout = open_timeout
        self.last_n = since  # the highest event number known to be seen
        self.seat: int | None = None
        self.table: Message | None = None
        self.state: Message | None = None
        self.connects = 0  # sockets opened so far
        self.resends = 0  # actions sent again (after unavailable, or on a new socket)
        self._socket: ClientConnection | None = None
        self._streams: list[asyncio.Queue[Any]] = []  # one per ``messages()`` reader
        self._ended = False
        self._pending: dict[int, _Pending] = {}
        self._ids = itertools.count(1)
        self._failure: ClientError | None = None
        self._closing = False
        self._reader: asyncio.Task[None] | None = None
        self._welcomed = asyncio.Event()
        self._sending: set[asyncio.Task[None]] = set()
        self._hint: float | None = None  # a closing socket's retry_after
        # This seat's contribution to each game's deal, by game number: a verifier
        # finds it in the game's record.
        self.contributions: dict[int, str] = {}

    # lifetime

    async def __aenter__(self) -> Seat:
        await self.open()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def open(self) -> None:
        """Start the connection and wait for its welcome (or the reason it failed)."""
        if self._reader is None:
            self._reader = asyncio.create_task(self._run(), name=f"seat {self.table_id}")
        welcomed = asyncio.create_task(self._welcomed.wait())
        await asyncio.wait({welcomed, self._reader}, return_when=asyncio.FIRST_COMPLETED)
        welcomed.cancel()
        if self._failure is not None:
            raise self._failure

    async def close(self) -> None:
        self._closing = True
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        self._end(ClientError("the seat's connection was closed"))

    # what a bot uses

    def messages(self) -> Messages:
        """Every message from now on, in order, until the seat is closed (then the
        iteration ends, or raises why the seat failed). Each call is a reader of its
        own; one made before ``open()`` gets the welcome and the catch-up too."""
        queue: asyncio.Queue[Any] = asyncio.Queue()
        if self._ended:
            queue.put_nowait(_END)
        self._streams.append(queue)
        return Messages(self, queue)

    async def act(self, action: str, key: str | None = None) -> Message:
        """Make ``action`` (RULES.md Part 3 text) for this seat; its ``ack``. Sent again
        with the same ``key`` (by default ``"<state n>:<action>"``, as the page's) until
        answered; a refusal raises ``ServerError``."""
        if self._failure is not None:
            raise self._failure
        if key is None:
            key = f"{self.state['n'] if self.state else -1}:{action}"[:64]
        ref = next(self._ids)
        answer: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._pending[ref] = _Pending(action, key, answer, Backoff(self.policy))
        self._send_act(ref)
        try:
            return await answer
        finally:
            pending = self._pending.pop(ref, None)
            if pending is not None and pending.resend is not None:
                pending.resend.cancel()

    async def sync(self) -> None:
        """Ask for the events after the last seen and a fresh state."""
        await self._send({"type": "sync", "since": self.last_n})

    # the connection, kept

    def _url(self) -> str:
        query = {"since": str(self.last_n), "batch": "1"}
        if self.token:
            query["token"] = self.token
        if self.hints:
            query["hints"] = "1"
        return socket_url(self.server, self.table_id, query)

    async def _run(self) -> None:
        backoff = Backoff(self.policy)
        try:
            while not self._closing:
                hint, why = await self._connect_once(backoff)
                if self._failure is not None or self._closing:
                    break
                log.info("seat %s of %s: %s; reconnecting", self.seat, self.table_id, why)
                if not await backoff.wait(hint):
                    self._failure = GaveUp(f"the socket of table {self.table_id}",
                                           backoff.failures, why)
                    break
        finally:
            self._end(self._failure or ClientError("the seat's connection was closed"))

    async def _connect_once(self, backoff: Backoff) -> tuple[float | None, Exception]:
        """One socket, from opening to its end: why it ended and the server's hint."""
        try:
            socket = await connect(self._url(), open_timeout=self.open_timeout,
                                   max_size=None, additional_headers=self.headers)
        except InvalidStatus as exc:
            # A refusal before the upgrade (PROTOCOL.md): 503 (the database is away) and
            # 403 (too many sockets from this address) pass; a table gone does not.
            status = exc.response.status_code
            if status in (404, 410):
                self._failure = SeatLost(f"http_{status}", f"the server refused the "
                                         f"socket with HTTP {status}")
            return retry_after_header(exc.response.headers.get("Retry-After")), exc
        except (OSError, TimeoutError, InvalidHandshake) as exc:
            return None, exc
        except WebSocketException as exc:  # a bad address: trying again cannot help
            self._failure = ClientError(f"cannot open {self._url()}: {exc}")
            return None, exc
        self._socket = socket
        self.connects += 1
        fatal: str | None = None
        try:
            async for frame in socket:
                message = json.loads(frame)
                for one in message["messages"] if message["type"] == "batch" else [message]:
                    fatal = self._handle(one, backoff) or fatal
        except ConnectionClosed as exc:
            closed: Exception = exc
        else:
            closed = ConnectionError(f"the server closed the socket ({socket.close_code})")
        finally:
            self._socket = None
        code = socket.close_code
        if code in FATAL_CLOSE or fatal is not None:
            name = fatal or FATAL_CLOSE[code or 0]
            self._failure = SeatLost(name, f"the server closed the socket ({code})")
        hint, self._hint = self._hint, None
        return hint, closed

    def _handle(self, m: Message, backoff: Backoff) -> str | None:
        kind = m.get("type")
        if kind == "event":
            if m["n"] <= self.last_n:
                return None  # seen already (a resumed stream does not repeat; be safe)
            self.last_n = m["n"]
        elif kind == "state":
            self.state = m
            self.last_n = max(self.last_n, m["n"])
            backoff.reset()  # the catch-up arrived whole: this socket works
            for ref, pending in list(self._pending.items()):  # lost with the last socket
                if pending.resend is None and pending.sent_on != self.connects:
                    self._send_act(ref)
            self._contribute(m.get("fairness"))
        elif kind == "welcome":
            self.seat, self.table = m["seat"], m["table"]
            self._welcomed.set()
        elif kind == "table":
            self.table = m["table"]
        elif kind == "ack":
            answered = self._pending.get(m.get("id", -1))
            if answered is not None and not answered.answer.done():
                answered.answer.set_result(m)
            return None
        elif kind == "error":
            return self._refused(m)
        else:
            return None  # pong, hurry
        for queue in self._streams:
            queue.put_nowait(m)
        return None

    def _refused(self, m: Message) -> str | None:
        code = m.get("code")
        pending = self._pending.get(m.get("id", -1))
        if code in FATAL_ERRORS:
            return str(code)
        if pending is None:
            if code == "rate_limited":  # (ignored unread: its id is not known)
                self._resend_in_flight(m)
            elif code in RESEND:  # the socket is closing: open the next one after the hint
                self._hint = ServerError.from_frame(m).retry_after
            else:
                log.warning("table %s: %s", self.table_id, m)
            return None
        if code in RESEND:
            pending.resend = asyncio.create_task(self._resend_later(m["id"], m))
        elif not pending.answer.done():
            pending.answer.set_exception(ServerError.from_frame(m))
        return None

    def _resend_in_flight(self, m: Message) -> None:
        """A message the socket's rate ignored, unread: any act sent on this socket and
        not answered may be it, so each is sent again after a backoff (its key makes a
        repeat of one that was made an ``ack`` again, not a second action)."""
        for ref, pending in self._pending.items():
            if (pending.resend is None and pending.sent_on == self.connects
                    and not pending.answer.done()):
                pending.resend = asyncio.create_task(self._resend_later(ref, m))

    async def _resend_later(self, ref: int, m: Message) -> None:
        pending = self._pending[ref]
        error = ServerError.from_frame(m)
        if not await pending.backoff.wait(error.retry_after):
            if not pending.answer.done():
                pending.answer.set_exception(GaveUp(f"action {pending.action!r}",
                                                    pending.backoff.failures, error))
            return
        pending.resend = None
        self._send_act(ref)  # (or, with no socket now, after the next one's catch-up)

    def _contribute(self, fairness: Message | None) -> None:
        """Send this seat's contribution if the server awaits it (PROTOCOL.md)."""
        if (not fairness or not fairness.get("collecting") or self.seat is None
                or self.seat not in fairness.get("waiting", ())):
            return
        value = self.contributions.setdefault(fairness["game"], secrets.token_hex(32))
        self._spawn(self._send({"type": "contribute", "value": value}))

    def _spawn(self, sending: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(sending)
        self._sending.add(task)  # (a task must be referenced until it is done)
        task.add_done_callback(self._sending.discard)

    def _send_act(self, ref: int) -> None:
        pending = self._pending[ref]
        if self._socket is None or self.state is None:
            return  # sent once the socket is back and caught up
        if pending.sent_on:
            self.resends += 1
        pending.sent_on = self.connects
        message = {"type": "act", "action": pending.action, "id": ref, "key": pending.key}
        self._spawn(self._send(message))

    async def _send(self, message: Message) -> None:
        socket = self._socket
        if socket is None:
            return
        with contextlib.suppress(ConnectionClosed):  # resent after the reconnect
            await socket.send(json.dumps(message))

    def _end(self, why: ClientError) -> None:
        for pending in self._pending.values():
            if not pending.answer.done():
                pending.answer.set_exception(self._failure or why)
        if self._failure is None and not self._closing:
            self._failure = why
        if not self._ended:
            self._ended = True
            for queue in self._streams:
                queue.put_nowait(_END)


class Messages:
    """One reader's stream of a seat's messages (``Seat.messages``)."""

    def __init__(self, seat: Seat, queue: asyncio.Queue[Any]) -> None:
        self.seat, self.queue = seat, queue

    def __aiter__(self) -> Messages:
        return self

    async def __anext__(self) -> Message:
        item = await self.queue.get()
        if item is _END:
            self.close()
            self.queue.put_nowait(_END)  # (asked again: ends again)
            failure = self.seat._failure
            if failure is not None and not self.seat._closing:
                raise failure
            raise StopAsyncIteration
        message: Message = item
        return message

    def close(self) -> None:
        """Stop reading: nothing more is kept for this reader."""
        with contextlib.suppress(ValueError):
            self.seat._streams.remove(self.queue)
