"""Prometheus metrics (``/metrics``) with the standard client library, one registry per
app (tests build many apps in one process): tables, sockets, log entries and actions
(``rate()`` of the counter is actions/s), commit latency, lease changes, relayed
commands, Redis outages."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from starlette.types import ASGIApp, Receive, Scope, Send

COMMIT_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.tables = Gauge("usotsuki_tables", "Tables loaded in this worker, by role",
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
                               "owner of a table, by outcome", ["outcome"], registry=r)
        self.redis_errors = Counter("usotsuki_redis_errors", "Redis operations that failed "
                                    "(followers catch up from the log)", registry=r)

    def observe_commit(self, kind: str, seconds: float) -> None:
        self.entries.labels(kind).inc()
        self.commit.observe(seconds)

    def count_tables(self, role: str, count: Callable[[], float]) -> None:
        self.tables.labels(role).set_function(count)


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
