"""Load benchmark of the cluster: three workers behind nginx, on a throwaway
PostgreSQL and Redis (Debian's servers, as the tests start them).

Opens ``--tables`` tables of ``--players`` people through nginx (round robin: a table's
seats land on different workers), and every seat plays its own game over its own
WebSocket, pausing ``--think`` seconds on average (0.5x to 1.5x) before each action, as
people do. Each seat behaves as the browser does: it takes batch frames, a share
``--hint-share`` of the people have their hint panel open (they ask for hints), and it
acts only on the newest state shown: a newer state arriving while the person thinks (a
reconnection's catch-up) replaces what was about to be played. ``--affinity``: nginx
routes each table's WebSockets to one worker (a consistent hash of the table's id) and
the workers run ``--lease-follows-sockets``, as ``deploy/`` ships; else round robin.

People's think time, 5 s on average by default (2.5 s to 7.5 s): a Bluff turn is reading
the last call, looking at one's cards and picking a call among up to 327 poker hands, or
challenging; 5 s is on the quick side of that. It is a chosen figure, not one measured
from people's games (kept fixed so that runs compare); ``--think 1.0`` is closer to a
machine's pace than a person's.

The hint share, 25% by default: the panel is closed until a person opens it (their
browser remembers it). How many keep it open is not known: 25% is chosen, not
measured; each hint costs a worker about 2.5 ms of CPU.

Measures tables finished, actions per second, the latency from a client sending an
action to each seat's socket (the actor's and the others', on whichever worker)
receiving that action's event (p50, p99; the actor's ``ack`` apart), errors, and lost
actions: each table's log (read from PostgreSQL at the end) must hold every
acknowledged action (an action whose socket died, or whose run ended, before its ack
may be in the log: counted apart, as "in doubt", never as lost). The load generator's
own CPU share and event-loop lag are printed too: if it were the bottleneck, its lag
would show. So is the CPU each part of the stack used per action (each worker with its
child processes, nginx, Redis, PostgreSQL, the load generator) and the whole machine's.

Where the time goes: every worker's ``/metrics`` is read every 10 s, and the run prints
an action's phases at its owner (the wait for its table, the rules core, the commit, the
messages, the hint, the frames' wait to be written: ``metrics.PHASES``), garbage
collections' pauses, and per 30 s window the people's latency beside the owners' action
time, commit, and the event loops' lag: whether the p99 comes from the first minutes,
when every table plays at once.

PostgreSQL runs as a deployment's does: each commit flushed to disk (its defaults:
``fsync`` and ``synchronous_commit`` on; the tests' throwaway servers turn them off), at
the scheduling weight of the rest of the stack (``_same_weight``).

Then, with ``--kill-after S``, the same load again with one worker SIGKILLed S seconds
into play: its sockets reconnect through nginx with ``since``; measured also how long
until every table it owned has a live lease held by another worker.

    python benchmarks/load_cluster.py [--tables 1000] [--players 4] [--think 5.0]
        [--hint-share 0.25] [--rules '{"max_cards": 2}'] [--seconds 240] [--kill-after 30]
        [--only-sigkill] [--affinity] [--json PATH]

Timed: run it on a quiet machine (other work on the same cores shows up as latency).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "server"))

from cluster_helpers import Cluster, cluster  # noqa: E402
from nginx_render import client_tls  # noqa: E402
from pg_helpers import new_database, throwaway_postgres  # noqa: E402

TARGET_P99_MS = 150.0
THINK = 5.0  # seconds a person takes for a turn on average (see the docstring)
HINT_SHARE = 0.25  # people whose hint panel is open (chosen, not measured: see the docstring)
TICK = os.sysconf("SC_CLK_TCK")
# Frames are read as bytes (UTF-8 left undecoded: orjson reads bytes).
EVENT = b'{"type":"event","n":'
BATCH = b'{"type":"batch",'
loads = orjson.loads  # (as fast a client as can be had: it shares the cores)
RETRY = ("unavailable", "not_owner")  # the table is moving: ask again, as a person would


@dataclass
class Sent:
    """An action on its way: when its client sent it, and the table's last event number
    then (the first event above it that a seat receives is this action's)."""

    at: float
    after: int


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)  # action sent -> its ack
    delivered: list[float] = field(default_factory=list)  # action sent -> each seat's event
    delivered_at: list[float] = field(default_factory=list)  # when each was sent (perf)
    errors: list[str] = field(default_factory=list)
    acks: dict[str, set[Any]] = field(default_factory=dict)  # table -> actions acked (keys)
    finished: set[str] = field(default_factory=set)
    in_flight: dict[str, Sent] = field(default_factory=dict)  # table id -> its last action
    reconnects: int = 0
    retried: int = 0  # actions answered "unavailable" while their table moved
    unacked: int = 0  # actions whose socket died before the ack came
    lag: list[float] = field(default_factory=list)  # the load generator's own loop lag
    frames: int = 0  # WebSocket frames received
    messages: int = 0  # messages received (a batch frame holds several)


