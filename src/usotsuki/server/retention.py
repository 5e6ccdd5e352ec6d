"""Retention: an expired table's games stay readable; its hot data goes after a while.

A table that expired (``idle_seconds`` without a command) is never played again. For
``retention_seconds`` more its rows stay as they were; then a compaction keeps each of
its games' record (what :meth:`Table.record` served, as JSON) in ``archived_games`` and
deletes its log, its lease and its seats' token hashes (names and bots stay), marking
``tables.archived``. The records of an expired table's finished games are served all
along: folded from its log (read-only) until it is compacted, from the archive after.

A compaction reads a table, folds its log off the store's threads, then writes the
archive in one short transaction that checks again, under the table row's lock, that
the table is still expired, not yet archived and its log unchanged. On PostgreSQL a
pass runs in one worker at a time (an advisory lock; the others skip theirs).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, text, update

from usotsuki.games import AnySession
from usotsuki.server.config import Clock, Refused, Settings
from usotsuki.server.lease import leases
from usotsuki.server.lobby import Lobby
from usotsuki.server.store import (
    LogEntry,
    SeatRow,
    Store,
    TableRow,
    _table_row,
    archived_games,
    log,
    seats,
    tables,
)
from usotsuki.server.table import Table

logger = logging.getLogger("usotsuki.server")

LOCK = 16017  # PostgreSQL advisory lock of a compaction pass (migrate.LOCK + 1)
BATCH = 100  # tables looked at per query
FOLDED = 32  # expired, not yet compacted tables whose folded games are kept in memory


@dataclass(frozen=True, slots=True)
class EndedGame:
    """One game of an expired table: whether it ended, and its record as JSON text
    (None if a game never dealt has none)."""

    number: int
    finished: bool
    record: str | None


@dataclass
class Compacted:
    tables: int = 0
    games: int = 0
    entries: int = 0  # log rows deleted


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def fold_games(row: TableRow, seat_rows: list[SeatRow], entries: list[LogEntry],
               store: Store, settings: Settings, clock: Clock) -> list[EndedGame]:
    """Every game of the table, from its log, through the same fold as play (CPU work:
    off the event loop)."""
    table = Table(row, seat_rows, store, settings, clock)
    table.replay(entries)
    games = []
    for slot in table.games:
        if slot.session.is_over:  # the record the table served
            games.append(EndedGame(slot.number, True, _dumps(table.record(slot.number))))
        else:  # the table expired mid-game: kept for the operator, never served
            games.append(EndedGame(slot.number, False, _partial_record(slot.session)))
    return games


def _partial_record(session: AnySession) -> str | None:
    try:
        return _dumps(session.record())
    except Exception:  # a state the record format cannot hold: its log was all there was
        logger.warning("an unfinished game has no record", exc_info=True)
        return None


# the store's side (blocking: run through ``store.call``)

def expired_tables(store: Store, cutoff: float, after: int, limit: int) -> list[TableRow]:
    """Tables last used before ``cutoff`` and not archived, by primary key after ``after``."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(tables).where(
            tables.c.archived.is_(None), tables.c.active < cutoff, tables.c.pk > after)
            .order_by(tables.c.pk).limit(limit)).all()
    return [_table_row(r) for r in rows]


def table_contents(store: Store, table_pk: int) -> tuple[list[SeatRow], list[LogEntry]]:
    return store.load_seats(table_pk), store.load_log(table_pk)


def archive(store: Store, table_pk: int, games: list[EndedGame], entries: int,
            cutoff: float, now: float) -> bool:
    """Keep ``games`` and drop the table's hot rows, in one transaction, if the table is
    still unused since before ``cutoff``, not archived and holds ``entries`` log rows
    (else nothing is done: False)."""
    with store.engine.begin() as conn:
        row = conn.execute(select(tables.c.active, tables.c.archived)
                           .where(tables.c.pk == table_pk).with_for_update()).first()
        if row is None or row.archived is not None or row.active >= cutoff:
            return False
        logged = conn.execute(select(func.count()).select_from(log)
                              .where(log.c.table_pk == table_pk)).scalar()
        if logged != entries:
            return False
        if games:
            conn.execute(insert(archived_games), [
                {"table_pk": table_pk, "number": g.number, "finished": g.finished,
                 "record": g.record} for g in games])
        conn.execute(delete(log).where(log.c.table_pk == table_pk))
        conn.execute(delete(leases).where(leases.c.table_pk == table_pk))
        conn.execute(update(seats).where(seats.c.table_pk == table_pk)
                     .values(token_hash=None))
        conn.execute(update(tables).where(tables.c.pk == table_pk).values(archived=now))
    return True


