"""``usotsuki db``: the server's database: schema migrations and compaction."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated

import typer

from usotsuki.cli.extras import needs_server

if TYPE_CHECKING:
    from sqlalchemy import Engine

DB_HELP = ("SQLite file, or a postgresql://user@host/db URL "
           "(default: ~/.local/share/usotsuki/server.sqlite3). A password belongs in the "
           "environment (USOTSUKI_DB, or libpq's PGPASSWORD), not here: the command line "
           "is public (ps).")
Db = Annotated[str | None, typer.Option(envvar="USOTSUKI_DB", show_envvar=True, help=DB_HELP)]


def _url(db: str | None) -> str:
    """``--db``, or ``serve``'s default SQLite file."""
    from usotsuki.server.app import default_db

    if db is not None:
        return db
    path = default_db()
    path.parent.mkdir(parents=True, exist_ok=True)
    return str(path)


def _engine(db: str | None) -> Engine:
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    from usotsuki.server.store import normalise_url

    return create_engine(normalise_url(_url(db)), poolclass=NullPool)


def _fail(what: str, exc: Exception) -> typer.Exit:
    typer.echo(f"error: {what}: {exc}", err=True)
    return typer.Exit(2)


def upgrade(db: Db = None, to: Annotated[str, typer.Option(
        help="The revision to upgrade to.")] = "head") -> None:
    """Upgrade the schema to this code's revision, once, under a lock (docs/deploy.md)."""
    from usotsuki.server import migrate

    engine = _engine(db)
    try:
        before, after = migrate.upgrade(engine, to)
    except Exception as exc:  # unreachable, refused, or a revision that failed: rolled back
        raise _fail("the upgrade failed, nothing changed", exc) from None
    finally:
        engine.dispose()
    if before.current == after.current:
        typer.echo(f"nothing to do: {after.describe()}")
    else:
        typer.echo(f"upgraded {before.describe()} to revision {after.current}")


def downgrade(revision: Annotated[str, typer.Argument(
        help="The revision to go back to (see `usotsuki db current`).")],
        db: Db = None) -> None:
    """Downgrade the schema (refused where it would lose data, e.g. archived records)."""
    from usotsuki.server import migrate

    engine = _engine(db)
    try:
        before, after = migrate.downgrade(engine, revision)
    except Exception as exc:
        raise _fail("the downgrade failed, nothing changed", exc) from None
    finally:
        engine.dispose()
    typer.echo(f"downgraded {before.describe()} to revision {after.current}")


def current(db: Db = None) -> None:
    """Show the database's revision and whether this code's server runs on it."""
    from usotsuki.server import migrate

    engine = _engine(db)
    try:
        found = migrate.status(engine)
    except Exception as exc:
        raise _fail("cannot read the database", exc) from None
    finally:
        engine.dispose()
    if found.current == found.head:
        verdict = "up to date"
    elif found.behind:
        verdict = "behind: run `usotsuki db upgrade`"
    elif found.compatible:
        verdict = f"declared compatible with code from revision {found.oldest_code} on"
    else:
        verdict = "this code cannot serve it"
    typer.echo(f"{found.describe()}; this code needs revision {found.head} ({verdict})")


def compact(db: Db = None,
            retention_days: Annotated[float, typer.Option(
                help="Compact the tables expired for longer than this many days.")] = 7.0,
            idle_hours: Annotated[float, typer.Option(
                help="The server's --idle-hours: a table expires this long after its last "
                     "command.")] = 24.0) -> None:
    """Compact tables expired long ago: their games' records kept, their logs deleted."""
    from usotsuki.server.config import RealClock, Settings
    from usotsuki.server.retention import compact as run
    from usotsuki.server.store import Store

    if retention_days <= 0 or idle_hours <= 0:
        typer.echo("error: --retention-days and --idle-hours must be > 0", err=True)
        raise typer.Exit(2)
    try:
        store = Store(_url(db), upgrade=False)
    except Exception as exc:
        raise _fail("cannot open the database", exc) from None
    try:
        done = asyncio.run(run(store, Settings(idle_seconds=idle_hours * 3600), RealClock(),
                               retention_days * 86400))
    finally:
        store.close()
    if done is None:
        typer.echo("another process is compacting now: nothing done")
    else:
        typer.echo(f"compacted {done.tables} tables: {done.games} games' records kept, "
                   f"{done.entries} log entries deleted")


def add_to(app: typer.Typer, command: type, group: type) -> None:
    """``usotsuki db ...`` on the CLI ``app`` (``command``/``group``: its tidy classes)."""
    db_app = typer.Typer(cls=group, no_args_is_help=True,
                         help="The server's database: schema migrations and compaction.")
    for function in (upgrade, downgrade, current, compact):
        db_app.command(cls=command)(needs_server(f"db {function.__name__}")(function))
    app.add_typer(db_app, name="db")