def client_address(table: int) -> str:
    """The loopback address a table's people connect from (a household each): nginx's
    per-address limits (deploy/nginx.conf) then see many clients, as in a deployment."""
    return f"127.1.{table // 250}.{table % 250 + 1}"


async def _seat(ws_url: str, table_id: str, token: str, totals: Totals, deadline: float,
                connected: asyncio.Event, think: float, hints: bool, address: str) -> None:
    from drive import choose
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    last_n = -1
    seat: int | None = None
    acted_at: int | None = None
    heard: Sent | None = None  # the last action whose event this seat received
    while time.monotonic() < deadline:
        awaiting = False
        sent = 0.0
        # As a person: the action chosen on the newest state shown, sent once the think
        # time is up, unless a newer state came meanwhile (then it is chosen afresh):
        # (when to send it, its text, the state's number).
        plan: tuple[float, str, int] | None = None
        try:
            # As the browser: batch frames, and a person whose hint panel is open asks
            # for hints.
            show = "&batch=1&hints=1" if hints else "&batch=1"
            async with connect(f"{ws_url}/ws/tables/{table_id}?token={token}&since={last_n}"
                               f"{show}",
                               max_size=2**22, open_timeout=30, compression=None,
                               ping_interval=None, ssl=client_tls(),
                               local_addr=(address, 0)) as ws:
                connected.set()
                while time.monotonic() < deadline:
                    # (a timer only while a person thinks: most frames need none)
                    try:
                        if plan is None:
                            async with asyncio.timeout(deadline - time.monotonic()):
                                raw = await ws.recv(decode=False)
                        else:
                            raw = await asyncio.wait_for(
                                ws.recv(decode=False),
                                min(deadline, plan[0]) - time.monotonic())
                    except TimeoutError:
                        if plan is None or time.monotonic() >= deadline:
                            return
                        text, n = plan[1], plan[2]
                        plan = None
                        sent = time.perf_counter()
                        totals.in_flight[table_id] = Sent(sent, n)
                        awaiting = True
                        # (as the browser: the key names this action on this state)
                        key = f"{n}:{text}"
                        await ws.send(json.dumps({"type": "act", "action": text,
                                                  "key": key, "id": key}))
                        continue
                    if raw.startswith(EVENT):  # a lone event: only its number matters
                        messages: list[Any] = [int(raw[len(EVENT):raw.index(b",", len(EVENT))])]
                    elif raw.startswith(BATCH):  # as the browser: each in order
                        messages = [m["n"] if m["type"] == "event" else m
                                    for m in loads(raw)["messages"]]
                    else:
                        messages = [loads(raw)]
                    totals.frames += 1
                    totals.messages += len(messages)
                    for m in messages:
                        if isinstance(m, int):  # an event's number
                            last_n = max(last_n, m)
                            sent_action = totals.in_flight.get(table_id)
                            if (sent_action is not None and sent_action is not heard
                                    and m > sent_action.after):
                                # The first event above the actor's: the action reached us.
                                heard = sent_action
                                totals.delivered.append(time.perf_counter() - sent_action.at)
                                totals.delivered_at.append(sent_action.at)
                            continue
                        kind = m["type"]
                        if kind == "welcome":
                            seat = m["seat"]
                        elif kind == "ack":
                            awaiting = False
                            totals.latencies.append(time.perf_counter() - sent)
                            # (an action sent again with its key is acknowledged again:
                            # counted once)
                            totals.acks.setdefault(table_id, set()).add(m.get("id"))
                            if table_id in totals.finished:
                                return  # the game's last action (its ack follows the end)
                        elif kind == "error" and m["code"] in RETRY:
                            totals.retried += 1
                            awaiting, acted_at, plan = False, None, None
                            await asyncio.sleep(0.5)
                            await ws.send(json.dumps({"type": "sync", "since": last_n}))
                        elif kind == "error" and m["code"] == "not_your_turn" and awaiting:
                            awaiting = False  # acted already (its ack was lost with a worker)
                        elif kind == "error":
                            totals.errors.append(f"{table_id}/{seat}: {m['code']}: {m['message']}")
                            awaiting = False
                        elif kind == "state":
                            if m["status"] == "finished":
                                totals.finished.add(table_id)
                                if not awaiting:
                                    return
                                continue
                            if plan is not None and plan[2] != m["n"]:
                                plan = None  # a newer state: what was planned is stale
                            if (m["to_move"] == seat and m["legal"] is not None
                                    and acted_at != m["n"]):
                                acted_at = m["n"]
                                rng = random.Random(f"{table_id}:{m['n']}")
                                text = choose(m, rng)
                                plan = (time.monotonic() + rng.uniform(0.5 * think, 1.5 * think),
                                        text, m["n"])
        except (ConnectionClosed, OSError, InvalidStatus, TimeoutError):
            pass
        if time.monotonic() >= deadline:
            if awaiting:
                totals.unacked += 1
            return
        # The worker went away: back through nginx, from the last event seen.
        totals.reconnects += 1
        if awaiting:
            totals.unacked += 1
        acted_at = None
        await asyncio.sleep(random.uniform(0.1, 0.5))


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds: its own and its reaped children's) of a process."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), sum(int(f) for f in fields[11:15]) / TICK


