"""The database password never on the command line (docs/deploy.md, "Secrets"): a
worker reads it from a file (a Docker secret) or its URL from the environment, and
``/proc/<pid>/cmdline`` (what ``ps`` shows every user) holds no password. The
PostgreSQL server here checks passwords (scram-sha-256), so a server that starts has
used the right one."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from live_helpers import Server, free_port
from pg_helpers import throwaway_postgres

from usotsuki.server.serve import database_url

PASSWORD = "s3cret-Passw0rd"


@pytest.fixture(scope="module")
def pg_server() -> Iterator[str]:
    """A server that trusts the ``postgres`` superuser (the test's own set-up) and
    asks everyone else for a password."""
    folder = Path(tempfile.mkdtemp(prefix="usotsuki-hba-"))
    folder.chmod(0o755)
    hba = folder / "pg_hba.conf"
    hba.write_text("local all postgres trust\nhost all postgres 127.0.0.1/32 trust\n"
                   "host all all 127.0.0.1/32 scram-sha-256\n")
    hba.chmod(0o644)
    with throwaway_postgres(settings=f"-c hba_file={hba}") as url:
        with psycopg.connect(f"{url}/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE ROLE usotsuki LOGIN PASSWORD '{PASSWORD}'")
            conn.execute("CREATE DATABASE usotsuki OWNER usotsuki")
        yield url.replace("postgres@", "usotsuki@") + "/usotsuki"


def cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def test_the_password_file_of_the_documented_setup_stays_off_the_command_line(
        pg_server: str, tmp_path: Path) -> None:
    secret = tmp_path / "db_password"
    secret.write_text(PASSWORD + "\n")  # as `openssl rand ... > file` leaves it
    server = Server(pg_server, "--migrate", "--db-password-file", str(secret))
    try:
        line = cmdline(server.process.pid)
        assert "--db-password-file" in line and PASSWORD not in line
        assert server.post("/api/tables", {"game": "bluff", "seats": [{}, {}]})  # it writes
    finally:
        server.stop()


def test_the_url_from_the_environment_stays_off_the_command_line(pg_server: str) -> None:
    port = free_port()
    url = pg_server.replace("usotsuki@", f"usotsuki:{PASSWORD}@")
    process = subprocess.Popen(
        [sys.executable, "-m", "usotsuki.cli.main", "serve", "--port", str(port), "--migrate"],
        env={**os.environ, "USOTSUKI_DB": url}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    try:
        from waits import wait_for

        def answers() -> bool:
            if process.poll() is not None:
                pytest.fail(process.stderr.read().decode() if process.stderr else "exited")
            try:
                return httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).is_success
            except httpx.HTTPError:
                return False

        wait_for(answers, "the server on USOTSUKI_DB", 60)
        assert PASSWORD not in cmdline(process.pid)
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert b"password is on the command line" not in err


def test_a_wrong_password_is_refused_with_a_clear_error(pg_server: str,
                                                        tmp_path: Path) -> None:
    secret = tmp_path / "db_password"
    secret.write_text("wrong")
    result = subprocess.run(
        [sys.executable, "-m", "usotsuki.cli.main", "serve", "--port", str(free_port()),
         "--db", pg_server, "--db-password-file", str(secret)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "cannot open the database" in result.stderr and "wrong" not in result.stderr


def test_database_url_reads_files_and_refuses_what_it_cannot_use(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("USOTSUKI_DB", raising=False)
    url_file, password_file = tmp_path / "url", tmp_path / "password"
    url_file.write_text("postgresql://u@db:5432/games\n")
    password_file.write_text("p@ss:/word\n")
    assert database_url(None, url_file) == "postgresql://u@db:5432/games"
    assert database_url("postgresql://u@db/games", None, password_file) == \
        "postgresql://u:p%40ss%3A%2Fword@db/games"  # quoted for the URL
    assert database_url(None) is None and database_url("games.sqlite3") == "games.sqlite3"
    assert capsys.readouterr().err == ""
    database_url("postgresql://u:pw@db/games")  # works, but says where the password is
    assert "password is on the command line" in capsys.readouterr().err
    with pytest.raises(ValueError, match="not both"):
        database_url("postgresql://u@db/games", url_file)
    with pytest.raises(ValueError, match="needs a postgresql:// URL"):
        database_url("games.sqlite3", None, password_file)
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(ValueError, match="is empty"):
        database_url(None, tmp_path / "empty")
    with pytest.raises(ValueError, match="cannot read"):
        database_url(None, tmp_path / "missing")
