"""The database goes away and comes back (real PostgreSQL, stopped with ``pg_ctl stop -m
fast`` as an operator's restart does): games resume within seconds, clients are told
``unavailable`` (with ``retry_after``), never ``internal`` nor HTTP 500, nothing
acknowledged is lost and nothing is made twice. And the write path's retry of a
statement whose connection was lost, on its own."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest
from cluster_helpers import Cluster, cluster
from outage_helpers import check_log, through_outage
from pg_helpers import (
    new_database,
    restart_postgres,
    start_postgres,
    stop_postgres,
    throwaway_postgres,
)
from waits import wait_for
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from usotsuki.server import lease
from usotsuki.server.lease import FencedLog, Leases
from usotsuki.server.store import Store

LEASE = 1.5
OUTAGE = 10.0  # seconds the database is away (several leases)
TABLES = 4


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[str, Cluster]]:
    """A throwaway PostgreSQL server (its URL: it is stopped and started by the tests)
    and two workers on a database of it."""
    with throwaway_postgres() as pg, cluster(
            new_database(pg, "usotsuki_outage"), 2,
            ["--lease-seconds", str(LEASE), "--bot-delay", "0.05"]) as workers:
        yield pg, workers


@pytest.fixture
def pg_server(servers: tuple[str, Cluster]) -> str:
    return servers[0]


@pytest.fixture
def stack(servers: tuple[str, Cluster]) -> Cluster:
    return servers[1]


def metric(c: Cluster, name: str) -> float:
    """A counter's total over the workers (every label)."""
    total = 0.0
    for w in c.workers:
        for line in httpx.get(f"{w.url}/metrics", timeout=10).text.splitlines():
            if line.startswith(name) and not line.startswith("#"):
                total += float(line.rsplit(" ", 1)[1])
    return total


def test_a_fast_restart_pauses_games_briefly_and_loses_nothing(
        pg_server: str, stack: Cluster) -> None:
    outcome, _, stalled = asyncio.run(through_outage(stack.nginx.url, TABLES,
                                                     lambda: restart_postgres(pg_server)))
    assert not stalled
    assert set(outcome.errors) <= {"unavailable"}, outcome.errors
    assert set(outcome.http) <= {503}, outcome.http  # (never a 500)
    check_log(stack.db, outcome)


def test_a_ten_second_outage_refuses_sockets_keeps_leases_and_games_resume(
        pg_server: str, stack: Cluster) -> None:
    with psycopg.connect(stack.db) as conn:
        before: dict[int, str] = dict(conn.execute(
            "SELECT table_pk, owner FROM leases").fetchall())
    seen: dict[str, Any] = {}

    def outage() -> None:
        stop_postgres(pg_server)
        try:
            w = stack.workers[0]
            def unready() -> dict[str, Any] | None:
                r = httpx.get(f"{w.url}/readyz", timeout=10)
                return r.json() if r.status_code == 503 else None

            seen["readyz"] = wait_for(unready, "/readyz to say unready")
            # a new socket is refused before it is accepted: a 503 with a retry hint
            wait_for(lambda: _refused(w.url, "any", seen), "a WebSocket refused")
            r = httpx.post(f"{w.url}/api/tables", timeout=10, json={
                "game": "bluff", "seats": [{"bot": None}, {"bot": "random"}]})
            seen["create"] = (r.status_code, r.headers.get("retry-after"), r.json())
            time.sleep(OUTAGE)  # (the outage itself: nothing to wait for)
        finally:
            start_postgres(pg_server)

    outcome, _, stalled = asyncio.run(through_outage(stack.nginx.url, TABLES, outage))
    assert not stalled
    assert set(outcome.errors) <= {"unavailable"}, outcome.errors
    assert set(outcome.http) <= {503}, outcome.http
    check_log(stack.db, outcome)
    assert seen["readyz"] == {"status": "unavailable",
                              "checks": {"database": False, "redis": True}}
    assert seen["socket"] == (503, "1")
    status, retry_after, body = seen["create"]
    assert (status, retry_after, body["error"], body["retry_after"]) == (
        503, "1", "unavailable", 1.0)
    # Every table kept its owner: the owners renewed after the outage before anyone
    # could claim (no lease claimed by the other worker).
    with psycopg.connect(stack.db) as conn:
        after: dict[int, str] = dict(conn.execute(
            "SELECT table_pk, owner FROM leases").fetchall())
    assert {pk: after[pk] for pk in before} == before
    assert metric(stack, "usotsuki_lease_claims_total") == 0
    assert metric(stack, 'usotsuki_commit_failures_total{cause="unavailable"}') > 0
    assert metric(stack, 'usotsuki_commit_failures_total{cause="error"}') == 0
    assert metric(stack, "usotsuki_database_reachable") == len(stack.workers)


