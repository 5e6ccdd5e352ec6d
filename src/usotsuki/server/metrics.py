"""Prometheus metrics (``/metrics``) with the standard client library, one registry per
app (tests build many apps in one process): tables, sockets, log entries and actions
(``rate()`` of the counter is actions/s), commit latency and failures, lease changes and
claims, relayed commands, Redis outages, the database's reachability, tables without a
live owner, reconnections (docs/deploy.md's runbook says what each means)."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from starlette.types import ASGIApp, Receive, Scope, Send

COMMIT_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
# Where an action's time goes, the event loop's lateness and garbage collections' pauses:
# finer at the low end (most are below a few milliseconds), up to seconds (a stall).
PHASE_BUCKETS = (0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2,
                 0.3, 0.5, 1.0, 2.0, 5.0)
PHASES = ("wait", "fold", "commit", "pool", "publish", "hint", "action", "deliver")
"""An action at its owner: ``wait`` from its message's arrival to the table's lock held
(parsing, the lock), ``fold`` the rules core, ``commit`` the log's writes (with a deal
that follows it; of which ``pool``, a cluster's wait for a database connection, for every
fenced write), ``publish`` the events and state messages queued to every socket (of
which ``hint`` the hints), ``action`` all of it; ``deliver``: a frame from the first
message queued to its socket's write (the sender's turn on the loop, and the write)."""


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.tables = Gauge("usotsuki_tables", "Tables in this worker: loaded, in play "
                            "(a game written here), owned (leases held: a cluster's), "
                            "follower (copies of others' tables: a cluster's)",
                            ["role"], registry=r)
        self.sockets = Gauge("usotsuki_sockets", "WebSockets open on this worker",
                             registry=r)
        self.entries = Counter("usotsuki_log_entries", "Log entries committed, by kind "
                               "(start, chance, action)", ["kind"], registry=r)
        self.commit = Histogram("usotsuki_commit_seconds", "Time to commit one log entry",
                                buckets=COMMIT_BUCKETS, registry=r)
        self.leases = Counter("usotsuki_lease_changes", "Table leases acquired, lost, "
                              "released by this worker", ["change"], registry=r)
        self.relayed = Counter("usotsuki_relayed_commands", "Commands relayed to the "
                               "owner of a table, by outcome: done, refused (by the game's "
                               "rules), unavailable (the owner could not write or be "
                               "reached), internal (the owner's bug), retried",
                               ["outcome"], registry=r)
        self.commit_failures = Counter(
            "usotsuki_commit_failures", "Table writes that failed, by cause: unavailable "
            "(the database could not be reached: the client was told to retry), fenced "
            "(the lease was lost), error (anything else: a bug)", ["cause"], registry=r)
        self.commit_retries = Counter(
            "usotsuki_commit_retries", "Writes run again on a fresh connection after "
            "theirs was lost, by outcome (written, already_written: the first run had "
            "committed, failed)", ["outcome"], registry=r)
        self.database_reachable = Gauge("usotsuki_database_reachable", "1 while this "
                                        "worker reaches its database, else 0", registry=r)
        self.reconnects = Counter("usotsuki_reconnects", "WebSockets opened with since >= 0 "
                                  "(a client back after its socket closed)", registry=r)
        self.claims = Counter("usotsuki_lease_claims", "Leases of tables without a live "
                              "owner taken by this worker", ["worker"], registry=r)
        self.orphans = Gauge("usotsuki_tables_without_owner", "Tables in use whose lease "
                             "expired past the grace, nobody renewing it (cluster)",
                             registry=r)
        self.redis_errors = Counter("usotsuki_redis_errors", "Redis operations that failed "
                                    "(followers catch up from the log)", registry=r)
        self.phases = Histogram("usotsuki_action_phase_seconds", "Where an action's time "
                                "goes at its owner, by phase (metrics.PHASES)", ["phase"],
                                buckets=PHASE_BUCKETS, registry=r)
        self._phase = {p: self.phases.labels(p) for p in PHASES}
        self.loop_lag = Histogram("usotsuki_loop_lag_seconds", "How late the event loop "
                                  "wakes a timer (every 0.1 s)", buckets=PHASE_BUCKETS,
                                  registry=r)
        self.gc_pause = Histogram("usotsuki_gc_pause_seconds", "Garbage collections' pauses, "
                                  "by generation", ["generation"], buckets=PHASE_BUCKETS,
                                  registry=r)
        self.gc_cpu = Counter("usotsuki_gc_cpu_seconds", "CPU time of the garbage "
                              "collections (beside their pauses: a pause much longer than "
                              "its CPU time waited for a core)", ["generation"], registry=r)
        self.thread_cpu = Counter("usotsuki_thread_cpu_seconds", "CPU time of this worker's "
                                  "own threads beside the event loop's", ["thread"],
                                  registry=r)

    def observe_phase(self, phase: str, seconds: float) -> None:
        self._phase[phase].observe(seconds)

    def observe_commit(self, kind: str, seconds: float) -> None:
        self.entries.labels(kind).inc()
        self.commit.observe(seconds)

    def commit_failed(self, cause: str) -> None:
        self.commit_failures.labels(cause).inc()

    def count_tables(self, role: str, count: Callable[[], float]) -> None:
        self.tables.labels(role).set_function(count)


LAG_EVERY = 0.1  # seconds between two probes of the event loop's lateness


async def probe_loop(metrics: Metrics, every: float = LAG_EVERY) -> None:
    """Measure how late the event loop wakes a timer, for ever (a task of the app): a
    busy loop delays every message by as much."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(every)
        metrics.loop_lag.observe(max(0.0, loop.time() - before - every))


def time_collections(metrics: Metrics) -> None:
    """Observe every garbage collection's pause in ``metrics.gc_pause`` (the process's
    collector is one: ``usotsuki serve`` installs it once)."""
    started = [0.0, 0.0]
    pause = {g: metrics.gc_pause.labels(str(g)) for g in range(3)}
    cpu = {g: metrics.gc_cpu.labels(str(g)) for g in range(3)}

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = time.perf_counter(), time.thread_time()
        else:
            pause[info["generation"]].observe(time.perf_counter() - started[0])
            cpu[info["generation"]].inc(time.thread_time() - started[1])

    gc.callbacks.append(callback)


class SocketGauge:
    """ASGI middleware: counts the WebSockets open in ``metrics.sockets``."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        self.metrics.sockets.inc()
        try:
            await self.app(scope, receive, send)
        finally:
            self.metrics.sockets.dec()
