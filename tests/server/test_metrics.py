"""The worker's own metrics that no cluster test reads: garbage collections."""

from __future__ import annotations

import gc

from usotsuki.server.metrics import Metrics, time_collections


def test_each_collection_is_timed_in_wall_and_cpu_time() -> None:
    metrics = Metrics()
    before = list(gc.callbacks)
    time_collections(metrics)
    try:
        garbage = [[] for _ in range(1000)]
        for i, item in enumerate(garbage):  # cycles only a collection frees
            item.append(garbage[i - 1])
        del garbage, item
        gc.collect(2)
    finally:
        gc.callbacks[:] = before

    def sample(name: str) -> float:
        value = metrics.registry.get_sample_value(name, {"generation": "2"})
        assert value is not None
        return value

    assert sample("usotsuki_gc_pause_seconds_count") >= 1
    cpu = sample("usotsuki_gc_cpu_seconds_total")
    assert 0.0 < cpu <= sample("usotsuki_gc_pause_seconds_sum") + 0.01