def _cpu_groups(stack: Cluster) -> dict[str, float]:
    """CPU seconds used so far by each part of the stack: the workers (with their child
    processes), nginx, Redis and this run's PostgreSQL (its postmaster found by port),
    with the processes that have exited and been reaped by them."""
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            parents[int(entry.name)], used[int(entry.name)] = stat

    def tree(root: int) -> float:
        total, todo = 0.0, [root]
        while todo:
            pid = todo.pop()
            total += used.get(pid, 0.0)
            todo += [child for child, parent in parents.items() if parent == pid]
        return total

    port = stack.db.rsplit(":", 1)[1].split("/")[0]
    postmaster = next((pid for pid in parents if _postmaster(pid, port)), None)
    # A worker that was killed is left out (its CPU went with it).
    groups = {w.name: tree(w.process.pid) for w in stack.workers
              if w.process.poll() is None}
    groups["nginx"] = tree(stack.nginx.process.pid)
    assert stack.redis.process is not None
    groups["redis"] = tree(stack.redis.process.pid)
    groups["postgres"] = 0.0 if postmaster is None else tree(postmaster)
    return groups


def _postmaster(pid: int, port: str) -> bool:
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return (argv[0].endswith(b"/postgres") and b"-p" in argv
            and argv[argv.index(b"-p") + 1] == port.encode())


def _same_weight(port: str) -> None:
    """Give this run's PostgreSQL the scheduling weight of the rest of the stack.

    ``pg_ctl`` starts the server in a session of its own, hence (``sched_autogroup``) a
    scheduling group of its own at nice 0, while the workers, nginx, Redis and this
    process share ours (run at nice -10 for a measurement, nine times the weight):
    on a busy machine the database got a tenth of the CPU the rest got, and every commit
    waited for it. Alike, as separate services on one host would be."""
    mine = Path("/proc/self/autogroup")
    if not mine.exists():
        return
    nice = mine.read_text().split("nice")[-1].strip()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _postmaster(int(entry.name), port):
            with contextlib.suppress(OSError):  # (not allowed: left as it is)
                (entry / "autogroup").write_text(nice)


def _machine_busy() -> float:
    """CPU seconds the whole machine has been busy (all cores, every process; the time
    the host stole counts as busy)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / TICK


def _stolen() -> tuple[float, float]:
    """(CPU seconds the hypervisor gave to other guests while ours waited: "steal", all
    CPU seconds of the machine): a virtual machine's noise, beyond our control."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    return fields[7] / TICK, sum(fields[:8]) / TICK


