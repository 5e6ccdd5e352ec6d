"""Solve heads-up short-deck Bluff rounds with CFR+ and publish the numbers.

    python -m usotsuki.research.solve [--games r4-1v1,r5-1v1,...] [--target 1e-4]
        [--max-seconds 300] [--dtype float32] [--out docs/solver]
        [--data src/usotsuki/data/solved_bluff.npz] [--raw DIR]
    python -m usotsuki.research.solve --table [--out docs/solver]

Writes ``OUT/results.json`` (per round: tree size, iterations, seconds, exploitability
along the way, of the stored strategy, the value, the process's peak memory),
``OUT/exploitability.png`` (exploitability against iterations and against seconds) and
the stored strategies (:mod:`usotsuki.research.export`). Rounds already in the results
and the archive that this run does not solve are kept. ``--raw`` also saves each average
strategy in float32, from which ``python -m usotsuki.research.export`` rebuilds the
archive with other storage thresholds without solving again.

The matrix products run on one BLAS thread: they are small (hands by hands), and
threads only contend for the cores.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from usotsuki.bluff import calls_for
from usotsuki.research.cfr import CFRPlus, exploitability, game_value
from usotsuki.research.export import (
    MIN_PROB,
    archive_bytes,
    strategy_from_arrays,
    to_arrays,
    write_archive,
)
from usotsuki.research.round import RoundGame, RoundSpec

DEFAULT_GAMES = "r4-1v1,r5-1v1,r6-1v1,r4-1v2,r4-2v1,r5-1v2,r5-2v1,r6-1v2,r6-2v1,r4-2v2"


def parse_game(name: str) -> RoundSpec:
    """``r4-1v2`` -> RoundSpec(4, (1, 2)); a ``-full`` suffix keeps impossible calls."""
    parts = name.split("-")
    ranks = int(parts[0].removeprefix("r"))
    a, b = (int(x) for x in parts[1].split("v"))
    return RoundSpec(ranks, (a, b), prune=not (len(parts) > 2 and parts[2] == "full"))


def tree_size(game: RoundGame) -> dict[str, int]:
    """Public nodes, information states and histories of the round's tree (deals by rank);
    ``full_calls``: the calls without pruning, whose tree has 2^full_calls nodes."""
    nodes = 1 << game.m
    pop = np.array([bin(b).count("1") for b in range(nodes)]) % 2
    actors = [int((pop == s).sum()) for s in (0, 1)]
    info = actors[0] * len(game.hands[0]) + actors[1] * len(game.hands[1])
    pairs = int((game.chance > 0).sum())
    full = len(calls_for(game.spec.ranks))
    return {"calls": game.m, "public_nodes": nodes, "information_states": info,
            "deals_by_rank": pairs, "histories": nodes * 2 * pairs, "full_calls": full}


def solve_one(spec: RoundSpec, target: float, max_seconds: float,
              max_iterations: int, dtype: str = "float32", raw: Path | None = None,
              min_prob: float = MIN_PROB, check_every: int | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
    game = RoundGame(spec)
    solver = CFRPlus(game, dtype=dtype)
    began = time.perf_counter()
    every = check_every
    history = solver.solve(target=target, max_iterations=max_iterations,
                           max_seconds=max_seconds,
                           check_every=None if every is None else (
                               lambda i: i % every == 0 or i in (1, 10)),
                           on_check=lambda p: print(f"  {spec.name}: {p.iterations} "
                                                    f"iterations, {p.seconds:.1f} s, "
                                                    f"exploitability {p.exploitability:.2e}",
                                                    flush=True))
    wall = time.perf_counter() - began
    avg = solver.average()
    del solver.r_call, solver.r_chall  # the memory the export needs
    if raw is not None:
        raw.mkdir(parents=True, exist_ok=True)
        np.savez(raw / f"{spec.name}.npz",
                 **{f"{k}{seat}": getattr(avg, k)[seat].astype(np.float32)
                    for k in ("call", "challenge") for seat in (0, 1)})
    arrays = to_arrays(game, avg, solver.tree, min_prob)
    stored = strategy_from_arrays(game, arrays, solver.tree)
    e, br0, br1 = exploitability(game, avg, solver.tree)
    e_stored = exploitability(game, stored, solver.tree)[0]
    row = {"game": spec.name, "ranks": spec.ranks, "sizes": list(spec.sizes),
           "tree": tree_size(game), "iterations": solver.iterations, "dtype": dtype,
           "seconds": round(history[-1].seconds if history else 0.0, 2),
           "wall_seconds": round(wall, 2),
           "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
           "exploitability": e, "exploitability_stored": e_stored,
           "stored_bytes": archive_bytes(arrays), "stored_min_prob": min_prob,
           "best_response": [br0, br1], "value_seat0": game_value(game, avg, solver.tree),
           "history": [[p.iterations, round(p.seconds, 3), p.exploitability]
                       for p in history]}
    return row, arrays


def table(rows: list[dict[str, Any]]) -> str:
    """The per-round table of docs/solver.md, in markdown, rounds in solving order."""
    order = {name: k for k, name in enumerate(DEFAULT_GAMES.split(","))}
    lines = ["| round | calls kept (of the deck's) | public nodes | information states | "
             "peak memory | iterations | seconds (CFR+) | iterations to < 0.001 | "
             "exploitability | stored | stored size | value to the first caller |",
             "|---" * 12 + "|"]
    for row in sorted(rows, key=lambda r: order.get(r["game"], len(order))):
        t = row["tree"]
        reached = next((h for h in row["history"] if h[2] < 1e-3), None)
        first = "not reached" if reached is None else f"{reached[0]} ({reached[1]:.1f} s)"
        mb = row.get("peak_rss_mb")
        memory = "-" if mb is None else f"{mb} MB" if mb < 1024 else f"{mb / 1024:.1f} GB"
        lines.append(
            f"| {row['game']} | {t['calls']} of {t['full_calls']} | {t['public_nodes']:,} | "
            f"{t['information_states']:,} | {memory} | {row['iterations']} | "
            f"{row['seconds']:.1f} | {first} | {row['exploitability']:.1e} | "
            f"{row['exploitability_stored']:.1e} | {row['stored_bytes'] / 1000:,.0f} kB | "
            f"{row['value_seat0']:+.4f} |")
    return "\n".join(lines)


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.8))
    for row in rows:
        it = [h[0] for h in row["history"]]
        sec = [h[1] for h in row["history"]]
        ex = [h[2] for h in row["history"]]
        label = f"{row['game']} ({row['tree']['public_nodes']:,} nodes)"
        ax1.loglog(it, ex, marker=".", label=label)
        ax2.loglog(sec, ex, marker=".", label=label)
    for ax, xlabel in ((ax1, "CFR+ iterations"), (ax2, "seconds (one core, CFR+ only)")):
        ax.axhline(1e-3, color="grey", linestyle="--", linewidth=0.8)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("exploitability (NashConv / 2)")
        ax.grid(True, which="both", alpha=0.3)
    ax1.legend(fontsize=7)
    fig.suptitle("CFR+ on heads-up short-deck Bluff rounds (rN: N ranks; AvB: first caller "
                 "holds A cards, the other B)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=DEFAULT_GAMES)
    parser.add_argument("--target", type=float, default=1e-4)
    parser.add_argument("--max-seconds", type=float, default=300.0)
    parser.add_argument("--max-iterations", type=int, default=20_000)
    parser.add_argument("--dtype", default="float32", choices=("float32", "float64"),
                        help="precision of CFR+'s work arrays")
    parser.add_argument("--out", type=Path, default=Path("docs/solver"))
    parser.add_argument("--data", type=Path, default=None,
                        help="write the stored strategies into this archive (.npz)")
    parser.add_argument("--raw", type=Path, default=None,
                        help="also save each average strategy here (float32 .npz)")
    parser.add_argument("--min-prob", type=float, default=MIN_PROB)
    parser.add_argument("--check-every", type=int, default=None,
                        help="measure the exploitability every this many iterations (default: "
                             "at powers of 2 and every 50; a check costs a few iterations)")
    parser.add_argument("--table", action="store_true",
                        help="print OUT/results.json as docs/solver.md's table; solve nothing")
    args = parser.parse_args(argv)
    results = args.out / "results.json"
    rows = json.loads(results.read_text()) if results.exists() else []
    if args.table:
        print(table(rows))
        return 0
    for name in args.games.split(","):
        with threadpool_limits(limits=1, user_api="blas"):
            row, arrays = solve_one(parse_game(name), args.target, args.max_seconds,
                                    args.max_iterations, args.dtype, args.raw,
                                    args.min_prob, args.check_every)
        rows = [r for r in rows if r["game"] != row["game"]] + [row]
        print(f"{row['game']}: {row['tree']['public_nodes']:,} nodes, "
              f"{row['iterations']} iterations, {row['seconds']} s, exploitability "
              f"{row['exploitability']:.2e} (stored {row['exploitability_stored']:.2e}, "
              f"{row['stored_bytes']:,} bytes), value {row['value_seat0']:+.4f}", flush=True)
        args.out.mkdir(parents=True, exist_ok=True)
        results.write_text(json.dumps(rows, indent=1) + "\n")
        plot(rows, args.out / "exploitability.png")
        if args.data is not None:
            write_archive(args.data, arrays)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
