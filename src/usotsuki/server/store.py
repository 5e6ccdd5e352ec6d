"""Durable storage: tables, seats and each table's append-only log (SQLAlchemy 2 Core).

The log is the truth: a table's games are rebuilt by replaying its entries in order.
Entries are ``start`` (a game begins: names, and for the Liar Game its secret seed),
``chance`` (a deal's JSON data) and ``action`` (a seat's action in Part 3 notation).
Each append is committed before the server tells anyone about it.

The database calls block, so the server runs them off its event loop through
:meth:`Store.call`: one writer thread for SQLite (one writer at a time is all it allows),
a few for PostgreSQL. A table awaits its append before publishing, under its own lock,
so "committed before published" holds and other tables carry on meanwhile.

SQLite (default; WAL, one file) and PostgreSQL run through the same code. The schema is
versioned by Alembic revisions (:mod:`usotsuki.server.migrate`); the tables below are
the head revision's.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.pool import StaticPool

from usotsuki.server import migrate
from usotsuki.server.health import DatabaseHealth

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("pk", Integer, primary_key=True, autoincrement=True),
    Column("public_id", String(64), nullable=False, unique=True),
    Column("invite", String(64), nullable=False, unique=True),
    Column("host_hash", String(64), nullable=False),
    Column("game", String(16), nullable=False),
    Column("config", Text, nullable=False),  # JSON: rules, players, games, seats' bots
    Column("created", Float, nullable=False),
    Column("creator", String(64)),  # the client address that created it (quotas)
    Column("active", Float),  # time of its last command (expiry)
    Column("archived", Float),  # when its log was compacted into archived_games
    Index("ix_tables_creator", "creator", "active"),
)

seats = Table(
    "seats", metadata,
    Column("table_pk", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64)),
    Column("token_hash", String(64)),
    Column("bot", String(32)),  # set for bot seats, and for a person who left mid-game
    Column("player_id", String(40)),  # who sat there (player_tables.players), if known
)

log = Table(
    "log", metadata,
    Column("table_pk", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
)


archived_games = Table(
    "archived_games", metadata,
    Column("table_pk", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("finished", Boolean, nullable=False),
    Column("record", Text),  # the game's Part 4 record (JSON), as Table.record served it
)


@dataclass(frozen=True, slots=True)
class TableRow:
    pk: int
    public_id: str
    invite: str
    host_hash: str
    game: str
    config: dict[str, Any]
    creator: str | None = None
    active: float = 0.0  # time of the last command
    archived: float | None = None  # when its log was compacted (retention.py)


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str | None
    token_hash: str | None
    bot: str | None
    player_id: str | None = None  # who sat there (player_tables.players), if known


@dataclass(frozen=True, slots=True)
class LogEntry:
    seq: int
    kind: str
    data: dict[str, Any]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def normalise_url(url: str) -> str:
    """A path is a SQLite file; ``postgresql://`` URLs use psycopg 3."""
    if url == ":memory:":
        return "sqlite://"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" in url:
        return url
    return f"sqlite:///{url}"


P = ParamSpec("P")
R = TypeVar("R")


