"""Faults injected into a live cluster while people play (tests/server/test_faults.py,
benchmarks/faults.py).

Each scenario starts a fresh cluster (three workers behind nginx, PostgreSQL, Redis),
opens Bluff and Liar Game tables of two people and a bot, and has clients written from
PROTOCOL.md (``fault_client.Seat``) play every game through nginx. Once every game is
under way, one fault is injected; the games play on to their end. Then it reads each
table's log from PostgreSQL and checks what a player is owed:

- every action a client got acknowledged is in the log exactly once, in the order the
  client made them (``lost``: acknowledged but not logged; ``twice``: a key logged more
  than once);
- every game finished within ``GAME_S``, and acted again soon after the fault's end;
- the clients saw no error but the retryable ones (``unavailable``, an HTTP 503 before
  a WebSocket's upgrade): never ``internal``;
- each client's view agrees with the log: the events it was sent are the ones a fresh
  connection catching up from the log gets, its last state is that connection's, and
  its own actions in those events are the log's.

And it measures what the fault cost: per game the longest gap between acknowledged
actions (``pause``), the time from the fault's end to each game's next acknowledged
action (``resume``), errors the clients saw by code, reconnections.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import signal
import ssl
import statistics
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import psycopg
from cluster_helpers import Cluster, cluster
from fault_client import Seat
from pg_helpers import new_database, restart_postgres
from tcp_proxy import TcpProxy
from waits import Deadline
from websockets.asyncio.client import connect

LEASE = 1.5  # --lease-seconds: a silent owner's tables move after about twice this
THINK = 0.1  # seconds a scripted person takes for a turn (on average)
GAME_S = 150.0  # every game must finish within this (a bound for broken runs)
UNDER_WAY = 4  # acknowledged actions every game has made before the fault
OUTAGE_S = 10.0  # the long PostgreSQL outage
PARTITION_S = 3 * LEASE + 2  # the worker cut off from PostgreSQL: past its leases
# Two games of each: long enough to be in play well past the fault (a slow fault's are
# longer), short enough for `make test`.
TABLES = (("bluff", {"max_cards": 3}), ("liar", {"turn_limit": 80}))
LONG_TABLES = (("bluff", {"max_cards": 4}), ("liar", {"turn_limit": 160}))
RESUME_S = 20.0
"""Every game in play acts again within this of the fault's end ("within a few seconds";
the bound leaves room for a loaded two-core machine: benchmarks/faults.py measures)."""
RETRYABLE = frozenset({"unavailable", "http_503"})  # the errors a client may see and retry
WORKER_OPTIONS = ["--bot-delay", "0.1", "--lease-seconds", str(LEASE),
                  "--sockets-per-address", "1000", "--tables-per-minute", "1000"]


@dataclass
class Stage:
    """What a fault acts on: the running cluster, its PostgreSQL server, the tables."""

    stack: Cluster
    server: str  # the PostgreSQL server's URL (pg_helpers)
    proxies: dict[str, TcpProxy]  # worker name -> its way to PostgreSQL (``Fault.proxied``)
    table_ids: list[str]

    def busiest_owner(self) -> str:
        """The worker owning the most of the tables."""
        owners = Counter(owner[0] for t in self.table_ids
                         if (owner := self.stack.owner(t)) is not None)
        return owners.most_common(1)[0][0]


# A fault: blocking code run in a thread while the clients play; returns when the fault
# is over (the database back, the worker resumed ...).
Inject = Callable[[Stage], None]


def postgres_restart(down: float) -> Inject:
    def inject(stage: Stage) -> None:
        restart_postgres(stage.server, down)
    return inject


def redis_restart(stage: Stage) -> None:
    stage.stack.redis.restart()


def owner_signal(sig: signal.Signals, paused: float = 0.0) -> Inject:
    """``sig`` to the worker owning the most tables; after a SIGSTOP, SIGCONT once
    ``paused`` seconds have passed."""
    def inject(stage: Stage) -> None:
        victim = stage.stack.worker(stage.busiest_owner())
        victim.signal(sig)
        if sig == signal.SIGSTOP:
            time.sleep(paused)  # (the pause is the fault itself)
            victim.signal(signal.SIGCONT)
        elif sig == signal.SIGTERM:
            with contextlib.suppress(subprocess.TimeoutExpired):
                victim.process.wait(timeout=30)
    return inject


def partition(seconds: float) -> Inject:
    """The worker owning the most tables loses PostgreSQL: every connection it has is
    reset and new ones are refused for ``seconds``."""
    def inject(stage: Stage) -> None:
        proxy = stage.proxies[stage.busiest_owner()]
        proxy.cut()
        time.sleep(seconds)  # (the partition's length)
        proxy.heal()
    return inject


@dataclass(frozen=True)
class Fault:
    id: str  # a short name (the test's)
    name: str
    inject: Inject
    slow: bool  # run by `make test-faults`, not `make test`
    proxied: bool = False  # each worker reaches PostgreSQL through a TcpProxy


FAULTS = (
    Fault("postgres-restart", "postgres restart (fast)", postgres_restart(0.0), slow=False),
    Fault("postgres-outage", f"postgres down {OUTAGE_S:g} s", postgres_restart(OUTAGE_S),
          slow=True),
    Fault("redis-restart", "redis restart", redis_restart, slow=False),
    Fault("owner-sigkill", "owner SIGKILL", owner_signal(signal.SIGKILL), slow=False),
    Fault("owner-sigterm", "owner SIGTERM", owner_signal(signal.SIGTERM), slow=False),
    Fault("owner-sigstop", f"owner SIGSTOP {3 * LEASE:g} s",
          owner_signal(signal.SIGSTOP, 3 * LEASE), slow=True),
    Fault("partition", f"worker cut from postgres {PARTITION_S:g} s", partition(PARTITION_S),
          slow=True, proxied=True),
)


@dataclass
class Game:
    table_id: str
    game: str
    seats: list[Seat]

    @property
    def acks(self) -> list[float]:
        return sorted(a.at for s in self.seats for a in s.acks)

    @property
    def over(self) -> bool:
        return all(s.finished for s in self.seats)

    def pause(self, now: float) -> float:
        """The longest wait between acknowledged actions, the last one to the game's
        end (``now`` if it has not ended: a stalled game's pause lasts)."""
        ends = [s.finished_at for s in self.seats]
        end = max(e for e in ends if e is not None) if None not in ends else now
        times = [*self.acks, end]
        return max((b - a for a, b in itertools.pairwise(times)), default=0.0)


@dataclass
class Outcome:
    """What a scenario found: the checks' failures and the fault's cost."""

    fault: str
    games: int = 0
    finished: int = 0
    lost: int = 0  # acknowledged actions missing from the log
    twice: int = 0  # action keys logged more than once
    out_of_order: int = 0  # seats whose acknowledged actions the log holds in another order
    disagree: list[str] = field(default_factory=list)  # views that differ from the log
    errors: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    pauses: list[float] = field(default_factory=list)  # per game, seconds
    resumes: list[float] = field(default_factory=list)  # per game in play at the fault's end
    fault_s: float = 0.0  # how long the fault lasted
    acks: int = 0  # acknowledged actions in all
    in_play: int = 0  # games still in play at the fault's end
    played_s: float = 0.0  # from the start of the games to the end of the last

    @property
    def unexpected_errors(self) -> dict[str, int]:
        return {code: n for code, n in self.errors.items() if code not in RETRYABLE}

    def problems(self, resume_s: float) -> list[str]:
        """What a player was not owed: empty when the games came through the fault
        whole, with only retryable errors, each acting again within ``resume_s`` of
        its end."""
        found = [f"{what}: {n}" for what, n in (
            ("acknowledged actions lost", self.lost), ("keys logged twice", self.twice),
            ("seats' actions logged out of order", self.out_of_order),
            ("games unfinished", self.games - self.finished)) if n]
        found += self.disagree
        if self.unexpected_errors:
            found.append(f"errors a client cannot retry: {self.unexpected_errors}")
        if late := [round(r, 1) for r in self.resumes if r >= resume_s]:
            found.append(f"games that acted again only {late} s after the fault's end")
        return found

    @staticmethod
    def spread(values: list[float]) -> str:
        if not values:
            return "-"
        return f"{statistics.median(values):.1f} / {max(values):.1f}"


def _tls(stack: Cluster) -> ssl.SSLContext | None:
    """What the clients verify nginx with when it serves TLS (the shipped config)."""
    tls = getattr(stack, "tls", None)
    return tls(stack.nginx.port) if callable(tls) else None


def _ws_base(stack: Cluster) -> str:
    url = urlsplit(stack.nginx.url)
    return f"{'wss' if url.scheme == 'https' else 'ws'}://{url.netloc}"


async def _open_tables(stack: Cluster, http: httpx.AsyncClient, long: bool
                       ) -> list[tuple[str, str, str, list[str]]]:
    """Each of TABLES (or LONG_TABLES) twice, with two people and a bot: (table id, game,
    host token, tokens)."""
    opened = []
    for game, rules in 2 * (LONG_TABLES if long else TABLES):
        r = await http.post("/api/tables", json={
            "game": game, "seats": [{}, {}, {"bot": "random"}], "rules": rules})
        assert r.status_code == 201, r.text
        table = r.json()
        tokens = []
        for seat in (0, 1):
            j = await http.post(f"/api/invites/{table['invite']}/join",
                                json={"name": f"p{seat}", "seat": seat})
            assert j.status_code == 200, j.text
            tokens.append(j.json()["token"])
        opened.append((table["table_id"], game, table["host_token"], tokens))
    return opened


async def _catch_up(stack: Cluster, table_id: str, token: str
                    ) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """A fresh connection's events and first state: what the log gives this seat."""
    events: dict[int, dict[str, Any]] = {}
    async with connect(f"{_ws_base(stack)}/ws/tables/{table_id}?token={token}&since=-1",
                       ssl=_tls(stack), open_timeout=30) as ws:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] == "event":
                events[message["n"]] = message["event"]
            elif message["type"] == "state":
                return events, message


