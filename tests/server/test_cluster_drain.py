"""A worker stopped with SIGTERM drains (docs/deploy.md, "Rolling restart"): it stops
accepting, closes its WebSockets with 1012 (clients reconnect through nginx to another
worker), releases every lease it holds so that other workers take its tables at once,
and exits within its ``--drain-seconds``; the games go on with nothing lost."""

from __future__ import annotations

import signal
import subprocess
import threading
from collections.abc import Iterator

import psycopg
import pytest
from cluster_helpers import Cluster, cluster
from pg_helpers import new_database
from test_cluster import (  # noqa: F401  (sockets: a fixture used here too)
    Person,
    check_nothing_lost,
    get,
    open_table,
    play,
    post,
    record_of,
    sockets,
    start,
)
from waits import GAME_S, wait_for

from usotsuki.replay import replay_record

LEASE = 1.5
DRAIN = 5  # --drain-seconds
GRACE = 30.0  # deploy/compose.yaml's stop_grace_period: docker SIGKILLs after it


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:  # noqa: F811
    db = new_database(pg_server, "usotsuki_drain")
    with cluster(db, 3, ["--bot-delay", "0.05", "--lease-seconds", str(LEASE),
                         "--drain-seconds", str(DRAIN)], affinity=True) as c:
        yield c


def test_a_sigtermed_worker_hands_its_tables_over_and_exits(stack: Cluster) -> None:
    # Two games: one whose people play through nginx (their sockets on the worker the
    # table hashes to, which owns it), one of bots only that nobody watches.
    table_id, tokens = open_table(stack, [None, None, "random"])
    people = [Person(stack, table_id, t, stack.nginx.port) for t in tokens]
    start(stack, table_id, tokens[0], people)
    assert play(people, stop_after=4) == 4
    owner = stack.owner(table_id)
    assert owner is not None
    victim = stack.worker(owner[0])
    # ... and a game of bots on the same worker, that nobody watches
    bots = post(f"{victim.url}/api/tables", json={
        "game": "bluff", "seats": [{"bot": "random"}] * 3, "rules": {}}).json()
    r = post(f"{victim.url}/api/tables/{bots['table_id']}/start",
             json={"token": bots["host_token"]})
    assert r.status_code == 200, r.text
    # SIGTERM while the game is being played (the actions in flight go on meanwhile)
    threading.Timer(0.2, victim.signal, (signal.SIGTERM,)).start()
    play(people, stop_after=6)
    try:
        code = victim.process.wait(timeout=GRACE)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the worker did not exit within {GRACE} s of SIGTERM")
    assert code == -signal.SIGTERM  # uvicorn ends by raising the signal it drained for
    # Nothing was left to expire: every lease it held was released (or taken) at exit.
    with psycopg.connect(stack.db) as conn:
        held = conn.execute("SELECT count(*) FROM leases WHERE owner = %s AND expires > 0",
                            (victim.name,)).fetchone()
    assert held == (0,)
    log = victim.log.read_text()
    assert "lease released" in log or "lease handed_over" in log, log[-2000:]
    # the game nobody watched goes on at another worker, and ends
    wait_for(lambda: get(f"{stack.nginx.url}/api/tables/{bots['table_id']}").json()
             ["status"] == "finished", "the bots' game at another worker", GAME_S)
    play(people)
    # its sockets were told to reconnect (1012: service restart), and did elsewhere
    assert any(1012 in p.close_codes for p in people), [p.close_codes for p in people]
    holder = stack.owner(table_id)  # (None once the finished table gave its lease up)
    assert holder is None or holder[0] != victim.name
    check_nothing_lost(people)
    assert replay_record(record_of(stack, table_id))["finished"]
