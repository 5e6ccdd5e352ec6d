"""The reference client (``usotsuki.client``) against a real server process: whole games
of both games; a server killed mid-game and started again on the same database, the
clients carrying on to the end; injected ``unavailable`` answers, lost answers, dropped
sockets and HTTP 503s retried (an action with its key: the log holds each key once);
and the errors it gives up on."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from drive import choose
from fault_proxy import HINT, FaultProxy
from live_helpers import Server, free_port, new_db
from waits import GAME_S, Deadline

from usotsuki.client import (
    Api,
    GaveUp,
    Messages,
    RetryPolicy,
    Seat,
    SeatLost,
    ServerError,
    Turn,
    play,
)
from usotsuki.fairness import verify_record
from usotsuki.replay import replay_record
from usotsuki.server.store import Store

QUICK = RetryPolicy(base=0.05, cap=1.0, attempts=60, give_up_after=60.0)
RULES: dict[str, dict[str, Any]] = {"bluff": {"max_cards": 3},
                                    "liar": {"eight_cut": True, "turn_limit": 90}}


def policy(turn: Turn) -> str:
    """A seeded choice among the legal actions (the same state, the same action)."""
    return choose(turn.state, random.Random(turn.n))


@dataclass
class Played:
    table_id: str
    tokens: list[str]
    finals: list[dict[str, Any]]  # each seat's last state
    connects: list[int]  # each seat's sockets opened
    seen: list[list[int]]  # each seat's event numbers, in the order its stream gave them
    contributions: list[dict[int, str]]  # each seat's contribution to each game's deal


async def seated_table(api: Api, game: str, people: int = 3,
                       bots: tuple[str, ...] = ()) -> tuple[str, list[str]]:
    created = await api.create_table(game, [None] * people + list(bots), RULES[game])
    tokens = [(await api.join(created.invite, f"p{i}")).token for i in range(people)]
    await api.start(created.table_id, tokens[0])
    return created.table_id, tokens


async def play_table(url: str, game: str, bots: tuple[str, ...] = (),
                     during: Callable[[list[Seat]], Awaitable[None]] | None = None,
                     socket_url: str | None = None) -> Played:
    """A table made at ``url``, every person's seat played by ``policy`` over sockets
    to ``socket_url`` (the same server by default) to the end; ``during`` runs beside."""
    async with Api(url, QUICK) as api:
        table_id, tokens = await seated_table(api, game, bots=bots)
    seats = [Seat(socket_url or url, table_id, t, policy=QUICK) for t in tokens]
    seen: list[list[int]] = [[] for _ in seats]

    async def record(i: int, stream: Messages) -> None:
        async for m in stream:
            if m["type"] == "event":
                seen[i].append(m["n"])

    streams = [s.messages() for s in seats]  # before open: the catch-up too
    for seat in seats:
        await seat.open()
    recorders = [asyncio.create_task(record(i, m)) for i, m in enumerate(streams)]
    try:
        games = [asyncio.create_task(play(s, policy)) for s in seats]
        if during is not None:
            await during(seats)
        finals = await asyncio.wait_for(asyncio.gather(*games), GAME_S)
    finally:
        for seat in seats:
            await seat.close()
        for task in recorders:
            task.cancel()
    return Played(table_id, tokens, finals, [s.connects for s in seats], seen,
                  [s.contributions for s in seats])


async def read_afresh(url: str, table_id: str, token: str) -> list[int]:
    """The event numbers a new socket of this seat is sent (its whole history)."""
    numbers = []
    seat = Seat(url, table_id, token, policy=QUICK)
    stream = seat.messages()
    async with seat:
        async for m in stream:
            if m["type"] == "event":
                numbers.append(m["n"])
            elif m["type"] == "state":
                return numbers
    raise AssertionError("no state came")


def action_keys(db: str, table_id: str) -> Counter[Any]:
    """How often each key appears among the table's logged actions."""
    store = Store(db)
    try:
        row = store.find_table(table_id)
        assert row is not None
        return Counter(e.data["key"] for e in store.load_log(row.pk)
                       if e.kind == "action" and "key" in e.data)
    finally:
        store.close()


def assert_finished(url: str, played: Played) -> None:
    assert all(f["status"] == "finished" for f in played.finals)
    record = httpx.get(f"{url}/api/tables/{played.table_id}/games/0/record", timeout=10)
    assert replay_record(record.json())["finished"]
    for numbers in played.seen:  # each stream: increasing, nothing twice
        assert numbers and numbers == sorted(set(numbers)), numbers


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return new_db(tmp_path_factory.mktemp("client"), "client")


