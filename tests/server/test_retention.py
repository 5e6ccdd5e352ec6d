"""Retention: a table expired for longer than the retention keeps its games' records in
the archive and loses its log, lease and seat tokens; its records, replays (and the
review, from the same record) are served byte for byte as before, from its log while it
is only expired, from the archive once compacted; nothing else is touched."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
from itertools import count
from pathlib import Path
from typing import Any

import psycopg
import pytest
from core_helpers import ManualClock, new_lobby, people_table, play_one
from fastapi.testclient import TestClient
from pg_helpers import new_database
from sqlalchemy import Table as SqlTable
from sqlalchemy import func, insert, select
from waits import wait_for

from usotsuki.server.app import create_app
from usotsuki.server.config import Settings
from usotsuki.server.lease import leases
from usotsuki.server.retention import LOCK, compact
from usotsuki.server.store import Store, archived_games, log, seats, tables
from usotsuki.server.table import Table

_names = count()
T0 = 1_800_000_000.0
IDLE = 3600.0
RETAIN = 86400.0


async def _finish(table: Table, rng: random.Random) -> None:
    while table.playing:
        await play_one(table, rng)


def _setup(db: str, clock: ManualClock) -> dict[str, str]:
    """A table with two finished games, one whose game stopped midway, one never
    started: the tables made at ``clock``'s time, each with a cluster's lease row."""
    async def play() -> dict[str, str]:
        store = Store(db)
        lobby = new_lobby(store, clock)
        rng = random.Random(3)
        done, _ = await people_table(lobby, "bluff", 2, {"max_cards": 3})
        await _finish(done, rng)
        await lobby.start_game(done, rematch=True)
        await _finish(done, rng)
        stopped, _ = await people_table(lobby, "liar", 3)
        for _ in range(4):
            await play_one(stopped, rng)
        empty, _ = await people_table(lobby, "bluff", 2, start=False)
        ids = {"done": done.public_id, "stopped": stopped.public_id,
               "empty": empty.public_id}
        with store.engine.begin() as conn:
            conn.execute(insert(leases), [{"table_pk": t.row.pk, "owner": "w1", "token": 2,
                                           "expires": 0.0} for t in (done, stopped, empty)])
        lobby.stop()
        store.close()
        return ids
    return asyncio.run(play())


def _rows(store: Store, public_id: str) -> dict[str, Any]:
    """What the store holds of a table: its archive time, log and lease rows, seats and
    archived games."""
    with store.engine.connect() as conn:
        row = conn.execute(select(tables).where(tables.c.public_id == public_id)).one()
        pk = row.pk

        def count(table: SqlTable) -> int:
            return int(conn.execute(select(func.count()).select_from(table)
                                    .where(table.c.table_pk == pk)).scalar() or 0)
        return {"archived": row.archived, "log": count(log), "leases": count(leases),
                "seats": conn.execute(select(seats.c.name, seats.c.token_hash, seats.c.bot)
                                      .where(seats.c.table_pk == pk)
                                      .order_by(seats.c.seat)).all(),
                "archive": conn.execute(select(archived_games.c.number,
                                               archived_games.c.finished,
                                               archived_games.c.record.is_not(None))
                                        .where(archived_games.c.table_pk == pk)
                                        .order_by(archived_games.c.number)).all()}


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "r.sqlite3")
    return new_database(request.getfixturevalue("pg_server"), f"retention_{next(_names)}")


def test_a_compacted_table_serves_the_same_records_and_keeps_nothing_else(db: str) -> None:
    clock = ManualClock(T0)
    ids = _setup(db, clock)
    settings = Settings(bot_delay=0.0, idle_seconds=IDLE)
    app_store = Store(db)
    with TestClient(create_app(store=app_store, clock=clock, settings=settings)) as c:
        base = f"/api/tables/{ids['done']}/games"
        served = [c.get(f"{base}/{n}/record") for n in (0, 1)]
        assert [r.status_code for r in served] == [200, 200]
        replay = c.get(f"{base}/0/replay")
        assert replay.status_code == 200
        assert c.get(f"/api/tables/{ids['stopped']}/games/0/record").status_code == 409

        def same_answers() -> None:
            assert [c.get(f"{base}/{n}/record").content for n in (0, 1)] == [
                r.content for r in served]
            assert c.get(f"{base}/0/replay").content == replay.content
            stopped = c.get(f"/api/tables/{ids['stopped']}/games/0/record")
            assert stopped.status_code == 409 and "expired" in stopped.json()["message"]
            assert c.get(f"{base}/2/record").status_code == 404
            assert c.get(f"/api/tables/{ids['empty']}/games/0/record").status_code == 404

        clock.advance(IDLE + 1)  # expired: no more play, the records still served (log)
        assert c.get(f"/api/tables/{ids['done']}").status_code == 410
        same_answers()
        before = {name: _rows(app_store, i) for name, i in ids.items()}
        assert all(r["archived"] is None and r["leases"] == 1 for r in before.values())

        # another table, used since: expired, but not for longer than the retention
        later = _setup(db, clock)
        later_before = {name: _rows(app_store, i) for name, i in later.items()}
        clock.advance(RETAIN)
        compactor = Store(db, upgrade=False)
        done = asyncio.run(compact(compactor, settings, clock, RETAIN))
        assert done is not None and (done.tables, done.games) == (3, 3)
        assert done.entries == sum(r["log"] for r in before.values())
        after = {name: _rows(app_store, i) for name, i in ids.items()}
        for name, row in after.items():
            assert row["archived"] == clock.time() and row["log"] == row["leases"] == 0
            assert row["seats"] == [(n, None, b) for n, _, b in before[name]["seats"]]
        assert after["done"]["archive"] == [(0, True, True), (1, True, True)]
        assert after["stopped"]["archive"] == [(0, False, True)]  # kept, never served
        assert after["empty"]["archive"] == []
        assert {name: _rows(app_store, i) for name, i in later.items()} == later_before
        same_answers()  # now from the archive
        again = asyncio.run(compact(compactor, settings, clock, RETAIN))
        assert again is not None and again.tables == 0
        compactor.close()


def test_the_server_compacts_periodically_and_the_command_does_too(tmp_path: Path) -> None:
    db = str(tmp_path / "p.sqlite3")
    ids = _setup(db, ManualClock(time.time()))
    settings = Settings(bot_delay=0.0, idle_seconds=0.2, retention_seconds=0.1,
                        compact_seconds=0.2)
    store = Store(db)
    with TestClient(create_app(store=store, settings=settings)) as c:
        wait_for(lambda: _rows(store, ids["done"])["archived"] is not None,
                 "the server's compaction")
        assert c.get(f"/api/tables/{ids['done']}/games/1/record").status_code == 200
    later = _setup(db, ManualClock(time.time() - 3 * 86400))
    command = [sys.executable, "-m", "usotsuki.cli.main", "db", "compact", "--db", db,
               "--idle-hours", "24", "--retention-days", "1"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("compacted 3 tables: 3 games' records kept")
    assert all(_rows(store, i)["archived"] is not None for i in later.values())
    store.close()


def test_one_compaction_at_a_time_on_postgresql(pg_server: str) -> None:
    url = new_database(pg_server, f"retention_{next(_names)}")
    clock = ManualClock(T0)
    ids = _setup(url, clock)
    clock.advance(IDLE + RETAIN + 1)
    store = Store(url)
    settings = Settings(idle_seconds=IDLE)
    with psycopg.connect(url) as other:  # another worker's pass, under way
        other.execute(f"SELECT pg_advisory_lock({LOCK})")
        assert asyncio.run(compact(store, settings, clock, RETAIN)) is None
        assert all(_rows(store, i)["archived"] is None for i in ids.values())
        other.execute(f"SELECT pg_advisory_unlock({LOCK})")  # its pass ended
    done = asyncio.run(compact(store, settings, clock, RETAIN))
    assert done is not None and done.tables == 3
    store.close()
