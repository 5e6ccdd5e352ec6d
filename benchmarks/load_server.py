"""Load benchmark of the game server: many simulated players over real WebSockets.

Starts ``usotsuki serve`` on a free loopback port with a temporary SQLite file (bots
wait 0 s), opens ``--tables`` tables of ``--players`` people at once, and has every
seat play its own game over its own WebSocket (choices from ``tests/server/drive.py``).
Measures tables played to the end, actions per second, and the latency from sending an
action to receiving its ``ack`` (p50, p99). Simulated people pause ``--think`` seconds
on average (0.5x to 1.5x) before each action, as people do; ``--think 0`` saturates the
server and measures its throughput instead. Checks that no action was lost: each table's
record holds exactly the actions that were acknowledged. Bounded: it stops by itself
after ``--seconds``. The server and the load run on different cores where there are two.

    python benchmarks/load_server.py [--tables 200] [--players 4] [--game bluff]
                                     [--seconds 180] [--think 1.0] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The scripted player lives with the tests (it is a test client, not part of the package).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_server import live_server  # noqa: E402

TARGET = {"tables": 200, "players": 4, "p99_ms": 100.0}


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # perf_counter of each acked send
    errors: list[str] = field(default_factory=list)
    acks: dict[str, int] = field(default_factory=dict)  # table id -> acked actions
    finished: set[str] = field(default_factory=set)
    began: float = 0.0
    retries: int = 0  # actions sent again after a rate_limited answer


async def _seat(url: str, table_id: str, token: str, totals: Totals, deadline: float,
                started: asyncio.Event, think: float) -> None:
    from drive import choose
    from websockets.asyncio.client import connect

    async with connect(f"{url}/ws/tables/{table_id}?token={token}", max_size=2**22,
                       open_timeout=60, compression=None) as ws:
        started.set()
        seat: int | None = None
        acted_at: int | None = None  # the state number we acted on
        sent = 0.0
        last_sent = ""
        awaiting = False  # an action sent and not yet acknowledged
        finished = False
        while time.monotonic() < deadline and not (finished and not awaiting):
            try:
                raw = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
            except TimeoutError:
                return
            if isinstance(raw, str) and raw.startswith('{"type":"event"'):
                continue  # this player decides from the state messages alone
            m = json.loads(raw)
            kind = m["type"]
            if kind == "welcome":
                seat = m["seat"]
            elif kind == "error" and m["code"] == "rate_limited" and awaiting:
                # Only machine-speed players (--think 0) act 20 times a second: wait and
                # send again, as the protocol asks of a client.
                totals.retries += 1
                await asyncio.sleep(1.0)
                sent = time.perf_counter()
                await ws.send(last_sent)
            elif kind == "error":
                totals.errors.append(f"{table_id}/{seat}: {m['code']}: {m['message']}")
                awaiting = False
            elif kind == "ack":
                awaiting = False
                totals.latencies.append(time.perf_counter() - sent)
                totals.sent_at.append(sent)
                totals.acks[table_id] = totals.acks.get(table_id, 0) + 1
            elif kind == "state":
                if m["status"] == "finished":
                    totals.finished.add(table_id)
                    finished = True
                elif m["to_move"] == seat and m["legal"] is not None and acted_at != m["n"]:
                    acted_at = m["n"]
                    rng = random.Random(f"{table_id}:{m['n']}")
                    text = choose(m, rng)
                    if think > 0:  # a person's pause: the server sees paced traffic
                        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                    sent = time.perf_counter()
                    awaiting = True
                    last_sent = json.dumps({"type": "act", "action": text})
                    await ws.send(last_sent)


async def _drive(url: str, tables: int, players: int, game: str, rules: dict[str, Any],
                 seconds: float, think: float) -> tuple[Totals, float, list[str]]:
    import httpx

    totals = Totals()
    ws_url = url.replace("http://", "ws://")
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        opened: list[tuple[str, str, list[str]]] = []
        for _ in range(tables):
            t = (await http.post("/api/tables", json={
                "game": game, "seats": [{}] * players, "rules": rules})).json()
            tokens = [(await http.post(f"/api/invites/{t['invite']}/join",
                                       json={"name": f"p{i}"})).json()["token"]
                      for i in range(players)]
            opened.append((t["table_id"], t["host_token"], tokens))
        deadline = time.monotonic() + seconds
        tasks = []
        for table_id, _, tokens in opened:
            for token in tokens:
                ready = asyncio.Event()
                tasks.append(asyncio.create_task(
                    _seat(ws_url, table_id, token, totals, deadline, ready, think)))
                await ready.wait()
        began = totals.began = time.perf_counter()
        await asyncio.gather(*(http.post(f"/api/tables/{tid}/start", json={"token": host})
                               for tid, host, _ in opened))
        results = await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.perf_counter() - began
        totals.errors += [f"client: {r!r}" for r in results if isinstance(r, BaseException)]
        lost = []
        for tid, _, _ in opened:  # every acknowledged action is in the record, no more
            if tid not in totals.finished:
                continue
            record = (await http.get(f"/api/tables/{tid}/games/0/record")).json()
            logged = sum(len(g["actions"]) for g in record.get("rounds", record.get("games")))
            if logged != totals.acks.get(tid, 0):
                lost.append(f"{tid}: {totals.acks.get(tid, 0)} acked, {logged} in the record")
    return totals, elapsed, lost


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(tables: int = 200, players: int = 4, game: str = "bluff",
        rules: dict[str, Any] | None = None, seconds: float = 180.0,
        think: float = 1.0) -> dict[str, Any]:
    """Run the benchmark; returns the figures as a JSON-ready dict."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    all_cpus = list(range(os.cpu_count() or 1))
    server_cpus = {all_cpus[0]}
    client_cpus = set(all_cpus[1:]) or server_cpus
    def pin_server() -> None:
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, server_cpus)

    # one address opens every table here: lift the per-address quotas
    lifted = ["--tables-per-minute", "100000", "--open-tables", "100000",
              "--sockets-per-address", "100000"]
    try:
        with live_server("load", lifted, preexec_fn=pin_server) as (url, _server):
            if hasattr(os, "sched_setaffinity"):
                os.sched_setaffinity(0, client_cpus)
            totals, elapsed, lost = asyncio.run(
                _drive(url, tables, players, game, rules or {}, seconds, think))
    finally:
        if cpus and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, set(cpus))
    actions = len(totals.latencies)
    p50, p99 = _percentile(totals.latencies, 0.50), _percentile(totals.latencies, 0.99)
    result = {
        "game": game, "tables": tables, "players": players, "rules": rules or {},
        "think_s": think, "seconds_limit": seconds, "elapsed_s": round(elapsed, 2),
        "tables_finished": len(totals.finished), "actions": actions,
        "actions_per_s": round(actions / elapsed, 1) if elapsed else None,
        "latency_ms": {"p50": None if p50 is None else round(p50 * 1000, 2),
                       "p99": None if p99 is None else round(p99 * 1000, 2),
                       "max": round(max(totals.latencies) * 1000, 2) if actions else None},
        "errors": len(totals.errors), "error_samples": totals.errors[:5],
        "rate_limited_retries": totals.retries,
        "lost_actions": lost[:5], "lost_tables": len(lost),
        "server_cpus": sorted(server_cpus), "client_cpus": sorted(client_cpus),
    }
    # The 200 simultaneous starts are a burst no real evening has: show the steady state too.
    steady = [lat for lat, at in zip(totals.latencies, totals.sent_at, strict=True)
              if at - totals.began >= 10.0]
    s50, s99 = _percentile(steady, 0.50), _percentile(steady, 0.99)
    result["latency_ms_after_10s"] = {
        "actions": len(steady), "p50": None if s50 is None else round(s50 * 1000, 2),
        "p99": None if s99 is None else round(s99 * 1000, 2)}
    result["target"] = (f"{TARGET['tables']} tables of {TARGET['players']} at once, "
                        f"p99 < {TARGET['p99_ms']:.0f} ms, no error or lost action")
    result["target_met"] = (tables >= TARGET["tables"] and players == TARGET["players"]
                            and len(totals.finished) == tables and p99 is not None
                            and p99 * 1000 < TARGET["p99_ms"] and not totals.errors
                            and not lost)
    return result


