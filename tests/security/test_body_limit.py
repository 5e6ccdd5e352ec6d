"""No HTTP body limit (a 50 MB body was read and parsed: 4.7 s, +390 MB); a 1 MiB JSON
body parsed on the event loop (other tables' ping p50 to 45 ms from one address)."""

from __future__ import annotations

import select
import socket
import tracemalloc

from conftest import LiveServer
from fastapi.testclient import TestClient

from usotsuki.server.app import MAX_BODY
from usotsuki.server.guard import JSON_BODY

MB = 1024 * 1024


def test_announced_body_over_the_limit_is_refused_unread(client: TestClient) -> None:
    r = client.post("/api/replay", content=b"x" * (MAX_BODY + 1),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.json() == {"error": "too_large",
                        "message": f"the request body is limited to {MAX_BODY} bytes"}


def test_json_bodies_parsed_on_the_loop_are_held_to_the_small_limit(
        client: TestClient) -> None:
    """Only the record routes (parsed in a worker) take a large body: a 1 MiB JSON body
    to any other route is refused before it is parsed."""
    seats = b'{"game": "bluff", "seats": [' + b'{"bot": null},' * 70_000 + b'{"bot": null}]}'
    assert JSON_BODY < len(seats) < MAX_BODY
    r = client.post("/api/tables", content=seats, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.json()["message"] == f"the request body is limited to {JSON_BODY} bytes"
    small = client.post("/api/tables", json={"game": "bluff", "seats": [{"bot": None}] * 2})
    assert small.status_code == 201


def test_streamed_50_mb_body_is_cut_off_at_the_limit(live: LiveServer) -> None:
    """Chunked, so no length is announced: the server stops after the limit, answers
    413, and holds no more than a few MB meanwhile (server and test share a process)."""
    chunk = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"
    sent = 0
    tracemalloc.start()
    try:
        with socket.create_connection(("127.0.0.1", live.port), timeout=10) as sock:
            sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            while sent < 50 * MB:
                if select.select([sock], [], [], 0)[0]:
                    break  # the server answered before the end of the body
                try:
                    sock.sendall(chunk)
                except OSError:
                    break
                sent += 0x10000
            answer = b""
            while b"\r\n\r\n" not in answer:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    assert sent < 8 * MB
    assert peak < 8 * MB
