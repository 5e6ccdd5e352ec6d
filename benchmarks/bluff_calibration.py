"""Fit the Bluff beliefs to self-play and report their calibration.

Self-play games of each population (``normal``, ``hard``, and ``mix``: tables of
expert, hard and normal) at 2 and 4 players give, at every decision facing a call, the
seat's view and whether that call was true (the round's challenge reveals every hand).
Games are split by index: seven in ten fit, the other three are held out.

``--fit`` fits each population's parameters by maximum likelihood
(:func:`usotsuki.research.bluff_fit.fit`: a grid over the particle model's
``support`` and ``faith``, each with its logistic recalibration) and writes
``src/usotsuki/bots/bluff/calibration.json``. The report: per population, on the held-out
games, a reliability table (10 buckets of the predicted probability: n, mean predicted,
observed frequency) and the Brier score of the calibrated probability beside that of the
plain card odds. Target: every bucket within 0.05, Brier below the plain odds'.

    python benchmarks/bluff_calibration.py [--fit] [--games 60] [--seed 3]
        [--populations normal,hard,mix] [--reuse] [--grid 3:0.3,...]
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "usotsuki" / "bots" / "bluff" / "calibration.json"
LINEUPS = {
    "normal": [("normal",) * 2, ("normal",) * 4],
    "hard": [("hard",) * 2, ("hard",) * 4],
    "mix": [("hard", "normal"), ("expert", "normal"), ("normal", "hard", "normal", "hard"),
            ("expert", "normal", "hard", "normal")],
}
GRID = [(1.0, 0.3), (2.0, 0.3), (3.0, 0.3), (2.0, 0.0)]
USE = {"normal": (64, False), "hard": (256, False), "mix": (256, False)}
"""Per population, how its users read: particles, and whether only the last call (all of
them read the whole round: normal with 64 particles; the hints with 256)."""


def records(population: str, games: int, seed: int) -> list[tuple[int, Any, bool]]:
    """(game index, view, whether the current call was true) at every decision that
    faces a call, from ``games`` self-play games per line-up of the population."""
    from usotsuki.bluff import BluffRules, legal_actions, new_game, push, start_round, view
    from usotsuki.bluff.deal import deal_hands
    from usotsuki.bluff.state import is_true
    from usotsuki.bots import make_bot

    out = []
    g = 0
    for lineup in LINEUPS[population]:
        for k in range(games):
            rng = random.Random(f"{seed}:{population}:{g}")
            players = len(lineup)
            bots = [make_bot("bluff", lineup[(s + k) % players]) for s in range(players)]
            state = new_game(BluffRules(players=players))
            while not state.is_over:
                if state.needs_deal:
                    state = start_round(state, deal_hands(state, rng)).state
                    continue
                seat = state.to_move
                assert seat is not None and state.hands is not None
                v = view(state, seat)
                if v.current_call is not None:
                    out.append((g, v, is_true(v.current_call, state.hands)))
                state = push(state, bots[seat].act(v, legal_actions(state), rng))
            g += 1
    return out


def split(data: list[tuple[int, Any, bool]]) -> tuple[list[Any], list[Any]]:
    # seven games in ten fit, the other three are held out (in every line-up)
    return ([(v, t) for g, v, t in data if g % 10 < 7], [(v, t) for g, v, t in data
                                                          if g % 10 >= 7])


def report(name: str, held: list[tuple[Any, bool]], cal: Any) -> dict[str, Any]:
    particles, last_only = USE[name]
    import numpy as np

    from usotsuki.odds import call_probability
    from usotsuki.research.bluff_fit import brier, current_call_probability, reliability

    y = np.array([t for _, t in held], dtype=np.float64)
    p = np.array([current_call_probability(v, cal, 10_000 + i, particles,
                                           last_call_only=last_only)
                  for i, (v, _) in enumerate(held)])
    plain = np.array([call_probability(v.current_call, v.hand, v.cards_in_play - len(v.hand),
                                       v.ranks) for v, _ in held])
    rows = reliability(p, y)
    print(f"\n{name}: held-out decisions {len(held)}; calibration {cal}")
    from usotsuki.tournament import wilson

    print("  bucket       n   predicted  observed (95% CI)      |diff|")
    worst = 0.0
    consistent = True  # every bucket's prediction within 0.05 of its observed interval
    for low, high, n, mean_p, obs in rows:
        diff = abs(mean_p - obs)
        lo, hi = wilson(round(obs * n), n)
        consistent &= lo - 0.05 <= mean_p <= hi + 0.05
        if n >= 30:
            worst = max(worst, diff)
        print(f"  {low:.1f}-{high:.1f} {n:6}   {mean_p:.3f}     {obs:.3f} [{lo:.3f}, {hi:.3f}]"
              f"  {diff:.3f}{'' if n >= 30 else '  (n < 30)'}")
    b, b0 = brier(p, y), brier(plain, y)
    print(f"  Brier: calibrated {b:.4f}, plain odds {b0:.4f}; worst bucket (n >= 30) "
          f"{worst:.3f} ({'met' if worst <= 0.05 and b < b0 else 'NOT met'}); every "
          f"prediction within 0.05 of its bucket's 95% interval: {consistent}")
    return {"population": name, "n": len(held), "brier": b, "brier_plain": b0,
            "worst_bucket": worst, "within_interval": consistent, "buckets": rows}


def main(argv: list[str] | None = None) -> int:
    from usotsuki.bots.bluff import calibration as bc
    from usotsuki.research import bluff_fit

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fit", action="store_true")
    parser.add_argument("--games", type=int, default=60, help="games per line-up")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--populations", default="normal,hard,mix")
    parser.add_argument("--grid", default="",
                        help="(support, faith) points to fit, e.g. 3:0.3,2:0.3 (default: all "
                             "of GRID)")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse the self-play records saved under .bench/ by a past run")
    args = parser.parse_args(argv)
    out = []
    for name in [p.strip() for p in args.populations.split(",") if p.strip()]:
        games = args.games if name != "mix" else max(1, args.games // 2)  # expert is slow
        cache = ROOT / ".bench" / f"bluff_calibration_{name}_{games}_{args.seed}.pickle"
        if args.reuse and cache.exists():
            data = pickle.loads(cache.read_bytes())
        else:
            data = records(name, games, args.seed)
            cache.parent.mkdir(exist_ok=True)
            cache.write_bytes(pickle.dumps(data))
        fit_set, held = split(data)
        if args.fit:
            pairs = [g.split(":") for g in args.grid.split(",")] if args.grid else []
            grid = [(float(a), float(b)) for a, b in pairs] if pairs else GRID
            cal, scores = bluff_fit.fit(fit_set, grid, *USE[name])
            print(f"{name}: {len(fit_set)} fitting decisions; log-likelihood by "
                  f"(support, faith): " + ", ".join(f"{k}: {v:.4f}" for k, v in scores.items()))
            shipped = json.loads(DATA.read_text())  # another run may have written since
            shipped["populations"][name] = {"support": cal.support, "faith": cal.faith,
                                            "slope": round(cal.slope, 4),
                                            "intercept": round(cal.intercept, 4),
                                            "knots": [list(k) for k in cal.knots],
                                            "fitted_on": len(fit_set)}
            shipped["about"] = ("fitted by benchmarks/bluff_calibration.py --fit (maximum "
                                "likelihood on self-play; see usotsuki.bots.bluff.calibration)")
            DATA.write_text(json.dumps(shipped, indent=2) + "\n")  # after each population
            print(f"wrote {DATA}")
        else:
            cal = bc.calibration(name)
        out.append(report(name, held, cal))
    return 0


if __name__ == "__main__":
    sys.exit(main())
