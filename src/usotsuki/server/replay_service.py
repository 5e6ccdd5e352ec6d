"""Replay frames served without stalling the tables.

Building frames is CPU work proportional to a record's length: it runs in worker
processes (pebble's pool: it kills a worker past its deadline and starts another), never
on the event loop, so the games' GIL stays free. Each worker has an address-space bound
and a lower priority. Answers are cached (finished games never change; a posted record
by its digest), identical requests in flight share one job, and past ``pending`` jobs
the service answers ``busy`` at once instead of queueing without end.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import CancelledError, TimeoutError
from dataclasses import dataclass
from typing import Any

from pebble import ProcessExpired, ProcessPool

from usotsuki.server.replay import limit_worker, work


def limited_pool(workers: int, memory: int) -> ProcessPool:
    """Worker processes bounded in memory and niced below the server (``limit_worker``).
    Spawned, not forked: a fork of a server with threads and an event loop is unsafe."""
    return ProcessPool(max_workers=workers, initializer=limit_worker, initargs=(memory,),
                       context=multiprocessing.get_context("spawn"))


MiB = 1024 * 1024


@dataclass(frozen=True)
class ReplayLimits:
    workers: int = 1  # processes building frames (the machine's other cores stay free)
    deadline: float = 5.0  # seconds one replay may run before its worker is killed
    memory: int = 256 * MiB  # address space a worker may add to what it holds at start
    pending: int = 8  # jobs queued or running; more are answered 503 busy
    cache_bytes: int = 64 * MiB  # answers kept, least recently used dropped first


Answer = tuple[int, str, bytes]  # (status, error code or "", body or message)


class ReplayService:
    def __init__(self, limits: ReplayLimits | None = None,
                 run: Callable[[bytes], Answer] = work) -> None:
        self.limits = limits or ReplayLimits()
        self._run = run
        self._pool: ProcessPool | None = None
        self._cache: OrderedDict[Hashable, Answer] = OrderedDict()
        self._cached = 0
        self._jobs: dict[Hashable, asyncio.Task[Answer]] = {}

    @staticmethod
    def key_of(raw: bytes) -> Hashable:
        return ("record", hashlib.sha256(raw).hexdigest())

    async def answer(self, key: Hashable, raw: Callable[[], bytes]) -> Answer:
        """The frames for ``key``; ``raw`` gives the record's JSON when not cached."""
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        job = self._jobs.get(key)
        if job is None:
            if len(self._jobs) >= self.limits.pending:
                return 503, "busy", b"the server is replaying other records: try again soon"
            job = asyncio.get_running_loop().create_task(self._compute(raw()))
            self._jobs[key] = job
            job.add_done_callback(lambda task: self._done(key, task))
        # Shielded: a client that goes away does not cancel the others' shared job.
        return await asyncio.shield(job)

    def _done(self, key: Hashable, task: asyncio.Task[Answer]) -> None:
        self._jobs.pop(key, None)
        if task.cancelled() or task.exception() is not None:
            return
        answer = task.result()
        if answer[1] == "busy":
            return
        self._cache[key] = answer
        self._cached += len(answer[2])
        while self._cached > self.limits.cache_bytes and self._cache:
            _, dropped = self._cache.popitem(last=False)
            self._cached -= len(dropped[2])

    async def _compute(self, raw: bytes) -> Answer:
        future = self._workers().schedule(self._run, (raw,), timeout=self.limits.deadline)
        try:
            return await asyncio.wrap_future(future)
        except TimeoutError:
            return 413, "too_costly", (f"the replay took more than {self.limits.deadline:g} s "
                                       "and was stopped").encode()
        except (ProcessExpired, MemoryError):  # killed, e.g. past its memory bound
            return 413, "too_costly", b"the replay needs more than a replay may use"
        except CancelledError:
            return 503, "busy", b"the replay was interrupted: try again"

    def _workers(self) -> ProcessPool:
        if self._pool is None:
            self._pool = limited_pool(self.limits.workers, self.limits.memory)
        return self._pool

    def close(self) -> None:
        for job in self._jobs.values():
            job.cancel()
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]
            self._pool.join()
            self._pool = None

    def stats(self) -> dict[str, Any]:
        return {"cached": len(self._cache), "cached_bytes": self._cached,
                "jobs": len(self._jobs)}
