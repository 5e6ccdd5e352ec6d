"""Where a table's accepted commands become durable: the ``TableLog`` port and its two
adapters (ports and adapters: the one ``Table`` is given the one that fits).

- :class:`StoreLog`: a single worker writes the table's rows in its :class:`Store`
  (SQLite or PostgreSQL), in the store's thread.
- :class:`FencedTableLog`: a cluster worker writes only while it holds the table's lease:
  each write checks the lease's fencing token in the same transaction, so a worker that
  lost the table can never write again; what it wrote is kept for the followers.

Each call returns once its write is committed: the table tells nobody of an entry before.
A write that cannot reach the database (after one more try on a fresh connection) raises
``Refused("unavailable")`` with a retry hint: the table changes nothing, and reads its log
back before its next command (the write may have committed before its answer was lost).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import sqlalchemy.exc

from usotsuki.server.config import Refused
from usotsuki.server.lease import Fenced, FencedLog
from usotsuki.server.store import SeatRow, Store

Entry = tuple[str, dict[str, Any]]
"""A log entry: its kind ("start", "action", "chance") and data."""

NOT_OWNER = "not_owner"
"""A cluster command reached a worker that does not (or no longer) own the table."""


class TableLog(Protocol):
    async def append(self, first: int, entries: list[Entry], now: float) -> None:
        """Commit entries ``first``, ``first + 1`` ... in one transaction (all or none)
        and mark the table used at ``now``."""

    async def set_seat(self, row: SeatRow, now: float) -> None:
        """Commit a seat's new holder and mark the table used at ``now``."""


class StoreLog:
    """A table's log in the :class:`Store` of a single worker. A write that failed on a
    lost connection runs once more (the engine's pool replaces the connection); run
    again after a commit whose answer was lost, its primary key refuses it, and the
    log holding exactly these entries means it was written."""

    def __init__(self, store: Store, table_pk: int) -> None:
        self.store, self.table_pk = store, table_pk

    async def append(self, first: int, entries: list[Entry], now: float) -> None:
        async def written() -> bool:
            logged = await self.store.call(self.store.load_log, self.table_pk)
            return [(e.kind, e.data) for e in logged[first:first + len(entries)]] == entries

        with self.store.health.as_unavailable():
            await once_more(lambda: self.store.call(self.store.append_many, self.table_pk,
                                                    first, entries, now), written)
        self.store.health.answered()

    async def set_seat(self, row: SeatRow, now: float) -> None:
        with self.store.health.as_unavailable():  # (an update: run twice, it is one)
            await once_more(lambda: self.store.call(self.store.set_seat, self.table_pk,
                                                    row, now))
        self.store.health.answered()


async def once_more(write: Callable[[], Awaitable[None]],
                    written: Callable[[], Awaitable[bool]] | None = None) -> None:
    """``write()``, run again if its connection was lost; ``written``: whether the log
    holds what it writes (asked when the second run is refused as a duplicate)."""
    try:
        await write()
        return
    except sqlalchemy.exc.DBAPIError as exc:
        if not exc.connection_invalidated:
            raise
    try:
        await write()
    except sqlalchemy.exc.IntegrityError:
        if written is None or not await written():
            raise


def not_owner(why: str = "this worker does not own the table") -> Refused:
    return Refused(NOT_OWNER, why, 503)


class FencedTableLog:
    """A table's log written by the cluster worker holding its lease (``token()``; None:
    a follower, which writes nothing). A stale token loses the table (``lost``). Each
    committed entry is kept in ``outgoing`` for the followers until it is published;
    each seat change is handed to ``seat_written``."""

    def __init__(self, fenced: FencedLog, table_pk: int, token: Callable[[], int | None],
                 lost: Callable[[str], None], seat_written: Callable[[SeatRow], None]) -> None:
        self.fenced, self.table_pk = fenced, table_pk
        self.token, self.lost, self.seat_written = token, lost, seat_written
        self.outgoing: list[list[Any]] = []  # [kind, data] committed, not yet published

    def _token(self) -> int:
        token = self.token()
        if token is None:
            raise not_owner()
        return token

    async def append(self, first: int, entries: list[Entry], now: float) -> None:
        try:
            with self.fenced.store.health.as_unavailable():
                await self.fenced.append_many(self.table_pk, first, entries, now,
                                              self._token())
        except Fenced:
            self.lost("fenced")
            raise not_owner("this worker lost the table's lease") from None
        self.fenced.store.health.answered()
        self.outgoing += [[kind, data] for kind, data in entries]

    async def set_seat(self, row: SeatRow, now: float) -> None:
        try:
            with self.fenced.store.health.as_unavailable():
                await self.fenced.set_seat(self.table_pk, row, now, self._token())
        except Fenced:
            self.lost("fenced")
            raise not_owner("this worker lost the table's lease") from None
        self.fenced.store.health.answered()
        self.seat_written(row)