async def _probe_lag(totals: Totals, every: float = 0.05) -> None:
    """How late this process's own event loop wakes up: if the load generator is the
    bottleneck, its lag (not the servers') shows in the latencies, and here."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(every)
        totals.lag.append(time.perf_counter() - before - every)


SCRAPE_EVERY = 10.0  # seconds between two readings of every worker's /metrics
WINDOW = 30.0  # seconds of each line of the report over time


async def _scrape(stack: Cluster, snapshots: list[tuple[float, str, dict[str, Any]]],
                  every: float | None = SCRAPE_EVERY) -> None:
    """Read every live worker's ``/metrics`` (directly, not through nginx) every
    ``every`` seconds (None: once): (perf time, worker, its histograms and counters)."""
    import httpx

    async with httpx.AsyncClient(timeout=5) as http:
        while True:
            for w in stack.workers:
                if w.process.poll() is not None:
                    continue
                with contextlib.suppress(httpx.HTTPError):
                    r = await http.get(f"{w.url}/metrics")
                    snapshots.append((time.perf_counter(), w.name, _parse_metrics(r.text)))
            snapshots.append((time.perf_counter(), "", {"stolen": _stolen()}))
            if every is None:
                return
            await asyncio.sleep(every)


def _parse_metrics(text: str) -> dict[str, Any]:
    """The samples we read: histogram buckets by (metric, label) -> [(le, count)], and
    counters by (metric, label) -> value."""
    from prometheus_client.parser import text_string_to_metric_families

    out: dict[str, Any] = {}
    for family in text_string_to_metric_families(text):
        if not family.name.startswith("usotsuki_"):
            continue
        for s in family.samples:
            label = s.labels.get("phase") or s.labels.get("generation") or \
                s.labels.get("thread") or ""
            if s.name.endswith("_bucket"):
                out.setdefault((family.name, label), []).append(
                    (float(s.labels["le"]), s.value))
            elif s.name.endswith(("_sum", "_total")):
                out[(s.name, label)] = s.value
    return out


def _quantile(buckets: list[tuple[float, float]], q: float) -> float | None:
    """A histogram's quantile from its cumulative buckets (as Prometheus's
    ``histogram_quantile``: linear within a bucket; the last finite bound above it)."""
    if not buckets or buckets[-1][1] <= 0:
        return None
    rank, low, below = q * buckets[-1][1], 0.0, 0.0
    for le, count in buckets:
        if count >= rank:
            if le == float("inf"):
                return low
            return low + (le - low) * ((rank - below) / max(count - below, 1e-9))
        low, below = le, count
    return low


def _delta(after: dict[str, Any], before: dict[str, Any] | None, key: Any) -> Any:
    """``after - before`` of one histogram's buckets or one counter."""
    now = after.get(key)
    if now is None:
        return None
    then = None if before is None else before.get(key)
    if isinstance(now, list):
        if then is None:
            return now
        return [(le, c - c0) for (le, c), (_, c0) in zip(now, then, strict=True)]
    return now - (then or 0.0)


def _merge(parts: list[Any]) -> Any:
    parts = [p for p in parts if p is not None]
    if not parts:
        return None
    if isinstance(parts[0], list):
        return [(le, sum(p[i][1] for p in parts)) for i, (le, _) in enumerate(parts[0])]
    return sum(parts)


