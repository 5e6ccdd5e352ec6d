"""One write path: the same ``Table`` commands through its two log adapters (a single
worker's ``StoreLog``, a cluster owner's ``FencedTableLog``) leave the same log and tell
every seat the same events; the log holds each action in its canonical notation; and a
log written with the client's own text (as the server wrote it before) still loads."""

from __future__ import annotations

import asyncio
import json
import random
from itertools import count
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from core_helpers import ManualClock, holder, new_lobby
from drive import choose
from pg_helpers import new_database
from waits import Deadline

from usotsuki.server import lobby as lobby_module
from usotsuki.server.cluster import ClusterConfig, Coordinator
from usotsuki.server.config import Refused, Settings
from usotsuki.server.lobby import Lobby
from usotsuki.server.store import LogEntry, Store
from usotsuki.server.table import Table

CONFIG = {"players": 3, "rules": {}, "games": 1}
_names = count()


def _mangled(text: str) -> str:
    """The action as a careless client might type it (the parser's input)."""
    return f"  {text.upper()}  "


async def _until_dealt(table: Table) -> None:
    """Until the contributions are closed (in a task of the table's own: committed in the
    store's thread)."""
    deadline = Deadline("the close of the contributions")
    while (slot := table.current) is None or slot.collecting:
        await asyncio.sleep(min(0.01, deadline.left()))


async def _contribute(table: Table, clock: ManualClock) -> None:
    """Two people contribute (a bad value and a second one refused), the third's time
    runs out: the deal is made without it."""
    assert table.current is not None and table.current.collecting
    await table.contribute(0, "ab" * 32, holder(table, 0))
    await table.contribute(0, "ab" * 32, holder(table, 0))  # again: taken as given
    for seat, value, code in ((0, "cd" * 32, "contributed"), (1, "AB" * 32, "bad_contribution"),
                              (1, "ab" * 31, "bad_contribution"), (1, 7, "bad_contribution")):
        with pytest.raises(Refused) as refused:
            await table.contribute(seat, value, holder(table, seat))
        assert refused.value.code == code
    await table.contribute(1, "01" * 32, holder(table, 1))
    assert table.current is not None and table.current.collecting
    clock.advance(30.0)
    await _until_dealt(table)
    with pytest.raises(Refused) as late:
        await table.contribute(2, "02" * 32, holder(table, 2))
    assert late.value.code == "not_collecting"


async def _play(lobby: Lobby, store: Store,
                clock: ManualClock) -> tuple[list[LogEntry], dict[Any, list[str]]]:
    """Join, refuse a wrong command or two, start, contribute to the deal, play 30 moves
    (typed carelessly): the log and what each seat was told."""
    table, _ = await lobby.create("bluff", CONFIG, [None, None, None])
    for seat in range(3):
        await table.join(f"p{seat}", seat)
    with pytest.raises(Refused):
        await table.join("late", None)
    await lobby.start_game(table, rematch=False)
    await _contribute(table, clock)
    rng = random.Random(3)
    for _ in range(30):
        slot = table.current
        if slot is None or slot.session.is_over or slot.session.to_move is None:
            break
        seat = slot.session.to_move
        if table.seats[seat].bot is not None:
            break
        with pytest.raises(Refused) as wrong:  # refused: logged nowhere, told nobody
            await table.act(seat, "challenge seven", holder(table, seat))
        assert wrong.value.code == "illegal"
        text = choose(table.state_message(seat), rng)
        await table.act(seat, _mangled(text), holder(table, seat))
    entries = await store.call(store.load_log, table.row.pk)
    told = {seat: table.events_since(seat, -1) for seat in (0, 1, 2, None)}
    return entries, told


