"""``usotsuki serve``: run the game server under uvicorn, with connection limits."""

from __future__ import annotations

import asyncio
import gc
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from usotsuki.core.errors import InvalidRules

HEADER_SECONDS = 10.0  # a request's headers must arrive within this (slowloris)
KEEP_ALIVE_SECONDS = 5  # an idle HTTP connection between requests is closed after this
TCP_PER_ADDRESS = 64  # HTTP connections open at once from one address (before upgrades)
MAX_HEADER_BYTES = 16 * 1024
GC_THRESHOLDS = (700, 10, 1000)  # CPython's defaults but the full collection's (10)
WS_PING_SECONDS = 20.0  # a WebSocket whose peer does not answer a ping within this closes
MAX_CONNECTIONS = 4096  # connections and tasks at once; more are answered 503 (a worker
# must hold its share of the sockets of a dead one: 4,000 seats over two workers)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers (uvicorn has
    none: a client sending a header a minute holds its connection forever) and a cap on
    the connections open at once from one address. A connection upgraded to a WebSocket
    leaves the count (the app caps WebSockets per address) and the deadline."""

    header_seconds = HEADER_SECONDS
    per_address = TCP_PER_ADDRESS
    open_from: Counter[str] = Counter()
    # Trusted proxies (--forwarded-allow-ips): every client arrives through them, so
    # they are not capped here; the app's limits see the real address they forward.
    proxies: frozenset[str] = frozenset()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else "?"
        self._counted = False
        self._header_timer: asyncio.TimerHandle | None = None
        if self._address in self.proxies:
            self._await_headers()
            return
        if self.open_from[self._address] >= self.per_address:
            transport.close()
            return
        self.open_from[self._address] += 1
        self._counted = True
        self._await_headers()

    def _release(self) -> None:
        if self._counted:
            self._counted = False
            self.open_from[self._address] -= 1
            if not self.open_from[self._address]:
                del self.open_from[self._address]
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._release()
        super().handle_websocket_upgrade(event)

    def _waiting_for_headers(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _await_headers(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_seconds, self._too_slow)

    def _too_slow(self) -> None:
        self._header_timer = None
        if self._waiting_for_headers() and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        super().data_received(data)
        if self.cycle is not before and not self._waiting_for_headers():
            if self._header_timer is not None:  # a request's headers are complete
                self._header_timer.cancel()
                self._header_timer = None
        elif self._waiting_for_headers() and self._counted:
            self._await_headers()  # bytes of the next request: its headers are due


def _quiet_ping_protocol() -> Any:
    """uvicorn's sans-I/O WebSocket protocol (its default with websockets >= 13) whose
    keep-alive ping is sent only to a peer that has sent nothing for a whole interval: a
    peer heard from within it is alive, and a dead one is still found within an interval
    and the ping's timeout of its last message. Under load every socket's ping (and its
    pong, through the balancer) cost as much I/O as a fifth of the game's frames;
    players who act every few seconds are not pinged. "auto" if it is not there."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:
        return "auto"

    class QuietPingProtocol(WebSocketsSansIOProtocol):
        heard = 0.0  # loop time when the peer last sent anything

        def data_received(self, data: bytes) -> None:
            self.heard = self.loop.time()
            super().data_received(data)

        def send_keepalive_ping(self) -> None:
            quiet = self.loop.time() - self.heard
            if (self.ping_interval is not None and quiet < self.ping_interval
                    and not self.close_sent):
                self.ping_timer = self.loop.call_later(self.ping_interval - quiet,
                                                       self.send_keepalive_ping)
                return
            super().send_keepalive_ping()

    return QuietPingProtocol


def uvicorn_options() -> dict[str, Any]:
    """The uvicorn settings that bound slow and idle clients."""
    return {"http": GuardedH11Protocol, "timeout_keep_alive": KEEP_ALIVE_SECONDS,
            "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
            "limit_concurrency": MAX_CONNECTIONS, "ws_max_size": 65536,
            "ws_ping_interval": WS_PING_SECONDS, "ws_ping_timeout": WS_PING_SECONDS,
            # Frames are small JSON: compressing each costs more CPU than it saves.
            "ws_per_message_deflate": False, "ws": _quiet_ping_protocol()}


@dataclass(frozen=True)
class Limits:
    """The server's bounds (``usotsuki serve --help``); see ``config.Settings``."""

    bot_workers: int = 1
    bot_deadline: float = 5.0
    tables_per_minute: int = 10
    open_tables: int = 20
    bot_games: int = 4
    idle_hours: float = 24.0
    bot_idle_cpu: bool = True
    sockets_per_address: int = 32  # WebSockets open at once from one client address
    bot_games_per_address: int = 2  # of --bot-games, those one client address's tables play

    def problem(self) -> str | None:
        if self.bot_workers < 1 or self.bot_deadline <= 0:
            return "--bot-workers must be >= 1 and --bot-deadline > 0"
        if min(self.tables_per_minute, self.open_tables, self.bot_games) < 0:
            return "--tables-per-minute, --open-tables and --bot-games must be >= 0"
        if self.idle_hours <= 0:
            return "--idle-hours must be > 0"
        if self.sockets_per_address < 1:
            return "--sockets-per-address must be >= 1"
        return None


