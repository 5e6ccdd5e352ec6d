"""Abuse benchmark: what one anonymous client can do to the game server.

Starts ``usotsuki serve`` on a free loopback port (a temporary SQLite file, bots wait
0 s, its address space bounded by ``--memory-gb`` so a bad run cannot take the machine)
and keeps one table of two people busy with a ping every 50 ms over a real WebSocket,
measuring the round trip (p50/p99) while each attack runs:

1. replay flood: ``--clients`` loops posting long finished Bluff records to
   ``/api/replay``, each a little different (no cache helps); answers, their time and
   the server's memory (its processes' summed RSS, highest seen). ``--max-record``
   adds the longest legal Bluff record (8 players, 235 KB): a server without the replay
   limits would never answer it, so it is opt-in.
2. with ``--bots``, last: bot-only expert tables created as fast as answered (a server
   with quotas refuses some: the answers are counted).
4. a 50 MB request body: status, time, memory.
5. slowloris connections still open after ``--slow-seconds``; 100 WebSockets from one
   address; ``"["*2000`` and a lone surrogate id (does the socket survive?); ``sync``
   floods from 5 sockets (frames/s received, server CPU).
6. connections: 50 request bodies trickled a byte a second for ``--body-wait``
   (still open?); 800 connections and 200 WebSockets from 20 addresses of one /24
   (how many admitted, and a visitor of another network's statuses); 4,400 idle
   connections from 22 networks, past the global limit (admitted; a visitor's
   statuses for /, /healthz and the API; the filling networks' API call and /healthz).
7. bodies: 1 MiB JSON bodies to ``/api/tables`` from two loops (parsed on the event
   loop if accepted); 300 clients leaving in the middle of a body (tracebacks in the
   server's log, with ``--log``).
8. checks: a name of zero-width spaces; the security headers; a foreign Host and a
   foreign WebSocket Origin; /docs's policy; ``/docs%2f..%2ftable.html``; a Liar
   ``hand_size`` of 10**30.
9. state flood: two people play a long Bluff table (``--long-actions`` moves, the
   lowest call each time, at the message rate limit: half a minute); then 32 sockets of
   one address ask for its state in a loop (``sync`` past the last event and ``hints``
   on and off, at the message rate limit):
   the states answered and refused a second. Then a spectator opens the long table from
   the start (every event, in pages: how many, how long, and whether it was closed).
10. review share: one address asks for five different reviews of long records; a
   visitor of another address then asks for one (answered, waiting with a place, or
   refused?).

Each phase prints the probe table's ping p50/p99 during it (``idle`` is before any
attack), and at the end a Markdown table of them; after ``--settle`` seconds, each
server process's RSS (does the memory return?).

    python benchmarks/abuse.py [--seconds 5] [--clients 2] [--max-record] [--bots]
                               [--only 9,10] [--log PATH] [--json PATH]

Run it before and after a change with the same options; it stops by itself. The
connection phases bind client sockets to addresses of 127.0.0.0/8 (Linux loopback).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "security"))

from long_records import long_bluff_record  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from live_server import live_server  # noqa: E402

GiB = 1024**3


def _tree(pid: int) -> list[int]:
    """The server's process and its descendants (replay workers)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
    return found


def _rss_mb(pid: int) -> float:
    total = 0
    for p in _tree(pid):
        with contextlib.suppress(OSError), open(f"/proc/{p}/status") as f:
            # (a worker just ended, a zombie, has no VmRSS line)
            total += next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
    return total / 1024


