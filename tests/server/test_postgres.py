"""The same server code on a real PostgreSQL server (a throwaway instance)."""

from __future__ import annotations

import time
from itertools import count

import psycopg
import pytest
import sqlalchemy.exc
from fastapi.testclient import TestClient
from pg_helpers import new_database
from server_helpers import create
from test_crash import play, seat_tables

from usotsuki.replay import replay_record
from usotsuki.server.app import create_app
from usotsuki.server.migrate import head
from usotsuki.server.store import Store

_names = count()


@pytest.fixture
def pg_url(pg_server: str) -> str:
    return new_database(pg_server, f"usotsuki_test_{next(_names)}")


def test_store_migrates_once_and_the_log_is_append_only(pg_url: str) -> None:
    store = Store(pg_url)
    assert store.url.startswith("postgresql+psycopg://")
    assert Store(pg_url).migrate() == store.migrate() == head()  # idempotent on reopen
    pk = store.create_table("t", "i", "h", "bluff", {"players": 2}, [None, "random"])
    store.append(pk, 0, "start", {"names": ["a", "b"]})
    with pytest.raises(sqlalchemy.exc.IntegrityError):
        store.append(pk, 0, "action", {"seat": 0, "action": "card 2"})
    assert [(e.seq, e.kind) for e in store.load_log(pk)] == [(0, "start")]
    store.close()


def test_games_on_postgres_carry_on_after_a_restart(pg_url: str) -> None:
    store = Store(pg_url)
    with TestClient(create_app(store=store, bot_delay=0.02)) as c:
        table = create(c, "liar", ["sensible", "random", "sensible"])
        c.post(f"/api/tables/{table['table_id']}/start", json={"token": table["host_token"]})
        time.sleep(0.2)  # a few plays: nobody can shed 9 cards yet (L3)
        assert c.get(f"/api/tables/{table['table_id']}").json()["status"] == "playing"
    # a new app on the same database replays the log and finishes the game
    with TestClient(create_app(store=Store(pg_url), bot_delay=0)) as c:
        deadline = time.monotonic() + 30
        while c.get(f"/api/tables/{table['table_id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the new app did not finish the bots' game"
            time.sleep(0.02)
        record = c.get(f"/api/tables/{table['table_id']}/games/0/record").json()
    assert replay_record(record)["finished"]


def _upgraded(url: str) -> str:
    """The database, its schema upgraded (as `usotsuki db upgrade` does before `serve`)."""
    Store(url).close()
    return url


def test_sigkill_and_restart_on_postgres(pg_server: str) -> None:
    rules = {"max_cards": 3}
    crashed_db = _upgraded(new_database(pg_server, "crashed"))
    bots_table, tid, tokens = seat_tables(crashed_db, "bluff", rules)
    # the same tables, ids and tokens in a copy: the same seed deals the same games
    # (docs/fairness.md: the deals depend on the table's id)
    with psycopg.connect(f"{pg_server}/postgres", autocommit=True) as conn:
        conn.execute('CREATE DATABASE "calm" TEMPLATE "crashed"')
    crashed, crashed_events, bots = play(crashed_db, bots_table, tid, tokens, 10)
    calm, calm_events, _ = play(f"{pg_server}/calm", bots_table, tid, tokens, None)
    assert crashed == calm and crashed_events == calm_events
    assert bots is not None and replay_record(bots)["finished"]
