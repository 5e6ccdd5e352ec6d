"""Load benchmark of quick match and the lobby: ``--players`` people press *Play now*
over ``--seconds``, through the cluster (three workers behind nginx, on a throwaway
PostgreSQL and Redis, as benchmarks/load_cluster.py starts them), while ``--watchers``
people keep the lobby's live feed open.

Each person is a browser of their own (a guest: its cookie, its CSRF token, its own
loopback address, so that nginx's and the server's per-address limits see many
households): they arrive at random times (a Poisson process over the run), ask for a
Bluff table (the number of players drawn from ``PLAYER_CHOICES``: "any", 2, 3 or 4),
and wait as the page does (``GET /api/match?wait=``, a long poll). Offered bots after the
wait, a share ``--accept-bots`` accepts them; the others keep waiting until
``--patience`` seconds, then stop looking.

Measured:

- time to a seated table (from pressing *Play now* to the answer holding the seat's
  token), p50 and p99, over everyone seated and over "steady" arrivals (after the first
  ``--warmup`` seconds and before the last ``--warmup``: the last to come find nobody
  left; seated with people, not by accepting bots: that wait is the person's choice).
  Much of it is waiting for people who want the same table to come; so also, "once
  enough players wait": from the moment the last of a table's people pressed *Play
  now* to each of them holding their seat (the target's figure);
- lobby update frames per second per socket (the SSE feed ``/api/lobby/events``);
- CPU per matched player: the CPU seconds of the whole stack (workers with their bot
  processes, nginx, Redis, PostgreSQL) during the run, over the people seated;
- the checks: nobody seated twice (every seat of every quick-match table read back from
  PostgreSQL: a person in one seat at most, and each in the seat they were told), no
  table with an empty seat, and nobody who waited past the bots' offer time (plus one
  long poll's slack) without being offered bots.

Target: p99 from the table's last person under 2 s, and every check met.

    python benchmarks/load_lobby.py [--players 2000] [--seconds 300] [--watchers 50]
        [--quick] [--json PATH]

``--quick``: 200 players over 30 s and 10 watchers, a run of about a minute.
Timed: run it on a quiet machine (other work on the same cores shows up as waiting).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "server"))
sys.path.insert(0, str(HERE))

from cluster_helpers import Cluster, cluster  # noqa: E402
from load_cluster import _cpu_groups, _loop_factory, _same_weight  # noqa: E402
from nginx_render import client_tls  # noqa: E402
from pg_helpers import new_database, throwaway_postgres  # noqa: E402

from usotsuki.server.matching import Policy  # noqa: E402

TARGET_P99_S = 2.0
PLAYER_CHOICES = (None, None, 4, 4, 4, 3, 2)  # "any" twice as often as 3 or 2; 4 most
POLL_WAIT = 10  # seconds of each long poll, as short as the page's (20) or shorter
OFFER_SLACK = 2.0  # an offer is seen within one status answer after it falls due


@dataclass
class Person:
    number: int
    players: int | None
    accepts_bots: bool
    arrival: float
    pressed: float | None = None
    seek_s: float | None = None  # the seek's own answer time (a matching pass in it)
    seated: float | None = None
    table_id: str | None = None
    seat: int | None = None
    player_id: str | None = None
    with_bots: bool = False  # seated after accepting bots
    offered_at: float | None = None
    gave_up: bool = False
    unoffered_wait: bool = False  # waited past the offer's time without an offer
    errors: list[str] = field(default_factory=list)


@dataclass
class Feed:
    frames: int = 0
    opened: float | None = None
    closed: float | None = None
    error: str | None = None


def address(number: int, block: int = 3) -> str:
    """A person's own loopback address (a household each): people in 127.3/16, the
    lobby's watchers in 127.4/16."""
    return f"127.{block}.{number // 250}.{number % 250 + 1}"


def _client(base: str, local: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=local, verify=client_tls())
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=60.0)