def _cpu_seconds(pid: int) -> float:
    total = 0.0
    for p in _tree(pid):
        with contextlib.suppress(OSError), open(f"/proc/{p}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 1)


class Probe:
    """Pings on one seat's socket of a quiet table; round trips by phase."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.rtts: list[float] = []
        self.sent: dict[int, float] = {}
        self.lost = 0

    async def run(self, stop: asyncio.Event) -> None:
        n = 0
        reader = asyncio.create_task(self._read())
        try:
            while not stop.is_set():
                n += 1
                self.sent[n] = time.perf_counter()
                await self.ws.send(json.dumps({"type": "ping", "id": n}))
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), 0.05)
            await asyncio.sleep(0.5)
        finally:
            reader.cancel()
            self.lost = len(self.sent)

    async def _read(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            if msg.get("type") == "pong" and msg.get("id") in self.sent:
                self.rtts.append(time.perf_counter() - self.sent.pop(msg["id"]))


ONLY: tuple[str, ...] = ()  # --only: the phases run (by the start of their names)


async def _phase(name: str, probe_ws: Any, pid: int, attack: Any, seconds: float
                 ) -> dict[str, Any]:
    if ONLY and name != "idle" and not name.startswith(ONLY):
        return {"phase": name, "skipped": True}
    probe = Probe(probe_ws)
    stop = asyncio.Event()
    peak = _rss_mb(pid)
    rss0, cpu0, t0 = peak, _cpu_seconds(pid), time.perf_counter()

    async def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, _rss_mb(pid))
            await asyncio.sleep(0.1)

    sampler = asyncio.create_task(sample())
    pinger = asyncio.create_task(probe.run(stop))
    result: dict[str, Any] = {}
    try:
        result = await attack(seconds) or {}
    except Exception as exc:  # an attack that breaks the client is a finding too
        result = {"failed": f"{type(exc).__name__}: {exc}"[:200]}
    finally:
        stop.set()
        await pinger
        await sampler
    elapsed = time.perf_counter() - t0
    out = {"phase": name, "ping_ms": {"n": len(probe.rtts), "p50": _pct(probe.rtts, 0.5),
                                      "p99": _pct(probe.rtts, 0.99),
                                      "max": _pct(probe.rtts, 1.0),
                                      "unanswered": probe.lost},
           "rss_mb": {"before": round(rss0), "peak": round(peak)},
           "server_cpu_pct": round(100 * (_cpu_seconds(pid) - cpu0) / elapsed), **result}
    print(json.dumps(out), flush=True)
    return out


async def _replay_flood(url: str, record: dict[str, Any], clients: int, seconds: float
                        ) -> dict[str, Any]:
    import httpx

    codes: dict[str, int] = {}
    times: list[float] = []
    counter = 0
    deadline = time.monotonic() + seconds

    async def loop(client: httpx.AsyncClient) -> None:
        nonlocal counter
        while time.monotonic() < deadline:
            counter += 1
            body = dict(record, players=[f"p{s}-{counter}" for s in range(
                len(record["players"]) if isinstance(record["players"], list)
                else record["players"])])
            t = time.perf_counter()
            try:
                r = await client.post(f"{url}/api/replay", json=body, timeout=30)
                key = str(r.status_code) + ("" if r.status_code == 200
                                            else f" {r.json().get('error')}")
            except httpx.HTTPError as exc:
                key = type(exc).__name__
            times.append(time.perf_counter() - t)
            codes[key] = codes.get(key, 0) + 1

    async with httpx.AsyncClient() as client:
        await asyncio.gather(*(loop(client) for _ in range(clients)))
    size = len(json.dumps(record))
    return {"record_bytes": size, "answers": codes,
            "replay_s": {"median": round(statistics.median(times), 2) if times else None,
                         "max": round(max(times), 2) if times else None}}


async def _bot_tables(url: str, seconds: float) -> dict[str, Any]:
    import httpx

    codes: dict[int, int] = {}
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient() as client:
        while time.monotonic() < deadline:
            r = await client.post(f"{url}/api/tables", json={
                "game": "bluff", "seats": [{"bot": "expert"}] * 4}, timeout=30)
            codes[r.status_code] = codes.get(r.status_code, 0) + 1
            if r.status_code == 201:
                t = r.json()
                await client.post(f"{url}/api/tables/{t['table_id']}/start",
                                  json={"token": t["host_token"]}, timeout=30)
            if sum(codes.values()) >= 40:
                await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    return {"create_answers": codes}


async def _big_body(url: str, seconds: float) -> dict[str, Any]:
    import httpx

    body = b'{"game": "bluff", "seats": [' + b'{"bot": null},' * (50 * 1024 * 1024 // 14) \
        + b'{"bot": null}]}'
    t = time.perf_counter()
    try:
        async with httpx.AsyncClient() as client:
            r = await client.post(f"{url}/api/tables", content=body, timeout=120,
                                  headers={"content-type": "application/json"})
        status: Any = r.status_code
    except httpx.HTTPError as exc:
        status = type(exc).__name__
    return {"body_mb": round(len(body) / 2**20), "status": status,
            "answer_s": round(time.perf_counter() - t, 2)}


async def _slowloris(port: int, seconds: float, count: int = 50) -> dict[str, Any]:
    conns = []
    for _ in range(count):
        with contextlib.suppress(OSError):
            conns.append(await asyncio.open_connection("127.0.0.1", port))
    for _, writer in conns:
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for _, writer in conns:
            with contextlib.suppress(OSError):
                writer.write(b"X-a: b\r\n")  # one header line at a time, never the end
        await asyncio.sleep(1)
    alive = 0
    for reader, writer in conns:
        with contextlib.suppress(OSError, asyncio.TimeoutError):
            writer.write(b"X-b: c\r\n")
            await writer.drain()
            data = await asyncio.wait_for(reader.read(1), 0.2)
            if data == b"" or reader.at_eof():
                continue
        if not reader.at_eof() and not writer.is_closing():
            alive += 1
        writer.close()
    return {"slow_connections": len(conns), "still_open_after_s": seconds, "still_open": alive}


async def _sockets(url: str, table_id: str, seconds: float) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    ws_url = url.replace("http", "ws") + f"/ws/tables/{table_id}"
    out: dict[str, Any] = {}

    async def survives(text: str) -> str:
        try:
            async with connect(ws_url, max_size=2**24) as ws:
                await ws.send(text)
                await ws.send(json.dumps({"type": "ping", "id": "after"}))
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    if msg.get("type") == "error":
                        out.setdefault("errors", []).append(msg["code"])
                    if msg.get("type") == "pong":
                        return "survives"
        except Exception as exc:
            return f"dropped ({type(exc).__name__})"

    out["deep_json"] = await survives("[" * 2000 + "]" * 2000)
    out["lone_surrogate_id"] = await survives('{"type": "ping", "id": "\\ud800"}')
    opened = []
    try:
        for _ in range(100):
            try:
                opened.append(await connect(ws_url, max_size=2**24).__aenter__())
            except Exception:
                break
        out["websockets_from_one_address"] = len(opened)
    finally:
        for ws in opened:
            with contextlib.suppress(Exception):
                await ws.close()
    return out


async def _sync_flood(url: str, table_id: str, seconds: float, sockets: int = 5
                      ) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    ws_url = url.replace("http", "ws") + f"/ws/tables/{table_id}"
    frames = 0
    deadline = time.monotonic() + seconds

    dropped = 0

    async def one() -> None:
        nonlocal frames, dropped
        try:
            async with connect(ws_url, max_size=2**24) as ws:
                async def read() -> None:
                    nonlocal frames
                    async for _ in ws:
                        frames += 1
                reader = asyncio.create_task(read())
                while time.monotonic() < deadline and not reader.done():
                    await ws.send('{"type": "sync", "since": -1}')
                    await asyncio.sleep(0.05)  # the message rate limit's pace (20/s)
                reader.cancel()
        except Exception:  # closed by the server (a queue too far behind)
            dropped += 1

    await asyncio.gather(*(one() for _ in range(sockets)))
    return {"sync_sockets": sockets, "frames_per_s": round(frames / seconds),
            "sockets_dropped": dropped}


async def _dial(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection from ``source`` (any of 127.0.0.0/8 on loopback): one client
    address, or many of one network, as the attack needs."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


def _gone(reader: asyncio.StreamReader) -> bool:
    """Closed by the server (a moment after it happened)."""
    return reader.at_eof() or reader.exception() is not None


async def _ws_from(source: str, port: int, ws_url: str) -> Any:
    """A WebSocket from ``source``."""
    import socket

    from websockets.asyncio.client import connect

    sock = socket.socket()
    sock.bind((source, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await connect(ws_url, sock=sock, max_size=2**24)


async def _get(port: int, source: str, path: str) -> int | str:
    """The status of one request from ``source`` (0: the connection was closed)."""
    try:
        reader, writer = await _dial(port, source)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                     .encode())
        line = await asyncio.wait_for(reader.readline(), 5)
        writer.close()
        return int(line.split()[1]) if line else 0
    except (TimeoutError, OSError, IndexError, ValueError) as exc:
        return type(exc).__name__


async def _visitor(port: int, source: str) -> dict[str, Any]:
    return {path: await _get(port, source, path) for path in ("/", "/healthz",
                                                              "/api/bots/bluff")}


async def _slow_bodies(port: int, wait: float, count: int = 50) -> dict[str, Any]:
    """Bodies trickled a byte a second (headers complete, so no header deadline), of a
    length every record route accepts."""
    conns = []
    for _ in range(count):
        with contextlib.suppress(OSError):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 200000\r\n\r\n")
            conns.append((reader, writer))
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for reader, writer in conns:
            if not _gone(reader):  # (asyncio warns of each write to a closed socket)
                writer.write(b" ")
        await asyncio.sleep(1)
    await asyncio.sleep(0.2)
    alive = sum(not _gone(reader) for reader, _ in conns)
    for _, writer in conns:
        writer.close()
    return {"slow_bodies": len(conns), "still_open_after_s": wait, "still_open": alive}


async def _one_network(url: str, port: int, table_id: str, seconds: float,
                       addresses: int = 20, each: int = 40) -> dict[str, Any]:
    """``addresses`` of one /24 (127.0.0.2 ...), ``each`` idle connections apiece and
    then 25 WebSockets from each of 8 of them: a per-address cap alone admits them
    all; a visitor from another /24 is served meanwhile."""
    held, refused = [], 0
    for a in range(addresses):
        for _ in range(each):
            try:
                reader, writer = await _dial(port, f"127.0.0.{2 + a}")
            except OSError:
                refused += 1
                continue
            held.append((reader, writer))
    await asyncio.sleep(0.3)
    refused += sum(_gone(r) for r, _ in held)
    visitor = await _visitor(port, "127.0.1.1")
    for _, writer in held:
        writer.close()
    sockets, ws_refused = [], 0
    ws_url = url.replace("http", "ws") + f"/ws/tables/{table_id}"
    for a in range(8):
        for _ in range(25):
            try:
                sockets.append(await _ws_from(f"127.0.0.{2 + a}", port, ws_url))
            except Exception:
                ws_refused += 1
    await asyncio.sleep(max(0.0, seconds - 1))
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    return {"tcp_tried": addresses * each, "tcp_admitted": addresses * each - refused,
            "websockets_tried": 200, "websockets_admitted": len(sockets),
            "visitor_from_another_network": visitor}


async def _fill_the_server(port: int, seconds: float, networks: int = 22, each: int = 200
                           ) -> dict[str, Any]:
    """4,400 idle connections from 22 networks (under each network's cap): past the
    global limit the server keeps a reserve for a visitor of another network."""
    held, refused = [], 0
    for n in range(networks):
        for i in range(each):
            try:
                held.append(await _dial(port, f"127.0.{10 + n}.{2 + i % 50}"))
            except OSError:
                refused += 1
    await asyncio.sleep(0.3)
    refused += sum(_gone(r) for r, _ in held)
    visitor = await _visitor(port, "127.0.99.1")
    hog = await _get(port, "127.0.10.2", "/api/bots/bluff")
    hog_page = await _get(port, "127.0.10.2", "/healthz")
    await asyncio.sleep(max(0.0, min(seconds, 8.0) - 1))  # within the header deadline
    for _, writer in held:
        writer.close()
    return {"tried": networks * each, "admitted": networks * each - refused,
            "visitor": visitor, "filling_network_api": hog, "filling_network_healthz": hog_page}


async def _json_flood(url: str, seconds: float, clients: int = 2) -> dict[str, Any]:
    """1 MiB JSON bodies to a route that parses JSON on the event loop."""
    import httpx

    body = b'{"game": "bluff", "seats": [' + b'{"bot": null},' * 74_000 + b'{"bot": null}]}'
    codes: dict[str, int] = {}
    deadline = time.monotonic() + seconds

    async def loop(client: httpx.AsyncClient) -> None:
        while time.monotonic() < deadline:
            try:
                r = await client.post(f"{url}/api/tables", content=body, timeout=30,
                                      headers={"content-type": "application/json"})
                key = str(r.status_code)
            except httpx.HTTPError as exc:
                key = type(exc).__name__
            codes[key] = codes.get(key, 0) + 1

    async with httpx.AsyncClient() as client:
        await asyncio.gather(*(loop(client) for _ in range(clients)))
    return {"body_mb": round(len(body) / 2**20, 2), "answers": codes}


async def _cut_bodies(port: int, log: Path | None, seconds: float, count: int = 300
                      ) -> dict[str, Any]:
    """Clients that leave in the middle of a body: the log lines it costs."""
    before = log.read_bytes().count(b"Traceback") if log else None
    for _ in range(count):
        with contextlib.suppress(OSError):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
                         + b" " * 1000)
            await writer.drain()
            writer.close()
    await asyncio.sleep(min(seconds, 2.0))
    if log is None:
        return {"cut_bodies": count}
    text = log.read_bytes()
    return {"cut_bodies": count, "tracebacks_logged": text.count(b"Traceback") - (before or 0),
            "log_bytes": len(text)}



async def _checks(url: str, port: int, invite: str) -> dict[str, Any]:
    import httpx
    from websockets.asyncio.client import connect

    out: dict[str, Any] = {}
    async with httpx.AsyncClient() as client:
        r = await client.post(f"{url}/api/invites/{invite}/join",
                              json={"name": "\u200b\u200b"})
        out["zero_width_name"] = r.status_code
        r = await client.get(f"{url}/")
        out["headers"] = {h: r.headers.get(h) is not None for h in (
            "x-content-type-options", "content-security-policy", "x-frame-options",
            "referrer-policy")}
        r = await client.get(f"{url}/api/bots/bluff", headers={"host": "evil.example"})
        out["foreign_host"] = r.status_code
        policy = (await client.get(f"{url}/docs")).headers.get("content-security-policy", "")
        out["docs_policy_strict"] = "unsafe-inline" not in policy and "https:" not in policy
        r = await client.post(f"{url}/api/tables", json={
            "game": "liar", "seats": [{"bot": None}] * 2, "rules": {"hand_size": 10**30}})
        out["liar_hand_size_10**30"] = r.status_code
    out["docs_traversal_to_table_page"] = await _get(port, "127.0.0.1",
                                                     "/docs%2f..%2ftable.html")
    try:
        async with connect(url.replace("http", "ws") + "/ws/tables/x",
                           origin="http://evil.example") as ws:  # type: ignore[arg-type]
            await ws.recv()
            out["foreign_origin_ws"] = "accepted"
    except Exception as exc:
        out["foreign_origin_ws"] = f"refused ({type(exc).__name__})"
    return out


async def _long_table(url: str, actions: int) -> str:
    """A Bluff table of two people who make the lowest call each time (challenging only
    when nothing is left): ``actions`` moves, or until the game ends. Its id."""
    import httpx
    from websockets.asyncio.client import connect

    async with httpx.AsyncClient() as client:
        t = (await client.post(f"{url}/api/tables", json={
            "game": "bluff", "seats": [{"bot": None}, {"bot": None}]})).json()
        tokens = [(await client.post(f"{url}/api/invites/{t['invite']}/join",
                                     json={"name": f"long{i}"})).json()["token"]
                  for i in range(2)]
        await client.post(f"{url}/api/tables/{t['table_id']}/start", json={"token": tokens[0]})
    ws_url = url.replace("http", "ws") + f"/ws/tables/{t['table_id']}?token="
    async with connect(ws_url + tokens[0], max_size=2**24) as a, \
            connect(ws_url + tokens[1], max_size=2**24) as b:
        sockets = (a, b)
        states: list[dict[str, Any]] = [{}, {}]

        async def until_state(i: int) -> dict[str, Any] | None:
            """The next state; None if the move was refused for the rate (sent again)."""
            while True:
                msg: dict[str, Any] = json.loads(await asyncio.wait_for(sockets[i].recv(), 30))
                if msg["type"] == "state":
                    states[i] = msg
                    return msg
                if msg["type"] == "error" and msg["code"] == "rate_limited":
                    await asyncio.sleep(0.05)  # (the message rate limit: 20/s a socket)
                    return None
                if msg["type"] == "error":
                    raise RuntimeError(msg["message"])

        await until_state(0)
        await until_state(1)
        state = states[0]
        made = 0
        while made < actions and state["status"] == "playing":
            mover = state["to_move"]
            while states[mover]["n"] < state["n"] or states[mover]["legal"] is None:
                await until_state(mover)
            legal = states[mover]["legal"]
            calls = [x for x in legal if x != "challenge"]
            await sockets[mover].send(json.dumps({"type": "act", "id": made,
                                                  "action": calls[0] if calls else legal[0]}))
            if (after := await until_state(mover)) is not None:
                state, made = after, made + 1
    return str(t["table_id"])


async def _state_flood(url: str, table_id: str, seconds: float, sockets: int = 32
                       ) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    # (since: the end, no catch-up: these sockets want states, not the history)
    ws_url = url.replace("http", "ws") + f"/ws/tables/{table_id}?since=1000000000"
    answered = refused = dropped = 0
    deadline = time.monotonic() + seconds

    async def one() -> None:
        nonlocal answered, refused, dropped
        try:
            async with connect(ws_url, max_size=2**24) as ws:
                async def read() -> None:
                    nonlocal answered, refused
                    async for raw in ws:
                        for m in _messages(json.loads(raw)):
                            answered += m["type"] == "state"
                            refused += m.get("code") == "rate_limited"
                reader = asyncio.create_task(read())
                on = False
                while time.monotonic() < deadline and not reader.done():
                    on = not on
                    await ws.send('{"type": "sync", "since": 1000000000}')
                    await ws.send(json.dumps({"type": "hints", "on": on}))
                    await asyncio.sleep(0.1)  # two messages: the rate limit's pace
                reader.cancel()
        except Exception:
            dropped += 1

    await asyncio.gather(*(one() for _ in range(sockets)))
    return {"state_sockets": sockets, "states_per_s": round(answered / seconds),
            "refused_per_s": round(refused / seconds), "sockets_dropped": dropped}


def _messages(frame: dict[str, Any]) -> list[dict[str, Any]]:
    return frame["messages"] if frame.get("type") == "batch" else [frame]


async def _spectate_from_start(url: str, table_id: str) -> dict[str, Any]:
    """A spectator opens the table with ``since=-1``: its events before its state."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    started, events = time.perf_counter(), 0
    try:
        async with connect(url.replace("http", "ws") + f"/ws/tables/{table_id}?batch=1",
                           max_size=2**24) as ws:
            while True:
                batch = _messages(json.loads(await asyncio.wait_for(ws.recv(), 60)))
                events += sum(m["type"] == "event" for m in batch)
                if any(m["type"] == "state" for m in batch):
                    return {"spectator_events": events, "closed": None,
                            "seconds": round(time.perf_counter() - started, 2)}
    except ConnectionClosed as exc:
        return {"spectator_events": events, "closed": exc.rcvd.code if exc.rcvd else None,
                "seconds": round(time.perf_counter() - started, 2)}


async def _review_share(url: str, attacker: str = "127.0.0.51",
                        visitor: str = "127.0.0.52") -> dict[str, Any]:
    """Five different reviews from one address, then one from another: their answers."""
    import httpx

    records = [long_bluff_record(players=3, max_cards=2, seed=s) for s in range(6)]

    async def post(source: str, record: dict[str, Any]) -> str:
        transport = httpx.AsyncHTTPTransport(local_address=source)
        async with httpx.AsyncClient(transport=transport, timeout=30) as client:
            r = await client.post(f"{url}/api/review", json=record)
        body = r.json()
        return f"{r.status_code} {body.get('status') or body.get('error')}" + (
            f" (place {body['position']})" if "position" in body else "")

    theirs = [await post(attacker, record) for record in records[:5]]
    return {"attacker": theirs, "visitor": await post(visitor, records[5])}


async def _drive(url: str, port: int, pid: int, args: argparse.Namespace) -> list[dict[str, Any]]:
    import httpx
    from websockets.asyncio.client import connect

    async with httpx.AsyncClient() as client:
        t = (await client.post(f"{url}/api/tables", json={
            "game": "bluff", "seats": [{"bot": None}, {"bot": None}]})).json()
        tokens = [(await client.post(f"{url}/api/invites/{t['invite']}/join",
                                     json={"name": f"p{i}"})).json()["token"]
                  for i in range(2)]
        await client.post(f"{url}/api/tables/{t['table_id']}/start", json={"token": tokens[0]})
        # A finished bot table with a long history, for the sync flood.
        b = (await client.post(f"{url}/api/tables", json={
            "game": "bluff", "seats": [{"bot": "random"}] * 8})).json()
        await client.post(f"{url}/api/tables/{b['table_id']}/start",
                          json={"token": b["host_token"]})
        for _ in range(600):
            if (await client.get(f"{url}/api/tables/{b['table_id']}")).json()["status"] \
                    == "finished":
                break
            await asyncio.sleep(0.05)
        w = (await client.post(f"{url}/api/tables", json={
            "game": "bluff", "seats": [{"bot": None}, {"bot": None}]})).json()
    flood = long_bluff_record(players=2, max_cards=4)  # 20 KB, 1,192 steps
    s = args.seconds
    results = []
    async with connect(url.replace("http", "ws") + f"/ws/tables/{t['table_id']}?token={tokens[0]}",
                       max_size=2**24) as probe:
        for _ in range(3):  # welcome, events, state
            await probe.recv()
        results.append(await _phase("idle", probe, pid, lambda sec: asyncio.sleep(sec), s))
        start = {"phase": "start", "rss_mb": _rss_by_process(pid)}
        print(json.dumps(start), flush=True)
        results.append(await _phase("1 replay flood", probe, pid, lambda sec: _replay_flood(
            url, flood, args.clients, sec), s))
        if args.max_record:
            big = long_bluff_record(players=8, max_cards=6)
            results.append(await _phase("1 replay flood, longest Bluff record", probe, pid,
                                        lambda sec: _replay_flood(url, big, args.clients, sec),
                                        s))
        results.append(await _phase("4 50 MB body", probe, pid, lambda sec: _big_body(url, sec),
                                    s))
        results.append(await _phase("5 slowloris", probe, pid,
                                    lambda sec: _slowloris(port, args.slow_seconds),
                                    args.slow_seconds))
        results.append(await _phase("5 sockets", probe, pid,
                                    lambda sec: _sockets(url, b["table_id"], sec), s))
        results.append(await _phase("5 sync flood", probe, pid,
                                    lambda sec: _sync_flood(url, b["table_id"], sec), s))
        results.append(await _phase("slow bodies", probe, pid,
                                    lambda sec: _slow_bodies(port, args.body_wait),
                                    args.body_wait))
        results.append(await _phase("one /24 network", probe, pid, lambda sec: _one_network(
            url, port, b["table_id"], sec), s))
        results.append(await _phase("server filled", probe, pid,
                                    lambda sec: _fill_the_server(port, sec), s))
        results.append(await _phase("1 MiB JSON bodies", probe, pid,
                                    lambda sec: _json_flood(url, sec), s))
        results.append(await _phase("bodies cut off", probe, pid,
                                    lambda sec: _cut_bodies(port, args.log, sec), s))
        results.append(await _phase("5 checks", probe, pid,
                                    lambda sec: _checks(url, port, w["invite"]), s))
        long_id = await _long_table(url, args.long_actions)
        results.append(await _phase("9 state flood", probe, pid,
                                    lambda sec: _state_flood(url, long_id, sec), s))
        results.append(await _phase("9 long table watched", probe, pid,
                                    lambda sec: _spectate_from_start(url, long_id), s))
        results.append(await _phase("10 reviews from one address", probe, pid,
                                    lambda sec: _review_share(url), s))
        if args.bots:  # last: on a server without quotas the bots play on after it
            results.append(await _phase("2 bot-only tables", probe, pid,
                                        lambda sec: _bot_tables(url, sec), s))
    await asyncio.sleep(args.settle)
    after = {"phase": "after", "settled_s": args.settle, "rss_mb": _rss_by_process(pid)}
    print(json.dumps(after), flush=True)
    return [*results, start, after]


def _rss_by_process(pid: int) -> dict[str, float]:
    """The server's RSS and each child's (replay and bot workers), in MB."""
    out = {}
    for p in _tree(pid):
        with contextlib.suppress(OSError), open(f"/proc/{p}/status") as f:
            kb = next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
            out["server" if p == pid else f"child {p}"] = round(kb / 1024)
    return out


def _summary(results: list[dict[str, Any]]) -> str:
    """The probe table's round trips by phase ("idle" is the baseline), as Markdown."""
    lines = ["| phase | ping p50 ms | p99 ms | max ms | unanswered | RSS peak MB |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in results:
        if "ping_ms" in r:
            p = r["ping_ms"]
            lines.append(f"| {r['phase']} | {p['p50']} | {p['p99']} | {p['max']} | "
                         f"{p['unanswered']} | {r['rss_mb']['peak']} |")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    memory = int(args.memory_gb * GiB)

    def bound() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    with live_server("abuse", preexec_fn=bound, quiet=args.log is None, log=args.log,
                     env={**os.environ, "OPENBLAS_NUM_THREADS": "1"}) as (url, server):
        return asyncio.run(_drive(url, int(url.rsplit(":", 1)[1]), server.pid, args))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each attack")
    parser.add_argument("--slow-seconds", type=float, default=12.0,
                        help="how long slowloris connections trickle headers")
    parser.add_argument("--clients", type=int, default=2, help="replay flood loops")
    parser.add_argument("--max-record", action="store_true",
                        help="also flood with the longest legal Bluff record")
    parser.add_argument("--bots", action="store_true",
                        help="also create bot-only tables (finding 2; last, as they play on)")
    parser.add_argument("--memory-gb", type=float, default=4.0,
                        help="the server's address-space bound")
    parser.add_argument("--body-wait", type=float, default=35.0,
                        help="how long slow bodies trickle (the body deadline is 30 s)")
    parser.add_argument("--settle", type=float, default=10.0,
                        help="seconds after the last attack before the memory is read")
    parser.add_argument("--log", type=Path,
                        help="the server's standard error goes here (tracebacks are counted)")
    parser.add_argument("--long-actions", type=int, default=1200,
                        help="moves of the long table the state flood and the spectator use")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--only", default="",
                        help="comma-separated starts of the phases to run, e.g. 9,10")
    args = parser.parse_args(argv)
    global ONLY
    ONLY = tuple(p.strip() for p in args.only.split(",") if p.strip())
    results = run(args)
    print(_summary(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
