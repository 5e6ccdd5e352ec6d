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
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
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
    "seat AS (UPDATE seats SET name = :name, token_hash = :hash, bot = :bot "
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
        self.engine = create_engine(store.engine.url, isolation_level="AUTOCOMMIT",
                                    pool_size=POOL, max_overflow=POOL,
                                    pool_reset_on_return=None)

    def acquire(self, table_pk: int) -> int | None:
        """Take the table's lease if it is free, expired for longer than the grace (or
        already ours): the token, or None when another worker holds it."""
        with self.engine.connect() as conn:
            row = conn.execute(text(
                f"INSERT INTO leases (table_pk, owner, token, expires) "
                f"VALUES (:pk, :me, 1, {NOW} + :ttl) "
                f"ON CONFLICT (table_pk) DO UPDATE SET owner = :me, expires = {NOW} + :ttl, "
                f"token = CASE WHEN leases.owner = :me AND leases.expires > {NOW} "
                f"THEN leases.token ELSE leases.token + 1 END "
                f"WHERE leases.owner = :me OR leases.expires <= {NOW} - :grace "
                f"RETURNING token"),
                {"pk": table_pk, "me": self.worker, "ttl": self.ttl,
                 "grace": self.grace}).first()
        return None if row is None else int(row[0])

    def holder(self, table_pk: int) -> tuple[str, int] | None:
        """The worker holding a lease on the table (live, or expired within the grace:
        it may renew it yet), and its token; None if none."""
        with self.engine.connect() as conn:
            row = conn.execute(text(
                f"SELECT owner, token FROM leases WHERE table_pk = :pk "
                f"AND expires > {NOW} - :grace"), {"pk": table_pk, "grace": self.grace}).first()
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

    def claim_orphans(self, limit: int, active_since: float, later: float = 0.0
                      ) -> dict[int, int]:
        """Take up to ``limit`` leases expired for longer than the grace (and ``later``
        seconds more), of tables used at or after ``active_since`` whose game is in play
        (a dead worker's: a lease given up, or a table whose log is empty, has nothing
        due): table pk -> new token."""
        with self.engine.connect() as conn:
            rows = conn.execute(text(
                f"UPDATE leases SET owner = :me, token = leases.token + 1, "
                f"expires = {NOW} + :ttl WHERE table_pk IN ("
                f"SELECT l.table_pk FROM leases l JOIN tables t ON t.pk = l.table_pk "
                f"WHERE l.expires <= {NOW} - :grace - :later AND t.active >= :since "
                f"AND {_IN_PLAY} "
                f"ORDER BY random() LIMIT :limit FOR UPDATE OF l SKIP LOCKED) "
                f"RETURNING table_pk, token"),
                {"me": self.worker, "ttl": self.ttl, "since": active_since,
                 "limit": limit, "grace": self.grace, "later": later}).all()
        return {int(pk): int(token) for pk, token in rows}

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
                "now": now}).one()
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
    """:meth:`Leases.append` on the event loop: a few autocommit psycopg connections used
    asynchronously, so a commit costs one round trip and no hand-off to a thread (under
    load, threads contending for the GIL with the loop delayed every message)."""

    def __init__(self, store: Store, worker: str, size: int = WRITES) -> None:
        url = store.engine.url.set(drivername="postgresql")
        self._dsn = url.render_as_string(hide_password=False)
        self.store = store
        self.worker = worker
        self.size = size
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._opened = 0
        self._free = asyncio.Condition()
        # Hears how long each statement waited for a connection of the pool (the
        # ``pool`` phase of the metrics: part of a commit's time).
        self.waited: Callable[[float], None] | None = None

    async def open(self, count: int = WRITES_AT_START) -> None:
        """Connect ``count`` connections of the pool now, at start-up: else the first
        commits of a busy start each wait for a new connection (several round trips and
        a process fork on the database). A connection that fails now is made later, when
        needed, as the rest are."""
        async def one() -> None:
            async with self._free:
                if self._opened >= self.size:
                    return
                self._opened += 1
            try:
                conn = await psycopg.AsyncConnection.connect(self._dsn, autocommit=True)
            except (psycopg.Error, OSError):
                async with self._free:
                    self._opened -= 1
                return
            await self._give(conn, broken=False)

        await asyncio.gather(*(one() for _ in range(min(count, self.size))))

    async def _take(self) -> psycopg.AsyncConnection[Any]:
        async with self._free:
            while not self._idle and self._opened >= self.size:
                await self._free.wait()
            if self._idle:
                return self._idle.pop()
            self._opened += 1
        try:
            return await psycopg.AsyncConnection.connect(self._dsn, autocommit=True)
        except BaseException:
            async with self._free:
                self._opened -= 1
                self._free.notify()
            raise

    async def _give(self, conn: psycopg.AsyncConnection[Any], broken: bool) -> None:
        async with self._free:
            if broken or conn.closed:
                self._opened -= 1
                with contextlib.suppress(Exception):
                    await conn.close()
            else:
                self._idle.append(conn)
            self._free.notify()

    async def _run(self, sql: str, params: dict[str, Any]) -> tuple[Any, ...]:
        asked = time.perf_counter()
        conn = await self._take()
        if self.waited is not None:
            self.waited(time.perf_counter() - asked)
        broken = True
        try:
            row = await (await conn.execute(sql, params)).fetchone()
            broken = False
        except psycopg.errors.IntegrityError:
            broken = False  # the statement failed, the connection is fine
            raise
        finally:
            await self._give(conn, broken)
        assert row is not None
        return tuple(row)

    async def append(self, table_pk: int, seq: int, kind: str, data: dict[str, Any],
                     now: float, token: int) -> None:
        """Like :meth:`Leases.append` (raises :class:`Fenced`, writing nothing, when
        ``token`` is not the table's current one)."""
        started = time.perf_counter()
        row = await self._run(_pg(_APPEND), {
            "pk": table_pk, "me": self.worker, "token": token, "seq": seq, "kind": kind,
            "data": _dumps(data), "now": now})
        if not row[0]:
            raise Fenced(f"table {table_pk}: lease token {token} is stale")
        if self.store.observer is not None:
            self.store.observer(kind, time.perf_counter() - started)

    async def append_many(self, table_pk: int, first: int,
                          entries: list[tuple[str, dict[str, Any]]], now: float,
                          token: int) -> None:
        """Entries ``first``, ``first + 1`` ... in one statement (one commit), fenced as
        :meth:`append`: all written, or none (raises :class:`Fenced`)."""
        if len(entries) == 1:
            await self.append(table_pk, first, *entries[0], now, token)
            return
        started = time.perf_counter()
        row = await self._run(_APPEND_MANY, {
            "pk": table_pk, "me": self.worker, "token": token,
            "seqs": list(range(first, first + len(entries))),
            "kinds": [kind for kind, _ in entries],
            "datas": [_dumps(data) for _, data in entries], "now": now})
        if row[0] != len(entries):
            raise Fenced(f"table {table_pk}: lease token {token} is stale")
        if self.store.observer is not None:
            seconds = time.perf_counter() - started
            for kind, _ in entries:
                self.store.observer(kind, seconds)

    async def set_seat(self, table_pk: int, seat: SeatRow, now: float, token: int) -> None:
        """Like :meth:`Leases.set_seat`."""
        row = await self._run(_pg(_SET_SEAT), {
            "pk": table_pk, "me": self.worker, "token": token, "seat": seat.seat,
            "name": seat.name, "hash": seat.token_hash, "bot": seat.bot, "now": now})
        if not row[0]:
            raise Fenced(f"table {table_pk}: lease token {token} is stale")

    async def close(self) -> None:
        async with self._free:
            idle, self._idle = self._idle, []
            self._opened -= len(idle)
        for conn in idle:
            with contextlib.suppress(Exception):
                await conn.close()


@functools.cache  # (a handful of module-level statements, rewritten once each)
def _pg(statement: TextClause) -> str:
    """A ``text()`` statement's SQL with psycopg's named placeholders."""
    return re.sub(r"(?<!:):(\w+)", r"%(\1)s", statement.text)


def table_row(store: Store, table_pk: int) -> TableRow | None:
    """The table with this primary key (a worker taking a dead one's tables)."""
    with store.engine.connect() as conn:
        row = conn.execute(select(tables).where(tables.c.pk == table_pk)).first()
    return None if row is None else _table_row(row)
