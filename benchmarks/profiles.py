"""Profiles and game lists with 100,000 games kept, on SQLite and PostgreSQL.

A database is filled with ``--games`` finished games (fixed seed): ``--people`` guests
whose game counts follow a Zipf law (the busiest played thousands), and the bot levels,
each in a large share of the games; 2 to 6 seats a game, a real record's size each.
Then the profile (``profiles.profile``) and the game list (``profiles.game_list``: the
first page, a page deep in the list, a filtered page) are timed for the busiest person,
a median one and the busiest bot, as seen by themselves, by a co-player and by an
anonymous stranger: what the routes run, less HTTP. Each figure is the p50 and p95 of
``--repeats`` calls.

    python benchmarks/profiles.py [--games 100000] [--repeats 100] [--only sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "server"))

from pg_helpers import new_database, pg_bin, throwaway_postgres  # noqa: E402
from sqlalchemy import insert  # noqa: E402

from usotsuki.server.history import bot_player, rules_key  # noqa: E402
from usotsuki.server.player_tables import played_games, played_seats, players  # noqa: E402
from usotsuki.server.profiles import GameFilter, game_list, profile  # noqa: E402
from usotsuki.server.store import Store, seats, tables  # noqa: E402

TARGET_P95_MS = 100.0
GAMES_PER_TABLE = 5
BATCH = 2000
LEVELS = {"bluff": ("easy", "normal", "hard", "expert"), "liar": ("sensible", "hard")}
RULES = {"bluff": [{}, {"max_cards": 3}, {"max_cards": 5, "straights": False}],
         "liar": [{"turn_limit": 200}, {"eight_cut": True, "turn_limit": 200},
                  {"revolution": True, "turn_limit": 200}]}


def a_record(rng: random.Random) -> str:
    """A real bot game's Part 4 record (its size is what each stored game costs)."""
    from usotsuki.games import game as game_entry

    entry = game_entry("bluff")
    session = entry.new_session(4, {}, 1, seed=0, names=None)
    while not session.is_over:
        if session.chance_due or session.to_move is None:
            session, _ = session.deal(session.draw_chance(rng))
            continue
        session, _, _ = session.apply_text(entry.format_action(session.random_action(rng)))
    return json.dumps(session.record(), ensure_ascii=False)


