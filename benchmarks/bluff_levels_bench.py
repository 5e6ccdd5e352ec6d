"""Bluff odds and bot levels: odds time, decision times per level, strength.

**Odds.** ``usotsuki.odds.call_probabilities`` for all 326 calls, for random hands of 1 to 5
cards and 3 to 39 unseen cards: the median and 95th percentile per call of the whole set,
cold (every cache of the odds module cleared first) and warm, in CPU time. Target: under 2 ms.

**Decision time.** A fixed sample of decision points (the views of seats to move, from
4-player games of ``normal`` bots, fixed seed; heads-up games with
``--bluff-timing-players 2``, where the searching levels have settings of their own) is
handed to each level's ``act``; the median and 95th percentile of the CPU time per
decision are reported. Targets: ``hard`` under 20 ms, ``expert`` under 1 s.

**Strength** (``--bluff-bots all``; a few minutes on two cores). Each level against three
copies of the level below (``easy`` against three ``random``), 4 players, default rules,
through :mod:`usotsuki.tournament`: the top bot's win share with a 95% Wilson interval.
Targets: the whole interval above the fair 25%; ``normal`` against three ``easy`` at
least 50%.

    python benchmarks/bluff_levels_bench.py [--bluff-bots all|timing|none]
        [--bluff-bot-games 400] [--bluff-expert-games 200] [--bluff-decisions 150]
        [--bluff-timing-players 4] [--bluff-jobs 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import bot_bench
from bot_bench import PAIRS, TIME_TARGETS, percentiles, unpin

LEVELS = ("easy", "normal", "hard", "expert")
ODDS_TARGET = 0.002


def time_odds(samples: int, seed: int) -> dict[str, dict[str, float]]:
    """The odds of all 326 calls, cold and warm, in CPU time (not inflated by other jobs)."""
    from usotsuki import odds
    from usotsuki.cards import DECK

    rng = random.Random(seed)
    cases = []
    for _ in range(samples):
        hand = tuple(rng.sample(DECK, rng.randint(1, 5)))
        cases.append((hand, rng.randint(3, 39)))
    cold, warm = [], []
    for hand, unseen in cases:
        odds._tables.cache_clear()
        odds._at_least.cache_clear()
        t0 = time.process_time()
        odds.call_probabilities(hand, unseen)
        cold.append(time.process_time() - t0)
        t0 = time.process_time()
        odds.call_probabilities(hand, unseen)
        warm.append(time.process_time() - t0)
    return {"cold": percentiles(cold), "warm": percentiles(warm)}


def sample_decisions(count: int, seed: int, players: int = 4) -> list[tuple[Any, Any]]:
    """``count`` (view, legal) decision points from ``players``-player games of
    ``normal`` bots, every 3rd decision."""
    from usotsuki.bluff import BluffRules, legal_actions, new_game, push, start_round, view
    from usotsuki.bluff.deal import deal_hands
    from usotsuki.bots import make_bot

    rng = random.Random(seed)
    bot = make_bot("bluff", "normal")
    out: list[tuple[Any, Any]] = []
    step = 0
    while len(out) < count:
        state = new_game(BluffRules(players=players))
        while not state.is_over and len(out) < count:
            if state.needs_deal:
                state = start_round(state, deal_hands(state, rng)).state
                continue
            seat = state.to_move
            v, legal = view(state, seat), legal_actions(state)
            if step % 3 == 1:
                out.append((v, legal))
            state = push(state, bot.act(v, legal, rng))
            step += 1
    return out


def time_levels(decisions: int, seed: int, players: int = 4) -> dict[str, dict[str, float]]:
    """Each level's CPU time per decision (``time.process_time``: what the bot costs,
    whatever else the machine runs) over the same sample of decision points."""
    return bot_bench.time_levels("bluff", (*LEVELS, "expert-v1"),
                                 sample_decisions(decisions, seed, players), seed)


def strength(games: int, expert_games: int, jobs: int, seed: int,
             say: Callable[[str], None]) -> list[dict[str, Any]]:
    return [bot_bench.strength_row("bluff", top, low,
                                   expert_games if top == "expert" else games, seed, jobs, say)
            for top, low in PAIRS]


def print_tables(odds: dict[str, Any] | None, timing: dict[str, Any] | None,
                 rows: list[dict[str, Any]] | None, players: int = 4) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(120, Console().width))
    if odds:
        table = Table(title="Bluff odds: all 326 call probabilities at once")
        for col in ("caches", "median", "p95", "max", "samples", "target"):
            table.add_column(col, justify="left" if col == "caches" else "right")
        for name, t in odds.items():
            table.add_row(name, f"{t['median_s'] * 1e3:.3f} ms", f"{t['p95_s'] * 1e3:.3f} ms",
                          f"{t['max_s'] * 1e3:.3f} ms", str(t["samples"]),
                          "< 2 ms: " + ("met" if t["p95_s"] < ODDS_TARGET else "NOT met"))
        console.print(table)
    if timing:
        table = Table(title=f"Bluff bots: CPU time per decision ({players} players)")
        for col in ("level", "median", "p95", "max", "decisions", "target"):
            table.add_column(col, justify="left" if col == "level" else "right")
        for name, t in timing.items():
            target = TIME_TARGETS.get(name)
            mark = "" if target is None else (
                f"< {target * 1000:.0f} ms: " + ("met" if t["p95_s"] < target else "NOT met"))
            table.add_row(name, f"{t['median_s'] * 1000:.2f} ms", f"{t['p95_s'] * 1000:.2f} ms",
                          f"{t['max_s'] * 1000:.1f} ms", str(t["samples"]), mark)
        console.print(table)
    if rows:
        table = Table(title="Bluff bots: each level against three of the level below "
                            "(4 players, 95% Wilson interval)")
        for col in ("level", "vs 3x", "games", "win share", "95% CI", "mean place", "target"):
            table.add_column(col, justify="left" if col in ("level", "vs 3x") else "right")
        for r in rows:
            table.add_row(r["top"], r["low"], str(r["games"]), f"{r['win_share']:.3f}",
                          f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]", f"{r['mean_place']:.2f}",
                          (f">= {r['target']:.0%}, CI > 25%: " if r["target"] > 0.25 else
                           "CI > 25%: ") + ("met" if r["met"] else "NOT met"))
        console.print(table)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The option group ``benchmarks/run.py`` shows for these figures."""
    group = parser.add_argument_group("Bluff odds and bots (odds time, decision time, "
                                      "strength table)")
    group.add_argument("--bluff-bots", choices=("all", "timing", "none"), default="timing",
                       help="which Bluff bot figures to measure: timing (odds and decision "
                            "times, default), all (also the strength table: several "
                            "minutes), none")
    group.add_argument("--bluff-bot-games", type=int, default=400,
                       help="games per line-up below expert (default 400)")
    group.add_argument("--bluff-expert-games", type=int, default=200,
                       help="games of expert against three hard (default 200)")
    group.add_argument("--bluff-decisions", type=int, default=150,
                       help="decision points timed per level (default 150)")
    group.add_argument("--bluff-timing-players", type=int, default=4,
                       help="players in the games the timed decisions come from (default 4)")
    group.add_argument("--bluff-jobs", type=int, default=2,
                       help="processes for the strength games (default 2)")


def run(args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """Measure what ``args`` (from :func:`add_options`) asks; print tables; JSON back."""
    if args.bluff_bots == "none":
        return {"skipped": "--bluff-bots none"}
    print("Bluff: timing odds and bot decisions ...", flush=True)
    odds = time_odds(200, seed)
    timing = time_levels(args.bluff_decisions, seed, args.bluff_timing_players)
    rows = None
    if args.bluff_bots == "all":
        unpin()  # run.py pins itself to one core for its timings; the games use ``jobs``
        print("Bluff bots: strength games ...", flush=True)
        rows = strength(args.bluff_bot_games, args.bluff_expert_games, args.bluff_jobs, seed,
                        lambda s: print(s, flush=True))
    print_tables(odds, timing, rows, args.bluff_timing_players)
    return {"odds": odds, "timing": timing, "timing_players": args.bluff_timing_players,
            "strength": rows}


def main(argv: list[str] | None = None) -> int:
    return bot_bench.standalone(__doc__, add_options, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
