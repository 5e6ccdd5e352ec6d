"""uvicorn's protocols with bounds on slow and greedy clients (``usotsuki serve``).

uvicorn times out neither a request's headers nor its body, caps no address, and
answers every request 503 once ``limit_concurrency`` connections are open, the home
page and ``/healthz`` included. Here, per process:

- a request's headers must arrive within ``header_seconds`` and its body within
  ``body_seconds`` (while the app is not the one behind: reading paused by uvicorn's
  flow control does not count);
- HTTP connections (before an upgrade) are capped per address and per network (an IPv4
  /24, an IPv6 /64: ``guard.Networks``), so one host with many addresses is one client;
- past ``max_connections`` open connections (HTTP and WebSockets), only networks that
  hold fewer than ``visitor_connections`` may open more, into a ``reserve``; once that
  is full too, a visitor's connection takes the place of one of the network holding
  the most (shed): new visitors get in while a few clients hold the rest;
- past ``max_connections``, API calls of networks holding more than
  ``visitor_connections`` are answered 503; pages, static files and ``/healthz``
  never are (uvicorn's own limit answered 503 to everything, the home page included).

A trusted proxy (``--forwarded-allow-ips``) is capped by none of the per-client rules
and never shed (every client arrives through it; the app's caps see the addresses it
forwards), but its connections count in the total, and past ``max_connections`` its
API calls are answered 503 as a heavy client's are (it caps its clients itself).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

from usotsuki.server.guard import Networks

HEADER_SECONDS = 10.0  # a request's headers must arrive within this (slowloris)
BODY_SECONDS = 30.0  # and its body within this (1 MiB needs 35 KB/s)
TCP_PER_ADDRESS = 64  # HTTP connections open at once from one address (before upgrades)
TCP_PER_NETWORK = 256  # and from one network (IPv4 /24, IPv6 /64 by default)
MAX_CONNECTIONS = 4096  # connections open at once (HTTP and WebSockets) for anyone
# (a worker must hold its share of the sockets of a dead one: 4,000 seats over two)
RESERVE = 512  # and more for networks holding fewer than VISITOR_CONNECTIONS
VISITOR_CONNECTIONS = 4


class Book:
    """This process's open connections: HTTP ones (before an upgrade) counted by address
    and by network, and all of them, WebSockets included, held by network."""

    http_by_address: ClassVar[Counter[str]] = Counter()
    http_by_network: ClassVar[Counter[str]] = Counter()
    members: ClassVar[dict[str, set[Any]]] = {}

    @staticmethod
    def drop(counter: Counter[str], key: str) -> None:
        counter[key] -= 1
        if counter[key] <= 0:
            del counter[key]

    @classmethod
    def held(cls, network: str) -> int:
        return len(cls.members.get(network, ()))

    @classmethod
    def join(cls, network: str, member: Any) -> None:
        cls.members.setdefault(network, set()).add(member)

    @classmethod
    def leave(cls, network: str, member: Any) -> None:
        held = cls.members.get(network)
        if held is not None:
            held.discard(member)
            if not held:
                del cls.members[network]

    @classmethod
    def shed_one(cls, but: str, at_least: int) -> bool:
        """Close a connection of the network holding the most (not ``but``), if it holds
        ``at_least``: a full server makes room for a visitor at a heavy client's cost.
        It looks at every network, but runs only once the reserve is full."""
        if not cls.members:
            return False
        network, held = max(cls.members.items(), key=lambda item: len(item[1]))
        if network == but or len(held) < at_least:
            return False
        victim = held.pop()
        if not held:
            del cls.members[network]
        victim.transport.close()
        return True


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the bounds of this module's docstring. A connection
    upgraded to a WebSocket leaves the HTTP counts (the app caps WebSockets per address
    and network) but stays held by its network (``QuietPingProtocol``)."""

    header_seconds = HEADER_SECONDS
    body_seconds = BODY_SECONDS
    per_address = TCP_PER_ADDRESS
    per_network = TCP_PER_NETWORK
    max_connections = MAX_CONNECTIONS
    reserve = RESERVE
    visitor_connections = VISITOR_CONNECTIONS
    networks = Networks()
    proxies: frozenset[str] = frozenset()

    # uvicorn answers 503 when len(connections) reaches this: never for pages, static
    # files and /healthz, nor for visitors; for the others past max_connections.
    @property
    def limit_concurrency(self) -> int | None:
        if self.scope is None or _never_shed(self.scope) or self._visitor():
            return None
        return self.max_connections

    @limit_concurrency.setter
    def limit_concurrency(self, _configured: int | None) -> None:
        """uvicorn sets its option here; the limits above replace it."""

    def _visitor(self) -> bool:
        # (this connection counts in its network's, as it did not when admitted)
        return (self._address not in self.proxies
                and Book.held(self._network) <= self.visitor_connections)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else "?"
        self._network = self.networks.of(self._address)
        self._counted = self._upgraded = False
        self.handed_network: str | None = None
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        if not self._admitted():
            transport.close()
            return
        self._counted = self._address not in self.proxies
        if self._counted:
            Book.http_by_address[self._address] += 1
            Book.http_by_network[self._network] += 1
            Book.join(self._network, self)
        self._await_headers()

    def _admitted(self) -> bool:
        total = len(self.connections)  # this one included
        proxy = self._address in self.proxies
        if not proxy and (Book.http_by_address[self._address] >= self.per_address
                          or Book.http_by_network[self._network] >= self.per_network):
            return False
        if total <= self.max_connections:
            return True
        # Past it, the reserve is for networks that hold few connections (new visitors);
        # when that is full too, a visitor gets in in place of a heavy client.
        if proxy or Book.held(self._network) >= self.visitor_connections:
            return False
        return (total <= self.max_connections + self.reserve
                or Book.shed_one(but=self._network, at_least=self.visitor_connections))

    def _release(self) -> None:
        if self._counted:
            self._counted = False
            Book.drop(Book.http_by_address, self._address)
            Book.drop(Book.http_by_network, self._network)
            Book.leave(self._network, self)
        for timer in (self._header_timer, self._body_timer):
            if timer is not None:
                timer.cancel()
        self._header_timer = self._body_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: Any) -> None:
        # The WebSocket protocol takes this connection's place in its network.
        self.handed_network = self._network if self._counted else None
        self._release()
        self._upgraded = True  # no more deadlines: the WebSocket protocol has it now
        super().handle_websocket_upgrade(event)

    def _waiting_for_headers(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _await_headers(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_seconds, self._too_slow)

    def _too_slow(self) -> None:
        self._header_timer = None
        if self._waiting_for_headers() and not self.transport.is_closing():
            self.transport.close()

    def _reading_body(self) -> bool:
        return (self.cycle is not None and self.cycle.more_body
                and not self.cycle.disconnected)

    def _body_too_slow(self) -> None:
        self._body_timer = None
        if not self._reading_body() or self.transport.is_closing():
            return
        if self.flow.read_paused:  # the app has not read what came: not the client's fault
            self._body_timer = self.loop.call_later(self.body_seconds, self._body_too_slow)
            return
        # The app's next read is a disconnect: a one-line log (app.py), no traceback.
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        super().data_received(data)
        if self._upgraded or self.transport.is_closing():
            return
        if self.cycle is not before and not self._waiting_for_headers():
            if self._header_timer is not None:  # a request's headers are complete
                self._header_timer.cancel()
                self._header_timer = None
        elif self._waiting_for_headers():
            self._await_headers()  # bytes of the next request: its headers are due
        if self._reading_body():
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(self.body_seconds,
                                                        self._body_too_slow)
        elif self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None


API_PREFIXES = ("/api/", "/ws/", "/metrics", "/readyz", "/docs", "/redoc", "/openapi.json")


def _never_shed(scope: Any) -> bool:
    """Pages, static files and /healthz: cheap, and what tells a visitor (or a balancer)
    that the server lives."""
    if scope.get("method") not in ("GET", "HEAD"):
        return False
    path: str = scope.get("path", "")
    return path == "/healthz" or not path.startswith(API_PREFIXES)


def quiet_ping_protocol() -> Any:
    """uvicorn's sans-I/O WebSocket protocol (its default with websockets >= 13) whose
    keep-alive ping is sent only to a peer that has sent nothing for a whole interval: a
    peer heard from within it is alive, and a dead one is still found within an interval
    and the ping's timeout of its last message. Under load every socket's ping (and its
    pong, through the balancer) cost as much I/O as a fifth of the game's frames;
    players who act every few seconds are not pinged. It stays in its network's count
    of connections (``Book``) until it closes. "auto" if it is not there."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:
        return "auto"

    class QuietPingProtocol(WebSocketsSansIOProtocol):
        heard = 0.0  # loop time when the peer last sent anything
        _network: str | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            # Called by the GuardedH11Protocol upgrading, which hands over its place.
            self._network = getattr(transport.get_protocol(), "handed_network", None)
            if self._network is not None:
                Book.join(self._network, self)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._network is not None:
                Book.leave(self._network, self)
                self._network = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            self.heard = self.loop.time()
            super().data_received(data)

        def send_keepalive_ping(self) -> None:
            quiet = self.loop.time() - self.heard
            if (self.ping_interval is not None and quiet < self.ping_interval
                    and not self.close_sent):
                self.ping_timer = self.loop.call_later(self.ping_interval - quiet,
                                                       self.send_keepalive_ping)
                return
            super().send_keepalive_ping()

    return QuietPingProtocol
