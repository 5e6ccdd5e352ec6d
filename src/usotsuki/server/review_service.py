"""Game reviews (:mod:`usotsuki.analysis`) computed without stalling the tables.

A review runs the expert's search at every decision: seconds of CPU. It runs in worker
processes (pebble, as the replays do: an address-space bound, a lower priority, a deadline
per task), split into chunks of decisions so that the browser sees its progress and no
task runs long. At most ``running`` reviews are in progress at once; more are answered
``busy`` at once. Finished reviews are cached by key (a table's game, or a posted
record's digest): a finished game never changes, and the analysis is deterministic
(fixed seed and depth).

The input is bounded before any work, as for replays (size, depth, steps), and by
decisions (``MAX_DECISIONS``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import CancelledError, Future, TimeoutError
from dataclasses import dataclass, field
from typing import Any

from pebble import ProcessExpired, ProcessPool

from usotsuki.server.replay import NotReplayable, check_size, parse_record
from usotsuki.server.replay_service import limited_pool

MiB = 1024 * 1024
MAX_DECISIONS = 1500  # decisions in a reviewed record (about 2 min of one core at most)
CHUNK = 12  # decisions per worker task: progress steps, and a bounded task
SEED = 0  # every review of the same record is the same review

Answer = tuple[int, str, bytes]  # (status, error code or "", body or message)


@dataclass(frozen=True)
class ReviewLimits:
    workers: int = 1  # processes judging decisions
    deadline: float = 60.0  # seconds one chunk (or the plan) may run
    memory: int = 512 * MiB  # address space a worker may add
    running: int = 2  # reviews in progress at once; more are answered 503 busy
    cache_bytes: int = 32 * MiB


# -- the worker's side (module-level functions, so that spawned workers can import them)


def _record(raw: bytes) -> Any:
    record = parse_record(raw)
    check_size(record)
    return record


def plan_work(raw: bytes) -> tuple[int, str, int]:
    """``(200, "", decisions)`` or a refusal ``(status, code, 0)`` with the message
    logged by the caller through :func:`refusal`."""
    from usotsuki.analysis import NotAnalysable, plan

    try:
        record = _record(raw)
        _finished(record)
        walk = plan(record)
    except NotReplayable as exc:
        raise Refusal(413 if exc.code == "too_large" else 400, exc.code, str(exc)) from None
    except NotAnalysable as exc:
        raise Refusal(400, "bad_record", str(exc)) from None
    if len(walk.points) > MAX_DECISIONS:
        raise Refusal(413, "too_large", f"the record has {len(walk.points)} decisions; at "
                      f"most {MAX_DECISIONS} are reviewed")
    return 200, "", len(walk.points)


def _finished(record: Any) -> dict[str, Any]:
    """Only finished games are reviewed: a review shows every hand (Part 4)."""
    from usotsuki.replay import replay_record

    report = replay_record(record)
    if not report["ok"]:
        raise Refusal(400, "bad_record", report["error"]["message"])
    if not report["finished"]:
        raise Refusal(409, "not_finished", "the game has not finished: only finished games "
                      "are reviewed")
    return report


def chunk_work(raw: bytes, indices: list[int], depth: int | None) -> list[dict[str, Any]]:
    from usotsuki.analysis import DEFAULT_DEPTH, judge_points, plan

    walk = plan(_record(raw))
    return judge_points(walk, indices, SEED, depth or DEFAULT_DEPTH[walk.game])


def assemble_work(raw: bytes, decisions: list[dict[str, Any]], depth: int | None) -> bytes:
    from usotsuki.analysis import DEFAULT_DEPTH, assemble, plan

    walk = plan(_record(raw))
    analysis = assemble(walk, decisions, SEED, depth or DEFAULT_DEPTH[walk.game])
    return json.dumps({"status": "done", "analysis": analysis},
                      separators=(",", ":")).encode()


class Refusal(Exception):
    """A record that is not reviewed: HTTP status, wire code, message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(status, code, message)  # all three: it is pickled back from a worker
        self.status, self.code, self.message = status, code, message


# -- the server's side


