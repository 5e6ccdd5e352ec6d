"""A variant of the Bluff ``expert`` (keyword options) on a line-up's seeded games.

The games are exactly those of ``usotsuki.tournament`` for the line-up and seed (the same
deals and generators as ``exploit.py --compare expert:expert-v1``); every seat named
``expert`` plays ``ExpertBluffBot(**options)`` instead of the default (a JSON object is a
``MixedRule``, or a ``Calibration`` for a ``map``), so a variant and the shipped expert can
be compared game by game (paired). A seat named ``expert-base`` plays
``ExpertBluffBot(**base)`` (``--base``), so a variant can meet copies of the expert pinned
to settings that a later change of the defaults leaves alone. Each game's result is
appended to ``--checkpoint`` as it ends, and games it holds are skipped (a run that is
cut keeps its games; ``--first`` and ``--last`` split a run between processes). Wins are
a noisy figure (one bit a game); each game also records the ``expert`` seat's rounds:
how many it played, how many it lost, and its fair share of losses (``1/k`` a round with
``k`` seats in play, B9), so ``--tally`` prints the excess losses a round, a figure with
a fraction of the noise::

    python benchmarks/expert_variant.py --options '{"worlds": 480}' \
        --lineup expert,expert-v1,expert-v1,expert-v1 --seed 1 --first 0 --last 40 \
        --checkpoint .bench/w480.jsonl
    python benchmarks/expert_variant.py --tally .bench/w480.jsonl [more files: other seeds]
        [--against .bench/base.jsonl ...]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from usotsuki.bots.base import make_bot
from usotsuki.bots.bluff.calibration import Calibration
from usotsuki.bots.bluff.levels import ExpertBluffBot
from usotsuki.bots.bluff.policy import MixedRule
from usotsuki.tournament import Spec, play_game, wilson


def rounds(results: Any, seat: int) -> tuple[int, int, float]:
    """(rounds played, rounds lost, fair share of losses) of ``seat`` over a game's
    challenged rounds: a round with ``k`` seats holding cards loses one of them (B9)."""
    played, lost, fair = 0, 0, 0.0
    for r in results:
        seats = sum(1 for h in r.hands if h)
        if r.hands[seat]:
            played += 1
            lost += int(r.loser == seat)
            fair += 1.0 / seats
    return played, lost, fair


Game = tuple[int, int]
"""A game: its seed and index."""


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def load_rounds(paths: list[Path]) -> dict[Game, tuple[int, int, float]]:
    """Game index -> the ``expert`` seat's (rounds played, lost, fair share)."""
    out: dict[Game, tuple[int, int, float]] = {}
    for path in paths:
        for line in _lines(path):
            e = json.loads(line)
            if "rounds" in e:
                played, lost, fair = e["rounds"]
                out[e["seed"], e["index"]] = (int(played), int(lost), float(fair))
    return out


def excess(table: dict[Game, tuple[int, int, float]], games: list[Game]) -> tuple[float, float]:
    """Excess losses a round (lost - fair share, over rounds played) and its standard
    error, by the games as the unit (the rounds of one game are not independent)."""
    d = np.array([table[g][1] - table[g][2] for g in games])
    n = np.array([table[g][0] for g in games], dtype=float)
    ratio = float(d.sum() / n.sum())
    resid = d - ratio * n  # delta method for a ratio of sums
    se = float(np.sqrt(len(games) * np.sum(resid ** 2) / max(1, len(games) - 1)) / n.sum())
    return ratio, se


def load(paths: list[Path]) -> dict[Game, int]:
    """Game index -> 1 if the ``expert`` seat won, else 0 (from a checkpoint file)."""
    out: dict[Game, int] = {}
    for path in paths:
        for line in _lines(path):
            e = json.loads(line)
            won = e["winner"] is not None and e["lineup"][e["winner"]] == "expert"
            out[e["seed"], e["index"]] = int(won)
    return out


