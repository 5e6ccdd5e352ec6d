"""The review's marks on the shipped expert's self-play: how many inaccuracies, mistakes
and blunders the expert gets per game (``usotsuki.analysis.common`` sets the thresholds
so that it averages at most one mistake and well under one blunder a game).

Plays seeded games between ``expert`` bots (Bluff: 5 players; Liar Game: 4), reviews each
at the default depth, and prints per game the marks per player, and where the losses the
search was sure of (beyond their error bars) fall::

    .venv/bin/python benchmarks/review_calibration.py [--progress] [GAMES] [bluff|liar ...]
"""

from __future__ import annotations

import sys
from typing import Any

from review_bench import bot_game

from usotsuki.analysis import analyse
from usotsuki.analysis.common import MARKS, THRESHOLDS

LINEUPS = {"bluff": ("expert",) * 5, "liar": ("expert",) * 4}


def measure(game: str, games: int, progress: bool = False) -> dict[str, Any]:
    """Marks per player and game over ``games`` seeded expert self-play games (with
    ``progress``, the running figures after each game: a long run cut short still
    reports the games it finished, the same as a run of that many)."""
    counts = dict.fromkeys(MARKS, 0)
    sure: list[float] = []  # losses beyond their error bars
    judged = 0
    for seed in range(1, games + 1):
        review = analyse(bot_game(game, seed, LINEUPS[game]), seed=0)
        for d in review["decisions"]:
            if d["mark"] is None:
                continue
            judged += 1
            counts[d["mark"]] += 1
            if d["lost"] > d["lost_error"]:
                sure.append(d["lost"])
        if progress and seed < games:
            report(summary(game, seed, judged, counts, sure))
    return summary(game, games, judged, counts, sure)


def summary(game: str, games: int, judged: int, counts: dict[str, int],
            sure: list[float]) -> dict[str, Any]:
    per = games * len(LINEUPS[game])
    return {"game": game, "games": games, "players": len(LINEUPS[game]),
            "judged_per_player_game": round(judged / per, 1),
            "per_player_game": {m: round(n / per, 2) for m, n in counts.items()},
            "sure_losses": sorted(round(x, 4) for x in sure)}


def report(r: dict[str, Any]) -> None:
    game = r["game"]
    rate = r["per_player_game"]
    print(f"{game}: expert self-play, {r['games']} games of {r['players']}, "
          f"{r['judged_per_player_game']} judged moves per player and game; per player "
          f"and game: {rate['inaccuracy']} inaccuracies, {rate['mistake']} mistakes, "
          f"{rate['blunder']} blunders (thresholds {THRESHOLDS[game]} of the chance "
          f"to win)", flush=True)
    print(f"  losses beyond their error bars, largest: {r['sure_losses'][-12:]}",
          flush=True)


def main(argv: list[str]) -> None:
    progress = "--progress" in argv
    args = [a for a in argv if a != "--progress"]
    games = int(args[0]) if args else 4
    for game in args[1:] or ["bluff", "liar"]:
        report(measure(game, games, progress))


if __name__ == "__main__":
    main(sys.argv[1:])