@dataclass(frozen=True)
class Deployment:
    """How the worker fits in a deployment (``usotsuki serve --help``; docs/deploy.md)."""

    redis: str | None = None  # with it: one worker of several (PostgreSQL needed)
    worker_id: str | None = None  # unique per process by default
    lease_seconds: float = 3.0
    forwarded_allow_ips: str | None = None  # proxies whose X-Forwarded-For is believed
    log_format: str = "text"  # or "json": one JSON object per line
    # A table's lease moves to the worker its sockets reach (nginx hashing each table's
    # WebSockets to one worker: docs/deploy.md); any worker still serves any table.
    lease_follows_sockets: bool = False

    def problem(self, db: str | None) -> str | None:
        if self.redis is not None and not (db or "").startswith(("postgresql://",
                                                                   "postgres://")):
            return "--redis needs a shared database: --db postgresql://..."
        if self.redis is not None and not self.redis.startswith(("redis://", "rediss://",
                                                                 "unix://")):
            return "--redis must be a redis:// URL"
        if not 0.5 <= self.lease_seconds <= 60:
            return "--lease-seconds must be between 0.5 and 60"
        if self.log_format not in ("text", "json"):
            return "--log-format must be text or json"
        return None


def run_server(host: str, port: int, db: str | None, bot_delay: float,
               turn_seconds: float | None, deal_seed: int | None = None,
               limits: Limits | None = None,
               allowed_host: Sequence[str] = (),
               deployment: Deployment | None = None) -> int:
    """Serve until interrupted; returns the exit code (2 for a bad option)."""
    import uvicorn

    from usotsuki.server.app import create_app, default_db
    from usotsuki.server.cluster import ClusterConfig, worker_id
    from usotsuki.server.config import Settings
    from usotsuki.server.games import warm_hints
    from usotsuki.server.guard import allowed_hosts
    from usotsuki.server.logs import configure
    from usotsuki.server.metrics import time_collections
    from usotsuki.server.store import Store

    if bot_delay < 0 or (turn_seconds is not None and turn_seconds <= 0):
        print("error: --bot-delay must be >= 0 and --turn-seconds > 0", file=sys.stderr)
        return 2
    limits = limits or Limits()
    deployment = deployment or Deployment()
    if (problem := limits.problem() or deployment.problem(db)) is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    worker = deployment.worker_id or worker_id()
    if deployment.log_format == "json":
        configure(json_lines=True, worker=worker)
    if db is None:
        path = default_db()
        path.parent.mkdir(parents=True, exist_ok=True)
        db = str(path)
    elif "://" not in db:
        Path(db).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
    try:
        store = Store(db)
    except (InvalidRules, ValueError, OSError) as exc:
        print(f"error: cannot open the database {db!r}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a database that cannot be reached: say so, no traceback
        print(f"error: cannot open the database {db!r}: {type(exc).__name__}: {exc}",
              file=sys.stderr)
        return 2
    settings = Settings(bot_delay=bot_delay, turn_seconds=turn_seconds, deal_seed=deal_seed,
                        bot_workers=limits.bot_workers, bot_deadline=limits.bot_deadline,
                        tables_per_minute=limits.tables_per_minute,
                        open_tables=limits.open_tables, bot_tables=limits.bot_games,
                        bot_tables_per_address=limits.bot_games_per_address,
                        idle_seconds=limits.idle_hours * 3600,
                        bot_idle=limits.bot_idle_cpu, bot_warm=True)
    hosts = allowed_hosts(host, allowed_host)
    cluster = None if deployment.redis is None else ClusterConfig(
        deployment.redis, worker, deployment.lease_seconds,
        deployment.lease_follows_sockets)
    try:
        app = create_app(store=store, settings=settings, allowed_hosts=hosts,
                         ws_per_address=limits.sockets_per_address, cluster=cluster)
    except Exception as exc:  # the leases' table cannot be made: say so, no traceback
        print(f"error: cannot join the cluster: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    # HTTP connections (before any upgrade) may be twice the WebSockets: pages, API calls
    GuardedH11Protocol.per_address = max(TCP_PER_ADDRESS, 2 * limits.sockets_per_address)
    proxies = deployment.forwarded_allow_ips
    GuardedH11Protocol.proxies = frozenset(
        p.strip() for p in (proxies or "").split(",") if p.strip() and p.strip() != "*")
    where = db if "://" not in db else db.split("@")[-1]
    mode = "" if cluster is None else f"; worker {worker} of a cluster"
    print(f"usotsuki server on http://{host}:{port}/ (API docs at /docs; data: {where}; "
          f"hosts: {', '.join(hosts)}{mode})", flush=True)
    # Client addresses come from X-Forwarded-For only when sent by a configured proxy.
    proxy_options: dict[str, Any] = {"proxy_headers": proxies is not None}
    if proxies is not None:
        proxy_options["forwarded_allow_ips"] = proxies
    if deployment.log_format == "json":
        proxy_options["log_config"] = None  # keep the JSON handler configured above
    # Full garbage collections stop the event loop for as long as they traverse every
    # object: 0.6-0.9 s each for a cluster worker's ~500,000 objects under load
    # (benchmarks/load_cluster.py, 1,000 tables), 8 of them in 4 minutes, as the heap
    # grew. At most one per 1,000 middle-generation collections instead of 10 (an hour
    # or more of that load; cyclic garbage waits that long): that run's p99 halved.
    gc.set_threshold(*GC_THRESHOLDS)
    warm_hints()
    # What start-up made (modules, the app, the bots' tables) lives as long as the
    # process: out of every later collection's traversal.
    gc.collect()
    gc.freeze()
    time_collections(app.state.metrics)
    uvicorn.run(app, host=host, port=port, log_level="warning", **uvicorn_options(),
                **proxy_options)
    return 0
