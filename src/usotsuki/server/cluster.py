"""Several workers behind a load balancer: table ownership, relay and fan-out.

Who talks to whom::

    browsers ──► nginx (round robin) ──► worker A, B, C (usotsuki serve --redis ...)
    workers ──► PostgreSQL: tables, seats, the log (the truth) and the leases
    workers ◄─► Redis: "usotsuki:log" (every committed entry, for followers) and
                "usotsuki:w:<worker>" (commands relayed to an owner, and their replies)

Each table is owned by one worker (a :mod:`~usotsuki.server.lease` with a fencing
token). The owner alone writes: it commits each entry (its token checked in the same
transaction), then tells its own sockets and publishes the entry on Redis. Any other
worker with a socket at the table keeps a *follower* copy: it folds the published
entries with the same code (:meth:`Table._fold`), so it serves views, catch-up and
``sync`` itself; its sockets' commands (act, contribute, join, leave, start) are
relayed to the owner. A follower that sees a gap in the entries' numbers, or whose
Redis connection came back, reads what it missed from the log; every few seconds it
also compares its length with the log's, so an entry lost with Redis is found there (and
tells each owner which of its tables it still follows: an owner publishes only those). A
copy without a socket at its worker folds nothing; it reads the log when used again.

With ``lease_follows_sockets`` (a balancer sending each table's sockets to one worker), an
owner with no socket at a table hands its lease to the worker a socket reached: the
table is then played where its sockets are, with no relay and no fan-out.

A worker holds the leases of the tables it plays (and of those it created, until their
first game): a table whose game is over gives its lease up at once (``Leases.give_up``),
and one unloaded as unused (``Lobby.unused``) gives it up as it leaves memory; whoever
uses it again (a rematch, a join) takes the lease again, on whatever worker. A thread of
each worker renews its leases (one statement every ``ttl / 4`` seconds, whatever the
event loop is busy with); the tables whose lease another worker took are dropped (they
become followers: fenced, they can never write again). Every ``ttl / 3`` seconds the
loop takes leases expired for longer than the grace, of tables in play (a dead
worker's), a few at a time, the most recently used first: rebuilt from the log, deals
due are dealt and bots and turn timers start again.

While the database is away (:mod:`~usotsuki.server.health`) every lease is kept, new
WebSockets are refused, and commands are answered ``unavailable``. Once it is back, no
worker takes another's expired lease for a whole lease period: the owners renew theirs
first, and nothing moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import hashlib
import itertools
import json
import logging
import math
import os
import secrets
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import EqualJitterBackoff, NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from usotsuki.server import moments
from usotsuki.server.bot_runner import BotRunner
from usotsuki.server.config import Clock, Refused, Settings
from usotsuki.server.health import RETRY_AFTER, unavailable, unreachable
from usotsuki.server.lease import FencedLog, Leases, table_row
from usotsuki.server.lobby import Lobby
from usotsuki.server.log import NOT_OWNER, FencedTableLog
from usotsuki.server.metrics import Metrics
from usotsuki.server.store import LogEntry, SeatRow, Store, TableRow
from usotsuki.server.table import Table
from usotsuki.server.wire import Numbered, encode

log = logging.getLogger("usotsuki.cluster")

LOG_CHANNEL = "usotsuki:log"
LOG_PREFIX = b'{"t":"'  # how every message on it begins (the table's public id first)
RELAY_SECONDS = 5.0  # a follower waits this long at most for published entries
SERVED_SECONDS = 60.0  # an owner remembers a relayed command's answer this long
REDIS_RETRIES = 4  # a command on a connection found closed is sent again this often
HEALTH_SECONDS = 5  # an idle Redis connection is PINGed before use after this long
# A worker takes at most this many tables without a live owner per tick (a third of a
# lease), the most recently used first: after a worker dies its tables spread over the
# others, not all to the first that looks (the tables its sockets reach are taken at
# once, through ``relay``).
ORPHANS_PER_TICK = 10
TICK_TASK = "usotsuki-lease-tick"  # the periodic claim (stopped first at close)
CHECK_EVERY = 3  # ticks between followers' comparisons of their length with the log's
PUBLISH_BATCH = 256  # entries published in one Redis round trip at most
# Refusals of a relayed action that a lost answer can explain (the action was made):
AFTER_A_LOST_ANSWER = ("unavailable", "illegal", "not_your_turn")
UNHEARD: dict[str, Any] = {"code": "unheard"}  # a relayed command nobody was subscribed to hear
LEASE_THREADS = 4  # threads of a worker's lease statements (apart from the store's)
# The table whose command, relayed by another worker, this task runs: that command is
# run here by the owner or refused ``not_owner``, never relayed on. The asker holds the
# client's answer and looks the owner up again; a command relayed on by a worker that
# lost the lease while paused could reach the new owner long after the asker gave up on
# it, and be made again once its seat's turn came round (two actions for one key).
SERVING: contextvars.ContextVar[Table | None] = contextvars.ContextVar("usotsuki_serving",
                                                                      default=None)

QUOTA = "usotsuki:q:"  # Redis keys of the per-address quotas shared by the workers
BOT_GAMES = "usotsuki:botgames"  # hash: table id -> [worker, creator, until] of each
# game of bots only being played, so that every worker counts them all
ALIVE = "usotsuki:alive:"  # + worker: set while the worker lives
WATCHERS = "usotsuki:watch:"  # + table id: hash worker -> its spectators' sockets there
WINDOW = 60  # seconds of the per-address creation quota (as ``lobby.WINDOW``)

# Atomic in Redis: drop reservations older than the window, then count and add one.
# Redis's own clock, so the workers' clocks need not agree (ARGV[4], when not empty: the
# time given by the caller instead, for tests).
_RESERVE = """
local t
if ARGV[4] ~= nil and ARGV[4] ~= '' then
  t = tonumber(ARGV[4])
else
  local now = redis.call('TIME')
  t = tonumber(now[1]) + tonumber(now[2]) / 1e6
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t - tonumber(ARGV[1]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tostring(tonumber(oldest[2]) + tonumber(ARGV[1]) - t)}
end
redis.call('ZADD', KEYS[1], t, ARGV[3])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1]) + 1)
return {1, '0'}
"""
# One hash per address: worker -> its sockets from there. Workers that are not alive
# any more (their key expired) are dropped from the count. (Keys outside KEYS: fine on
# one Redis server, not on Redis Cluster.)
_OPEN = """
local fields = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #fields, 2 do
  if fields[i] == ARGV[1] or redis.call('EXISTS', ARGV[3] .. fields[i]) == 1 then
    total = total + tonumber(fields[i + 1])
  else
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], 86400)
return 1
"""
# A worker's spectators of a table set (0: removed); the counts of the live workers back.
_WATCH = """
if tonumber(ARGV[2]) > 0 then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
else
  redis.call('HDEL', KEYS[1], ARGV[1])
