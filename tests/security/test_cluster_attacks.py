"""Attacks on a cluster (issue 37): three ``usotsuki serve`` workers share PostgreSQL and
Redis behind nginx.

Finding 4: the cap on games of bots only holds across the workers, not per worker.

Finding 1: a seat's authority lives with the table, not with a socket.

Three ``usotsuki serve`` workers share PostgreSQL and Redis behind nginx; each person's
socket is opened on a chosen worker, so the seat's socket sits on a follower while its
table is owned elsewhere. Whoever leaves, is replaced by a bot or joins again: every socket
of the old holder, on every worker, hears ``left`` and closes (1000), and never hears a
word of the seat's new holder nor acts for it. The owner checks the holder of every relayed
command; a follower whose copy of the seats is behind (a lost message) reads them before
it delivers anything.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
from cluster_helpers import Cluster, Worker, cluster  # noqa: E402
from core_helpers import ManualClock, holder, new_lobby, people_table, watch  # noqa: E402
from drive import choose  # noqa: E402
from nginx_render import client_tls  # noqa: E402
from pg_helpers import new_database, throwaway_postgres  # noqa: E402

from usotsuki.server.config import Refused  # noqa: E402
from usotsuki.server.store import Store  # noqa: E402

HTTP_SECONDS = 30.0  # a busy machine's first answers can be slow
BOT_GAMES = 2  # games of bots only at once, in the whole cluster
SOCKET_SECONDS = 20.0  # the longest a socket waits for one message


@pytest.fixture(scope="module")
def pg_server() -> Iterator[str]:
    with throwaway_postgres() as url:
        yield url


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:
    db = new_database(pg_server, "usotsuki_seats")
    with cluster(db, 3, ["--bot-delay", "0.05", "--lease-seconds", "1.5",
                         "--bot-games", str(BOT_GAMES), "--bot-games-per-address", "10"]) as c:
        yield c


def post(url: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(url, json=body, timeout=HTTP_SECONDS, verify=client_tls())


def new_table(owner: Worker, people: int) -> tuple[str, str]:
    """A Bluff table of ``people`` seats created on ``owner`` (which holds its lease)."""
    r = post(f"{owner.url}/api/tables", {"game": "bluff", "seats": [{}] * people,
                                         "rules": {}})
    assert r.status_code == 201, r.text
    return r.json()["table_id"], r.json()["invite"]


def join(base: str, invite: str, name: str, seat: int) -> str:
    r = post(f"{base}/api/invites/{invite}/join", {"name": name, "seat": seat})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def leave(base: str, table_id: str, token: str) -> None:
    r = post(f"{base}/api/tables/{table_id}/leave", {"token": token})
    assert r.status_code == 204, r.text


def start(base: str, table_id: str, token: str) -> None:
    r = post(f"{base}/api/tables/{table_id}/start", {"token": token})
    assert r.status_code == 200, r.text


class Socket:
    """A seat's WebSocket on one worker; every message it got, in order."""

    def __init__(self, worker: Worker, table_id: str, token: str) -> None:
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{worker.port}/ws/tables/{table_id}?token={token}",
            open_timeout=10).__enter__()  # (closed by ``close`` or by the server)
        self.got: list[dict[str, Any]] = []
        self.closed: int | None = None  # the close code, once closed

    def recv(self) -> dict[str, Any] | None:
        """The next message; None once the server closed the socket."""
        try:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=SOCKET_SECONDS))
        except ConnectionClosed:
            self.closed = self.ws.close_code
            return None
        self.got.append(message)
        return message

    def until(self, test: Any, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + SOCKET_SECONDS
        while time.monotonic() < deadline:
            message = self.recv()
            assert message is not None, f"closed ({self.closed}) before {what}: {self.got}"
            if test(message):
                return message
        raise AssertionError(f"no {what} in {SOCKET_SECONDS} s: {self.got[-5:]}")

    def state(self) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "state", "state")

    def until_closed(self) -> list[dict[str, Any]]:
        """Every message up to the close (which must come soon)."""
        seen = len(self.got)
        while self.recv() is not None:
            pass
        return self.got[seen:]

    def close(self) -> None:
        self.ws.close()


def left_then_closed(socket: Socket) -> None:
    """The socket hears ``left`` and closes normally, with nothing of the seat after."""
    rest = socket.until_closed()
    codes = [m.get("code") for m in rest if m["type"] == "error"]
    assert "left" in codes, rest
    after = rest[[m.get("code") for m in rest].index("left") + 1:]
    assert after == [], f"heard after leaving: {after}"
    assert socket.closed == 1000


