#!/usr/bin/env python3
"""Fit the calibrated Liar Game belief to self-play and write
``src/usotsuki/bots/liar/calibration.json``.

Plays seeded games of the levels below the expert and of players who lie more than they
do (heads-up and 4 players, plain rules and all house rules; see :data:`LINEUPS`),
records every play as the next seat to move saw it, fits the model of
:mod:`usotsuki.bots.liar.calibrated` (two logistic stages and a monotone map) by maximum
likelihood per level and pooled on all the games, and reports held-out calibration by
cross-validation (:func:`fold`: each play predicted by the model fitted without its
game): a reliability table by bucket and the Brier score of the calibrated belief, of
the plain card odds and of the structural ``belief`` feature alone. Everything is derived
from ``--seed``; the JSON keeps the figures.

    nice .venv/bin/python scripts/fit_liar_calibration.py [--games 480] [--jobs 2]
        [--seed 1] [--dry-run] [--only simple,hint] [--check] [--reuse] [--records FILE]

``--only simple,hint`` refits ``normal``'s small model or the hint's model (the pooled
procedure) alone and keeps every other model of the shipped file: the pooled model that
``hard`` and the expert read stays as it was fitted (``--only pooled`` refits that one
alone, keeping the hint's). Why the hint has its own model: the
bots that read the pooled model play differently once it is refitted, so a model fitted on
their games is calibrated for the bots before the refit (a pooled model that also served
the hint was within 0.014 of every bucket by cross-validation, but off by up to 0.11 on
fresh games of the bots that read it); the hint changes nobody's play, so a hint refitted
on the shipped bots' games stays calibrated for them. The shipped pooled model is also
scored on the new games, which it was not fitted on. ``--check`` only scores the shipped
models on the games (no fit, no write): with a new ``--seed``, a held-out check.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from usotsuki.bots.liar.calibrated import DATA, FEATURES, SIMPLE
from usotsuki.research.liar_fit import (
    Record,
    brier,
    collect,
    fit,
    fit_link,
    isotonic_knots,
    load,
    predict,
    reliability,
    save,
)

LINEUPS = (
    ("normal", "hard"), ("easy", "normal"), ("hard", "hard"), ("normal", "normal"),
    ("easy", "normal", "hard", "hard"), ("normal", "hard", "hard", "normal"),
    ("hard", "normal", "normal", "normal"), ("easy", "easy", "normal", "hard"),
    ("normal", "normal", "hard", "hard"),
    # players who lie more than the levels (x-always-lie, and hard lying in a share of its
    # truthful plays, liar_fit.fit_bot), so that the belief learns what a player's record
    # of caught lies says (fitted on the levels alone it trusted a player who lied every
    # turn at about 0.85); held-out exploiters (x-lie-doubt-50...) are never used here
    ("x-always-lie", "hard", "normal", "hard"), ("lie-50", "normal", "hard", "hard"),
    ("x-always-lie", "hard"), ("lie-25", "normal"), ("lie-75", "hard", "normal", "normal"),
    # players who lie at their leads: expert-v1 lies in about half of them, and fitted on
    # players who lead truthfully the belief put its leads at 0.97 (hard lying in half of
    # its truthful leads, and expert-v1 itself heads-up: one such game costs about 1.5 s
    # of CPU, so it is one line-up of 17)
    ("lead-50", "hard", "normal", "hard"), ("lead-50", "normal"), ("expert-v1", "hard"),
)  # game g: line-up g % 17, rules g // 17 % 2 (liar_fit.collect). No expert: a 4-player
# game with one expert costs about 12 s of CPU against 0.04 s for the others, so its two
# line-ups (7% of the plays) took nearly all of the fit's time; the belief is fitted on
# the levels below it, expert-v1 heads-up, and the liars.
RULES = ("", "all")
TURN_LIMIT = 300
LEVELS = ("easy", "normal", "hard", "expert")
RECORDS = Path(__file__).resolve().parent.parent / ".bench" / "liar_fit_records.json"
OUT = Path(__file__).resolve().parent.parent / "src" / "usotsuki" / "bots" / "liar" / DATA


def _chunk(args: tuple[int, int, int]) -> list[Record]:
    first, count, seed = args
    return collect(LINEUPS, RULES, count, seed, turn_limit=TURN_LIMIT, first=first)


FOLDS = 4


def fold(r: Record) -> int:
    """The cross-validation fold of a play's game: folds of game pairs (``g // 2 % FOLDS``:
    games ``8m + 2k`` and ``8m + 2k + 1``; game ``g`` uses line-up ``g % 17``, and 8 is
    prime to 17, so each fold covers every line-up, under both rule sets once there are
    272 games a fold), and a game's plays never straddle two folds."""
    return r.game // 2 % FOLDS


