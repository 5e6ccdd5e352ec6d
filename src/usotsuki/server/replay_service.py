"""Replay frames served without stalling the tables.

Building frames is CPU work proportional to a record's length: it runs as one task in a
worker process (:mod:`usotsuki.server.worker_service`: deadline, memory bound, cache,
shared jobs, ``busy`` past ``pending`` jobs).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from usotsuki.server.replay import work
from usotsuki.server.worker_service import Answer, Job, MiB, WorkerService


@dataclass(frozen=True)
class ReplayLimits:
    workers: int = 1  # processes building frames (the machine's other cores stay free)
    deadline: float = 5.0  # seconds one replay may run before its worker is killed
    memory: int = 256 * MiB  # address space a worker may add to what it holds at start
    pending: int = 8  # jobs queued or running; more are answered 503 busy
    cache_bytes: int = 64 * MiB  # answers kept, least recently used dropped first

    # A replay is answered in the request that asks (seconds at most): it never waits
    # in a queue, nor ends for want of being asked again.
    queued: int = 0
    abandoned: float = math.inf

    @property
    def jobs(self) -> int:
        return self.pending

    @property
    def per_requester(self) -> int:
        return self.pending


class ReplayService(WorkerService[Job]):
    noun = "replay"
    task_name = "the replay"
    busy_message = b"the server is replaying other records: try again soon"

    def __init__(self, limits: ReplayLimits | None = None,
                 run: Callable[[bytes], Answer] = work) -> None:
        super().__init__(limits or ReplayLimits())
        self._run = run

    async def answer(self, key: Hashable, raw: Callable[[], bytes]) -> Answer:
        """The frames for ``key``; ``raw`` gives the record's JSON when not cached."""
        found = self._find(key, raw, Job)
        if isinstance(found, tuple):
            return found
        assert found.task is not None
        # Shielded: a client that goes away does not cancel the others' shared job.
        return await asyncio.shield(found.task)

    async def _compute(self, job: Job, raw: bytes) -> Answer:
        answer: Answer = await asyncio.wrap_future(self._schedule(job, self._run, raw))
        return answer
