"""Trials of ``normal``'s heads-up doubts against the faithful reader of each trial.

Each variant is ``normal`` (its weights, its Gibbs mixing) with another belief or doubt
rule heads-up, and plays heads-up against the faithful reader of itself
(:class:`usotsuki.bots.liar.readers.ReaderBot` modelling the variant, not ``normal``)
and against ``x-never-lie``, which punishes doubting (and any other exploiter named in
``--opponents``). Games through :func:`usotsuki.tournament.play_game` (seats
alternating, seeded); a game without a winner counts one half. The variants:

- ``small``: the small calibrated belief (:func:`usotsuki.bots.liar.calibrated.simple_truth`),
  as ``normal`` reads at three or more players;
- ``full``: ``normal`` as shipped (:func:`usotsuki.bots.liar.calibrated.normal_truth`:
  the full calibrated belief heads-up);
- ``capX``: the small belief capped at X times the plain odds that the player could
  make the play truthfully (:func:`usotsuki.odds_liar.able_before_play`);
- ``learn``: the small belief capped at the posterior truth of a player who plays
  truthfully whenever it can and otherwise lies at a rate learnt from this game's
  doubts of its plays (a Beta(1, 2) prior on the rate; a doubt's lie or truth counted);
- ``floorX``: the small belief, and a doubt at least X of the time wherever one is
  legal (an audit);
- ``other1``, ``full-other1``: the small belief, or ``normal`` as shipped, with a card the
  opponent draws worth a card of one's own (``Weights.other_loss`` 1, where ``normal``
  has 0.5).

    python benchmarks/liar_doubt_trials.py [--variants small,full,cap0.8,...] [--games 60]
        [--seed 1] [--opponents reader,x-never-lie]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any


class Floored:
    """``normal``'s rule on the small belief with a doubt at least ``floor`` of the time
    where one is legal: the rule's distribution with the doubt raised to ``floor`` and the
    rest scaled down."""

    name = "normal"

    def __init__(self, floor: float) -> None:
        from usotsuki.bots.liar.calibrated import simple_truth
        from usotsuki.bots.liar.levels import NORMAL_WEIGHTS, LevelBot

        self.level = LevelBot("normal", simple_truth, NORMAL_WEIGHTS)
        self.floor = floor

    def distribution(self, view: Any, legal: Any) -> dict[Any, float]:
        from usotsuki.liar.actions import DOUBT

        probs = self.level.distribution(view, legal)
        doubt = probs.get(DOUBT, 0.0)
        if not legal.doubt or doubt >= self.floor or legal.accept:
            return probs
        scale = (1.0 - self.floor) / (1.0 - doubt)
        out = {a: p * scale for a, p in probs.items() if a != DOUBT}
        out[DOUBT] = self.floor
        return out

    def act(self, view: Any, legal: Any, rng: random.Random) -> Any:
        x = rng.random()
        probs = list(self.distribution(view, legal).items())
        for action, p in probs:
            x -= p
            if x < 0.0:
                return action
        return probs[-1][0]


def variant(name: str) -> Callable[[], Any]:
    from usotsuki.bots.liar.belief import doubted_record
    from usotsuki.bots.liar.calibrated import normal_truth, simple_truth
    from usotsuki.bots.liar.levels import NORMAL_WEIGHTS, LevelBot, normal_bot
    from usotsuki.liar.view import LiarView
    from usotsuki.odds_liar import able_before_play

    def capped(cap: float) -> Callable[[LiarView], float | None]:
        def belief(view: LiarView) -> float | None:
            small, able = simple_truth(view), able_before_play(view)
            return small if small is None or able is None else min(small, cap * able)
        return belief

    def learnt(view: LiarView) -> float | None:
        small, able = simple_truth(view), able_before_play(view)
        if small is None or able is None or able <= 0.0:
            return small
        truths, lies = doubted_record(view.doubts, view.field[-1].seat)
        rate = (lies + 1.0) / (lies + truths + 3.0)
        return min(small, able / (able + (1.0 - able) * rate))

    if name == "full":
        return normal_bot
    if name == "full-other1":
        return lambda: LevelBot("normal", normal_truth, replace(NORMAL_WEIGHTS, other_loss=1.0))
    if name.startswith("floor"):
        return lambda: Floored(float(name[5:]))
    weights = replace(NORMAL_WEIGHTS, other_loss=1.0) if name == "other1" else NORMAL_WEIGHTS
    beliefs: dict[str, Callable[[LiarView], float | None]] = {
        "small": simple_truth, "other1": simple_truth, "learn": learnt}
    if name.startswith("cap"):
        beliefs[name] = capped(float(name[3:]))
    if name not in beliefs:
        raise SystemExit(f"unknown variant {name!r}")
    belief = beliefs[name]
    return lambda: LevelBot("normal", belief, weights)


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
    parser.add_argument("--variants", default="small,full,cap0.8,cap0.6")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="reader,x-never-lie")
    args = parser.parse_args(argv)
    for name in args.variants.split(","):
        make = variant(name.strip())
        for opponent in args.opponents.split(","):
            wins = share(make, opponent, args.games, args.seed)
            low, high = wilson(round(wins), args.games)
            print(f"{name:8} vs {opponent:11}: {wins:.1f}/{args.games} = "
                  f"{wins / args.games:.3f} [{low:.3f}, {high:.3f}]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
