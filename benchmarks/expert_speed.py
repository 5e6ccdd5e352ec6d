"""What the compiled cores give the Liar Game expert.

1. **Playouts in its time**: the expert's search (``SearchLiarBot`` with ``expert-v1``'s
   settings, 160 playouts) searches the same sampled decisions on the compiled cores and, in a
   child process, on the pure-Python ones (``USOTSUKI_PURE=1``); playouts per second on
   each give how many more playouts the compiled expert makes in any time budget.
2. **Tournament**: the expert with the playouts the compiled cores afford in the pure
   expert's time (``160 x speed-up``) against the expert with 160, two seats each, seats
   rotating, the tournament's seeds (``usotsuki.tournament.play_game``). Iteration budgets
   keep it reproducible: the same seed plays the same games on any machine.

    nice -n 19 python benchmarks/expert_speed.py [--decisions 30] [--games 200] [--jobs 2]
        [--seed 1] [--fast-iterations N]

``--fast-iterations`` fixes the fast expert's budget (default: 160 x the measured speed-up,
rounded), so a tournament can be repeated exactly whatever this machine's timing says.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

PLAYERS = 4
BASE_ITERATIONS = 160  # expert-v1's budget (EXPERT_V1.playouts)


def sample_decisions(count: int, seed: int) -> list[Any]:
    """``count`` expert decision points (view, legal) from 4-player games of ``hard`` bots."""
    from usotsuki.bots import make_bot
    from usotsuki.liar import LiarRules
    from usotsuki.session import LiarSession

    rng = random.Random(seed)
    bot = make_bot("liar", "hard")
    out: list[Any] = []
    while len(out) < count:
        session = LiarSession.create(LiarRules(players=PLAYERS), seed=rng.getrandbits(32))
        step = 0
        while not session.is_over and len(out) < count:
            if session.chance_due:
                session, _ = session.deal(session.draw_chance(rng))
                continue
            seat = session.to_move
            view, legal = session.view(seat), session.legal()
            step += 1
            if step % 5 == 0 and not legal.give and not legal.accept:
                out.append((view, legal))
            session, _ = session.apply(bot.act(view, legal, rng))
    return out


def playouts_per_second(decisions: int, seed: int) -> dict[str, Any]:
    """The expert's full search (160 playouts) on each sampled decision, timed."""
    from usotsuki import _native
    from usotsuki.bots.liar.search import EXPERT_V1, SearchLiarBot

    bot = SearchLiarBot(EXPERT_V1, "expert-v1")
    times = []
    for i, (view, legal) in enumerate(sample_decisions(decisions, seed)):
        rng = random.Random(seed * 1000 + i)
        t0 = time.process_time()
        bot.act(view, legal, rng)
        times.append(time.process_time() - t0)
    median = statistics.median(times)
    return {"cores": _native.describe(), "decisions": len(times),
            "median_s_per_decision": median, "playouts_per_s": BASE_ITERATIONS / median}


def _play(spec: Any, g: int, names: dict[str, int]) -> Any:
    """Game ``g`` of the tournament, with ``names`` mapped to experts of those budgets
    (a module-level function, so worker processes can run it)."""
    from usotsuki import tournament as t
    from usotsuki.bots.liar.search import EXPERT_V1, SearchLiarBot

    real_make_bot = t.make_bot
    if getattr(real_make_bot, "budgets", None) != names:
        real_make_bot = getattr(real_make_bot, "real", real_make_bot)

        def make_bot(game: str, name: str) -> Any:
            if game == "liar" and name in names:
                return SearchLiarBot(EXPERT_V1._replace(playouts=names[name]), name)
            return real_make_bot(game, name)

        make_bot.budgets = names  # type: ignore[attr-defined]
        make_bot.real = real_make_bot  # type: ignore[attr-defined]
        t.make_bot = make_bot  # type: ignore[assignment]
    return t.play_game(spec, g)


def tournament(iterations: tuple[int, int], games: int, seed: int,
               jobs: int = 1) -> dict[str, Any]:
    """``expert-fast`` (iterations[0]) vs ``expert`` (iterations[1]), two seats each, the
    line-up rotating by one seat a game (``Spec.lineup``)."""
    from usotsuki import tournament as t

    names = {"expert-fast": iterations[0], "expert": iterations[1]}
    spec = t.Spec("liar", PLAYERS, ("expert-fast", "expert", "expert-fast", "expert"),
                  games, seed)
    results = []
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        for r in pool.map(_play, [spec] * games, range(games), [names] * games):
            results.append(r)  # one line a game on stderr: a long run's partial result
            print(json.dumps({"game": r.index, "lineup": r.lineup, "places": r.places,
                              "winner": r.winner}), file=sys.stderr, flush=True)
    wins = sum(1 for r in results if r.winner is not None and r.lineup[r.winner] == "expert-fast")
    decided = sum(1 for r in results if r.winner is not None)
    low, high = t.wilson(wins, decided) if decided else (0.0, 1.0)
    places = {name: statistics.mean(p for r in results for seat, p in enumerate(r.places)
                                    if r.lineup[seat] == name) for name in names}
    return {"games": games, "decided": decided, "fast_wins": wins,
            "fast_win_share": wins / decided if decided else None,
            "wilson95": [low, high], "mean_place": places,
            "iterations": names, "note": "fair share: 0.5 (two seats each)"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1, help="tournament processes")
    parser.add_argument("--fast-iterations", type=int, default=0,
                        help="the fast expert's budget (default: 160 x the measured speed-up)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=Path(".bench/expert_speed.json"))
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(playouts_per_second(args.decisions, args.seed)))
        return 0
    here = playouts_per_second(args.decisions, args.seed)
    cmd = [sys.executable, __file__, "--child", "--decisions", str(args.decisions),
           "--seed", str(args.seed)]
    pure = json.loads(subprocess.run(cmd, env={**os.environ, "USOTSUKI_PURE": "1"},
                                     capture_output=True, text=True, check=True).stdout)
    speedup = here["playouts_per_s"] / pure["playouts_per_s"]
    print(f"expert playouts/s: {here['playouts_per_s']:,.0f} ({here['cores']}) vs "
          f"{pure['playouts_per_s']:,.0f} ({pure['cores']}): {speedup:.2f}x, so "
          f"{round(BASE_ITERATIONS * speedup)} playouts in the time of {BASE_ITERATIONS}",
          flush=True)
    report: dict[str, Any] = {"compiled": here, "pure": pure, "speedup": speedup}
    if args.games:
        fast = args.fast_iterations or round(BASE_ITERATIONS * speedup)
        report["tournament"] = result = tournament((fast, BASE_ITERATIONS), args.games,
                                                   args.seed, args.jobs)
        low, high = result["wilson95"]
        print(f"tournament, {args.games} games: expert with {fast} playouts won "
              f"{result['fast_wins']}/{result['decided']} decided games against the expert "
              f"with {BASE_ITERATIONS} (95% interval {low:.2f}-{high:.2f}; fair 0.5); mean "
              f"place {result['mean_place']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
