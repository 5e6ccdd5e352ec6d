"""Each bot's inbox of events (a seat found, a challenge), kept in ``bot_events``.

Whichever worker makes an event writes it (``push_event``); the bot reads its events
after the last number it saw (``GET /api/bot/events``), from any worker, waiting a while
for one (long poll). A wait is woken at once by an event this worker wrote, and within
``POLL_SECONDS`` by another worker's (one read for all the waits of a worker, as quick
match's status requests). Events are kept ``KEEP_SECONDS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from sqlalchemy import Engine, delete, func, insert, select, update

from usotsuki.server.bot_tables import arena_seeks, bot_events
from usotsuki.server.config import Clock
from usotsuki.server.health import unreachable
from usotsuki.server.store import Store
from usotsuki.server.watch import watch_forever

log = logging.getLogger(__name__)

POLL_SECONDS = 0.2  # waits look for other workers' events this often
KEEP_SECONDS = 86400.0  # an event is kept this long (a bot away longer misses it)
PURGE_SECONDS = 3600.0  # how often old events are deleted
READ_LIMIT = 100  # events given by one read at most (the bot reads on from ``next``)


# ---- the store's side (blocking; run in the store's threads) ----

def push_event(engine: Engine, player_id: str, body: dict[str, Any], now: float) -> int:
    """Add ``body`` (``{"type": ..., ...}``, docs/bots.md) to the player's inbox; its
    number."""
    text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    with engine.begin() as conn:
        key = conn.execute(insert(bot_events).values(
            player_id=player_id, created=now, body=text)).inserted_primary_key
    assert key is not None
    return int(key[0])


def events_after(engine: Engine, player_id: str, after: int,
                 limit: int = READ_LIMIT) -> list[dict[str, Any]]:
    """The player's events numbered above ``after``, oldest first: ``{"n", **body}``."""
    with engine.connect() as conn:
        rows = conn.execute(select(bot_events.c.pk, bot_events.c.body).where(
            bot_events.c.player_id == player_id, bot_events.c.pk > after)
            .order_by(bot_events.c.pk).limit(limit)).all()
    return [{"n": pk, **json.loads(body)} for pk, body in rows]


def newest_events(engine: Engine, player_ids: list[str]) -> dict[str, int]:
    """The number of each of these players' newest event (those that have one)."""
    with engine.connect() as conn:
        rows = conn.execute(select(bot_events.c.player_id, func.max(bot_events.c.pk))
                            .where(bot_events.c.player_id.in_(player_ids))
                            .group_by(bot_events.c.player_id)).all()
    return {player_id: int(pk) for player_id, pk in rows}


def mark_seek_seen(engine: Engine, player_id: str, now: float) -> None:
    """The bot polled: its arena seek (if any) stays alive."""
    with engine.begin() as conn:
        conn.execute(update(arena_seeks).where(arena_seeks.c.player_id == player_id)
                     .values(seen=now))


def purge_events(engine: Engine, before: float) -> int:
    """Delete the events made before ``before``; how many."""
    with engine.begin() as conn:
        return conn.execute(delete(bot_events).where(bot_events.c.created < before)).rowcount


# ---- the worker's side ----

class BotInbox:
    """The inboxes as one worker serves them (``app.state.bot_inbox``)."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        # player id -> the waits here: (the number each waits beyond, its event)
        self._waits: dict[str, list[tuple[int, asyncio.Event]]] = {}
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._watch()), loop.create_task(self._purge())]

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()

    async def notify(self, player_id: str, body: dict[str, Any]) -> int:
        """Store the event in the player's inbox, then wake their waits here; its
        number."""
        n = await self.store.call(push_event, self.store.engine, player_id, body,
                                  self.clock.time())
        self._wake(player_id, n)
        return n

    async def wait(self, player_id: str, after: int, seconds: float) -> list[dict[str, Any]]:
        """The player's events after ``after``; none yet: once one comes, or ``[]``
        after ``seconds``."""
        deadline = time.monotonic() + seconds
        event = asyncio.Event()
        waits = self._waits.setdefault(player_id, [])
        waits.append((after, event))
        try:
            while True:
                events = await self.store.call(events_after, self.store.engine, player_id,
                                               after)
                left = deadline - time.monotonic()
                if events or left <= 0:
                    return events
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), left)
                event.clear()
        finally:
            waits.remove((after, event))
            if not waits:
                self._waits.pop(player_id, None)

    def _wake(self, player_id: str, newest: int) -> None:
        for after, event in self._waits.get(player_id, ()):
            if newest > after:
                event.set()

    async def _watch(self) -> None:
        """Wake the waits here for which another worker wrote an event."""
        async def newest(player_ids: list[str]) -> list[tuple[str, int]]:
            found = await self.store.call(newest_events, self.store.engine, player_ids)
            return list(found.items())

        await watch_forever(self.clock, POLL_SECONDS, lambda: list(self._waits), newest,
                            lambda item: self._wake(*item), "bots' inboxes")

    async def _purge(self) -> None:
        while True:
            await self.clock.sleep(PURGE_SECONDS)
            try:
                await self.store.call(purge_events, self.store.engine,
                                      self.clock.time() - KEEP_SECONDS)
            except Exception as exc:  # the next pass tries again
                if not unreachable(exc):
                    log.exception("old bot events could not be deleted")
