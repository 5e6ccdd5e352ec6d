"""``make bench`` part: the cost of the longest records the replay service accepts.

The replay limits (``server/replay.py``: body size, step limit) must keep any accepted
record cheap to answer. This times the frames of the two longest legal records - Bluff
with 8 players and 6 cards where every round climbs through all 326 calls, and a Liar
Game that runs to the step limit - in process CPU time, with their size and the peak
memory of building them. Target: under 2 s and 100 MB each. The tests check
the sizes; the time is a figure for this benchmark, not a timed test.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "security"))

from long_records import long_bluff_record, long_liar_record, traced_peak  # noqa: E402

from usotsuki.server import replay  # noqa: E402

MB = 1024 * 1024
TARGET_SECONDS, TARGET_MB = 2.0, 100


def longest_records() -> dict[str, bytes]:
    return {
        "bluff, 8 players, 6 cards": json.dumps(long_bluff_record(players=8,
                                                                  max_cards=6)).encode(),
        "liar, 2 players, step limit": json.dumps(long_liar_record(
            turn_limit=replay.MAX_STEPS["liar"] - 1)).encode(),
    }


def measure(raw: bytes, runs: int = 3) -> dict[str, Any]:
    times = []
    for _ in range(runs):
        began = time.process_time()
        out = replay.frames_json(raw)
        times.append(time.process_time() - began)
    peak = traced_peak(lambda: replay.frames_json(raw))
    seconds = statistics.median(times)
    return {"record_kb": round(len(raw) / 1024), "answer_kb": round(len(out) / 1024),
            "cpu_seconds": round(seconds, 3), "peak_mb": round(peak / MB, 1),
            "met": seconds < TARGET_SECONDS and peak < TARGET_MB * MB}


def run_group() -> dict[str, Any]:
    """For ``run.py``: measure and print one line per record."""
    print("Replay limits: the longest accepted records ...", flush=True)
    out = {}
    for name, raw in longest_records().items():
        r = out[name] = measure(raw)
        print(f"replay {name}: {r['record_kb']} KB in, {r['answer_kb']} KB of frames, "
              f"{r['cpu_seconds']} s of CPU (median of 3), peak {r['peak_mb']} MB; "
              f"target under {TARGET_SECONDS:g} s and {TARGET_MB} MB: "
              f"{'met' if r['met'] else 'NOT met'}", flush=True)
    return out


if __name__ == "__main__":
    run_group()
