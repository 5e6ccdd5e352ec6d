"""Table leases with fencing tokens, in PostgreSQL next to the log.

Each table is owned by one worker at a time: the row ``leases(table_pk)`` (a table of the
schema's migrations, :mod:`usotsuki.server.migrate`) names the
owner, a fencing ``token`` that grows by one at every change of owner, and when the
lease ``expires`` (the database's clock, so workers' clocks need not agree). An owner
renews all its leases in one statement every ``ttl / 4`` seconds (from a thread of its
own, so a busy event loop cannot delay it); a worker that dies stops renewing, and
``grace`` seconds after its leases expire any other worker may take its tables. A late
renewal still succeeds while nobody has taken the lease (its token is unchanged), so a
starved worker's tables do not bounce between workers. A table with no game in play
(its game over, or unloaded as unused) has its lease given up (:meth:`Leases.give_up`):
owned by nobody, no renewal rewrites it and no worker claims it, until a command takes
it again (:meth:`Leases.acquire`, the token one more).

The log is written only through :meth:`Leases.append` (and seats through
:meth:`Leases.set_seat`): one statement (one round trip, atomic on its own) locks the
lease row (``FOR KEY SHARE``), checks the writer's token, and only then inserts the
entry. A worker whose lease was taken holds an older token, so its writes are refused
(:class:`Fenced`) even if it comes back from a pause; a takeover waits for any write in
flight to commit, and the new owner reads the log after that, so no committed entry is
ever missed. The token is a key column (a unique index holds it), so every change of
owner (the token grows) waits for the writes in flight and they for it, while renewals
(``expires`` only) and writes never wait for each other: a renewal updates hundreds of
rows at once, and writes must not queue behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from select import select as ready_to_read
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout
from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    TextClause,
    create_engine,
    select,
    text,
)

from usotsuki.server.store import (
    LogEntry,
    SeatRow,
    Store,
    TableRow,
    _table_row,
    log,
    tables,
)

metadata = MetaData()

leases = Table(
    "leases", metadata,
    Column("table_pk", Integer, primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("token", BigInteger, nullable=False),  # the fencing token: +1 per new owner
    Column("expires", Float, nullable=False),  # epoch seconds, the database's clock
    # The unique index that makes the token a key column for PostgreSQL's row locks: an
    # UPDATE changing it takes FOR UPDATE (it conflicts with a write's FOR KEY SHARE), one
    # changing ``expires`` only takes FOR NO KEY UPDATE (it does not).
    Index("leases_token", "table_pk", "token", unique=True),
)

NOW = "extract(epoch from clock_timestamp())"
RELEASED = ""  # the owner of a lease given up for good (a finished or unloaded table)
# A lease of a table in play: not given up, and its log not empty (a game started).
_IN_PLAY = (f"l.owner <> '{RELEASED}' "
            f"AND EXISTS (SELECT 1 FROM log g WHERE g.table_pk = l.table_pk)")
POOL = 12  # connections of the autocommit engine (commits at once, renewals, reads)
# Connections of a worker's fenced writes (opened as needed; a few at start). A write
# holds its connection for several turns of the event loop, so a busy loop holds each
# far longer than the database takes: after a SIGKILL (the survivors' loops busy with
# reconnections) 12 were too few, and writes queued for them for up to 4.6 s (the
# ``pool`` phase). Every worker together needs the database's ``max_connections`` above
# 3 x (16 + 24 + 32) = 216 at most (the compose stack sets 300).
WRITES = 32
WRITES_AT_START = 8
# Seconds a write waits for a connection (a busy pool's, or one being made) before it is
# refused as ``unavailable``: past the 4.6 s queue seen after a SIGKILL, below a
# person's patience.
CONNECTION_WAIT = 5.0
# The pool's attempts to replace a lost connection back off (1 s, 2 s, 4 s ...): past
# this many seconds one is given up, and the next statement that waits (a write, or the
# probe of ``health``, every half second while the database is away) starts a new one at
# once. After an outage of any length the pool reconnects within about a second.
RECONNECT_SECONDS = 0.5

# One statement each (atomic on their own): the lease row is locked FOR KEY SHARE and the
# writer's token checked; the entry (or seat) is written only if it matched. A change of
# owner updates the token, a key column (the index ``leases_token``): it waits for this lock.
_APPEND = text(
    "WITH held AS (SELECT 1 FROM leases WHERE table_pk = :pk AND owner = :me "
    "AND token = :token FOR KEY SHARE), "
    "entry AS (INSERT INTO log (table_pk, seq, kind, data) "
    "SELECT :pk, :seq, :kind, :data FROM held RETURNING 1), "
    "used AS (UPDATE tables SET active = :now WHERE pk = :pk "
    "AND EXISTS (SELECT 1 FROM held)) "
    "SELECT count(*) FROM entry")
_SET_SEAT = text(
    "WITH held AS (SELECT 1 FROM leases WHERE table_pk = :pk AND owner = :me "
    "AND token = :token FOR KEY SHARE), "
    "seat AS (UPDATE seats SET name = :name, token_hash = :hash, bot = :bot, "
    "player_id = :player "
    "WHERE table_pk = :pk AND seat = :seat AND EXISTS (SELECT 1 FROM held) RETURNING 1), "
    "used AS (UPDATE tables SET active = :now WHERE pk = :pk "
    "AND EXISTS (SELECT 1 FROM held)) "
    "SELECT (SELECT count(*) FROM held), (SELECT count(*) FROM seat)")
# Several entries of one table at once (an action and the deal it makes due).
_APPEND_MANY = (
    "WITH held AS (SELECT 1 FROM leases WHERE table_pk = %(pk)s AND owner = %(me)s "
    "AND token = %(token)s FOR KEY SHARE), "
    "entry AS (INSERT INTO log (table_pk, seq, kind, data) "
    "SELECT %(pk)s, e.seq, e.kind, e.data FROM held, unnest(CAST(%(seqs)s AS integer[]), "
    "CAST(%(kinds)s AS text[]), CAST(%(datas)s AS text[])) AS e(seq, kind, data) "
    "RETURNING 1), "
    "used AS (UPDATE tables SET active = %(now)s WHERE pk = %(pk)s "
    "AND EXISTS (SELECT 1 FROM held)) "
    "SELECT count(*) FROM entry")
# A lease nobody renews (expired past the grace, and ``later`` seconds more) of a table
# in play used since ``since`` (``l``: the lease, ``t``: its table).
_ORPHAN = f"l.expires <= {NOW} - :grace - :later AND t.active >= :since AND {_IN_PLAY}"


class Fenced(Exception):
    """A write by a worker that no longer owns the table: refused, nothing written."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Leases:
    """The lease operations of one worker (``worker``: its unique id) on ``store``
    (PostgreSQL). Every method blocks: the server runs them through ``store.call``."""

    def __init__(self, store: Store, worker: str, ttl: float = 3.0,
                 grace: float | None = None) -> None:
        if not store.url.startswith("postgresql"):
            raise ValueError("several workers need a PostgreSQL database (--db postgresql://...)")
        self.store = store
        self.worker = worker
        self.ttl = ttl
        # Others wait this long past the expiry before taking a lease: a late renewal
        # (a starved owner) keeps its tables. Set from ttl, not fitted.
        self.grace = ttl / 3 if grace is None else grace
        # Single statements need no transaction around them: autocommit saves the BEGIN,
        # COMMIT and the reset round trips of each call.
        # (pre-ping: a connection the database closed is replaced when taken, and the
        # first one found closed invalidates the rest of the pool)
        self.engine = create_engine(store.engine.url, isolation_level="AUTOCOMMIT",
                                    pool_size=POOL, max_overflow=POOL,
                                    pool_reset_on_return=None, pool_pre_ping=True)

    def acquire(self, table_pk: int, take_expired: bool = True) -> int | None:
        """Take the table's lease if it is free, expired for longer than the grace (or
        already ours): the token, or None when another worker holds it.
        ``take_expired=False``: an expired lease of another worker is left to it (the
        database just came back: its owner renews it first); one given up is taken."""
        with self.engine.connect() as conn:
            row = conn.execute(text(
                f"INSERT INTO leases (table_pk, owner, token, expires) "
                f"VALUES (:pk, :me, 1, {NOW} + :ttl) "
                f"ON CONFLICT (table_pk) DO UPDATE SET owner = :me, expires = {NOW} + :ttl, "
                f"token = CASE WHEN leases.owner = :me AND leases.expires > {NOW} "
                f"THEN leases.token ELSE leases.token + 1 END "
                f"WHERE leases.owner IN (:me, '{RELEASED}') "
                f"OR (:take AND leases.expires <= {NOW} - :grace) RETURNING token"),
                {"pk": table_pk, "me": self.worker, "ttl": self.ttl,
                 "grace": self.grace, "take": take_expired}).first()
        return None if row is None else int(row[0])

    def holder(self, table_pk: int) -> tuple[str, int] | None:
        """The worker holding a lease on the table (live, or expired within the grace:
        it may renew it yet), and its token; None if none."""
        with self.engine.connect() as conn:
            row = conn.execute(text(
                f"SELECT owner, token FROM leases WHERE table_pk = :pk "
                f"AND expires > {NOW} - :grace"), {"pk": table_pk, "grace": self.grace}).first()
        return None if row is None else (str(row[0]), int(row[1]))

    def current(self, table_pk: int) -> tuple[str, int] | None:
        """The lease row's owner and token, expired or not (whoever holds this token
        is the only one who can have written since it was set)."""
        with self.engine.connect() as conn:
            row = conn.execute(text("SELECT owner, token FROM leases WHERE table_pk = :pk"),
                               {"pk": table_pk}).first()
        return None if row is None else (str(row[0]), int(row[1]))

    def holder_until(self, table_pk: int) -> tuple[str, int, float] | None:
        """``holder``, and the seconds until another worker may take the lease (its
        expiry and the grace, from now: negative once it may)."""
        with self.engine.connect() as conn:
            row = conn.execute(text(
                f"SELECT owner, token, expires + :grace - {NOW} FROM leases "
                f"WHERE table_pk = :pk AND expires > {NOW} - :grace"),
                {"pk": table_pk, "grace": self.grace}).first()
        return None if row is None else (str(row[0]), int(row[1]), float(row[2]))

    def renew(self, held: dict[int, int]) -> dict[int, int]:
        """Extend the leases still ours (``held``: table pk -> token); those returned are
        held for ``ttl`` more seconds, any other was lost (taken by another worker). A
        lease that expired but was not taken is still ours: its token is unchanged, so
        nobody else can have written meanwhile."""
        if not held:
            return {}
        pks, tokens = zip(*held.items(), strict=True)
        with self.engine.connect() as conn:
            rows = conn.execute(text(
                f"UPDATE leases l SET expires = {NOW} + :ttl "
                f"FROM unnest(CAST(:pks AS integer[]), CAST(:tokens AS bigint[])) "
                f"AS h(pk, token) WHERE l.table_pk = h.pk AND l.token = h.token "
                f"AND l.owner = :me RETURNING l.table_pk, l.token"),
                {"ttl": self.ttl, "me": self.worker, "pks": list(pks),
                 "tokens": list(tokens)}).all()
        return {int(pk): int(token) for pk, token in rows}

    def release(self, table_pks: Sequence[int]) -> None:
        """Give leases up at once (a clean shutdown): others need not wait ``ttl``."""
        if table_pks:
            with self.engine.connect() as conn:
                conn.execute(text("UPDATE leases SET expires = 0 WHERE owner = :me "
                                  "AND table_pk = ANY(:pks)"),
                             {"me": self.worker, "pks": list(table_pks)})

    def give_up(self, table_pk: int, token: int) -> None:
        """Give up the table's lease for good (its game is over, or it was unloaded):
        owned by nobody (``RELEASED``), no renewal touches it, no orphan claim takes it;
        whoever uses the table again takes it with ``acquire`` (its token one more)."""
        with self.engine.connect() as conn:
            conn.execute(text("UPDATE leases SET owner = :released, expires = 0 "
                              "WHERE table_pk = :pk AND owner = :me AND token = :token"),
                         {"released": RELEASED, "pk": table_pk, "me": self.worker,
                          "token": token})

    def hand_over(self, table_pk: int, token: int, to: str) -> int | None:
        """Give our lease (held with ``token``) to worker ``to``, for ``ttl`` seconds: the
        new token (one more: our writes are fenced from now on), or None if the lease
        was not ours any more."""
        with self.engine.connect() as conn:
            row = conn.execute(text(
                f"UPDATE leases SET owner = :to, token = token + 1, expires = {NOW} + :ttl "
                f"WHERE table_pk = :pk AND owner = :me AND token = :token RETURNING token"),
                {"to": to, "ttl": self.ttl, "pk": table_pk, "me": self.worker,
                 "token": token}).first()
        return None if row is None else int(row[0])

    def claim_orphans(self, limit: int, active_since: float, later: float = 0.0,
                      held: Sequence[int] = ()) -> dict[int, int]:
        """Take up to ``limit`` leases expired for longer than the grace (and ``later``
        seconds more), of tables used at or after ``active_since`` whose game is in play
        (a dead worker's: a lease given up, or a table whose log is empty, has nothing
        due), the most recently used first: table pk -> new token. ``held``: leases this
        worker holds, never claimed: its renewal keeps them, token unchanged (a claim
        would change the token and fence its own writes in flight, as after an outage
        whose end its renewal was slow to see)."""
        with self.engine.connect() as conn:
            rows = conn.execute(text(
                f"UPDATE leases SET owner = :me, token = leases.token + 1, "
                f"expires = {NOW} + :ttl WHERE table_pk IN ("
                f"SELECT l.table_pk FROM leases l JOIN tables t ON t.pk = l.table_pk "
                f"WHERE {_ORPHAN} AND NOT (l.table_pk = ANY(:held)) "
                f"ORDER BY t.active DESC LIMIT :limit "
                f"FOR UPDATE OF l SKIP LOCKED) RETURNING table_pk, token"),
                {"me": self.worker, "ttl": self.ttl, "since": active_since,
                 "limit": limit, "grace": self.grace, "later": later,
                 "held": list(held)}).all()
        return {int(pk): int(token) for pk, token in rows}

    def count_orphans(self, active_since: float) -> int:
        """Tables in play, used at or after ``active_since``, whose lease expired past
        the grace: nobody plays them until a worker claims them (a metric)."""
        with self.engine.connect() as conn:
            count = conn.execute(text(
                f"SELECT count(*) FROM leases l JOIN tables t ON t.pk = l.table_pk "
                f"WHERE {_ORPHAN}"), {"grace": self.grace, "later": 0.0,
                                      "since": active_since}).scalar()
        return int(count or 0)

    # fenced writes

    def append(self, table_pk: int, seq: int, kind: str, data: dict[str, Any], now: float,
               token: int) -> None:
        """``Store.append``, fenced: committed only if ``token`` is the table's current
        one (raises :class:`Fenced` otherwise, writing nothing)."""
        started = time.perf_counter()
        with self.engine.connect() as conn:
            written = conn.execute(_APPEND, {
                "pk": table_pk, "me": self.worker, "token": token, "seq": seq, "kind": kind,
                "data": _dumps(data), "now": now}).scalar()
        if not written:
            raise Fenced(f"table {table_pk}: lease token {token} is stale")
        if self.store.observer is not None:
            self.store.observer(kind, time.perf_counter() - started)

    def set_seat(self, table_pk: int, seat: SeatRow, now: float, token: int) -> None:
        """``Store.set_seat`` and ``Store.touch``, fenced."""
        with self.engine.connect() as conn:
            row = conn.execute(_SET_SEAT, {
                "pk": table_pk, "me": self.worker, "token": token, "seat": seat.seat,
                "name": seat.name, "hash": seat.token_hash, "bot": seat.bot,
                "player": seat.player_id, "now": now}).one()
        if not row[0]:
            raise Fenced(f"table {table_pk}: lease token {token} is stale")

    def load_log_from(self, table_pk: int, first: int) -> list[LogEntry]:
        """The table's log entries from number ``first`` on (a follower catching up)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(log).where(log.c.table_pk == table_pk,
                                                  log.c.seq >= first)
                                .order_by(log.c.seq)).all()
        return [LogEntry(r.seq, r.kind, json.loads(r.data)) for r in rows]

    def load_log_since(self, table_pk: int, first: int) -> tuple[list[LogEntry], float | None]:
        """``load_log_from``, and the time of the table's last command (when its owner
        committed the last entry: a follower derives the turn's deadline from it)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(log).where(log.c.table_pk == table_pk,
                                                  log.c.seq >= first)
                                .order_by(log.c.seq)).all()
            active = conn.execute(select(tables.c.active)
                                  .where(tables.c.pk == table_pk)).scalar()
        return ([LogEntry(r.seq, r.kind, json.loads(r.data)) for r in rows],
                None if active is None else float(active))

    def log_lengths(self, table_pks: Sequence[int]) -> dict[int, int]:
        """How many entries each table's log holds (followers check they missed none)."""
        if not table_pks:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(text("SELECT table_pk, max(seq) + 1 FROM log "
                                     "WHERE table_pk = ANY(:pks) GROUP BY table_pk"),
                                {"pks": list(table_pks)}).all()
        return {int(pk): int(n) for pk, n in rows}

    def followed(self, table_pks: Sequence[int]) -> dict[int, tuple[int, str | None]]:
        """Each table's log length and the worker holding its lease (None: nobody, or
        expired past the grace): a follower checks it missed nothing, and tells the
        owner that it follows."""
        if not table_pks:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(text(
                f"SELECT p.pk, (SELECT max(seq) + 1 FROM log WHERE table_pk = p.pk), "
                f"(SELECT owner FROM leases WHERE table_pk = p.pk "
                f"AND expires > {NOW} - :grace) "
                f"FROM unnest(CAST(:pks AS integer[])) AS p(pk)"),
                {"pks": list(table_pks), "grace": self.grace}).all()
        return {int(pk): (int(n or 0), None if owner is None else str(owner))
                for pk, n, owner in rows}

    def close(self) -> None:
        self.engine.dispose()


