"""Issue 10, finding 2: anyone could create unlimited tables and start bot-only games.
Now: tables per client address per minute, open tables per address, bot-only games at
once; each refusal is a clear 429 that changes nothing. Time is a clock moved by hand."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
from core_helpers import ManualClock, new_lobby  # noqa: E402

from usotsuki.server.app import create_app  # noqa: E402
from usotsuki.server.config import Refused, Settings  # noqa: E402
from usotsuki.server.store import Store  # noqa: E402

PEOPLE = {"game": "bluff", "seats": [{"bot": None}, {"bot": None}]}
BOTS = {"game": "bluff", "seats": [{"bot": "random"}, {"bot": "random"}]}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def serve(tmp_path: Path, clock: ManualClock, **limits: float) -> Iterator[TestClient]:
    # bot_delay 10 s on the hand-moved clock: a started bot game stays being played
    settings = Settings(bot_delay=10.0, **limits)  # type: ignore[arg-type]
    store = Store(str(tmp_path / "q.sqlite3"))
    with TestClient(create_app(store=store, clock=clock, settings=settings)) as c:
        yield c
    store.close()


def tables_in(client: TestClient) -> int:
    return len(client.app.state.store.load_tables())  # type: ignore[attr-defined]


def test_tables_per_address_per_minute(tmp_path: Path, clock: ManualClock) -> None:
    for c in serve(tmp_path, clock, tables_per_minute=10, open_tables=100):
        for _ in range(10):
            assert c.post("/api/tables", json=PEOPLE).status_code == 201
        refused = c.post("/api/tables", json=PEOPLE)
        assert refused.status_code == 429
        assert refused.json() == {"error": "too_many_tables", "message":
                                  "at most 10 new tables a minute from one address: "
                                  "try again in 60 s", "params": {"max": 10, "wait": 60}}
        assert tables_in(c) == 10  # nothing was made
        clock.advance(30)
        assert "in 30 s" in c.post("/api/tables", json=PEOPLE).json()["message"]
        clock.advance(31)
        assert c.post("/api/tables", json=PEOPLE).status_code == 201


def test_open_tables_per_address(tmp_path: Path, clock: ManualClock) -> None:
    for c in serve(tmp_path, clock, tables_per_minute=100, open_tables=3,
                   idle_seconds=3600.0):
        for _ in range(3):
            assert c.post("/api/tables", json=PEOPLE).status_code == 201
        refused = c.post("/api/tables", json=PEOPLE)
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_open_tables"
        assert "3 tables open at once" in refused.json()["message"]
        assert tables_in(c) == 3
        clock.advance(3601)  # they expired: the address may open new ones
        assert c.post("/api/tables", json=PEOPLE).status_code == 201


def test_bot_only_games_at_once(tmp_path: Path, clock: ManualClock) -> None:
    for c in serve(tmp_path, clock, bot_tables=1, tables_per_minute=100):
        first, second = (c.post("/api/tables", json=BOTS).json() for _ in range(2))
        start = c.post(f"/api/tables/{first['table_id']}/start",
                       json={"token": first["host_token"]})
        assert start.status_code == 200
        refused = c.post(f"/api/tables/{second['table_id']}/start",
                         json={"token": second["host_token"]})
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_bot_games"
        assert c.get(f"/api/tables/{second['table_id']}").json()["status"] == "waiting"
        again = c.post("/api/tables", json=BOTS)
        assert again.status_code == 429 and "games of bots only" in again.json()["message"]
        # people's tables are not bot-only: never held to this quota
        assert c.post("/api/tables", json=PEOPLE).status_code == 201


def test_quotas_are_per_address(tmp_path: Path) -> None:
    async def main() -> None:
        store = Store(str(tmp_path / "a.sqlite3"))
        clock = ManualClock()
        lobby = new_lobby(store, clock, tables_per_minute=2)
        config = {"players": 2, "rules": {}, "games": 1}
        for address in ("10.0.0.1", "10.0.0.2"):
            for _ in range(2):
                await lobby.create("bluff", config, [None, None], address)
        with pytest.raises(Refused) as refused:
            await lobby.create("bluff", config, [None, None], "10.0.0.1")
        assert refused.value.status == 429
        await lobby.create("bluff", config, [None, None], "10.0.0.3")
        assert len(store.load_tables()) == 5
        lobby.stop()
        store.close()

    asyncio.run(main())
