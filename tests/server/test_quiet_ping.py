"""The server's WebSocket keep-alive (``connections.quiet_ping_protocol``): a peer that sent
something within the ping interval is not pinged; a silent one is, and closed if it does
not answer within the timeout. Driven by a fake loop's clock: no real waiting."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.protocol import State

from usotsuki.server.connections import quiet_ping_protocol
from usotsuki.server.serve import WS_PING_SECONDS


class FakeLoop:
    """The loop's clock and timers, advanced by hand."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[tuple[float, Callable[[], None]]] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Any:
        timer = (self.now + delay, callback)
        self.timers.append(timer)

        class Handle:
            def cancel(_) -> None:  # noqa: N805
                if timer in self.timers:
                    self.timers.remove(timer)

        return Handle()

    def advance(self, seconds: float) -> None:
        """Run every timer due within ``seconds``, in order."""
        end = self.now + seconds
        while self.timers and (due := min(self.timers, key=lambda t: t[0]))[0] <= end:
            self.timers.remove(due)
            self.now = due[0]
            due[1]()
        self.now = end


class FakeTransport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


async def _app(scope: Any, receive: Any, send: Any) -> None:  # never called here
    raise AssertionError


@pytest.fixture()
def socket() -> tuple[Any, FakeLoop, FakeTransport]:
    cls = quiet_ping_protocol()
    if isinstance(cls, str):
        pytest.fail("uvicorn's sans-I/O WebSocket protocol is not installed")
    config = Config(app=_app, ws_ping_interval=WS_PING_SECONDS,
                    ws_ping_timeout=WS_PING_SECONDS)
    config.load()
    loop = FakeLoop()
    protocol = cls(config=config, server_state=ServerState(), app_state={}, _loop=loop)
    transport = FakeTransport()
    protocol.transport = transport
    protocol.conn.state = State.OPEN  # as after the handshake
    protocol.start_keepalive()
    return protocol, loop, transport


def _pings(transport: FakeTransport) -> int:
    return sum(1 for data in transport.written if data[:1] == b"\x89")  # FIN + ping opcode


def _client_frame(text: bytes) -> bytes:
    """A masked text frame from the client (mask of zeros: the payload unchanged)."""
    return bytes([0x81, 0x80 | len(text)]) + b"\0\0\0\0" + text


def test_a_peer_that_talks_is_not_pinged(socket: tuple[Any, FakeLoop, FakeTransport]) -> None:
    protocol, loop, transport = socket
    protocol.handle_events = lambda: None  # what it says is not the point here
    for _ in range(10):  # something every half interval
        loop.advance(WS_PING_SECONDS / 2)
        protocol.data_received(_client_frame(b"{}"))
    assert _pings(transport) == 0
    assert not transport.closed


def test_a_silent_peer_is_pinged_and_closed_if_it_does_not_answer(
        socket: tuple[Any, FakeLoop, FakeTransport]) -> None:
    protocol, loop, transport = socket
    protocol.handle_events = lambda: None
    protocol.data_received(_client_frame(b"{}"))
    loop.advance(WS_PING_SECONDS - 1)
    assert _pings(transport) == 0
    loop.advance(1.5)  # a whole interval since it last spoke
    assert _pings(transport) == 1
    assert not transport.closed
    loop.advance(WS_PING_SECONDS + 1)  # no pong within the timeout
    assert transport.closed
