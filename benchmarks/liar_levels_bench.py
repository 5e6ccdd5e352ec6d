"""Liar Game bot levels: decision times per level and a strength table.

**Decision time.** A fixed sample of decision points (the views of seats to move, taken
from games of ``hard`` bots, plain rules and all house rules, fixed seeds) is handed to
each level's ``act``; the median and 95th percentile of the CPU time per decision are
reported. Targets: ``hard`` under 20 ms, ``expert`` under 1 s.

**Strength.** Each level against three copies of the level below (``easy`` against three
``random``), 4 players, plain rules and all house rules: the top bot's win share with a
95% Wilson interval. Targets: the whole interval above the fair 25%; ``normal`` against
three ``easy`` at least 50%. Games come from :mod:`usotsuki.tournament` (seats rotate,
every game's randomness derives from the seed and its index, ``jobs`` processes); where
that module is missing, a small driver over :class:`usotsuki.session.LiarSession` plays
the same line-ups one after another.

    python benchmarks/liar_levels_bench.py [--liar-bot-games 200] [--liar-expert-games 80]
        [--liar-decisions 150] [--liar-jobs 2] [--liar-bots all|timing|none] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any

import bot_bench
from bot_bench import PAIRS, TIME_TARGETS, unpin

LEVELS = ("easy", "normal", "hard", "expert")
RULES = (("plain", ""), ("all house rules", "all"))


def available() -> str | None:
    try:
        from usotsuki.bots.liar.levels import LEVELS as _  # noqa: F401
    except ImportError as exc:
        return f"the Liar Game levels are missing: {exc}"
    return None


# -- decision time ---------------------------------------------------------------------------


def sample_decisions(count: int, seed: int) -> list[tuple[Any, Any]]:
    """``count`` (view, legal) decision points from games of ``hard`` bots, half under
    plain rules and half under all house rules, every ``7``th decision of each game."""
    from usotsuki.bots import make_bot
    from usotsuki.liar import legal_summary, new_game, parse_rules_text, push, view
    from usotsuki.liar.match import deal

    out: list[tuple[Any, Any]] = []
    rng = random.Random(seed)
    g = 0
    while len(out) < count:
        rules = parse_rules_text(RULES[g % 2][1], 4, turn_limit=400)
        hands, stock = deal(rules, rng)
        state = new_game(rules, hands, stock, rng.getrandbits(32))
        bots = [make_bot("liar", "hard") for _ in range(4)]
        step = 0
        while state.to_move is not None and len(out) < count:
            seat = state.to_move
            v, legal = view(state, seat), legal_summary(state)
            if step % 7 == 3 and not legal.give:
                out.append((v, legal))
            state = push(state, bots[seat].act(v, legal, rng))
            step += 1
        g += 1
    return out


def time_levels(decisions: int, seed: int) -> dict[str, dict[str, float]]:
    return bot_bench.time_levels("liar", LEVELS, sample_decisions(decisions, seed), seed)


# -- strength --------------------------------------------------------------------------------


def strength(games: int, expert_games: int, jobs: int, seed: int,
             say: Callable[[str], None]) -> list[dict[str, Any]]:
    return [bot_bench.strength_row("liar", top, low,
                                   expert_games if top == "expert" else games, seed, jobs, say,
                                   rules=text, label=label)
            for top, low in PAIRS for label, text in RULES]


def print_tables(timing: dict[str, Any] | None, rows: list[dict[str, Any]] | None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(120, Console().width))
    if timing:
        table = Table(title="Liar Game bots: time per decision")
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
        table = Table(title="Liar Game bots: each level against three of the level below "
                            "(4 players, 95% Wilson interval)")
        for col in ("level", "vs 3x", "rules", "games", "win share", "95% CI", "target"):
            table.add_column(col, justify="left" if col in ("level", "vs 3x", "rules")
                             else "right")
        for r in rows:
            table.add_row(r["top"], r["low"], r["rules"], str(r["games"]),
                          f"{r['win_share']:.3f}", f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]",
                          (f">= {r['target']:.0%}, CI > 25%: " if r["target"] > 0.25 else
                           "CI > 25%: ") + ("met" if r["met"] else "NOT met"))
        console.print(table)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The option group ``benchmarks/run.py`` shows for these figures."""
    group = parser.add_argument_group("Liar Game bots (decision time, strength table)")
    group.add_argument("--liar-bots", choices=("all", "timing", "none"), default="timing",
                       help="which Liar Game bot figures to measure: timing (decision "
                            "times, default), all (also the strength table: about 13 "
                            "minutes), none")
    group.add_argument("--liar-bot-games", type=int, default=200,
                       help="games per line-up and rule set below expert (default 200)")
    group.add_argument("--liar-expert-games", type=int, default=80,
                       help="games per rule set of expert against hard (default 80)")
    group.add_argument("--liar-decisions", type=int, default=150,
                       help="decision points timed per level (default 150)")
    group.add_argument("--liar-jobs", type=int, default=2,
                       help="processes for the strength games (default 2)")


def run(args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """Measure what ``args`` (from :func:`add_options`) asks; print tables; JSON back."""
    why = available()
    if why is not None or args.liar_bots == "none":
        return {"skipped": why or "--liar-bots none"}
    print("Liar Game bots: timing decisions ...", flush=True)
    timing = time_levels(args.liar_decisions, seed)
    rows = None
    if args.liar_bots == "all":
        unpin()  # run.py pins itself to one core for its timings; the games use ``jobs``
        print("Liar Game bots: strength games ...", flush=True)
        rows = strength(args.liar_bot_games, args.liar_expert_games, args.liar_jobs, seed,
                        lambda s: print(s, flush=True))
    print_tables(timing, rows)
    return {"timing": timing, "strength": rows}


def main(argv: list[str] | None = None) -> int:
    return bot_bench.standalone(__doc__, add_options, run, argv)


if __name__ == "__main__":
    sys.exit(main())
