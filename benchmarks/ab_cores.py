"""A/B of the rules cores' fast paths (``push``) between two git revisions.

    .venv/bin/python benchmarks/ab_cores.py 0de8121 HEAD            # or WORKTREE for uncommitted
    .venv/bin/python benchmarks/ab_cores.py main HEAD --rounds 9 --games 400

Each revision's ``src/`` is exported with ``git archive`` to a temporary directory and run
in its own subprocess (``PYTHONPATH`` pointing there, this checkout's interpreter and
dependencies). Runs alternate A, B, B, A, ... so load on a shared machine falls on both
sides alike. A run plays a **fixed** set of games (the same seed for both revisions, so the
same decisions when behaviour is unchanged, which the script checks) and reports CPU time
(``time.process_time``), not wall time. Figures are medians over the rounds.

Cases (random legal play, as in liar_bench.py / bluff_bench.py):

- ``liar-plain-4``: the Liar Game, 4 players, plain rules; uniform over the concrete legal
  actions drawn from ``legal_summary``; ``push``.
- ``liar-all-4``: the same with all house rules (O1-O7), matches of 3 games (O7 gives).
- ``bluff-5``: Bluff, 5 players, ``deal_unchecked`` + ``push`` over ``legal_actions``.

Deals, ``new_game``/``next_game`` and the choice of actions count in the time, as in
``make bench``: these are the loops a bot or a simulation runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from io import BytesIO
from math import comb
from pathlib import Path
from random import Random
from typing import Any

CASES = ("liar-plain-4", "liar-all-4", "bluff-5")
ALL_HOUSE_RULES = {"multi": True, "revolution": True, "eight_cut": True, "jack_back": True,
                   "six_up": True, "binding": True, "classes": True}
SEED = 20261101
ROOT = Path(__file__).resolve().parent.parent


# -- the loops (run in the child, against whichever usotsuki is on PYTHONPATH) -------------


def liar_loop(options: dict[str, bool], games: int) -> Callable[[], int]:
    from usotsuki.liar.actions import ACCEPT, DOUBT, PASS, Give, Play
    from usotsuki.liar.legal import legal_summary
    from usotsuki.liar.match import deal
    from usotsuki.liar.rules import LiarRules
    from usotsuki.liar.state import new_game, next_game, push

    rules = LiarRules(players=4, **options)
    match_games = 3 if rules.classes else 1

    def uniform_action(state: Any, rng: Random) -> Any:  # as benchmarks/liar_bench.py
        hand = state.hands[state.to_move]
        if state.owed:
            return Give(tuple(rng.sample(hand, state.owed[0][2])))
        summary = legal_summary(state)
        others = [a for a, ok in ((PASS, summary.pass_), (DOUBT, summary.doubt),
                                  (ACCEPT, summary.accept)) if ok]
        counts, rates = summary.counts, summary.rates
        h = len(hand)
        subsets = sum(comb(h, c) for c in counts) if rates else 0
        pick = rng.randrange(len(others) + subsets * len(rates))
        if pick < len(others):
            return others[pick]
        rate = rates[rng.randrange(len(rates))]
        if len(counts) == 1:
            count = counts[0]
            if count == 1:
                return Play((hand[rng.randrange(h)],), rate)
            return Play(tuple(rng.sample(hand, count)), rate)
        if counts == tuple(range(1, h + 1)):
            bits = 0
            while not bits:
                bits = rng.getrandbits(h)
            return Play(tuple(c for i, c in enumerate(hand) if bits >> i & 1), rate)
        count = rng.choices(counts, [comb(h, c) for c in counts])[0]
        return Play(tuple(rng.sample(hand, count)), rate)

    def run() -> int:
        rng = Random(SEED)
        decisions = 0
        for _ in range(games // match_games or 1):
            hands, stock = deal(rules, rng)
            state = new_game(rules, hands, stock, rng.getrandbits(64))
            for game in range(match_games):
                if game:
                    hands, stock = deal(rules, rng)
                    state = next_game(state, hands, stock).state
                while state.to_move is not None:
                    state = push(state, uniform_action(state, rng))
                    decisions += 1
        return decisions

    return run


def bluff_loop(games: int) -> Callable[[], int]:
    from usotsuki.bluff import BluffRules, deal_unchecked, legal_actions, new_game, push
    from usotsuki.bluff.deal import deal_hands

    rules = BluffRules(players=5)

    def run() -> int:
        rng = Random(SEED)
        choice = rng.choice
        decisions = 0
        for _ in range(games):
            state = new_game(rules)
            while not state.is_over:
                if state.needs_deal:
                    state = deal_unchecked(state, deal_hands(state, rng))
                else:
                    state = push(state, choice(legal_actions(state)))
                    decisions += 1
        return decisions

    return run


def child(case: str, games: int) -> None:
    import gc

    import usotsuki

    loop = {"liar-plain-4": lambda: liar_loop({}, games),
            "liar-all-4": lambda: liar_loop(ALL_HOUSE_RULES, games),
            "bluff-5": lambda: bluff_loop(games)}[case]()
    loop()  # warm-up: the same games once (imports, caches)
    gc.collect()
    start = time.process_time()
    decisions = loop()
    cpu = time.process_time() - start
    print(json.dumps({"decisions": decisions, "cpu": cpu, "module": usotsuki.__file__}))


# -- the parent -----------------------------------------------------------------------------


def export(rev: str, into: Path) -> Path:
    """The ``src/`` of ``rev`` (or of this working tree for ``WORKTREE``) on disk."""
    if rev == "WORKTREE":
        return ROOT / "src"
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], check=True,
                          capture_output=True).stdout
    dest = into / rev.replace("/", "_")
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return dest / "src"


def run_child(src: Path, case: str, games: int, cpu: int | None) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    cmd = [sys.executable, __file__, "--child", case, "--games", str(games)]
    if cpu is not None:
        cmd = ["taskset", "-c", str(cpu), *cmd]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    found: dict[str, Any] = json.loads(out.splitlines()[-1])
    if not found["module"].startswith(str(src)):
        raise SystemExit(f"imported {found['module']}, not the revision under {src}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", nargs="?", default="main", help="revision A (or WORKTREE)")
    parser.add_argument("b", nargs="?", default="HEAD", help="revision B (or WORKTREE)")
    parser.add_argument("--rounds", type=int, default=7, help="A/B pairs per case")
    parser.add_argument("--games", type=int, default=300,
                        help="games per run (Liar all: matches of 3 count as 3)")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--cpu", type=int, default=None, help="pin the runs to this CPU")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.games)
        return
    with tempfile.TemporaryDirectory() as tmp:
        srcs = {side: export(rev, Path(tmp)) for side, rev in (("A", args.a), ("B", args.b))}
        print(f"A = {args.a}, B = {args.b}; {args.rounds} alternating rounds, "
              f"{args.games} games a run, CPU time (process_time) medians")
        print(f"{'case':<14}{'A dec/s':>10}{'B dec/s':>10}{'B/A':>8}  "
              f"{'min..max of B/A':>16}  decisions")
        for case in args.cases.split(","):
            rates: dict[str, list[float]] = {"A": [], "B": []}
            decisions: set[int] = set()
            for i in range(args.rounds):
                for side in ("A", "B") if i % 2 == 0 else ("B", "A"):
                    got = run_child(srcs[side], case, args.games, args.cpu)
                    rates[side].append(got["decisions"] / got["cpu"])
                    decisions.add(got["decisions"])
            ma, mb = statistics.median(rates["A"]), statistics.median(rates["B"])
            pairs = [b / a for a, b in zip(rates["A"], rates["B"], strict=True)]
            same = "same" if len(decisions) == 1 else f"DIFFER {sorted(decisions)}"
            print(f"{case:<14}{ma:>10.0f}{mb:>10.0f}{mb / ma:>8.3f}  "
                  f"{min(pairs):>7.3f}..{max(pairs):<7.3f}  {same}", flush=True)


if __name__ == "__main__":
    main()
