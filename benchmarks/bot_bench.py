"""Pieces the bot benchmarks of both games share: decision timing, strength rows."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

PAIRS = (("easy", "random"), ("normal", "easy"), ("hard", "normal"), ("expert", "hard"))
"""Each level against three copies of the level below; the target: the whole interval
above the fair 25%."""
TIME_TARGETS = {"hard": 0.020, "expert": 1.0}


def percentiles(times: list[float]) -> dict[str, float]:
    """Median, 95th percentile and maximum of some timings, in seconds."""
    times = sorted(times)
    return {"median_s": statistics.median(times),
            "p95_s": times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)],
            "max_s": times[-1], "samples": len(times)}


def time_levels(game: str, levels: Sequence[str], sample: Sequence[tuple[Any, Any]],
                seed: int) -> dict[str, dict[str, float]]:
    """Each level's decision time over the same sample of (view, legal) decision points, in
    CPU time (the process's, so other jobs on a shared machine do not inflate it)."""
    from usotsuki.bots import make_bot

    out = {}
    for name in levels:
        bot = make_bot(game, name)
        rng = random.Random(seed)
        for v, legal in sample[:5]:  # warm caches
            bot.act(v, legal, rng)
        times = []
        for v, legal in sample:
            t0 = time.process_time()
            bot.act(v, legal, rng)
            times.append(time.process_time() - t0)
        out[name] = percentiles(times)
    return out


def strength_row(game: str, top: str, low: str, games: int, seed: int, jobs: int,
                 say: Callable[[str], None], rules: str = "", label: str = ""
                 ) -> dict[str, Any]:
    """One line-up of ``top`` against three ``low`` through ``usotsuki.tournament``."""
    from usotsuki import tournament

    games -= games % 4  # every seat equally often
    t0 = time.perf_counter()
    spec = tournament.Spec(game, 4, (top, low, low, low), games, seed, rules)
    summary = tournament.summarize(spec, tournament.run(spec, jobs=jobs))
    entry = summary["bots"][top]
    wins, played = entry["wins"], entry["games"]
    low_ci, high_ci = entry["ci95"]
    target = 0.5 if (top, low) == ("normal", "easy") else 0.25
    row = {"top": top, "low": low, "rules": label, "games": played, "wins": wins,
           "win_share": wins / played if played else 0.0, "ci95": [low_ci, high_ci],
           "low_win_share": summary["bots"][low]["win_share"], "mean_place": entry["mean_place"],
           "target": target, "met": bool(played) and wins / played >= target and low_ci > 0.25,
           "games_without_winner": summary.get("games_without_winner"),
           "seconds": round(time.perf_counter() - t0, 1)}
    where = f", {label}" if label else ""
    say(f"  {top} vs 3x {low}{where}: {wins}/{played} = {row['win_share']:.3f} "
        f"[{low_ci:.3f}, {high_ci:.3f}] ({row['seconds']} s)")
    return row


def unpin() -> None:
    """Let the strength games use every core (the speed figures pin one)."""
    if hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, range(os.cpu_count() or 1))


def standalone(doc: str | None, add_options: Callable[[argparse.ArgumentParser], None],
               run: Callable[[argparse.Namespace, int], dict[str, Any]],
               argv: list[str] | None = None) -> int:
    """Run one bot benchmark on its own: its options, ``--seed``, ``--json FILE``."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    add_options(parser)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    result = run(args, args.seed)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return 0
