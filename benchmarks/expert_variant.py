"""Issue 11: a variant of the Bluff ``expert`` (keyword options) on a line-up's seeded games.

The games are exactly those of ``usotsuki.tournament`` for the line-up and seed (the same
deals and generators as ``exploit.py --compare expert:expert-v1``); every seat named
``expert`` plays ``ExpertBluffBot(**options)`` instead of the default (a JSON object is a
``MixedRule``, or a ``Calibration`` for a ``map``), so a variant and the shipped expert can
be compared game by game (paired). Each game's result is appended to ``--checkpoint`` as
it ends, and games it holds are skipped (a run that is cut keeps its games; ``--first``
and ``--last`` split a run between processes)::

    python benchmarks/expert_variant.py --options '{"worlds": 480}' \
        --lineup expert,expert-v1,expert-v1,expert-v1 --seed 1 --first 0 --last 40 \
        --checkpoint .bench/w480.jsonl
    python benchmarks/expert_variant.py --tally .bench/w480.jsonl [--against .bench/base.jsonl]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from usotsuki.bots.base import make_bot
from usotsuki.bots.bluff_calibration import Calibration
from usotsuki.bots.bluff_policy import MixedRule
from usotsuki.bots.bluff_search import ExpertBluffBot
from usotsuki.tournament import Spec, play_game, wilson


def load(path: Path) -> dict[int, int]:
    """Game index -> 1 if the ``expert`` seat won, else 0 (from a checkpoint file)."""
    out: dict[int, int] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            e = json.loads(line)
            out[e["index"]] = int(e["winner"] is not None and e["lineup"][e["winner"]] == "expert")
    return out


def tally(path: Path, against: Path | None) -> None:
    games = load(path)
    wins, n = sum(games.values()), len(games)
    low, high = wilson(wins, n)
    print(f"{path}: {wins}/{n} = {wins / max(1, n):.3f} [{low:.3f}, {high:.3f}]")
    if against is not None:
        base = load(against)
        both = sorted(set(games) & set(base))
        only_new = sum(games[g] and not base[g] for g in both)
        only_base = sum(base[g] and not games[g] for g in both)
        bw, nw = sum(base[g] for g in both), sum(games[g] for g in both)
        print(f"  paired on {len(both)} games: this {nw}, {against} {bw}; "
              f"only this won {only_new}, only the other won {only_base}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--options", default="{}", help="ExpertBluffBot keywords (JSON)")
    parser.add_argument("--lineup", default="expert,expert-v1,expert-v1,expert-v1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--last", type=int, default=100, help="one past the last game")
    parser.add_argument("--checkpoint", type=Path)
    parser.add_argument("--tally", type=Path)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args(argv)
    if args.tally:
        tally(args.tally, args.against)
        return 0
    assert args.checkpoint is not None
    options: dict[str, Any] = json.loads(args.options)
    keywords = {k: (Calibration(**x) if "map" in k else MixedRule(**x))
                if isinstance(x, dict) else x for k, x in options.items()}
    lineup = tuple(args.lineup.split(","))
    spec = Spec("bluff", len(lineup), lineup, args.last, args.seed)
    done = load(args.checkpoint)
    for g in range(args.first, args.last):
        if g in done:
            continue
        names = spec.lineup(g)
        bots = [ExpertBluffBot(**keywords) if n == "expert" else make_bot("bluff", n)
                for n in names]
        t0 = time.process_time()
        result = play_game(spec, g, bots)
        with args.checkpoint.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"options": options, "seed": args.seed, "index": g,
                                  "lineup": list(result.lineup), "winner": result.winner,
                                  "places": list(result.places), "actions": result.actions,
                                  "cpu_seconds": round(time.process_time() - t0, 1)}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
