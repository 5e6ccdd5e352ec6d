"""Where a Liar Game bot loses its cards, decision by decision.

Plays seeded games of one line-up (default one ``expert`` against three ``expert-v1``)
and logs every decision, judged on the true state (the diagnosis sees every hand):

- ``lead``/``follow``: a play that leads or answers another, split by whether it was
  truthful (``T``) or a lie (``L``), and whether the next doubt on the field caught it
  (the player drew the field) or found it truthful;
- ``doubt``: a doubt, split by whether the doubted play was truthful (``T``: the
  doubter draws the field, L9) or a lie;
- ``pass``: split by whether the play passed on was truthful or a lie (a lie passed on
  is a lie not caught).

For each bot name: how often each kind occurs and the cards it drew by each cause (per
seat and game), so that the line-up's seats can be compared. At every decision the
first bot of the line-up makes on another seat's play, its belief that the play is
truthful (``read_truth``, the expert's, and the pooled ``calibrated_truth``) is logged
beside what happened: the reliability of each, by the player's bot, split by leads and
other plays, and what the first bot did at each bucket.

    python benchmarks/liar_expert_diag.py [--lineup expert,expert-v1,expert-v1,expert-v1]
        [--games 12] [--seed 31] [--first 0] [--every 2] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from usotsuki.bots.liar.calibrated import calibrated_truth, read_truth
from usotsuki.liar.actions import CARD_RATE, DOUBT, PASS, Play
from usotsuki.tournament import Spec, play_game, wilson


def truthful(play: Any) -> bool:
    return all(CARD_RATE[c] == play.rate for c in play.cards)


def run(lineup: tuple[str, ...], games: int, seed: int, first: int = 0,
        every: int = 0) -> dict[str, Any]:
    spec = Spec("liar", len(lineup), lineup, games, seed)
    kinds: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    drawn: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    seats: dict[str, int] = defaultdict(int)  # seat-games per bot name
    wins: dict[str, float] = defaultdict(float)
    beliefs: list[dict[str, Any]] = []
    watcher = lineup[0]

    for g in range(first, games):
        names = spec.lineup(g)
        pending: dict[int, tuple[str, str]] = {}  # field index -> (name, kind of the play)

        def observe(before: Any, seat: int, action: Any, after: Any,
                    names: tuple[str, ...] = names,
                    pending: dict[int, tuple[str, str]] = pending) -> None:
            s = before.state
            name = names[seat]
            field = s.field
            if (name == watcher and field and names[field[-1].seat] != watcher
                    and (isinstance(action, Play) or action in (PASS, DOUBT))):
                v = before.view(seat)
                legal = v.before_last_play().ranked
                rate = field[-1].rate
                pos = legal.index(rate) if rate in legal else -1
                beliefs.append({"bot": names[field[-1].seat], "lead": len(field) == 1,
                                "where": "lowest" if pos == 0 else "top"
                                if pos == len(legal) - 1 else "between",
                                "truthful": truthful(field[-1]), "read": read_truth(v),
                                "pooled": calibrated_truth(v),
                                "action": "play" if isinstance(action, Play)
                                else "doubt" if action == DOUBT else "pass",
                                "n": sum(len(p.cards) for p in field)})
            if isinstance(action, Play):
                lead = not field
                kind = f"{'lead' if lead else 'follow'} {'T' if truthful(action) else 'L'}"
                kinds[name][kind] += 1
                pending[len(field)] = (name, kind)
                return
            if action not in (PASS, DOUBT) or not field:
                return
            current = field[-1]
            true = truthful(current)
            n = sum(len(p.cards) for p in field)
            other = names[current.seat]
            if action == PASS:
                kinds[name][f"pass on {'T' if true else 'L'}"] += 1
                drawn[name]["pass"] += 1 if s.stock else 0
                return
            kinds[name][f"doubt {'T' if true else 'L'}"] += 1
            played_by, kind = pending.get(len(field) - 1, (other, "?"))
            if true:
                drawn[name]["doubt wrong"] += n
                kinds[played_by][f"{kind} doubted"] += 1
            else:
                drawn[played_by]["caught lying"] += n
                kinds[played_by][f"{kind} caught"] += 1
                kinds[name]["catches"] += 1

        def observe_all(before: Any, seat: int, action: Any, after: Any,
                        pending: dict[int, tuple[str, str]] = pending) -> None:
            observe(before, seat, action, after)
            if not after.state.field:
                pending.clear()

        result = play_game(spec, g, observe=observe_all)
        for name in names:
            seats[name] += 1
        if result.winner is not None:
            wins[names[result.winner]] += 1
        print(f"game {g}: {names} winner {result.winner} places {result.places} "
              f"{result.actions} actions", flush=True)
        if every and (g + 1 - first) % every == 0 and g + 1 < games:
            report({"kinds": kinds, "drawn": drawn, "seats": seats, "wins": wins,
                    "beliefs": beliefs, "games": g + 1 - first})
    return {"kinds": kinds, "drawn": drawn, "seats": seats, "wins": wins,
            "beliefs": beliefs, "games": games - first}


def missed(cell: list[dict[str, Any]], action: str) -> int:
    """The lies in ``cell`` that the watcher answered with ``action`` (not a doubt)."""
    return sum(not b["truthful"] for b in cell if b["action"] == action)


def report(out: dict[str, Any]) -> None:
    seats = out["seats"]
    print(f"\n{out['games']} games; wins: " + ", ".join(
        f"{n} {w:.0f}/{out['games']}" for n, w in out["wins"].items()))
    for name in seats:
        k = out["kinds"][name]
        d = out["drawn"][name]
        per = seats[name]
        print(f"\n{name} ({per} seat-games): cards drawn per seat-game: " + ", ".join(
            f"{cause} {v / per:.2f}" for cause, v in sorted(d.items())))
        print("  decisions per seat-game: " + ", ".join(
            f"{kind} {v / per:.2f}" for kind, v in sorted(k.items())))
    beliefs = out["beliefs"]
    for key in ("read", "pooled"):
        print(f"\nbelief {key} at the watcher's pass/doubt decisions:")
        for bot in sorted({b["bot"] for b in beliefs}):
            for lead in (True, False):
                part = [b for b in beliefs if b["bot"] == bot and b["lead"] == lead
                        and b[key] is not None]
                if not part:
                    continue
                print(f"  {bot} {'leads' if lead else 'other'}: n={len(part)}")
                for lo in (0.0, 0.5, 0.7, 0.8, 0.9, 0.95):
                    hi = {0.0: 0.5, 0.5: 0.7, 0.7: 0.8, 0.8: 0.9, 0.9: 0.95, 0.95: 1.01}[lo]
                    cell = [b for b in part if lo <= b[key] < hi]
                    if not cell:
                        continue
                    t = sum(b["truthful"] for b in cell)
                    doubts = [b for b in cell if b["action"] == "doubt"]
                    lo95, hi95 = wilson(t, len(cell))
                    where = ", ".join(f"{w} {sum(b['where'] == w for b in cell)}:"
                                      f"{sum(b['where'] == w and b['truthful'] for b in cell)}T"
                                      for w in ("lowest", "between", "top"))
                    print(f"    [{lo:.2f}, {hi:.2f}): n={len(cell):4} predicted "
                          f"{sum(b[key] for b in cell) / len(cell):.3f} truthful "
                          f"{t / len(cell):.3f} [{lo95:.2f}, {hi95:.2f}]; doubted "
                          f"{len(doubts)} (of them lies {missed(doubts, 'doubt')}); "
                          f"passed lies {missed(cell, 'pass')}; played over lies "
                          f"{missed(cell, 'play')}; declared {where}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lineup", default="expert,expert-v1,expert-v1,expert-v1")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--first", type=int, default=0, help="start at this game")
    parser.add_argument("--every", type=int, default=0,
                        help="print the report so far every this many games")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    out = run(tuple(args.lineup.split(",")), args.games, args.seed, args.first, args.every)
    report(out)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
