"""Fit the expert's map for the call in front of it with three or more seats in play.

Reads ``bluff_expert_diag.py --json`` records (self-play: ``--lineup
expert,expert,expert,expert``), keeps the searched decisions of ``expert`` that faced a call
its own cards left uncertain with three or more seats in play, and fits by maximum
likelihood ``P(the call is true) = sigmoid(slope * logit(p) + intercept)``, ``p`` the
search belief's probability of the call (``fit_logistic``). The first file(s) fit, the
``--check`` files are held out: their log loss and Brier score, and a reliability table,
for the belief as it is, the map, and the plain share of true calls::

    python benchmarks/bluff_many_map.py .bench/diag_self7.json --check .bench/diag_self8.json

``--collect OUT --lineup L --games N --seed S`` writes such records without a search: every
decision of every seat (``--bot any`` reads them all) that faced a call its own cards left
uncertain with three or more seats in play, with the ``search`` belief of that seat drawn
on ``--particles`` particles (4,096: the expert's number there;
a map fitted on 256 particles is flattened by their noise)::

    python benchmarks/bluff_many_map.py --collect .bench/many_hard7.json \
        --lineup hard,hard,hard,hard --games 6 --seed 7
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from usotsuki.bots.bluff.calibration import Calibration, recalibrate
from usotsuki.research.bluff_fit import fit_logistic, isotonic_knots

EPS = 1e-3


def load(paths: list[Path], bot: str) -> tuple[np.ndarray, np.ndarray]:
    p, y = [], []
    for path in paths:
        for r in json.loads(path.read_text(encoding="utf-8"))["rows"]:
            if ((bot == "any" or r["bot"] == bot) and "p_current" in r and 0.0 < r["exact"] < 1.0
                    and r["players"] >= 3):
                p.append(r["p_current"])
                y.append(float(r["current_true"]))
    return np.clip(np.array(p), EPS, 1.0 - EPS), np.array(y)


def scores(q: np.ndarray, y: np.ndarray) -> str:
    q = np.clip(q, EPS, 1.0 - EPS)
    loss = -float(np.mean(y * np.log(q) + (1.0 - y) * np.log(1.0 - q)))
    return f"log loss {loss:.3f}, Brier {float(np.mean((q - y) ** 2)):.3f}"


def collect(out: Path, lineup: tuple[str, ...], games: int, seed: int, particles: int) -> None:
    """Play the line-up's seeded games; write each uncertain call faced with 3+ seats in
    play, the facing seat's search belief of it, and whether it was true (B8)."""
    import random

    from usotsuki.bots.bluff.belief import sample
    from usotsuki.bots.bluff.calibration import calibration
    from usotsuki.odds import call_probabilities, call_probability
    from usotsuki.tournament import Spec, play_game

    spec = Spec("bluff", len(lineup), lineup, games, seed)
    model = calibration("search").model(particles)
    rows: list[dict[str, object]] = []
    names: list[tuple[str, ...]] = [lineup]  # the game's seats (the line-up rotates)

    def observe(session: Any, seat: int, _action: Any, _after: Any) -> None:
        v = session.view(seat)
        call = v.current_call
        players = sum(1 for n in v.hand_sizes if n)
        if call is None or players < 3:
            return
        hand = v.hand or ()
        exact = float(call_probabilities(hand, v.cards_in_play - len(hand), v.ranks)[
            call.index])
        if not 0.0 < exact < 1.0:
            return
        cards = tuple(c for h in session.state.hands for c in h)
        belief = sample(v, random.Random(1), model)  # as the shipped fit drew them
        rows.append({"bot": names[0][seat], "players": players, "exact": exact,
                     "p_current": belief.probability(call.index),
                     "current_true": call_probability(call, cards, 0) >= 1.0})

    for g in range(games):
        names[0] = spec.lineup(g)
        play_game(spec, g, None, observe)
    out.write_text(json.dumps({"lineup": list(lineup), "seed": seed, "games": games,
                               "particles": particles, "rows": rows}), encoding="utf-8")
    print(f"{out}: {len(rows)} decisions")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fit", type=Path, nargs="*")
    parser.add_argument("--collect", type=Path)
    parser.add_argument("--lineup", default="hard,hard,hard,hard")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--particles", type=int, default=4096)
    parser.add_argument("--check", type=Path, nargs="*", default=[])
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--knots", type=int, default=0,
                        help="also fit a monotone map (isotonic_knots over this many "
                             "quantile bins) after the logistic one")
    args = parser.parse_args(argv)
    if args.collect:
        collect(args.collect, tuple(args.lineup.split(",")), args.games, args.seed,
                args.particles)
        return 0
    p, y = load(args.fit, args.bot)
    slope, intercept, _ = fit_logistic(np.log(p / (1.0 - p)), y)
    print(f"fitted on {y.size} decisions ({y.mean():.3f} true): slope {slope:.3f}, "
          f"intercept {intercept:.3f}")
    cal = Calibration(slope=slope, intercept=intercept)
    if args.knots:
        cal = replace(cal, knots=isotonic_knots(recalibrate(p, p, cal), y, args.knots))
        print(f"knots: {[list(k) for k in cal.knots]}")
    for name, (q, t) in (("fit", (p, y)), ("held out", load(args.check, args.bot))):
        if not t.size:
            continue
        mapped = recalibrate(q, q, cal)
        print(f"{name} ({t.size}): belief {scores(q, t)}; map {scores(mapped, t)}; "
              f"share of true calls {scores(np.full_like(q, y.mean()), t)}")
        for lo in np.arange(0.0, 1.0, 0.1):
            m = (q >= lo) & (q < lo + 0.1)
            if m.any():
                print(f"  belief {lo:.1f}-{lo + 0.1:.1f}: n {int(m.sum()):4d}, true "
                      f"{t[m].mean():.2f}, map {mapped[m].mean():.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
