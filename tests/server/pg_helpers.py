"""A throwaway PostgreSQL server for the tests: Debian's binaries, a temp data folder,
loopback only, a free port (ECOSYSTEM.md section 4). The Makefile installs the package."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from live_helpers import free_port


def pg_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


def _as_postgres(args: list[str]) -> list[str]:
    if os.geteuid() == 0:  # initdb refuses root
        return ["runuser", "-u", "postgres", "--", *args]
    return args


@contextmanager
def throwaway_postgres(durable: bool = False, settings: str = "") -> Iterator[str]:
    """Yield a server URL ``postgresql://postgres@127.0.0.1:PORT``; stop and delete after.
    ``durable``: PostgreSQL's own defaults (each commit flushed to disk), as a deployment
    runs it (``benchmarks/load_cluster.py``); else no flush at all, for fast tests.
    ``settings``: more server options (``-c name=value ...``)."""
    bindir = pg_bin()
    if bindir is None:
        raise RuntimeError("PostgreSQL is not installed: run `make test` (it installs "
                           "Debian's postgresql package) or `apt-get install -y postgresql`")
    tmp = tempfile.mkdtemp(prefix="usotsuki-pg-")
    if os.geteuid() == 0:
        shutil.chown(tmp, "postgres")
    data, port = os.path.join(tmp, "data"), free_port()
    subprocess.run(_as_postgres([f"{bindir}/initdb", "-D", data, "-U", "postgres", "-A",
                                 "trust", "-E", "UTF8", "--no-sync"]),
                   check=True, capture_output=True)
    # (as the compose stack: three workers' pools may need more than the default 100)
    options = (f"-c listen_addresses=127.0.0.1 -p {port} -k {tmp} -c max_connections=300 "
               f"{settings}")
    if not durable:
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    start = _as_postgres([f"{bindir}/pg_ctl", "-D", data, "-l", f"{tmp}/log", "-w", "-o",
                          options, "start"])
    subprocess.run(start, check=True, capture_output=True)
    url = f"postgresql://postgres@127.0.0.1:{port}"
    _RUNNING[url] = (_as_postgres([f"{bindir}/pg_ctl", "-D", data, "-m", "fast", "-w",
                                   "stop"]), start)
    try:
        yield url
    finally:
        _RUNNING.pop(url, None)
        subprocess.run(_as_postgres([f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "-w",
                                     "stop"]), capture_output=True)
        if keep := os.environ.get("USOTSUKI_KEEP_LOGS"):  # as cluster_helpers' logs
            Path(keep).mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(OSError):
                shutil.copy(f"{tmp}/log", Path(keep) / "postgres.log")
        shutil.rmtree(tmp, ignore_errors=True)


_RUNNING: dict[str, tuple[list[str], list[str]]] = {}  # server URL -> (stop, start)


def stop_postgres(server: str) -> None:
    """Stop a running throwaway server as an operator would (``pg_ctl stop -m fast``:
    every connection is closed)."""
    subprocess.run(_RUNNING[server][0], check=True, capture_output=True)


def start_postgres(server: str) -> None:
    """Start a stopped throwaway server again, on the same port."""
    subprocess.run(_RUNNING[server][1], check=True, capture_output=True)


def restart_postgres(server: str, down: float = 0.0) -> None:
    """Stop the server (fast), leave it down ``down`` seconds, start it again."""
    stop_postgres(server)
    time.sleep(down)  # (the outage itself: nothing to wait for)
    start_postgres(server)


def new_database(server: str, name: str) -> str:
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server}/{name}"
