"""An expert bot beside 100 tables of people: does the bot slow the people down?

Starts ``usotsuki serve`` (a temporary SQLite file, bots wait 0 s) pinned to one core,
opens ``--tables`` tables of ``--players`` simulated people over real WebSockets (choices
from ``tests/server/drive.py``, a ``--think`` pause before each action, as people have),
and measures the latency from sending an action to its ``ack``. Twice: without, then with
a table of ``--experts`` expert bots playing non-stop (bot delay 0, a rematch whenever a
game ends), so the bots think all the time. Prints the people's p50/p99 in both runs and
the difference; the goal is a p99 that grows by no more than a few ms.

    python benchmarks/server_expert.py [--tables 100] [--seconds 40] [--game liar]
    python benchmarks/run.py --only server/expert

``--server-src PATH`` runs the server from another checkout's ``src`` (e.g. the code
before the bots left the event loop), to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from live_server import live_server  # noqa: E402
from load_server import Totals, _percentile, _seat  # noqa: E402

WARMUP = 8.0  # seconds of each run not measured: connections, first deals, imports


async def _expert_table(http: Any, game: str, experts: int, stop: asyncio.Event,
                        counts: dict[str, int]) -> None:
    """A bot-only table of experts, restarted (rematch) whenever its game ends."""
    table = (await http.post("/api/tables", json={
        "game": game, "seats": [{"bot": "expert"}] * experts})).json()
    tid, host = table["table_id"], table["host_token"]
    r = await http.post(f"/api/tables/{tid}/start", json={"token": host})
    assert r.status_code == 200, r.text
    while not stop.is_set():
        await asyncio.sleep(0.5)
        info = (await http.get(f"/api/tables/{tid}")).json()
        if info["status"] == "finished":
            counts["games"] += 1
            await http.post(f"/api/tables/{tid}/rematch", json={"token": host})
    games = (await http.get(f"/api/tables/{tid}/games")).json()
    counts["games"] = len(games)
    # the bots' actions, from a spectator's catch-up: the expert really played
    from websockets.asyncio.client import connect

    ws_url = str(http.base_url).replace("http://", "ws://").rstrip("/")
    async with connect(f"{ws_url}/ws/tables/{tid}", max_size=2**24) as ws:
        while True:
            m = json.loads(await ws.recv())
            if m["type"] == "event" and m["event"]["type"] in ("action", "played"):
                counts["actions"] += 1
            elif m["type"] == "event" and m["event"]["type"] == "stand_in":
                counts["stand_ins"] += 1
            elif m["type"] == "state":
                break


async def _drive(url: str, tables: int, players: int, seconds: float, think: float,
                 experts: int, expert_game: str) -> tuple[Totals, dict[str, int]]:
    import httpx

    totals = Totals()
    counts = {"games": 0, "actions": 0, "stand_ins": 0}
    ws_url = url.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=url, timeout=60,
                                 limits=httpx.Limits(max_connections=50)) as http:
        opened = []
        for _ in range(tables):
            t = (await http.post("/api/tables", json={
                "game": "bluff", "seats": [{}] * players, "rules": {}})).json()
            tokens = [(await http.post(f"/api/invites/{t['invite']}/join",
                                       json={"name": f"p{i}"})).json()["token"]
                      for i in range(players)]
            opened.append((t["table_id"], t["host_token"], tokens))
        deadline = time.monotonic() + WARMUP + seconds
        tasks = []
        for table_id, _, tokens in opened:
            for token in tokens:
                ready = asyncio.Event()
                tasks.append(asyncio.create_task(
                    _seat(ws_url, table_id, token, totals, deadline, ready, think)))
                await ready.wait()
        stop = asyncio.Event()
        bots = (asyncio.create_task(_expert_table(http, expert_game, experts, stop, counts))
                if experts else None)
        totals.began = time.perf_counter()
        await asyncio.gather(*(http.post(f"/api/tables/{tid}/start", json={"token": host})
                               for tid, host, _ in opened))
        results = await asyncio.gather(*tasks, return_exceptions=True)
        stop.set()
        if bots is not None:
            await bots
        totals.errors += [f"client: {r!r}" for r in results if isinstance(r, BaseException)]
    return totals, counts


def run_once(tables: int, players: int, seconds: float, think: float, experts: int,
             expert_game: str, server_src: Path | None = None,
             server_args: tuple[str, ...] = ()) -> dict[str, Any]:
    all_cpus = list(range(os.cpu_count() or 1))
    server_cpus, client_cpus = {all_cpus[0]}, set(all_cpus[1:]) or {all_cpus[0]}
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    env = dict(os.environ)
    extra: list[str] = []
    if server_src is not None:
        env["PYTHONPATH"] = str(server_src)
    else:  # this checkout's quotas would refuse a benchmark's hundred tables a minute
        extra = ["--tables-per-minute", "100000", "--open-tables", "100000",
              "--sockets-per-address", "100000", *server_args]
    def pin_server() -> None:  # the server and its bot workers share one core
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, server_cpus)

    try:
        with live_server("expert", extra, preexec_fn=pin_server, env=env) as (url, _server):
            if hasattr(os, "sched_setaffinity"):
                os.sched_setaffinity(0, client_cpus)
            totals, counts = asyncio.run(_drive(url, tables, players, seconds, think,
                                                experts, expert_game))
    finally:
        if cpus and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, set(cpus))
    measured = [lat for lat, at in zip(totals.latencies, totals.sent_at, strict=True)
                if at - totals.began >= WARMUP]
    p50, p99 = _percentile(measured, 0.50), _percentile(measured, 0.99)
    return {"experts": experts, "actions": len(measured),
            "p50_ms": None if p50 is None else round(p50 * 1000, 2),
            "p99_ms": None if p99 is None else round(p99 * 1000, 2),
            "max_ms": round(max(measured) * 1000, 2) if measured else None,
            "errors": len(totals.errors), "error_samples": totals.errors[:3],
            "expert_table": counts}


def run(tables: int = 100, players: int = 4, seconds: float = 40.0, think: float = 1.0,
        experts: int = 4, expert_game: str = "liar", server_src: Path | None = None,
        server_args: tuple[str, ...] = ()) -> dict[str, Any]:
    without = run_once(tables, players, seconds, think, 0, expert_game, server_src,
                       server_args)
    beside = run_once(tables, players, seconds, think, experts, expert_game, server_src,
                      server_args)
    growth = (None if without["p99_ms"] is None or beside["p99_ms"] is None
              else round(beside["p99_ms"] - without["p99_ms"], 2))
    return {"tables": tables, "players": players, "seconds": seconds, "think_s": think,
            "expert_game": expert_game, "experts": experts,
            "server_src": None if server_src is None else str(server_src),
            "server_args": list(server_args),
            "without_expert": without, "with_expert": beside, "p99_growth_ms": growth}


def report(result: dict[str, Any]) -> None:
    w, e = result["without_expert"], result["with_expert"]
    print(f"server beside an expert table ({result['tables']} tables of "
          f"{result['players']} people, think {result['think_s']} s, "
          f"{result['seconds']} s measured; {result['experts']} {result['expert_game']} "
          f"experts playing non-stop"
          f"{'' if result['server_src'] is None else ', server from ' + result['server_src']}"
          f"{' '.join(['', *result['server_args']])}):")
    for label, r in (("without", w), ("with", e)):
        print(f"  {label:7} the expert: {r['actions']} actions, p50 {r['p50_ms']} ms, "
              f"p99 {r['p99_ms']} ms, max {r['max_ms']} ms, errors {r['errors']}")
    print(f"  expert table: {e['expert_table']}")
    print(f"  p99 growth: {result['p99_growth_ms']} ms", flush=True)
    for sample in w["error_samples"] + e["error_samples"]:
        print(f"  {sample}")


def add_options(parser: argparse.ArgumentParser) -> None:
    """``make bench`` options of this group (``--only server/expert`` runs it alone)."""
    group = parser.add_argument_group("expert beside people (benchmarks/server_expert.py)")
    group.add_argument("--expert-tables", type=int, default=100)
    group.add_argument("--expert-seconds", type=float, default=40.0)


def run_group(args: argparse.Namespace) -> dict[str, Any]:
    tables, seconds = args.expert_tables, args.expert_seconds
    if getattr(args, "quick", False):
        tables, seconds = min(tables, 30), min(seconds, 15.0)
    try:
        result = run(tables, seconds=seconds)
    except Exception as exc:  # one broken group must not lose the others' figures
        print(f"server/expert FAILED: {type(exc).__name__}: {exc}", flush=True)
        return {"failed": f"{type(exc).__name__}: {exc}"}
    report(result)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--experts", type=int, default=4, help="expert seats at the bot table")
    parser.add_argument("--game", choices=("bluff", "liar"), default="liar",
                        help="the expert table's game")
    parser.add_argument("--server-src", type=Path, default=None)
    parser.add_argument("--server-arg", action="append", default=[],
                        help="an extra option for `usotsuki serve` (repeat it)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    result = run(args.tables, args.players, args.seconds, args.think, args.experts, args.game,
                 args.server_src, tuple(args.server_arg))
    report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if not result["without_expert"]["errors"] and not result["with_expert"]["errors"] \
        else 1


if __name__ == "__main__":
    sys.exit(main())
