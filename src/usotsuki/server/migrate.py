"""The schema's versions: Alembic revisions (``server/migrations/versions``), run once
under a lock.

An upgrade runs in one transaction; on PostgreSQL it first takes an advisory lock, so
that of several processes upgrading at once one migrates and the others, once it has
committed, find nothing left to do. A database made before Alembic (tables and a
``schema_version``, without ``alembic_version``) is adopted by the baseline revision.

Who upgrades (docs/deploy.md, Schema migrations): ``usotsuki db upgrade``; ``serve`` on
SQLite (one process) and ``serve --migrate``. Any other ``serve`` only checks
(:func:`require`): it refuses a database older than its code, and runs on a newer one
whose ``oldest_code`` (each revision declares it; written at every upgrade) is a
revision this code knows: expand revisions keep the code before them running.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

SCRIPTS = Path(__file__).parent / "migrations"
LOCK = 16016  # the advisory lock of every schema change (the code before Alembic's too)
LOCK_TIMEOUT = "10s"  # how long a revision waits for a table lock on PostgreSQL


class SchemaMismatch(Exception):
    """This code cannot run on the database's schema: the message says what to do."""


@dataclass(frozen=True)
class Status:
    """Where a database stands against this code."""

    current: str | None  # its revision; None: empty, or made before Alembic
    head: str  # the revision this code needs
    known: bool  # whether this code knows ``current`` (else the database is newer)
    oldest_code: str | None  # the oldest code the database declares it runs with
    legacy: bool  # made before Alembic (adopted by the baseline at the next upgrade)

    @property
    def behind(self) -> bool:
        """The database is older than this code: it needs an upgrade."""
        return self.current is None or (self.known and self.current != self.head)

    @property
    def ahead(self) -> bool:
        return self.current is not None and not self.known

    @property
    def compatible(self) -> bool:
        """This code may run on the database as it is."""
        if self.current == self.head:
            return True
        return self.ahead and self.oldest_code is not None and _known(self.oldest_code)

    def describe(self) -> str:
        """The database, said in a few words ("a database at revision 0002")."""
        if self.current is None:
            return ("a database made before Alembic (not yet adopted)" if self.legacy
                    else "an empty database")
        where = "" if self.known else " (newer than this code)"
        return f"a database at revision {self.current}{where}"


@functools.cache  # (the revisions are read once per process: every Store opens here)
def scripts() -> ScriptDirectory:
    return ScriptDirectory(str(SCRIPTS))


def head() -> str:
    """The revision this code needs."""
    found = scripts().get_current_head()
    assert found is not None
    return found


def _known(revision: str) -> bool:
    return any(r.revision == revision for r in scripts().walk_revisions())


def _oldest_code(revision: str) -> str:
    script = scripts().get_revision(revision)
    assert script is not None
    return str(script.module.oldest_code)


def _status(conn: Connection) -> Status:
    current = MigrationContext.configure(conn).get_current_revision()
    names = set(inspect(conn).get_table_names())
    oldest = None
    if "schema_compat" in names:
        oldest = conn.execute(text("SELECT oldest_code FROM schema_compat")).scalar()
    known = current is None or _known(current)
    return Status(current, head(), known, oldest,
                  current is None and "schema_version" in names)


def status(engine: Engine) -> Status:
    with engine.connect() as conn:
        return _status(conn)


@contextlib.contextmanager
def _locked(engine: Engine) -> Iterator[Connection]:
    """One transaction holding the migration lock: every revision of a run commits
    together, or none does."""
    with engine.connect() as conn:
        if conn.dialect.name != "sqlite":
            with conn.begin():
                conn.execute(text(f"SELECT pg_advisory_xact_lock({LOCK})"))
                # A revision's ALTER waits for the live workers' transactions on its table
                # and makes theirs wait behind it: past this it gives up (and rolls back)
                # instead of stalling play; the operator runs it again.
                conn.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
                yield conn
            return
        # pysqlite begins a transaction only before DML, so DDL would commit on its own:
        # an explicit BEGIN IMMEDIATE covers it (and takes the write lock at once).
        driver = conn.connection.driver_connection
        assert driver is not None
        saved = driver.isolation_level
        driver.isolation_level = None
        try:
            with conn.begin():
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                yield conn
        finally:
            driver.isolation_level = saved


def _run(conn: Connection, target: str, up: bool) -> None:
    """Alembic's ``upgrade``/``downgrade`` commands, on ``conn`` and the cached scripts."""
    script = scripts()
    config = Config()
    config.set_main_option("script_location", str(SCRIPTS))
    config.attributes["connection"] = conn

    def steps(revision: Any, _context: MigrationContext) -> Sequence[Any]:
        if up:
            return script._upgrade_revs(target, revision)
        return script._downgrade_revs(target, revision)

    with EnvironmentContext(config, script, fn=steps, destination_rev=target):
        script.run_env()  # env.py, in this transaction


def _mark(conn: Connection, revision: str | None) -> None:
    """Record the oldest code that runs on the database at ``revision``."""
    if revision is None:
        return
    conn.execute(text("DELETE FROM schema_compat"))
    conn.execute(text("INSERT INTO schema_compat (oldest_code) VALUES (:code)"),
                 {"code": _oldest_code(revision)})


def upgrade(engine: Engine, target: str = "head") -> tuple[Status, Status]:
    """Upgrade the database to ``target`` (once, under the lock): its status before and
    after. A database newer than this code is left as it is if this code may run on it;
    else :class:`SchemaMismatch`."""
    if target == "head" and (found := status(engine)).current == found.head:
        return found, found  # (no lock: a database at this code's revision stays there)
    with _locked(engine) as conn:
        before = _status(conn)  # read under the lock: another may have just upgraded
        if before.ahead:
            if not before.compatible:
                raise SchemaMismatch(_too_new(before))
            return before, before
        _run(conn, target, up=True)
        after = _status(conn)
        if after.current != before.current:
            _mark(conn, after.current)
            after = _status(conn)
    return before, after


def downgrade(engine: Engine, target: str) -> tuple[Status, Status]:
    """Downgrade the database to ``target`` (a revision this code knows), under the lock;
    a revision whose downgrade would lose data refuses (RuntimeError)."""
    with _locked(engine) as conn:
        before = _status(conn)
        if before.ahead:
            raise SchemaMismatch(_too_new(before))
        _run(conn, target, up=False)
        after = _status(conn)
        _mark(conn, after.current)
        after = _status(conn)
    return before, after


def require(engine: Engine) -> Status:
    """The database's status if this code may run on it as it is; else
    :class:`SchemaMismatch`, saying what the operator should do."""
    found = status(engine)
    if found.compatible:
        return found
    if found.behind:
        raise SchemaMismatch(
            f"this server's code needs schema revision {found.head} and found "
            f"{found.describe()}: run `usotsuki db upgrade` with the same --db first "
            f"(docs/deploy.md, Schema migrations), or serve with --migrate on a single node")
    raise SchemaMismatch(_too_new(found))


def _too_new(found: Status) -> str:
    return (f"the database is at revision {found.current}, which needs code of revision "
            f"{found.oldest_code or '?'} or newer; this server's code is at {found.head}: "
            f"upgrade it (docs/deploy.md, Schema migrations)")
