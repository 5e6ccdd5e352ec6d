"""When to try again: exponential backoff with full jitter, the server's hint first."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RetryPolicy:
    """Attempt ``k`` (from 0) waits a random time in [0, min(``cap``, ``base`` * 2**k)]
    ("full jitter": clients that failed together do not come back together). A server
    hint (``retry_after``, ``Retry-After``; at most ``max_hint``) sets the pace instead:
    the wait is the hint plus that jitter, the jitter held to the hint, so that clients
    come back within a hint or two of the server's return. After ``attempts`` failed
    attempts in a row, or ``give_up_after`` seconds since the first of them, the caller
    gives up (``GaveUp``)."""

    base: float = 0.25
    cap: float = 4.0
    max_hint: float = 60.0
    attempts: int = 40
    give_up_after: float = 120.0
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def delay(self, attempt: int, hint: float | None = None) -> float:
        ceiling = min(self.cap, self.base * 2 ** min(attempt, 30))
        if hint is None:
            return self.rng.uniform(0.0, ceiling)
        hint = min(max(hint, 0.0), self.max_hint)
        return hint + self.rng.uniform(0.0, min(ceiling, hint))


class Backoff:
    """The failures in a row of one thing (a connection, an action): ``wait`` sleeps
    before the next attempt, or returns False once the policy says give up; ``reset``
    after a success."""

    def __init__(self, policy: RetryPolicy,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy
        self.clock = clock
        self.failures = 0
        self.since: float | None = None

    def reset(self) -> None:
        self.failures = 0
        self.since = None

    async def wait(self, hint: float | None = None) -> bool:
        now = self.clock()
        if self.since is None:
            self.since = now
        self.failures += 1
        if (self.failures >= self.policy.attempts
                or now - self.since >= self.policy.give_up_after):
            return False
        await asyncio.sleep(self.policy.delay(self.failures - 1, hint))
        return True
