"""How faithfully each Liar reader models its level: the mean log-probability of the
level's actual moves.

Plays heads-up games of a level against its faithful reader (``x-fr-LEVEL``) through
:func:`usotsuki.tournament.play_game` (seats rotating, seeded) and, at each of the level's
decisions where it had a choice, asks two models for the probability of the move it made
as the reader saw it (kind, count, declared rate), from the reader's view just before:

- faithful: the level's exact mixed rule averaged over the hands it may hold
  (:func:`usotsuki.bots.liar.readers.predict`);
- one draw: ``x-br-LEVEL``'s model, the share of sampled hands on which one run of the
  level's ``act`` made that move (:func:`usotsuki.bots.liar.readers.predict_by_draws`).

Reports each model's mean natural log-probability (a zero counted as 1e-6) and the share
of moves it gave less than 1%.

    python benchmarks/liar_readers.py [--levels normal,hard] [--games 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

FLOOR = 1e-6


def check(level: str, games: int, seed: int) -> dict[str, Any]:
    from usotsuki.bots.liar.levels import LEVELS
    from usotsuki.bots.liar.readers import predict, predict_by_draws, seen
    from usotsuki.tournament import Spec, play_game

    model = LEVELS[level]()
    spec = Spec("liar", 2, (f"x-fr-{level}", level), games, seed)
    logs: dict[str, list[float]] = {"faithful": [], "one draw": []}

    def observe(before: Any, seat: int, action: Any, after: Any) -> None:
        if spec.lineup(index)[seat] != level:
            return
        reader_view = before.view(1 - seat)
        faithful = predict(model, reader_view)
        if len(faithful) < 2:  # no choice as the reader sees it
            return
        key = seen(action)
        logs["faithful"].append(math.log(max(FLOOR, faithful.get(key, 0.0))))
        drawn = predict_by_draws(model, reader_view)
        logs["one draw"].append(math.log(max(FLOOR, drawn.get(key, 0.0))))

    for index in range(games):
        play_game(spec, index, observe=observe)
    row: dict[str, Any] = {"level": level, "games": games, "seed": seed,
                           "decisions": len(logs["faithful"])}
    for name, values in logs.items():
        row[name] = {"mean_log_p": sum(values) / max(1, len(values)),
                     "below_1pct": sum(v < math.log(0.01) for v in values) / max(1, len(values))}
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="normal,hard")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for level in [s.strip() for s in args.levels.split(",") if s.strip()]:
        row = check(level, args.games, args.seed)
        print(f"{level}: {row['decisions']} decisions in {row['games']} games (seed "
              f"{row['seed']})", flush=True)
        for name in ("faithful", "one draw"):
            print(f"  {name:9} mean log-probability {row[name]['mean_log_p']:.3f}, "
                  f"below 1%: {row[name]['below_1pct']:.1%}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
