"""The arena beside people's tables: does it slow the people down?

Runs ``benchmarks/load_server.py``'s people (``--tables`` tables of ``--players``, each
seat its own WebSocket, pausing ``--think`` s before acting) twice on a fresh server for
``--seconds``: once with ``serve --arena-tables 0`` (no arena), once with
``--arena-tables N`` while ``--bots`` outside bots (bot accounts with their own tokens,
asyncio clients in ``--bot-processes`` processes of their own) seek rated arena games
through the Bot API and play them on their seats' WebSockets (a random legal move at
once), seeking again after each game. Reports the people's action-to-ack latency (p50,
p99) without and with the arena, and the arena's games finished per minute: the medians
of ``--repeats`` pairs of runs.

    python benchmarks/arena.py [--tables 200] [--players 4] [--bots 50]
                               [--bot-processes 2] [--arena-tables 4]
                               [--seconds 300] [--think 1.0] [--repeats 3]
                               [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_server import live_server  # noqa: E402
from load_server import _drive, _percentile  # noqa: E402

LIFTED = ["--tables-per-minute", "100000", "--open-tables", "100000",
          "--sockets-per-address", "100000"]


async def _bot_account(http: Any, name: str) -> str:
    """A new bot account's token (signed up, marked a bot, a token made)."""
    me = (await http.get("/api/me")).json()
    headers = {"X-CSRF-Token": me["csrf"]}
    signed = await http.post("/api/account/signup", headers=headers,
                             json={"username": name, "password": "arena-bench-password"})
    signed.raise_for_status()
    headers = {"X-CSRF-Token": signed.json()["csrf"]}
    (await http.post("/api/account/bot", headers=headers)).raise_for_status()
    made = await http.post("/api/account/tokens", headers=headers,
                           json={"label": "bench", "scopes": ["play"]})
    made.raise_for_status()
    token: str = made.json()["token"]
    return token


async def _play(ws_url: str, event: dict[str, Any], rng: random.Random,
                deadline: float) -> bool:
    """Play the seat of a ``game`` event to the game's end: True if it ended."""
    from drive import choose
    from websockets.asyncio.client import connect

    async with connect(f"{ws_url}/ws/tables/{event['table_id']}?token={event['token']}",
                       max_size=2**22, compression=None) as ws:
        acted = -1
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), deadline - time.monotonic())
            except TimeoutError:
                return False
            m = json.loads(raw)
            if m["type"] != "state":
                continue
            if m["status"] == "finished":
                return True
            if m["to_move"] == event["seat"] and m["legal"] and m["n"] > acted:
                acted = m["n"]
                await ws.send(json.dumps({"type": "act", "action": choose(m, rng)}))
    return False


async def _tokens(url: str, names: list[str]) -> list[str]:
    """A bot account and token for each name (made before the load: a signup hashes a
    password, which is CPU the measured runs should not share)."""
    import httpx

    tokens = []
    for name in names:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            tokens.append(await _bot_account(http, name))
    return tokens


async def _bot(url: str, token: str, deadline: float, out: dict[str, Any]) -> None:
    """One outside bot: seek, wait for the game event, play, seek again, until the end."""
    import httpx

    ws_url = url.replace("http://", "ws://")
    rng = random.Random(token)
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        auth = {"Authorization": f"Bearer {token}"}
        after = 0
        while time.monotonic() < deadline:
            (await http.post("/api/bot/seek", headers=auth,
                             json={"game": "bluff", "players": None, "preset": "short"})
             ).raise_for_status()
            game = None
            while game is None and time.monotonic() < deadline:
                wait = max(0.0, min(20.0, deadline - time.monotonic()))
                got = (await http.get(f"/api/bot/events?after={after}&wait={wait:.1f}",
                                      headers=auth)).json()
                after = got["next"]
                game = next((e for e in got["events"] if e["type"] == "game"), None)
            if game is not None:
                out["seated"] += 1
                if await _play(ws_url, game, rng, deadline):
                    out["finished"] += 1
                    out["tables"].add(game["table_id"])


def _bots_process(url: str, tokens: list[str], seconds: float, queue: Any) -> None:
    out: dict[str, Any] = {"seated": 0, "finished": 0, "errors": 0, "tables": set()}

    async def main() -> None:
        deadline = time.monotonic() + seconds
        done = await asyncio.gather(*(_bot(url, t, deadline, out) for t in tokens),
                                    return_exceptions=True)
        failed = [d for d in done if isinstance(d, BaseException)]
        out["errors"] = len(failed)
        out["error_samples"] = [repr(d)[:300] for d in failed[:3]]

    asyncio.run(main())
    queue.put({**out, "tables": sorted(out["tables"])})


