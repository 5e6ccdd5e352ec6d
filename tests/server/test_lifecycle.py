"""Only what somebody needs stays in memory and leased: a table whose game is over, or a
game in play that nobody uses and nothing drives, leaves memory (and gives its lease up
in a cluster); a later use loads it from the log, exactly as it was; renewals and orphan
claims touch only tables in play."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from core_helpers import (
    ManualClock,
    bot_table,
    new_lobby,
    people_table,
    play_one,
    watch,
)
from fastapi.testclient import TestClient
from pg_helpers import new_database
from server_helpers import create, join_all

from usotsuki.server.app import create_app
from usotsuki.server.bot_runner import BotRunner
from usotsuki.server.cluster import ClusterConfig, ClusterLobby, ClusterTable, Coordinator
from usotsuki.server.config import Refused, Settings
from usotsuki.server.lease import RELEASED
from usotsuki.server.lobby import Lobby
from usotsuki.server.store import Store
from usotsuki.server.table import Table

SHORT = {"ranks": 6, "max_cards": 2}  # B13: a short deck, a short game
LINGER, UNLOAD = 60.0, 600.0
_names = count()


def snapshot(table: Table) -> dict[str, Any]:
    """Everything a client can be shown of the table: each seat's state and events, the
    games and the finished games' records."""
    seats = [*range(len(table.seats)), None]
    return {"seq": table.seq, "summary": table.summary(), "games": table.games_list(),
            "states": [table.state_message(s) for s in seats],
            "events": [table.events_since(s, -1) for s in seats],
            "records": [table.record(g["number"]) for g in table.games_list()
                        if g["finished"]]}


async def play_to_end(table: Table, rng: random.Random) -> None:
    while table.playing:
        await play_one(table, rng)


def unloaded(lobby: Lobby, table: Table) -> bool:
    return table.public_id not in lobby.by_id and table.retired


async def log_is_whole(store: Store, table: Table) -> None:
    """The log holds every entry of ``table`` (a copy loaded last), none twice."""
    logged = await store.call(store.load_log, table.row.pk)
    assert [e.seq for e in logged] == list(range(table.seq))


@asynccontextmanager
async def single(tmp_path: Path, clock: ManualClock,
                 **settings: Any) -> AsyncIterator[tuple[Store, Lobby]]:
    """A single worker's store and lobby (unloading after ``LINGER`` and ``UNLOAD``)."""
    store = Store(str(tmp_path / "s.sqlite3"))
    lobby = new_lobby(store, clock, linger_seconds=LINGER, unload_seconds=UNLOAD,
                      **settings)
    try:
        yield store, lobby
    finally:
        lobby.stop()
        store.close()


# a single worker


def test_a_finished_table_leaves_memory_after_its_linger_and_reloads_for_a_rematch(
        tmp_path: Path) -> None:
    clock = ManualClock()

    async def main() -> None:
        async with single(tmp_path, clock, deal_seed=3) as (store, lobby):
            table, tokens = await people_table(lobby, "bluff", 2, SHORT)
            await play_to_end(table, random.Random(1))
            before = snapshot(table)
            assert table.status == "finished" and lobby.in_play() == 0
            seen = watch(table, 0)  # a player looks at the results: kept
            clock.advance(10 * LINGER)
            lobby.sweep()
            assert table.public_id in lobby.by_id
            table.clients.discard(seen)  # the page closed
            lobby.sweep()  # (the linger counts from the last sweep that saw a socket)
            assert table.public_id in lobby.by_id
            clock.advance(LINGER)
            assert lobby.sweep() == []  # not expired: unloaded
            assert unloaded(lobby, table)
            again = await lobby.get(table.public_id)
            assert again is not table and snapshot(again) == before
            assert again.seat_of(tokens[0]) == 0
            assert await lobby.start_game(again, rematch=True) == 1
            assert again.playing and lobby.in_play() == 1

    asyncio.run(main())


