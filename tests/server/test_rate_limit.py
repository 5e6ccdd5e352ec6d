"""The WebSocket rate limit (a token bucket) on an injected clock: no sleeps, exact times."""

from __future__ import annotations

import time

from usotsuki.server.ws import RateLimit


class FakeClock:
    """Seconds that move only when the test says so."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def allowed(limit: RateLimit, messages: int) -> list[bool]:
    return [limit.allow() for _ in range(messages)]


def test_burst_then_refusal_at_one_instant() -> None:
    limit = RateLimit(per_second=2.0, burst=5.0, clock=FakeClock())
    assert allowed(limit, 7) == [True] * 5 + [False] * 2


def test_refill_at_the_rate_and_no_more() -> None:
    clock = FakeClock()
    limit = RateLimit(per_second=2.0, burst=5.0, clock=clock)
    assert allowed(limit, 5) == [True] * 5
    clock.advance(0.25)  # half a token: still refused (times exact in binary)
    assert allowed(limit, 1) == [False]
    clock.advance(0.25)  # one whole token (2 per second for 0.5 s)
    assert allowed(limit, 2) == [True, False]
    clock.advance(1.5)  # three tokens
    assert allowed(limit, 4) == [True, True, True, False]


def test_refusals_cost_nothing() -> None:
    clock = FakeClock()
    limit = RateLimit(per_second=1.0, burst=2.0, clock=clock)
    assert allowed(limit, 2) == [True, True]
    assert allowed(limit, 100) == [False] * 100  # a flood while empty borrows nothing
    clock.advance(1.0)
    assert allowed(limit, 2) == [True, False]


def test_refill_stops_at_the_burst() -> None:
    clock = FakeClock()
    limit = RateLimit(per_second=10.0, burst=3.0, clock=clock)
    assert allowed(limit, 3) == [True] * 3
    clock.advance(3600.0)  # an idle hour holds no more than one burst
    assert allowed(limit, 4) == [True, True, True, False]


def test_the_clock_starts_at_creation() -> None:
    clock = FakeClock(now=5.0)
    limit = RateLimit(per_second=1.0, burst=1.0, clock=clock)
    clock.advance(10.0)
    assert allowed(limit, 2) == [True, False]  # full at the start, capped at one burst


def test_default_clock_is_monotonic() -> None:
    assert RateLimit().clock is time.monotonic
