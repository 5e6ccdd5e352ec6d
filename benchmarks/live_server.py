"""A real ``usotsuki serve`` for the server benchmarks: a free loopback port, a throwaway
SQLite file, bots without their humanlike pause; stopped (killed if it must be) on exit."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_ready(url: str, server: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    """Until the server answers an API request (or exits, or ``seconds`` pass)."""
    import httpx

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server exited at start")
        try:
            if httpx.get(f"{url}/api/bots/bluff", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise RuntimeError(f"the server did not start in {seconds:.0f} s")


@contextlib.contextmanager
def live_server(name: str, extra: Sequence[str] = (), *,
                preexec_fn: Callable[[], None] | None = None,
                env: Mapping[str, str] | None = None,
                quiet: bool = False, log: Path | None = None
                ) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``(url, process)`` of a started server; ``extra`` are more ``serve`` options;
    its standard error goes to ``log`` when given (else nowhere if ``quiet``)."""
    with tempfile.TemporaryDirectory(prefix=f"usotsuki-{name}-") as tmp, \
            contextlib.ExitStack() as files:
        url = f"http://127.0.0.1:{free_port()}"
        errors: Any = subprocess.DEVNULL if quiet else subprocess.PIPE
        if log is not None:
            errors = files.enter_context(log.open("wb"))
        server = subprocess.Popen(
            [sys.executable, "-m", "usotsuki.cli.main", "serve", "--port",
             url.rsplit(":", 1)[1], "--db", str(Path(tmp) / f"{name}.sqlite3"),
             "--bot-delay", "0", *extra],
            stdout=subprocess.DEVNULL,
            stderr=errors,
            preexec_fn=preexec_fn, env=None if env is None else dict(env))
        try:
            wait_ready(url, server)
            yield url, server
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
            if server.stderr is not None:
                server.stderr.close()
