"""Issue 10, finding 3 (server part): a live Liar Game on default rules could be made
endless. Now the server applies a default L11 turn limit (1000) when the host set none,
refuses a larger limit than it allows, and caps the log entries of any one table."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
from core_helpers import ManualClock, holder, new_lobby, people_table, play_one  # noqa: E402

from usotsuki.server.app import create_app  # noqa: E402
from usotsuki.server.config import DEFAULT_LIAR_TURN_LIMIT, Refused  # noqa: E402
from usotsuki.server.store import Store  # noqa: E402
from usotsuki.session import LiarSession  # noqa: E402


def test_a_live_liar_game_gets_the_default_turn_limit() -> None:
    assert DEFAULT_LIAR_TURN_LIMIT == 1000
    with TestClient(create_app(bot_delay=0)) as c:
        liar = c.post("/api/tables", json={"game": "liar", "seats": [{}, {}]}).json()
        assert liar["table"]["rules"] == {"turn_limit": 1000}
        own = c.post("/api/tables", json={"game": "liar", "seats": [{}, {}],
                                          "rules": {"turn_limit": 50}}).json()
        assert own["table"]["rules"] == {"turn_limit": 50}
        huge = c.post("/api/tables", json={"game": "liar", "seats": [{}, {}],
                                           "rules": {"turn_limit": 10**9}})
        assert huge.status_code == 400 and huge.json()["error"] == "bad_rules"
        assert "turn_limit is at most 10000" in huge.json()["message"]
        bluff = c.post("/api/tables", json={"game": "bluff", "seats": [{}, {}]}).json()
        assert bluff["table"]["rules"] == {}  # Bluff games end by themselves (B11)


def _looping(state: dict[str, Any], rng: random.Random) -> str:
    """Two seats that never try to win: doubt whatever can be doubted, else play one card."""
    legal, view = state["legal"], state["view"]
    if legal["give"] or legal["accept"]:
        from drive import choose
        return choose(state, rng)
    if legal["doubt"]:
        return "doubt"
    if legal["pass"]:
        return "pass"
    return f"play {view['hand'][0]} as {legal['play']['rates'][0]}"


def test_a_looping_liar_game_ends_at_the_default_limit(tmp_path: Path) -> None:
    async def main() -> None:
        store = Store(str(tmp_path / "e.sqlite3"))
        lobby = new_lobby(store, ManualClock(), liar_turn_limit=60)
        table, _ = await people_table(lobby, "liar", 2)
        rng = random.Random(2)
        acted = 0
        while table.playing:
            slot = table.current
            assert slot is not None and slot.session.to_move is not None
            seat = slot.session.to_move
            await table.act(seat, _looping(table.state_message(seat), rng), holder(table, seat))
            acted += 1
            assert acted <= 200, "the game did not end"
        session = table.games[0].session
        assert isinstance(session, LiarSession) and session.state is not None
        assert session.rules.turn_limit == 60 and session.state.turns == 60  # L11
        lobby.stop()
        store.close()

    asyncio.run(main())


def test_a_table_stops_at_its_cap_of_log_entries(tmp_path: Path) -> None:
    async def main() -> None:
        store = Store(str(tmp_path / "c.sqlite3"))
        lobby = new_lobby(store, ManualClock(), max_entries=12)
        table, _ = await people_table(lobby, "bluff", 3)
        rng = random.Random(1)
        with pytest.raises(Refused) as refused:
            for _ in range(100):
                await play_one(table, rng)
        assert refused.value.code == "table_cap" and refused.value.status == 409
        assert "cap of 12" in refused.value.message
        assert table.seq == 12 and len(store.load_log(table.row.pk)) == 12
        lobby.stop()
        store.close()

    asyncio.run(main())
