"""The worker pools of replays and reviews: a worker is replaced after a number of
tasks, so the memory a burst of long records took comes back (issue 37, finding 6)."""

from __future__ import annotations

import os

import pytest

from usotsuki.server import worker_service
from usotsuki.server.worker_service import MiB, limited_pool


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
