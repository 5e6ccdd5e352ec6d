"""Games of people played over real sockets while the database goes away: each seat is
a client written from PROTOCOL.md that retries ``unavailable`` after its ``retry_after``
with the same ``key``, reconnects with ``since`` when its socket closes, and records
every error it gets. The tables' logs are then checked against what was acknowledged.

Used by test_db_outage.py; ``python tests/server/outage_helpers.py`` prints the pauses a
fast restart and a 10 s outage cause (a small cluster on a throwaway PostgreSQL)."""

from __future__ import annotations

import asyncio
import collections
import functools
import json
import random
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import psycopg
from drive import choose
from nginx_render import client_tls
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

PACE = 0.05  # seconds a client waits before it acts (people are not instant)
TABLES = 6  # tables of two people each, in the measurement


@dataclass
class Outcome:
    """What the clients met: errors by code, HTTP statuses refused, the time of every
    acknowledgement per table, sockets refused before accept and closed under them."""

    errors: collections.Counter[str] = field(default_factory=collections.Counter)
    http: collections.Counter[int] = field(default_factory=collections.Counter)
    acks: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    acked: set[tuple[str, str]] = field(default_factory=set)  # (table id, key)
    refused_sockets: int = 0
    closed_sockets: int = 0
    began: float = 0.0  # when the outage began (monotonic)
    ended: float = 0.0  # when play stopped

    def pauses(self) -> dict[str, float]:
        """Per table, its longest time without an acknowledged action from the outage's
        start to the end of play."""
        out = {}
        for table, times in self.acks.items():
            inside = [self.began, *[t for t in times if t > self.began], self.ended]
            out[table] = max(b - a for a, b in zip(inside, inside[1:], strict=False))
        return out


async def _http(client: httpx.AsyncClient, outcome: Outcome, method: str, url: str,
                body: dict[str, Any], stop: asyncio.Event | None = None) -> Any:
    """A request, asked again after a 503's ``Retry-After`` (any other failure counted
    and asked again a little later)."""
    while True:
        try:
            r = await client.request(method, url, json=body, timeout=30)
        except httpx.HTTPError:
            outcome.http[0] += 1
            await asyncio.sleep(0.2)
            continue
        if r.status_code < 300:
            return r.json() if r.content else None
        outcome.http[r.status_code] += 1
        if r.status_code == 409 and stop is not None:
            return None  # (a rematch asked twice)
        assert r.status_code >= 500, f"{method} {url}: {r.status_code} {r.text}"
        if r.status_code == 503:
            await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
        else:
            await asyncio.sleep(0.2)
        if stop is not None and stop.is_set():
            return None


@dataclass
class Seat:
    table_id: str
    seat: int
    token: str
    since: int = -1
    pending: tuple[str, str] | None = None  # (key, action) sent, not yet answered
    acted_at: int = -2  # the state number this seat last acted on


def _tls(base: str) -> ssl.SSLContext | None:
    """What clients verify nginx with when ``base`` is its TLS address (the shipped
    config, with the tests' own certificate)."""
    return client_tls() if base.startswith("https") else None


async def create_table(base: str, outcome: Outcome, games: int = 1) -> tuple[str, str,
                                                                            list[Seat]]:
    async with httpx.AsyncClient(verify=_tls(base) or True) as client:
        made = await _http(client, outcome, "POST", f"{base}/api/tables",
                           {"game": "bluff", "seats": [{"bot": None}, {"bot": None}],
                            "rules": {}, "games": games})
        seats = []
        for seat in (0, 1):
            joined = await _http(client, outcome, "POST",
                                 f"{base}/api/invites/{made['invite']}/join",
                                 {"name": f"p{seat}", "seat": seat})
            seats.append(Seat(made["table_id"], seat, joined["token"]))
        await _http(client, outcome, "POST", f"{base}/api/tables/{made['table_id']}/start",
                    {"token": made["host_token"]})
    return made["table_id"], made["host_token"], seats


async def play_seat(base: str, seat: Seat, outcome: Outcome, stop: asyncio.Event) -> None:
    """Play the seat until ``stop``, as a client should: answers ``unavailable`` by
    sending the same action (same key) after ``retry_after``; reconnects with
    ``since`` after a close or a refused socket."""
    ws_base = base.replace("http", "ws", 1)
    while not stop.is_set():
        url = (f"{ws_base}/ws/tables/{seat.table_id}?token={seat.token}"
               f"&since={seat.since}")
        try:
            async with connect(url, ssl=_tls(base), open_timeout=10,
                               close_timeout=1) as ws:
                if await _converse(ws, seat, outcome, stop):
                    return  # the game is over
        except InvalidStatus:
            outcome.refused_sockets += 1
        except (ConnectionClosed, OSError, TimeoutError):
            outcome.closed_sockets += 1
        if not stop.is_set():
            await asyncio.sleep(0.1 + 0.2 * random.random())


