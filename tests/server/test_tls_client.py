"""The tests' threading WebSocket client through nginx's TLS (``tls_client``): every
handshake is answered. websockets' own threading client reads and writes its TLS socket
from two threads at once; about one handshake in 250 then lost its upgrade request to
TLS 1.3's session tickets and hung (nginx waiting for a request, the client for an
answer), a cluster test's reconnection among them."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cluster_helpers import Nginx
from nginx_render import client_tls
from tls_client import connect
from websockets.exceptions import InvalidStatus

HANDSHAKES = 1500  # at one lost in 250, an unserialised client hangs in 99.8% of runs
OPEN_SECONDS = 30.0  # a handshake's answer, however busy the machine (a lost one: never)


class Answers200(BaseHTTPRequestHandler):
    """A worker stand-in: 200 to every GET (nginx's health check, and each upgrade
    request, which the client then refuses: the request went through and back)."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def proxied() -> Iterator[Nginx]:
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), Answers200)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory(prefix="usotsuki-tls-") as prefix:
        nginx = Nginx(Path(prefix), [upstream.server_address[1]], affinity=True)
        try:
            yield nginx
        finally:
            nginx.stop()
            upstream.shutdown()
            upstream.server_close()


def test_every_handshake_through_tls_is_answered(proxied: Nginx) -> None:
    for i in range(HANDSHAKES):
        with pytest.raises(InvalidStatus) as refused:  # (a TimeoutError: it hung)
            connect(f"{proxied.ws_url}/ws/tables/t{i}", ssl=client_tls(),
                    open_timeout=OPEN_SECONDS)
        assert refused.value.response.status_code == 200