def _refused(base: str, table_id: str, seen: dict[str, Any]) -> bool:
    try:
        with connect(f"{base.replace('http', 'ws', 1)}/ws/tables/{table_id}",
                     open_timeout=10):
            return False
    except InvalidStatus as exc:
        seen["socket"] = (exc.response.status_code,
                          exc.response.headers.get("Retry-After"))
        return exc.response.status_code == 503


def test_readyz_says_degraded_while_redis_is_away(stack: Cluster) -> None:
    w = stack.workers[0]

    def readyz() -> tuple[int, dict[str, Any]]:
        r = httpx.get(f"{w.url}/readyz", timeout=10)
        return r.status_code, r.json()

    assert readyz() == (200, {"status": "ready", "checks": {"database": True, "redis": True}})
    stack.redis.stop()
    try:
        assert wait_for(lambda: readyz()[1]["status"] == "degraded" and readyz(),
                        "a degraded worker") == (
            200, {"status": "degraded", "checks": {"database": True, "redis": False}})
    finally:
        stack.redis.start()
    wait_for(lambda: readyz()[1]["status"] == "ready", "ready again")


# the write path's retry, on its own


@pytest.fixture
def owned(pg_server: str) -> Iterator[tuple[Store, int, int]]:
    store = Store(new_database(pg_server, f"usotsuki_retry_{next(_names)}"))
    pk = store.create_table("t", "i", "h", "bluff", {"players": 2}, [None, None])
    token = Leases(store, "retry-owner", 30.0).acquire(pk)
    assert token is not None
    yield store, pk, token
    store.close()


_names = iter(range(1000))


def _cut(db: str) -> None:
    """Close every other connection to the database, as a restart would (their server
    processes end; nothing tells their clients until they next use them)."""
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE datname = current_database() AND pid <> pg_backend_pid()")


def _retrying(monkeypatch: pytest.MonkeyPatch, store: Store) -> tuple[FencedLog, list[str]]:
    """A write pool of one connection whose first check on taking it is skipped (so a
    write does meet a dead connection), and the outcomes of its retries."""
    checked = lease._alive
    first = [True]

    async def alive_but_the_first(conn: psycopg.AsyncConnection[Any]) -> bool:
        if first.pop() if first else False:
            return True
        return await checked(conn)

    monkeypatch.setattr(lease, "_alive", alive_but_the_first)
    log = FencedLog(store, "retry-owner", size=1)
    outcomes: list[str] = []
    log.retried = outcomes.append
    return log, outcomes


def _url(store: Store) -> str:
    return store.engine.url.set(drivername="postgresql").render_as_string(False)


def test_a_write_on_a_lost_connection_is_run_once_more(
        monkeypatch: pytest.MonkeyPatch, owned: tuple[Store, int, int]) -> None:
    store, pk, token = owned
    log, outcomes = _retrying(monkeypatch, store)

    async def run() -> None:
        await log.open()
        _cut(_url(store))
        await log.append_many(pk, 0, [("start", {"names": ["a", "b"]}),
                                      ("chance", {"deal": 1})], 0.0, token)
        await log.close()

    asyncio.run(run())
    assert outcomes == ["written"]
    assert [(e.seq, e.kind) for e in store.load_log(pk)] == [(0, "start"), (1, "chance")]


