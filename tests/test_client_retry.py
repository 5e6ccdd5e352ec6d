"""The reference client's backoff (``usotsuki.client.retry``): full jitter under a
doubling ceiling, the server's hint honoured (capped), and the point where it gives up."""

from __future__ import annotations

import asyncio
import random

from usotsuki.client import Backoff, RetryPolicy


def test_full_jitter_stays_under_a_doubling_ceiling() -> None:
    policy = RetryPolicy(base=0.25, cap=8.0, rng=random.Random(1))
    for attempt in range(12):
        ceiling = min(8.0, 0.25 * 2 ** attempt)
        delays = [policy.delay(attempt) for _ in range(200)]
        assert all(0.0 <= d <= ceiling for d in delays)
        assert max(delays) > 0.8 * ceiling and min(delays) < 0.2 * ceiling  # spread out


def test_the_servers_hint_sets_the_pace_and_is_capped() -> None:
    policy = RetryPolicy(base=0.25, cap=8.0, max_hint=60.0, rng=random.Random(2))
    assert all(1.5 <= policy.delay(0, 1.5) <= 1.75 for _ in range(100))  # jitter: 0.25
    late = [policy.delay(10, 1.0) for _ in range(200)]  # the jitter held to the hint
    assert all(1.0 <= d <= 2.0 for d in late) and max(late) > 1.8
    assert all(60.0 <= policy.delay(3, 3600.0) <= 62.0 for _ in range(100))


def test_it_gives_up_after_its_attempts_and_starts_again_after_a_success() -> None:
    policy = RetryPolicy(base=0.0, cap=0.0, attempts=3, give_up_after=60.0)
    backoff = Backoff(policy)

    async def failures() -> list[bool]:
        return [await backoff.wait() for _ in range(3)]

    assert asyncio.run(failures()) == [True, True, False]
    backoff.reset()
    assert asyncio.run(backoff.wait())


def test_it_gives_up_after_its_time() -> None:
    now = [0.0]
    backoff = Backoff(RetryPolicy(base=0.0, cap=0.0, attempts=100, give_up_after=10.0),
                      clock=lambda: now[0])
    assert asyncio.run(backoff.wait())
    now[0] = 10.0
    assert not asyncio.run(backoff.wait())