def report(result: dict[str, Any]) -> None:
    lat = result["latency_ms"]
    print(f"server load ({result['game']}, think {result['think_s']} s): "
          f"{result['tables_finished']}/{result['tables']} "
          f"tables of {result['players']} finished in {result['elapsed_s']} s; "
          f"{result['actions']} actions, {result['actions_per_s']} actions/s; "
          f"latency p50 {lat['p50']} ms, p99 {lat['p99']} ms, max {lat['max']} ms "
          f"(after the first 10 s: p50 {result['latency_ms_after_10s']['p50']} ms, "
          f"p99 {result['latency_ms_after_10s']['p99']} ms); "
          f"errors {result['errors']}, tables with lost actions {result['lost_tables']}, "
          f"rate-limited resends {result['rate_limited_retries']}; "
          f"target met: {result['target_met']}", flush=True)
    for sample in result["error_samples"] + result["lost_actions"]:
        print(f"  {sample}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", choices=("bluff", "liar"), default="bluff")
    parser.add_argument("--rules", default="{}", help="rules as JSON, e.g. '{\"max_cards\": 3}'")
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a simulated person pauses before acting "
                        "(0: act at once, which measures saturation throughput)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    result = run(args.tables, args.players, args.game, json.loads(args.rules), args.seconds,
                 args.think)
    report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if result["errors"] == 0 and not result["lost_tables"] else 1


if __name__ == "__main__":
    sys.exit(main())


def add_options(parser: argparse.ArgumentParser) -> None:
    """``make bench`` options of this group (``--only server`` runs it alone)."""
    group = parser.add_argument_group("server load (benchmarks/load_server.py)")
    group.add_argument("--server-tables", type=int, default=200,
                       help="tables of --server-players people played at once")
    group.add_argument("--server-players", type=int, default=4)
    group.add_argument("--server-game", choices=("bluff", "liar"), default="bluff")
    group.add_argument("--server-seconds", type=float, default=240.0,
                       help="the load stops by itself after this long")
    group.add_argument("--server-think", type=float, default=1.0,
                       help="mean pause of a simulated person before acting (0: saturate)")


def run_group(args: argparse.Namespace) -> dict[str, Any]:
    """Run from ``benchmarks/run.py``; ``--quick`` makes it a 20-table smoke run."""
    tables, seconds = args.server_tables, args.server_seconds
    if getattr(args, "quick", False):
        tables, seconds = min(tables, 20), min(seconds, 60.0)
    try:
        result = run(tables, args.server_players, args.server_game, {}, seconds,
                     args.server_think)
    except Exception as exc:  # one broken group must not lose the others' figures
        print(f"server load FAILED: {type(exc).__name__}: {exc}", flush=True)
        return {"failed": f"{type(exc).__name__}: {exc}"}
    report(result)
    return result