def _logged(stack: Cluster, table_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Each table's logged actions, in order (``data``: seat, action, key)."""
    logged: dict[str, list[dict[str, Any]]] = {t: [] for t in table_ids}
    with psycopg.connect(stack.db) as conn:
        for table_id, data in conn.execute(
                "SELECT t.public_id, l.data FROM log l JOIN tables t ON t.pk = l.table_pk "
                "WHERE t.public_id = ANY(%s) AND l.kind = 'action' ORDER BY l.table_pk, l.seq",
                (table_ids,)):
            logged[table_id].append(json.loads(data))
    return logged


async def _check(stack: Cluster, games: list[Game], outcome: Outcome) -> None:
    logged = _logged(stack, [g.table_id for g in games])
    for g in games:
        entries = logged[g.table_id]
        keys = Counter(e["key"] for e in entries if "key" in e)
        outcome.twice += sum(n - 1 for n in keys.values() if n > 1)
        for s in g.seats:
            mine = [e for e in entries if e["seat"] == s.seat]
            acked = {a.key: a for a in s.acks}
            outcome.lost += sum(1 for k in acked if k not in keys)
            if [e["key"] for e in mine if e.get("key") in acked] != [a.key for a in s.acks]:
                outcome.out_of_order += 1
            where = f"{g.table_id} seat {s.seat}"
            events, state = await _catch_up(stack, g.table_id, s.token)
            if s.changed:
                outcome.disagree.append(f"{where}: events changed {s.changed[:3]}")
            if events != s.events:
                missing = sorted(set(events) ^ set(s.events))[:5]
                outcome.disagree.append(f"{where}: events differ at {missing}")
            if (state["n"], state["view"]) != (s.state.get("n"), s.state.get("view")):
                outcome.disagree.append(f"{where}: final state differs")
            made = [e["action"] for _, e in sorted(events.items())
                    if e["type"] == "action" and e["seat"] == s.seat]
            if len(made) != len(mine):
                outcome.disagree.append(f"{where}: {len(made)} actions shown, "
                                        f"{len(mine)} logged")
            elif any(acked[e["key"]].action != text for e, text in zip(mine, made, strict=True)
                     if e.get("key") in acked):
                outcome.disagree.append(f"{where}: an acknowledged action differs")


async def _play(stage: Stage, games: list[Game], fault: Fault, outcome: Outcome,
                start_tokens: list[tuple[str, str]], http: httpx.AsyncClient) -> None:
    tasks = [asyncio.create_task(s.play(GAME_S)) for g in games for s in g.seats]
    connected = Deadline("every seat's welcome", 60)
    while any(s.seat is None for g in games for s in g.seats):  # before the start
        await asyncio.sleep(min(0.05, connected.left()))
    for table_id, host in start_tokens:
        r = await http.post(f"/api/tables/{table_id}/start", json={"token": host})
        assert r.status_code == 200, r.text
    started = time.monotonic()
    bound = started + GAME_S
    while any(len(g.acks) < UNDER_WAY and not g.over for g in games) and time.monotonic() < bound:
        await asyncio.sleep(0.05)
    began = time.monotonic()
    await asyncio.to_thread(fault.inject, stage)
    ended = time.monotonic()
    outcome.fault_s = ended - began
    in_play = [g for g in games if not g.over]
    outcome.in_play = len(in_play)
    await asyncio.gather(*tasks)
    now = time.monotonic()
    outcome.played_s = now - started
    for g in games:
        acks = g.acks
        outcome.acks += len(acks)
        outcome.pauses.append(g.pause(now))
        if g in in_play:  # (a game that never acted again resumed at the run's end)
            outcome.resumes.append(next((t for t in acks if t >= ended), now) - ended)


@contextlib.contextmanager
def _stage(server: str, name: str, proxied: bool) -> Iterator[Stage]:
    db = new_database(server, name)
    host_port = urlsplit(db).netloc.rsplit("@", 1)[-1]
    host, port = host_port.rsplit(":", 1)
    proxies = [TcpProxy(host, int(port)) for _ in range(3)] if proxied else []
    try:
        with cluster(db, 3, WORKER_OPTIONS, worker_dbs=[
                db.replace(host_port, f"127.0.0.1:{p.port}") for p in proxies]) as stack:
            by_worker = dict(zip((w.name for w in stack.workers), proxies, strict=False))
            yield Stage(stack, server, by_worker, [])
    finally:
        for p in proxies:
            p.close()


def run(server: str, fault: Fault, name: str) -> Outcome:
    """Play the games through ``fault`` on a fresh cluster (database ``name`` on the
    PostgreSQL ``server``) and check them."""
    with _stage(server, name, fault.proxied) as stage:
        return asyncio.run(_scenario(stage, fault))


async def _scenario(stage: Stage, fault: Fault) -> Outcome:
    stack = stage.stack
    outcome = Outcome(fault.name)
    tls = _tls(stack)
    async with httpx.AsyncClient(base_url=stack.nginx.url, timeout=60,
                                 verify=tls if tls is not None else True) as http:
        opened = await _open_tables(stack, http, fault.slow)
        stage.table_ids[:] = [t for t, _, _, _ in opened]
        games = [Game(t, game, [Seat(_ws_base(stack), t, token, THINK, tls)
                                for token in tokens]) for t, game, _, tokens in opened]
        await _play(stage, games, fault, outcome, [(t, h) for t, _, h, _ in opened], http)
    outcome.games = len(games)
    outcome.finished = sum(g.over for g in games)
    for g in games:
        for s in g.seats:
            outcome.errors.update(s.errors)
            outcome.reconnects += s.reconnects
    await _check(stack, games, outcome)
    return outcome

