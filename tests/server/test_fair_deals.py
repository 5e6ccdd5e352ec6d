"""A table's fair deals (fair_deals.py, docs/fairness.md) through the one write path:
contributions survive a restart mid-collection, their time runs on after one (or has
run out during it), a person leaving is no longer awaited, a rematch commits anew, a
Liar match's later games are derived from the same contributions, and every finished
game's record verifies."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from core_helpers import ManualClock, bot_table, holder, new_lobby, people_table, play_one
from waits import Deadline

from usotsuki.fairness import verify_record
from usotsuki.server.lobby import Lobby
from usotsuki.server.store import Store
from usotsuki.server.table import Table

WAIT = 30.0  # contribute_seconds here: only a test's clock moves past it


async def collecting(table: Table) -> bool:
    slot = table.current
    return slot is not None and slot.collecting


async def until_dealt(table: Table) -> None:
    deadline = Deadline("the close of the contributions")
    while await collecting(table):
        await asyncio.sleep(min(0.01, deadline.left()))


async def play_to_end(table: Table, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    deadline = Deadline("the end of the game")
    while table.playing:
        slot = table.current
        assert slot is not None
        if slot.session.to_move is None or table.seats[slot.session.to_move].bot is not None:
            await asyncio.sleep(min(0.01, deadline.left()))  # a bot's turn
            continue
        await play_one(table, rng)
    return table.record(len(table.games) - 1)


async def restarted(lobby: Lobby, store: Store, clock: ManualClock, table: Table,
                    down: float = 0.0) -> tuple[Lobby, Table]:
    """The server killed (nothing more written), ``down`` seconds passing, then a new one
    loading the table from its log and carrying it on."""
    lobby.stop()
    clock.advance(down)
    again = new_lobby(store, clock, contribute_seconds=WAIT)
    loaded = await again.get(table.public_id)
    await loaded.resume()
    return again, loaded


def test_a_restart_mid_collection_keeps_what_was_given_and_waits_for_the_rest(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(str(tmp_path / "t.sqlite3"))
        clock = ManualClock()
        lobby = new_lobby(store, clock, contribute_seconds=WAIT)
        table, _ = await people_table(lobby, players=3)
        await table.contribute(0, "aa" * 32, holder(table, 0))
        again, loaded = await restarted(lobby, store, clock, table)
        assert await collecting(loaded)
        fairness = loaded.state_message(1)["fairness"]
        assert fairness["given"] == [0] and fairness["waiting"] == [1, 2]
        assert fairness["secret"] is None
        await loaded.contribute(1, "bb" * 32, holder(loaded, 1))
        clock.advance(WAIT)  # seat 2 gave none in time: the timer started on loading
        await until_dealt(loaded)
        record = await play_to_end(loaded)
        assert record["fairness"]["contributions"] == [
            {"seat": 0, "value": "aa" * 32}, {"seat": 1, "value": "bb" * 32},
            {"seat": 2, "value": None}]
        assert verify_record(record) is None
        again.stop()
        store.close()

    asyncio.run(scenario())


def test_a_table_loaded_after_the_time_ran_out_deals_at_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(str(tmp_path / "t.sqlite3"))
        clock = ManualClock()
        lobby = new_lobby(store, clock, contribute_seconds=WAIT)
        table, _ = await people_table(lobby, "liar", players=2)
        await table.contribute(1, "cc" * 32, holder(table, 1))
        again, loaded = await restarted(lobby, store, clock, table, down=WAIT + 1)
        assert not await collecting(loaded)
        assert loaded.state_message(None)["fairness"]["missing"] == [0]
        record = await play_to_end(loaded)
        assert record["fairness"]["contributions"] == [
            {"seat": 0, "value": None}, {"seat": 1, "value": "cc" * 32}]
        assert verify_record(record) is None
        again.stop()
        store.close()

    asyncio.run(scenario())


def test_a_person_who_leaves_is_no_longer_awaited(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(str(tmp_path / "t.sqlite3"))
        lobby = new_lobby(store, ManualClock(), contribute_seconds=WAIT)
        table, _ = await people_table(lobby, players=3)
        await table.contribute(0, "dd" * 32, holder(table, 0))
        await table.leave(2, holder(table, 2))  # a bot plays seat 2 from now on
        assert await collecting(table)
        await table.contribute(1, "ee" * 32, holder(table, 1))
        assert not await collecting(table)
        record = await play_to_end(table)
        # (a seat a bot plays is not listed: it never contributes)
        assert [c["seat"] for c in record["fairness"]["contributions"]] == [0, 1]
        assert verify_record(record) is None
        lobby.stop()
        store.close()

    asyncio.run(scenario())


def test_a_rematch_commits_to_a_new_secret(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = new_lobby(Store(str(tmp_path / "t.sqlite3")), ManualClock())
        table, _ = await people_table(lobby, players=2)
        first = await play_to_end(table)
        await lobby.start_game(table, rematch=True)
        second = await play_to_end(table, seed=2)
        assert (first["fairness"]["game"], second["fairness"]["game"]) == (0, 1)
        assert first["fairness"]["commitment"] != second["fairness"]["commitment"]
        assert first["fairness"]["secret"] != second["fairness"]["secret"]
        assert verify_record(first) is None and verify_record(second) is None
        lobby.stop()

    asyncio.run(scenario())


@pytest.mark.parametrize("people", [0, 3])
def test_a_liar_match_derives_every_game_from_one_collection(tmp_path: Path,
                                                             people: int) -> None:
    """Three people (two give, the third's time runs out), or three bots (none awaited)."""
    async def scenario() -> None:
        clock = ManualClock()
        lobby: Lobby = new_lobby(Store(str(tmp_path / "t.sqlite3")), clock,
                                 contribute_seconds=WAIT)
        rules = {"classes": True, "hand_size": 4}
        if people:
            table, _ = await people_table(lobby, "liar", 3, rules, start=False)
        else:
            table = await bot_table(lobby, ["random"] * 3, "liar", rules)
        table.row.config["games"] = 3  # a match (O7)
        await lobby.start_game(table, rematch=False)
        for seat in range(people - 1):
            await table.contribute(seat, f"{seat + 1:02x}" * 32, holder(table, seat))
        clock.advance(WAIT)
        await until_dealt(table)
        record = await play_to_end(table)
        assert len(record["games"]) == 3
        given = [c["value"] is not None for c in record["fairness"]["contributions"]]
        assert given == ([True, True, False] if people else [])
        assert verify_record(record) is None
        lobby.stop()

    asyncio.run(scenario())
