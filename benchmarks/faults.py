"""What each fault costs the people playing: the fault suite's scenarios
(tests/server/fault_scenarios.py) run one after another, each on a fresh cluster of
three workers behind nginx, PostgreSQL and Redis, and a table of them printed.

Per fault: the pause it caused (per game, the longest wait between acknowledged actions,
a stalled game's lasting to the end of the run; median and max over the games), how long
after the fault's end the games acted again (median / max), the errors clients saw by
code, their reconnections, acknowledged actions lost (must be 0) or made twice (must be
0), games finished. Four games a scenario: two Bluff, two Liar Game, each two scripted
people (clients written from PROTOCOL.md: they reconnect with ``since``, resend an
unanswered action with its key, honour ``retry_after``) and a bot.

    python benchmarks/faults.py [--only NAME ...] [--json PATH]

PostgreSQL runs as a deployment's does (each commit flushed to disk). Timed: the pauses
include the machine's own load; run it on a quiet machine and quote medians.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "server"))

from fault_scenarios import FAULTS, RESUME_S, Outcome, run  # noqa: E402
from pg_helpers import throwaway_postgres  # noqa: E402

COLUMNS = ("fault", "pause s (med / max)", "resume s (med / max)", "errors by code",
           "reconnects", "lost", "twice", "finished")


def row(o: Outcome) -> tuple[str, ...]:
    errors = ", ".join(f"{code} {n}" for code, n in sorted(o.errors.items())) or "none"
    return (o.fault, o.spread(o.pauses), o.spread(o.resumes), errors, str(o.reconnects),
            str(o.lost), str(o.twice), f"{o.finished}/{o.games}")


def table(outcomes: list[Outcome]) -> str:
    rows = [COLUMNS, *(row(o) for o in outcomes)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |"
             for r in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=[],
                        help="run the faults whose name contains one of these")
    parser.add_argument("--json", type=Path, help="write the outcomes there too")
    args = parser.parse_args(argv)
    chosen = [f for f in FAULTS if not args.only or any(w in f.name for w in args.only)]
    outcomes = []
    with throwaway_postgres(durable=True) as server:
        for i, fault in enumerate(chosen):
            began = time.monotonic()
            outcome = run(server, fault, f"usotsuki_faults_{i}_{int(time.time())}")
            outcomes.append(outcome)
            problems = outcome.problems(RESUME_S)
            print(f"{fault.name}: {time.monotonic() - began:.0f} s "
                  f"({outcome.in_play}/{outcome.games} games in play at the fault's end; "
                  f"{outcome.acks} acknowledged actions in {outcome.played_s:.0f} s of play; "
                  f"errors {dict(outcome.errors)}); "
                  + ("; ".join(problems) if problems else "as the fault suite demands"),
                  file=sys.stderr, flush=True)
    print(table(outcomes))
    if args.json:
        # (``asdict`` would copy a Counter's items as its keys)
        args.json.write_text(json.dumps([{**vars(o), "errors": dict(o.errors)}
                                         for o in outcomes], indent=1))
    return 1 if any(o.problems(RESUME_S) for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