async def _person(base: str, person: Person, began: float, patience: float,
                  policy: Policy) -> None:
    await asyncio.sleep(max(0.0, began + person.arrival - time.monotonic()))
    async with _client(base, address(person.number)) as client:
        try:
            me = (await client.get("/api/me")).json()
            person.player_id = me["id"]
            headers = {"X-CSRF-Token": me["csrf"]}
            person.pressed = time.monotonic()
            answer = await client.post("/api/match", headers=headers, json={
                "game": "bluff", "players": person.players, "bots": "ask"})
            person.seek_s = time.monotonic() - person.pressed
            status = answer.json()
            if answer.status_code != 200:
                person.errors.append(f"seek {answer.status_code}: {answer.text[:200]}")
                return
            while status.get("state") in ("waiting", "matching"):
                now = time.monotonic()
                waited = now - person.pressed
                if status.get("offer") and person.offered_at is None:
                    person.offered_at = now
                    if person.accepts_bots:
                        person.with_bots = True
                        taken = await client.post("/api/match/bots", headers=headers)
                        if taken.status_code == 200:
                            status = taken.json()
                            continue
                if (status.get("state") == "waiting" and not status.get("offer")
                        and waited > policy.offer_seconds + OFFER_SLACK):
                    person.unoffered_wait = True
                if waited > patience:
                    gone = await client.delete("/api/match", headers=headers)
                    if gone.status_code == 204:
                        person.gave_up = True
                        return
                status = (await client.get("/api/match",
                                           params={"wait": POLL_WAIT})).json()
            if status.get("state") == "matched":
                person.seated = time.monotonic()
                person.table_id, person.seat = status["table_id"], status["seat"]
            else:
                person.errors.append(f"ended as {status}")
        except (httpx.HTTPError, ValueError, KeyError) as exc:
            person.errors.append(repr(exc))


async def _watch(base: str, number: int, feed: Feed, until: float) -> None:
    """One lobby page's live feed, its frames counted until ``until`` (or cancelled)."""
    async with _client(base, address(number, block=4)) as client:
        try:
            async with client.stream("GET", "/api/lobby/events",
                                     timeout=httpx.Timeout(60.0, read=None)) as answer:
                if answer.status_code != 200:
                    return
                feed.opened = time.monotonic()
                async for line in answer.aiter_lines():
                    if line.startswith("event:"):
                        feed.frames += 1
                    if time.monotonic() >= until:
                        break
        except httpx.HTTPError as exc:
            feed.error = repr(exc)
        finally:
            feed.closed = time.monotonic()


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _seats_in_store(db: str, table_ids: list[str]) -> list[tuple[str, int, str | None,
                                                                 str | None, str | None]]:
    """(table, seat, player id, bot, token hash) of every seat of these tables."""
    import psycopg
    with psycopg.connect(db) as conn:
        rows = conn.execute(
            "SELECT t.public_id, s.seat, s.player_id, s.bot, s.token_hash FROM seats s "
            "JOIN tables t ON t.pk = s.table_pk WHERE t.public_id = ANY(%s)",
            (table_ids,)).fetchall()
    return [(str(r[0]), int(r[1]), r[2], r[3], r[4]) for r in rows]


def _checks(db: str, people: list[Person]) -> dict[str, Any]:
    seated = [p for p in people if p.table_id is not None]
    tables = sorted({p.table_id for p in seated if p.table_id is not None})
    rows = _seats_in_store(db, tables)
    places: dict[str, list[tuple[str, int]]] = {}
    empty = 0
    for table_id, seat, player_id, bot, token in rows:
        if player_id is not None and bot is None:  # (a bot level is a player in many seats)
            places.setdefault(player_id, []).append((table_id, seat))
        if bot is None and token is None:
            empty += 1
    twice = sum(1 for spots in places.values() if len(spots) > 1)
    told_wrong = sum(1 for p in seated if p.player_id is not None
                     and places.get(p.player_id) != [(p.table_id, p.seat)])
    return {"tables": len(tables), "seated_twice": twice, "seat_not_as_told": told_wrong,
            "empty_seats": empty,
            "waited_without_offer": sum(1 for p in people if p.unoffered_wait)}


