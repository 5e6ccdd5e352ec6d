"""The arena's scheduler and pool: its plan seats seeking bots with house bots, every
level in turn; its tables are capped, public, without chat or hints, on the arena's
turn clock; a bot that sleeps past its clock gets stand-ins and its game still ends,
kept as an arena game and rated in the arena's pool only (house bots rated too); the
leaderboard gives intervals and win shares against each house level."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pg_helpers import new_database
from sqlalchemy import insert, select, update
from waits import GAME_S, Deadline

from usotsuki.server.arena import (
    HOUSE_LEVELS,
    STALE_SECONDS,
    Arena,
    ArenaSeek,
    claim,
    drop_seek,
    give_back,
    plan,
    put_seek,
    seek_of,
)
from usotsuki.server.arena_board import leaderboard
from usotsuki.server.bot_tables import arena_seeks, arena_tables
from usotsuki.server.config import RealClock, Settings
from usotsuki.server.lobby import Lobby
from usotsuki.server.player_tables import played_games, players, ratings
from usotsuki.server.store import Store, tables


def seeker(name: str, since: float, players: int | None = 2, game: str = "bluff",
           rated: bool = True) -> ArenaSeek:
    return ArenaSeek(name, name, game, players, "short", rated, since)


# the plan (pure)

def test_a_lone_seek_meets_the_house_level_with_the_fewest_arena_games() -> None:
    played = {"bluff": {"easy": 3, "normal": 1, "hard": 1, "expert": 2}}
    [table] = plan([seeker("a", 0.0)], 4, played)
    assert table.seats == (seeker("a", 0.0), "normal")  # fewest, then the ladder's order
    assert played["bluff"]["normal"] == 2  # counted for the next table of the pass


def test_every_house_level_gets_games_in_turn() -> None:
    played: dict[str, dict[str, int]] = {}
    tables = plan([seeker(f"b{i}", float(i)) for i in range(8)], 8, played)
    assert [t.seats[1] for t in tables] == [*HOUSE_LEVELS, *HOUSE_LEVELS]
    assert played["bluff"] == dict.fromkeys(HOUSE_LEVELS, 2)


def test_seeks_of_any_size_share_a_table_and_a_house_seat_is_always_left() -> None:
    seeks = [seeker(f"b{i}", float(i), players=None) for i in range(5)]
    first, second = plan(seeks, 4, {})
    assert [s.player_id for s in first.bots] == ["b0", "b1", "b2"]  # 3 bots + 1 house
    assert len(first.seats) == 4 and isinstance(first.seats[3], str)
    assert [s.player_id for s in second.bots] == ["b3", "b4"]  # 2 bots + 1 house
    assert len(second.seats) == 3


def test_only_seeks_of_one_kind_meet_and_the_room_bounds_the_tables() -> None:
    seeks = [seeker("r", 0.0, players=3), seeker("c", 1.0, players=3, rated=False),
             seeker("l", 2.0, players=3, game="liar"), seeker("r2", 3.0, players=3)]
    tables = plan(seeks, 2, {})
    assert [[s.player_id for s in t.bots] for t in tables] == [["r", "r2"], ["c"]]
    assert [len(t.seats) for t in tables] == [3, 3]


# the service, on a real lobby and store

async def until(check: Callable[[], Any], what: str, seconds: float = GAME_S) -> Any:
    deadline = Deadline(what, seconds)
    while not (value := await check()):
        await asyncio.sleep(min(0.05, deadline.left()))
    return value


def test_a_bot_that_sleeps_past_its_clock_gets_stand_ins_and_its_game_is_rated_in_the_arena(
        db_url: str) -> None:
    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(insert(players), [
            {"id": p, "kind": "account", "name": p, "name_key": p, "created": 0.0,
             "seen": 0.0, "bot": True} for p in ("sleepy", "second")])
    settings = Settings(bot_delay=0.0, arena_tables=1, arena_turn_seconds=0.05)
    told: list[tuple[str, dict[str, Any]]] = []

    async def notify(player_id: str, body: dict[str, Any]) -> int:
        told.append((player_id, body))
        return len(told)

    async def main() -> None:
        clock = RealClock()
        lobby = Lobby(store, settings, clock)
        await lobby.start()
        arena = Arena(lobby, store, clock, settings, notify)
        try:
            seated = await arena.seek(ArenaSeek("sleepy", "sleepy", "bluff", 2, "short", True))
            assert seated["state"] == "seated"
            [(who, event)] = told
            assert who == "sleepy" and event["type"] == "game" and event["arena"] is True
            table = lobby.by_id[event["table_id"]]
            assert table.config["arena"] and table.visibility == "public"
            assert not table.chat_on and not table.hints_allowed and table.turn_seconds == 0.05
            assert table.runner is lobby.arena_runner  # the arena's own pool ...
            assert lobby.arena_runner.idle and lobby.arena_runner is not lobby.runner
            assert lobby.arena_runner.deadline == 5.0  # (its clock: 0.05 s is shorter)
            house = next(s.bot for s in table.seats if s.bot is not None)
            assert house == "easy"
            # the cap (one table) holds the second bot back while the first plays
            waiting = await arena.seek(ArenaSeek("second", "second", "bluff", 2, "short",
                                                 True))
            assert waiting["state"] == "waiting" and len(told) == 1

            # nobody acts for "sleepy": its clock runs out at every turn, a stand-in
            # plays, and the game ends
            async def kept() -> bool:
                with store.engine.connect() as conn:
                    return conn.execute(select(played_games.c.arena)).first() is not None
            await until(kept, "the arena game to end and be kept")
            said = [json.loads(text) for text in table.events_since(None, -1)]
            timeouts = {e["event"]["seat"] for e in said
                        if e.get("event", {}).get("type") == "timeout"}
            assert timeouts == {table.seat_of_player("sleepy")}
            await until(lambda: arena.run_pass(), "the second bot's table")
            assert [w for w, _ in told] == ["sleepy", "second"]
            assert told[1][1]["table_id"] != event["table_id"]
        finally:
            lobby.stop()

    asyncio.run(main())
    with store.engine.connect() as conn:
        assert conn.execute(select(played_games.c.arena, played_games.c.rated,
                                   played_games.c.public)).all() == [(True, True, True)]
        pools = conn.execute(select(ratings.c.player_id, ratings.c.game,
                                    ratings.c.games)).all()
        tables = conn.execute(select(arena_tables.c.finished)
                              .order_by(arena_tables.c.table_pk)).all()
    assert sorted(pools) == [("bot:bluff:easy", "arena:bluff", 1),
                             ("sleepy", "arena:bluff", 1)]  # never the people's pool
    assert tables[0].finished is not None and tables[1].finished is None
    board = leaderboard(store.engine, "bluff", 10)
    assert {e["player_id"] for e in board} == {"sleepy", "bot:bluff:easy"}
    sleepy = next(e for e in board if e["player_id"] == "sleepy")
    assert sleepy["kind"] == "bot" and sleepy["name"] == "sleepy" and sleepy["games"] == 1
    assert sleepy["low"] < sleepy["shown"] < sleepy["high"]
    assert sleepy["against"]["easy"]["games"] == 1
    assert sleepy["against"]["easy"]["share"] in (0.0, 1.0)
    easy = next(e for e in board if e["player_id"] == "bot:bluff:easy")
    assert easy["kind"] == "house" and easy["house"] == "easy"
    assert easy["against"] == {}  # no other house level sat with it


def test_an_arena_table_that_stalled_is_loaded_again_to_play_on(tmp_path: Path) -> None:
    """A server restarted mid-game loads no table until it is used: the arena's pass
    loads its own tables that went quiet, so that their games carry on and end."""
    store = Store(str(tmp_path / "arena.sqlite3"))
    settings = Settings(bot_delay=0.0, arena_tables=1, arena_turn_seconds=30.0)

    async def notify(player_id: str, body: dict[str, Any]) -> int:
        return 0

    async def first_run() -> str:
        lobby = Lobby(store, settings, RealClock())
        arena = Arena(lobby, store, lobby.clock, settings, notify)
        try:
            seated = await arena.seek(ArenaSeek("b", "b", "bluff", 2, "short", True))
            return str(seated["table_id"])
        finally:
            lobby.stop()

    async def after_restart(table_id: str) -> None:
        lobby = Lobby(store, settings, RealClock())
        arena = Arena(lobby, store, lobby.clock, settings, notify)
        try:
            await arena.run_pass()
            assert table_id not in lobby.by_id  # in play a moment ago: not stalled
            with store.engine.begin() as conn:
                conn.execute(update(tables).values(active=lobby.clock.time() - 600))
            await arena.run_pass()
            assert lobby.by_id[table_id].playing
        finally:
            lobby.stop()

    table_id = asyncio.run(first_run())
    asyncio.run(after_restart(table_id))


def test_a_seek_replaces_the_last_unless_a_table_is_being_made(db_url: str) -> None:
    store = Store(db_url)
    engine = store.engine
    assert put_seek(engine, seeker("b", 0.0), 10.0)
    assert put_seek(engine, seeker("b", 0.0, players=3), 11.0)  # replaces the waiting one
    row = seek_of(engine, "b", 12.0)
    assert (row.players, row.since, row.seen) == (3, 11.0, 12.0)
    claimed = claim(engine, 4, 13.0, 120.0)
    [(tag, _)] = claimed.tables
    assert not put_seek(engine, seeker("b", 0.0), 14.0)  # being seated
    assert not drop_seek(engine, "b")
    assert seek_of(engine, "b", 14.0).table_id == tag
    give_back(engine, tag)
    assert drop_seek(engine, "b") and seek_of(engine, "b", 15.0) is None
    # a seek whose bot stops polling its events ends
    assert put_seek(engine, seeker("c", 0.0), 20.0)
    assert claim(engine, 0, 20.0 + STALE_SECONDS + 1, 120.0).tables == []
    assert seek_of(engine, "c", 60.0) is None


def test_two_workers_passing_at_once_seat_each_bot_once_within_the_cap(
        pg_server: str) -> None:
    """Two workers' schedulers on one PostgreSQL database: one pass at a time (the
    advisory lock), the cap counted over both, nobody seated twice."""
    url = new_database(pg_server, "usotsuki_arena_two_workers")
    stores = [Store(url), Store(url)]
    settings = Settings(bot_delay=0.0, arena_tables=2, arena_turn_seconds=30.0)
    told: list[str] = []

    async def notify(player_id: str, body: dict[str, Any]) -> int:
        told.append(player_id)
        return len(told)

    async def main() -> None:
        lobbies = [Lobby(store, settings, RealClock()) for store in stores]
        arenas = [Arena(lobby, store, lobby.clock, settings, notify)
                  for lobby, store in zip(lobbies, stores, strict=True)]
        try:
            for name in ("a", "b", "c", "d"):
                assert put_seek(stores[0].engine, seeker(name, 0.0), lobbies[0].clock.time())
            for _ in range(3):
                await asyncio.gather(*(arena.run_pass() for arena in arenas))
        finally:
            for lobby in lobbies:
                lobby.stop()

    asyncio.run(main())
    assert sorted(told) == ["a", "b"]  # the oldest two; the cap holds the others back
    with stores[0].engine.connect() as conn:
        assert len(conn.execute(select(arena_tables.c.table_pk)).all()) == 2
        waiting = conn.execute(select(arena_seeks.c.player_id)
                               .where(arena_seeks.c.table_id.is_(None))).scalars().all()
    assert sorted(waiting) == ["c", "d"]


def test_a_table_made_is_the_bots_even_when_telling_one_fails(tmp_path: Path) -> None:
    """The inbox away when a table was made: the table still counts and plays (the
    bot's clock plays for it), and its seek is never given back to be seated twice."""
    store = Store(str(tmp_path / "arena.sqlite3"))
    settings = Settings(bot_delay=0.0, arena_tables=2, arena_turn_seconds=30.0)

    async def notify(player_id: str, body: dict[str, Any]) -> int:
        raise RuntimeError("the inbox is away")

    async def main() -> None:
        lobby = Lobby(store, settings, RealClock())
        arena = Arena(lobby, store, lobby.clock, settings, notify)
        try:
            seated = await arena.seek(ArenaSeek("b", "b", "bluff", 2, "short", True))
            assert seated["state"] == "seated" and lobby.by_id[seated["table_id"]].playing
            assert await arena.run_pass() == 0  # nothing waits: not seated twice
        finally:
            lobby.stop()

    asyncio.run(main())
    with store.engine.connect() as conn:
        assert len(conn.execute(select(arena_tables)).all()) == 1
