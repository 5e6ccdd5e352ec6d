"""Table leases with fencing tokens, in PostgreSQL next to the log (issue 16).

Each table is owned by one worker at a time: the row ``leases(table_pk)`` names the
owner, a fencing ``token`` that grows by one at every change of owner, and when the
lease ``expires`` (the database's clock, so workers' clocks need not agree). An owner
renews all its leases in one statement every ``ttl / 3`` seconds; a worker that dies
stops renewing and after ``ttl`` any other worker may take its tables.

The log is written only through :meth:`Leases.append` (and seats through
:meth:`Leases.set_seat`): in one transaction it locks the lease row (``FOR SHARE``),
checks the writer's token, and only then inserts the entry. A worker whose lease was
taken holds an older token, so its writes are refused (:class:`Fenced`) even if it
comes back from a pause; a takeover waits for any write in flight to commit, and the
new owner reads the log after that, so no committed entry is ever missed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    insert,
    select,
    text,
    update,
)

from usotsuki.server.store import (
    LogEntry,
    SeatRow,
    Store,
    TableRow,
    _table_row,
    log,
    seats,
    tables,
)

metadata = MetaData()

leases = Table(
    "leases", metadata,
    Column("table_pk", Integer, primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("token", BigInteger, nullable=False),  # the fencing token: +1 per new owner
    Column("expires", Float, nullable=False),  # epoch seconds, the database's clock
)

NOW = "extract(epoch from clock_timestamp())"


class Fenced(Exception):
    """A write by a worker that no longer owns the table: refused, nothing written."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Leases:
    """The lease operations of one worker (``worker``: its unique id) on ``store``
    (PostgreSQL). Every method blocks: the server runs them through ``store.call``."""

    def __init__(self, store: Store, worker: str, ttl: float = 3.0) -> None:
        if not store.url.startswith("postgresql"):
            raise ValueError("several workers need a PostgreSQL database (--db postgresql://...)")
        self.store = store
        self.worker = worker
        self.ttl = ttl
        with store.engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(16016)"))  # one creator at once
            leases.create(conn, checkfirst=True)

    def acquire(self, table_pk: int) -> int | None:
        """Take the table's lease if it is free or expired (or already ours): the token,
        or None when another worker holds it."""
        with self.store.engine.begin() as conn:
            row = conn.execute(text(
                f"INSERT INTO leases (table_pk, owner, token, expires) "
                f"VALUES (:pk, :me, 1, {NOW} + :ttl) "
                f"ON CONFLICT (table_pk) DO UPDATE SET owner = :me, expires = {NOW} + :ttl, "
                f"token = CASE WHEN leases.owner = :me AND leases.expires > {NOW} "
                f"THEN leases.token ELSE leases.token + 1 END "
                f"WHERE leases.owner = :me OR leases.expires <= {NOW} RETURNING token"),
                {"pk": table_pk, "me": self.worker, "ttl": self.ttl}).first()
        return None if row is None else int(row[0])

    def holder(self, table_pk: int) -> tuple[str, int] | None:
        """The worker holding a live lease on the table, and its token; None if none."""
        with self.store.engine.connect() as conn:
            row = conn.execute(text(
                f"SELECT owner, token FROM leases WHERE table_pk = :pk AND expires > {NOW}"),
                {"pk": table_pk}).first()
        return None if row is None else (str(row[0]), int(row[1]))

    def renew(self, held: dict[int, int]) -> dict[int, int]:
        """Extend the leases still ours (``held``: table pk -> token); those returned are
        held for ``ttl`` more seconds, any other was lost (expired and maybe taken)."""
        if not held:
            return {}
        with self.store.engine.begin() as conn:
            rows = conn.execute(text(
                f"UPDATE leases SET expires = {NOW} + :ttl WHERE owner = :me "
                f"AND table_pk = ANY(:pks) AND expires > {NOW} RETURNING table_pk, token"),
                {"ttl": self.ttl, "me": self.worker, "pks": list(held)}).all()
        return {int(pk): int(token) for pk, token in rows if held.get(int(pk)) == int(token)}

    def release(self, table_pks: Sequence[int]) -> None:
        """Give leases up at once (a clean shutdown): others need not wait ``ttl``."""
        if table_pks:
            with self.store.engine.begin() as conn:
                conn.execute(text("UPDATE leases SET expires = 0 WHERE owner = :me "
                                  "AND table_pk = ANY(:pks)"),
                             {"me": self.worker, "pks": list(table_pks)})

    def claim_orphans(self, limit: int, active_since: float) -> dict[int, int]:
        """Take up to ``limit`` expired leases of tables used at or after
        ``active_since`` (a dead worker's): table pk -> new token."""
        with self.store.engine.begin() as conn:
            rows = conn.execute(text(
                f"UPDATE leases SET owner = :me, token = leases.token + 1, "
                f"expires = {NOW} + :ttl WHERE table_pk IN ("
                f"SELECT l.table_pk FROM leases l JOIN tables t ON t.pk = l.table_pk "
                f"WHERE l.expires <= {NOW} AND t.active >= :since "
                f"ORDER BY random() LIMIT :limit FOR UPDATE OF l SKIP LOCKED) "
                f"RETURNING table_pk, token"),
                {"me": self.worker, "ttl": self.ttl, "since": active_since,
                 "limit": limit}).all()
        return {int(pk): int(token) for pk, token in rows}

    # fenced writes

    def _check(self, conn: Connection, table_pk: int, token: int) -> None:
        held = conn.execute(select(leases.c.token, leases.c.owner)
                            .where(leases.c.table_pk == table_pk)
                            .with_for_update(read=True)).first()
        if held is None or int(held.token) != token or held.owner != self.worker:
            raise Fenced(f"table {table_pk}: lease token {token} is stale "
                         f"(now {None if held is None else held.token})")

    def append(self, table_pk: int, seq: int, kind: str, data: dict[str, Any], now: float,
               token: int) -> None:
        """``Store.append``, fenced: committed only if ``token`` is the table's current
        one (raises :class:`Fenced` otherwise, writing nothing)."""
        started = time.perf_counter()
        with self.store.engine.begin() as conn:
            self._check(conn, table_pk, token)
            conn.execute(insert(log).values(table_pk=table_pk, seq=seq, kind=kind,
                                            data=_dumps(data)))
            conn.execute(update(tables).where(tables.c.pk == table_pk).values(active=now))
        if self.store.observer is not None:
            self.store.observer(kind, time.perf_counter() - started)

    def set_seat(self, table_pk: int, seat: SeatRow, now: float, token: int) -> None:
        """``Store.set_seat`` and ``Store.touch``, fenced."""
        with self.store.engine.begin() as conn:
            self._check(conn, table_pk, token)
            conn.execute(update(seats)
                         .where(seats.c.table_pk == table_pk, seats.c.seat == seat.seat)
                         .values(name=seat.name, token_hash=seat.token_hash, bot=seat.bot))
            conn.execute(update(tables).where(tables.c.pk == table_pk).values(active=now))


def load_log_from(store: Store, table_pk: int, first: int) -> list[LogEntry]:
    """The table's log entries from number ``first`` on (a follower catching up)."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(log).where(log.c.table_pk == table_pk, log.c.seq >= first)
                            .order_by(log.c.seq)).all()
    return [LogEntry(r.seq, r.kind, json.loads(r.data)) for r in rows]


def log_lengths(store: Store, table_pks: Sequence[int]) -> dict[int, int]:
    """How many entries each table's log holds (followers check they missed none)."""
    if not table_pks:
        return {}
    with store.engine.connect() as conn:
        rows = conn.execute(text("SELECT table_pk, max(seq) + 1 FROM log "
                                 "WHERE table_pk = ANY(:pks) GROUP BY table_pk"),
                            {"pks": list(table_pks)}).all()
    return {int(pk): int(n) for pk, n in rows}


def table_row(store: Store, table_pk: int) -> TableRow | None:
    """The table with this primary key (a worker taking a dead one's tables)."""
    with store.engine.connect() as conn:
        row = conn.execute(select(tables).where(tables.c.pk == table_pk)).first()
    return None if row is None else _table_row(row)
