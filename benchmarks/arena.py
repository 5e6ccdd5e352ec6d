"""The arena beside people's tables: does it slow the people down?

Runs ``benchmarks/load_server.py``'s people (``--tables`` tables of ``--players``, each
seat its own WebSocket, pausing ``--think`` s before acting) twice on a fresh server for
``--seconds``: once with ``serve --arena-tables 0`` (no arena), once with
``--arena-tables N`` while ``--bots`` outside bots (bot accounts with their own tokens,
asyncio clients in ``--bot-processes`` processes of their own) seek rated arena games
through the Bot API and play them on their seats' WebSockets (a random legal move at
once), seeking again after each game. Reports the people's action-to-ack latency (p50,
p99) in both runs, and the arena's games finished per minute.

    python benchmarks/arena.py [--tables 200] [--players 4] [--bots 50]
                               [--bot-processes 2] [--arena-tables 4]
                               [--seconds 300] [--think 1.0] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
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
                           json={"label": "bench", "scopes": ["play"], "per_minute": 1000})
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


async def _bot(url: str, name: str, deadline: float, out: dict[str, Any]) -> None:
    """One outside bot: seek, wait for the game event, play, seek again, until the end."""
    import httpx

    ws_url = url.replace("http://", "ws://")
    rng = random.Random(name)
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        token = await _bot_account(http, name)
        http.cookies.clear()
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


def _bots_process(url: str, names: list[str], seconds: float, queue: Any) -> None:
    out: dict[str, Any] = {"seated": 0, "finished": 0, "errors": 0, "tables": set()}

    async def main() -> None:
        deadline = time.monotonic() + seconds
        done = await asyncio.gather(*(_bot(url, n, deadline, out) for n in names),
                                    return_exceptions=True)
        out["errors"] = sum(isinstance(d, BaseException) for d in done)

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


def run(tables: int, players: int, bots: int, bot_processes: int, arena_tables: int,
        seconds: float, think: float) -> dict[str, Any]:
    with live_server("arena-off", [*LIFTED, "--arena-tables", "0"]) as (url, _):
        without = _people(url, tables, players, seconds, think)
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    names = [f"arenabot{i}" for i in range(bots)]
    groups = [names[i::bot_processes] for i in range(bot_processes)]
    with live_server("arena-on", [*LIFTED, "--arena-tables", str(arena_tables)]) as (url, _):
        workers = [context.Process(target=_bots_process, args=(url, group, seconds, queue))
                   for group in groups if group]
        for worker in workers:
            worker.start()
        began = time.monotonic()
        with_arena = _people(url, tables, players, seconds, think)
        counts = [queue.get(timeout=seconds + 120) for _ in workers]
        elapsed = time.monotonic() - began
        for worker in workers:
            worker.join()
    games = len({t for c in counts for t in c["tables"]})  # bots may share a table
    return {"tables": tables, "players": players, "think_s": think, "seconds": seconds,
            "bots": bots, "bot_processes": bot_processes, "arena_tables": arena_tables,
            "people_without_arena": without, "people_with_arena": with_arena,
            "arena": {"games_finished": games,
                      "games_per_minute": round(60 * games / elapsed, 1),
                      "seats_played": sum(c["finished"] for c in counts),
                      "seats_seated": sum(c["seated"] for c in counts),
                      "bot_errors": sum(c["errors"] for c in counts)}}


def report(result: dict[str, Any]) -> None:
    off, on = result["people_without_arena"], result["people_with_arena"]
    arena = result["arena"]
    print(f"arena beside {result['tables']} people's tables of {result['players']} "
          f"(think {result['think_s']} s, {result['seconds']:g} s each run): people's "
          f"p50/p99 {off['p50_ms']}/{off['p99_ms']} ms without the arena, "
          f"{on['p50_ms']}/{on['p99_ms']} ms with {result['bots']} bots seeking at "
          f"{result['arena_tables']} arena tables; arena games played to the end "
          f"{arena['games_finished']} ({arena['games_per_minute']} a minute), bot errors "
          f"{arena['bot_errors']}; people's errors {off['errors']}/{on['errors']}, lost "
          f"tables {off['lost_tables']}/{on['lost_tables']}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", type=int, default=50)
    parser.add_argument("--bot-processes", type=int, default=2)
    parser.add_argument("--arena-tables", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    result = run(args.tables, args.players, args.bots, args.bot_processes,
                 args.arena_tables, args.seconds, args.think)
    report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    people = (result["people_without_arena"], result["people_with_arena"])
    return 0 if not any(p["errors"] or p["lost_tables"] for p in people) else 1


if __name__ == "__main__":
    sys.exit(main())
