"""Whether this worker reaches its database now, and what a client is told when it does
not: a retryable ``unavailable`` with a hint of when to try again (PROTOCOL.md), never an
internal error.

Every statement that fails on its connection says so here (``failed``; within
``as_unavailable`` the failure becomes the client's ``unavailable``); writes, renewals
and readiness checks that succeed say the database answers (``answered``). While it is
away, a probe asks every ``PROBE_SECONDS`` whether it is back (new WebSockets are
refused meanwhile: nothing could be played). A cluster's lease claims wait until it has
answered for a whole lease: owners renew their leases first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterator

import psycopg
import sqlalchemy.exc
from sqlalchemy import Engine, text

from usotsuki.server.config import Refused

log = logging.getLogger(__name__)

RETRY_AFTER = 1.0
"""Seconds a client waits before sending a command refused as ``unavailable`` again: a
fast restart of PostgreSQL takes about that long."""

PROBE_SECONDS = 0.5


def unavailable(why: str = "the database cannot be reached now: try again") -> Refused:
    return Refused("unavailable", why, 503, retry_after=RETRY_AFTER)


def unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database could not be used (a lost or refused connection,
    a server shutting down or starting up, no free connection in time, a statement
    cancelled or rolled back by the server), not that the statement was wrong."""
    if isinstance(exc, sqlalchemy.exc.DBAPIError):
        return exc.connection_invalidated or isinstance(exc, sqlalchemy.exc.OperationalError)
    return isinstance(exc, psycopg.OperationalError | sqlalchemy.exc.TimeoutError |
                      ConnectionError)


def ping(engine: Engine) -> None:
    """One statement on a connection of the engine's pool (blocking)."""
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


class DatabaseHealth:
    """Whether the database answers, as this worker last saw it (monotonic clock)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.down_since: float | None = None
        self.back_since = -math.inf  # when it last came back (never yet: steady)
        self.probes: list[Callable[[], Awaitable[None]]] = []  # each raises when away

    @property
    def reachable(self) -> bool:
        return self.down_since is None

    def steady(self, seconds: float) -> bool:
        """It has answered for ``seconds`` at least, without a failure."""
        return self.down_since is None and self.clock() - self.back_since >= seconds

    def failed(self, exc: BaseException) -> None:
        if self.down_since is None:
            self.down_since = self.clock()
            log.warning("the database cannot be reached: %s: %s", type(exc).__name__, exc)

    @contextlib.contextmanager
    def as_unavailable(self) -> Iterator[None]:
        """A failure to reach the database, within, is told here and raised as a
        retryable ``unavailable``."""
        try:
            yield
        except Exception as exc:
            if not unreachable(exc):
                raise
            self.failed(exc)
            raise unavailable() from exc

    def answered(self) -> None:
        if self.down_since is not None:
            log.warning("the database answers again after %.1f s",
                        self.clock() - self.down_since)
            self.down_since = None
            self.back_since = self.clock()

    async def watch(self) -> None:
        """While the database is away, probe it until every probe answers (a task of
        the app, for ever)."""
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            if self.down_since is None:
                continue
            try:
                for probe in self.probes:
                    await probe()
            except Exception as exc:  # still away (or a probe's own failure: next time)
                if not unreachable(exc):
                    log.warning("database probe failed: %s: %s", type(exc).__name__, exc)
                continue
            self.answered()