def test_an_idle_game_in_play_is_unloaded_and_reloaded_exactly(tmp_path: Path) -> None:
    clock = ManualClock()

    async def main() -> None:
        async with single(tmp_path, clock, deal_seed=4) as (store, lobby):
            table, _ = await people_table(lobby, "liar", 3)
            rng = random.Random(2)
            for _ in range(7):
                await play_one(table, rng)
            before = snapshot(table)
            clock.advance(UNLOAD - 1)
            lobby.sweep()
            assert table.public_id in lobby.by_id  # not yet
            clock.advance(1)
            lobby.sweep()
            assert unloaded(lobby, table)
            # (a request that found the table just before it left): retry, never a fork
            with pytest.raises(Refused) as refused:
                await play_one(table, rng)
            assert refused.value.code == "unavailable" and refused.value.status == 503
            again = await lobby.get(table.public_id)
            assert snapshot(again) == before
            for _ in range(5):  # it carries on; nothing was lost
                await play_one(again, rng)
            await log_is_whole(store, again)

    asyncio.run(main())


def test_tables_that_carry_on_by_themselves_stay_loaded(tmp_path: Path) -> None:
    clock = ManualClock()

    async def main() -> None:
        # A person's turn clock, and a bot's delay, each longer than the unload time.
        async with single(tmp_path, clock, deal_seed=5, turn_seconds=5 * UNLOAD,
                          bot_delay=5 * UNLOAD) as (_, lobby):
            clocked, _ = await people_table(lobby, "bluff", 2, SHORT)
            bots = await bot_table(lobby, ["random", "random"], rules=SHORT)
            await lobby.start_game(bots, rematch=False)
            # A table whose host chose no turn clock: its person's turn waits for ever.
            idle, _ = await lobby.create("bluff", {"players": 2, "rules": SHORT, "games": 1,
                                                   "turn_seconds": None}, [None, None])
            for seat in range(2):
                await idle.join(f"p{seat}", seat)
            await lobby.start_game(idle, rematch=False)
            assert clocked.due and bots.due and not idle.due
            clock.advance(2 * UNLOAD)  # (no timer fires yet)
            lobby.sweep()
            assert set(lobby.by_id) == {clocked.public_id, bots.public_id}
            assert lobby.in_play() == 2

    asyncio.run(main())


def test_the_metrics_count_tables_loaded_and_in_play() -> None:
    with TestClient(create_app(bot_delay=0)) as client:
        waiting = create(client, "bluff", [None, None])
        playing = create(client, "bluff", [None, None])
        tokens = join_all(client, playing)
        assert client.post(f"/api/tables/{playing['table_id']}/start",
                           json={"token": tokens[0]}).status_code == 200
        assert waiting["table_id"] != playing["table_id"]
        metrics = client.get("/metrics").text
        assert 'usotsuki_tables{role="loaded"} 2.0' in metrics
        assert 'usotsuki_tables{role="in_play"} 1.0' in metrics


# a cluster worker (in process: Redis is never reached, publishes only queue)


Worker = tuple[Coordinator, ClusterLobby]


def worker(store: Store, clock: ManualClock, name: str) -> Worker:
    cluster = Coordinator(ClusterConfig("redis://127.0.0.1:9/0", name, 30.0), store, None)
    settings = Settings(bot_delay=0.0, deal_seed=6, linger_seconds=LINGER,
                        unload_seconds=UNLOAD)
    runner = BotRunner(clock, 1, settings.bot_deadline, nice=0, idle=False)
    return cluster, cluster.lobby_for(store, settings, clock, runner)


@asynccontextmanager
async def workers(pg_server: str, clock: ManualClock,
                  *names: str) -> AsyncIterator[tuple[Store, list[Worker]]]:
    """A fresh database, and a worker of each name on it."""
    store = Store(new_database(pg_server, f"usotsuki_life_{next(_names)}"))
    made = [worker(store, clock, name) for name in names]
    try:
        yield store, made
    finally:
        for cluster, lobby in made:
            await cluster.close()
            lobby.stop()
        store.close()


def lease_row(store: Store, table: Table) -> tuple[str, int]:
    with store.engine.connect() as conn:
        row = conn.exec_driver_sql("SELECT owner, token FROM leases WHERE table_pk = %s",
                                   (table.row.pk,)).one()
    return str(row[0]), int(row[1])


