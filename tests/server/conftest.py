"""Fixtures of the server tests."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pg_helpers import new_database, throwaway_postgres
from server_helpers import close_all

from usotsuki.server.app import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(bot_delay=0, rate_limit=(1000.0, 1000.0))) as c:
        yield c
        close_all()


@pytest.fixture(scope="module")
def pg_server() -> Iterator[str]:
    """A throwaway PostgreSQL server for one test module (a module may define its own)."""
    with throwaway_postgres() as url:
        yield url


_databases = count()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new empty database: a SQLite file, then one on the module's PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "server.sqlite3")
    server: str = request.getfixturevalue("pg_server")
    return new_database(server, f"usotsuki_db_{next(_databases)}")