Fitted = tuple[dict[str, list[float]], dict[str, list[float]],
               dict[str, list[tuple[float, float]]]]


def fit_all(records: list[Record], simple: list[int], per_level: bool) -> Fitted:
    """The pooled and simple models (and, with ``per_level``, one per level with 200
    plays or more): first stage, second stage, and the monotone third stage fitted on the
    same records' second-stage predictions."""
    models = {"pooled": fit(records), "simple": fit(records, columns=simple)}
    links = {"pooled": fit_link(records, models["pooled"]),
             "simple": fit_link(records, models["simple"], simple)}
    if per_level:
        for level in LEVELS:
            mine = [r for r in records if r.level == level]
            if len(mine) >= 200:
                models[level] = fit(mine)
                links[level] = fit_link(mine, models[level])
    knots = {"pooled": isotonic_knots([(predict(r, models["pooled"], link=links["pooled"]),
                                        r.truthful) for r in records if r.x is not None]),
             "simple": isotonic_knots([(predict(r, models["simple"], simple, links["simple"]),
                                        r.truthful) for r in records if r.x is not None])}
    return models, links, knots


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


def only(text: str) -> str:
    """``--only``'s value: ``all`` or some of :data:`REFITS`, comma-separated."""
    if text != "all" and not set(text.split(",")) <= set(REFITS):
        raise argparse.ArgumentTypeError(f"--only takes all or some of {', '.join(REFITS)}")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=480)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dry-run", action="store_true", help="write nothing")
    parser.add_argument("--records", type=Path, default=RECORDS,
                        help=f"the self-play records (default {RECORDS})")
    parser.add_argument("--only", default="all", type=only,
                        help="refit these models alone, comma-separated: "
                             f"{', '.join(REFITS)} (see above)")
    parser.add_argument("--check", action="store_true",
                        help="only score the shipped models on the games (no fit, no write)")
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
    if args.check:
        check(records)
        return 0
    # Held-out figures by cross-validation: each play is predicted by a model fitted
    # without its game (FOLDS folds of game pairs, :func:`fold`), so every play is held
    # out once; the shipped model is then fitted on all the games.
    simple = [FEATURES.index(f) for f in SIMPLE]
    out_of_fold: dict[str, list[tuple[float, bool]]] = {
        "pooled": [], "two": [], "first": [], "simple": []}
    ordered: list[Record] = []
    for k in range(FOLDS):
        train = [r for r in records if fold(r) != k]
        test = [r for r in records if fold(r) == k]
        models, links, knots = fit_all(train, simple, per_level=False)
        ordered += test
        out_of_fold["pooled"] += [(predict(r, models["pooled"], link=links["pooled"],
                                           knots=knots["pooled"]), r.truthful) for r in test]
        out_of_fold["two"] += [(predict(r, models["pooled"], link=links["pooled"]),
                                r.truthful) for r in test]
        out_of_fold["first"] += [(predict(r, models["pooled"]), r.truthful) for r in test]
        out_of_fold["simple"] += [(predict(r, models["simple"], simple, links["simple"],
                                           knots["simple"]), r.truthful) for r in test]
    report: dict[str, object] = {}
    report["calibrated (pooled), held out"] = table(
        f"calibrated belief (pooled, three stages), held out ({FOLDS}-fold by game)",
        out_of_fold["pooled"])
    report["calibrated, two stages (no monotone map), held out"] = table(
        "two logistic stages alone (no monotone map), held out", out_of_fold["two"])
    report["calibrated, first stage only, held out"] = table(
        "first stage alone (no link), held out", out_of_fold["first"])
    report["simple (normal's), held out"] = table(
        "simple model (normal's doubts: able odds and doubted record), held out",
        out_of_fold["simple"])
    report["plain odds, held out"] = table(
        "plain card odds", [(r.odds, r.truthful) for r in ordered])
    belief = FEATURES.index("belief")
    report["old structural belief, held out"] = table(
        "structural belief feature alone",
        [(0.0 if r.x is None else 1 / (1 + math.exp(-r.x[belief])), r.truthful)
         for r in ordered])
    for level in [*LEVELS, *sorted({r.level for r in records} - set(LEVELS))]:
        mine = [pair for r, pair in zip(ordered, out_of_fold["pooled"], strict=True)
                if r.level == level]
        if mine:
            report[f"calibrated (pooled) on {level}'s plays"] = table(
                f"calibrated (pooled) on {level}'s plays, held out", mine)
    if args.only != "all":
        return refit_some(records, args.only.split(","), simple, report, args)
    models, links, knots = fit_all(records, simple, per_level=True)
    # the hint follows the pooled model (see --only)
    models["hint"], links["hint"], knots["hint"] = (models["pooled"], links["pooled"],
                                                    knots["pooled"])
    data = {
        "features": list(FEATURES),
        "note": ("logistic model of P(truthful) (two stages, then a monotone map) fitted by "
                 "maximum likelihood on self-play (scripts/fit_liar_calibration.py) on all "
                 "the games; 'pooled' is what hard and the expert read, 'hint' (a copy of "
                 "it until refitted alone) what the table shows; 'held_out' is the "
                 f"{FOLDS}-fold cross-validation by game of the same procedure"),
        "fitted_on": {"games": args.games, "seed": args.seed, "lineups": LINEUPS,
                      "rules": RULES, "plays": len(records), "folds": FOLDS},
        "models": models,
        "links": links,
        "isotonic": knots,
        "held_out": report,
    }
    if not args.dry_run:
        write(data)
        print(f"\nwrote {OUT}")
    return 0