class Store:
    """Tables, seats and logs in one database. Every method commits before returning;
    the server calls them through :meth:`call`, off its event loop."""

    def __init__(self, url: str = ":memory:", upgrade: bool = True) -> None:
        """``upgrade``: bring the schema to this code's revision (under a lock), else
        only check that this code may run on it (``migrate.SchemaMismatch``)."""
        self.url = normalise_url(url)
        self._executor: ThreadPoolExecutor | None = None
        # Told each committed log entry's kind and how long its commit took (metrics).
        self.observer: Callable[[str, float], None] | None = None
        # Told why a table's write failed ("unavailable", "fenced", "error": metrics).
        self.failed: Callable[[str], None] | None = None
        # Whether the database answers, as the server's statements find it.
        self.health = DatabaseHealth()
        self.engine: Engine
        if self.url == "sqlite://":
            self.engine = create_engine(self.url, poolclass=StaticPool,
                                        connect_args={"check_same_thread": False})
        elif self.url.startswith("sqlite"):
            self.engine = create_engine(self.url, connect_args={"check_same_thread": False})
        else:
            self.engine = create_engine(self.url, pool_pre_ping=True, pool_size=8,
                                        max_overflow=8)
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            if upgrade:
                self.migrate()
            else:
                migrate.require(self.engine)
        except BaseException:
            self.engine.dispose()
            raise

    def migrate(self) -> str | None:
        """Bring the schema to this code's revision (once, under a lock); that revision
        (or a newer one this code runs on)."""
        return migrate.upgrade(self.engine)[1].current

    async def call(self, method: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a blocking store method in the store's threads and await its result."""
        if self._executor is None:
            # SQLite allows one writer at a time: one thread, no lock contention.
            # PostgreSQL: enough threads that commits of many tables overlap (each is
            # mostly a wait for the server); set by load runs, not fitted.
            workers = 1 if self.url.startswith("sqlite") else 8
            self._executor = ThreadPoolExecutor(workers, thread_name_prefix="usotsuki-store")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor,
                                          functools.partial(method, *args, **kwargs))

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        self.engine.dispose()

    # tables and seats

    def create_table(self, public_id: str, invite: str, host_hash: str, game: str,
                     config: dict[str, Any], bots: Sequence[str | None],
                     creator: str | None = None, now: float | None = None,
                     players: Sequence[str | None] | None = None) -> int:
        """A new table and its seats: ``bots`` each seat's bot level (None: a person's),
        ``players`` each seat's player id, if known (the bots' levels)."""
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            pk = conn.execute(insert(tables).values(
                public_id=public_id, invite=invite, host_hash=host_hash, game=game,
                config=_dumps(config), created=now, creator=creator,
                active=now)).inserted_primary_key
            assert pk is not None
            table_pk = int(pk[0])
            conn.execute(insert(seats), [
                {"table_pk": table_pk, "seat": i, "name": None, "token_hash": None, "bot": b,
                 "player_id": None if players is None else players[i]}
                for i, b in enumerate(bots)])
        return table_pk

    def load_tables(self, active_since: float | None = None) -> list[TableRow]:
        """Every table, or those used at or after ``active_since``."""
        query = select(tables).order_by(tables.c.pk)
        if active_since is not None:
            query = query.where(tables.c.active >= active_since)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [_table_row(r) for r in rows]

    def find_table(self, public_id: str | None = None, invite: str | None = None
                   ) -> TableRow | None:
        """The table with this public id or invite code, if any."""
        query = select(tables).where(or_(tables.c.public_id == public_id,
                                         tables.c.invite == invite))
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else _table_row(row)

    def count_tables(self, creator: str, active_since: float) -> int:
        """Tables this address created that were used at or after ``active_since``."""
        with self.engine.connect() as conn:
            count = conn.execute(select(func.count()).select_from(tables).where(
                tables.c.creator == creator, tables.c.active >= active_since)).scalar()
        return int(count or 0)

    def touch(self, table_pk: int, now: float) -> None:
        """Mark the table used now (joins and leaves; appends do it themselves)."""
        with self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.pk == table_pk).values(active=now))

    def load_seats(self, table_pk: int) -> list[SeatRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(seats).where(seats.c.table_pk == table_pk)
                                .order_by(seats.c.seat)).all()
        return [SeatRow(r.seat, r.name, r.token_hash, r.bot, r.player_id) for r in rows]

    def set_seat(self, table_pk: int, seat: SeatRow, now: float | None = None) -> None:
        """Set a seat's holder and, if ``now`` is given, mark the table used, in one
        transaction."""
        with self.engine.begin() as conn:
            conn.execute(update(seats)
                         .where(seats.c.table_pk == table_pk, seats.c.seat == seat.seat)
                         .values(name=seat.name, token_hash=seat.token_hash, bot=seat.bot,
                                 player_id=seat.player_id))
            if now is not None:
                conn.execute(update(tables).where(tables.c.pk == table_pk).values(active=now))

    # the log

    def append(self, table_pk: int, seq: int, kind: str, data: dict[str, Any],
               now: float | None = None) -> None:
        """Append entry ``seq`` (the primary key refuses a second writer of the same seq)
        and mark the table used, in one transaction."""
        self.append_many(table_pk, seq, [(kind, data)], now)

    def append_many(self, table_pk: int, first: int, entries: list[tuple[str, dict[str, Any]]],
                    now: float | None = None) -> None:
        """Append entries ``first``, ``first + 1`` ... and mark the table used, in one
        transaction: all are written, or none."""
        started = time.perf_counter()
        with self.engine.begin() as conn:
            conn.execute(insert(log), [{"table_pk": table_pk, "seq": first + i, "kind": kind,
                                        "data": _dumps(data)}
                                       for i, (kind, data) in enumerate(entries)])
            conn.execute(update(tables).where(tables.c.pk == table_pk).values(
                active=time.time() if now is None else now))
        if self.observer is not None:
            seconds = time.perf_counter() - started
            for kind, _ in entries:
                self.observer(kind, seconds)

    def load_log(self, table_pk: int) -> list[LogEntry]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(log).where(log.c.table_pk == table_pk)
                                .order_by(log.c.seq)).all()
        return [LogEntry(r.seq, r.kind, json.loads(r.data)) for r in rows]


def _table_row(r: Any) -> TableRow:
    return TableRow(r.pk, r.public_id, r.invite, r.host_hash, r.game, json.loads(r.config),
                    r.creator, r.active if r.active is not None else r.created, r.archived)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode keeps every commit through a killed process (only a power loss
    # can drop the last commits); FULL would fsync each action.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