async def _drive(stack: Cluster, players: int, seconds: float, watchers: int,
                 accept_bots: float, patience: float, warmup: float,
                 seed: int) -> dict[str, Any]:
    base = stack.nginx.url
    rng = random.Random(seed)
    policy = Policy()
    arrivals = sorted(rng.uniform(0.0, seconds) for _ in range(players))
    people = [Person(n, rng.choice(PLAYER_CHOICES), rng.random() < accept_bots, at)
              for n, at in enumerate(arrivals)]
    cpu_before, wall_before = _cpu_groups(stack), time.monotonic()
    began = time.monotonic() + 1.0
    until = began + seconds + patience
    feeds = [Feed() for _ in range(watchers)]
    watching = [asyncio.create_task(_watch(base, n, feed, until))
                for n, feed in enumerate(feeds)]
    await asyncio.gather(*(_person(base, p, began, patience, policy) for p in people))
    cpu_after, wall = _cpu_groups(stack), time.monotonic() - wall_before
    for task in watching:
        task.cancel()
    await asyncio.gather(*watching, return_exceptions=True)
    seated = [p for p in people if p.seated is not None and p.pressed is not None]
    waits = [p.seated - p.pressed for p in seated]  # type: ignore[operator]
    steady = [p.seated - p.pressed for p in seated  # type: ignore[operator]
              if warmup <= p.arrival <= seconds - warmup and not p.with_bots]
    by_table: dict[str, list[Person]] = {}
    for p in seated:
        by_table.setdefault(p.table_id or "", []).append(p)
    # once enough people wait: from the moment the last of a table's people pressed
    after_full = [p.seated - max(q.pressed for q in group)  # type: ignore[operator,type-var]
                  for group in by_table.values() if not any(q.with_bots for q in group)
                  for p in group]
    slowest = sorted(seated, key=lambda p: p.pressed - p.seated)[:5]  # type: ignore[operator]
    rates = [f.frames / (f.closed - f.opened) for f in feeds
             if f.opened is not None and f.closed is not None and f.closed > f.opened]
    cpu = {name: cpu_after.get(name, 0.0) - used for name, used in cpu_before.items()}
    total_cpu = sum(cpu.values())
    return {
        "players": players, "seconds": seconds, "watchers": watchers,
        "seated": len(seated), "seated_with_bots": sum(1 for p in seated if p.with_bots),
        "offered_bots": sum(1 for p in people if p.offered_at is not None),
        "gave_up": sum(1 for p in people if p.gave_up),
        "errors": sum(1 for p in people if p.errors),
        "error_samples": [e for p in people for e in p.errors][:5]
        + [f.error for f in feeds if f.error][:2],
        "seated_s": {"p50": _quantile(waits, 0.5), "p99": _quantile(waits, 0.99)},
        "full_seated_s": {"p50": _quantile(after_full, 0.5),
                          "p99": _quantile(after_full, 0.99), "n": len(after_full)},
        "steady_seated_s": {"p50": _quantile(steady, 0.5), "p99": _quantile(steady, 0.99),
                            "n": len(steady)},
        "seek_answer_s": {"p50": _quantile([p.seek_s for p in people if p.seek_s], 0.5),
                          "p99": _quantile([p.seek_s for p in people if p.seek_s], 0.99)},
        "slowest": [{"arrival": round(p.arrival, 1), "players": p.players,
                     "seek_s": round(p.seek_s or 0.0, 2),
                     "seated_s": round(p.seated - p.pressed, 2),  # type: ignore[operator]
                     "with_bots": p.with_bots} for p in slowest],
        "lobby_frames_per_s": None if not rates else {
            "mean": sum(rates) / len(rates), "max": max(rates), "sockets": len(rates)},
        "cpu_s": cpu, "wall_s": wall,
        "cpu_ms_per_matched": None if not seated else 1000 * total_cpu / len(seated),
        **_checks(stack.db, people),
    }


