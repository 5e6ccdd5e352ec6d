"""Fixtures of the security tests: an in-process app, and a live uvicorn server for the
attacks that only a real socket shows (slow headers, UTF-8 encoding, connection caps)."""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The server tests' helpers (bounded waits); appended, so that `conftest` stays this one.
sys.path.append(str(Path(__file__).resolve().parent.parent / "server"))

from usotsuki.server.app import create_app  # noqa: E402


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(bot_delay=0)) as c:
        yield c


class LiveServer:
    """``usotsuki serve``'s uvicorn settings on a free loopback port, in a thread."""

    def __init__(self, app_options: dict[str, Any] | None = None,
                 **uvicorn_overrides: Any) -> None:
        from usotsuki.server.guard import allowed_hosts
        from usotsuki.server.serve import uvicorn_options

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.app = create_app(bot_delay=0, allowed_hosts=allowed_hosts("127.0.0.1"),
                              **(app_options or {}))
        options = {**uvicorn_options(), **uvicorn_overrides}
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                log_level="warning", **options)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes the connection within ``within`` seconds."""
    sock.settimeout(within)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


@pytest.fixture
def live() -> Iterator[LiveServer]:
    server = LiveServer()
    yield server
    server.stop()
