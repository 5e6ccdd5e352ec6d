"""``usotsuki puzzles build``: mine puzzles from self-play into a JSON-lines file.

Each self-play game (:func:`usotsuki.analysis.puzzles.self_play`, seeded by its number)
is mined in a worker process; its puzzles are appended to the output as soon as the game
is done, so an interrupted build keeps what it made and a rerun skips the games already
in the file. ``usotsuki puzzles pack`` turns such a file into the shipped package data.
"""

from __future__ import annotations

import gzip
import json
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from usotsuki.analysis.puzzles import mine, self_play


def _mine_game(game: str, seed: int, depth: int | None, catch_only: bool
               ) -> tuple[int, list[dict[str, Any]]]:
    return seed, list(mine(self_play(game, seed), seed, depth, catch_only))


def _done_seeds(path: Path) -> set[int]:
    """The games already mined into ``path`` (a game without puzzles leaves a marker)."""
    if not path.exists():
        return set()
    seeds = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            seeds.add(int(json.loads(line)["source_game"]))
    return seeds


def build(game: str, games: int, out: Path, first: int = 1, jobs: int = 1,
          depth: int | None = None, target: int | None = None,
          catch_only: bool = False) -> int:
    """Mine games ``first`` .. ``first + games - 1`` (stopping early once ``target``
    puzzles are in ``out``; ``catch_only``: "catch the bluff" puzzles only); returns the
    number of puzzles in the file."""
    done = _done_seeds(out)
    count = _count(out)
    todo = [s for s in range(first, first + games) if s not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=jobs) as pool, out.open("a", encoding="utf-8") as f:
        pending = [pool.submit(_mine_game, game, s, depth, catch_only) for s in todo]
        for future in as_completed(pending):
            seed, puzzles = future.result()
            for p in puzzles:
                f.write(json.dumps({**p, "source_game": seed}, separators=(",", ":")) + "\n")
            if not puzzles:
                f.write(json.dumps({"source_game": seed, "none": True}) + "\n")
            f.flush()
            count += len(puzzles)
            print(f"game {seed}: {len(puzzles)} puzzles ({count} in {out})", file=sys.stderr,
                  flush=True)
            if target is not None and count >= target:
                for other in pending:
                    other.cancel()
                break
    return count


def _count(path: Path) -> int:
    if not path.exists():
        return 0
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines()
               if line.strip() and "none" not in json.loads(line))


def pack(sources: list[Path], out: Path) -> int:
    """Write the puzzles of build files as shipped package data (gzipped JSON lines,
    sorted by id, each once, without the build's markers); returns how many."""
    by_id: dict[str, dict[str, Any]] = {}
    for source in sources:
        for line in source.read_text(encoding="utf-8").splitlines():
            if line.strip():
                p = json.loads(line)
                if "none" not in p:
                    p.pop("source_game", None)
                    by_id[p["id"]] = p
    kept = [by_id[k] for k in sorted(by_id)]
    body = "".join(json.dumps(p, separators=(",", ":"), sort_keys=True) + "\n" for p in kept)
    with gzip.open(out, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write(body)
    return len(kept)
