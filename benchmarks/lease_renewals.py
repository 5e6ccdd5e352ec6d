"""Row updates per second on PostgreSQL from one cluster worker's lease renewals, with
1,000 finished tables and 100 in play, and the tables another worker claims after it
stops: the worker as it is (each game over gives its lease up) against a worker that
kept the lease of every table it loaded until the table expired.

    python benchmarks/lease_renewals.py [--finished 1000] [--playing 100] [--seconds 10]

Each side builds its tables with a real :class:`~usotsuki.server.cluster.ClusterLobby`
on a throwaway PostgreSQL (two-seat Liar Games; a finished one ends after one action:
``turn_limit`` 1), then runs the worker's own renewer thread (one statement every
``lease / 4`` seconds) for ``--seconds`` and reads ``n_tup_upd`` of the ``leases`` table
in ``pg_stat_user_tables`` before and after (the renewer's connections closed first, so
that PostgreSQL has counted all their updates). "kept" puts every finished table's lease
back in the worker's renewal set, as a worker that kept them would hold it. Redis is
never reached (nothing here is followed or relayed). Needs PostgreSQL's binaries
(``make postgres``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "server"))

from core_helpers import play_one  # noqa: E402
from pg_helpers import new_database, throwaway_postgres  # noqa: E402

from usotsuki.server.cluster import ClusterConfig, ClusterLobby, Coordinator  # noqa: E402
from usotsuki.server.config import RealClock, Settings  # noqa: E402
from usotsuki.server.lease import Leases  # noqa: E402
from usotsuki.server.store import Store  # noqa: E402

LEASE = 3.0  # seconds (``usotsuki serve``'s default --lease-seconds)


AT_ONCE = 32  # tables set up at once


async def _tables(lobby: ClusterLobby, count: int, finish: bool) -> None:
    """``count`` two-seat Liar Games started (and each finished, if ``finish``)."""
    rules = {"turn_limit": 1} if finish else {}

    async def one(n: int) -> None:
        table, _ = await lobby.create("liar", {"players": 2, "rules": rules, "games": 1},
                                      [None, None])
        for seat in range(2):
            await table.join(f"p{seat}", seat)
        await lobby.start_game(table, rematch=False)
        rng = random.Random(n)
        while finish and table.playing:
            await play_one(table, rng)

    for first in range(0, count, AT_ONCE):
        await asyncio.gather(*(one(n) for n in range(first, min(count, first + AT_ONCE))))


def _updated(store: Store) -> int:
    with store.engine.connect() as conn:
        conn.exec_driver_sql("SELECT pg_stat_clear_snapshot()")
        return int(conn.exec_driver_sql(
            "SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'leases'").scalar()
            or 0)


async def _side(server: str, name: str, finished: int, playing: int, seconds: float,
                kept: bool) -> dict[str, float]:
    store = Store(new_database(server, f"usotsuki_{name}"))
    cluster = Coordinator(ClusterConfig("redis://127.0.0.1:9/0", name, LEASE), store, None)
    lobby = cluster.lobby_for(store, Settings(bot_delay=0.0), RealClock())
    try:
        await _tables(lobby, finished, finish=True)
        await _tables(lobby, playing, finish=False)
        for pk in list(cluster._giving_up):
            await cluster.given_up(pk)
        if kept:  # as a worker that kept every loaded table's lease until it expired
            for table in lobby.tables():
                if not table.owner:
                    token = await cluster.lease_call(cluster.leases.acquire, table.row.pk)
                    assert token is not None
                    cluster.holding(table.row.pk, token)
        held = len(cluster.owned)
        cluster.leases.engine.dispose()  # (its backends' counts reach the statistics)
        time.sleep(1.0)
        before, started = _updated(store), time.monotonic()
        cluster.start_renewer()
        await asyncio.sleep(seconds)
        cluster.stop_renewer()
        window = time.monotonic() - started
        cluster.leases.engine.dispose()
        time.sleep(1.0)
        updates = _updated(store) - before
        # It stops as after a SIGKILL (its leases run out unrenewed): what may another
        # worker claim? (expired now, as they would be a lease and a grace later)
        with store.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE leases SET expires = 0 WHERE owner = %s", (name,))
        heir = Leases(store, f"{name}-heir", LEASE)
        try:
            claimed = len(heir.claim_orphans(100_000, 0.0))
        finally:
            heir.close()
        return {"held": held, "updates": updates, "seconds": window,
                "per_second": updates / window, "claimed": claimed}
    finally:
        await cluster.close()
        lobby.stop()
        store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--finished", type=int, default=1000)
    parser.add_argument("--playing", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    with throwaway_postgres() as server:
        rows = {side: asyncio.run(_side(server, side, args.finished, args.playing,
                                        args.seconds, kept=side == "kept"))
                for side in ("released", "kept")}
    print(f"{args.finished} finished tables, {args.playing} in play, lease {LEASE:g} s "
          f"(renewed every {LEASE / 4:g} s), {args.seconds:g} s window")
    print(f"{'leases':<10} {'renewed':>8} {'row updates':>12} {'updates/s':>10} "
          f"{'claimed':>8}")
    for side, r in rows.items():
        print(f"{side:<10} {r['held']:>8.0f} {r['updates']:>12.0f} {r['per_second']:>10.1f} "
              f"{r['claimed']:>8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
