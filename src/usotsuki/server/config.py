"""The server's settings, its clock, and the refusal every command may answer."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Protocol

from usotsuki.rulebook import cited


class Refused(Exception):
    """A command that cannot be done: a clear message, and nothing changed."""

    def __init__(self, code: str, message: str, status: int = 400,
                 params: dict[str, Any] | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        # The message's variable parts, so that a page can say it in its own language.
        self.params = params or {}
        # Set on a retryable refusal (``unavailable``): seconds to wait before the same
        # command (an action with the same ``key``) is sent again.
        self.retry_after = retry_after


def cited_rules(message: str) -> dict[str, Any]:
    """A refusal's ``params`` for a rules core's message that cites rule codes:
    ``{"rules": ["B5", "B7"]}`` (a page links each to the rules page), else ``{}``."""
    codes = cited(message)
    return {"rules": codes} if codes else {}


class Clock(Protocol):
    """Time for timers, quotas and expiry; tests inject one they move by hand."""

    def sleep(self, seconds: float) -> Awaitable[None]: ...
    def time(self) -> float:
        """Seconds since the epoch (kept in the store: it must survive a restart)."""
        ...


class RealClock:
    def sleep(self, seconds: float) -> Awaitable[None]:
        return asyncio.sleep(seconds)

    def time(self) -> float:
        return time.time()


DEFAULT_LIAR_TURN_LIMIT = 1000
"""L11 turn limit of a live Liar Game whose host set none: no game can be made endless."""


@dataclass
class Settings:
    bot_delay: float = 0.8
    reveal_pause: float = 4.0  # a bot waits this many bot_delays after a challenge or doubt
    turn_seconds: float | None = None
    deal_seed: int | None = None  # tests and demos only: predictable deals
    # People's clients contribute to each game's deal for this long at most (from its
    # start): 0 deals at once, with no contribution (``usotsuki serve`` waits 5 s).
    contribute_seconds: float = 0.0
    # bots: a bounded pool of worker processes, a deadline per decision
    bot_workers: int = 1
    bot_deadline: float = 5.0
    bot_nice: int = 10  # bots yield the CPU to the event loop's process
    bot_warm: bool = False  # start the bot workers with the server (serve does)
    bot_idle: bool = True  # Linux: bots get only CPU time nobody else wants (SCHED_IDLE)
    # quotas against abuse by one client address
    tables_per_minute: int = 10  # tables one client address may create per minute
    open_tables: int = 20  # tables of one address that have not expired
    bot_tables: int = 4  # bot-only games being played at once, over all addresses
    bot_tables_per_address: int = 2  # ... of which one address's tables may play
    # the arena of outside bots (arena.py): its tables at once over the cluster (0: no
    # arena), and their turn clock
    arena_tables: int = 4
    arena_turn_seconds: float = 10.0
    idle_seconds: float = 24 * 3600.0  # a table without any command this long expires
    sweep_seconds: float = 60.0  # how often expired and unused tables are unloaded
    # A table with no socket here and nothing due (no bot or turn clock timed, no game of
    # bots only waiting for room) leaves memory (and gives its lease up) once unused this
    # long: a game in play after ``unload_seconds``, any other table (a game over, none
    # started, another worker's) after ``linger_seconds``. A later use loads it again.
    unload_seconds: float = 600.0
    linger_seconds: float = 60.0
    rematch_seconds: float = 120.0  # a rematch offer lapses unless all accept by then
    # An expired table's log is compacted into its games' records this long after it
    # expired (retention.py); None: kept forever.
    retention_seconds: float | None = None
    compact_seconds: float = 3600.0  # how often a compaction pass runs
    compact_tables: int = 1000  # tables compacted at most per pass
    liar_turn_limit: int = DEFAULT_LIAR_TURN_LIMIT
    max_turn_limit: int = 10_000  # the largest turn_limit a host may ask for
    max_entries: int = 50_000  # log entries (deals and actions) of one table, all games
    spectator_batch: float = 1.0  # seconds between spectator-count announcements
    listing_batch: float = 0.5  # a table's changes are written to its lobby listing so late
    lobby_feed_seconds: float = 1.0  # the lobby's live feed: one frame a second at most
    events_in_memory: int = 2000  # the event stream's uncompressed tail (up to 1.5x)
    # login throttling (throttle.py): failed password checks allowed per window
    login_window: float = 900.0  # seconds
    login_failures_per_account: int = 10
    login_failures_per_address: int = 100  # a school's or a carrier's NAT holds many
    guests_per_address: int = 1000  # new guests (first visits) per login window
    # outside bots' API tokens (bot_auth.py): requests a minute each (its default and
    # most), live tokens an account may hold
    token_per_minute: int = 120
    tokens_per_account: int = 20
