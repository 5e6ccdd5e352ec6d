"""Finding 5, connections: slowloris never timed out, no per-address limit, a deeply
nested message or a lone surrogate dropping the socket, a sender dying silently."""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import LiveServer, closed_by_server
from fastapi.testclient import TestClient
from server_helpers import receive
from starlette.websockets import WebSocketDisconnect
from waits import Deadline
from websockets.sync.client import connect

from usotsuki.server import ws as ws_module
from usotsuki.server.app import create_app
from usotsuki.server.serve import GuardedH11Protocol, uvicorn_options


def two_seat_table(c: Any, url: str = "") -> dict[str, Any]:
    r = c.post(f"{url}/api/tables", json={"game": "bluff", "seats": [{"bot": None}] * 2})
    assert r.status_code == 201, r.text
    table: dict[str, Any] = r.json()
    return table


@pytest.fixture
def quick_live(monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    """A live server whose header deadline is 0.3 s and which allows 3 connections per
    address, so the attacks show in a moment."""
    monkeypatch.setattr(GuardedH11Protocol, "header_seconds", 0.3)
    monkeypatch.setattr(GuardedH11Protocol, "per_address", 3)
    server = LiveServer()
    yield server
    server.stop()


def test_slowloris_headers_are_timed_out(quick_live: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", quick_live.port)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: b\r\n")  # never ends
        started = time.monotonic()
        assert closed_by_server(sock, within=5.0)
        assert time.monotonic() - started < 3.0  # generous: the deadline is 0.3 s


def test_connections_per_address_are_capped(quick_live: LiveServer) -> None:
    held = [socket.create_connection(("127.0.0.1", quick_live.port)) for _ in range(3)]
    try:
        with socket.create_connection(("127.0.0.1", quick_live.port)) as extra:
            assert closed_by_server(extra, within=2.0)
    finally:
        for sock in held:
            sock.close()


def test_uvicorn_times_out_idle_and_unanswering_clients() -> None:
    options = uvicorn_options()
    assert options["timeout_keep_alive"] <= 5
    assert options["h11_max_incomplete_event_size"] <= 16 * 1024
    assert options["ws_ping_interval"] and options["ws_ping_timeout"]
    assert options["http"] is GuardedH11Protocol


def test_websockets_per_address_are_capped() -> None:
    with TestClient(create_app(bot_delay=0, ws_per_address=2)) as c:
        table = two_seat_table(c)
        path = f"/ws/tables/{table['table_id']}"
        with c.websocket_connect(path) as a, c.websocket_connect(path) as b:
            assert receive(a)["type"] == receive(b)["type"] == "welcome"
            with pytest.raises(WebSocketDisconnect) as refused, c.websocket_connect(path):
                pass
            assert refused.value.code == 1013
        with c.websocket_connect(path) as again:  # closed ones no longer count
            assert receive(again)["type"] == "welcome"


def test_deeply_nested_message_is_bad_json_and_socket_lives(client: TestClient) -> None:
    table = two_seat_table(client)
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        deadline = Deadline("the first state")
        while receive(ws, deadline)["type"] != "state":
            pass
        ws.send_text("[" * 2000 + "]" * 2000)
        error = receive(ws)
        assert error["type"] == "error" and error["code"] == "bad_json"
        ws.send_json({"type": "ping", "id": 1})
        assert receive(ws) == {"type": "pong", "id": 1}


def test_lone_surrogate_id_is_escaped_not_fatal(live: LiveServer) -> None:
    """Over a real socket (UTF-8 cannot carry a lone surrogate): the pong comes back
    with the id escaped, and the socket stays usable."""
    import httpx

    table = two_seat_table(httpx, live.url)
    with connect(f"ws://127.0.0.1:{live.port}/ws/tables/{table['table_id']}") as ws:
        ws.send('{"type": "ping", "id": "\\ud800"}')
        while (message := json.loads(ws.recv(timeout=5)))["type"] != "pong":
            pass
        assert message == {"type": "pong", "id": "\ud800"}
        ws.send('{"type": "ping", "id": 2}')
        while (message := json.loads(ws.recv(timeout=5)))["type"] != "pong":
            pass
        assert message["id"] == 2


def test_a_failing_sender_is_logged_and_closes_the_socket(
        client: TestClient, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    table = two_seat_table(client)
    real = ws_module.wire_text

    def broken(message: str) -> str:
        if '"pong"' in message:
            raise ValueError("cannot send this")
        return real(message)

    monkeypatch.setattr(ws_module, "wire_text", broken)
    with caplog.at_level(logging.ERROR, logger="usotsuki.server.ws"), \
            client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ws.send_json({"type": "ping"})
        with pytest.raises(WebSocketDisconnect) as closed:
            deadline = Deadline("the close of the socket")
            while True:
                receive(ws, deadline)
        assert closed.value.code == 1011
    assert "sender of a WebSocket failed" in caplog.text
