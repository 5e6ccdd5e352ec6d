"""Table affinity (issue 16, ``--lease-follows-sockets``): nginx hashes each table's
WebSockets to one worker, and the table's owner hands its lease to the worker its sockets
reach while it has none of its own. Correctness never depends on it: any worker still
serves any table (test_cluster.py runs round robin)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import pytest
from cluster_helpers import Cluster, cluster
from drive import choose
from pg_helpers import new_database
from test_cluster import (  # noqa: F401  (sockets: a fixture used here too)
    LEASE,
    Person,
    check_nothing_lost,
    get,
    play,
    post,
    record_of,
    sockets,
    start,
)

from usotsuki.replay import replay_record
from usotsuki.server.cluster import ClusterConfig, ClusterTable, Coordinator
from usotsuki.server.config import RealClock, Settings
from usotsuki.server.store import Store
from usotsuki.server.wire import Client, Numbered


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:  # noqa: F811
    db = new_database(pg_server, "usotsuki_affinity")
    with cluster(db, 3, ["--bot-delay", "0.05", "--lease-seconds", str(LEASE)],
                 affinity=True) as c:
        yield c


def open_table_at(url: str, people: int) -> tuple[str, list[str]]:
    table = post(f"{url}/api/tables", json={
        "game": "bluff", "seats": [{}] * people, "rules": {}}).json()
    tokens = []
    for i in range(people):
        r = post(f"{url}/api/invites/{table['invite']}/join", json={"name": f"p{i}",
                                                                    "seat": i})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return table["table_id"], tokens


def owner_is(stack: Cluster, table_id: str, name: str, seconds: float = 30) -> int:
    """Wait until ``name`` holds the table's lease: its token."""
    deadline = time.monotonic() + seconds
    while (holder := stack.owner(table_id)) is None or holder[0] != name:
        assert time.monotonic() < deadline, f"the lease stayed with {holder}"
        time.sleep(0.05)
    return holder[1]


class LongAgo(RealClock):
    """The table's last use, long ago: the stack's own workers take the expired leases of
    tables used lately only, so they leave a test's own table alone (only the test's two
    workers compete for it)."""

    def time(self) -> float:
        return 1000.0


@asynccontextmanager
async def owner_and_follower(stack: Cluster, store: Store, names: tuple[str, str],
                             ttl: float) -> AsyncIterator[tuple[ClusterTable, ClusterTable]]:
    """A started two-seat Bluff table owned by worker ``names[0]``, and worker ``names[1]``'s
    copy of it, read from the log. Neither worker listens to Redis: nothing the owner
    commits is heard elsewhere, and its lease is not renewed."""
    owner = Coordinator(ClusterConfig(stack.redis.url, names[0], ttl), store, None)
    follower = Coordinator(ClusterConfig(stack.redis.url, names[1], ttl), store, None)
    lobby = owner.lobby_for(store, Settings(bot_delay=0.0), LongAgo())
    other = follower.lobby_for(store, Settings(bot_delay=0.0), LongAgo())
    try:
        table, _ = await lobby.create("bluff", {"players": 2, "rules": {}, "games": 1},
                                      [None, None])
        for i in range(2):
            await table.join(f"p{i}", i)
        await table.start(False)
        copy = await other.get(table.public_id)
        assert isinstance(table, ClusterTable)
        assert isinstance(copy, ClusterTable) and copy.token is None
        yield table, copy
    finally:
        await owner.close()
        await follower.close()
        lobby.stop()
        other.stop()


def test_the_lease_follows_the_tables_sockets(stack: Cluster) -> None:
    creator, player_side = stack.workers[0], stack.workers[1]
    table_id, tokens = open_table_at(creator.url, 3)
    first = stack.owner(table_id)
    assert first is not None and first[0] == creator.name  # the creator took it
    people = [Person(stack, table_id, t, player_side.port) for t in tokens]
    # the creator has no socket at the table: it hands the lease over (a new token)
    assert owner_is(stack, table_id, player_side.name) > first[1]
    start(stack, table_id, tokens[0], people)
    assert play(people) > 0
    check_nothing_lost(people)
    assert replay_record(record_of(stack, table_id))["finished"]
    metrics = get(f"{creator.url}/metrics").text
    assert 'usotsuki_lease_changes_total{change="handed_over"} 1.0' in metrics
    # The creator's copy folded nothing published since (no socket there): it reads the
    # log when used, so its answers and a socket's first state are the log's present.
    info = get(f"{creator.url}/api/tables/{table_id}").json()
    assert info["status"] == "finished" and info["games"] == 1
    late = Person(stack, table_id, tokens[0], creator.port)
    assert late.state["n"] == people[0].state["n"] and late.state["status"] == "finished"
    assert late.events == people[0].events
    # ... and nobody owns the finished table (its owner gave the lease up as the game
    # ended): the late socket does not take it back to the creator either
    assert stack.owner(table_id) is None


