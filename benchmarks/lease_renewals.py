"""Row updates per second on PostgreSQL from one cluster worker's lease renewals, with
1,000 finished tables and 100 in play, and how many of its tables another worker claims
once its leases run out.

    python benchmarks/lease_renewals.py [--finished 1000] [--playing 100] [--seconds 10]
                                        [--src OTHER/src]

The worker's own lobby sets its tables up on a throwaway PostgreSQL (two-seat Liar
Games; a finished one ends after one action: ``turn_limit`` 1), then its own renewer
thread runs (one statement every ``lease / 4`` seconds) for ``--seconds``; the row
updates are ``n_tup_upd`` of the ``leases`` table in ``pg_stat_user_tables`` before and
after (the renewer's connections closed first, so that PostgreSQL has counted all their
updates). ``--src`` runs the worker of another checkout's ``src`` the same way (e.g. one
that keeps the lease of every table it loaded until the table expires). Redis is never
reached (nothing here is followed or relayed). Needs PostgreSQL's binaries
(``make postgres``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LEASE = 3.0  # seconds (``usotsuki serve``'s default --lease-seconds)
AT_ONCE = 32  # tables set up at once


async def _tables(lobby: Any, count: int, finish: bool) -> None:
    """``count`` two-seat Liar Games started (and each finished, if ``finish``)."""
    from core_helpers import play_one

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


def _updated(store: Any) -> int:
    with store.engine.connect() as conn:
        conn.exec_driver_sql("SELECT pg_stat_clear_snapshot()")
        return int(conn.exec_driver_sql(
            "SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'leases'").scalar()
            or 0)


async def measure(server: str, finished: int, playing: int, seconds: float
                  ) -> dict[str, float]:
    from pg_helpers import new_database

    from usotsuki.server.cluster import ClusterConfig, Coordinator
    from usotsuki.server.config import RealClock, Settings
    from usotsuki.server.lease import Leases
    from usotsuki.server.store import Store

    store = Store(new_database(server, "usotsuki_leases"))
    cluster = Coordinator(ClusterConfig("redis://127.0.0.1:9/0", "bench", LEASE), store, None)
    lobby = cluster.lobby_for(store, Settings(bot_delay=0.0), RealClock())
    try:
        await _tables(lobby, finished, finish=True)
        await _tables(lobby, playing, finish=False)
        await asyncio.sleep(1.0)  # (leases being given up: a statement each)
        held = len(cluster.owned)
        cluster.leases.engine.dispose()  # (its backends' counts reach the statistics)
        time.sleep(1.0)
        before, started = _updated(store), time.monotonic()
        cluster.start_renewer()
        await asyncio.sleep(seconds)
        cluster._stopping.set()  # (as ``close`` does, without releasing anything)
        await asyncio.to_thread(cluster._renewer.join)
        window = time.monotonic() - started
        cluster.leases.engine.dispose()
        time.sleep(1.0)
        updates = _updated(store) - before
        # It stops as after a SIGKILL (its leases run out unrenewed): what may another
        # worker claim? (expired now, as they would be a lease and a grace later)
        with store.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE leases SET expires = 0 WHERE owner = 'bench'")
        heir = Leases(store, "heir", LEASE)
        try:
            claimed = len(heir.claim_orphans(100_000, 0.0))
        finally:
            heir.close()
        return {"held": held, "updates": updates, "per_second": updates / window,
                "claimed": claimed}
    finally:
        await cluster.close()
        lobby.stop()
        store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--finished", type=int, default=1000)
    parser.add_argument("--playing", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--src", type=Path, default=None,
                        help="another checkout's src: its worker is measured")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent / "tests" / "server"))
    if args.src is not None:
        sys.path.insert(0, str(args.src.resolve()))
    from pg_helpers import throwaway_postgres

    import usotsuki

    with throwaway_postgres() as server:
        r = asyncio.run(measure(server, args.finished, args.playing, args.seconds))
    print(f"worker from {Path(usotsuki.__file__).parent.parent}: {args.finished} finished "
          f"tables, {args.playing} in play, lease {LEASE:g} s (renewed every "
          f"{LEASE / 4:g} s), {args.seconds:g} s window")
    print(f"leases renewed {r['held']:.0f}, row updates {r['updates']:.0f} "
          f"({r['per_second']:.1f}/s); claimed by another worker after it stops: "
          f"{r['claimed']:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
