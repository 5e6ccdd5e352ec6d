"""The worker pools of replays and reviews: a worker is replaced after a number of
tasks, so the memory a burst of long records took comes back; a pool broken by a worker
killed at the wrong moment is replaced, never left to fail every later job."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from usotsuki.server import worker_service
from usotsuki.server.replay_service import ReplayService
from usotsuki.server.worker_service import Answer, MiB, limited_pool


def _echo(raw: bytes) -> Answer:
    return 200, "", raw


def test_a_worker_is_replaced_after_its_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker_service, "TASKS_PER_WORKER", 2)
    pool = limited_pool(1, 256 * MiB)
    try:
        pids = [pool.schedule(os.getpid).result(timeout=60) for _ in range(4)]
    finally:
        pool.stop()
        pool.join()
    assert pids[0] == pids[1] and pids[2] == pids[3]  # two tasks each ...
    assert pids[1] != pids[2]  # ... then a new worker


def test_a_broken_pool_is_answered_and_replaced() -> None:
    """pebble breaks its pool ("All workers expired") when a worker dies before the pool
    saw its task start (a memory bound hit at once, on a busy machine): that job is told
    it cost too much, and the next one runs on a new pool."""
    service = ReplayService(run=_echo)
    broken = limited_pool(1, 256 * MiB)

    def schedule(*_: Any, **__: Any) -> Future[Any]:
        failed: Future[Any] = Future()
        failed.set_exception(BrokenProcessPool("All workers expired"))
        return failed

    broken.schedule = schedule  # type: ignore[method-assign]
    service._pool = broken
    try:
        status, code, _ = asyncio.run(service.answer(("record", "a"), lambda: b"a"))
        assert (status, code) == (413, "too_costly")
        assert service._pool is None  # the broken pool was stopped and dropped
        assert asyncio.run(service.answer(("record", "b"), lambda: b"b")) == (200, "", b"b")
    finally:
        service.close()
