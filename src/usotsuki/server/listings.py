"""The lobby's listings: each table's row in ``table_listings`` (meet_tables.py), written
by the worker that writes the table's log, read by every worker with one query.

A table tells its :class:`Listings` when anything a listing shows may have changed (a
seat, the status, its spectators); the changes of a ``listing_batch`` are written in one
transaction, and a row is written only when it differs from the one written last. A
worker that follows a table (cluster) writes only its spectators' count. While a person
sits at an open table with a socket, the worker holding that socket refreshes the row
every ``REFRESH_SECONDS``: a table whose people went away leaves the lobby after
``OPEN_FRESH`` seconds, and is never offered to a stranger who would wait there alone.
The writer of a game in play refreshes its row as often: a game whose worker died
leaves the list of live games.

A listing holds the table's public facts only: no token, no invite code, no card.
Its times are the server clock's; its batches and beats are real seconds (they pace
writes and reads, not play).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from usotsuki.server.config import Clock, Settings
from usotsuki.server.meet_tables import table_listings
from usotsuki.server.ratings import NEW, rating_of
from usotsuki.server.store import Store

if TYPE_CHECKING:
    from usotsuki.server.table import Table

log = logging.getLogger("usotsuki.server")

REFRESH_SECONDS = 60.0  # an open table with a person present is marked fresh this often
OPEN_FRESH = 5 * REFRESH_SECONDS  # an open table not refreshed this long is not listed
LIVE_FRESH = 5 * REFRESH_SECONDS  # a game its writer has not refreshed this long is over
LISTED = 100  # rows of each list at most

SharedCount = Callable[["Table", int], Awaitable[int]]
"""The spectators of a table over every worker, given this worker's (the cluster's)."""


def listing_of(table: Table) -> dict[str, Any]:
    """The table's listing as derived from its state (without times and ratings)."""
    seats = table.seats
    names = table.shown_names()
    people = [s for s in seats if s.bot is None and s.token_hash is not None]
    host = next((names[s.seat] for s in people), None)
    return {
        "table_pk": table.row.pk, "public_id": table.public_id, "game": table.game,
        "visibility": table.visibility, "status": table.status, "seats": len(seats),
        "seated": sum(1 for s in seats if s.bot is not None or s.token_hash is not None),
        "people": len(people),
        "rules": json.dumps(table.config["rules"], sort_keys=True, separators=(",", ":")),
        "turn_seconds": table.turn_seconds, "rated": table.rated,
        "spectators": table.spectators, "host": host,
    }


def _people_ids(table: Table) -> list[str]:
    return [s.player_id for s in table.seats
            if s.bot is None and s.token_hash is not None and s.player_id is not None]


@dataclass
class _Pending:
    table: Table
    full: bool  # the whole row (this worker writes the table's log); else spectators only
    closed: bool = False


def _upsert(conn: Connection, row: dict[str, Any]) -> None:
    dialect = conn.engine.dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    fields = {k: v for k, v in row.items() if k not in ("table_pk", "created")}
    conn.execute(insert(table_listings).values(**row)
                 .on_conflict_do_update(index_elements=["table_pk"], set_=fields))


def write_listings(engine: Engine, full: list[tuple[dict[str, Any], list[str]]],
                   spectators: list[tuple[int, int]], now: float) -> None:
    """Write listings in one transaction: ``full`` each whole row with its seated
    people's ids (a rated table shows their rating range), ``spectators`` (table pk,
    count) of tables whose log another worker writes."""
    with engine.begin() as conn:
        for row, people in full:
            row = {**row, "rating_low": None, "rating_high": None, "created": now,
                   "updated": now}
            if row["rated"] and people:
                shown = [(rating_of(conn, p, row["game"]) or NEW).shown for p in people]
                row["rating_low"], row["rating_high"] = min(shown), max(shown)
            _upsert(conn, row)
        for pk, count in spectators:
            conn.execute(update(table_listings).where(table_listings.c.table_pk == pk)
                         .values(spectators=count))


def refresh(engine: Engine, pks: list[int], now: float) -> None:
    """Mark these tables' listings fresh (a person is present at each)."""
    with engine.begin() as conn:
        conn.execute(update(table_listings).where(table_listings.c.table_pk.in_(pks))
                     .values(updated=now))