def fill(store: Store, games: int, people: int, seed: int) -> dict[str, str]:
    """``games`` finished games; the players timed: busiest, median person, busiest bot."""
    rng = random.Random(seed)
    record = a_record(rng)
    guests = [f"guest{i:05d}" for i in range(people)]
    weights = [1.0 / (i + 1) for i in range(people)]  # Zipf: a few play a great deal
    now = 1.8e9
    counts: dict[str, int] = {}
    with store.engine.begin() as conn:
        conn.execute(insert(players), [
            {"id": g, "kind": "guest", "name": g, "created": now, "seen": now}
            for g in guests] + [
            {"id": bot_player(game, level), "kind": "bot", "name": level, "created": now,
             "seen": now} for game, levels in LEVELS.items() for level in levels])
    for start in range(0, games, BATCH):
        table_rows, seat_rows, game_rows, played = [], [], [], []
        for i in range(start, min(start + BATCH, games)):
            table = i // GAMES_PER_TABLE
            game = "bluff" if rng.random() < 0.6 else "liar"
            n = rng.randint(2, 6)
            people_here = rng.randint(1, n)
            who = list(dict.fromkeys(rng.choices(guests, weights, k=people_here)))
            bots = [bot_player(game, rng.choice(LEVELS[game])) for _ in range(n - len(who))]
            order = rng.sample(range(len(who) + len(bots)), len(who) + len(bots))
            seated = who + bots
            finished = now - (games - i) * 30.0
            if i % GAMES_PER_TABLE == 0:
                table_rows.append({"pk": table + 1, "public_id": f"t{table:07d}",
                                   "invite": f"i{table:07d}", "host_hash": "h", "game": game,
                                   "config": "{}", "created": finished, "active": finished})
                seat_rows += [{"table_pk": table + 1, "seat": s, "player_id": p}
                              for s, p in enumerate(seated)]
            rules = rules_key(rng.choice(RULES[game]))
            game_rows.append({"pk": i + 1, "table_pk": table + 1,
                              "number": i % GAMES_PER_TABLE, "game": game, "rules": rules,
                              "players": len(seated), "finished": finished, "public": False,
                              "rated": False, "record": record})
            for seat, place in enumerate(order):
                player = seated[seat]
                counts[player] = counts.get(player, 0) + 1
                played.append({"game_pk": i + 1, "seat": seat, "player_id": player,
                               "game": game, "finished": finished, "public": False,
                               "name": player, "bot": player.rsplit(":", 1)[-1]
                               if player.startswith("bot:") else None,
                               "place": place + 1, "left": rng.random() < 0.02})
        with store.engine.begin() as conn:
            if table_rows:
                conn.execute(insert(tables), table_rows)
                conn.execute(insert(seats), seat_rows)
            conn.execute(insert(played_games), game_rows)
            conn.execute(insert(played_seats), played)
    # As autovacuum would have by then: statistics, and (PostgreSQL) the visibility map
    # that lets a scan read the index alone.
    postgres = store.engine.dialect.name == "postgresql"
    with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("VACUUM ANALYZE" if postgres else "ANALYZE")
        if postgres:
            conn.exec_driver_sql("SELECT setval(pg_get_serial_sequence('played_games', 'pk'), "
                                 f"{games})")
    by_games = sorted((n, p) for p, n in counts.items() if not p.startswith("bot:"))
    busiest_bot = max((n, p) for p, n in counts.items() if p.startswith("bot:"))
    return {"busiest person": by_games[-1][1], "median person": by_games[len(by_games) // 2][1],
            "busiest bot": busiest_bot[1]}


def co_player(store: Store, player: str) -> str:
    """Someone who played the player's latest game with them (a person if any)."""
    page = game_list(store, player, player, GameFilter(limit=1))
    others = [s["player_id"] for s in page["games"][0]["seats"] if s["player_id"] != player]
    return next((p for p in others if not p.startswith("bot:")), others[0])


def timed(call: Callable[[], Any], repeats: int) -> dict[str, float]:
    call()  # warm
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        call()
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    return {"p50_ms": round(statistics.median(times), 2),
            "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2)}


def measure(store: Store, who: dict[str, str], repeats: int) -> list[dict[str, Any]]:
    rows = []
    for label, player in who.items():
        deep = game_list(store, player, player, GameFilter(limit=20))
        for _ in range(5):  # five pages down
            if deep["next"] is None:
                break
            deep = game_list(store, player, player, GameFilter(before=deep["next"]))
        cursor = deep["next"]
        for viewer_label, viewer in (("self", player), ("co-player", co_player(store, player)),
                                     ("anonymous", None)):
            calls: dict[str, Callable[[], Any]] = {
                "profile": lambda p=player, v=viewer: profile(store, p, v),
                "games, first page": lambda p=player, v=viewer: game_list(
                    store, p, v, GameFilter()),
                "games, page 6": lambda p=player, v=viewer, c=cursor: game_list(
                    store, p, v, GameFilter(before=c)),
                "games, won at Bluff": lambda p=player, v=viewer: game_list(
                    store, p, v, GameFilter(game="bluff", result="win")),
            }
            for what, call in calls.items():
                figure = timed(call, repeats)
                rows.append({"player": label, "viewer": viewer_label, "query": what,
                             **figure, "met": figure["p95_ms"] < TARGET_P95_MS})
    return rows


@contextmanager
def database(kind: str, tmp: Path) -> Iterator[Store]:
    if kind == "sqlite":
        store = Store(str(tmp / "profiles.sqlite3"))
        try:
            yield store
        finally:
            store.close()
        return
    with throwaway_postgres() as server:
        store = Store(new_database(server, "usotsuki_profiles"))
        try:
            yield store
        finally:
            store.close()


def run(games: int, people: int, repeats: int, kinds: list[str], seed: int
        ) -> dict[str, Any]:
    out: dict[str, Any] = {"games": games, "people": people, "repeats": repeats,
                           "target_p95_ms": TARGET_P95_MS}
    for kind in kinds:
        if kind == "postgresql" and pg_bin() is None:
            out[kind] = {"skipped": "no PostgreSQL here (make postgres)"}
            continue
        with tempfile.TemporaryDirectory(prefix="usotsuki-profiles-") as name, \
                database(kind, Path(name)) as store:
            began = time.perf_counter()
            who = fill(store, games, people, seed)
            filled = time.perf_counter() - began
            rows = measure(store, who, repeats)
            out[kind] = {"fill_seconds": round(filled, 1), "players": who, "rows": rows,
                         "worst_p95_ms": max(r["p95_ms"] for r in rows),
                         "met": all(r["met"] for r in rows)}
    return out


def run_group(args: argparse.Namespace) -> dict[str, Any]:
    """For ``run.py``: measure and print one line per database and query."""
    print(f"Profiles: {args.profile_games} games kept ...", flush=True)
    out = run(args.profile_games, args.profile_people, args.profile_repeats,
              ["sqlite", "postgresql"], args.seed)
    report(out)
    return out


def report(out: dict[str, Any]) -> None:
    for kind in ("sqlite", "postgresql"):
        result = out.get(kind)
        if result is None:
            continue
        if "skipped" in result:
            print(f"profiles {kind}: skipped ({result['skipped']})", flush=True)
            continue
        print(f"profiles {kind} ({out['games']} games, filled in {result['fill_seconds']} s): "
              f"worst p95 {result['worst_p95_ms']} ms; target under "
              f"{out['target_p95_ms']:g} ms: {'met' if result['met'] else 'NOT met'}",
              flush=True)
        for r in result["rows"]:
            print(f"  {r['player']:>14} seen by {r['viewer']:<9} {r['query']:<20} "
                  f"p50 {r['p50_ms']:7.2f} ms  p95 {r['p95_ms']:7.2f} ms", flush=True)


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile-games", type=int, default=100_000,
                        help="games kept for the profile benchmark (default 100000)")
    parser.add_argument("--profile-people", type=int, default=5000,
                        help="guests playing them (default 5000)")
    parser.add_argument("--profile-repeats", type=int, default=100,
                        help="timed calls per profile figure (default 100)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_options(parser)
    parser.add_argument("--only", default="sqlite,postgresql")
    parser.add_argument("--seed", type=int, default=20261101)
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args(argv)
    out = run(args.profile_games, args.profile_people, args.profile_repeats,
              args.only.split(","), args.seed)
    report(out)
    if args.out is not None:
        args.out.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