def test_a_write_that_had_committed_is_found_written_not_made_twice(
        monkeypatch: pytest.MonkeyPatch, owned: tuple[Store, int, int]) -> None:
    # The first run committed and its answer was lost: the second is refused by the
    # log's primary key, and the log holds exactly these entries, so it was written.
    store, pk, token = owned
    entries: list[tuple[str, dict[str, Any]]] = [("start", {"names": ["a", "b"]}),
                                                 ("action", {"seat": 0, "action": "KD",
                                                             "key": "k1"})]
    store.append_many(pk, 0, entries)  # (what the lost answer's commit wrote)
    log, outcomes = _retrying(monkeypatch, store)

    async def run() -> None:
        await log.open()
        _cut(_url(store))
        await log.append_many(pk, 0, entries, 0.0, token)
        await log.close()

    asyncio.run(run())
    assert outcomes == ["already_written"]
    assert [e.data for e in store.load_log(pk)] == [d for _, d in entries]


def test_a_retry_that_finds_other_entries_there_is_an_error(
        monkeypatch: pytest.MonkeyPatch, owned: tuple[Store, int, int]) -> None:
    # Entries of the same numbers but not these: not ours, never taken as written.
    store, pk, token = owned
    store.append(pk, 0, "start", {"names": ["x", "y"]})
    log, outcomes = _retrying(monkeypatch, store)

    async def run() -> None:
        await log.open()
        _cut(_url(store))
        with pytest.raises(psycopg.errors.UniqueViolation):
            await log.append_many(pk, 0, [("start", {"names": ["a", "b"]})], 0.0, token)
        await log.close()

    asyncio.run(run())
    assert outcomes == []  # (an error, not a retry's outcome)
    assert [e.data for e in store.load_log(pk)] == [{"names": ["x", "y"]}]


def test_a_write_that_cannot_reach_the_database_is_unavailable_and_changes_nothing(
        pg_server: str) -> None:
    # A single PostgreSQL-backed worker (its Store's engine): the table's cache does
    # not move, the client is told ``unavailable`` with a retry hint, and the same
    # action sent again (its key) once the database is back is made once.
    from fastapi.testclient import TestClient
    from server_helpers import create, join_all

    from usotsuki.server.app import create_app

    store = Store(new_database(pg_server, "usotsuki_single"))
    with TestClient(create_app(store=store, deal_seed=5)) as c:
        table = create(c, "bluff", [None, None])
        tokens = join_all(c, table)
        assert c.post(f"/api/tables/{table['table_id']}/start",
                      json={"token": table["host_token"]}).status_code == 200
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        live = lobby.by_id[table["table_id"]]
        to_move = live.current.session.to_move
        url = f"/ws/tables/{table['table_id']}?token={tokens[to_move]}"
        with c.websocket_connect(url) as ws:
            state = _until(ws, "state")
            action = state["legal"][0]
            seq = live.seq
            stop_postgres(pg_server)
            try:
                ws.send_text(json.dumps({"type": "act", "action": action, "key": "k",
                                         "id": 1}))
                error = _until(ws, "error")
                assert (error["code"], error["retry_after"], error["id"]) == (
                    "unavailable", 1.0, 1)
                assert live.seq == seq  # nothing applied that was not written
                r = c.post(f"/api/invites/{table['invite']}/join", json={"name": "z"})
                assert r.status_code == 503 and r.headers["retry-after"] == "1"
            finally:
                start_postgres(pg_server)
            ws.send_text(json.dumps({"type": "act", "action": action, "key": "k",
                                     "id": 2}))
            ack = _until(ws, "ack")
            assert ack["id"] == 2 and ack["action"] == action
        assert [e.data.get("key") for e in store.load_log(live.row.pk)].count("k") == 1
    store.close()


