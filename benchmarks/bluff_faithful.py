"""How faithfully each Bluff reader models its level: the mean log-probability a reader's
model gives the actions the level actually took, and the share of those actions it put
below 1% (a model that is often that sure and wrong misreads the level's calls).

The level's decisions are recorded in heads-up games against its faithful reader
(``x-faithful-LEVEL``), seeds ``--seed`` and games 0, 1, ...; every decision is then
scored by the faithful model (the level's own ``distribution``, its belief drawn afresh
from another generator: one draw, as the reader uses it) and by the model of the older
reader (``x-read-LEVEL``: the level's mixed rule over the exact odds of the hand), each
probability floored at 1e-3 before the log.

    python benchmarks/bluff_faithful.py [--levels normal,hard,expert] [--games 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

import numpy as np


def record(level: str, games: int, seed: int) -> tuple[list[Any], list[int]]:
    """The level's views and actions (-1: challenge) over ``games`` heads-up games."""
    from usotsuki import tournament
    from usotsuki.bluff.actions import Call

    views: list[Any] = []
    actions: list[int] = []
    spec = tournament.Spec("bluff", 2, (f"x-faithful-{level}", level), games, seed)

    def observe(before: Any, seat: int, action: Any, after: Any) -> None:
        if spec.lineup(g)[seat] == level:
            views.append(before.view(seat))
            actions.append(action.index if isinstance(action, Call) else -1)

    for g in range(games):
        tournament.play_game(spec, g, observe=observe)
    return views, actions


def main(argv: list[str] | None = None) -> int:
    from usotsuki.bots.bluff.exploiters import HARD_RULE, ExactOddsModel
    from usotsuki.bots.bluff.faithful import model_probabilities
    from usotsuki.bots.bluff.levels import (
        EXPERT_RULE,
        NORMAL_RULE,
        ExpertBluffBot,
        HardBluffBot,
        NormalBluffBot,
    )

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="normal,hard")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    models: dict[str, dict[str, Any]] = {
        "normal": {"x-faithful-normal": NormalBluffBot(),
                   "x-read-normal": ExactOddsModel(NORMAL_RULE)},
        "hard": {"x-faithful-hard": HardBluffBot(), "x-read-hard": ExactOddsModel(HARD_RULE)},
        "expert": {"x-faithful-expert": ExpertBluffBot(),
                   "x-read-expert": ExactOddsModel(EXPERT_RULE)},
    }
    for level in [s.strip() for s in args.levels.split(",") if s.strip()]:
        views, actions = record(level, args.games, args.seed)
        for name, model in models[level].items():
            rng = random.Random(f"faithful:{args.seed}")
            p = model_probabilities(model, views, actions, rng)
            print(f"{level:7} {name:18} {len(p)} decisions: mean log-probability "
                  f"{np.mean(np.log(np.maximum(p, 1e-3))):.3f}, below 1% "
                  f"{np.mean(p < 0.01):.1%}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
