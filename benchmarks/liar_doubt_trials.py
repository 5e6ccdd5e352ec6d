"""Trials of ``normal`` doubting more: its belief capped at a share of the plain odds.

``normal`` doubts by its small calibrated belief (``simple_truth``). Each variant caps that
belief at ``cap`` times the plain odds that the player could make the play truthfully
(:func:`usotsuki.odds_liar.able_before_play`), so it doubts more, and plays heads-up
against the faithful reader of itself (:class:`usotsuki.bots.liar.readers.ReaderBot`
modelling the variant, not ``normal``) and against ``x-never-lie``, which punishes
doubting. Games through :func:`usotsuki.tournament.play_game` (seats alternating,
seeded); a game without a winner counts one half.

    python benchmarks/liar_doubt_trials.py [--caps none,0.8,0.6] [--games 60] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any


def variant(cap: float | None) -> Callable[[], Any]:
    from usotsuki.bots.liar.calibrated import simple_truth
    from usotsuki.bots.liar.levels import NORMAL_WEIGHTS, LevelBot
    from usotsuki.liar.view import LiarView
    from usotsuki.odds_liar import able_before_play

    def capped(view: LiarView) -> float | None:
        belief = simple_truth(view)
        able = able_before_play(view)
        if cap is None or belief is None or able is None:
            return belief
        return min(belief, cap * able)

    return lambda: LevelBot("normal", capped, NORMAL_WEIGHTS)


def share(make: Callable[[], Any], opponent: str, games: int, seed: int) -> float:
    from usotsuki.bots import make_bot
    from usotsuki.bots.liar.readers import ReaderBot
    from usotsuki.tournament import Spec, play_game

    spec = Spec("liar", 2, ("x", "normal"), games, seed)
    wins = 0.0
    for g in range(games):
        lineup = spec.lineup(g)
        bots = [make() if name == "normal" else
                ReaderBot("x", make) if opponent == "reader" else make_bot("liar", opponent)
                for name in lineup]
        result = play_game(spec, g, bots=bots)
        wins += 0.5 if result.winner is None else float(lineup[result.winner] == "normal")
    return wins


def main(argv: list[str] | None = None) -> int:
    from usotsuki.tournament import wilson

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--caps", default="none,0.8,0.6")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for text in args.caps.split(","):
        cap = None if text.strip() == "none" else float(text)
        for opponent in ("reader", "x-never-lie"):
            wins = share(variant(cap), opponent, args.games, args.seed)
            low, high = wilson(round(wins), args.games)
            print(f"cap {text:4} vs {opponent:11}: {wins:.1f}/{args.games} = "
                  f"{wins / args.games:.3f} [{low:.3f}, {high:.3f}]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
