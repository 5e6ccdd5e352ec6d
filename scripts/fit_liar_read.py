#!/usr/bin/env python3
"""Fit and check the Liar expert's per-opponent read of leads:
:data:`usotsuki.bots.liar.calibrated.LEAD_READ`.

Plays seeded games (:func:`usotsuki.tournament.play_game`, the bots of the calibration's
fitting population, :func:`usotsuki.research.liar_fit.fit_bot`) and records every play as the
next seat to move saw it: the pooled calibrated belief (``calibrated_truth``), the read
(``read_truth``), whether it was a lead, the player's doubted leads so far (truthful,
lies) and whether the play was truthful.

- ``--fit``: the Beta prior's weights (a, b) by maximum likelihood on the leads (for each
  a of a grid, b by golden-section search on its log scale); prints the log-likelihood
  gained over the pooled model.
- default (the check): the reliability table by bucket (tenths) and the Brier score of the
  pooled belief and of the read, on all plays, on leads, on the other plays and per bot,
  for held-out seeds.

    nice .venv/bin/python scripts/fit_liar_read.py --fit [--seed 131]
    nice .venv/bin/python scripts/fit_liar_read.py [--seed 141] [--games 60]

- ``--fit --follows``: the same fit for the read of the plays that answer another
  (:data:`usotsuki.bots.liar.calibrated.FOLLOW_READ`), by the player's doubted plays of
  that kind; ``--lowest``: only the plays declared at the lowest legal rate are read
  (a variant tried and not shipped: docs/experiments.md); the gain is printed per bot
  too. ``--save FILE`` writes the plays seen, ``--load FILE`` fits on saved plays
  instead of playing. ``FOLLOW_READ`` is the fit of two saved runs together:
  ``--seeds 131,132,133,134 --games 30 --expert-games 0`` and
  ``--seeds 0,0,0,135,122 --games 0 --expert-games 6``.

Each line-up of :data:`LINEUPS` plays ``--games`` games (``expert-v1`` heads-up a third
as many, one ``expert`` against three ``expert-v1`` ``--expert-games``: those cost 1.5 and
18 s of CPU a game), the line-up ``i`` with seed ``--seed + i`` (or the ``i``-th of
``--seeds``). The fit plays the first five line-ups. The shipped weights are what
``--fit --seeds 131,132,133,134,121 --games 60 --expert-games 4`` fits (a first run of
the same procedure; on the first four line-ups alone, ``--expert-games 0``, the lies'
weight comes out at 0.089: see ``LEAD_READ``); checked with ``--seed 141 --games 60``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from usotsuki import tournament
from usotsuki.bots.liar.belief import doubted_record
from usotsuki.bots.liar.calibrated import calibrated_truth, read_truth
from usotsuki.liar.actions import CARD_RATE, Play
from usotsuki.research.liar_fit import brier, fit_bot, reliability

LINEUPS: tuple[tuple[str, ...], ...] = (
    ("lead-50", "hard", "normal", "hard"), ("hard", "hard", "normal", "normal"),
    ("lead-50", "normal"), ("expert-v1", "hard"),
    ("expert", "expert-v1", "expert-v1", "expert-v1"),
    ("x-never-lie", "hard", "normal", "hard"),
)
"""Players who lead truthfully, ``hard`` lying in half of its truthful leads (``lead-50``),
``expert-v1`` (which lies in about half of its leads heads-up) and ``x-never-lie`` (a
tuning-half exploiter: the read must not distrust a truthful leader). The check plays
them all; the fit plays the first five."""


@dataclass(frozen=True, slots=True)
class Seen:
    """One play by ``bot`` as the next seat to move saw it."""

    bot: str
    lead: bool
    pooled: float
    read: float
    record: tuple[int, int]  # the player's doubted leads so far: truthful, lies
    truthful: bool
    others: tuple[int, int] = (0, 0)  # its doubted other plays so far: truthful, lies
    lowest: bool = False  # declared at the lowest rate legal then


def games(lineup: Sequence[str], seed: int, count: int) -> list[Seen]:
    """Every play of ``count`` seeded games of ``lineup`` (seats rotating)."""
    spec = tournament.Spec("liar", len(lineup), tuple(lineup), count, seed)
    seen: list[Seen] = []

    def observe(before: Any, seat: int, action: Any, after: Any) -> None:
        state = after.state
        if (not isinstance(action, Play) or not state.field or state.field[-1].seat != seat
                or state.to_move is None):
            return
        v = after.view(state.to_move)
        pooled, read = calibrated_truth(v), read_truth(v)
        if pooled is None or read is None:
            return
        current = state.field[-1]
        seen.append(Seen(names[seat], len(state.field) == 1, pooled, read,
                         doubted_record(v.doubts, seat, lead=True),
                         all(CARD_RATE[c] == current.rate for c in current.cards),
                         doubted_record(v.doubts, seat, lead=False),
                         current.rate == v.before_last_play().ranked[0]))

    for g in range(count):
        names = spec.lineup(g)
        tournament.play_game(spec, g, bots=[fit_bot(n) for n in names], observe=observe)
    return seen


def log_likelihood(leads: Sequence[Seen], a: float, b: float,
                   follows: bool = False) -> float:
    """The leads' log-likelihood under the read with prior weights (a, b); ``follows``:
    the other plays' under a read of the player's doubted other plays."""
    total = 0.0
    for s in leads:
        p = min(1 - 1e-9, max(1e-9, s.pooled))
        truths, lies = s.others if follows else s.record
        z = math.log(p / (1 - p)) + math.log((a + truths) / a) - math.log((b + lies) / b)
        q = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
        total += math.log(q if s.truthful else 1 - q)
    return total


def golden(f: Callable[[float], float], lo: float, hi: float, steps: int = 40) -> float:
    """The maximum of a unimodal ``f`` on [lo, hi] by golden-section search."""
    r = (math.sqrt(5) - 1) / 2
    x1, x2 = hi - r * (hi - lo), lo + r * (hi - lo)
    f1, f2 = f(x1), f(x2)
    for _ in range(steps):
        if f1 < f2:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + r * (hi - lo)
            f2 = f(x2)
        else:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - r * (hi - lo)
            f1 = f(x1)
    return (lo + hi) / 2


def fit(seen: Sequence[Seen], follows: bool = False, lowest: bool = False) -> None:
    """The prior's weights by maximum likelihood: on the leads, or (``follows``) on the
    other plays read by the player's doubted other plays (``lowest``: only those declared
    at the lowest legal rate are read, the others keep the pooled belief)."""
    leads = [s for s in seen if s.lead != follows and 0.0 < s.pooled < 1.0
             and (s.lowest or not lowest)]
    base = log_likelihood(leads, 1e12, 1e12)  # no shift: the pooled model
    print(f"{len(leads)} {'other plays' if follows else 'leads'}; pooled log-likelihood "
          f"{base:.1f}")
    for a in (0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 1e9):
        b = math.exp(golden(lambda lb, a=a: log_likelihood(leads, a, math.exp(lb), follows),
                            -5.0, 5.0))
        gain = log_likelihood(leads, a, b, follows) - base
        print(f"  a = {a:g}: b = {b:.3f}, gain {gain:.1f} nats")
        for bot in sorted({s.bot for s in leads}):
            mine = [s for s in leads if s.bot == bot]
            print(f"    {bot}: {len(mine)} plays, gain "
                  f"{log_likelihood(mine, a, b, follows) - log_likelihood(mine, 1e12, 1e12):.1f}")


def table(name: str, pairs: list[tuple[float, bool]]) -> None:
    if not pairs:
        return
    rows = reliability(pairs)
    worst = max((abs(r["observed"] - r["predicted"]) for r in rows if r["n"] >= 30),
                default=0.0)
    cells = " ".join(f"{r['lo']:.1f}:{r['n']}:{r['observed'] - r['predicted']:+.3f}"
                     for r in rows)
    print(f"  {name:34} n={len(pairs):5} Brier {brier(pairs):.4f} worst bucket "
          f"(n >= 30) {worst:.3f}  [{cells}]")


def check(seen: Sequence[Seen]) -> None:
    parts: list[tuple[str, Callable[[Seen], bool]]] = [
        ("all plays", lambda s: True), ("leads", lambda s: s.lead),
        ("other plays", lambda s: not s.lead)]
    parts += [(f"{bot} {'leads' if lead else 'other'}",
               lambda s, bot=bot, lead=lead: s.bot == bot and s.lead == lead)  # type: ignore[misc]
              for bot in sorted({s.bot for s in seen}) for lead in (True, False)]
    for name, keep in parts:
        mine = [s for s in seen if keep(s)]
        table(f"{name}, pooled", [(s.pooled, s.truthful) for s in mine])
        table(f"{name}, read", [(s.read, s.truthful) for s in mine])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=141)
    parser.add_argument("--games", type=int, default=60, help="games per 4-player line-up")
    parser.add_argument("--seeds", default="",
                        help="one seed per line-up, comma-separated (default: --seed + i)")
    parser.add_argument("--expert-games", type=int, default=2,
                        help="games of one expert against three expert-v1 (18 s of CPU each)")
    parser.add_argument("--fit", action="store_true", help="fit the prior's weights")
    parser.add_argument("--follows", action="store_true",
                        help="with --fit: fit a read of the other plays (not the leads)")
    parser.add_argument("--lowest", action="store_true",
                        help="with --follows: read only the plays at the lowest legal rate")
    parser.add_argument("--save", type=Path, help="also write the plays seen here (JSON)")
    parser.add_argument("--load", type=Path, help="read the plays from a --save file")
    args = parser.parse_args(argv)
    seen: list[Seen] = []
    if args.load:
        seen = [Seen(**{**e, "record": tuple(e["record"]), "others": tuple(e["others"])})
                for e in json.loads(args.load.read_text())]
    lineups = LINEUPS[:5] if args.fit else LINEUPS
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else []
    for i, lineup in enumerate(lineups if not args.load else ()):
        count = args.games
        if "expert" in lineup:
            count = args.expert_games
        elif "expert-v1" in lineup:
            count = max(1, args.games // 3)
        if count:
            seen += games(lineup, seeds[i] if i < len(seeds) else args.seed + i, count)
    print(f"{len(seen)} plays")
    if args.save:
        args.save.write_text(json.dumps([asdict(s) for s in seen]))
    if args.fit:
        fit(seen, args.follows, args.lowest)
    else:
        check(seen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