def refused(worker: Worker, table_id: str, token: str) -> None:
    """A socket opened with ``token`` on ``worker`` is refused (it holds no seat)."""
    socket = Socket(worker, table_id, token)
    rest = socket.until_closed()
    assert [m.get("code") for m in rest] == ["forbidden"], rest
    assert socket.closed == 4403


def test_games_of_bots_only_are_capped_across_the_workers(stack: Cluster) -> None:
    # Each worker counted only its own: with three workers, three times the cap ran.
    tables = []
    for w in stack.workers:  # one table on each worker, which owns it
        r = post(f"{w.url}/api/tables", {"game": "bluff", "seats": [{"bot": "random"}] * 3,
                                         "rules": {}})
        assert r.status_code == 201, r.text
        tables.append((w, r.json()))
    answers = [post(f"{w.url}/api/tables/{t['table_id']}/start", {"token": t["host_token"]})
               for w, t in tables]
    assert [a.status_code for a in answers] == [200] * BOT_GAMES + [429], \
        [a.text for a in answers]
    assert answers[-1].json()["error"] == "too_many_bot_games"
    assert answers[-1].json()["params"] == {"max": BOT_GAMES}
    deadline = time.monotonic() + 120  # the games end: room again for what follows
    for w, t in tables[:BOT_GAMES]:
        while httpx.get(f"{w.url}/api/tables/{t['table_id']}",
                        timeout=HTTP_SECONDS).json()["status"] != "finished":
            assert time.monotonic() < deadline, "a game of bots did not end"
            time.sleep(0.2)


def test_a_seat_left_before_the_game_is_closed_on_every_worker(stack: Cluster) -> None:
    # The finding: Alice left, Bob took her seat, and her socket on a follower went on
    # receiving Bob's hand and acting for him.
    w0, w1, w2 = stack.workers
    table_id, invite = new_table(w0, 2)  # owned by w0
    host = join(w0.url, invite, "Host", 0)
    alice = join(w1.url, invite, "Alice", 1)
    old = Socket(w2, table_id, alice)  # a follower's socket
    old.state()
    leave(stack.nginx.url, table_id, alice)  # through nginx: relayed to the owner
    left_then_closed(old)
    bob = join(stack.nginx.url, invite, "Bob", 1)
    for w in stack.workers:  # her token opens nothing anywhere
        refused(w, table_id, alice)
    bobs = Socket(w2, table_id, bob)
    bobs.state()
    start(w0.url, table_id, host)
    state = bobs.until(lambda m: m["type"] == "state" and m["status"] == "playing",
                       "the game's start")
    assert state["view"]["hand"], "Bob's socket shows his own hand"
    bobs.close()


def test_rejoining_the_seat_closes_the_old_sockets_and_the_new_one_plays(
        stack: Cluster) -> None:
    w0, w1, w2 = stack.workers
    table_id, invite = new_table(w1, 2)  # owned by w1
    host = join(w0.url, invite, "Host", 0)
    first = join(w0.url, invite, "Alice", 1)
    olds = [Socket(w, table_id, first) for w in (w0, w2)]  # the owner's and a follower's
    for s in olds:
        s.state()
    leave(stack.nginx.url, table_id, first)
    for s in olds:
        left_then_closed(s)
    again = join(stack.nginx.url, invite, "Alice", 1)  # a new token for the same seat
    alice = Socket(w2, table_id, again)
    hosts = Socket(w0, table_id, host)
    alice.state()
    hosts.state()
    start(w1.url, table_id, host)
    playing = [s.until(lambda m: m["type"] == "state" and m["status"] == "playing",
                       "the game's start") for s in (alice, hosts)]
    mover = {1: alice, 0: hosts}[playing[0]["to_move"]]
    state = next(p for p in playing if p["to_move"] is not None and p["legal"] is not None)
    mover.ws.send(json.dumps({"type": "act", "action": choose(state, random.Random(1)),
                              "id": 1}))
    ack = mover.until(lambda m: m["type"] in ("ack", "error"), "the answer")
    assert ack["type"] == "ack", ack
    for s in (alice, hosts):
        s.close()
    for w in stack.workers:
        refused(w, table_id, first)