def run(players: int, seconds: float, watchers: int, accept_bots: float, patience: float,
        warmup: float, seed: int, workers: int = 3) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    lifted = ["--tables-per-minute", "1000000", "--open-tables", "1000000",
              "--sockets-per-address", "1000000"]
    with throwaway_postgres(durable=True) as server:
        db = new_database(server, f"usotsuki_lobby_{int(time.time())}")
        _same_weight(server.rsplit(":", 1)[1])
        with (cluster(db, workers, lifted, connections=4 * (players + watchers) + 1024)
              as stack, asyncio.Runner(loop_factory=_loop_factory()) as runner):
            result = runner.run(_drive(stack, players, seconds, watchers, accept_bots,
                                       patience, warmup, seed))
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    p99 = result["full_seated_s"]["p99"]
    result["target_met"] = (p99 is not None and p99 < TARGET_P99_S
                            and result["seated_twice"] == 0 and result["empty_seats"] == 0
                            and result["seat_not_as_told"] == 0
                            and result["waited_without_offer"] == 0
                            and result["errors"] == 0)
    return result


def report(r: dict[str, Any]) -> None:
    def s(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f} s"

    print(f"quick match: {r['players']} players over {r['seconds']:g} s, "
          f"{r['watchers']} lobby watchers")
    print(f"  seated {r['seated']} ({r['seated_with_bots']} with bots they accepted; "
          f"{r['offered_bots']} offered bots, {r['gave_up']} stopped looking), "
          f"{r['tables']} tables, errors {r['errors']} {r['error_samples']}")
    print(f"  time to a seated table: p50 {s(r['seated_s']['p50'])}, "
          f"p99 {s(r['seated_s']['p99'])}; steady (n={r['steady_seated_s']['n']}): "
          f"p50 {s(r['steady_seated_s']['p50'])}, p99 {s(r['steady_seated_s']['p99'])}")
    print(f"  from the table's last person pressing Play now to each seated: "
          f"p50 {s(r['full_seated_s']['p50'])}, p99 {s(r['full_seated_s']['p99'])} "
          f"(n={r['full_seated_s']['n']}; target p99 < {TARGET_P99_S:g} s)")
    frames = r["lobby_frames_per_s"]
    print("  lobby frames per second per socket: " + (
        "no feed" if frames is None else
        f"mean {frames['mean']:.2f}, max {frames['max']:.2f} ({frames['sockets']} sockets)"))
    print(f"  CPU per matched player: {r['cpu_ms_per_matched'] or 0:.1f} ms "
          f"({', '.join(f'{k} {v:.1f} s' for k, v in r['cpu_s'].items())}; "
          f"wall {r['wall_s']:.0f} s)")
    print(f"  seated twice {r['seated_twice']}, seat not as told {r['seat_not_as_told']}, "
          f"empty seats {r['empty_seats']}, waited past the offer without one "
          f"{r['waited_without_offer']}: target {'met' if r['target_met'] else 'MISSED'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=300.0,
                        help="people arrive over this long")
    parser.add_argument("--watchers", type=int, default=50,
                        help="lobby pages holding the live feed open")
    parser.add_argument("--accept-bots", type=float, default=0.5,
                        help="share of people who accept bots when offered")
    parser.add_argument("--patience", type=float, default=60.0,
                        help="seconds a person waits before stopping")
    parser.add_argument("--warmup", type=float, default=30.0,
                        help="arrivals before this are not in the steady figures")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true",
                        help="200 players over 30 s, 10 watchers, 5 s of warm-up")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.seconds, args.watchers, args.warmup = 200, 30.0, 10, 5.0
    result = run(args.players, args.seconds, args.watchers, args.accept_bots,
                 args.patience, args.warmup, args.seed)
    report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if result["target_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