def tally(paths: list[Path], against: list[Path]) -> None:
    """Print the variant's wins and excess round losses (``paths``, games keyed by seed
    and index), paired with ``against``'s on the games both hold."""
    games = load(paths)
    path = ", ".join(map(str, paths))
    wins, n = sum(games.values()), len(games)
    low, high = wilson(wins, n)
    print(f"{path}: {wins}/{n} = {wins / max(1, n):.3f} [{low:.3f}, {high:.3f}]")
    if against:
        base = load(against)
        both = sorted(set(games) & set(base))
        only_new = sum(games[g] and not base[g] for g in both)
        only_base = sum(base[g] and not games[g] for g in both)
        bw, nw = sum(base[g] for g in both), sum(games[g] for g in both)
        print(f"  paired on {len(both)} games: this {nw}, the other {bw}; "
              f"only this won {only_new}, only the other won {only_base}")
    mine = load_rounds(paths)
    if mine:
        ratio, se = excess(mine, sorted(mine))
        print(f"  rounds: excess losses a round {ratio:+.4f} (se {se:.4f}) over "
              f"{sum(r[0] for r in mine.values())} rounds of {len(mine)} games")
    if against and mine:
        other = load_rounds(against)
        both = sorted(set(mine) & set(other))
        if both:
            d = np.array([(mine[g][1] - mine[g][2]) - (other[g][1] - other[g][2])
                          for g in both])
            per = sum(mine[g][0] + other[g][0] for g in both) / 2  # rounds a side
            se = d.std(ddof=1) * np.sqrt(len(both)) / per
            print(f"  paired rounds on {len(both)} games: this minus the other "
                  f"{d.sum() / per:+.4f} a round (se {se:.4f})")


def decode(options: dict[str, Any]) -> dict[str, Any]:
    """ExpertBluffBot keywords from JSON: an object is a ``MixedRule``, or a
    ``Calibration`` for a ``map``."""
    return {k: (Calibration(**x) if "map" in k else MixedRule(**x))
            if isinstance(x, dict) else x for k, x in options.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--options", default="{}", help="ExpertBluffBot keywords (JSON)")
    parser.add_argument("--lineup", default="expert,expert-v1,expert-v1,expert-v1")
    parser.add_argument("--base", default=None,
                        help="ExpertBluffBot keywords (JSON) for the seats named expert-base")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--last", type=int, default=100, help="one past the last game")
    parser.add_argument("--checkpoint", type=Path)
    parser.add_argument("--tally", type=Path, nargs="*", default=[])
    parser.add_argument("--against", type=Path, nargs="*", default=[])
    args = parser.parse_args(argv)
    if args.tally:
        tally(args.tally, args.against)
        return 0
    assert args.checkpoint is not None
    options: dict[str, Any] = json.loads(args.options)
    keywords = decode(options)
    base = decode(json.loads(args.base or "{}"))
    lineup = tuple(args.lineup.split(","))
    spec = Spec("bluff", len(lineup), lineup, args.last, args.seed)
    done = load([args.checkpoint])
    for g in range(args.first, args.last):
        if (args.seed, g) in done:
            continue
        names = spec.lineup(g)
        bots = [ExpertBluffBot(**keywords) if n == "expert" else
                ExpertBluffBot(**base) if n == "expert-base" else make_bot("bluff", n)
                for n in names]
        t0 = time.process_time()
        final: list[Any] = []  # the session once the game is over (its rounds, B9)

        def keep(_before: Any, _seat: int, _action: Any, after: Any,
                 final: list[Any] = final) -> None:
            if after.is_over:
                final.append(after)

        result = play_game(spec, g, bots, keep)
        seat = names.index("expert")
        with args.checkpoint.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"options": options, "seed": args.seed, "index": g,
                                  "lineup": list(result.lineup), "winner": result.winner,
                                  "places": list(result.places), "actions": result.actions,
                                  "rounds": list(rounds(final[-1].state.results, seat)),
                                  "cpu_seconds": round(time.process_time() - t0, 1)}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