def test_both_log_adapters_write_the_same_log_and_tell_the_same_events(
        pg_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # One public id for the table in either database: the deals are derived from the
    # table's id (docs/fairness.md), so the same game needs the same id.
    monkeypatch.setattr(lobby_module, "secrets", SimpleNamespace(token_urlsafe=lambda n: "t" * n))
    settings = {"deal_seed": 11, "bot_delay": 0.0, "contribute_seconds": 30.0}

    async def single() -> tuple[list[LogEntry], dict[Any, list[str]]]:
        store = Store(new_database(pg_server, f"usotsuki_single_{next(_names)}"))
        clock = ManualClock()
        lobby = new_lobby(store, clock, **settings)
        try:
            return await _play(lobby, store, clock)
        finally:
            lobby.stop()
            store.close()

    async def owner() -> tuple[list[LogEntry], dict[Any, list[str]]]:
        store = Store(new_database(pg_server, f"usotsuki_owner_{next(_names)}"))
        # Redis is never reached: nothing here follows or relays (publishes only queue).
        cluster = Coordinator(ClusterConfig("redis://127.0.0.1:9/0", "w-test", 30.0), store,
                              None)
        clock = ManualClock()
        lobby = cluster.lobby_for(store, Settings(**settings), clock)
        try:
            entries, told = await _play(lobby, store, clock)
            table = next(iter(lobby.tables()))
            assert table.owner, "the creating worker owns the table"
            return entries, told
        finally:
            await cluster.close()
            lobby.stop()
            store.close()

    plain, fenced = asyncio.run(single()), asyncio.run(owner())
    assert len(plain[0]) > 10
    assert plain[0] == fenced[0]
    assert plain[1] == fenced[1]
    # Every action is logged in its canonical notation, not as it was typed.
    actions = [e.data["action"] for e in plain[0] if e.kind == "action"]
    assert actions and all(a == a.strip() and a != a.upper() for a in actions), actions
    # The secret, the contributions and their close are logged before the first deal.
    kinds = [e.kind for e in plain[0]]
    assert kinds[:5] == ["start", "contribution", "contribution", "close", "chance"], kinds
    assert plain[0][3].data == {"contributions": [
        {"seat": 0, "value": "ab" * 32}, {"seat": 1, "value": "01" * 32},
        {"seat": 2, "value": None}]}
    secret = plain[0][0].data["fairness"]["secret"]
    assert all(secret not in m for messages in plain[1].values() for m in messages)


def test_a_log_with_the_clients_own_text_still_loads(tmp_path: Path) -> None:
    # Entries written as the server wrote them before it logged canonical text: the
    # client's text as typed. The table folds them into the same state.
    async def scenario() -> None:
        store = Store(str(tmp_path / "old.sqlite3"))
        lobby = new_lobby(store, ManualClock(), deal_seed=5)
        table, _ = await lobby.create("bluff", {**CONFIG, "players": 2}, [None, None])
        for seat in range(2):
            await table.join(f"p{seat}", seat)
        await lobby.start_game(table, rematch=False)
        rng = random.Random(8)
        for _ in range(12):
            slot = table.current
            assert slot is not None
            if slot.session.is_over or slot.session.to_move is None:
                break
            seat = slot.session.to_move
            await table.act(seat, choose(table.state_message(seat), rng), holder(table, seat))
        canonical = await store.call(store.load_log, table.row.pk)
        lobby.stop()
        # The same log as an older server wrote it: each action as the client typed it.
        old = Store(str(tmp_path / "older.sqlite3"))
        again = new_lobby(old, ManualClock(), deal_seed=5)
        copy, _ = await again.create("bluff", {**CONFIG, "players": 2}, [None, None])
        for entry in canonical:
            data = dict(entry.data)
            if entry.kind == "action":
                data["action"] = _mangled(data["action"])
            old.append(copy.row.pk, entry.seq, entry.kind, data, copy.active)
        again.stop()
        loaded = new_lobby(old, ManualClock(), deal_seed=5)
        reloaded = await loaded.get(copy.public_id)
        assert reloaded.seq == table.seq
        for seat in (0, 1, None):
            assert reloaded.events_since(seat, -1) == table.events_since(seat, -1)
            assert (json.dumps(reloaded.state_message(seat), sort_keys=True)
                    == json.dumps(table.state_message(seat), sort_keys=True))
        loaded.stop()
        store.close()
        old.close()

    asyncio.run(scenario())