class FencedLog:
    """:meth:`Leases.append` on the event loop: a pool of autocommit psycopg connections
    (psycopg_pool) used asynchronously, so a commit costs one round trip and no hand-off
    to a thread (under load, threads contending for the GIL with the loop delayed every
    message).

    A restart of PostgreSQL closes every connection: each connection is checked when
    taken (``_alive``: a round trip only for one the server wrote to while it was idle,
    as it does when it closes it), the first one found dead has every idle one checked,
    and a statement that fails on a lost connection runs once more on a fresh one. A write
    whose answer was lost may have committed: run again, its entries' primary key
    refuses them, and if the log holds exactly these entries (the table's lock and
    token say nobody else wrote them) they were written. Any other failure to reach the
    database raises ``psycopg.OperationalError`` (``health.unreachable``): nothing was
    written, or the log says so when the table reads it again."""

    def __init__(self, store: Store, worker: str, size: int = WRITES) -> None:
        url = store.engine.url.set(drivername="postgresql")
        self.store = store
        self.worker = worker
        self.size = size
        self._pool = AsyncConnectionPool(
            url.render_as_string(hide_password=False), open=False, name="usotsuki-writes",
            min_size=min(WRITES_AT_START, size), max_size=size,
            kwargs={"autocommit": True}, timeout=CONNECTION_WAIT,
            reconnect_timeout=RECONNECT_SECONDS)
        self._started = False
        self._checking: asyncio.Task[None] | None = None
        # Hears how long each statement waited for a connection of the pool (the
        # ``pool`` phase of the metrics: part of a commit's time).
        self.waited: Callable[[float], None] | None = None
        # Hears each write run again on a fresh connection, and how it ended: "written",
        # "already_written" (the first run had committed) or "failed".
        self.retried: Callable[[str], None] | None = None

    async def open(self, wait: float = CONNECTION_WAIT) -> None:
        """Connect the pool's first connections now (waiting ``wait`` seconds at most),
        at start-up: else the first commits of a busy start each wait for a new
        connection (several round trips and a process fork on the database). A database
        that cannot be reached now is not an error: the pool keeps trying, in the
        background."""
        await self._start()
        with contextlib.suppress(PoolTimeout):
            await self._pool.wait(timeout=wait)

    async def _start(self) -> None:
        if not self._started:  # (a pool is opened once: never again after ``close``)
            self._started = True
            await self._pool.open(wait=False)

    def idle(self) -> int:
        """Connections connected and not in use."""
        return int(self._pool.get_stats().get("pool_available", 0))

    async def ping(self) -> None:
        """A statement on a connection of the pool (``/readyz``, the health probe)."""
        async with self._connection() as conn:
            await conn.execute("SELECT 1")

    async def _take(self) -> psycopg.AsyncConnection[Any]:
        """A live connection of the pool: a dead one is dropped (and so is every idle one
        found dead), and the next taken at once."""
        await self._start()  # (if ``open`` was not called: connected as needed)
        give_up = time.monotonic() + CONNECTION_WAIT
        while True:
            conn = await self._pool.getconn(max(0.0, give_up - time.monotonic()))
            if await _alive(conn):
                return conn
            await self._pool.putconn(conn)  # (broken: closed, and replaced)
            self._check_idle()

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        asked = time.perf_counter()
        conn = await self._take()
        if self.waited is not None:
            self.waited(time.perf_counter() - asked)
        try:
            yield conn
        except psycopg.OperationalError:
            if conn.broken:  # the server went away: so did every other connection
                self._check_idle()
            raise
        finally:
            await self._pool.putconn(conn)

    def _check_idle(self) -> None:
        """Check every idle connection (dropping the dead), once at a time."""
        if self._checking is None or self._checking.done():
            self._checking = asyncio.ensure_future(self._pool.check())

    async def _run(self, sql: str, params: dict[str, Any],
                   written: Callable[[psycopg.AsyncConnection[Any]], Awaitable[bool]]
                   | None = None) -> tuple[Any, ...]:
        """The statement's row; run once more on a fresh connection if its connection was
        lost. ``written``: whether the log holds what the statement writes (asked when
        its second run finds its entries there already)."""
        try:
            return await self._once(sql, params)
        except psycopg.OperationalError as exc:
            if not _lost(exc):
                raise
        try:
            row = await self._once(sql, params, written)
        except psycopg.OperationalError:
            self._count_retry("failed")
            raise
        self._count_retry("already_written" if row is ALREADY else "written")
        return row

    async def _once(self, sql: str, params: dict[str, Any],
                    written: Callable[[psycopg.AsyncConnection[Any]], Awaitable[bool]]
                    | None = None) -> tuple[Any, ...]:
        async with self._connection() as conn:
            try:
                row = await (await conn.execute(sql, params)).fetchone()
            except psycopg.errors.UniqueViolation:
                if written is not None and await written(conn):
                    return ALREADY
                raise
        assert row is not None
        return tuple(row)

    def _count_retry(self, outcome: str) -> None:
        if self.retried is not None:
            self.retried(outcome)

    async def append(self, table_pk: int, seq: int, kind: str, data: dict[str, Any],
                     now: float, token: int) -> None:
        """Like :meth:`Leases.append` (raises :class:`Fenced`, writing nothing, when
        ``token`` is not the table's current one)."""
        await self.append_many(table_pk, seq, [(kind, data)], now, token)

    async def append_many(self, table_pk: int, first: int,
                          entries: list[tuple[str, dict[str, Any]]], now: float,
                          token: int) -> None:
        """Entries ``first``, ``first + 1`` ... in one statement (one commit), fenced as
        :meth:`append`: all written, or none (raises :class:`Fenced`)."""
        started = time.perf_counter()
        kinds = [kind for kind, _ in entries]
        datas = [_dumps(data) for _, data in entries]

        async def written(conn: psycopg.AsyncConnection[Any]) -> bool:
            rows = await (await conn.execute(
                "SELECT kind, data FROM log WHERE table_pk = %s AND seq >= %s "
                "AND seq < %s ORDER BY seq", (table_pk, first, first + len(entries)))
            ).fetchall()
            return [tuple(r) for r in rows] == list(zip(kinds, datas, strict=True))

        params: dict[str, Any] = {"pk": table_pk, "me": self.worker, "token": token,
                                  "now": now}
        if len(entries) == 1:
            sql = _pg(_APPEND)
            params.update(seq=first, kind=kinds[0], data=datas[0])
        else:
            sql = _APPEND_MANY
            params.update(seqs=list(range(first, first + len(entries))), kinds=kinds,
                          datas=datas)
        row = await self._run(sql, params, written)
        if row is not ALREADY and row[0] != len(entries):
            raise Fenced(f"table {table_pk}: lease token {token} is stale")
        if self.store.observer is not None:
            seconds = time.perf_counter() - started
            for kind in kinds:
                self.store.observer(kind, seconds)

    async def set_seat(self, table_pk: int, seat: SeatRow, now: float, token: int) -> None:
        """Like :meth:`Leases.set_seat` (an update: the same run twice is one)."""
        row = await self._run(_pg(_SET_SEAT), {
            "pk": table_pk, "me": self.worker, "token": token, "seat": seat.seat,
            "name": seat.name, "hash": seat.token_hash, "bot": seat.bot,
            "player": seat.player_id, "now": now})
        if not row[0]:
            raise Fenced(f"table {table_pk}: lease token {token} is stale")

    async def close(self) -> None:
        if self._checking is not None:
            self._checking.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._checking
        await self._pool.close()


