"""Schema migrations (Alembic) on SQLite and PostgreSQL: a database made before them is
adopted with every row, and the server plays on from it; concurrent upgrades migrate
once; a worker refuses a database older than its code and runs on a newer compatible
one; a downgrade goes back where nothing is lost; the code's tables are the migrations'."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from collections.abc import Callable
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from core_helpers import ManualClock, new_lobby, people_table, play_one
from legacy_schema import V2_COLUMNS, dump, make_legacy
from live_helpers import free_port
from pg_helpers import new_database
from sqlalchemy import Engine, MetaData, create_engine, inspect, select, text
from sqlalchemy.pool import NullPool
from typer.testing import CliRunner

from usotsuki.cli.main import app
from usotsuki.server import bot_tables, lease, meet_tables, migrate, player_tables, store
from usotsuki.server.store import Store, normalise_url

T0 = 1_800_000_000.0
_names = count()


@pytest.fixture(params=["sqlite", "postgresql"])
def new_db(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], str]:
    """Makes empty databases of the parameter's kind."""
    def make() -> str:
        if request.param == "sqlite":
            return str(tmp_path / f"db{next(_names)}.sqlite3")
        server: str = request.getfixturevalue("pg_server")
        return new_database(server, f"usotsuki_migrations_{next(_names)}")
    return make


def current(url: str) -> str:
    """What `usotsuki db current` says of the database."""
    result = CliRunner().invoke(app, ["db", "current", "--db", url])
    assert result.exit_code == 0, result.output
    return result.output


def engine_of(url: str) -> Engine:
    return create_engine(normalise_url(url), poolclass=NullPool)


class Played:
    """Rows of a finished Bluff table and a Liar table in the middle of its game, with
    the leases a cluster held on them."""

    def __init__(self, rows: dict[str, list[dict[str, Any]]], finished: str,
                 unfinished: str, record: dict[str, Any]) -> None:
        self.rows, self.finished, self.unfinished, self.record = (
            rows, finished, unfinished, record)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    url = str(tmp_path_factory.mktemp("played") / "source.sqlite3")

    async def play() -> Played:
        the_store = Store(url)
        lobby = new_lobby(the_store, ManualClock(T0))
        rng = random.Random(7)
        done, _ = await people_table(lobby, "bluff", 2, {"max_cards": 3})
        while done.playing:
            await play_one(done, rng)
        going, _ = await people_table(lobby, "liar", 3)
        for _ in range(5):
            await play_one(going, rng)
        record = done.record(0)
        lobby.stop()
        the_store.close()
        return Played({}, done.public_id, going.public_id, record)

    out = asyncio.run(play())
    engine = engine_of(url)
    out.rows = dump(engine, store.metadata)
    out.rows.pop("archived_games")
    out.rows["tables"] = [{k: r[k] for k in V2_COLUMNS} for r in out.rows["tables"]]
    out.rows["leases"] = [{"table_pk": r["pk"], "owner": "w1", "token": 3 + r["pk"],
                           "expires": 0.0} for r in out.rows["tables"]]
    engine.dispose()
    return out


async def play_on(url: str, played: Played) -> None:
    """The server of this code on the upgraded database: the finished table's record is
    the same, the unfinished game goes on to its end, a rematch is dealt."""
    the_store = Store(url, upgrade=False)
    lobby = new_lobby(the_store, ManualClock(T0 + 60))
    try:
        done = await lobby.get(played.finished)
        assert done.record(0) == played.record
        going = await lobby.get(played.unfinished)
        assert going.playing and going.seq > 0
        rng = random.Random(8)
        while going.playing:
            await play_one(going, rng)
        assert going.record(0)["players"] == ["p0", "p1", "p2"]
        assert await lobby.start_game(done, rematch=True) == 1
    finally:
        lobby.stop()
        the_store.close()


@pytest.mark.parametrize("leases", [True, False], ids=["with-leases", "without-leases"])
def test_a_database_made_before_alembic_is_adopted_with_every_row(
        new_db: Callable[[], str], played: Played, leases: bool) -> None:
    url = new_db()
    engine = engine_of(url)
    legacy = make_legacy(engine, 2, leases, played.rows)
    before = dump(engine, legacy)
    assert before["log"] and before["seats"] and len(before["tables"]) == 2
    found = migrate.status(engine)
    assert found.legacy and found.behind and not found.compatible
    _, after = migrate.upgrade(engine)
    assert after.current == migrate.head() and after.compatible
    assert dump(engine, legacy) == before  # every row of every table, as it was
    names = set(inspect(engine).get_table_names())
    assert {"leases", "archived_games", "alembic_version"} <= names
    assert {i["name"] for i in inspect(engine).get_indexes("leases")} == {"leases_token"}
    with engine.connect() as conn:  # the code before Alembic finds nothing to migrate
        assert conn.execute(text("SELECT version FROM schema_version")).scalars().all() == [2]
    engine.dispose()
    asyncio.run(play_on(url, played))


def test_a_first_version_database_gets_the_second_version_s_columns(
        tmp_path: Path, played: Played) -> None:
    url = str(tmp_path / "v1.sqlite3")
    engine = engine_of(url)
    make_legacy(engine, 1, leases=False, rows=played.rows)
    migrate.upgrade(engine)
    with engine.connect() as conn:
        rows = conn.execute(select(store.tables).order_by(store.tables.c.pk)).all()
    assert [(r.creator, r.active) for r in rows] == [(None, r.created) for r in rows]
    assert "ix_tables_creator" in {i["name"] for i in inspect(engine).get_indexes("tables")}
    engine.dispose()
    asyncio.run(play_on(url, played))