@pytest.fixture(scope="module")
def server(db: str) -> Any:
    """One server for the tests that leave it running (each uses tables of its own)."""
    s = Server(db, "--bot-delay", "0")
    yield s
    s.stop()


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_whole_games_of_both_games(server: Server, db: str, game: str) -> None:
    played = asyncio.run(play_table(server.url, game, bots=("normal",)))
    assert_finished(server.url, played)
    for numbers, token in zip(played.seen, played.tokens, strict=True):
        assert numbers == asyncio.run(read_afresh(server.url, played.table_id, token))
    keys = action_keys(db, played.table_id)
    assert keys and max(keys.values()) == 1


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_each_seat_contributes_to_the_deal_by_itself(tmp_path: Path, game: str) -> None:
    """A server that waits ten minutes for contributions deals as soon as the three
    clients have given theirs; the record holds them, and its deals verify."""
    server = Server(new_db(tmp_path, "fair"), "--bot-delay", "0", "--contribute-seconds", "600")
    try:
        played = asyncio.run(play_table(server.url, game, bots=("normal",)))
        assert_finished(server.url, played)
        record = httpx.get(f"{server.url}/api/tables/{played.table_id}/games/0/record",
                           timeout=10).json()
    finally:
        server.stop()
    assert record["fairness"]["contributions"] == [
        {"seat": seat, "value": given[0]} for seat, given in enumerate(played.contributions)]
    assert verify_record(record) is None


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_a_server_killed_mid_game_and_started_again_is_played_to_the_end(
        tmp_path: Path, game: str) -> None:
    db = new_db(tmp_path, "restarted")
    servers = [Server(db, "--bot-delay", "0")]

    async def restart(seats: list[Seat]) -> None:
        while max((s.state or {}).get("n", 0) for s in seats) < 12:
            assert all(s.state is None or s.state["status"] == "playing" for s in seats)
            await asyncio.sleep(0.01)
        await asyncio.to_thread(servers[0].kill)  # SIGKILL, with actions in flight
        servers.append(await asyncio.to_thread(Server, db, "--bot-delay", "0",
                                               port=servers[0].port))

    try:
        played = asyncio.run(play_table(servers[0].url, game, during=restart))
        assert len(servers) == 2
        assert all(n >= 2 for n in played.connects), played.connects  # each reconnected
        assert_finished(servers[1].url, played)
        # Nothing missed, nothing twice: each seat's stream, across the restart, is what
        # a new socket of the seat is sent now.
        for numbers, token in zip(played.seen, played.tokens, strict=True):
            assert numbers == asyncio.run(read_afresh(servers[1].url, played.table_id, token))
    finally:
        for s in servers:
            s.stop()
    keys = action_keys(db, played.table_id)
    assert keys and max(keys.values()) == 1, keys


def test_a_database_locked_mid_game_holds_the_game_up_and_no_action_is_made_twice(
        server: Server, db: str) -> None:
    """A real outage: another process holds the SQLite database's write lock for longer
    than the server waits for it, so the server cannot commit; the action in flight is
    sent again (with its key) until the database is back, and the game goes on."""
    lock = sqlite3.connect(db, isolation_level=None, check_same_thread=False)

    async def outage(seats: list[Seat]) -> None:
        while max((s.state or {}).get("n", 0) for s in seats) < 6:
            await asyncio.sleep(0.01)
        lock.execute("BEGIN EXCLUSIVE")
        try:
            deadline = Deadline("an action sent again while the database is locked")
            while sum(s.resends for s in seats) == 0:
                await asyncio.sleep(min(0.05, deadline.left()))
        finally:
            lock.execute("COMMIT")

    try:
        played = asyncio.run(play_table(server.url, "bluff", during=outage))
    finally:
        lock.close()
    assert_finished(server.url, played)
    keys = action_keys(db, played.table_id)
    assert max(keys.values()) == 1, keys


def test_unavailable_lost_answers_and_drops_are_retried_once_made(
        server: Server, db: str) -> None:
    faults = ["refuse", "lose_answer", "drop"] * 3

    async def run() -> tuple[Played, FaultProxy]:
        proxy = FaultProxy(server.port)
        await proxy.start()
        proxy.faults.extend(faults)
        try:
            return await play_table(server.url, "bluff", socket_url=proxy.url), proxy
        finally:
            await proxy.close()

    played, proxy = asyncio.run(run())
    assert [f for f, _ in proxy.injected] == faults  # every fault was met
    assert sum(played.connects) >= len(played.connects) + 3  # a reconnect per drop
    assert_finished(server.url, played)
    keys = action_keys(db, played.table_id)
    assert max(keys.values()) == 1, keys
    assert all(keys[key] == 1 for _, key in proxy.injected)  # each spoiled act made once


