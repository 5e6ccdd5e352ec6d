"""websockets' threading client over TLS, with its reads and writes never at once.

``websockets.sync`` reads its socket in a thread of its own (blocked in ``recv``) while
the caller's thread sends. Over TLS that is one OpenSSL ``SSL`` object used by two
threads at once, which OpenSSL does not support: with TLS 1.3 the server's session
tickets arrive just after the handshake, and when the reading thread processes them as
the other thread writes the upgrade request, the request can be lost (``SSL_write``
returns, nothing reaches the wire). nginx then waits for a request and the client for
its answer: a handshake that hangs until ``open_timeout``. Here the TLS socket is
non-blocking and every call into it holds one lock; a thread waits for its socket with
``select`` outside the lock. (Browsers and ``usotsuki.client``, asyncio's TLS in one
thread, use each TLS connection from one thread.)
"""

from __future__ import annotations

import select
import ssl
import threading
import time
from typing import Any

from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as _connect

POLL_SECONDS = 0.2  # a waiting read looks this often whether its socket was closed


class SerialisedTLS:
    """The socket calls websockets makes (``recv``, ``sendall``, ``settimeout``,
    ``shutdown``, ``close``, the rest passed through) on an ``SSLSocket`` that no two
    threads are ever inside at once."""

    def __init__(self, sock: ssl.SSLSocket) -> None:
        self.sock = sock
        self.lock = threading.Lock()
        self.timeout: float | None = sock.gettimeout()
        sock.setblocking(False)

    def _wait(self, readable: bool, deadline: float | None = None) -> None:
        """Until the socket is ready (or closed, or ``deadline`` passed: TimeoutError)."""
        while True:
            if self.sock.fileno() < 0:
                raise OSError("the socket is closed")
            left = POLL_SECONDS if deadline is None else deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("timed out sending on the TLS socket")
            watched = [self.sock]
            ready = select.select(watched if readable else [], [] if readable else watched,
                                  [], min(left, POLL_SECONDS))
            if ready[0] or ready[1]:
                return

    def recv(self, size: int) -> bytes:
        while True:
            with self.lock:
                try:
                    data = self.sock.recv(size)
                    while data and self.sock.pending():  # (select cannot see it)
                        data += self.sock.recv(self.sock.pending())
                    return data
                except (ssl.SSLWantReadError, BlockingIOError):
                    readable = True
                except ssl.SSLWantWriteError:
                    readable = False
            self._wait(readable)

    def sendall(self, data: bytes) -> None:
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        view = memoryview(data)
        while view:
            readable = False
            with self.lock:
                try:
                    view = view[self.sock.send(view):]
                    continue
                except ssl.SSLWantReadError:
                    readable = True
                except (ssl.SSLWantWriteError, BlockingIOError):
                    pass
            self._wait(readable, deadline)

    def settimeout(self, timeout: float | None) -> None:
        self.timeout = timeout  # (for sends: the socket itself stays non-blocking)

    def shutdown(self, how: int) -> None:
        with self.lock:
            self.sock.shutdown(how)

    def close(self) -> None:
        with self.lock:
            self.sock.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


class SerialisedTLSConnection(ClientConnection):
    def __init__(self, sock: Any, *args: Any, **kwargs: Any) -> None:
        if isinstance(sock, ssl.SSLSocket):
            sock = SerialisedTLS(sock)
        super().__init__(sock, *args, **kwargs)


def connect(uri: str, **kwargs: Any) -> ClientConnection:
    """``websockets.sync.client.connect``, its TLS socket used by one thread at a time."""
    connection: ClientConnection = _connect(uri, create_connection=SerialisedTLSConnection,
                                            **kwargs)
    return connection
