"""``usotsuki serve``: run the game server under uvicorn, with connection limits."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from usotsuki.core.errors import InvalidRules
from usotsuki.server.connections import (
    MAX_CONNECTIONS,
    TCP_PER_ADDRESS,
    TCP_PER_NETWORK,
    GuardedH11Protocol,
    quiet_ping_protocol,
)
from usotsuki.server.guard import Networks

KEEP_ALIVE_SECONDS = 5  # an idle HTTP connection between requests is closed after this
MAX_HEADER_BYTES = 16 * 1024
GC_THRESHOLDS = (700, 10, 1000)  # CPython's defaults but the full collection's (10)
WS_PING_SECONDS = 20.0  # a WebSocket whose peer does not answer a ping within this closes


def uvicorn_options() -> dict[str, Any]:
    """The uvicorn settings that bound slow and idle clients."""
    return {"http": GuardedH11Protocol, "timeout_keep_alive": KEEP_ALIVE_SECONDS,
            "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
            # GuardedH11Protocol's own limits replace it (it sheds API calls, not pages)
            "limit_concurrency": MAX_CONNECTIONS, "ws_max_size": 65536,
            "ws_ping_interval": WS_PING_SECONDS, "ws_ping_timeout": WS_PING_SECONDS,
            # Frames are small JSON: compressing each costs more CPU than it saves.
            "ws_per_message_deflate": False, "ws": quiet_ping_protocol()}


SOCKETS_PER_ADDRESS = 32  # WebSockets from one address facing the worker directly
# Behind a trusted proxy: a NAT of a few hundred players (one table's socket each) gets
# in; one host's sockets stay a small share of a worker's MAX_CONNECTIONS. Floods are
# stopped per token and seat (rate limits), not here (docs/deploy.md, "Per-address caps").
SOCKETS_PER_ADDRESS_PROXIED = 256


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
    # WebSockets open at once from one client address; None: SOCKETS_PER_ADDRESS, or
    # SOCKETS_PER_ADDRESS_PROXIED behind a trusted proxy (``for_deployment``)
    sockets_per_address: int | None = None
    bot_games_per_address: int = 2  # of --bot-games, those one client address's tables play
    # and from one network (an IPv4 /24, an IPv6 /64); None: 4 addresses' worth
    sockets_per_network: int | None = None
    ipv4_prefix: int = 24
    ipv6_prefix: int = 64
    unload_minutes: float = 10.0  # an unused game in play that nothing drives leaves memory
    retention_days: float = 7.0  # after expiry, logs are compacted into records (0: never)
    contribute_seconds: float = 5.0  # people's contributions to a game's deal, at most
    arena_tables: int = 4  # the arena's tables at once over the cluster (0: no arena)
    arena_turn_seconds: float = 10.0  # the arena tables' turn clock

    @property
    def networks(self) -> Networks:
        return Networks(self.ipv4_prefix, self.ipv6_prefix)

    @property
    def address_sockets(self) -> int:
        if self.sockets_per_address is None:
            return SOCKETS_PER_ADDRESS
        return self.sockets_per_address

    @property
    def network_sockets(self) -> int:
        if self.sockets_per_network is not None:
            return self.sockets_per_network
        return 4 * self.address_sockets

    def for_deployment(self, proxied: bool) -> Limits:
        """The per-address default for where the worker stands: behind a trusted proxy
        (``--forwarded-allow-ips``) it serves a public site, where one address may be a
        school's or a carrier's NAT; facing clients directly, the small one."""
        if self.sockets_per_address is not None or not proxied:
            return self
        return replace(self, sockets_per_address=SOCKETS_PER_ADDRESS_PROXIED)

    def problem(self) -> str | None:
        if self.bot_workers < 1 or self.bot_deadline <= 0:
            return "--bot-workers must be >= 1 and --bot-deadline > 0"
        if min(self.tables_per_minute, self.open_tables, self.bot_games) < 0:
            return "--tables-per-minute, --open-tables and --bot-games must be >= 0"
        if self.idle_hours <= 0 or self.unload_minutes <= 0:
            return "--idle-hours and --unload-minutes must be > 0"
        if self.retention_days < 0:
            return "--retention-days must be >= 0 (0: keep every log)"
        if self.arena_tables < 0 or self.arena_turn_seconds <= 0:
            return "--arena-tables must be >= 0 and --arena-turn-seconds > 0"
        if not 0 <= self.contribute_seconds <= 600:
            return "--contribute-seconds must be between 0 and 600"
        if self.address_sockets < 1 or self.network_sockets < self.address_sockets:
            return "--sockets-per-address must be >= 1 and --sockets-per-network >= it"
        return self.networks.problem()


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
    # Upgrade a PostgreSQL schema at start (one node); else only checked (migrate.py).
    migrate: bool = False
    # SIGTERM drains: no new connection, WebSockets closed with 1012 (the pages
    # reconnect), requests in flight given this long, then the tables' leases released.
    drain_seconds: int = 10

    def problem(self, db: str | None) -> str | None:
        if self.redis is not None and not (db or "").startswith(("postgresql://",
                                                                   "postgres://")):
            return "--redis needs a shared database: --db postgresql://..."
        if self.redis is not None and not self.redis.startswith(("redis://", "rediss://",
                                                                 "unix://")):
            return "--redis must be a redis:// URL"
        if not 0.5 <= self.lease_seconds <= 60:
            return "--lease-seconds must be between 0.5 and 60"
        if not 0 <= self.drain_seconds <= 600:
            return "--drain-seconds must be between 0 and 600"
        if self.log_format not in ("text", "json"):
            return "--log-format must be text or json"
        return None


def database_url(db: str | None, db_file: Path | None = None,
                 password_file: Path | None = None) -> str | None:
    """``--db``, or the URL in ``db_file``, with the password in ``password_file`` (the
    command line is readable by every user: ``ps``, ``/proc/<pid>/cmdline``)."""
    if db_file is not None:
        if db is not None:
            raise ValueError("give --db (or USOTSUKI_DB) or --db-file, not both")
        db = _read_secret(db_file, "--db-file")
    if password_file is None:
        if db is not None and db_file is None and os.environ.get("USOTSUKI_DB") != db \
                and _url(db).password is not None:
            print("warning: the database password is on the command line, where every "
                  "user of this host can read it: use USOTSUKI_DB, --db-file or "
                  "--db-password-file (docs/deploy.md)", file=sys.stderr)
        return db
    if db is None or "://" not in db:
        raise ValueError("--db-password-file needs a postgresql:// URL in --db")
    password = _read_secret(password_file, "--db-password-file")
    return _url(db).set(password=password).render_as_string(hide_password=False)


def _url(db: str) -> URL:
    if "://" not in db:
        return URL.create("sqlite", database=db)
    try:
        return make_url(db)
    except ArgumentError as exc:
        raise ValueError(f"--db: not a database URL: {exc}") from None


def _read_secret(path: Path, option: str) -> str:
    try:
        value = path.read_text().strip()
    except OSError as exc:
        raise ValueError(f"{option}: cannot read {path}: {exc.strerror}") from None
    if not value:
        raise ValueError(f"{option}: {path} is empty")
    return value


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
    from usotsuki.server.migrate import SchemaMismatch
    from usotsuki.server.store import Store

    if bot_delay < 0 or (turn_seconds is not None and turn_seconds <= 0):
        print("error: --bot-delay must be >= 0 and --turn-seconds > 0", file=sys.stderr)
        return 2
    deployment = deployment or Deployment()
    limits = (limits or Limits()).for_deployment(deployment.forwarded_allow_ips is not None)
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
    shown = db if "://" not in db else _url(db).render_as_string(hide_password=True)
    try:
        # One process on SQLite upgrades its schema; workers on PostgreSQL check it, and
        # `usotsuki db upgrade` upgrades it once (docs/deploy.md, Schema migrations).
        store = Store(db, upgrade=deployment.migrate or "://" not in db
                      or db.startswith("sqlite"))
    except SchemaMismatch as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (InvalidRules, ValueError, OSError) as exc:
        print(f"error: cannot open the database {shown!r}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a database that cannot be reached: say so, no traceback
        print(f"error: cannot open the database {shown!r}: {type(exc).__name__}: {exc}",
              file=sys.stderr)
        return 2
    settings = Settings(bot_delay=bot_delay, turn_seconds=turn_seconds, deal_seed=deal_seed,
                        bot_workers=limits.bot_workers, bot_deadline=limits.bot_deadline,
                        tables_per_minute=limits.tables_per_minute,
                        open_tables=limits.open_tables, bot_tables=limits.bot_games,
                        bot_tables_per_address=limits.bot_games_per_address,
                        idle_seconds=limits.idle_hours * 3600,
                        unload_seconds=limits.unload_minutes * 60,
                        retention_seconds=limits.retention_days * 86400 or None,
                        bot_idle=limits.bot_idle_cpu, bot_warm=True,
                        contribute_seconds=limits.contribute_seconds,
                        arena_tables=limits.arena_tables,
                        arena_turn_seconds=limits.arena_turn_seconds)
    hosts = allowed_hosts(host, allowed_host)
    cluster = None if deployment.redis is None else ClusterConfig(
        deployment.redis, worker, deployment.lease_seconds,
        deployment.lease_follows_sockets)
    try:
        app = create_app(store=store, settings=settings, allowed_hosts=hosts,
                         ws_per_address=limits.address_sockets,
                         ws_per_network=limits.network_sockets,
                         networks=limits.networks, cluster=cluster)
    except Exception as exc:  # the leases' table cannot be made: say so, no traceback
        print(f"error: cannot join the cluster: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    # HTTP connections (before any upgrade) may be twice the WebSockets: pages, API calls
    GuardedH11Protocol.per_address = max(TCP_PER_ADDRESS, 2 * limits.address_sockets)
    GuardedH11Protocol.per_network = max(TCP_PER_NETWORK, 2 * limits.network_sockets)
    GuardedH11Protocol.networks = limits.networks
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
                timeout_graceful_shutdown=deployment.drain_seconds, **proxy_options)
    return 0