def test_a_worker_never_claims_a_lease_it_holds_its_renewal_keeps_it(
        pg_server: str) -> None:
    """After an outage every lease has expired; an owner whose renewal is slow to run
    must not claim its own tables in its tick (a new token would fence its own writes in
    flight): the renewal finds them untaken, their token unchanged."""
    store = Store(new_database(pg_server, "usotsuki_own_claim"))
    pk = store.create_table("t", "i", "h", "bluff", {"players": 2}, [None, None], now=1.0)
    owner = Leases(store, "owner", 30.0)
    token = owner.acquire(pk)
    assert token is not None
    store.append(pk, 0, "start", {"names": ["a", "b"]}, now=1.0)
    with psycopg.connect(_url(store)) as conn:
        conn.execute("UPDATE leases SET expires = 0")
    assert owner.claim_orphans(10, 0.0, held=[pk]) == {}
    assert owner.renew({pk: token}) == {pk: token}
    with psycopg.connect(_url(store)) as conn:
        conn.execute("UPDATE leases SET expires = 0")
    assert owner.claim_orphans(10, 0.0) == {pk: token + 1}  # (not held: a restart's)
    owner.close()
    store.close()


def _until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message


def test_orphans_are_counted_and_claimed_newest_first_a_few_at_a_time(
        pg_server: str) -> None:
    store = Store(new_database(pg_server, "usotsuki_orphans"))
    pks = [store.create_table(f"t{i}", f"i{i}", "h", "bluff", {"players": 2}, [None, None],
                              now=1000.0 + i) for i in range(4)]
    dead = Leases(store, "dead", 30.0)
    for pk in pks:  # (games in play: a table with an empty log has nothing due)
        assert dead.acquire(pk) is not None
        store.append(pk, 0, "start", {"names": ["a", "b"]}, now=1000.0 + pks.index(pk))
    survivor = Leases(store, "survivor", 30.0)
    assert survivor.count_orphans(0.0) == 0  # (their owner renews them)
    with psycopg.connect(_url(store)) as conn:  # the owner died a while ago
        conn.execute("UPDATE leases SET expires = 0")
    assert survivor.count_orphans(0.0) == 4
    # (right after an outage a worker leaves others' expired leases to their owners)
    assert survivor.acquire(pks[0], take_expired=False) is None
    assert survivor.count_orphans(1002.0) == 2  # (in use since then)
    assert set(survivor.claim_orphans(2, 0.0)) == {pks[3], pks[2]}  # the newest first
    assert set(survivor.claim_orphans(2, 0.0)) == {pks[1], pks[0]}
    assert survivor.count_orphans(0.0) == 0
    for leases in (dead, survivor):
        leases.close()
    store.close()


def test_bots_take_their_turn_again_once_the_database_is_back(pg_server: str) -> None:
    # A bot's move that cannot be written is tried again after the refusal's hint (as
    # a client would), not dropped: a game of bots only plays on across an outage.
    from fastapi.testclient import TestClient
    from server_helpers import create

    from usotsuki.server.app import create_app

    store = Store(new_database(pg_server, "usotsuki_bots"))
    with TestClient(create_app(store=store, bot_delay=0.3, deal_seed=3)) as c:
        table = create(c, "bluff", ["random", "random"])
        live = c.app.state.lobby.by_id[table["table_id"]]  # type: ignore[attr-defined]
        stop_postgres(pg_server)
        try:
            assert c.post(f"/api/tables/{table['table_id']}/start",
                          json={"token": table["host_token"]}).status_code == 503
        finally:
            start_postgres(pg_server)
        assert c.post(f"/api/tables/{table['table_id']}/start",
                      json={"token": table["host_token"]}).status_code == 200
        wait_for(lambda: live.seq >= 2, "a bot's first move")
        stop_postgres(pg_server)
        try:
            wait_for(lambda: not store.health.reachable, "a bot's write to fail")
            seq = live.seq
        finally:
            start_postgres(pg_server)
        wait_for(lambda: live.seq > seq + 1, "the bots to play on")
    store.close()
