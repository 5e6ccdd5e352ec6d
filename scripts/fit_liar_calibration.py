#!/usr/bin/env python3
"""Fit the calibrated Liar Game belief to self-play and write
``src/usotsuki/bots/liar_calibration.json`` (issue 11).

Plays seeded games of the levels (heads-up and 4 players, plain rules and all house
rules), records every play as the next seat to move saw it, fits the logistic model of
:mod:`usotsuki.bots.liar_calibrated` by maximum likelihood per level and pooled on three
games in four, and reports on the held-out fourth: a reliability table by bucket and the
Brier score of the calibrated belief, of the plain card odds and of the old structural
belief. Everything is derived from ``--seed``; the JSON keeps the figures.

    nice -n 10 .venv/bin/python scripts/fit_liar_calibration.py [--games 400] [--jobs 2]
        [--seed 1] [--dry-run]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from usotsuki.bots.liar_calibrated import DATA, FEATURES, SIMPLE
from usotsuki.bots.liar_fit import (
    Record,
    brier,
    collect,
    fit,
    fit_link,
    load,
    predict,
    reliability,
    save,
)

LINEUPS = (
    ("normal", "hard"), ("easy", "normal"), ("hard", "hard"), ("normal", "normal"),
    ("hard", "expert"),
    ("easy", "normal", "hard", "expert"), ("normal", "hard", "hard", "normal"),
    ("hard", "normal", "normal", "normal"), ("easy", "easy", "normal", "hard"),
    ("normal", "normal", "hard", "hard"),
)  # the expert in two line-ups in ten: its decisions cost a hundred times hard's
RULES = ("", "all")
TURN_LIMIT = 300
LEVELS = ("easy", "normal", "hard", "expert")
RECORDS = Path(__file__).resolve().parent.parent / ".bench" / "liar_fit_records.json"
OUT = Path(__file__).resolve().parent.parent / "src" / "usotsuki" / "bots" / DATA


def _chunk(args: tuple[int, int, int]) -> list[Record]:
    first, count, seed = args
    return collect(LINEUPS, RULES, count, seed, turn_limit=TURN_LIMIT, first=first)


def held_out(r: Record) -> bool:
    return r.game % 4 == 3


def table(name: str, pairs: list[tuple[float, bool]]) -> dict[str, object]:
    rows = reliability(pairs)
    worst = max((abs(b["predicted"] - b["observed"]) for b in rows if b["n"] >= 30),
                default=0.0)
    print(f"\n{name}: n={len(pairs)}, Brier {brier(pairs):.4f}, "
          f"mean prediction {sum(p for p, _ in pairs) / len(pairs):.3f}, "
          f"observed {sum(t for _, t in pairs) / len(pairs):.3f}, "
          f"worst bucket gap (n >= 30) {worst:.3f}")
    print("  bucket       n   predicted  observed   gap")
    for b in rows:
        print(f"  {b['lo']:.1f}-{b['hi']:.1f} {b['n']:6d}   {b['predicted']:.3f}      "
              f"{b['observed']:.3f}    {b['observed'] - b['predicted']:+.3f}")
    return {"n": len(pairs), "brier": brier(pairs), "worst_gap_n30": worst,
            "buckets": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dry-run", action="store_true", help="write nothing")
    parser.add_argument("--records", type=Path, default=RECORDS,
                        help=f"the self-play records (default {RECORDS})")
    parser.add_argument("--reuse", action="store_true",
                        help="fit the records saved by an earlier run instead of playing")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    if args.reuse:
        records = load(args.records)
    else:
        size = 10
        tasks = [(i, min(size, args.games - i), args.seed) for i in range(0, args.games, size)]
        records = []
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for part in pool.map(_chunk, tasks):
                records += part
        save(records, args.records)
    print(f"{len(records)} plays from {len({r.game for r in records})} games in "
          f"{time.perf_counter() - t0:.0f} s")
    train = [r for r in records if not held_out(r)]
    test = [r for r in records if held_out(r)]
    simple = [FEATURES.index(f) for f in SIMPLE]
    models = {"pooled": fit(train), "simple": fit(train, columns=simple)}
    links = {"pooled": fit_link(train, models["pooled"]),
             "simple": fit_link(train, models["simple"], simple)}
    for level in LEVELS:
        mine = [r for r in train if r.level == level]
        if len(mine) >= 200:
            models[level] = fit(mine)
            links[level] = fit_link(mine, models[level])
    report: dict[str, object] = {}
    pooled = models["pooled"]
    report["calibrated (pooled), held out"] = table(
        "calibrated belief (pooled), held-out games",
        [(predict(r, pooled, link=links["pooled"]), r.truthful) for r in test])
    report["calibrated, first stage only, held out"] = table(
        "first stage alone (no link), held-out games",
        [(predict(r, pooled), r.truthful) for r in test])
    report["simple (normal's), held out"] = table(
        "simple one-feature model (normal's doubts), held-out games",
        [(predict(r, models["simple"], simple, links["simple"]), r.truthful) for r in test])
    report["plain odds, held out"] = table(
        "plain card odds, held-out games", [(r.odds, r.truthful) for r in test])
    belief = FEATURES.index("belief")
    report["old structural belief, held out"] = table(
        "old structural belief (hard's before issue 11), held-out games",
        [(0.0 if r.x is None else 1 / (1 + math.exp(-r.x[belief])), r.truthful)
         for r in test])
    for level in LEVELS:
        mine = [r for r in test if r.level == level]
        if mine:
            report[f"calibrated (pooled) on {level}'s plays"] = table(
                f"calibrated (pooled) on {level}'s plays, held out",
                [(predict(r, pooled, link=links["pooled"]), r.truthful) for r in mine])
    data = {
        "features": list(FEATURES),
        "note": ("logistic model of P(truthful) fitted by maximum likelihood on self-play "
                 "(scripts/fit_liar_calibration.py); 'pooled' is used at the table"),
        "fitted_on": {"games": args.games, "seed": args.seed, "lineups": LINEUPS,
                      "rules": RULES, "train_plays": len(train), "held_out_plays": len(test)},
        "models": models,
        "links": links,
        "held_out": report,
    }
    if not args.dry_run:
        OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