ALREADY: tuple[Any, ...] = ("already written",)  # a retried write found in the log


def _lost(exc: psycopg.OperationalError) -> bool:
    """Whether the statement failed because its connection was lost (not refused by a
    server that answers: a deadlock, a cancelled statement)."""
    if isinstance(exc, PoolTimeout):  # no connection at all: nothing was sent
        return False
    return exc.sqlstate is None or exc.sqlstate.startswith(("08", "57P"))


async def _alive(conn: psycopg.AsyncConnection[Any]) -> bool:
    """Whether a connection being taken from the pool still works. An idle connection
    has nothing to read unless its server wrote to it (a shutdown's ``terminating
    connection``, then end of file): only such a one costs a round trip."""
    if conn.broken or conn.closed:
        return False
    readable, _, _ = ready_to_read([conn.fileno()], [], [], 0)
    if readable:
        try:
            await conn.execute("")
        except psycopg.Error:
            return False
    return True


@functools.cache  # (a handful of module-level statements, rewritten once each)
def _pg(statement: TextClause) -> str:
    """A ``text()`` statement's SQL with psycopg's named placeholders."""
    return re.sub(r"(?<!:):(\w+)", r"%(\1)s", statement.text)


def table_row(store: Store, table_pk: int) -> TableRow | None:
    """The table with this primary key (a worker taking a dead one's tables)."""
    with store.engine.connect() as conn:
        row = conn.execute(select(tables).where(tables.c.pk == table_pk)).first()
    return None if row is None else _table_row(row)