def archived_game(store: Store, table_pk: int, number: int) -> EndedGame | None:
    with store.engine.connect() as conn:
        row = conn.execute(select(archived_games).where(
            archived_games.c.table_pk == table_pk,
            archived_games.c.number == number)).first()
    return None if row is None else EndedGame(row.number, row.finished, row.record)


class _PassLock:
    """On PostgreSQL, one compaction pass at a time over every worker: an advisory lock,
    held by a connection of its own until the pass ends (SQLite has one process)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._conn: Connection | None = None

    def acquire(self) -> bool:
        """Whether this process may compact now (False: another one is)."""
        if self.store.engine.dialect.name != "postgresql":
            return True
        conn = self.store.engine.connect()
        got = bool(conn.execute(text(f"SELECT pg_try_advisory_lock({LOCK})")).scalar())
        conn.commit()
        if got:
            self._conn = conn
        else:
            conn.close()
        return got

    def release(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            try:
                conn.execute(text(f"SELECT pg_advisory_unlock({LOCK})"))
                conn.commit()
            finally:
                conn.close()  # (a broken connection's lock ends with its session)


async def compact(store: Store, settings: Settings, clock: Clock, retention: float,
                  limit: int | None = None) -> Compacted | None:
    """Compact the tables expired for longer than ``retention`` seconds (at most
    ``limit``); None if another worker is compacting now."""
    done = Compacted()
    lock = _PassLock(store)
    if not await asyncio.to_thread(lock.acquire):
        return None
    try:
        now = clock.time()
        cutoff = now - settings.idle_seconds - retention
        after = 0
        while limit is None or done.tables < limit:
            batch = await store.call(expired_tables, store, cutoff, after, BATCH)
            if not batch:
                break
            for row in batch:
                after = row.pk
                await _compact_one(store, settings, clock, row, cutoff, now, done)
                if limit is not None and done.tables >= limit:
                    break
    finally:
        await asyncio.to_thread(lock.release)
    return done


async def _compact_one(store: Store, settings: Settings, clock: Clock, row: TableRow,
                       cutoff: float, now: float, done: Compacted) -> None:
    seat_rows, entries = await store.call(table_contents, store, row.pk)
    try:
        games = await asyncio.to_thread(fold_games, row, seat_rows, entries, store,
                                        settings, clock)
    except Exception:  # a log this code cannot fold stays as it is, for a person to see
        logger.exception("table %s: its log does not fold; not compacted", row.public_id)
        return
    if await store.call(archive, store, row.pk, games, len(entries), cutoff, now):
        done.tables += 1
        done.games += len(games)
        done.entries += len(entries)


async def compact_forever(store: Store, settings: Settings, clock: Clock) -> None:
    """A compaction pass every ``settings.compact_seconds`` (the server's task)."""
    assert settings.retention_seconds is not None
    while True:
        await clock.sleep(settings.compact_seconds)
        try:
            done = await compact(store, settings, clock, settings.retention_seconds,
                                 limit=settings.compact_tables)
        except Exception:  # the database away: the next pass tries again
            logger.exception("the compaction of expired tables failed")
            continue
        if done is not None and done.tables:
            logger.info("compacted %d expired tables: %d games' records kept, %d log "
                        "entries deleted", done.tables, done.games, done.entries)


class Records:
    """Finished games' records by table id: from the table in play, or once it expired
    from its log (folded, read-only) or its archive."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self._folded: OrderedDict[int, list[EndedGame]] = OrderedDict()

    async def record(self, table_id: str, number: int) -> dict[str, Any]:
        try:
            table = await self.lobby.get(table_id)
        except Refused as refused:
            if refused.code != "expired":
                raise
        else:
            return table.record(number)
        game = await self._ended(table_id, number)
        if game is None:
            raise Refused("not_found", f"no game {number} at this table", 404)
        if not game.finished or game.record is None:
            raise Refused("not_finished", "this game did not end before its table expired: "
                          "it has no record", 409)
        record: dict[str, Any] = json.loads(game.record)
        return record

    async def _ended(self, table_id: str, number: int) -> EndedGame | None:
        store = self.lobby.store
        for _ in range(2):  # a compaction between reading the row and the log: again
            row = await store.call(store.find_table, public_id=table_id)
            if row is None:
                return None
            if row.archived is not None:
                return await store.call(archived_game, store, row.pk, number)
            games = self._folded.get(row.pk)
            if games is None:
                seat_rows, entries = await store.call(table_contents, store, row.pk)
                games = await asyncio.to_thread(fold_games, row, seat_rows, entries, store,
                                                self.lobby.settings, self.lobby.clock)
                if not entries:
                    continue
                self._folded[row.pk] = games
                while len(self._folded) > FOLDED:
                    self._folded.popitem(last=False)
            self._folded.move_to_end(row.pk)
            return games[number] if 0 <= number < len(games) else None
        return None
