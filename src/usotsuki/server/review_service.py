"""Game reviews (:mod:`usotsuki.analysis`) computed without stalling the tables.

A review runs the expert's search at every decision: seconds of CPU. It runs in worker
processes (:mod:`usotsuki.server.worker_service`, as the replays do: an address-space
bound, a lower priority, a deadline per task), split into chunks of decisions so that
the browser sees its progress and no task runs long. At most ``running`` reviews are in
progress at once; later ones wait their turn (their answer says their place), one per
client address, and a review nobody asks about any more ends (the page asks every 0.6 s
while it shows the progress). Finished reviews are cached by key
(a table's game, or a posted record's digest): a finished game never changes, and the
analysis is deterministic (fixed seed and depth).

The input is read and bounded before any work as for replays (the one record parser,
then the step limit: ``server.replay.read_record``), and by decisions
(``MAX_DECISIONS``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from usotsuki.core.json_guard import escape_lone_surrogates
from usotsuki.server.replay import NotReplayable, read_record
from usotsuki.server.worker_service import Answer, Job, MiB, Submit, WorkerService

MAX_DECISIONS = 1500  # decisions in a reviewed record (about 2 min of one core at most)
CHUNK = 12  # decisions per worker task: progress steps, and a bounded task
SEED = 0  # every review of the same record is the same review


@dataclass(frozen=True)
class ReviewLimits:
    workers: int = 1  # processes judging decisions
    deadline: float = 60.0  # seconds one chunk (or the plan) may run
    memory: int = 512 * MiB  # address space a worker may add
    running: int = 2  # reviews in progress at once; more wait in a queue
    queued: int = 16  # reviews waiting; more are answered 503 busy
    per_requester: int = 1  # reviews one client address has running or waiting
    abandoned: float = 10.0  # seconds without a request after which a review ends
    cache_bytes: int = 32 * MiB

    @property
    def jobs(self) -> int:
        return self.running


# -- the worker's side (module-level functions, so that spawned workers can import them)


def plan_work(raw: bytes) -> tuple[int, str, int]:
    """``(200, "", decisions)``; a record that is not reviewed raises :class:`Refusal`."""
    from usotsuki.analysis import NotAnalysable, plan

    try:
        record = read_record(raw)
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

    walk = plan(read_record(raw))
    return judge_points(walk, indices, SEED, depth or DEFAULT_DEPTH[walk.game])


def assemble_work(raw: bytes, decisions: list[dict[str, Any]], depth: int | None) -> bytes:
    from usotsuki.analysis import DEFAULT_DEPTH, assemble, plan

    walk = plan(read_record(raw))
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
class _Review(Job):
    done: int = 0  # decisions judged so far
    total: int | None = None  # decisions in all, once the plan has counted them


class ReviewService(WorkerService[_Review]):
    """Reviews by key: :meth:`poll` starts one or tells how far it is."""

    noun = "review"
    task_name = "a part of the review"
    busy_message = b"the server is reviewing other games: try again soon"
    retried = ("busy", "too_costly")  # a stopped review is not the record's fault

    def __init__(self, limits: ReviewLimits | None = None, depth: int | None = None,
                 submit: Submit | None = None) -> None:
        super().__init__(limits or ReviewLimits(), submit)
        self.depth = depth  # playouts per move; None: the analysis's default depth

    def poll(self, key: Hashable, raw: Callable[[], bytes],
             requester: str | None = None) -> Answer:
        """The review (200), its progress (202: running, or waiting with its place in the
        queue), or a refusal; starts it (or queues it) when new. Asking keeps it alive."""
        found = self._find(key, raw, _Review, requester)
        if isinstance(found, tuple):
            return found
        place = self.place(found)
        if place is not None:
            return 202, "", json.dumps({"status": "queued", "position": place, "done": 0,
                                        "total": None}).encode()
        return 202, "", json.dumps({"status": "running", "done": found.done,
                                    "total": found.total}).encode()

    async def _compute(self, job: _Review, raw: bytes) -> Answer:
        try:
            return await self._review(job, raw)
        except Refusal as exc:
            return exc.status, exc.code, escape_lone_surrogates(exc.message).encode()

    async def _review(self, job: _Review, raw: bytes) -> Answer:
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
