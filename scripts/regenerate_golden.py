#!/usr/bin/env python3
"""Rewrite ``tests/golden/NAME.expected.json`` from what the code prints now.

Each ``tests/golden/NAME.json`` is a game record; its ``NAME.expected.json`` is the RULES.md
Part 5 object that ``usotsuki replay NAME.json --json`` prints. The expected files are
reviewed by hand against RULES.md: run this after a change, then read the diff it shows
(and ``git diff tests/golden``) before committing. An expected file is never adopted just
because the code prints it.

    .venv/bin/python scripts/regenerate_golden.py              # all records
    .venv/bin/python scripts/regenerate_golden.py bluff_b4_*   # some (shell patterns)
    .venv/bin/python scripts/regenerate_golden.py --check      # change nothing; exit 1 on a diff
"""

from __future__ import annotations

import argparse
import difflib
import fnmatch
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
sys.path.insert(0, str(ROOT / "src"))

from usotsuki.replay import replay_file  # noqa: E402


def expected_text(report: dict[str, Any]) -> str:
    """The stored form: one key per line at the top, short lists kept readable."""
    return json.dumps(report, ensure_ascii=False, indent=1) + "\n"


def records(patterns: list[str]) -> list[Path]:
    found = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))
    if patterns:
        found = [p for p in found if any(fnmatch.fnmatch(p.stem, pat) for pat in patterns)]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("patterns", nargs="*", help="record names (without .json) or patterns")
    parser.add_argument("--check", action="store_true", help="only report differences")
    args = parser.parse_args()
    changed = 0
    paths = records(args.patterns)
    for path in paths:
        target = path.with_name(path.stem + ".expected.json")
        new = expected_text(replay_file(path))
        old = target.read_text(encoding="utf-8") if target.exists() else ""
        if new == old:
            continue
        changed += 1
        print(f"{'differs' if args.check else 'rewrote'}: {target.relative_to(ROOT)}")
        sys.stdout.writelines(difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True),
            str(target.name) + " (stored)", str(target.name) + " (code)", n=2))
        if not args.check:
            target.write_text(new, encoding="utf-8")
    print(f"{len(paths)} records, {changed} {'differ' if args.check else 'rewritten'}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