def _shown(row: Any) -> dict[str, Any]:
    rating = None if row.rating_low is None else [row.rating_low, row.rating_high]
    return {"table_id": row.public_id, "game": row.game, "status": row.status,
            "seats": row.seats, "seated": row.seated, "people": row.people,
            "rules": json.loads(row.rules), "turn_seconds": row.turn_seconds,
            "rated": row.rated, "rating": rating, "spectators": row.spectators,
            "host": row.host}


def open_tables(engine: Engine, now: float) -> list[dict[str, Any]]:
    """Public tables waiting for players with a free seat and a person present lately,
    the newest first."""
    c = table_listings.c
    query = (select(table_listings)
             .where(c.visibility == "public", c.status == "waiting", c.seated < c.seats,
                    c.updated >= now - OPEN_FRESH)
             .order_by(c.created.desc(), c.table_pk.desc()).limit(LISTED))
    with engine.connect() as conn:
        return [_shown(r) for r in conn.execute(query).all()]


def live_games(engine: Engine, now: float) -> list[dict[str, Any]]:
    """Public games being played (an action lately), the most watched first."""
    c = table_listings.c
    query = (select(table_listings)
             .where(c.visibility == "public", c.status == "playing",
                    c.updated >= now - LIVE_FRESH)
             .order_by(c.spectators.desc(), c.updated.desc(), c.table_pk.desc())
             .limit(LISTED))
    with engine.connect() as conn:
        return [_shown(r) for r in conn.execute(query).all()]


class Listings:
    """One worker's writer of listings (the tables it has loaded) and the lobby's feed."""

    def __init__(self, store: Store, settings: Settings, clock: Clock,
                 tables: Callable[[], Iterable[Table]]) -> None:
        self.store, self.settings, self.clock = store, settings, clock
        self._tables = tables  # the tables loaded on this worker
        self._pending: dict[int, _Pending] = {}
        # table pk -> its row written last (a follower's: its spectators' count only)
        self._written: dict[int, dict[str, Any]] = {}
        self._counted: dict[int, int] = {}  # table pk -> this worker's spectators told
        self._flush: asyncio.Task[None] | None = None
        self._refresher: asyncio.Task[None] | None = None
        self.shared_count: SharedCount | None = None  # (set by a cluster)
        self.feed = LobbyFeed(self)

    def start(self) -> None:
        self._refresher = asyncio.get_running_loop().create_task(self._refresh_forever())

    def stop(self) -> None:
        for task in (self._flush, self._refresher):
            if task is not None:
                task.cancel()
        self.feed.stop()

    # a table changed

    def changed(self, table: Table) -> None:
        """Something the table's listing shows may have changed: written within a batch."""
        pending = self._pending.get(table.row.pk)
        if pending is None:
            self._pending[table.row.pk] = _Pending(table, table.writer)
        else:
            pending.table, pending.full = table, pending.full or table.writer
        if self._flush is None:
            self._flush = asyncio.get_running_loop().create_task(self._flush_later())

    def closed(self, table: Table) -> None:
        """The table expired: its listing says so (it is listed no more)."""
        self._pending[table.row.pk] = _Pending(table, True, closed=True)
        if self._flush is None:
            self._flush = asyncio.get_running_loop().create_task(self._flush_later())

    def forget(self, table: Table) -> None:
        """The table left this worker's memory: what was written of it may change
        elsewhere meanwhile (its next writer may be another worker)."""
        if table.row.pk not in self._pending:
            self._written.pop(table.row.pk, None)
            self._counted.pop(table.row.pk, None)

    async def _flush_later(self) -> None:
        try:
            await asyncio.sleep(self.settings.listing_batch)
        finally:
            self._flush = None
        try:
            await self.flush()
        except Exception:  # the database away: the table's next change writes it
            log.warning("listings not written", exc_info=True)

    async def flush(self) -> None:
        """Write the pending changes now (one transaction)."""
        pending, self._pending = self._pending, {}
        full: list[tuple[dict[str, Any], list[str]]] = []
        spectators: list[tuple[int, int]] = []
        for pk, change in pending.items():
            table = change.table
            await self._count(table)
            if change.full:
                row = listing_of(table)
                if change.closed:
                    row["status"] = "closed"
                if self._written.get(pk) != row:
                    full.append((row, _people_ids(table)))
                    self._written[pk] = row
            elif (table.visibility == "public"
                  and self._written.get(pk, {}).get("spectators") != table.spectators):
                spectators.append((pk, table.spectators))
                self._written[pk] = {"spectators": table.spectators}
        if full or spectators:
            try:
                await self.store.call(write_listings, self.store.engine, full, spectators,
                                      self.clock.time())
            except BaseException:
                for pk in [row["table_pk"] for row, _ in full] + [pk for pk, _ in spectators]:
                    self._written.pop(pk, None)  # written again at the next change
                raise
        for pk, change in pending.items():
            if change.closed:
                self._written.pop(pk, None)
                self._counted.pop(pk, None)

    async def _count(self, table: Table) -> None:
        """Learn the table's spectators over the cluster when this worker's count changed
        (none at first; the others' counts arrive by themselves:
        ``Table.watching_elsewhere``)."""
        here = table.spectators_here
        if self.shared_count is None or self._counted.get(table.row.pk, 0) == here:
            return
        self._counted[table.row.pk] = here
        with contextlib.suppress(Exception):  # Redis away: this worker's count stands
            table.watching_elsewhere = max(0, await self.shared_count(table, here) - here)

    # open tables stay listed while a person is present, live games while played

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            present = [t.row.pk for t in self._tables() if t.visibility == "public" and (
                (t.status == "waiting" and any(c.seat is not None for c in t.clients))
                or (t.writer and t.playing and not t.parked))]
            if present:
                try:
                    await self.store.call(refresh, self.store.engine, present,
                                          self.clock.time())
                except Exception:
                    log.warning("open tables not refreshed", exc_info=True)

    # reading

    async def snapshot(self) -> dict[str, list[dict[str, Any]]]:
        """The open public tables and the live public games, as every worker reads them."""
        now = self.clock.time()
        return await self.store.call(_snapshot, self.store.engine, now)