def _people(url: str, tables: int, players: int, seconds: float,
            think: float) -> dict[str, Any]:
    totals, elapsed, lost = asyncio.run(_drive(url, tables, players, "bluff", {}, seconds,
                                               think))
    p50, p99 = _percentile(totals.latencies, 0.5), _percentile(totals.latencies, 0.99)
    return {"actions": len(totals.latencies), "elapsed_s": round(elapsed, 1),
            "tables_finished": len(totals.finished), "errors": len(totals.errors),
            "lost_tables": len(lost),
            "p50_ms": None if p50 is None else round(p50 * 1000, 2),
            "p99_ms": None if p99 is None else round(p99 * 1000, 2)}


def _with_arena(tables: int, players: int, bots: int, bot_processes: int,
                arena_tables: int, seconds: float, think: float) -> dict[str, Any]:
    """One run of the people beside the arena's bots: the people's figures, the arena's."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    with live_server("arena-on", [*LIFTED, "--arena-tables", str(arena_tables)]) as (url, _):
        tokens = asyncio.run(_tokens(url, [f"arenabot{i}" for i in range(bots)]))
        groups = [tokens[i::bot_processes] for i in range(bot_processes)]
        workers = [context.Process(target=_bots_process, args=(url, group, seconds, queue))
                   for group in groups if group]
        for worker in workers:
            worker.start()
        began = time.monotonic()
        people = _people(url, tables, players, seconds, think)
        counts = [queue.get(timeout=seconds + 120) for _ in workers]
        elapsed = time.monotonic() - began
        for worker in workers:
            worker.join()
    games = len({t for c in counts for t in c["tables"]})  # bots may share a table
    return {**people, "arena_games": games,
            "arena_games_per_minute": round(60 * games / elapsed, 1),
            "bot_errors": sum(c["errors"] for c in counts),
            "bot_error_samples": [e for c in counts for e in c["error_samples"]]}


def _median(runs: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in runs if r[key] is not None]
    return statistics.median(values) if values else None


def run(tables: int, players: int, bots: int, bot_processes: int, arena_tables: int,
        seconds: float, think: float, repeats: int) -> dict[str, Any]:
    """``repeats`` pairs of runs, without the arena then with it, one after the other
    (a busy machine's noise falls on both alike); medians of each."""
    without, with_arena = [], []
    for _ in range(repeats):
        with live_server("arena-off", [*LIFTED, "--arena-tables", "0"]) as (url, _):
            without.append(_people(url, tables, players, seconds, think))
        with_arena.append(_with_arena(tables, players, bots, bot_processes, arena_tables,
                                      seconds, think))
    return {"tables": tables, "players": players, "think_s": think, "seconds": seconds,
            "bots": bots, "bot_processes": bot_processes, "arena_tables": arena_tables,
            "repeats": repeats,
            "median": {"p50_ms_without": _median(without, "p50_ms"),
                       "p99_ms_without": _median(without, "p99_ms"),
                       "p50_ms_with": _median(with_arena, "p50_ms"),
                       "p99_ms_with": _median(with_arena, "p99_ms"),
                       "arena_games_per_minute": _median(with_arena,
                                                         "arena_games_per_minute")},
            "without_arena": without, "with_arena": with_arena}


def report(result: dict[str, Any]) -> None:
    m = result["median"]
    runs = result["without_arena"] + result["with_arena"]
    print(f"arena beside {result['tables']} people's tables of {result['players']} "
          f"(think {result['think_s']} s, {result['seconds']:g} s a run, medians of "
          f"{result['repeats']} runs each): people's p50/p99 {m['p50_ms_without']}/"
          f"{m['p99_ms_without']} ms without the arena, {m['p50_ms_with']}/"
          f"{m['p99_ms_with']} ms with {result['bots']} bots seeking at "
          f"{result['arena_tables']} arena tables; arena games played to the end "
          f"{m['arena_games_per_minute']} a minute; people's errors "
          f"{sum(r['errors'] for r in runs)}, lost tables "
          f"{sum(r['lost_tables'] for r in runs)}, bot errors "
          f"{sum(r['bot_errors'] for r in result['with_arena'])}", flush=True)
    for r in result["with_arena"]:
        for sample in r["bot_error_samples"]:
            print(f"  {sample}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", type=int, default=50)
    parser.add_argument("--bot-processes", type=int, default=2)
    parser.add_argument("--arena-tables", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3,
                        help="pairs of runs (without, then with the arena): medians")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    result = run(args.tables, args.players, args.bots, args.bot_processes,
                 args.arena_tables, args.seconds, args.think, args.repeats)
    report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    runs = result["without_arena"] + result["with_arena"]
    return 0 if not any(r["errors"] or r["lost_tables"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