end
local fields = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #fields, 2 do
  if fields[i] == ARGV[1] or redis.call('EXISTS', ARGV[3] .. fields[i]) == 1 then
    out[#out + 1] = fields[i]
    out[#out + 1] = fields[i + 1]
  else
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
redis.call('EXPIRE', KEYS[1], 86400)
return out
"""
_CLOSE = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""

T = TypeVar("T")


def redis_client(url: str, retries: int = REDIS_RETRIES) -> aioredis.Redis:
    """A Redis client whose pooled connections survive a Redis restart.

    ``from_url`` alone retries nothing: a pooled connection that the restart closed
    fails the next command sent on it ("Connection closed by server"), however long
    after. Here redis-py itself reconnects and sends the command again, on a closed
    connection only (backoff 0.05-0.4 s, ``retries`` times: a restart's second or so).
    Never on a timeout: the command may have run (a quota would count twice). Idle
    connections are PINGed (and so reconnected) before use. ``retries=0``: errors reach
    the caller at once (the subscriber, which must know that it missed messages)."""
    retry = (Retry(EqualJitterBackoff(cap=0.4, base=0.05), retries, (RedisConnectionError,))
             if retries else Retry(NoBackoff(), 0))
    return aioredis.from_url(url, socket_connect_timeout=2, socket_timeout=5,
                             socket_keepalive=True, health_check_interval=HEALTH_SECONDS,
                             retry=retry)


def seats_digest(seats: list[SeatRow]) -> str:
    """A short digest of who holds each seat: published with the owner's entries, so
    a follower whose copy of the seats is behind (a lost message) reads them first."""
    held = json.dumps([[s.seat, s.token_hash, s.bot] for s in seats])
    return hashlib.blake2b(held.encode(), digest_size=8).hexdigest()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def worker_id() -> str:
    """Unique per process (a restarted worker is a new one): host, pid, random."""
    return f"{socket.gethostname()[:24]}-{os.getpid()}-{secrets.token_hex(3)}"


class SharedQuotas:
    """Per-address quotas counted by all the workers together, in Redis: tables created
    in the last ``WINDOW`` seconds (a sorted set per address, on Redis's clock unless
    ``clock`` is given) and WebSockets open (a hash per address: worker -> its count; a
    worker whose ``alive`` key expired no longer counts). Redis errors reach the caller."""

    def __init__(self, redis: aioredis.Redis, me: str,
                 clock: Callable[[], float] | None = None) -> None:
        self.redis, self.me, self.clock = redis, me, clock
        self._reserve = redis.register_script(_RESERVE)
        self._open = redis.register_script(_OPEN)
        self._close = redis.register_script(_CLOSE)

    async def reserve(self, address: str, limit: int, member: str,
                      bucket: str = "new") -> tuple[bool, float]:
        """Count ``member`` (a new table; in ``bucket`` "api", a bot token's request,
        ``address`` its id) if under ``limit``: (True, 0); else (False, seconds until the
        oldest reservation leaves the window)."""
        now = "" if self.clock is None else repr(self.clock())
        allowed, wait = await self._reserve(keys=[f"{QUOTA}{bucket}:{address}"],
                                            args=[WINDOW, limit, member, now])
        return bool(allowed), float(wait)

    async def refund(self, address: str, member: str) -> None:
        await self.redis.zrem(f"{QUOTA}new:{address}", member)

    async def open(self, address: str, cap: int) -> bool:
        return bool(await self._open(keys=[f"{QUOTA}ws:{address}"], args=[self.me, cap, ALIVE]))

    async def close(self, address: str) -> None:
        await self._close(keys=[f"{QUOTA}ws:{address}"], args=[self.me])

    async def alive(self, seconds: int) -> None:
        """This worker lives for ``seconds`` more (its sockets count)."""
        await self.redis.set(f"{ALIVE}{self.me}", 1, ex=seconds)


@dataclass(frozen=True)
class ClusterConfig:
    redis_url: str
    worker: str
    lease_seconds: float = 3.0
    # The owner hands a table's lease to a worker its sockets reach while it has none of
    # its own (a balancer routing each table's sockets to one worker: docs/deploy.md).
    lease_follows_sockets: bool = False


class ClusterTable(Table):
    """A table as one worker sees it: the owner (``token`` set), which writes its log
    (fenced by the lease) and runs its bots and timers, or a follower, which folds what the
    owner publishes and relays its sockets' commands to the owner. The commands, the fold
    and the write path are :class:`Table`'s own."""

    cluster: Coordinator
    log: FencedTableLog

    def __init__(self, row: TableRow, seats: list[SeatRow], store: Store, settings: Settings,
                 clock: Clock, runner: BotRunner | None, cluster: Coordinator) -> None:
        self.cluster = cluster
        self._token: int | None = None
        super().__init__(row, seats, store, settings, clock, runner, FencedTableLog(
            cluster.log, row.pk, lambda: self.token, self.demote,
            lambda seat: cluster.publish_seat(self, seat)))
        self.advanced = asyncio.Condition(self.lock)  # a follower's copy grew
        # A follower copy with no socket here does not fold published entries (nobody
        # would hear of them): it reads the log when it is used again.
        self.stale = False
        # The owner publishes its entries until then (monotonic seconds): while a
        # follower has sockets at the table it says so, every few seconds.
        self.watched = 0.0

    @property
    def token(self) -> int | None:
        """The fencing token of this worker's lease on the table; None: a follower."""
        return self._token

    @token.setter
    def token(self, value: int | None) -> None:
        self._token = value
        self.cluster.holding(self.row.pk, value)  # the renewer's list

    @property
    def owner(self) -> bool:
        return self.token is not None

    @property
    def writer(self) -> bool:
        return self.token is not None

    # the owner's entries, published to the followers

    def tell(self, fresh: list[Numbered]) -> None:
        self._flush()  # the followers first: they fold them and show the same clock
        super().tell(fresh)

    async def serialised(self, command: Callable[[], Awaitable[T]]) -> T:
        async def flushed() -> T:
            try:
                return await command()
            finally:  # a command that failed after a commit: its entries still go out
                self._flush()

        return await super().serialised(flushed)

    def _flush(self) -> None:
        """Publish the entries committed since the last flush, in one message, with the
        turn's deadline (owner's wall clock: the followers' clients see the countdown)."""
        if not self.log.outgoing:
            return
        entries, self.log.outgoing = self.log.outgoing, []
        if time.monotonic() < self.watched:  # (else no follower has a socket here)
            first = self.seq - len(entries)
            self.cluster.publish_entries(self, first, entries, self.turns.deadline)

    async def resume(self) -> None:
        if self.token is not None:
            await super().resume()

    # ownership changes

    async def promote(self, token: int) -> None:
        """Become the owner: read what the log holds beyond this copy, then carry on."""
        async with self.lock:
            if self.token == token:  # (asked twice: a handover's answer and a relay)
                return
            await self._catch_up_locked()
            self.token = token
            self.watched = time.monotonic() + self.cluster.watch_seconds  # (followers
            # may not have told this worker yet)
            # The log's length, to every follower: one that lacks entries (a dead
            # owner's, committed but never published) reads them now.
            self.cluster.publish_entries(self, self.seq, [], None)
        self.cluster.lease_changed("acquired", self)
        await self.resume()

    async def _still_owner(self) -> bool:
        """Before refusing a command by this copy's state: whether that state is the
        log's. An owner whose lease no renewal confirmed lately asks the database; if
        another worker took the table (and may have played on) it becomes a follower,
        and the command goes to the new owner instead of being refused on stale state."""
        if self.token is None or not self.cluster.lease_doubtful(self.row.pk):
            return self.token is not None
        token = self.token
        with self.store.health.as_unavailable():
            current = await self.cluster.lease_call(self.cluster.leases.current, self.row.pk)
        if current == (self.cluster.me, token):  # nobody else can have written
            self.cluster.confirmed[self.row.pk] = time.monotonic()
            return True
        if self.token == token:
            self.demote("taken")
        return False

    def demote(self, why: str, change: str = "lost") -> None:
        """Lost the lease: a follower from now on (fenced: no write can succeed)."""
        if self.token is None:
            return
        self._flush()  # committed: the followers may hear of them
        self.token = None
        self.turns.schedule()  # (stops the timers: a follower runs none)
        self.cluster.lease_changed(change, self, why)

    async def hand_over(self, to: str) -> int | None:
        """Give the lease to worker ``to`` if no socket of the table is here (between
        two commands: nothing is being written): its new token, or None (kept)."""
        async def move() -> int | None:
            token = self.token
            if token is None or self.clients:
                return None
            new = await self.cluster.lease_call(self.cluster.leases.hand_over, self.row.pk,
                                                token, to)
            if new is not None:
                self.demote(f"to {to}", "handed_over")
            return new

        return await self.serialised(move)

    # a follower's copy

    def _apply_locked(self, entries: list[LogEntry],
                      clock: tuple[int, float, float] | None = None,
                      active: float | None = None) -> None:
        """Fold the entries this copy lacks and tell its clients; ``clock``: the turn's
        deadline the owner set after the last of them (published with them), or else
        derived from ``active``, the time of the table's last command (read from the
        log)."""
        fresh: list[Numbered] = []
        for entry in entries:
            if entry.seq != self.seq:
                continue  # already folded
            try:
                folded = self._fold(entry.kind, entry.data)
            except (ValueError, Refused) as exc:  # the log is the truth: cannot happen
                log.error("table %s: entry %d does not fold: %s", self.public_id, entry.seq,
                          exc)
                return
            fresh += self._absorb(folded)
            self.active = self.clock.time()
        if fresh:
            self.turns.deadline = clock if active is None else self.derived_deadline(active)
            self.tell(fresh)
            self.advanced.notify_all()

    def derived_deadline(self, since: float) -> tuple[int, float, float] | None:
        """The turn's deadline as the owner set it (``schedule``) when it committed the
        last entry, at ``since``: a copy that read the log shows its clients the same
        countdown, give or take the commit's milliseconds."""
        slot = self.current
        if (slot is None or slot.session.is_over or (seat := slot.session.to_move) is None
                or self.seq >= self.settings.max_entries or self.seats[seat].bot is not None
                or (seconds := self.turn_seconds) is None):
            return None
        return (seat, since + seconds, seconds)

    async def _catch_up_locked(self, seats: bool = True) -> None:
        entries, active = await self.store.call(self.cluster.leases.load_log_since,
                                                self.row.pk, self.seq)
        self._apply_locked(entries, active=active)
        self.stale = False  # as long as the log
        if seats:
            await self.refresh_seats()

    async def _read_back(self) -> None:
        """(an owner whose write's outcome is unknown: ``Table.settle``)"""
        await self._catch_up_locked()
        self.turns.schedule()

    async def catch_up(self) -> None:
        async with self.lock:
            if self.token is None:
                await self._catch_up_locked()

    async def prepare_socket(self, since: int = -1) -> None:
        """A socket is about to be added (under the lock): a follower's copy with no
        socket here yet reads what the log holds beyond it first (it folded nothing
        published meanwhile, or its owner stopped publishing: nobody followed), so the
        socket's first state is the log's present one. A copy already followed is as
        current as its other sockets' (a reconnection storm after a failover costs no
        read per socket), unless the socket has seen more than it (it comes from a dead
        owner, which committed and told it what it never published): then it reads the
        log, so that its client is not shown an older state (and asked for the action it
        made already). One read: seats are published to every worker whatever it
        follows."""
        if self.token is None and (self.stale or not self.clients
                                   or since >= len(self.events)):
            await self._catch_up_locked(seats=False)

    def socket_added(self) -> None:
        if self.token is None and len(self.clients) == 1:  # the first here: tell the owner
            self.cluster.watch(self)
            # (a game over needs no owner: a rematch asked here takes the lease here)
            if self.cluster.config.lease_follows_sockets and (self.playing or not self.games):
                self.cluster.want(self)

    async def follow(self, first: int, entries: list[list[Any]],
                     clock: tuple[int, float, float] | None,
                     seats: str | None = None) -> None:
        """Entries the owner committed and published, numbered from ``first``; ``seats``:
        the digest of the owner's seats then (``seats_digest``)."""
        async with self.lock:
            if self.token is not None or first + len(entries) <= self.seq:
                return
            if not self.clients:  # nobody here listens: the log has it when one does
                self.stale = True
                return
            if seats is not None and seats != seats_digest(self.seats):
                # A seat changed hands and its message was lost: read the seats before a
                # word of these entries reaches a socket of the seat's former holder.
                await self.refresh_seats()
            if first > self.seq:  # a gap: what was missed is in the log
                await self._catch_up_locked()
                return
            self._apply_locked([LogEntry(first + i, kind, data)
                                for i, (kind, data) in enumerate(entries)], clock)

    def seat_changed(self, row: SeatRow) -> None:
        if self.token is None and 0 <= row.seat < len(self.seats):
            self.seats[row.seat] = row
            self.audience.evict_former_holders()
            self.audience.announce()

    async def refresh_seats(self) -> None:
        seats = await self.store.call(self.store.load_seats, self.row.pk)
        if seats != self.seats:
            self.seats = seats
            self.audience.evict_former_holders()
            self.audience.announce()

    async def wait_events(self, count: int) -> None:
        """Until this copy holds ``count`` events (a relayed command's)."""
        if len(self.events) >= count:
            return
        if not self.clients:  # not folding what is published: the log has them
            await self.catch_up()
            return
        try:
            async with self.advanced:
                await asyncio.wait_for(
                    self.advanced.wait_for(lambda: len(self.events) >= count), RELAY_SECONDS)
        except TimeoutError:  # the published entries were lost: the log has them
            await self.catch_up()

    # commands: run here by the owner, relayed to it by a follower

    async def _command(self, name: str, args: dict[str, Any],
                       here: Callable[[], Awaitable[T]],
                       relayed: Callable[[dict[str, Any]], Awaitable[T]],
                       recover: Callable[[int], Awaitable[T | None]] | None = None) -> T:
        if self.retired:  # (a copy unloaded meanwhile must not take the lease again)
            raise Refused("unavailable", "the table was being unloaded: try again", 503)
        before = len(self.events)
        relayed_once = False
        try:
            for _ in range(4):
                if self.token is not None:
                    try:
                        done = await here()
                    except Refused as exc:
                        if exc.code != NOT_OWNER and await self._still_owner():
                            raise
                        continue  # lost the lease meanwhile: relay to the new owner
                    if self.games and not self.playing:  # (a leave, a rematch refused)
                        self.cluster.let_go(self)
                    return done
                if SERVING.get() is self:  # (see SERVING)
                    raise Refused(NOT_OWNER, "not the owner", 503)
                relayed_once = True
                reply = await self.cluster.relay(self, name, args)
                if reply is not None:
                    return await relayed(reply)
        except Refused as exc:
            # No answer (Redis or the owner went away), or an answer from a new owner
            # that finds the action no longer legal: an owner that died after committing
            # it (its answer lost) made it already. The log says whether it did.
            if not relayed_once or recover is None or exc.code not in AFTER_A_LOST_ANSWER:
                raise
            with self.store.health.as_unavailable():
                await self.catch_up()
            if (found := await recover(before)) is not None:
                return found
            raise
        raise unavailable("the table is moving between servers: try again")

    async def act(self, seat: int, text: str, holder: str,
                  done: Callable[[list[Numbered]], None] | None = None,
                  arrived: float | None = None,
                  key: str | int | None = None) -> list[Numbered]:
        async def relayed(reply: dict[str, Any]) -> list[Numbered]:
            await self.wait_events(reply["last"] + 1)
            return [Numbered(reply["first"], None, "", reply["action"]),
                    Numbered(reply["last"], None, "")]

        async def recover(before: int) -> list[Numbered] | None:
            if key is not None:  # the log has it with this client's key, or it was not made
                return self.made_already(seat, key)
            for wire in self.events_since(seat, before - 1):
                event = json.loads(wire)
                if event["event"]["type"] == "action" and event["event"]["seat"] == seat:
                    return [Numbered(event["n"], None, "", event["event"]["action"]),
                            Numbered(len(self.events) - 1, None, "")]
            return None

        # The owner checks ``holder`` against its seats (the truth), whatever this copy
        # knows: a socket whose seat changed hands can never act for the new holder.
        return await self._command("act", {"seat": seat, "text": text, "key": key,
                                           "holder": holder},
                                   lambda: super(ClusterTable, self).act(seat, text, holder,
                                                                         done, arrived, key),
                                   relayed,
                                   recover)

    async def contribute(self, seat: int, value: Any, holder: str) -> list[Numbered]:
        async def relayed(reply: dict[str, Any]) -> list[Numbered]:
            await self.wait_events(reply["events"])
            return []

        return await self._command("contribute", {"seat": seat, "value": value,
                                                  "holder": holder},
                                   lambda: super(ClusterTable, self).contribute(seat, value,
                                                                                holder),
                                   relayed)

    async def join(self, name: str, seat: int | None,
                   player_id: str | None = None) -> tuple[int, str]:
        async def relayed(reply: dict[str, Any]) -> tuple[int, str]:
            self.seat_changed(SeatRow(*reply["row"]))
            return int(reply["seat"]), str(reply["token"])

        return await self._command("join", {"name": name, "seat": seat, "player": player_id},
                                   lambda: super(ClusterTable, self).join(name, seat,
                                                                          player_id),
                                   relayed)

    async def leave(self, seat: int, holder: str) -> None:
        await self._command("leave", {"seat": seat, "holder": holder},
                            lambda: super(ClusterTable, self).leave(seat, holder),
                            self._seat_relayed)

    async def start(self, rematch: bool, check: Callable[[Table], None] | None = None) -> int:
        # A follower's start is relayed without ``check``: the owner's lobby applies its
        # own quota of bot-only games.
        async def relayed(reply: dict[str, Any]) -> int:
            await self.wait_events(reply["events"])
            return int(reply["game"])

        return await self._command("start", {"rematch": rematch},
                                   lambda: super(ClusterTable, self).start(rematch, check),
                                   relayed)

    async def set_options(self, changes: dict[str, Any]) -> list[Numbered]:
        async def relayed(reply: dict[str, Any]) -> list[Numbered]:
            await self.wait_events(reply["events"])
            return []

        return await self._command("options", {"options": changes},
                                   lambda: super(ClusterTable, self).set_options(changes),
                                   relayed)

    def share(self, message: dict[str, Any]) -> None:
        self.cluster.publish_moment(self, message)
    async def answer_rematch(self, seat: int | None, holder: str | None, accept: bool,
                             check: Callable[[Table], None] | None = None) -> int | None:
        async def relayed(reply: dict[str, Any]) -> int | None:
            await self.wait_events(reply["events"])
            return None if reply["game"] is None else int(reply["game"])

        return await self._command(
            "rematch", {"seat": seat, "holder": holder, "accept": accept},
            lambda: super(ClusterTable, self).answer_rematch(seat, holder, accept, check),
            relayed)

    async def resign(self, seat: int, holder: str) -> None:
        await self._command("resign", {"seat": seat, "holder": holder},
                            lambda: super(ClusterTable, self).resign(seat, holder),
                            self._seat_relayed)

    async def remove_seat(self, seat: int) -> None:
        await self._command("remove_seat", {"seat": seat},
                            lambda: super(ClusterTable, self).remove_seat(seat),
                            self._seat_relayed)

    async def _seat_relayed(self, reply: dict[str, Any]) -> None:
        """A seat change the owner made: this copy's seats at once, then its events."""
        self.seat_changed(SeatRow(*reply["row"]))
        await self.wait_events(reply["events"])


class ClusterLobby(Lobby):
    """The lobby of one worker: its tables are :class:`ClusterTable`; a table is owned by
    whoever loads it first (or creates it), followed by the others."""

    cluster: Coordinator

    def _new_table(self, row: TableRow, seats: list[SeatRow]) -> Table:
        return ClusterTable(row, seats, self.store, self.settings, self.clock,
                            self.runner_for(row), self.cluster)

    async def _loaded(self, table: Table) -> None:
        """A table read from the log: if its game is in play, this worker owns it if its
        lease is free (and carries it on), else follows it. A table with no game in
        play needs no owner: a command takes the lease (``Coordinator.relay``)."""
        assert isinstance(table, ClusterTable)
        if not table.playing:
            return
        await self.cluster.given_up(table.row.pk)  # (this worker's copy that just left)
        token = await self.store.call(self.cluster.leases.acquire, table.row.pk,
                                      self.cluster.may_claim())
        if token is not None:
            await table.promote(token)
        elif table.row.active is not None:  # a follower: the owner's turn clock
            table.turns.deadline = table.derived_deadline(table.row.active)

    def _game_ended(self, table: Table) -> None:
        super()._game_ended(table)
        if isinstance(table, ClusterTable):
            self.cluster.let_go(table)  # nothing is due: a rematch takes the lease again

    def unload_unused(self) -> list[str]:
        for table in self.tables():  # (a command that left a game over owned: a leave,
            # a rematch refused)
            if table.owner and table.games and not table.playing and not table.lock.locked():
                self.cluster.let_go(table)
        return super().unload_unused()

    def _drop(self, table: Table) -> None:
        if isinstance(table, ClusterTable):
            self.cluster.let_go(table)
        super()._drop(table)

    async def create(self, game: str, config: dict[str, Any], bots: list[str | None],
                     address: str | None = None) -> tuple[Table, str]:
        # The per-minute quota of an address counts in every worker (the balancer
        # spreads its requests); this worker's own count is kept too, never stricter.
        reserved = None
        if address is not None:
            reserved = await self.cluster.reserve_table(address,
                                                        self.settings.tables_per_minute)
        try:
            table, host_token = await super().create(game, config, bots, address)
        except BaseException:
            if reserved is not None and address is not None:  # not a creation
                await self.cluster.refund_table(address, reserved)
            raise
        assert isinstance(table, ClusterTable)
        token = await self.store.call(self.cluster.leases.acquire, table.row.pk)
        if token is not None:  # a new table: nobody else knows it yet
            table.token = token
            table.watched = time.monotonic() + self.cluster.watch_seconds
            self.cluster.lease_changed("acquired", table)
        return table, host_token

    async def get(self, table_id: str) -> Table:
        table = await super().get(table_id)
        if isinstance(table, ClusterTable) and table.token is None:
            if table.stale:
                await table.catch_up()  # the seats too
            else:
                await table.refresh_seats()  # a seat taken through another worker
        return table

    async def shared_bot_games(self, address: str | None) -> tuple[int, int]:
        return await self.cluster.bot_games_elsewhere(address)

    async def start_game(self, table: Table, rematch: bool) -> int:
        game = await super().start_game(table, rematch)
        if table.bots_only:  # the other workers count it from now on
            await self.cluster.publish_bot_games()
        return game

    async def answer_rematch(self, table: Table, seat: int | None, holder: str | None,
                             accept: bool) -> int | None:
        game = await super().answer_rematch(table, seat, holder, accept)
        if game is not None and table.bots_only:  # (as ``start_game``)
            await self.cluster.publish_bot_games()
        return game

    async def invited(self, invite: str) -> Table:
        table = await super().invited(invite)
        if isinstance(table, ClusterTable) and table.token is None:
            await table.refresh_seats()
        return table

    def tables(self) -> list[ClusterTable]:
        return [t for t in self.by_id.values() if isinstance(t, ClusterTable)]


class Coordinator:
    """One worker's side of the cluster: leases, the Redis listener, relays."""

    def __init__(self, config: ClusterConfig, store: Store, metrics: Metrics | None) -> None:
        self.config = config
        self.me = config.worker
        self.store = store
        self.metrics = metrics
        self.leases = Leases(store, self.me, config.lease_seconds)
        self.log = FencedLog(store, self.me)
        self.health = store.health
        self.health.probes.append(self.log.ping)
        if metrics is not None:
            self.log.waited = functools.partial(metrics.observe_phase, "pool")
            self.log.retried = lambda outcome: metrics.commit_retries.labels(outcome).inc()
        self.redis = redis_client(config.redis_url)
        # The subscription on a connection of its own, never silently re-made: when it
        # breaks, the listener knows that messages were missed (and reads the log).
        self._subscriber = redis_client(config.redis_url, retries=0)
        self.quotas = SharedQuotas(self.redis, self.me)
        self._watch = self.redis.register_script(_WATCH)
        self.lobby: ClusterLobby | None = None
        self._inbox = f"usotsuki:w:{self.me}"
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        # Relayed commands this worker ran (request id -> when, its answer): a follower
        # that heard no answer asks again with the same id and gets the same answer;
        # the command never runs twice here.
        self._served: dict[str, tuple[float, asyncio.Future[dict[str, Any]]]] = {}
        self._ids = itertools.count()
        self._holders: dict[int, str] = {}  # table pk -> the owner that last answered
        self._wanted: set[int] = set()  # tables whose lease this worker is asking for
        self._watching: set[int] = set()  # tables whose owner is being told we follow
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._handlers: set[asyncio.Task[None]] = set()
        self.listening = False  # subscribed to Redis now (readiness)
        self._behind: dict[int, int] = {}  # follower copies behind the log at the last check
        self._behind_known = False  # False after a (re)subscription: catch up at once
        # The leases held (table pk -> token), kept by the loop, renewed by a thread of
        # its own: a busy event loop (or a full store pool) cannot delay a renewal.
        self.owned: dict[int, int] = {}
        # When a renewal (or the claim) last confirmed each lease (monotonic seconds).
        self.confirmed: dict[int, float] = {}
        # Lease statements (claims, look-ups, hand-overs) in threads of their own: after
        # a failover, hundreds of reconnecting sockets load tables through the store's
        # threads, and the claims of the dead worker's tables waited behind them all.
        self._lease_threads = ThreadPoolExecutor(LEASE_THREADS,
                                                 thread_name_prefix="usotsuki-leases")
        self._renewer: threading.Thread | None = None
        self._stopping = threading.Event()
        self._giving_up: dict[int, asyncio.Task[None]] = {}  # table pk -> ``give_up``

    async def lease_call(self, method: Callable[..., T], *args: Any) -> T:
        """Run a blocking lease statement in the lease threads and await its result."""
        return await asyncio.get_running_loop().run_in_executor(
            self._lease_threads, functools.partial(method, *args))

    def holding(self, table_pk: int, token: int | None) -> None:
        """This worker holds the table's lease with ``token`` now (None: no longer)."""
        if token is None:
            self.owned.pop(table_pk, None)
            self.confirmed.pop(table_pk, None)
        else:
            self.owned[table_pk] = token
            self.confirmed[table_pk] = time.monotonic()

    def lease_doubtful(self, table_pk: int) -> bool:
        """No renewal confirmed the table's lease for a lease period (this worker was
        paused, or cut off from the database): another worker may have taken it and
        played on, so this copy may be behind the log."""
        confirmed = self.confirmed.get(table_pk, 0.0)
        return time.monotonic() - confirmed > self.config.lease_seconds

    def lobby_for(self, store: Store, settings: Settings, clock: Clock,
                  runner: BotRunner | None = None) -> ClusterLobby:
        lobby = ClusterLobby(store, settings, clock, runner)
        lobby.cluster = self
        lobby.listings.shared_count = self.count_watchers
        self.lobby = lobby
        if self.metrics is not None:
            self.metrics.count_tables("loaded", lambda: len(lobby.by_id))
            self.metrics.count_tables("in_play", lobby.in_play)
            self.metrics.count_tables("owned", lambda: len(self.owned))
            self.metrics.count_tables("follower", lambda: sum(
                1 for t in lobby.tables() if not t.owner))
        return lobby

    def let_go(self, table: ClusterTable) -> None:
        """Give the table's lease up for good, if this worker holds it (nothing is in
        play, or the table leaves memory): a follower copy from now on, renewed by
        nobody, claimed by nobody; a later command takes the lease again (``relay``)."""
        token = table.token
        if token is None:
            return
        table.demote("nothing in play", "released")
        pk = table.row.pk

        async def give_up() -> None:
            try:
                await self.lease_call(self.leases.give_up, pk, token)
            except Exception as exc:  # the database away: the lease runs out instead (a
                # claim of it finds nothing in play and gives it up: ``_adopt``)
                log.warning("lease of table %s not given up: %s", table.public_id, exc)

        task = asyncio.ensure_future(give_up())
        self._giving_up[pk] = task
        task.add_done_callback(
            lambda done: self._giving_up.pop(pk, None) if self._giving_up.get(pk) is done
            else None)

    async def given_up(self, table_pk: int) -> None:
        """Once the lease this worker is giving up on the table (if any) is given up."""
        task = self._giving_up.get(table_pk)
        if task is not None:
            await asyncio.shield(task)

    # lifecycle

    async def start(self) -> None:
        await self.log.open()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._send()),
                       loop.create_task(self._tick_forever(), name=TICK_TASK)]
        self.start_renewer()
        log.info("worker %s joined the cluster", self.me)

    def start_renewer(self) -> None:
        """Start the thread that renews this worker's leases (part of ``start``)."""
        self._stopping.clear()
        self._renewer = threading.Thread(target=self._renew_forever,
                                         args=(asyncio.get_running_loop(),),
                                         name="usotsuki-leases", daemon=True)
        self._renewer.start()

    async def close(self) -> None:
        """Leave the cluster (a drain's last step: the sockets are closed already). The
        leases are released while relayed commands are still heard here: each is then
        answered "not the owner", and its follower takes the table at once."""
        self._stopping.set()
        if self._renewer is not None:
            await asyncio.to_thread(self._renewer.join)
            self._renewer = None
        for task in self._tasks:  # the tick first: it would claim the leases back
            if task.get_name() == TICK_TASK:
                await self._cancel(task)
        if self.lobby is not None:
            owned = [t for t in self.lobby.tables() if t.owner]
            for t in owned:
                t.demote("at shutdown", "released")
            with contextlib.suppress(Exception):
                await self.store.call(self.leases.release, [t.row.pk for t in owned])
        for task in self._tasks:  # the listener and the publisher
            await self._cancel(task)
        for client in (self.redis, self._subscriber):
            with contextlib.suppress(Exception):
                await client.aclose()
        await self.log.close()
        self._lease_threads.shutdown(wait=True)
        self.leases.close()

    @staticmethod
    async def _cancel(task: asyncio.Task[None]) -> None:
        if task.done():
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task

    # publishing (ordered, never blocking a table: a lost message is found in the log)

    def publish_entries(self, table: Table, first: int, entries: list[list[Any]],
                        clock: tuple[int, float, float] | None) -> None:
        self._outbox.put_nowait((LOG_CHANNEL, encode(
            {"t": table.public_id, "seq": first, "entries": entries, "clock": clock,
             "seats": seats_digest(table.seats), "by": self.me})))

    def publish_seat(self, table: Table, row: SeatRow) -> None:
        self._outbox.put_nowait((LOG_CHANNEL, json.dumps(
            {"t": table.public_id,
             "seat": [row.seat, row.name, row.token_hash, row.bot, row.player_id],
             "by": self.me}, separators=(",", ":"))))

    def publish_moment(self, table: Table, message: dict[str, Any]) -> None:
        """A chat line or reaction, for the table's sockets on the other workers (not
        logged: one lost with Redis is in the chat's history, read on reconnection)."""
        self._outbox.put_nowait((LOG_CHANNEL, encode(
            {"t": table.public_id, "moment": message, "by": self.me})))

    async def _send(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < PUBLISH_BATCH:
                batch.append(self._outbox.get_nowait())
            try:  # what piled up meanwhile goes in one round trip, in order
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, message in batch:
                        pipe.publish(channel, message)
                    await pipe.execute()
            except (RedisError, OSError) as exc:
                self._redis_failed("publish", exc)

    def _redis_failed(self, what: str, exc: BaseException) -> None:
        if self.metrics is not None:
            self.metrics.redis_errors.inc()
        log.warning("redis %s failed: %s: %s", what, type(exc).__name__, exc)

    # the listener: entries for followers, relayed commands and their replies

    async def _listen(self) -> None:
        while True:
            pubsub = self._subscriber.pubsub()
            try:
                await pubsub.subscribe(LOG_CHANNEL, self._inbox)
                self.listening = True
                self._behind_known = False
                self._spawn(self._check_followers())  # what was published while away
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True,
                                                       timeout=1.0)
                    if message is not None and message["type"] == "message":
                        self._dispatch(message["channel"], message["data"])
            except (RedisError, OSError) as exc:
                self.listening = False
                self._redis_failed("subscription", exc)
                with contextlib.suppress(Exception):  # no stale connection is reused
                    await self._subscriber.connection_pool.disconnect()
                await asyncio.sleep(0.2)
            finally:
                self.listening = False
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._handlers.add(task)
        task.add_done_callback(self._handlers.discard)

    def _dispatch(self, channel: bytes, data: bytes) -> None:
        if data.startswith(LOG_PREFIX) and self.lobby is not None:
            # Most entries are of tables nobody here watches (every worker hears every
            # table's): the id is read first, the message parsed only if need be.
            end = data.find(b'"', len(LOG_PREFIX))
            table = self.lobby.by_id.get(data[len(LOG_PREFIX):end].decode(errors="replace"))
            if not isinstance(table, ClusterTable):
                return
            if (not table.clients and not table.lock.locked() and table.token is None
                    and b'"entries":' in data):
                table.stale = True  # as ``follow`` would (no socket here, no command)
                return
        try:
            try:
                message = orjson.loads(data)
            except ValueError:  # (orjson refuses a lone surrogate's escape)
                message = json.loads(data)
        except ValueError:
            log.warning("unreadable message on %r", channel)
            return
        if channel.decode() != LOG_CHANNEL:
            if message.get("op") == "reply":
                future = self._replies.pop(message.get("id", ""), None)
                if future is not None and not future.done():
                    future.set_result(message)
            elif message.get("op") == "request":
                self._spawn(self._serve(message))
            elif message.get("op") == "watch":  # a follower still has sockets there
                until = time.monotonic() + self.watch_seconds
                for table_id in message.get("t", ()):
                    table = self.lobby.by_id.get(table_id) if self.lobby else None
                    if isinstance(table, ClusterTable) and table.token is not None:
                        table.watched = max(table.watched, until)
            return
        if message.get("by") == self.me or self.lobby is None:
            return
        table = self.lobby.by_id.get(message.get("t", ""))
        if not isinstance(table, ClusterTable):
            return  # nobody here watches that table
        if "seat" in message:
            table.seat_changed(SeatRow(*message["seat"]))
        elif "moment" in message:
            moments.deliver(table, message["moment"])
        elif "watchers" in message:  # another worker's spectators came or went
            table.watching_elsewhere = sum(int(n) for worker, n in message["watchers"].items()
                                           if worker != self.me)
            table.audience.announce()
        else:
            clock = message.get("clock")
            self._spawn(table.follow(message["seq"], message["entries"],
                                     None if clock is None else (int(clock[0]),
                                                                 float(clock[1]),
                                                                 float(clock[2])),
                                     message.get("seats")))

    # relaying a follower's command to the owner

    async def relay(self, table: ClusterTable, command: str,
                    args: dict[str, Any]) -> dict[str, Any] | None:
        """The owner's answer to ``command`` (raises its ``Refused``), or None when this
        worker has just become the owner (the caller runs the command itself).

        An owner that cannot be reached (the publish failed, nobody was subscribed to its
        channel, or no answer came) is asked again, the owner looked up afresh each time,
        for at most ``relay_seconds`` in all: a Redis restart or a table moving between
        workers is not a player's problem. Every ask carries the same id, so an owner
        that ran the command already answers again without running it twice."""
        ref = f"{self.me}:{next(self._ids)}"
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.relay_seconds
        pause = 0.05
        pk = table.row.pk
        while True:
            if table.token is not None:
                return None
            # The owner last heard from is asked first (a database round trip saved per
            # command); any failure looks it up afresh.
            known = self._holders.get(pk)
            holder = ((known, 0, None) if known is not None
                      else await self.lease_call(self.leases.holder_until, pk))
            reply: dict[str, Any] | None = None
            if holder is None or holder[0] == self.me:
                token = await self.lease_call(self.leases.acquire, table.row.pk,
                                              self.may_claim())
                if token is not None:
                    await table.promote(token)
                    return None
            elif self.listening:  # (else its answer could not be heard: wait)
                wait = min(self.config.lease_seconds, give_up - loop.time())
                reply = await self._ask(holder[0], ref, table.public_id, command, args,
                                        max(wait, 0.1))
            if reply is UNHEARD and holder is not None and holder[2] is not None:
                # Nobody listens on the owner's channel: it died (or is subscribing
                # again). Its lease can be taken only once it expires: asked again then
                # (a lease at most), not every few milliseconds (a dead worker's hundreds
                # of tables each looked it up meanwhile, beside the tick's claims).
                self._holders.pop(pk, None)
                until = max(pause, min(holder[2], self.config.lease_seconds))
                if loop.time() + until < give_up:
                    self._count_relay("retried")
                    await asyncio.sleep(until)
                    continue
                reply = None
            if reply is not None and reply is not UNHEARD and reply.get("code") != NOT_OWNER:
                assert holder is not None
                self._holders[pk] = holder[0]
                if "error" in reply:
                    code = reply["code"]
                    self._count_relay(code if code in ("unavailable", "internal")
                                      else "refused")
                    raise Refused(code, reply["error"], reply.get("status", 400),
                                  reply.get("params"), reply.get("retry_after"))
                self._count_relay("done")
                ok: dict[str, Any] = reply["ok"]
                return ok
            self._holders.pop(pk, None)
            if loop.time() + pause >= give_up:
                self._count_relay("failed")
                raise unavailable("the table's server cannot be reached now: try again")
            self._count_relay("retried")
            await asyncio.sleep(pause)
            pause = min(2 * pause, 0.4)

    @property
    def relay_seconds(self) -> float:
        """How long a relayed command may wait for its table's owner: long enough for a
        dead owner's lease to expire and the table to move (lease, grace, a tick), and
        for a starved owner (its lease renewed by its thread) to answer late. Set from
        the lease, not measured: 4 leases and a second."""
        return 4 * self.config.lease_seconds + 1.0

    async def _ask(self, owner: str, ref: str, table_id: str, command: str,
                   args: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        """Send the request to ``owner``: its answer; ``UNHEARD`` if nobody is subscribed
        to its channel; None if Redis failed or no answer came within ``timeout``."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[ref] = future
        try:
            heard = await self.redis.publish(f"usotsuki:w:{owner}", json.dumps(
                {"op": "request", "id": ref, "from": self.me, "t": table_id,
                 "command": command, "args": args}))
            if not heard:  # its subscription is being re-made, or it died
                return UNHEARD
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:  # (an OSError too: caught first) busy, paused or cut off
            return None
        except (RedisError, OSError) as exc:
            self._redis_failed("relay", exc)
            return None
        finally:
            self._replies.pop(ref, None)

    async def _serve(self, request: dict[str, Any]) -> None:
        """Run a command relayed to this worker (the owner), once per request id, and
        answer it (again, if the follower asks again)."""
        ref = str(request.get("id", ""))
        now = time.monotonic()
        while self._served:  # forget old answers (oldest first: insertion order)
            oldest = next(iter(self._served))
            if self._served[oldest][0] > now - SERVED_SECONDS:
                break
            del self._served[oldest]
        if ref in self._served:
            answer = await asyncio.shield(self._served[ref][1])
        else:
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self._served[ref] = (now, future)
            answer = {"error": "the table's server is stopping: try again",
                      "code": "unavailable", "status": 503,
                      "retry_after": RETRY_AFTER}  # if cancelled (shutdown)
            try:
                answer = await self._answer(request)
            finally:
                future.set_result(answer)
                if answer.get("code") in (NOT_OWNER, "unavailable"):  # not run: a later
                    self._served.pop(ref, None)  # ask may find this worker the owner
        with contextlib.suppress(RedisError, OSError):
            await self.redis.publish(f"usotsuki:w:{request['from']}", json.dumps(
                {"op": "reply", "id": ref, **answer}))

    async def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            return {"ok": await self._run(request)}
        except Exception as exc:
            if not isinstance(exc, Refused) and unreachable(exc):  # (a read, not a write)
                self.store.health.failed(exc)
                exc = unavailable()
            if isinstance(exc, Refused):
                answer: dict[str, Any] = {"error": exc.message, "code": exc.code,
                                          "status": exc.status, "params": exc.params}
                if exc.retry_after is not None:
                    answer["retry_after"] = exc.retry_after
                return answer
            # never leave the follower waiting for nothing
            log.exception("relayed %s failed", request.get("command"))
            return {"error": f"internal error: {type(exc).__name__}", "code": "internal",
                    "status": 500}

    async def _run(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.lobby is not None
        table = self.lobby.by_id.get(request["t"])
        if not isinstance(table, ClusterTable) or table.token is None:
            raise Refused(NOT_OWNER, "not the owner", 503)
        SERVING.set(table)  # (this task's own context: it ends with the request)
        args, command = request["args"], request["command"]
        if command == "act":
            fresh = await table.act(int(args["seat"]), args["text"], str(args["holder"]),
                                    key=args.get("key"))
            return {"first": fresh[0].n, "last": fresh[-1].n, "action": fresh[0].action}
        if command == "contribute":
            await table.contribute(int(args["seat"]), args["value"], str(args["holder"]))
            return {"events": len(table.events)}
        if command == "join":
            player = args.get("player")
            seat, token = await table.join(str(args["name"]), args["seat"],
                                           None if player is None else str(player))
            row = table.seats[seat]
            return {"seat": seat, "token": token,
                    "row": [row.seat, row.name, row.token_hash, row.bot, row.player_id]}
        if command in ("leave", "resign", "remove_seat"):
            seat = int(args["seat"])
            if command == "leave":
                await table.leave(seat, str(args["holder"]))
            elif command == "resign":
                await table.resign(seat, str(args["holder"]))
            else:
                await table.remove_seat(seat)
            row = table.seats[seat]
            return {"row": [row.seat, row.name, row.token_hash, row.bot, row.player_id],
                    "events": len(table.events)}
        if command == "rematch":
            seat, holder = args["seat"], args["holder"]
            game = await self.lobby.answer_rematch(
                table, None if seat is None else int(seat),
                None if holder is None else str(holder), bool(args["accept"]))
            return {"game": game, "events": len(table.events)}
        if command == "start":
            game = await self.lobby.start_game(table, bool(args["rematch"]))
            return {"game": game, "events": len(table.events)}
        if command == "options":
            await table.set_options(dict(args["options"]))
            return {"events": len(table.events)}
        if command == "handover":
            return {"token": await table.hand_over(str(args["to"]))}
        if command == "watch":
            table.watched = max(table.watched, time.monotonic() + self.watch_seconds)
            return {}
        raise Refused("bad_request", f"unknown relayed command {command!r}")

    # followers watching: the owner publishes a table's entries only while some
    # follower has sockets at it

    @property
    def watch_seconds(self) -> float:
        """How long an owner publishes a table's entries after a follower last said it
        follows it (every ``CHECK_EVERY`` ticks, a third of a lease each): set from the
        lease, not measured: four leases."""
        return 4 * self.config.lease_seconds

    def watch(self, table: ClusterTable) -> None:
        """A socket reached this follower: make sure the owner publishes the table's
        entries (it may have stopped: nobody followed), then read what the log got
        meanwhile (committed before the owner heard: not published)."""
        if table.row.pk in self._watching:
            return
        self._watching.add(table.row.pk)

        async def first() -> None:
            # Asked once (a dead or moving owner is not waited for: after a failover
            # the new owner publishes at first, and the periodic check reads the log).
            try:
                owner = self._holders.get(table.row.pk)
                if owner is None:
                    holder = await self.lease_call(self.leases.holder, table.row.pk)
                    owner = None if holder is None else holder[0]
                if owner is None or owner == self.me or not self.listening:
                    return
                reply = await self._ask(owner, f"{self.me}:{next(self._ids)}",
                                        table.public_id, "watch", {},
                                        self.config.lease_seconds)
            finally:
                self._watching.discard(table.row.pk)
            if reply is not None and "ok" in reply:
                self._holders[table.row.pk] = owner
                await table.catch_up()

        self._spawn(first())

    # leases following the sockets (``lease_follows_sockets``)

    def want(self, table: ClusterTable) -> None:
        """A socket reached this follower: ask the owner for the table's lease, which it
        gives if it has no socket there (a balancer routing by table sends them all
        here: commands and views need no relay then). At most one ask at a time."""
        if table.row.pk in self._wanted:
            return
        self._wanted.add(table.row.pk)
        self._spawn(self._want(table))

    async def _want(self, table: ClusterTable) -> None:
        try:
            reply = await self.relay(table, "handover", {"to": self.me})
        except Refused:  # the owner cannot be reached: it keeps the table
            return
        finally:
            self._wanted.discard(table.row.pk)
        if reply is not None and reply.get("token") is not None:
            await table.promote(int(reply["token"]))

    # leases: renewed, lost, and a dead worker's taken

    async def _tick_forever(self) -> None:
        period = self.config.lease_seconds / 3
        for tick in itertools.count():
            started = time.monotonic()
            try:
                await self._tick(tick)
            except Exception as exc:  # the database away: try again next period
                if unreachable(exc):
                    self.health.failed(exc)
                log.warning("lease tick failed: %s", exc)
            await asyncio.sleep(max(0.05, period - (time.monotonic() - started)))

    def _renew_forever(self, loop: asyncio.AbstractEventLoop) -> None:
        """The renewer thread: every ``ttl / 4`` s, all of this worker's leases in one
        statement; those another worker took are handed to the loop to drop. While the
        database is away every lease is kept (its writes fail meanwhile, and fencing
        refuses them if another worker took the table): once it is back, the renewal
        finds them untaken, as nobody claims a lease for a lease period after the
        database returns (``_tick``)."""
        cpu = None if self.metrics is None else self.metrics.thread_cpu.labels("leases")
        while not self._stopping.wait(self.config.lease_seconds / 4):
            held = dict(self.owned)
            started = time.thread_time()
            try:
                kept = self.leases.renew(held)
                if held:  # (a statement ran: the database answered)
                    self.health.answered()
                    renewed = time.monotonic()
                    for pk in kept:
                        if pk in self.owned:
                            self.confirmed[pk] = renewed
            except Exception as exc:  # the database away: leases kept, see above
                if unreachable(exc):
                    self.health.failed(exc)
                log.warning("lease renewal failed: %s", exc)
                continue
            finally:
                if cpu is not None:
                    cpu.inc(time.thread_time() - started)
            lost = {pk: token for pk, token in held.items() if kept.get(pk) != token}
            if lost:
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    loop.call_soon_threadsafe(self._lost, lost)

    def _lost(self, lost: dict[int, int]) -> None:
        if self.lobby is None:
            return
        for table in self.lobby.tables():
            if table.token is not None and lost.get(table.row.pk) == table.token:
                table.demote("taken")

    async def _tick(self, tick: int) -> None:
        assert self.lobby is not None
        await self._alive()
        since = time.time() - self.lobby.settings.idle_seconds
        # With the lease following the sockets, a dead worker's table whose people
        # reconnected is taken by the worker they reached, as soon as its lease may be
        # (``relay``): the tick leaves it a lease period first. Else both took it at
        # once, waiting on each other's locks in the database (seen after a SIGKILL),
        # and the table then moved a second time, to its sockets.
        later = self.config.lease_seconds if self.config.lease_follows_sockets else 0.0
        if self.may_claim():
            taken = await self.lease_call(self.leases.claim_orphans, ORPHANS_PER_TICK,
                                          since, later, list(self.owned))
            for pk, token in taken.items():
                self._count_claim()
                self._spawn(self._adopt(pk, token))
        await self.publish_bot_games()
        if tick % CHECK_EVERY == 0:
            await self._check_followers()
            if self.metrics is not None:
                self.metrics.orphans.set(await self.lease_call(self.leases.count_orphans,
                                                               since))

    def may_claim(self) -> bool:
        """Whether this worker may take expired leases of others: not until the database
        has answered for a whole lease. After an outage every lease has expired; their
        owners, alive, renew them first (a renewal succeeds while nobody took it)."""
        return self.health.steady(self.config.lease_seconds)

    async def _adopt(self, table_pk: int, token: int) -> None:
        """Carry on a table whose owner died (its lease is ours now)."""
        assert self.lobby is not None
        table = next((t for t in self.lobby.tables() if t.row.pk == table_pk), None)
        if table is not None:
            if table.token != token:
                await table.promote(token)
            if not table.playing:  # (its game ended before its owner could say so)
                self.let_go(table)
            return
        row = await self.lease_call(table_row, self.store, table_pk)
        if row is None:
            return
        log.info("worker %s takes table %s (token %d)", self.me, row.public_id, token)
        with contextlib.suppress(Refused):  # expired meanwhile: its lease lapses
            await self.lobby._load(row)  # loads it, finds the lease ours, promotes it
        loaded = self.lobby.by_id.get(row.public_id)
        if not isinstance(loaded, ClusterTable) or loaded.token != token:
            # Nothing in play (not promoted), or expired: nobody needs the lease.
            await self.lease_call(self.leases.give_up, table_pk, token)

    async def _check_followers(self) -> None:
        if self.lobby is None:
            return
        # (a copy without sockets here reads the log when it is used again)
        followed = {t.row.pk: t for t in self.lobby.tables() if t.token is None and t.clients}
        if not followed:
            return
        known = await self.lease_call(self.leases.followed, list(followed))
        behind = {pk: followed[pk].seq for pk, (length, _) in known.items()
                  if length > followed[pk].seq}
        # Each owner hears which of its tables this worker still follows: it publishes
        # their entries (one message per owner).
        owners: dict[str, list[str]] = {}
        for pk, (_, owner) in known.items():
            if owner is not None and owner != self.me:
                owners.setdefault(owner, []).append(followed[pk].public_id)
        for owner, ids in owners.items():
            self._outbox.put_nowait((f"usotsuki:w:{owner}", json.dumps(
                {"op": "watch", "t": ids}, separators=(",", ":"))))
        for pk, seq in behind.items():
            # Published entries are often just on their way: read the log only for a
            # copy that has not moved since the last check (or after a reconnection).
            if self._behind.get(pk) == seq or not self._behind_known:
                self._spawn(followed[pk].catch_up())
        self._behind, self._behind_known = behind, True

    # per-address quotas, shared by the workers (each would count only its own share)

    async def reserve_table(self, address: str, limit: int) -> str | None:
        """Count a new table against ``address``'s per-minute quota in every worker:
        the reservation's id (to refund it), or None when Redis cannot be reached (the
        worker's own count decides alone). Raises ``Refused`` past the quota."""
        member = f"{self.me}:{next(self._ids)}"
        try:
            allowed, wait = await self.quotas.reserve(address, limit, member)
        except (RedisError, OSError) as exc:
            self._redis_failed("quota", exc)
            return None
        if not allowed:
            seconds = max(1, math.ceil(wait))
            raise Refused("too_many_tables", f"at most {limit} new tables a minute from one "
                          f"address: try again in {seconds} s", 429,
                          {"max": limit, "wait": seconds})
        return member

    async def reserve_request(self, token_id: str, limit: int) -> tuple[bool, float] | None:
        """Count a bot token's request against its per-minute rate in every worker:
        (allowed, seconds to wait if not), or None when Redis cannot be reached (the
        worker's own count decides alone)."""
        try:
            return await self.quotas.reserve(token_id, limit, f"{self.me}:{next(self._ids)}",
                                             bucket="api")
        except (RedisError, OSError) as exc:
            self._redis_failed("quota", exc)
            return None

    async def refund_table(self, address: str, member: str) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self.quotas.refund(address, member)

    async def open_socket(self, address: str, cap: int) -> bool | None:
        try:
            return await self.quotas.open(address, cap)
        except (RedisError, OSError) as exc:
            self._redis_failed("quota", exc)
            return None

    async def close_socket(self, address: str) -> None:
        try:
            await self.quotas.close(address)
        except (RedisError, OSError) as exc:
            self._redis_failed("quota", exc)

    async def publish_bot_games(self) -> None:
        """Tell the other workers which games of bots only this worker plays (each entry
        lives three leases unless renewed: a dead worker's games stop counting)."""
        if self.lobby is None:
            return
        until = time.time() + 3 * self.config.lease_seconds
        mine = {t.public_id: t.row.creator for t in self.lobby.tables()
                if t.owner and t.bots_only and t.playing and not t.parked}
        try:
            known = await self.redis.hgetall(BOT_GAMES)
            over = [table_id for table_id, entry in known.items()
                    if json.loads(entry)[0] == self.me and _text(table_id) not in mine]
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id, creator in mine.items():
                    pipe.hset(BOT_GAMES, table_id, json.dumps([self.me, creator, until]))
                if over:
                    pipe.hdel(BOT_GAMES, *over)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            self._redis_failed("bot games", exc)

    async def bot_games_elsewhere(self, address: str | None) -> tuple[int, int]:
        """Games of bots only the other live workers play: (all, ``address``'s)."""
        try:
            known = await self.redis.hgetall(BOT_GAMES)
        except (RedisError, OSError) as exc:
            self._redis_failed("bot games", exc)
            return 0, 0  # this worker's own count decides alone
        now, total, theirs, expired = time.time(), 0, 0, []
        for table_id, entry in known.items():
            worker, creator, until = json.loads(entry)
            if until < now:
                expired.append(table_id)
            elif worker != self.me:
                total += 1
                theirs += address is not None and creator == address
        if expired:
            with contextlib.suppress(RedisError, OSError):
                await self.redis.hdel(BOT_GAMES, *expired)
        return total, theirs

    async def count_watchers(self, table: Table, here: int) -> int:
        """Set this worker's spectators of ``table`` to ``here``; every live worker's
        total back. The counts go to the other workers too: their copies tell their
        players, and the table's writer lists the total in the lobby."""
        found = await self._watch(keys=[WATCHERS + table.public_id],
                                  args=[self.me, here, ALIVE])
        counts = {_text(found[i]): int(found[i + 1]) for i in range(0, len(found), 2)}
        self._outbox.put_nowait((LOG_CHANNEL, json.dumps(
            {"t": table.public_id, "watchers": counts, "by": self.me},
            separators=(",", ":"))))
        return sum(counts.values())

    async def _alive(self) -> None:
        """Say this worker lives (its sockets count in the shared quotas); a dead
        worker's count is dropped once its key expires."""
        ttl = max(1, math.ceil(3 * self.config.lease_seconds))
        with contextlib.suppress(RedisError, OSError):
            await self.quotas.alive(ttl)

    # metrics

    def lease_changed(self, change: str, table: Table, why: str = "") -> None:
        self._count_lease(change)
        log.info("lease %s: table %s %s", change, table.public_id, why)

    def _count_lease(self, change: str) -> None:
        if self.metrics is not None:
            self.metrics.leases.labels(change).inc()

    def _count_claim(self) -> None:
        if self.metrics is not None:
            self.metrics.claims.labels(self.me).inc()

    def _count_relay(self, outcome: str) -> None:
        if self.metrics is not None:
            self.metrics.relayed.labels(outcome).inc()

    async def ready(self) -> bool:
        """Redis answers and this worker is subscribed (else it is degraded: its own
        tables go on, relays and the followers' copies wait)."""
        try:
            return bool(await self.redis.ping()) and self.listening
        except (RedisError, OSError):
            return False
