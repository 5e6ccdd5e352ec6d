"""``make bench`` part: the cost of rating one finished game (server/ratings.py).

Two figures per table size (2, 5 and 8 players), each the median over many games with
random places drawn from a pool of 100 players and a bot level (fixed seed):

- ``model``: the Plackett-Luce update alone (``ratings.update_ratings``);
- ``apply``: ``ratings.apply`` as the table's writer runs it, inside the transaction
  that stores the game, on a SQLite file (WAL, as the server runs it) and on a throwaway
  local PostgreSQL server (durable: each commit flushed, as deployed; skipped when
  PostgreSQL is not installed): the rows made or locked, read and updated. The commit
  is the game's own write, shared with storing it, and is not counted.

    python benchmarks/ratings.py [--games 300]
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))

from pg_helpers import new_database, pg_bin, throwaway_postgres  # noqa: E402

from usotsuki.server import ratings  # noqa: E402
from usotsuki.server.ratings import NEW, SeatResult  # noqa: E402
from usotsuki.server.store import Store  # noqa: E402

SIZES = (2, 5, 8)
POOL = 100  # accounts the games draw their players from


def random_game(rng: random.Random, players: int) -> list[SeatResult]:
    """A game of ``players`` seats: accounts from the pool and one ``hard`` bot, random
    places (two seats tied one game in four), a leaver one game in ten."""
    people = rng.sample(range(POOL), players - 1)
    places = rng.sample(range(1, players + 1), players)
    if rng.random() < 0.25:  # the seat placed second ties with the winner
        places[places.index(2)] = 1
    left = rng.random() < 0.1
    seats = [SeatResult(s, f"account-{p}", None, places[s], left and s == 0)
             for s, p in enumerate(people)]
    return [*seats, SeatResult(players - 1, "bot:bluff:hard", "hard", places[-1])]


def model_us(rng: random.Random, players: int, games: int) -> float:
    times = []
    for _ in range(games):
        game = random_game(rng, players)
        began = time.perf_counter()
        ratings.update_ratings([NEW] * players, ratings.ranks(game))
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1e6


def apply_us(rng: random.Random, players: int, games: int, store: Store) -> float:
    times = []
    for n in range(games):
        game = random_game(rng, players)
        with store.engine.begin() as conn:
            conn.exec_driver_sql("SELECT 1")  # (the transaction open, as the writer's is)
            began = time.perf_counter()
            ratings.apply(conn, "bluff", game, float(n))
            times.append(time.perf_counter() - began)
    return statistics.median(times) * 1e6


@contextlib.contextmanager
def stores() -> Iterator[dict[str, Store]]:
    """A SQLite file's store and, if PostgreSQL is installed, a throwaway server's."""
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        found = {"sqlite": Store(str(Path(tmp) / "ratings.sqlite3"))}
        stack.callback(found["sqlite"].close)
        if pg_bin() is not None:
            server = stack.enter_context(throwaway_postgres(durable=True))
            found["postgresql"] = Store(new_database(server, "usotsuki_ratings_bench"))
            stack.callback(found["postgresql"].close)
        yield found


def run_group(games: int = 300, seed: int = 20261205) -> dict[str, Any]:
    """For ``run.py``: measure and print one line per table size."""
    print(f"Ratings: the update of one game, median of {games} games ...", flush=True)
    out: dict[str, Any] = {}
    with stores() as found:
        for players in SIZES:
            rng = random.Random(seed + players)
            row = out[str(players)] = {"games": games,
                                       "model_us": round(model_us(rng, players, games), 1)}
            for name, store in found.items():
                row[f"apply_{name}_us"] = round(apply_us(rng, players, games, store), 1)
            print(f"ratings {players} players: " + ", ".join(
                f"{key.removesuffix('_us').replace('_', ' on ')} {value} us"
                for key, value in row.items() if key.endswith("_us")), flush=True)
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    run_group(parser.parse_args().games)