def test_nginx_sends_a_tables_sockets_to_one_worker_which_takes_the_table(
        stack: Cluster) -> None:
    table_id, tokens = open_table_at(stack.nginx.url, 3)  # round robin: any worker
    people = [Person(stack, table_id, t, stack.nginx.port) for t in tokens]
    # The worker every socket reached (its summary counts its own sockets) owns it.
    deadline = time.monotonic() + 30
    while True:
        holder = stack.owner(table_id)
        if holder is not None:
            seats = get(f"{stack.worker(holder[0]).url}/api/tables/{table_id}").json()["seats"]
            if all(s["connected"] for s in seats):
                break
        assert time.monotonic() < deadline, f"{holder} does not hold the sockets"
        time.sleep(0.05)
    for w in stack.workers:
        if w.name != holder[0]:
            seats = get(f"{w.url}/api/tables/{table_id}").json()["seats"]
            assert not any(s["connected"] for s in seats)
    start(stack, table_id, tokens[0], people)
    assert play(people) > 0
    check_nothing_lost(people)
    assert replay_record(record_of(stack, table_id))["finished"]


@pytest.mark.parametrize("key", [None, "7:call"])
def test_an_action_made_by_an_owner_that_died_before_answering_is_not_refused(
        stack: Cluster, key: str | None) -> None:
    # The owner commits a person's action and dies before anyone hears of it; the
    # person's worker, which relayed it (or sends it again), takes the table and finds
    # the action already made: it acknowledges it, it does not refuse it as illegal.
    ttl = 0.6
    store = Store(stack.db)

    async def scenario() -> tuple[list[Numbered], int]:
        # the owner is "gone": its lease runs out, as if it had died
        async with owner_and_follower(stack, store, ("gone", "here"), ttl) as (table, copy):
            slot = table.current
            assert slot is not None and slot.session.to_move is not None
            seat = slot.session.to_move
            text = choose(table.state_message(seat), random.Random(1))
            held = table.seats[seat].token_hash or ""
            made = await table.act(seat, text, held, key=key)  # committed; the copy never hears
            assert copy.seq < table.seq
            again = await copy.act(seat, text, held, key=key)  # relayed; the owner is gone
            assert copy.token is not None  # this worker took the table
            assert again[0].action == made[0].action
            if key is not None:  # found by its key: the same numbers as its first answer
                assert [e.n for e in again] == [made[0].n, made[-1].n]
            mine = [e for e in copy.events_since(seat, -1) if '"type":"action"' in e]
            return again, len(mine)

    again, actions = asyncio.run(scenario())
    assert actions == 1  # made once, acknowledged twice
    store.close()


def test_a_socket_that_saw_more_than_a_followers_copy_is_not_shown_an_older_state(
        stack: Cluster) -> None:
    # A socket reconnecting from a dead owner has seen what that owner committed and
    # never published: the follower it reaches reads the log first (its copy, followed
    # by other sockets, would otherwise show an older state, and the person be asked
    # for the action they made already). A socket that saw no more costs no read.
    store = Store(stack.db)

    async def scenario() -> None:
        async with owner_and_follower(stack, store, ("keeps", "follows"), 30.0) as (table,
                                                                                   copy):
            copy.clients.add(Client(None))  # followed: it trusts its copy
            slot = table.current
            assert slot is not None and slot.session.to_move is not None
            seat = slot.session.to_move
            made = await table.act(seat, choose(table.state_message(seat), random.Random(1)),
                                   table.seats[seat].token_hash or "")
            async with copy.lock:
                await copy.prepare_socket(since=len(copy.events) - 1)  # saw no more
            assert copy.seq < table.seq
            async with copy.lock:
                await copy.prepare_socket(since=made[-1].n)  # saw the action
            assert copy.seq == table.seq

    asyncio.run(scenario())
    store.close()