def _breakdown(snapshots: list[tuple[float, str, dict[str, Any]]], began: float,
               totals: Totals) -> dict[str, Any]:
    """Where the time went: per phase over the run (all workers), and per window of
    ``WINDOW`` seconds: the people's latency, the loops' lag, GC pauses, commits."""
    from usotsuki.server.metrics import PHASES

    by_worker: dict[str, list[tuple[float, dict[str, Any]]]] = {}
    stolen: list[tuple[float, float, float]] = []  # (time, steal s, all CPU s)
    for t, name, values in snapshots:
        if not name:
            stolen.append((t - began, *values["stolen"]))
            continue
        by_worker.setdefault(name, []).append((t - began, values))

    def stolen_share(lo: float, hi: float) -> float | None:
        """The share of the machine's CPU time the host stole between lo and hi."""
        first = [s for s in stolen if s[0] <= lo] or stolen[:1]
        last = [s for s in stolen if s[0] <= hi]
        if not first or not last or last[-1][2] <= first[-1][2]:
            return None
        return round((last[-1][1] - first[-1][1]) / (last[-1][2] - first[-1][2]), 3)

    def window(lo: float, hi: float, key: Any) -> Any:
        """Summed over workers: the change between the last readings at or before lo
        and hi (a worker's first reading counts from zero)."""
        parts = []
        for series in by_worker.values():
            before = [v for t, v in series if t <= lo]
            after = [v for t, v in series if t <= hi]
            if after:
                parts.append(_delta(after[-1], before[-1] if before else None, key))
        return _merge(parts)

    def ms(value: float | None) -> float | None:
        return None if value is None else round(1000 * value, 1)

    end = max((t for t, name, _ in snapshots if name), default=began) - began
    whole = {p: window(0.0, end, ("usotsuki_action_phase_seconds", p)) for p in PHASES}
    phases = {p: {"count": int(b[-1][1]), "p50_ms": ms(_quantile(b, 0.5)),
                  "p99_ms": ms(_quantile(b, 0.99)),
                  "mean_ms": ms(window(0.0, end, ("usotsuki_action_phase_seconds_sum", p))
                                / max(b[-1][1], 1))}
              for p, b in whole.items() if b is not None and b[-1][1] > 0}
    gc_whole = {g: window(0.0, end, ("usotsuki_gc_pause_seconds", g)) for g in "012"}
    gc_pauses = {g: {"count": int(b[-1][1]), "p99_ms": ms(_quantile(b, 0.99)),
                     "total_ms": ms(window(0.0, end, ("usotsuki_gc_pause_seconds_sum", g))),
                     "cpu_ms": ms(window(0.0, end, ("usotsuki_gc_cpu_seconds_total", g)))}
                 for g, b in gc_whole.items() if b is not None}
    lease_cpu = window(0.0, end, ("usotsuki_thread_cpu_seconds_total", "leases"))
    sent = sorted(zip(totals.delivered_at, totals.delivered, strict=True))
    windows = []
    lo = 0.0
    while lo < end:
        hi = lo + WINDOW
        lat = sorted(d for at, d in sent if lo <= at - began < hi)
        lag = window(lo, hi, ("usotsuki_loop_lag_seconds", ""))
        act = window(lo, hi, ("usotsuki_action_phase_seconds", "action"))
        gcs = [window(lo, hi, ("usotsuki_gc_pause_seconds_sum", g)) for g in "012"]
        commit = window(lo, hi, ("usotsuki_action_phase_seconds", "commit"))
        pool = window(lo, hi, ("usotsuki_action_phase_seconds", "pool"))
        wait = window(lo, hi, ("usotsuki_action_phase_seconds", "wait"))
        deliver = window(lo, hi, ("usotsuki_action_phase_seconds", "deliver"))
        windows.append({
            "from_s": lo, "deliveries": len(lat),
            "p50_ms": ms(lat[len(lat) // 2]) if lat else None,
            "p99_ms": ms(lat[min(len(lat) - 1, int(0.99 * len(lat)))]) if lat else None,
            "actions_per_s": None if act is None else round(act[-1][1] / WINDOW, 1),
            "server_action_p99_ms": None if act is None else ms(_quantile(act, 0.99)),
            "wait_p99_ms": None if wait is None else ms(_quantile(wait, 0.99)),
            "commit_p99_ms": None if commit is None else ms(_quantile(commit, 0.99)),
            "pool_p99_ms": None if pool is None else ms(_quantile(pool, 0.99)),
            "deliver_p99_ms": None if deliver is None else ms(_quantile(deliver, 0.99)),
            "loop_lag_p99_ms": None if lag is None else ms(_quantile(lag, 0.99)),
            "loop_lag_over_100ms": None if lag is None else int(
                lag[-1][1] - next(c for le, c in lag if le >= 0.1)),
            "gc_ms": ms(sum(g for g in gcs if g is not None)),
            "stolen": stolen_share(lo, hi),
        })
        lo = hi
    return {"phases": phases, "gc": gc_pauses,
            "lease_thread_cpu_s": None if lease_cpu is None else round(lease_cpu, 2),
            "stolen": stolen_share(0.0, end), "windows": windows}


async def _setup(url: str, tables: int, players: int, rules: dict[str, Any]
                 ) -> list[tuple[str, str, list[str]]]:
    import httpx

    gate = asyncio.Semaphore(16)

    async def one(i: int) -> tuple[str, str, list[str]]:
        async with gate, httpx.AsyncClient(base_url=url, timeout=60, transport=(
                httpx.AsyncHTTPTransport(local_address=client_address(i),
                                         verify=client_tls()))) as http:
            r = await http.post("/api/tables", json={
                "game": "bluff", "seats": [{}] * players, "rules": rules})
            t = r.json()
            tokens = []
            for seat in range(players):
                j = await http.post(f"/api/invites/{t['invite']}/join",
                                    json={"name": f"p{seat}", "seat": seat})
                tokens.append(j.json()["token"])
            return t["table_id"], t["host_token"], tokens

    return list(await asyncio.gather(*(one(i) for i in range(tables))))


async def _watch_move(stack: Cluster, victim: str, owned: list[str], killed: float,
                      seconds: float = 60.0) -> dict[str, Any]:
    """Seconds from the kill until each of the victim's tables had a new live lease."""
    import psycopg

    moved: dict[str, float] = {}
    async with await psycopg.AsyncConnection.connect(stack.db, autocommit=True) as conn:
        while len(moved) < len(owned) and time.monotonic() - killed < seconds:
            rows = await (await conn.execute(
                "SELECT t.public_id FROM leases l JOIN tables t ON t.pk = l.table_pk "
                "WHERE l.owner <> %s AND l.expires > extract(epoch from clock_timestamp()) "
                "AND t.public_id = ANY(%s)", (victim, owned))).fetchall()
            now = time.monotonic() - killed
            for (tid,) in rows:
                moved.setdefault(tid, now)
            await asyncio.sleep(0.1)
    times = sorted(moved.values())
    return {"tables": len(owned), "moved": len(moved),
            "first_s": round(times[0], 2) if times else None,
            "median_s": round(times[len(times) // 2], 2) if times else None,
            "all_s": round(times[-1], 2) if len(times) == len(owned) and times else None}


async def _drive(stack: Cluster, tables: int, players: int, rules: dict[str, Any],
                 seconds: float, think: float, kill_after: float | None,
                 hint_share: float) -> dict[str, Any]:
    import psycopg

    url = stack.nginx.url
    opened = await _setup(url, tables, players, rules)
    totals = Totals()
    deadline = time.monotonic() + seconds
    ws_url = stack.nginx.ws_url
    tasks, events = [], []
    for i, (table_id, _, tokens) in enumerate(opened):
        for token in tokens:
            connected = asyncio.Event()
            events.append(connected)
            hints = random.Random(f"hints:{table_id}:{token}").random() < hint_share
            tasks.append(asyncio.create_task(_seat(ws_url, table_id, token, totals, deadline,
                                                   connected, think, hints,
                                                   client_address(i))))
            if len(events) % 32 == 0:  # handshakes in batches, not thousands at once
                await asyncio.gather(*(e.wait() for e in events[-32:]))
    await asyncio.gather(*(e.wait() for e in events))
    import httpx
    async with httpx.AsyncClient(base_url=url, timeout=300, verify=client_tls(),
                                 limits=httpx.Limits(max_connections=32)) as http:
        gate = asyncio.Semaphore(16)

        async def start(tid: str, host: str) -> None:
            async with gate:
                try:
                    r = await http.post(f"/api/tables/{tid}/start", json={"token": host})
                    if r.status_code != 200:
                        totals.errors.append(f"{tid}: start: {r.status_code} {r.text}")
                except httpx.HTTPError as exc:
                    totals.errors.append(f"{tid}: start: {exc!r}")

        snapshots: list[tuple[float, str, dict[str, Any]]] = []
        await _scrape(stack, snapshots, None)  # where the counts start
        began = time.perf_counter()
        cpu_began = time.process_time()
        stack_began, busy_began = _cpu_groups(stack), _machine_busy()
        probe = asyncio.create_task(_probe_lag(totals))
        scraper = asyncio.create_task(_scrape(stack, snapshots))
        print(f"{len(opened)} tables opened, {len(tasks)} sockets connected: play begins",
              file=sys.stderr, flush=True)
        await asyncio.gather(*(start(tid, host) for tid, host, _ in opened))
    failover: dict[str, Any] | None = None
    if kill_after is not None:
        await asyncio.sleep(kill_after)
        victim = stack.workers[1]
        async with await psycopg.AsyncConnection.connect(stack.db, autocommit=True) as conn:
            owned = [r[0] for r in await (await conn.execute(
                "SELECT t.public_id FROM leases l JOIN tables t ON t.pk = l.table_pk "
                "WHERE l.owner = %s", (victim.name,))).fetchall()]
        killed = time.monotonic()
        victim.kill()
        failover = await _watch_move(stack, victim.name, owned, killed)
        failover["worker"] = victim.name
        failover["killed_at_s"] = round(kill_after, 1)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.perf_counter() - began
    client_cpu = time.process_time() - cpu_began
    stack_cpu = {k: v - stack_began[k] for k, v in _cpu_groups(stack).items()
                 if k in stack_began}
    busy = _machine_busy() - busy_began
    probe.cancel()
    scraper.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await scraper
    await _scrape(stack, snapshots, None)
    totals.errors += [f"client: {r!r}" for r in results if isinstance(r, BaseException)]
    async with await psycopg.AsyncConnection.connect(stack.db, autocommit=True) as conn:
        logged = dict(await (await conn.execute(
            "SELECT t.public_id, count(l.seq) FROM tables t LEFT JOIN log l "
            "ON l.table_pk = t.pk AND l.kind = 'action' GROUP BY t.public_id")).fetchall())
    acked = {tid: len(keys) for tid, keys in totals.acks.items()}
    lost = sum(max(0, acked.get(tid, 0) - logged.get(tid, 0)) for tid, _, _ in opened)
    doubt = sum(max(0, logged.get(tid, 0) - acked.get(tid, 0)) for tid, _, _ in opened)
    actions = len(totals.latencies)

    def pct(values: list[float], q: float) -> float | None:
        ordered = sorted(values)
        return None if not ordered else round(
            ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    def spread(values: list[float]) -> dict[str, float | None]:
        return {"p50": pct(values, 0.5), "p99": pct(values, 0.99), "max": pct(values, 1.0)}

    return {"tables": tables, "players": players, "rules": rules, "think_s": think,
            "hint_share": hint_share,
            "seconds_limit": seconds, "elapsed_s": round(elapsed, 1),
            "tables_finished": len(totals.finished), "actions": actions,
            "actions_per_s": round(actions / elapsed, 1) if elapsed else None,
            # An action sent -> every seat's socket (the actor's too) received its event.
            "latency_ms": spread(totals.delivered), "deliveries": len(totals.delivered),
            "ack_ms": spread(totals.latencies),  # an action sent -> the actor's ack
            "client_lag_ms": spread(totals.lag),
            "client_cpu": round(client_cpu / elapsed, 2) if elapsed else None,
            # CPU per action (ms) of each part of the stack, and the whole machine's
            # (other work on the machine included: compare with the parts' sum).
            "cpu_ms_per_action": {k: round(1000 * v / max(actions, 1), 2)
                                  for k, v in {**stack_cpu, "load generator": client_cpu,
                                               "machine": busy}.items()},
            "cores_busy": round(busy / elapsed, 2) if elapsed else None,
            "errors": len(totals.errors), "error_samples": totals.errors[:5],
            "lost_actions": lost, "in_doubt_logged_not_acked": doubt,
            "acked_not_in_log_tables": [tid for tid, _, _ in opened
                                        if acked.get(tid, 0) > logged.get(tid, 0)][:5],
            "frames_per_action": round(totals.frames / max(actions, 1), 1),
            "messages_per_action": round(totals.messages / max(actions, 1), 1),
            "reconnects": totals.reconnects, "retried_while_moving": totals.retried,
            "unacked_at_disconnect": totals.unacked, "failover": failover,
            "breakdown": _breakdown(snapshots, began, totals)}


def _loop_factory() -> Any:
    """uvloop when installed (uvicorn[standard] brings it): the load generator's own
    overhead must stay well below the servers'."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def run(tables: int, players: int, rules: dict[str, Any], seconds: float, think: float,
        kill_after: float | None, workers: int = 3,
        hint_share: float = HINT_SHARE, affinity: bool = False,
        fsync: bool = True, slow_ms: int | None = None) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets
    lifted = ["--tables-per-minute", "1000000", "--open-tables", "1000000",
              "--sockets-per-address", "1000000", "--bot-games", "0"]
    # (``fsync=False``: commits still wait for PostgreSQL to write them, not for the disk)
    settings = "" if fsync else "-c fsync=off -c full_page_writes=off"
    if slow_ms is not None:  # (a post-mortem: USOTSUKI_KEEP_LOGS=DIR keeps its log)
        settings += (f" -c log_min_duration_statement={slow_ms} -c log_lock_waits=on"
                     f" -c deadlock_timeout={slow_ms}ms -c log_checkpoints=on"
                     f" -c log_autovacuum_min_duration=0")
    with throwaway_postgres(durable=True, settings=settings) as server:
        db = new_database(server, f"usotsuki_load_{int(time.time())}")
        _same_weight(server.rsplit(":", 1)[1])
        with (cluster(db, workers, lifted, connections=4 * tables * players + 1024,
                      affinity=affinity) as stack,
              asyncio.Runner(loop_factory=_loop_factory()) as runner):
            result = runner.run(_drive(stack, tables, players, rules, seconds, think,
                                       kill_after, hint_share))
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    result["workers"] = workers
    result["balancer"] = "table affinity" if affinity else "round robin"
    result["fsync"] = fsync
    result["target_met"] = (result["latency_ms"]["p99"] is not None
                            and result["latency_ms"]["p99"] < TARGET_P99_MS
                            and result["lost_actions"] == 0 and result["errors"] == 0
                            and result["tables_finished"] == tables)
    return result


def report(name: str, r: dict[str, Any]) -> None:
    lat = r["latency_ms"]
    print(f"{name}: {r['tables_finished']}/{r['tables']} tables of {r['players']} finished "
          f"in {r['elapsed_s']} s over {r['workers']} workers behind nginx "
          f"({r['balancer']}; PostgreSQL fsync {'on' if r['fsync'] else 'off'}; think "
          f"{r['think_s']} s, hints shown by {r['hint_share']:.0%}); {r['actions']} "
          f"actions, {r['actions_per_s']} actions/s; "
          f"latency (an action sent -> each seat got its event, {r['deliveries']} "
          f"deliveries) p50 {lat['p50']} ms, p99 {lat['p99']} ms, max {lat['max']} ms; "
          f"ack p50 {r['ack_ms']['p50']} ms, p99 {r['ack_ms']['p99']} ms; "
          f"errors {r['errors']}; lost actions {r['lost_actions']} (in doubt: logged, "
          f"ack lost with the worker: {r['in_doubt_logged_not_acked']}); reconnects "
          f"{r['reconnects']}, retried while moving {r['retried_while_moving']}; "
          f"target met: {r['target_met']}; load generator: {r['client_cpu']} of a core, "
          f"its loop lag p99 {r['client_lag_ms']['p99']} ms", flush=True)
    cpu = r["cpu_ms_per_action"]
    workers = sum(v for k, v in cpu.items() if k.startswith("w"))
    print(f"  per action: {r['messages_per_action']} messages received by the people's "
          f"sockets in {r['frames_per_action']} frames", flush=True)
    print(f"  CPU ms per action: workers {workers:.2f} ("
          + ", ".join(f"{k} {v}" for k, v in cpu.items()) + f"); machine busy "
          f"{r['cores_busy']} cores", flush=True)
    if r["failover"] is not None:
        f = r["failover"]
        print(f"  failover: {f['worker']} SIGKILLed at {f['killed_at_s']} s owning "
              f"{f['tables']} tables; {f['moved']} moved, the first after {f['first_s']} s, "
              f"half after {f['median_s']} s, all after {f['all_s']} s", flush=True)
    b = r["breakdown"]
    print("  an action at its owner (all workers; ms): " + "; ".join(
        f"{p} p50 {v['p50_ms']} p99 {v['p99_ms']} mean {v['mean_ms']} (n {v['count']})"
        for p, v in b["phases"].items()), flush=True)
    print("  GC pauses: " + "; ".join(
        f"gen {g}: {v['count']}, p99 {v['p99_ms']} ms, total {v['total_ms']} ms "
        f"(CPU {v['cpu_ms']} ms)"
        for g, v in b["gc"].items()) + f"; lease thread CPU {b['lease_thread_cpu_s']} s",
        flush=True)
    print(f"  CPU time the host stole from this virtual machine: {b['stolen']} of it",
          flush=True)
    print("  over time (window start s: deliveries, p50/p99 ms | actions/s, owner's action "
          "p99, wait p99, commit p99 (pool p99), deliver p99, loop lag p99 ms, lags > 100 ms, "
          "GC ms, "
          "stolen):", flush=True)
    for w in b["windows"]:
        print(f"    {w['from_s']:5.0f}: {w['deliveries']:6d}, {w['p50_ms']}/{w['p99_ms']} | "
              f"{w['actions_per_s']}, {w['server_action_p99_ms']}, {w['wait_p99_ms']}, "
              f"{w['commit_p99_ms']} ({w['pool_p99_ms']}), {w['deliver_p99_ms']}, "
              f"{w['loop_lag_p99_ms']}, "
              f"{w['loop_lag_over_100ms']}, {w['gc_ms']}, {w['stolen']}", flush=True)
    for sample in r["error_samples"]:
        print(f"  {sample}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default='{"max_cards": 2}',
                        help="Bluff rules as JSON (max_cards 2: games of a few minutes)")
    parser.add_argument("--seconds", type=float, default=240.0,
                        help="each run stops by itself after this long")
    parser.add_argument("--think", type=float, default=THINK)
    parser.add_argument("--kill-after", type=float, default=30.0,
                        help="seconds into the second run when a worker is SIGKILLed "
                        "(negative: no second run)")
    parser.add_argument("--only-sigkill", action="store_true",
                        help="skip the steady run (each run alone stays under the "
                        "shared lock's time)")
    parser.add_argument("--hint-share", type=float, default=HINT_SHARE,
                        help="share of people whose hint panel is open (they ask for hints)")
    parser.add_argument("--affinity", action="store_true",
                        help="nginx routes each table's WebSockets to one worker (a "
                        "consistent hash of its id) and the table's lease follows them")
    parser.add_argument("--no-fsync", action="store_true",
                        help="PostgreSQL does not flush its log to disk (commits still wait "
                        "for it to be written: synchronous_commit stays on)")
    parser.add_argument("--pg-slow-ms", type=int, default=None,
                        help="PostgreSQL logs statements and lock waits longer than this, "
                        "checkpoints and autovacuum (kept with USOTSUKI_KEEP_LOGS=DIR, "
                        "beside the workers' logs)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    rules = json.loads(args.rules)
    results: dict[str, dict[str, Any]] = {}
    if not args.only_sigkill:
        results["steady"] = run(args.tables, args.players, rules, args.seconds, args.think,
                                None, hint_share=args.hint_share, affinity=args.affinity,
                                fsync=not args.no_fsync, slow_ms=args.pg_slow_ms)
        report("cluster load", results["steady"])
    if args.kill_after >= 0:
        results["sigkill"] = run(args.tables, args.players, rules, args.seconds, args.think,
                                 args.kill_after, hint_share=args.hint_share,
                                 affinity=args.affinity, fsync=not args.no_fsync,
                                 slow_ms=args.pg_slow_ms)
        report("cluster load, one worker SIGKILLed", results["sigkill"])
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    ok = all(r["lost_actions"] == 0 and r["errors"] == 0 for r in results.values())
    return 0 if ok else 1


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