def _snapshot(engine: Engine, now: float) -> dict[str, list[dict[str, Any]]]:
    return {"open": open_tables(engine, now), "live": live_games(engine, now)}


class LobbyFeed:
    """The lobby's live feed: while anyone listens, the listings are read once per
    ``lobby_feed_seconds`` (one query for all of this worker's listeners, whatever the
    number of tables or changes) and each listener gets the new snapshot if it changed.
    A listener holds one frame at most: one that reads slowly skips to the newest."""

    def __init__(self, listings: Listings) -> None:
        self.listings = listings
        self._listeners: set[asyncio.Queue[str | None]] = set()
        self._poller: asyncio.Task[None] | None = None
        self._last: str | None = None

    def listen(self) -> asyncio.Queue[str | None]:
        queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1)
        self._listeners.add(queue)
        if self._last is not None:
            queue.put_nowait(self._last)
        if self._poller is None:
            self._poller = asyncio.get_running_loop().create_task(self._poll_forever())
        return queue

    def leave(self, queue: asyncio.Queue[str | None]) -> None:
        self._listeners.discard(queue)

    @property
    def listeners(self) -> int:
        return len(self._listeners)

    async def _poll_forever(self) -> None:
        try:
            while self._listeners:
                try:
                    frame = json.dumps(await self.listings.snapshot(), ensure_ascii=False,
                                       separators=(",", ":"))
                except Exception:  # the database away: the listeners keep the last one
                    log.warning("lobby feed not read", exc_info=True)
                else:
                    if frame != self._last:
                        self._last = frame
                        for queue in self._listeners:
                            _replace(queue, frame)
                await asyncio.sleep(self.listings.settings.lobby_feed_seconds)
        finally:
            self._poller = None
            self._last = None

    def stop(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
        for queue in self._listeners:  # each stream ends
            _replace(queue, None)


def _replace(queue: asyncio.Queue[str | None], frame: str | None) -> None:
    """Put ``frame`` in place of whatever the listener has not read yet."""
    with contextlib.suppress(asyncio.QueueEmpty):
        queue.get_nowait()
    queue.put_nowait(frame)
