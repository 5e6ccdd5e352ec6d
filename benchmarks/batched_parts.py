"""Where a batched engine's step goes: the median time of each call a learner makes per
step (``observe()``, ``legal_mask()``, ``random_actions()``, ``step()``), random legal
play with autoreset, after a warm-up (which also compiles the Numba kernels).

With ``--cpu-ratio``, also the engine's decisions per CPU second (observations and masks
included) against OpenSpiel's ``liars_dice`` (numdice 1, ``make bench``'s baseline) in the
same process, alternated ``--rounds`` times: CPU time leaves out the time other jobs take
the core, which on a shared machine moves ``make bench``'s wall-clock ratios a lot.

    python benchmarks/batched_parts.py --game liar [--players 4] [--batch 4096] [--steps 300]
        [--rules multi,revolution,eight_cut] [--games 3 (with classes: matches)]
    python benchmarks/batched_parts.py --game bluff --cpu-ratio
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from usotsuki.bluff import BluffRules
from usotsuki.liar.rules import parse_rules_text
from usotsuki.research.batched import BatchedBluff
from usotsuki.research.batched_liar import BatchedLiar


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("bluff", "liar"), default="bluff")
    parser.add_argument("--players", type=int, default=None,
                        help="default: 2 for Bluff (like liars_dice), 4 for the Liar Game")
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu-ratio", action="store_true",
                        help="also decisions per CPU second against liars_dice")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rules", default="",
                        help="Liar Game house rules, as the CLI takes them (e.g. "
                             "multi,revolution); default: none")
    parser.add_argument("--games", type=int, default=1,
                        help="the Liar Game's matches of this many games (needs classes)")
    args = parser.parse_args(argv)
    engine: BatchedBluff | BatchedLiar
    if args.game == "bluff":
        engine = BatchedBluff(BluffRules(players=args.players or 2), args.batch,
                              seed=args.seed, autoreset=True)
    else:
        engine = BatchedLiar(parse_rules_text(args.rules, args.players or 4), args.batch,
                             seed=args.seed, autoreset=True, games=args.games)
    for _ in range(50):
        engine.observe()
        engine.legal_mask()
        engine.step(engine.random_actions())
    times: dict[str, list[float]] = {"observe": [], "legal_mask": [], "random_actions": [],
                                     "step": []}
    clock = time.perf_counter
    for _ in range(args.steps):
        t0 = clock()
        engine.observe()
        t1 = clock()
        engine.legal_mask()
        t2 = clock()
        actions = engine.random_actions()
        t3 = clock()
        engine.step(actions)
        t4 = clock()
        for key, took in zip(times, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            times[key].append(took)
    total = 0.0
    for key, runs in times.items():
        median = statistics.median(runs) * 1e3
        total += median
        print(f"{key:>15}: {median:.3f} ms")
    print(f"{'total':>15}: {total:.3f} ms a step of {args.batch} games, "
          f"{args.batch / total * 1e3:,.0f} decisions/s")
    if args.cpu_ratio:
        cpu_ratio(engine, args.rounds, args.seconds)


def cpu_ratio(engine: BatchedBluff | BatchedLiar, rounds: int, seconds: float) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import batched_bench
    import openspiel_bench

    liars_dice = openspiel_bench.driver("liars_dice", {"players": 2})
    batched = batched_bench.driver(lambda seed: engine, observe=True)
    ratios = []
    for i in range(rounds):
        rates = []
        for play in (liars_dice, batched):
            already = engine.decisions if play is batched else 0  # the engine's count runs on
            before = time.process_time()
            decisions = play(random.Random(i), seconds)[0] - already
            rates.append(decisions / (time.process_time() - before))
        ratios.append(rates[1] / rates[0])
        print(f"round {i + 1}: liars_dice {rates[0]:,.0f}, batched {rates[1]:,.0f} decisions "
              f"per CPU second: {ratios[-1]:.2f}x")
    print(f"median ratio {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
