"""``make bench`` part: the game review (``usotsuki.analysis``) of real bot games.

Plays a 5-player Bluff game and a 4-player Liar Game between bots (seeded, so the same
games every run) and times their analysis at the default depth on one core. The target:
under 5 s of CPU each (the Bluff game is about 170 decisions).
"""

from __future__ import annotations

import time
from typing import Any

from usotsuki.analysis import DEFAULT_DEPTH, analyse
from usotsuki.analysis.puzzles import bot_game as play_bots

TARGET = 5.0
"""Seconds of CPU on one core a review may take (a 5-player Bluff game: ~170 decisions)."""
LINEUPS = {"bluff": ("expert", "hard", "normal", "easy", "normal"),
           "liar": ("expert", "hard", "normal", "easy")}


def bot_game(game: str, seed: int = 1, lineup: tuple[str, ...] | None = None
             ) -> dict[str, Any]:
    """The record of one seeded game between bots (``LINEUPS`` by default)."""
    return play_bots(game, lineup or LINEUPS[game], f"review-bench:{seed}", seed)


def run(seed: int = 1) -> dict[str, Any]:
    """Time each game's review (process CPU time, so other load on the machine does not
    count; the caller pins the process to one core)."""
    out: dict[str, Any] = {}
    for game in ("bluff", "liar"):
        record = bot_game(game, seed)
        began = time.process_time()
        wall = time.perf_counter()
        analysis = analyse(record, seed=0)
        seconds = time.process_time() - began
        n = len(analysis["decisions"])
        out[game] = {"players": len(LINEUPS[game]), "lineup": list(LINEUPS[game]),
                     "decisions": n, "depth": DEFAULT_DEPTH[game],
                     "cpu_seconds": round(seconds, 2),
                     "wall_seconds": round(time.perf_counter() - wall, 2),
                     "ms_per_decision": round(1000 * seconds / max(1, n), 1),
                     "target_seconds": TARGET, "met": seconds < TARGET}
    return out


def run_group(seed: int = 1) -> dict[str, Any]:
    """For ``run.py``: measure and print one line per game."""
    print("Game review: analysing two bot games ...", flush=True)
    out = run(seed)
    for game, r in out.items():
        print(f"review {game}, {r['players']} players ({','.join(r['lineup'])}): "
              f"{r['decisions']} decisions at depth {r['depth']} in {r['cpu_seconds']} s "
              f"of CPU ({r['ms_per_decision']} ms each); target under {TARGET:g} s: "
              f"{'met' if r['met'] else 'NOT met'}", flush=True)
    return out


if __name__ == "__main__":
    import os
    import sys

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    run_group(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
