"""CFR+ iteration time on a heads-up Bluff round: precision and BLAS threads.

One CFR+ iteration (both seats' regret and average updates, :mod:`usotsuki.research.cfr`)
timed ``--runs`` times after one untimed iteration (which touches every work array);
the median and the spread in wall seconds, per precision, with the BLAS library held to
``--blas-threads`` threads (0: its default). The work arrays' bytes are the solver's
memory apart from the exploitability checks (float64, a few tables more).

    python benchmarks/solver_bench.py [--round r6-1v2] [--dtypes float32,float64]
        [--runs 5] [--blas-threads 1]
"""

from __future__ import annotations

import argparse
import statistics
import time

from threadpoolctl import threadpool_limits

from usotsuki.research.cfr import CFRPlus
from usotsuki.research.round import RoundGame
from usotsuki.research.solve import parse_game


def work_bytes(solver: CFRPlus) -> int:
    """The bytes of the solver's (nodes, hands) work arrays."""
    tables = [*solver.r_call, *solver.r_chall, *solver.s_call, *solver.s_chall,
              *solver._reach_buf, *solver._tv, *solver._v,
              *(a for pair in solver._strategy for a in pair)]
    return sum(t.nbytes for t in tables)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--round", default="r6-1v2")
    parser.add_argument("--dtypes", default="float32,float64")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--blas-threads", type=int, default=1)
    args = parser.parse_args(argv)
    game = RoundGame(parse_game(args.round))
    _ = game.payoff
    limit = None if args.blas_threads == 0 else args.blas_threads
    print(f"{args.round}: {1 << game.m:,} public nodes, hands {len(game.hands[0])} and "
          f"{len(game.hands[1])}, BLAS threads {limit or 'default'}")
    with threadpool_limits(limits=limit, user_api="blas"):
        for dtype in args.dtypes.split(","):
            solver = CFRPlus(game, dtype=dtype)
            solver.iterate()
            times = []
            for _ in range(args.runs):
                began = time.perf_counter()
                solver.iterate()
                times.append(time.perf_counter() - began)
            print(f"  {dtype}: median {statistics.median(times):.3f} s per iteration "
                  f"(min {min(times):.3f}, max {max(times):.3f}, {args.runs} runs); "
                  f"work arrays {work_bytes(solver) / 2**20:,.0f} MiB", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