async def _converse(ws: Any, seat: Seat, outcome: Outcome, stop: asyncio.Event) -> bool:
    """Play on this socket until ``stop`` (False) or the game's end (True)."""
    retry: asyncio.Task[None] | None = None
    state: dict[str, Any] | None = None

    async def act(key: str, action: str, delay: float) -> None:
        await asyncio.sleep(delay)
        await ws.send(json.dumps({"type": "act", "action": action, "key": key, "id": key}))

    try:
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            message = json.loads(raw)
            kind = message["type"]
            if kind == "event":
                seat.since = max(seat.since, message["n"])
            elif kind == "ack":
                outcome.acks[seat.table_id].append(time.monotonic())
                if seat.pending is not None:
                    outcome.acked.add((seat.table_id, seat.pending[0]))
                seat.pending = None
            elif kind == "error":
                outcome.errors[message["code"]] += 1
                if message["code"] == "unavailable" and seat.pending is not None:
                    retry = asyncio.ensure_future(act(*seat.pending,
                                                      float(message["retry_after"])))
                else:
                    seat.pending = None
            elif kind == "state":
                state = message
            if state is not None and state["status"] == "finished" and seat.pending is None:
                return True  # (the last action's ack follows the state: read it first)
            if (state is not None and state["status"] == "playing"
                    and state["to_move"] == seat.seat and state["n"] >= seat.since):
                if seat.pending is not None and seat.acted_at == state["n"]:
                    if kind == "state" and retry is None:  # a new socket: send it again
                        retry = asyncio.ensure_future(act(*seat.pending, 0.0))
                    continue
                if seat.pending is None and seat.acted_at != state["n"]:
                    text = choose(state, random.Random(state["n"]))
                    seat.pending = (f"{seat.seat}-{state['n']}", text)
                    seat.acted_at = state["n"]
                    retry = asyncio.ensure_future(act(*seat.pending, PACE))
            if retry is not None and retry.done():
                retry = None
        return False
    finally:
        if retry is not None:
            retry.cancel()


async def play_tables(base: str, tables: list[list[Seat]], hosts: dict[str, str],
                      outcome: Outcome, stop: asyncio.Event) -> None:
    """Every seat of every table until ``stop``; a table whose match ends starts a
    rematch, each seat accepting it (over HTTP: a join of the outage's kind)."""
    async def table(seats: list[Seat]) -> None:
        async with httpx.AsyncClient(verify=_tls(base) or True) as client:
            while not stop.is_set():
                await asyncio.gather(*(play_seat(base, s, outcome, stop) for s in seats))
                for seat in seats:  # a rematch starts once every person accepted
                    if not stop.is_set():
                        await _http(client, outcome, "POST",
                                    f"{base}/api/tables/{seat.table_id}/rematch",
                                    {"token": seat.token}, stop)

    await asyncio.gather(*(table(seats) for seats in tables))


def check_log(db: str, outcome: Outcome) -> None:
    """Every acknowledged action is in its table's log once; no key is logged twice."""
    with psycopg.connect(db) as conn:
        rows = conn.execute(
            "SELECT t.public_id, l.data FROM log l JOIN tables t ON t.pk = l.table_pk "
            "WHERE l.kind = 'action'").fetchall()
    keys = collections.Counter((table, json.loads(data).get("key")) for table, data in rows)
    twice = {k: n for k, n in keys.items() if n > 1 and k[1] is not None}
    assert not twice, f"actions logged twice: {twice}"
    lost = {k for k in outcome.acked if k not in keys}
    assert not lost, f"acknowledged actions missing from the log: {sorted(lost)[:5]}"


async def through_outage(base: str, tables: int, outage: Callable[[], None],
                         settle: float = 2.0, resume_within: float = 60.0
                         ) -> tuple[Outcome, float, list[str]]:
    """Play ``tables`` tables, call ``outage()`` (blocking: run in a thread) once they
    are under way, and go on until every table made progress after it, or for
    ``resume_within`` seconds at most: the outcome, when the database was back
    (monotonic), and the tables that never resumed."""
    outcome = Outcome()
    made = [await create_table(base, outcome) for _ in range(tables)]
    hosts = {table_id: host for table_id, host, _ in made}
    stop = asyncio.Event()
    play = asyncio.ensure_future(play_tables(base, [seats for *_, seats in made], hosts,
                                             outcome, stop))

    def stalled() -> list[str]:
        return [t for t in hosts if not any(a > back for a in outcome.acks[t])]

    try:
        await asyncio.sleep(settle)
        outcome.began = time.monotonic()
        await asyncio.to_thread(outage)
        back = time.monotonic()
        while stalled() and time.monotonic() < back + resume_within:
            await asyncio.sleep(0.1)
        await asyncio.sleep(settle)  # (play on a little: what follows is checked too)
    finally:
        outcome.ended = time.monotonic()
        stop.set()
        await play
    return outcome, back, stalled()


def main() -> None:  # pragma: no cover (a measurement, run by hand)
    import statistics
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from cluster_helpers import cluster
    from pg_helpers import new_database, restart_postgres, throwaway_postgres

    with throwaway_postgres() as server:
        for name, down in (("fast restart", 0.0), ("10 s outage", 10.0)):
            db = new_database(server, f"outage_{int(down)}")
            with cluster(db, 2, ["--lease-seconds", "3"]) as c:
                outage = functools.partial(restart_postgres, server, down)
                outcome, back, stalled = asyncio.run(through_outage(
                    c.nginx.url, TABLES, outage, resume_within=30.0))
                check_log(db, outcome)
            pauses = sorted(outcome.pauses().values())
            resumed = sorted(min(t for t in times if t > back) - back
                             for table, times in outcome.acks.items()
                             if table not in stalled)
            print(f"{name}: {len(stalled)} of {TABLES} games stalled (no action for 30 s "
                  f"after the database's return); longest pause per game: median "
                  f"{statistics.median(pauses):.1f} s, max {pauses[-1]:.1f} s; resumed "
                  f"after the database's return: median "
                  f"{statistics.median(resumed) if resumed else float('nan'):.1f} s, max "
                  f"{resumed[-1] if resumed else float('nan'):.1f} s; errors "
                  f"{dict(outcome.errors)}; HTTP {dict(outcome.http)}; sockets refused "
                  f"{outcome.refused_sockets}, closed {outcome.closed_sockets}", flush=True)


if __name__ == "__main__":
    main()
