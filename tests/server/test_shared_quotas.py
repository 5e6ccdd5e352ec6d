"""Per-address quotas counted by all the workers of a cluster together (issue 16), on a
real redis-server, with the time given by the test: nothing here depends on how fast the
machine is (the creation window is the quota's clock, not the wall clock)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cluster_helpers import Redis

from usotsuki.server.cluster import ALIVE, WINDOW, SharedQuotas, redis_client

LIMIT = 6


def test_quotas_count_in_every_worker(tmp_path: Path) -> None:
    server = Redis(tmp_path)
    try:
        asyncio.run(_check(server.url))
    finally:
        server.stop()


async def _check(url: str) -> None:
    redis = redis_client(url)
    now = [1000.0]
    workers = [SharedQuotas(redis, f"w{i}", lambda: now[0]) for i in range(3)]
    address = "198.51.100.23"
    try:
        # Tables: LIMIT in the window in all, whichever worker each creation reaches.
        for i in range(LIMIT):
            assert await workers[i % 3].reserve(address, LIMIT, f"w{i % 3}:{i}") == (True, 0.0)
            now[0] += 1
        for i, w in enumerate(workers):
            allowed, wait = await w.reserve(address, LIMIT, f"late{i}")
            assert not allowed and wait == WINDOW - LIMIT  # until the first one is a minute old
        await workers[2].refund(address, "w1:1")  # a creation that failed gives its place back
        assert (await workers[0].reserve(address, LIMIT, "again"))[0]
        assert not (await workers[1].reserve(address, LIMIT, "late"))[0]
        now[0] = 1000.0 + WINDOW + 0.5  # the first creation has left the window: one place
        assert (await workers[1].reserve(address, LIMIT, "next"))[0]
        assert not (await workers[2].reserve(address, LIMIT, "late"))[0]
        assert (await workers[2].reserve("198.51.100.99", LIMIT, "other"))[0]  # per address

        # WebSockets open at once: the cap in all the workers together.
        for w in workers:
            await w.alive(3600)
        for i in range(4):
            assert await workers[i % 3].open(address, 4)  # w0 has 2, w1 and w2 one each
        assert not any([await w.open(address, 4) for w in workers])
        await workers[1].close(address)  # a closed one no longer counts, on any worker
        assert await workers[2].open(address, 4)
        assert not await workers[0].open(address, 4)
        # A dead worker (its key expired: deleted here) no longer counts its sockets.
        await redis.delete(f"{ALIVE}w0")
        assert await workers[1].open(address, 4) and await workers[1].open(address, 4)
        assert not await workers[2].open(address, 4)
    finally:
        await redis.aclose()
