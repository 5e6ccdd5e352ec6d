"""CPU work on records (replays, reviews) served without stalling the tables.

The work runs in worker processes (pebble's pool: it kills a worker past its deadline and
starts another), never on the event loop, so the games' GIL stays free. Each worker has
an address-space bound and a lower priority. What :class:`WorkerService` shares between
the replay and the review services:

- answers cached by key, least recently used dropped first past ``cache_bytes`` (a
  finished game never changes; a posted record is keyed by its digest);
- identical requests in flight share one job;
- ``jobs`` jobs run at once; later ones wait in a queue (first come, first served) and
  their answer says their place in it; past ``queued`` waiting the answer is ``busy``;
- one requester (a client address) has at most ``per_requester`` jobs running or waiting:
  a share of the service, never all of it;
- a job nobody has asked about for ``abandoned`` seconds is dropped (waiting) or stopped
  (running): its work is bought by asking, not by one request;
- a worker stopped (deadline, memory) or interrupted becomes an answer, never an error.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import multiprocessing
import os
import resource
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Hashable
from concurrent.futures import CancelledError, Future, TimeoutError
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from pebble import ProcessExpired, ProcessPool

MiB = 1024 * 1024

Answer = tuple[int, str, bytes]  # (status, error code or "", body or message)
Submit = Callable[..., "Future[Any]"]


def limit_worker(memory: int) -> None:
    """Worker initializer: at most ``memory`` bytes of address space beyond what the
    worker holds now, and a lower CPU priority than the game server."""
    with open("/proc/self/status") as status:
        size = next(int(line.split()[1]) * 1024 for line in status
                    if line.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (size + memory, size + memory))
    os.nice(10)


TASKS_PER_WORKER = 64
"""A worker is replaced after this many tasks: one that replayed a long record keeps its
peak memory (CPython seldom gives it back), so a burst's memory returns within some
tasks instead of never; a spawn (about a second) every 64 tasks costs little."""


def limited_pool(workers: int, memory: int) -> ProcessPool:
    """Worker processes bounded in memory and niced below the server (``limit_worker``),
    each replaced after ``TASKS_PER_WORKER`` tasks. Spawned, not forked: a fork of a
    server with threads and an event loop is unsafe."""
    return ProcessPool(max_workers=workers, max_tasks=TASKS_PER_WORKER,
                       initializer=limit_worker, initargs=(memory,),
                       context=multiprocessing.get_context("spawn"))


class Limits(Protocol):
    @property
    def workers(self) -> int: ...  # processes
    @property
    def deadline(self) -> float: ...  # seconds one task may run before its worker is killed
    @property
    def memory(self) -> int: ...  # address space a worker may add to what it holds at start
    @property
    def jobs(self) -> int: ...  # jobs in progress at once; more are answered 503 busy
    @property
    def cache_bytes(self) -> int: ...  # answers kept
    @property
    def queued(self) -> int: ...  # jobs waiting for a place; more are answered 503 busy
    @property
    def per_requester(self) -> int: ...  # jobs one requester has running or waiting
    @property
    def abandoned(self) -> float: ...  # seconds without a request after which a job ends


@dataclass
class Job:
    """One piece of work in progress: its task, and the worker futures it waits on
    (cancelled when it ends, so that a stopped job leaves no task queued)."""

    task: asyncio.Task[Answer] | None = None  # None while it waits for a place
    futures: list[Future[Any]] = field(default_factory=list)
    requester: str | None = None  # who asked first (a client address)
    asked: float = 0.0  # when it was last asked about (monotonic seconds)
    raw: bytes = b""  # its input, while it waits


J = TypeVar("J", bound=Job)


class WorkerService(Generic[J]):
    """Jobs by key, each run by :meth:`_compute` in the worker pool; see the module."""

    noun: ClassVar[str]  # "replay", "review": in the answers' messages
    task_name: ClassVar[str]  # what one worker task is, for the deadline's message
    busy_message: ClassVar[bytes]
    # Answers that are not the record's fault: not cached, so that a later request tries
    # again.
    retried: ClassVar[tuple[str, ...]] = ("busy",)

    def __init__(self, limits: Limits, submit: Submit | None = None) -> None:
        self.limits = limits
        self._submit = submit  # tests: run the work elsewhere than in processes
        self._pool: ProcessPool | None = None
        self._cache: OrderedDict[Hashable, Answer] = OrderedDict()
        self._cached = 0
        self._jobs: dict[Hashable, J] = {}  # running or waiting, in the order asked
        self.clock: Callable[[], float] = time.monotonic  # (tests move it by hand)

    @staticmethod
    def key_of(raw: bytes) -> Hashable:
        return ("record", hashlib.sha256(raw).hexdigest())

    def _find(self, key: Hashable, raw: Callable[[], bytes],
              new_job: Callable[[], J], requester: str | None = None) -> Answer | J:
        """The cached answer for ``key``, its job (running or waiting), a new job (``raw``
        gives the record's JSON), or a refusal (``busy``, or the requester's share)."""
        self._forget_abandoned()
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        job = self._jobs.get(key)
        if job is not None:
            job.asked = self.clock()
            return job
        if requester is not None and sum(
                j.requester == requester for j in self._jobs.values()) >= \
                self.limits.per_requester:
            return 429, "too_many_jobs", (
                f"one address may have {self.limits.per_requester} {self.noun}s "
                f"running or waiting at once: wait for yours to end").encode()
        waiting = sum(j.task is None for j in self._jobs.values())
        if self._running() >= self.limits.jobs and waiting >= self.limits.queued:
            return 503, "busy", self.busy_message
        job = self._jobs[key] = new_job()
        job.requester, job.asked, job.raw = requester, self.clock(), raw()
        self._start_waiting()
        return job

    def place(self, job: J) -> int | None:
        """A waiting job's place in the queue (1: next), None once it runs."""
        if job.task is not None:
            return None
        waiting = [j for j in self._jobs.values() if j.task is None]
        return waiting.index(job) + 1

    def _running(self) -> int:
        return sum(j.task is not None for j in self._jobs.values())

    def _start_waiting(self) -> None:
        """Start waiting jobs, first asked first, while places are free."""
        for key, job in list(self._jobs.items()):
            if self._running() >= self.limits.jobs:
                return
            if job.task is None:
                raw, job.raw = job.raw, b""
                job.task = asyncio.get_running_loop().create_task(self._guarded(job, raw))
                job.task.add_done_callback(functools.partial(self._done, key))

    def _forget_abandoned(self) -> None:
        """Jobs nobody asked about lately end: waiting ones are dropped, running ones
        stopped (their places go to others)."""
        old = self.clock() - self.limits.abandoned
        for key, job in list(self._jobs.items()):
            if job.asked < old:
                if job.task is None:
                    del self._jobs[key]
                else:
                    job.task.cancel()

    def _compute(self, job: J, raw: bytes) -> Coroutine[Any, Any, Answer]:
        """The job's answer, from tasks scheduled with :meth:`_schedule`."""
        raise NotImplementedError

    async def _guarded(self, job: J, raw: bytes) -> Answer:
        try:
            return await self._compute(job, raw)
        except TimeoutError:
            return 413, "too_costly", (f"{self.task_name} took more than "
                                       f"{self.limits.deadline:g} s and was stopped").encode()
        except BrokenProcessPool:  # killed before pebble saw its task start: no worker
            self._drop_pool()  # takes tasks in a broken pool, the next job makes a new one
            return 413, "too_costly", (f"the {self.noun} needs more than a {self.noun} "
                                       "may use").encode()
        except (ProcessExpired, MemoryError):  # killed, e.g. past its memory bound
            return 413, "too_costly", (f"the {self.noun} needs more than a {self.noun} "
                                       "may use").encode()
        except CancelledError:
            return 503, "busy", f"the {self.noun} was interrupted: try again".encode()
        finally:
            for future in job.futures:
                future.cancel()

    def _schedule(self, job: J, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        if self._submit is not None:
            future: Future[Any] = self._submit(fn, *args)
        else:
            future = self._workers().schedule(fn, args, timeout=self.limits.deadline)
        job.futures.append(future)
        return future

    def _done(self, key: Hashable, task: asyncio.Task[Answer]) -> None:
        if (job := self._jobs.get(key)) is not None and job.task is task:
            del self._jobs[key]
        self._start_waiting()
        if task.cancelled() or task.exception() is not None:
            return
        answer = task.result()
        if answer[1] in self.retried:
            return
        self._cache[key] = answer
        self._cached += len(answer[2])
        while self._cached > self.limits.cache_bytes and self._cache:
            _, dropped = self._cache.popitem(last=False)
            self._cached -= len(dropped[2])

    def _workers(self) -> ProcessPool:
        if self._pool is None:
            self._pool = limited_pool(self.limits.workers, self.limits.memory)
        return self._pool

    def _drop_pool(self) -> None:
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]
            self._pool.join()
            self._pool = None

    def close(self) -> None:
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()
        self._drop_pool()

    def stats(self) -> dict[str, Any]:
        return {"cached": len(self._cache), "cached_bytes": self._cached,
                "jobs": self._running(), "waiting": len(self._jobs) - self._running()}