def legacy_postgres(server: str, played: Played
                    ) -> tuple[str, Engine, MetaData, dict[str, list[dict[str, Any]]]]:
    """A PostgreSQL database made before Alembic, with ``played``'s rows: its URL, an
    engine, its tables and their rows."""
    url = new_database(server, f"usotsuki_legacy_{next(_names)}")
    engine = engine_of(url)
    legacy = make_legacy(engine, 2, True, played.rows)
    return url, engine, legacy, dump(engine, legacy)


def test_concurrent_upgrades_on_postgresql_migrate_once(pg_server: str,
                                                        played: Played) -> None:
    url, engine, legacy, before = legacy_postgres(pg_server, played)
    upgrades = [subprocess.Popen([sys.executable, "-m", "usotsuki.cli.main", "db", "upgrade",
                                  "--db", url], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = [(p.wait(timeout=120), *p.communicate()) for p in upgrades]
    assert [code for code, _, _ in results] == [0] * 4, results
    said = sorted(out.split(" ")[0] for _, out, _ in results)
    assert said == ["nothing", "nothing", "nothing", "upgraded"], results  # one migrated
    assert dump(engine, legacy) == before
    assert migrate.status(engine).current == migrate.head()
    engine.dispose()


def test_a_worker_refuses_a_database_older_than_its_code(pg_server: str,
                                                        played: Played) -> None:
    url, engine, legacy, before = legacy_postgres(pg_server, played)
    worker = subprocess.run([sys.executable, "-m", "usotsuki.cli.main", "serve", "--port",
                             str(free_port()), "--db", url], capture_output=True, text=True,
                            timeout=120)
    assert worker.returncode == 2
    assert "usotsuki db upgrade" in worker.stderr and "made before Alembic" in worker.stderr
    with pytest.raises(migrate.SchemaMismatch):
        Store(url, upgrade=False)
    assert dump(engine, legacy) == before and migrate.status(engine).current is None
    engine.dispose()


def test_a_newer_database_is_served_only_if_it_declares_this_code_compatible(
        new_db: Callable[[], str]) -> None:
    url = new_db()
    Store(url).close()
    assert "(up to date)" in current(url)
    engine = engine_of(url)
    with engine.begin() as conn:  # as a later release's expand revision leaves it
        conn.execute(text("UPDATE alembic_version SET version_num = '9001'"))
    found = migrate.status(engine)
    assert found.ahead and found.compatible  # its oldest_code is still this head's
    assert "declared compatible with code from revision 0001" in current(url)
    Store(url, upgrade=False).close()
    assert migrate.upgrade(engine)[1].current == "9001"  # left as it is
    with engine.begin() as conn:  # ... and as its contract revision leaves it
        conn.execute(text("UPDATE schema_compat SET oldest_code = '9001'"))
    with pytest.raises(migrate.SchemaMismatch, match="upgrade it"):
        Store(url, upgrade=False)
    assert "cannot serve it" in current(url)
    with pytest.raises(migrate.SchemaMismatch):
        migrate.upgrade(engine)
    engine.dispose()


def test_upgrade_then_downgrade_keeps_the_tables_and_refuses_to_lose_an_archive(
        new_db: Callable[[], str]) -> None:
    url = new_db()
    the_store = Store(url)
    pk = the_store.create_table("t", "i", "h", "bluff", {"players": 2}, [None, "random"])
    the_store.append(pk, 0, "start", {"names": ["a", "b"]})
    the_store.close()
    engine = engine_of(url)
    rows = dump(engine, store.metadata)
    _, after = migrate.downgrade(engine, "0001")
    assert after.current == "0001"
    assert "archived_games" not in inspect(engine).get_table_names()
    assert "archived" not in {c["name"] for c in inspect(engine).get_columns("tables")}
    with pytest.raises(migrate.SchemaMismatch):  # this code needs the archive
        Store(url, upgrade=False)
    migrate.upgrade(engine)
    assert dump(engine, store.metadata) == rows
    with pytest.raises(RuntimeError, match="baseline"):  # 0002's downgrade rolled back too
        migrate.downgrade(engine, "base")
    assert migrate.status(engine).current == migrate.head()
    assert "archived_games" in inspect(engine).get_table_names()
    with engine.begin() as conn:
        conn.execute(text("UPDATE tables SET archived = 1"))
    with pytest.raises(RuntimeError, match="archived"):
        migrate.downgrade(engine, "0001")
    assert migrate.status(engine).current == migrate.head()
    engine.dispose()


def test_the_code_s_tables_are_the_migrations_tables(new_db: Callable[[], str]) -> None:
    url = new_db()
    Store(url).close()
    code = MetaData()
    for table in [*store.metadata.tables.values(), *lease.metadata.tables.values(),
                  *player_tables.metadata.tables.values(),
                  *meet_tables.metadata.tables.values(),
                  *bot_tables.metadata.tables.values()]:
        table.to_metadata(code)
    engine = engine_of(url)
    with engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), code)
    engine.dispose()
    bookkeeping = {"alembic_version", "schema_version", "schema_compat"}
    assert [d for d in differences
            if not (d[0] == "remove_table" and d[1].name in bookkeeping)] == []


def test_the_db_commands_read_the_url_from_the_environment(tmp_path: Path) -> None:
    """USOTSUKI_DB, as ``serve``: a password need not be on the command line."""
    url = str(tmp_path / "env.sqlite3")
    env = {"USOTSUKI_DB": url}
    upgraded = CliRunner().invoke(app, ["db", "upgrade"], env=env)
    assert upgraded.exit_code == 0, upgraded.output
    current = CliRunner().invoke(app, ["db", "current"], env=env)
    assert "up to date" in current.output
    assert Path(url).exists()
