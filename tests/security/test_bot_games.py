"""Games of bots only are shared fairly (issue 37, finding 4): one address's tables may
play a share of the server's games of bots only, and a table that becomes all-bot when its
people leave counts too: past the cap it is parked (its bots wait) until there is room.
Time is a clock moved by hand; the bots are the server's own, in worker processes."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
from core_helpers import ManualClock, holder, new_lobby  # noqa: E402

from usotsuki.server.config import Refused  # noqa: E402
from usotsuki.server.lobby import Lobby  # noqa: E402
from usotsuki.server.store import Store  # noqa: E402
from usotsuki.server.table import Table  # noqa: E402

CONFIG = {"players": 2, "rules": {}, "games": 1}
BOT_DELAY = 10.0  # on the hand-moved clock: a started game is played only when it moves


@contextlib.asynccontextmanager
async def lobby_at(tmp_path: Path, clock: ManualClock, **settings: Any
                   ) -> AsyncIterator[Lobby]:
    """A lobby on a fresh store; its bots wait ``BOT_DELAY`` on ``clock``."""
    store = Store(str(tmp_path / "s.sqlite3"))
    lobby = new_lobby(store, clock, bot_delay=BOT_DELAY, tables_per_minute=100, **settings)
    try:
        yield lobby
    finally:
        lobby.stop()
        store.close()


async def bot_game(lobby: Lobby, address: str) -> Table:
    table, _ = await lobby.create("bluff", CONFIG, ["random", "random"], address)
    await lobby.start_game(table, rematch=False)
    return table


async def left_to_bots(lobby: Lobby) -> Table:
    """A table of a person and a bot, started; then she leaves it to the bots."""
    table, _ = await lobby.create("bluff", CONFIG, [None, "random"], "203.0.113.9")
    await table.join("Ann", 0)
    await lobby.start_game(table, rematch=False)
    await table.leave(0, holder(table, 0))
    return table


async def moved(table: Table, clock: ManualClock, seconds: float = 5.0) -> bool:
    """Whether the table's bots play once the clock passes their delay."""
    before = table.seq
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(0.05)  # (a timer set meanwhile is woken by the next advance)
        if table.seq > before:
            return True
        clock.advance(BOT_DELAY + 1)
    return False


def test_one_address_plays_its_share_of_the_games_of_bots_only(tmp_path: Path) -> None:
    async def main() -> None:
        async with lobby_at(tmp_path, ManualClock(), bot_tables=4,
                            bot_tables_per_address=2) as lobby:
            await share(lobby)

    async def share(lobby: Lobby) -> None:
        for _ in range(2):
            await bot_game(lobby, "198.51.100.7")
        with pytest.raises(Refused) as mine:
            await bot_game(lobby, "198.51.100.7")
        assert mine.value.code == "too_many_bot_games" and mine.value.params == {"max": 2}
        for _ in range(2):  # another address still has room
            await bot_game(lobby, "203.0.113.9")
        with pytest.raises(Refused) as full:  # the server's cap
            await bot_game(lobby, "192.0.2.1")
        assert full.value.params == {"max": 4}
        assert lobby.bot_games() == 4

    asyncio.run(main())


def test_a_table_left_to_its_bots_past_the_cap_waits_for_room(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        async with lobby_at(tmp_path, clock, bot_tables=1) as lobby:
            await parked(lobby, clock)

    async def parked(lobby: Lobby, clock: ManualClock) -> None:
        await bot_game(lobby, "198.51.100.7")  # the one game of bots only allowed
        # A person and a bot start (not a game of bots only); once she leaves mid-game it
        # would be one more: it is parked instead.
        table = await left_to_bots(lobby)
        assert table.bots_only and table.parked
        assert lobby.bot_games() == 1
        assert not await moved(table, clock, 1.0)
        # Room again (here: a larger cap): the sweep lets it carry on.
        lobby.settings = replace(lobby.settings, bot_tables=2)
        lobby.sweep()
        assert await moved(table, clock)
        assert not table.parked and lobby.bot_games() == 2

    asyncio.run(main())


def test_a_person_leaving_within_the_cap_leaves_the_bots_playing(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        async with lobby_at(tmp_path, clock, bot_tables=2) as lobby:
            await within(lobby, clock)

    async def within(lobby: Lobby, clock: ManualClock) -> None:
        table = await left_to_bots(lobby)
        assert not table.parked and lobby.bot_games() == 1
        assert await moved(table, clock)

    asyncio.run(main())