def test_a_mid_game_leaver_is_closed_everywhere_and_a_bot_plays_on(stack: Cluster) -> None:
    w0, w1, w2 = stack.workers
    table_id, invite = new_table(w0, 2)
    host = join(w0.url, invite, "Host", 0)
    alice = join(w0.url, invite, "Alice", 1)
    hers = [Socket(w, table_id, alice) for w in (w1, w2)]  # two followers' sockets
    hosts = Socket(w1, table_id, host)
    for s in (*hers, hosts):
        s.state()
    start(w0.url, table_id, host)
    for s in hers:
        s.until(lambda m: m["type"] == "state" and m["status"] == "playing", "the start")
    leave(stack.nginx.url, table_id, alice)
    for s in hers:
        left_then_closed(s)
    for w in stack.workers:
        refused(w, table_id, alice)
    # The seat is a bot's now: the host's socket sees it play (its turns come by).
    table = hosts.until(lambda m: m["type"] == "table" and m["table"]["seats"][1]["bot"],
                        "the bot taking seat 1")
    assert table["table"]["seats"][1]["bot"] is not None
    rng = random.Random(2)
    for _ in range(200):  # the host plays; the bot answers; a round or the game ends
        state = hosts.state()
        if state["status"] != "playing":
            break
        if state["to_move"] == 0 and state["legal"]:
            hosts.ws.send(json.dumps({"type": "act", "action": choose(state, rng)}))
    bot_actions = [m for m in hosts.got if m["type"] == "event"
                   and m["event"]["type"] == "action" and m["event"]["seat"] == 1]
    assert bot_actions, "the bot never played seat 1"
    hosts.close()


def test_the_owner_refuses_an_action_from_a_token_that_no_longer_holds_the_seat(
        tmp_path: Path) -> None:
    # What a follower relays carries the holder's token hash: the owner checks it under
    # the table's lock, whatever the follower's copy believed.
    async def scenario() -> None:
        store = Store(str(tmp_path / "t.sqlite3"))
        lobby = new_lobby(store, ManualClock())
        table, tokens = await people_table(lobby, players=2)
        slot = table.current
        assert slot is not None and slot.session.to_move is not None
        mover = slot.session.to_move
        stale = holder(table, mover)
        socket = watch(table, mover)
        legal = choose(table.state_message(mover), random.Random(0))  # (the seat's own)
        await table.leave(mover, stale)  # a bot plays the seat from now on
        assert socket not in table.clients
        with pytest.raises(Refused) as exc:
            await table.act(mover, legal, stale)
        assert exc.value.code == "left"
        with pytest.raises(Refused):  # a second leave with the same token
            await table.leave(mover, stale)
        lobby.stop()
        store.close()

    asyncio.run(scenario())


def test_a_follower_that_missed_a_seat_change_reads_the_seats_before_delivering(
        stack: Cluster) -> None:
    # Neither worker listens to Redis here: the follower never hears the leave. The
    # owner's next entries carry its seats' digest; the follower, finding its own
    # different, reads the seats and closes the old holder's socket before folding.
    from test_cluster_affinity import owner_and_follower

    from usotsuki.server.cluster import ClusterTable, seats_digest

    store = Store(stack.db)

    async def scenario() -> None:
        async with owner_and_follower(stack, store, ("seats-owner", "seats-copy"),
                                      30.0) as (table, copy):
            assert isinstance(copy, ClusterTable)
            seat = 1
            stale = holder(table, seat)
            socket = watch(copy, seat)
            first = table.seq
            await table.leave(seat, stale)
            assert copy.seats[seat].token_hash == stale  # the copy did not hear
            slot = table.current
            assert slot is not None and slot.session.to_move is not None
            mover = slot.session.to_move
            if mover != seat:
                await table.act(mover, choose(table.state_message(mover),
                                              random.Random(0)),
                                holder(table, mover))
            deadline = time.monotonic() + SOCKET_SECONDS
            while table.seq == first:  # the bot now at the seat plays its turn
                assert time.monotonic() < deadline, "nothing was committed"
                await asyncio.sleep(0.01)
            entries = await store.call(store.load_log, table.row.pk)
            published = [[e.kind, e.data] for e in entries[first:]]
            while not socket.queue.empty():
                socket.queue.get_nowait()
            await copy.follow(first, published, None, seats_digest(table.seats))
            assert socket not in copy.clients
            heard = []
            while not socket.queue.empty():
                text = socket.queue.get_nowait()
                heard.append(None if text is None else json.loads(text))
            assert heard[0] is not None and heard[0]["code"] == "left", heard
            assert heard[1:] == [None], f"heard after leaving: {heard}"

    asyncio.run(scenario())
    store.close()
