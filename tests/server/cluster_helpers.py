"""Real servers for the cluster tests and benchmark: Debian's redis-server and nginx
(ECOSYSTEM.md section 4; the Makefile installs them), and ``usotsuki serve`` workers
sharing a PostgreSQL database and Redis behind nginx, run with the shipped
``deploy/nginx.conf`` (TLS with a self-signed certificate: ``nginx_render``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
from live_helpers import NO_CONTRIBUTIONS, free_port
from nginx_render import Site, certificate, client_tls, render


def _wait(check: object, what: str, seconds: float = 30.0,
          process: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if check():  # type: ignore[operator]
                return
        except (OSError, httpx.HTTPError):
            pass
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what} exited")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start in {seconds:.0f} s")
        time.sleep(0.05)


class Redis:
    """A throwaway redis-server on loopback (no persistence); ``restart`` keeps the port."""

    def __init__(self, tmp: Path) -> None:
        self.tmp, self.port = tmp, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        for attempt in range(5):  # free_port()'s port may be taken first: try another
            try:
                self.start()
                return
            except RuntimeError:
                log = self.tmp / "redis.log"
                if attempt == 4 or "in use" not in (log.read_text() if log.exists() else ""):
                    raise
                self.port = free_port()
                self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not os.path.exists(binary):
            raise RuntimeError("redis-server is not installed: run `make test` (it installs "
                               "Debian's redis-server) or `apt-get install -y redis-server`")
        self.process = subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp), "--logfile",
             str(self.tmp / "redis.log")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait(self._ping, "redis-server", process=self.process)

    def _ping(self) -> bool:
        import socket
        with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def restart(self) -> None:
        self.stop()
        self.start()


class Nginx:
    """The shipped ``deploy/nginx.conf`` in the foreground (``nginx_render``): TLS at
    ``url`` (``client_tls()`` verifies it), plain HTTP at ``http_url`` (redirects), the
    workers at ``ports``; ``affinity=False``: table WebSockets round robin too."""

    def __init__(self, tmp: Path, ports: Sequence[int], connections: int = 4096,
                 affinity: bool = False, wait: bool = True) -> None:
        """``wait``: until a worker answers /healthz through it (else: until it answers)."""
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.path.exists(binary):
            raise RuntimeError("nginx is not installed: run `make test` (it installs "
                               "Debian's nginx-light) or `apt-get install -y nginx-light`")
        self.prefix = tmp
        cert, key = certificate()
        # free_port() only finds a port free now: another test's server may take it before
        # nginx binds it (then nginx exits at once). Such a start is tried on new ports.
        for attempt in range(5):
            self.port, http_port = free_port(), free_port()
            self.url = f"https://127.0.0.1:{self.port}"
            self.ws_url = f"wss://127.0.0.1:{self.port}"
            self.http_url = f"http://127.0.0.1:{http_port}"
            conf = tmp / "nginx.conf"
            conf.write_text(render(Site(
                [f"127.0.0.1:{p}" for p in ports], http_port, self.port, cert, key, tmp,
                connections, affinity, as_root=os.geteuid() == 0)))
            with open(tmp / "nginx-stderr.log", "wb") as stderr:
                self.process = subprocess.Popen([binary, "-p", str(tmp), "-c", str(conf)],
                                                stdout=subprocess.DEVNULL, stderr=stderr)
            try:
                _wait(lambda: httpx.get(f"{self.url}/healthz", timeout=1,
                                        verify=client_tls()).status_code
                      in ((200,) if wait else (200, 503)), "nginx", process=self.process)
                return
            except RuntimeError as exc:
                self.stop()
                log = "".join(f.read_text(errors="replace")[-2000:] for f in
                              (tmp / "nginx-stderr.log", tmp / "nginx-error.log") if f.exists())
                if "Address already in use" not in log or attempt == 4:
                    raise RuntimeError(f"{exc}: {log}") from None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


class Worker:
    """``usotsuki serve --redis ...``: one worker of the cluster, its logs in a file."""

    def __init__(self, tmp: Path, name: str, db: str, redis: str, *extra: str) -> None:
        self.name, self.log = name, tmp / f"{name}.log"
        self._command = ["serve", "--db", db, "--redis", redis, "--worker-id", name,
                         "--forwarded-allow-ips", "127.0.0.1", "--log-format", "json",
                         *NO_CONTRIBUTIONS, *extra]
        self._start()

    def _start(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "usotsuki.cli.main", *self._command,
                 "--port", str(self.port)], stdout=out, stderr=out)

    def wait_ready(self) -> None:
        for attempt in range(5):
            try:
                _wait(lambda: httpx.get(f"{self.url}/readyz", timeout=1).status_code == 200,
                      f"worker {self.name}", seconds=180, process=self.process)
                return
            except RuntimeError as exc:
                log = self.log.read_text()[-3000:]
                # free_port()'s port taken by another test's server first: new port
                if "address already in use" not in log.lower() or attempt == 4:
                    raise RuntimeError(f"{exc}: {log}") from None
                self._start()

    def signal(self, sig: int) -> None:
        self.process.send_signal(sig)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # if a test paused it
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


class Cluster:
    def __init__(self, db: str, redis: Redis, workers: list[Worker], nginx: Nginx,
                 tmp: Path) -> None:
        self.db, self.redis, self.workers, self.nginx, self.tmp = db, redis, workers, nginx, tmp

    def worker(self, name: str) -> Worker:
        return next(w for w in self.workers if w.name == name)

    def ws_base(self, port: int) -> str:
        """WebSockets' base URL at ``port``: nginx's (TLS) or a worker's (plain)."""
        return self.nginx.ws_url if port == self.nginx.port else f"ws://127.0.0.1:{port}"

    def tls(self, port: int) -> ssl.SSLContext | None:
        """What a WebSocket client to ``port`` verifies nginx with (None: a worker)."""
        return client_tls() if port == self.nginx.port else None

    def owner(self, table_id: str) -> tuple[str, int] | None:
        """The worker holding a live lease on the table, and its token."""
        import psycopg
        with psycopg.connect(self.db) as conn:
            row = conn.execute(
                "SELECT l.owner, l.token FROM leases l JOIN tables t ON t.pk = l.table_pk "
                "WHERE t.public_id = %s AND l.expires > extract(epoch from clock_timestamp())",
                (table_id,)).fetchone()
        return None if row is None else (str(row[0]), int(row[1]))


