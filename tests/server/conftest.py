"""Fixtures of the server tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pg_helpers import throwaway_postgres
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
