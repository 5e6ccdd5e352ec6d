"""Connections one client can hold: trickled bodies never timed out, per-address caps
that a network's many addresses add up past, and a global limit whose exhaustion made
every request 503, the home page and /healthz included. Real servers on loopback; a
client's address is chosen by binding its socket to one of 127.0.0.0/8."""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import LiveServer, closed_by_server
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from usotsuki.server.connections import Book, GuardedH11Protocol
from usotsuki.server.guard import Networks


def dial(port: int, source: str) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(5)
    sock.connect(("127.0.0.1", port))
    return sock


def exchange(sock: socket.socket, method: str, path: str, body: bytes = b""
             ) -> tuple[int, bytes]:
    """Sends one request on the socket: the answer's status (0: closed) and body."""
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
    answer = b""
    try:
        sock.sendall(head.encode() + body)
        while b"\r\n\r\n" not in answer:
            data = sock.recv(65536)
            if not data:
                return 0, b""
            answer += data
        top, rest = answer.split(b"\r\n\r\n", 1)
        length = next(int(line.split(b":")[1]) for line in top.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        while len(rest) < length:
            rest += sock.recv(65536)
    except OSError:
        return 0, b""
    return int(top.split(b" ", 2)[1]), rest


def request(sock: socket.socket, method: str, path: str, body: bytes = b"") -> int:
    return exchange(sock, method, path, body)[0]


def new_table(port: int) -> dict[str, Any]:
    with dial(port, "127.0.0.1") as sock:
        body = json.dumps({"game": "bluff", "seats": [{"bot": None}] * 2}).encode()
        status, answer = exchange(sock, "POST", "/api/tables", body)
    assert status == 201
    table: dict[str, Any] = json.loads(answer)
    return table


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., LiveServer]]:
    """A live server under the test's limits (GuardedH11Protocol's attributes), with the
    book of connections empty; stopped after the test."""
    monkeypatch.setattr(Book, "http_by_address", type(Book.http_by_address)())
    monkeypatch.setattr(Book, "http_by_network", type(Book.http_by_network)())
    monkeypatch.setattr(Book, "members", {})
    servers: list[LiveServer] = []

    def start(app_options: dict[str, Any] | None = None, **limits: Any) -> LiveServer:
        for name, value in limits.items():
            monkeypatch.setattr(GuardedH11Protocol, name, value)
        servers.append(LiveServer(app_options))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


ALONE = Networks(ipv4_prefix=32)  # every loopback address its own network


def test_a_trickled_body_is_timed_out_and_logged_in_one_line(
        served: Callable[..., LiveServer], caplog: pytest.LogCaptureFixture) -> None:
    server = served(body_seconds=0.5)
    with caplog.at_level(logging.INFO), dial(server.port, "127.0.0.1") as sock:
        sock.sendall(b"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < 5 and not closed:
            try:
                sock.sendall(b" ")  # a byte every 0.1 s: never the whole body
            except OSError:
                break
            closed = closed_by_server(sock, within=0.1)
        assert time.monotonic() - started < 3.0  # the deadline is 0.5 s
        time.sleep(0.2)  # the app's task hears of it
    left = [r for r in caplog.records if "left during POST /api/replay" in r.getMessage()]
    assert len(left) == 1
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


def test_the_body_deadline_spares_a_connection_between_requests(
        served: Callable[..., LiveServer]) -> None:
    server = served(body_seconds=0.3)
    with dial(server.port, "127.0.0.1") as sock:
        body = json.dumps({"game": "bluff", "seats": [{"bot": None}] * 2}).encode()
        assert request(sock, "POST", "/api/tables", body) == 201
        time.sleep(0.8)  # well past the body deadline, within keep-alive (5 s)
        assert request(sock, "GET", "/healthz") == 200


def test_a_websocket_outlives_the_deadlines_of_its_upgrade_request(
        served: Callable[..., LiveServer]) -> None:
    server = served(header_seconds=0.3, body_seconds=0.3)
    table = new_table(server.port)
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table['table_id']}") as ws:
        time.sleep(1.0)
        ws.send(json.dumps({"type": "ping", "id": 1}))
        while (message := json.loads(ws.recv(timeout=5)))["type"] != "pong":
            pass
        assert message["id"] == 1


