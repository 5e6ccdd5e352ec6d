"""Requests waiting at a worker for what another worker writes (a seat made, a challenge
answered): one read every period for all of them, rather than a read per request."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from usotsuki.server.config import Clock
from usotsuki.server.health import unreachable

log = logging.getLogger(__name__)

T = TypeVar("T")


async def watch_forever(clock: Clock, every: float, waiting: Callable[[], list[str]],
                        read: Callable[[list[str]], Awaitable[Iterable[T]]],
                        wake: Callable[[T], None], what: str) -> None:
    """Every ``every`` seconds, while some keys are ``waiting``: ``read`` what changed
    for them and ``wake`` each. A failed read is skipped (the database away: the waits'
    own deadlines end them); ``what`` names the waits in the log."""
    while True:
        await clock.sleep(every)
        keys = waiting()
        if not keys:
            continue
        try:
            changed = await read(keys)
        except Exception as exc:
            if not unreachable(exc):
                log.exception("%s could not be read", what)
            continue
        for item in changed:
            wake(item)
