"""Bot tokens' request rates: each token may make ``per_minute`` requests in any 60
seconds. A server with Redis (a cluster) counts them in Redis, for all its workers
together; without it (one process), or while Redis cannot be reached, each worker counts
its own.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable

from usotsuki.server.cluster import WINDOW, Coordinator
from usotsuki.server.config import Refused

FORGET_AFTER = 10_000  # tokens counted here before the idle ones' counts are dropped


class LocalRates:
    """Sliding windows of requests per token, in this worker's memory."""

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        self._seen: dict[str, deque[float]] = {}

    def reserve(self, token_id: str, limit: int) -> tuple[bool, float]:
        """Count a request if under ``limit``: (True, 0); else (False, seconds until
        the oldest leaves the window)."""
        now = self.now()
        if len(self._seen) > FORGET_AFTER:
            self._seen = {k: w for k, w in self._seen.items() if w and w[-1] > now - WINDOW}
        window = self._seen.setdefault(token_id, deque())
        while window and window[0] <= now - WINDOW:
            window.popleft()
        if len(window) >= limit:
            return False, window[0] + WINDOW - now
        window.append(now)
        return True, 0.0


class TokenRates:
    """The rate check of every bot token's request (``app.state.token_rates``)."""

    def __init__(self, now: Callable[[], float], cluster: Coordinator | None) -> None:
        self.local = LocalRates(now)
        self.cluster = cluster

    @property
    def shared(self) -> bool:
        """Whether the workers count together (Redis)."""
        return self.cluster is not None

    async def check(self, token_id: str, per_minute: int) -> None:
        """Count the request, or refuse it: 429 ``too_many_requests`` with
        ``Retry-After``."""
        counted = None if self.cluster is None else await self.cluster.reserve_request(
            token_id, per_minute)
        allowed, wait = counted if counted is not None else self.local.reserve(
            token_id, per_minute)
        if not allowed:
            seconds = max(1, math.ceil(wait))
            raise Refused("too_many_requests", f"this token may make {per_minute} requests "
                          f"a minute: try again in {seconds} s", 429,
                          {"max": per_minute, "wait": seconds}, retry_after=seconds)