def test_http_connections_are_capped_per_network(served: Callable[..., LiveServer]) -> None:
    """Three addresses of one /24 hold the network's three connections; a fourth
    address of it is refused, one of another /24 is not."""
    server = served(per_network=3)
    with contextlib.ExitStack() as held:
        for i in (2, 3, 4):
            held.enter_context(dial(server.port, f"127.0.0.{i}"))
        with dial(server.port, "127.0.0.5") as extra:
            assert closed_by_server(extra, within=2.0)
        with dial(server.port, "127.0.1.2") as elsewhere:
            assert request(elsewhere, "GET", "/healthz") == 200


def test_websockets_are_capped_per_network(served: Callable[..., LiveServer]) -> None:
    server = served({"ws_per_address": 2, "ws_per_network": 3})
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{new_table(server.port)['table_id']}"
    with contextlib.ExitStack() as opened:
        for source in ("127.0.0.2", "127.0.0.2", "127.0.0.3"):  # the network's 3
            ws = opened.enter_context(connect(url, sock=dial(server.port, source)))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
        with pytest.raises(InvalidStatus) as refused:  # closed before the upgrade
            connect(url, sock=dial(server.port, "127.0.0.4"))
        assert refused.value.response.status_code == 403
        with connect(url, sock=dial(server.port, "127.0.1.4")) as other:  # another /24
            assert json.loads(other.recv(timeout=5))["type"] == "welcome"


def test_a_full_server_keeps_a_reserve_for_new_visitors(
        served: Callable[..., LiveServer]) -> None:
    """One client holds every ordinary connection: its next is refused and its API calls
    answered 503, while a visitor from elsewhere gets the home page, /healthz and the
    API; the client's own pages are still served."""
    server = served(max_connections=4, reserve=2, visitor_connections=2, networks=ALONE)
    with contextlib.ExitStack() as held:
        hog = [held.enter_context(dial(server.port, "127.0.0.2")) for _ in range(4)]
        with dial(server.port, "127.0.0.2") as more:
            assert closed_by_server(more, within=2.0)
        visitor = held.enter_context(dial(server.port, "127.0.0.3"))
        assert request(visitor, "GET", "/") == 200
        assert request(visitor, "GET", "/healthz") == 200
        assert request(visitor, "GET", "/api/bots/bluff") == 200
        assert request(hog[0], "GET", "/api/bots/bluff") == 503  # shed: not a page
        assert request(hog[1], "GET", "/healthz") == 200  # never shed


def test_when_the_reserve_is_full_a_visitor_takes_a_heavy_clients_place(
        served: Callable[..., LiveServer]) -> None:
    server = served(max_connections=2, reserve=1, visitor_connections=2, networks=ALONE)
    with contextlib.ExitStack() as held:
        hog = [held.enter_context(dial(server.port, "127.0.0.2")) for _ in range(2)]
        first = held.enter_context(dial(server.port, "127.0.0.3"))  # the reserve's place
        second = held.enter_context(dial(server.port, "127.0.0.4"))  # in place of a hog's
        assert request(second, "GET", "/healthz") == 200
        assert sum(closed_by_server(s, within=1.0) for s in hog) == 1
        assert request(first, "GET", "/healthz") == 200


def test_networks_group_ipv4_by_24_and_ipv6_by_64() -> None:
    networks = Networks()
    assert networks.of("203.0.113.7") == networks.of("203.0.113.200") == "203.0.113.0/24"
    assert networks.of("2001:db8:1:2::1") == networks.of("2001:db8:1:2:ffff::9")
    assert networks.of("2001:db8:1:2::1") != networks.of("2001:db8:1:3::1")
    assert networks.of("::ffff:203.0.113.9") == "203.0.113.0/24"
    assert networks.of("testclient") == "testclient"
    assert Networks(ipv4_prefix=32).of("203.0.113.7") == "203.0.113.7/32"
