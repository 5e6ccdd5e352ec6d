"""The lobby and the table's memory: tables load on first use (nothing at start-up),
idle ones expire and stay unloaded, the event stream keeps a bounded tail in memory and
resuming from any number still misses nothing, spectators are counted in batches."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from core_helpers import ManualClock, drain, new_lobby, people_table, play_one, watch

from usotsuki.server.config import Refused
from usotsuki.server.store import Store
from usotsuki.server.wire import EventStream, Numbered, encode


def test_nothing_is_loaded_at_start_and_a_table_loads_once_on_first_use(
        tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite3")

    async def first() -> tuple[list[str], list[str], dict[str, object]]:
        store = Store(db)
        lobby = new_lobby(store, ManualClock())
        ids = []
        for _ in range(3):
            table, _ = await people_table(lobby, "liar", 3)
            rng = random.Random(len(ids))
            for _ in range(12):
                await play_one(table, rng)
            ids.append(table.public_id)
        last = lobby.by_id[ids[-1]]
        seen = last.events_since(1, -1)
        state = last.state_message(1)
        lobby.stop()
        store.close()
        return ids, seen, state

    async def second(ids: list[str]) -> tuple[list[str], dict[str, object]]:
        store = Store(db)
        lobby = new_lobby(store, ManualClock())
        await lobby.start()
        assert lobby.by_id == {}  # start-up replays nothing
        tables = await asyncio.gather(*(lobby.get(ids[-1]) for _ in range(5)))
        assert all(t is tables[0] for t in tables)  # one load however many ask at once
        assert list(lobby.by_id) == [ids[-1]]
        assert await lobby.find("no-such-table") is None
        with pytest.raises(Refused) as refused:
            await lobby.get("no-such-table")
        assert refused.value.status == 404
        table = tables[0]
        out = table.events_since(1, -1), table.state_message(1)
        by_invite = await lobby.invited(lobby.by_id[ids[-1]].row.invite)
        assert by_invite is table
        lobby.stop()
        store.close()
        return out

    ids, seen, state = asyncio.run(first())
    assert asyncio.run(second(ids)) == (seen, state)


def test_idle_tables_expire_and_are_not_loaded_again(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite3")
    clock = ManualClock()

    async def main() -> None:
        store = Store(db)
        # (a game in play with nobody at it stays loaded as long as its expiry here)
        lobby = new_lobby(store, clock, idle_seconds=3600.0, unload_seconds=3600.0)
        idle, _ = await people_table(lobby, "bluff", 2)
        busy, _ = await people_table(lobby, "bluff", 2)
        watcher = watch(idle, 0)
        drain(watcher)
        clock.advance(3000)
        await play_one(busy, random.Random(1))  # a command keeps a table alive
        clock.advance(700)
        assert lobby.sweep() == [idle.public_id]
        assert list(lobby.by_id) == [busy.public_id]
        messages = []
        while not watcher.queue.empty():
            messages.append(watcher.queue.get_nowait())
        assert messages[-1] is None  # the socket is closed after the notice
        assert '"code":"expired"' in str(messages[0])
        with pytest.raises(Refused) as refused:
            await lobby.get(idle.public_id)
        assert refused.value.status == 410 and "expired" in refused.value.message
        lobby.stop()
        store.close()
        # a restarted server does not load it either
        store = Store(db)
        lobby = new_lobby(store, clock, idle_seconds=3600.0)
        with pytest.raises(Refused):
            await lobby.invited(idle.row.invite)
        assert (await lobby.get(busy.public_id)).seq == busy.seq
        assert [r.public_id for r in store.load_tables(clock.time() - 3600)] == [busy.public_id]
        lobby.stop()
        store.close()

    asyncio.run(main())


def test_the_event_stream_is_bounded_and_resuming_misses_nothing() -> None:
    stream = EventStream(keep=5, chunk=4)
    for n in range(103):
        audience = None if n % 3 else frozenset({n % 2})
        stream.append(Numbered(n, audience, encode({"type": "event", "n": n, "event": {}})))
        assert stream.in_memory < 5 + 4
    assert len(stream) == 103
    for seat in (None, 0, 1):
        for since in (-5, -1, 0, 3, 4, 7, 50, 97, 98, 101, 102, 200):
            want = [n for n in range(max(since + 1, 0), 103)
                    if n % 3 or (seat is not None and n % 2 == seat)]
            got = [int(w.split('"n":')[1].split(",")[0]) for w in stream.since(seat, since)]
            assert got == want, (seat, since)


def test_a_long_table_keeps_a_bounded_tail_and_reconnects_get_everything(
        tmp_path: Path) -> None:
    async def main() -> None:
        store = Store(str(tmp_path / "s.sqlite3"))
        lobby = new_lobby(store, ManualClock(), events_in_memory=20)
        table, _ = await people_table(lobby, "liar", 3, {"turn_limit": 400})
        steady = [watch(table, seat) for seat in (0, 1, 2, None)]
        seen: list[list[str]] = [[] for _ in steady]
        rng = random.Random(9)
        while table.playing:
            await play_one(table, rng)
            for got, client in zip(seen, steady, strict=True):
                got += [m for m in (client.queue.get_nowait()
                                    for _ in range(client.queue.qsize())) if m is not None]
        assert len(table.events) > 200
        assert table.events.in_memory <= 20 + 10
        for got, client in zip(seen, steady, strict=True):
            events = [m for m in got if m.startswith('{"type":"event"')]
            for since in (-1, 0, 57, len(table.events) // 2, len(table.events) - 3):
                again = table.events_since(client.seat, since)
                assert again == [m for m in events
                                 if int(m.split('"n":')[1].split(",")[0]) > since]
        lobby.stop()
        store.close()

    asyncio.run(main())


def test_spectators_are_counted_in_batches_not_announced_per_socket(tmp_path: Path) -> None:
    async def main() -> None:
        store = Store(str(tmp_path / "s.sqlite3"))
        clock = ManualClock()
        lobby = new_lobby(store, clock, spectator_batch=1.0)
        table, _ = await people_table(lobby, "bluff", 2)
        player = watch(table, 0)
        table.audience.announce()  # the seat's connection is news: sent at once
        assert [m["type"] for m in drain(player)][-1] == "table"
        crowd = []
        for _ in range(200):
            client = watch(table, None)
            table.audience.announce(skip=client)
            crowd.append(client)
        for client in crowd[:50]:
            table.clients.discard(client)
            table.audience.announce()
        assert [m for m in drain(player) if m["type"] == "table"] == []
        await asyncio.sleep(0)  # the batch's timer starts
        assert clock.sleeping() == [clock.now + 1.0]  # one timer for all 250 changes
        clock.advance(1.0)
        for _ in range(2):
            await asyncio.sleep(0)
        tables = [m for m in drain(player) if m["type"] == "table"]
        assert len(tables) == 1 and tables[0]["table"]["spectators"] == 150
        assert all(sum(m["type"] == "table" for m in drain(c)) == 1 for c in crowd[50:])
        lobby.stop()
        store.close()

    asyncio.run(main())