@contextlib.contextmanager
def cluster(db: str, workers: int = 3, extra: Sequence[str] = (),
            connections: int = 4096, affinity: bool = False,
            worker_dbs: Sequence[str] = ()) -> Iterator[Cluster]:
    """PostgreSQL database ``db`` (given), Redis, ``workers`` workers and nginx (round
    robin; ``affinity``: each table's WebSockets hashed to one worker, and the workers
    hand a table's lease to the one its sockets reach). ``worker_dbs``: the URL each
    worker reaches ``db`` at, in order (a proxy in between, say); else ``db``."""
    with tempfile.TemporaryDirectory(prefix="usotsuki-cluster-") as name:
        tmp = Path(name)
        redis = Redis(tmp)
        started: list[Worker] = []
        nginx: Nginx | None = None
        try:
            # As an operator deploys: the schema is upgraded once, then workers start.
            subprocess.run([sys.executable, "-m", "usotsuki.cli.main", "db", "upgrade",
                            "--db", db], check=True, capture_output=True)
            options = [*extra, "--lease-follows-sockets"] if affinity else list(extra)
            started = [Worker(tmp, f"w{i}", worker_dbs[i] if worker_dbs else db, redis.url,
                              *options) for i in range(workers)]
            for w in started:
                w.wait_ready()
            nginx = Nginx(tmp, [w.port for w in started], connections, affinity)
            yield Cluster(db, redis, started, nginx, tmp)
        finally:
            if nginx is not None:
                nginx.stop()
            for w in started:
                w.stop()
            redis.stop()
            if keep := os.environ.get("USOTSUKI_KEEP_LOGS"):  # for a failure's post-mortem
                Path(keep).mkdir(parents=True, exist_ok=True)
                for log in tmp.glob("*.log"):
                    shutil.copy(log, Path(keep) / log.name)