def write(data: dict[str, object]) -> None:
    """Replace the data file at once (a game reading it meanwhile sees one or the other)."""
    tmp = OUT.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(OUT)


def shipped(data: dict[str, object], name: str
            ) -> tuple[list[float], list[float], list[tuple[float, float]]]:
    """The shipped model ``name`` of the data file: coefficients, link, monotone map."""
    models, links, knots = data["models"], data["links"], data["isotonic"]
    assert isinstance(models, dict) and isinstance(links, dict) and isinstance(knots, dict)
    return models[name], links[name], [(float(x), float(f)) for x, f in knots[name]]


def check(records: list[Record]) -> None:
    """``--check``: the shipped pooled, hint and simple models scored on these games (held out
    when the games are new: another ``--seed`` than the models were fitted with)."""
    data = json.loads(OUT.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise SystemExit(f"{OUT} was fitted on other features")
    simple = [FEATURES.index(f) for f in SIMPLE]
    for name, columns in (("pooled", None), ("hint", None), ("simple", simple)):
        if name not in data["models"]:
            continue
        coef, link, knots = shipped(data, name)
        table(f"the shipped {name} model on these games",
              [(predict(r, coef, columns, link, knots), r.truthful) for r in records])
        if name == "hint":
            continue
        for level in sorted({r.level for r in records}):
            mine = [r for r in records if r.level == level]
            if len(mine) >= 300:
                table(f"the shipped {name} model on {level}'s plays",
                      [(predict(r, coef, columns, link, knots), r.truthful) for r in mine])


REFITS = ("simple", "hint", "pooled")
"""The models ``--only`` may refit alone: ``normal``'s small model, the hint's, and the
pooled one that ``hard`` and the expert read."""


def refit_some(records: list[Record], names: list[str], simple: list[int],
               report: dict[str, object], args: argparse.Namespace) -> int:
    """``--only NAMES``: the shipped file with the models ``names`` refitted on all the
    games (``hint``: by the pooled model's procedure) and the other models kept; each
    refit's games and held-out figures go under ``refits``, beside the shipped pooled
    model scored on the same games (fitted on others, so held out)."""
    data = json.loads(OUT.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise SystemExit(f"{OUT} was fitted on other features: refit them all")
    coef, link, knots = shipped(data, "pooled")
    fresh = table("the shipped pooled model (not refitted) on these games",
                  [(predict(r, coef, link=link, knots=knots), r.truthful) for r in records])
    models, links, isotonic = fit_all(records, simple, per_level=False)
    held = {"simple": report["simple (normal's), held out"],
            "hint": report["calibrated (pooled), held out"],
            "pooled": report["calibrated (pooled), held out"]}
    refits = data.setdefault("refits", {})
    for name in names:
        source = "pooled" if name == "hint" else name
        data["models"][name] = models[source]
        data["links"][name] = links[source]
        data["isotonic"][name] = isotonic[source]
        refits[name] = {
            "features": list(SIMPLE if name == "simple" else FEATURES),
            "fitted_on": {"games": args.games, "seed": args.seed, "lineups": LINEUPS,
                          "rules": RULES, "plays": len(records), "folds": FOLDS},
            "held_out": held[name],
            "shipped pooled model on these games": fresh,
        }
    data["note"] = data["note"].split("; refitted alone later")[0] + (
        f"; refitted alone later (--only): {', '.join(sorted(refits))}, their games and "
        "held-out figures under 'refits'")
    if not args.dry_run:
        write(data)
        print(f"\nwrote {OUT} ({', '.join(names)} only)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