@dataclass
class _Job:
    done: int = 0
    total: int | None = None
    task: asyncio.Task[Answer] | None = None
    futures: list[Future[Any]] = field(default_factory=list)


Submit = Callable[..., "Future[Any]"]


class ReviewService:
    """Reviews by key: :meth:`poll` starts one or tells how far it is."""

    def __init__(self, limits: ReviewLimits | None = None, depth: int | None = None,
                 submit: Submit | None = None) -> None:
        self.limits = limits or ReviewLimits()
        self.depth = depth  # playouts per move; None: the analysis's default depth
        self._submit = submit  # tests: run the work elsewhere than in processes
        self._pool: ProcessPool | None = None
        self._cache: OrderedDict[Hashable, Answer] = OrderedDict()
        self._cached = 0
        self._jobs: dict[Hashable, _Job] = {}

    @staticmethod
    def key_of(raw: bytes) -> Hashable:
        return ("record", hashlib.sha256(raw).hexdigest())

    def poll(self, key: Hashable, raw: Callable[[], bytes]) -> Answer:
        """The review (200), its progress (202), or a refusal; starts it when new."""
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        job = self._jobs.get(key)
        if job is None:
            if len(self._jobs) >= self.limits.running:
                return 503, "busy", b"the server is reviewing other games: try again soon"
            job = self._jobs[key] = _Job()
            job.task = asyncio.get_running_loop().create_task(self._run(job, raw()))
            job.task.add_done_callback(lambda task: self._done(key, task))
        return 202, "", json.dumps({"status": "running", "done": job.done,
                                    "total": job.total}).encode()

    def _done(self, key: Hashable, task: asyncio.Task[Answer]) -> None:
        self._jobs.pop(key, None)
        if task.cancelled() or task.exception() is not None:
            return
        answer = task.result()
        if answer[1] in ("busy", "too_costly"):
            return  # not the record's fault: a later request tries again
        self._cache[key] = answer
        self._cached += len(answer[2])
        while self._cached > self.limits.cache_bytes and self._cache:
            _, dropped = self._cache.popitem(last=False)
            self._cached -= len(dropped[2])

    def _schedule(self, job: _Job, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        if self._submit is not None:
            future: Future[Any] = self._submit(fn, *args)
        else:
            future = self._workers().schedule(fn, args, timeout=self.limits.deadline)
        job.futures.append(future)
        return future

    async def _run(self, job: _Job, raw: bytes) -> Answer:
        try:
            _, _, total = await asyncio.wrap_future(self._schedule(job, plan_work, raw))
            job.total = total
            chunks = [list(range(i, min(i + CHUNK, total))) for i in range(0, total, CHUNK)]
            # all queued at once: the pool's workers take them in order
            futures = [self._schedule(job, chunk_work, raw, c, self.depth) for c in chunks]
            decisions: list[dict[str, Any]] = []
            for future in futures:
                part = await asyncio.wrap_future(future)
                decisions += part
                job.done += len(part)
            body = await asyncio.wrap_future(self._schedule(job, assemble_work, raw, decisions,
                                                            self.depth))
            return 200, "", body
        except Refusal as exc:
            return exc.status, exc.code, exc.message.encode()
        except TimeoutError:
            return 413, "too_costly", (f"a part of the review took more than "
                                       f"{self.limits.deadline:g} s and was stopped").encode()
        except (ProcessExpired, MemoryError):
            return 413, "too_costly", b"the review needs more than a review may use"
        except CancelledError:
            return 503, "busy", b"the review was interrupted: try again"
        finally:
            for future in job.futures:
                future.cancel()

    def _workers(self) -> ProcessPool:
        if self._pool is None:
            self._pool = limited_pool(self.limits.workers, self.limits.memory)
        return self._pool

    def close(self) -> None:
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()
        if self._pool is not None:
            self._pool.stop()  # type: ignore[no-untyped-call]
            self._pool.join()
            self._pool = None

    def stats(self) -> dict[str, Any]:
        return {"cached": len(self._cache), "cached_bytes": self._cached,
                "running": len(self._jobs)}