async def settled(cluster: Coordinator) -> None:
    """Until every lease this worker is giving up is given up."""
    for pk in list(cluster._giving_up):
        await cluster.given_up(pk)


def died(store: Store, name: str) -> None:
    """Worker ``name`` is dead: its leases ran out, nothing gave them up."""
    with store.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE leases SET expires = 0 WHERE owner = %s", (name,))


def test_a_cluster_worker_keeps_and_renews_the_leases_of_tables_in_play_only(
        pg_server: str) -> None:
    clock = ManualClock()

    async def main() -> None:
        async with workers(pg_server, clock, "w-a") as (store, [(cluster, lobby)]):
            finished, _ = await people_table(lobby, "bluff", 2, SHORT)
            await play_to_end(finished, random.Random(4))
            playing, _ = await people_table(lobby, "bluff", 2, SHORT)
            await play_one(playing, random.Random(5))
            waiting, _ = await people_table(lobby, "bluff", 2, SHORT, start=False)
            await settled(cluster)
            assert isinstance(finished, ClusterTable) and not finished.owner
            assert lease_row(store, finished)[0] == RELEASED
            # Renewed: the game in play (and the new table, until its first game).
            held = dict(cluster.owned)
            assert set(held) == {playing.row.pk, waiting.row.pk}
            assert set(cluster.leases.renew(held)) == set(held)
            assert lobby.in_play() == 1

            # The finished table leaves memory; a rematch loads it and takes the lease.
            clock.advance(LINGER)
            lobby.sweep()
            assert unloaded(lobby, finished) and unloaded(lobby, waiting)
            assert set(cluster.owned) == {playing.row.pk}
            before = snapshot(finished)
            again = await lobby.get(finished.public_id)
            assert isinstance(again, ClusterTable) and not again.owner
            assert snapshot(again) == before
            token = lease_row(store, again)[1]
            assert await lobby.start_game(again, rematch=True) == 1
            assert again.owner and again.token == token + 1
            assert lease_row(store, again) == ("w-a", token + 1)

            # The idle game in play: unloaded, its lease given up; reloaded exactly.
            before = snapshot(playing)
            clock.advance(UNLOAD)
            await play_one(again, random.Random(6))  # (in use: stays)
            lobby.sweep()
            await settled(cluster)
            assert unloaded(lobby, playing) and playing.row.pk not in cluster.owned
            assert lease_row(store, playing)[0] == RELEASED
            reloaded = await lobby.get(playing.public_id)
            assert isinstance(reloaded, ClusterTable) and reloaded.owner
            assert snapshot(reloaded) == before
            await play_one(reloaded, random.Random(7))
            await log_is_whole(store, reloaded)

    asyncio.run(main())


def test_a_dead_workers_finished_tables_are_not_claimed(pg_server: str) -> None:
    clock = ManualClock()

    async def main() -> None:
        async with workers(pg_server, clock, "w-dead", "w-heir") as (store, made):
            (dead, lobby), (heir, heirs) = made
            for n in range(4):
                table, _ = await people_table(lobby, "bluff", 2, SHORT)
                await play_to_end(table, random.Random(n))
            playing, _ = await people_table(lobby, "bluff", 2, SHORT)
            await people_table(lobby, "bluff", 2, SHORT, start=False)  # waiting
            await settled(dead)
            # The last game ended as its worker died, before it could give the lease up:
            with store.engine.begin() as conn:
                conn.exec_driver_sql("UPDATE leases SET owner = 'w-dead' WHERE table_pk = %s",
                                     (table.row.pk,))
            died(store, "w-dead")
            taken = heir.leases.claim_orphans(1000, 0.0)
            assert set(taken) == {playing.row.pk, table.row.pk}
            for pk, token in taken.items():
                await heir._adopt(pk, token)
            assert set(heir.owned) == {playing.row.pk}  # carried on; the other given back
            assert lease_row(store, table)[0] == RELEASED
            assert heirs.in_play() == 1

    asyncio.run(main())