def test_a_socket_refused_before_or_after_its_upgrade_is_opened_after_the_hint(
        server: Server) -> None:
    async def run() -> tuple[float, int, int]:
        async with Api(server.url, QUICK) as api:
            created = await api.create_table("bluff", [None, "normal"])
            joined = await api.join(created.invite, "ann")
        proxy = FaultProxy(server.port)
        await proxy.start()
        proxy.openings.extend(["503", "1013"])
        try:
            started = time.monotonic()
            async with Seat(proxy.url, created.table_id, joined.token, policy=QUICK) as seat:
                return time.monotonic() - started, seat.connects, proxy.refused_openings
        finally:
            await proxy.close()

    took, connects, refused = asyncio.run(run())
    assert refused == 2 and connects == 2  # (the 503 opened none)
    assert took >= 1.0 + HINT  # Retry-After: 1, then the error's retry_after


class Refuse503(httpx.AsyncHTTPTransport):
    """In front of the real server: its first ``count`` POSTs answered 503
    ``unavailable`` with a hint, as by a server whose database is away."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count
        self.refused: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and len(self.refused) < self.count:
            self.refused.append(request.url.path)
            return httpx.Response(503, headers={"Retry-After": "1"}, json={
                "error": "unavailable", "message": "injected", "params": {},
                "retry_after": HINT})
        return await super().handle_async_request(request)


def test_http_503_is_retried_after_its_hint(server: Server) -> None:
    transport = Refuse503(count=3)

    async def run() -> float:
        async with Api(server.url, QUICK, transport=transport) as api:
            started = time.monotonic()
            created = await api.create_table("bluff", [None, "normal"])
            await api.join(created.invite, "ann")
            return time.monotonic() - started

    took = asyncio.run(run())
    assert transport.refused == ["/api/tables"] * 3
    assert took >= 3 * HINT  # never sooner than the server asked


def test_what_it_gives_up_on(server: Server) -> None:
    async def run() -> None:
        async with Api(server.url, QUICK) as api:
            with pytest.raises(ServerError) as refused:
                await api.join("no-such-invite", "ann")
            assert refused.value.code == "not_found" and refused.value.status == 404
            created = await api.create_table("bluff", [None, None])
            joined = await api.join(created.invite, "ann")
            with pytest.raises(ServerError) as refused:
                await api.start(created.table_id, joined.token)
            assert refused.value.code == "seats_empty"
        with pytest.raises(SeatLost) as lost:
            await Seat(server.url, "no-such-table", policy=QUICK).open()
        assert lost.value.code == "not_found"
        with pytest.raises(SeatLost) as lost:
            await Seat(server.url, created.table_id, "not-a-token", policy=QUICK).open()
        assert lost.value.code == "forbidden"
        nobody = f"http://127.0.0.1:{free_port()}"
        brief = RetryPolicy(base=0.01, cap=0.02, attempts=3)
        with pytest.raises(GaveUp):
            await Seat(nobody, created.table_id, policy=brief).open()
        async with Api(nobody, brief) as api:
            with pytest.raises(GaveUp):
                await api.create_table("bluff", [None, "normal"])

    asyncio.run(run())


@asynccontextmanager
async def at_my_turn(server: Server) -> AsyncIterator[Seat]:
    """A person's seat at a new Bluff table against a bot, open at its turn."""
    async with Api(server.url, QUICK) as api:
        created = await api.create_table("bluff", [None, "normal"])
        joined = await api.join(created.invite, "ann")
        await api.start(created.table_id, joined.token)
    seat = Seat(server.url, created.table_id, joined.token, policy=QUICK)
    stream = seat.messages()
    async with seat:
        async for m in stream:
            if m["type"] == "state" and m["to_move"] == seat.seat:
                break
        yield seat


def test_an_illegal_action_is_refused_not_retried(server: Server) -> None:
    async def run() -> None:
        async with at_my_turn(server) as seat:
            with pytest.raises(ServerError) as refused:
                await seat.act("pair 99")
            assert refused.value.code in ("illegal", "bad_action")

    asyncio.run(run())


def test_an_act_the_sockets_rate_ignored_is_sent_again(server: Server) -> None:
    """Past the socket's message rate (PROTOCOL.md: 20 a second, bursts of 40) the
    server ignores a message unread, so its ``rate_limited`` names no id: the act in
    flight is sent again after a backoff, with its key, and answered."""
    async def run() -> tuple[dict[str, Any], int]:
        async with at_my_turn(server) as seat:
            for _ in range(60):  # the burst spent: the act right after is ignored
                await seat._send({"type": "ping"})
            assert seat.state is not None
            ack = await seat.act(seat.state["legal"][0])
            return ack, seat.resends

    ack, resends = asyncio.run(run())
    assert ack["type"] == "ack" and resends >= 1
