"""What goes over the wire: encoded messages, numbered events, a client's outgoing queue,
and the table's event stream (a bounded tail in memory, older events compressed)."""

from __future__ import annotations

import asyncio
import json
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

import orjson

from usotsuki.core.events import visible_to

QUEUE_LIMIT = 2000  # messages waiting for one client; a client this far behind is dropped


def encode(message: dict[str, Any]) -> str:
    """Compact JSON text, non-ASCII as is (several per action: orjson, several times
    faster than the standard library's)."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # what orjson refuses (a lone surrogate, a key that is not a
        # string, an integer past 64 bits): the standard library's text, as before
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Numbered:
    """An event with its number in the table's stream and who may see it."""

    n: int
    audience: frozenset[int] | None
    wire: str  # the "event" message as sent, encoded once for every receiver
    action: str | None = None  # the canonical text, for a server "action" event

    def to_json(self) -> dict[str, Any]:
        event: dict[str, Any] = json.loads(self.wire)["event"]
        return event


@dataclass(frozen=True, slots=True)
class Backlog:
    """Many encoded messages queued as one item (a catch-up's or a ``sync``'s events): a
    long table's history takes one place in a client's queue, and its sender sends it in
    frames of bounded size."""

    texts: list[str]


@dataclass(eq=False)
class Client:
    """One connection: its seat (None: a spectator), whether it shows the honest hint
    (its ``state`` messages carry it only then: a hint costs milliseconds of CPU) and
    takes batch frames, the hash of the token it joined with (``holder``), and its
    outgoing queue. A seated client speaks for its seat only while that token still
    holds the seat (``Table.holds``): leaving, a bot taking over or a new join end it."""

    seat: int | None
    hints: bool = False
    batch: bool = False  # messages queued together go in one "batch" frame
    holder: str | None = None  # the seat's token hash when this client connected
    queue: asyncio.Queue[str | Backlog | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    dropped: bool = False
    queued_at: float = 0.0  # when the oldest message waiting in the queue was queued
    player: str | None = None  # the identity of the socket's session cookie, if any
    name: str | None = None  # that player's name (a spectator's in chat)
    muted: set[str] = field(default_factory=set)  # players whose moments it is not told

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        self._put(text)

    def send_backlog(self, texts: list[str]) -> None:
        """Queue many messages in one place of the queue (sent in order, in pages)."""
        if texts:
            self._put(Backlog(texts))

    def _put(self, item: str | Backlog) -> None:
        if self.dropped:
            return
        if self.queue.empty():
            self.queued_at = time.perf_counter()
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            self.dropped = True  # the sender task closes the socket
            self.queue = asyncio.Queue()
            self.queue.put_nowait(None)

    def close(self) -> None:
        """Ask the sender task to close the socket once the queue is sent."""
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.dropped = True


class EventStream:
    """A table's numbered events: the last ``keep`` .. ``keep + chunk`` in memory as they
    are sent, every older block of ``chunk`` events zlib-compressed. Resuming from any
    number still gets every event after it; memory per event drops about tenfold once
    it is old (and a table's events are bounded by its action cap)."""

    def __init__(self, keep: int = 2000, chunk: int = 1000) -> None:
        self.keep, self.chunk = keep, chunk
        self._blocks: list[bytes] = []  # block i holds events i*chunk .. (i+1)*chunk - 1
        self._tail: list[Numbered] = []  # events from len(_blocks) * chunk on

    def __len__(self) -> int:
        return len(self._blocks) * self.chunk + len(self._tail)

    @property
    def in_memory(self) -> int:
        """Events kept uncompressed (bounded by ``keep + chunk``)."""
        return len(self._tail)

    def append(self, event: Numbered) -> None:
        assert event.n == len(self)
        self._tail.append(event)
        if len(self._tail) >= self.keep + self.chunk:
            old, self._tail = self._tail[:self.chunk], self._tail[self.chunk:]
            packed = [[None if e.audience is None else sorted(e.audience), e.wire]
                      for e in old]
            self._blocks.append(zlib.compress(encode({"events": packed}).encode(), 6))

    def _block(self, index: int) -> list[tuple[frozenset[int] | None, str]]:
        packed = json.loads(zlib.decompress(self._blocks[index]))["events"]
        return [(None if a is None else frozenset(a), w) for a, w in packed]

    def since(self, seat: int | None, since: int) -> list[str]:
        """The encoded event messages after number ``since`` that ``seat`` may see."""
        first = max(since + 1, 0)
        out: list[str] = []
        for index in range(first // self.chunk, len(self._blocks)):
            skip = first - index * self.chunk
            for audience, wire in self._block(index)[max(skip, 0):]:
                if audience is None or (seat is not None and seat in audience):
                    out.append(wire)
        start = len(self._blocks) * self.chunk
        out += [e.wire for e in self._tail[max(first - start, 0):] if visible_to(e, seat)]
        return out
