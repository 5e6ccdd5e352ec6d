"""State messages and long tables (issue 37, findings 2 and 5).

Finding 2: ``sync`` beyond the last event and ``hints`` were free, and each rebuilt the
whole state (hundreds of kilobytes and tens of milliseconds in a long game): one address
stalled every table. Now each state answered on request is charged from the same budget
as resent events, a state is built once per seat and version of the table, and the view
carries the last rounds only. Finding 5: a catch-up over more events than a client's
queue holds closed the socket (1008) before any frame; now a table's history takes one
place in the queue and is sent in pages.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_wire_limits import FakeClock, finished_bot_table, next_reply

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
from core_helpers import ManualClock, holder, new_lobby, people_table  # noqa: E402
from drive import choose  # noqa: E402
from server_helpers import receive  # noqa: E402
from waits import Deadline  # noqa: E402

import usotsuki.server.table as table_module  # noqa: E402
import usotsuki.server.wire as wire  # noqa: E402
from usotsuki import bluff  # noqa: E402
from usotsuki.server.app import create_app  # noqa: E402
from usotsuki.server.games import HISTORY_KEPT, view_json  # noqa: E402
from usotsuki.server.store import Store  # noqa: E402
from usotsuki.server.ws import STATE_COST  # noqa: E402
from usotsuki.session import BluffSession  # noqa: E402


def test_sync_beyond_the_end_and_hints_are_charged() -> None:
    clock = FakeClock()
    budget = 5 * STATE_COST
    with TestClient(create_app(bot_delay=0, monotonic=clock,
                               sync_limit=(1.0, float(budget)))) as c:
        table_id = finished_bot_table(c)
        with c.websocket_connect(f"/ws/tables/{table_id}") as ws:
            deadline = Deadline("the first state")
            while receive(ws, deadline)["type"] != "state":
                pass
            end = len(c.app.state.lobby.by_id[table_id].events)  # type: ignore[attr-defined]
            for n in range(5):  # the budget buys five states, not one more
                ws.send_json({"type": "sync", "since": end + 1000, "id": n})
                assert next_reply(ws)["type"] == "state"
            ws.send_json({"type": "sync", "since": end + 1000, "id": "x"})
            assert next_reply(ws)["code"] == "rate_limited"
            ws.send_json({"type": "hints", "on": True, "id": "h"})
            assert next_reply(ws)["code"] == "rate_limited"  # the same budget
            clock.now += STATE_COST + 0.5  # one state's worth refilled
            ws.send_json({"type": "hints", "on": True, "id": "h2"})
            assert next_reply(ws)["type"] == "state"
            ws.send_json({"type": "hints", "on": False, "id": "h3"})
            assert next_reply(ws)["code"] == "rate_limited"


def test_a_state_is_built_once_per_seat_and_version(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int | None] = []

    def counted(session: Any, seat: int | None) -> Any:
        built.append(seat)
        return view_json(session, seat)

    monkeypatch.setattr(table_module, "view_json", counted)

    async def scenario() -> None:
        store = Store(str(tmp_path / "s.sqlite3"))
        lobby = new_lobby(store, ManualClock())
        table, _ = await people_table(lobby)
        built.clear()
        first = [table.state_message(seat) for seat in (0, 0, 1, None, None)]
        assert sorted(built, key=str) == sorted([0, 1, None], key=str)
        assert first[0] == first[1]
        slot = table.current
        assert slot is not None and slot.session.to_move is not None
        mover = slot.session.to_move
        await table.act(mover, choose(table.state_message(mover), random.Random(0)),
                        holder(table, mover))
        built.clear()
        after = table.state_message(0)
        assert built == [0] and after["n"] > first[0]["n"]  # a new version: built again
        lobby.stop()
        store.close()

    asyncio.run(scenario())


def test_a_long_games_view_carries_its_last_rounds_only() -> None:
    rng = random.Random(1)
    session = BluffSession.create(bluff.BluffRules(players=8, max_cards=5), None)
    while not session.is_over:  # the lowest call every time: the longest rounds
        if session.chance_due:
            session, _ = session.deal(session.draw_chance(rng))
            continue
        legal = list(session.legal())
        calls = [a for a in legal if isinstance(a, bluff.Call)]
        session, _ = session.apply(calls[0] if calls else legal[0])
    full = session.view(0).to_json()["history"]
    assert len(full) > HISTORY_KEPT
    view = view_json(session, 0)
    assert view is not None
    assert view["history"] == full[-HISTORY_KEPT:]
    assert view["history_from"] == len(full) - HISTORY_KEPT


@pytest.mark.parametrize("batch", [False, True])
def test_a_spectator_of_a_table_longer_than_its_queue_gets_every_event(
        monkeypatch: pytest.MonkeyPatch, batch: bool) -> None:
    monkeypatch.setattr(wire, "QUEUE_LIMIT", 50)  # a long table, at a small scale
    with TestClient(create_app(bot_delay=0, sync_limit=(1e6, 1e6))) as c:
        table_id = finished_bot_table(c)
        table = c.app.state.lobby.by_id[table_id]  # type: ignore[attr-defined]
        events = len(table.events)
        visible = [json.loads(w)["n"] for w in table.events_since(None, -1)]
        assert len(visible) > 4 * 50
        query = "?batch=1" if batch else ""
        with c.websocket_connect(f"/ws/tables/{table_id}{query}") as ws:
            seen: list[int] = []
            state = None
            deadline = Deadline("the state after a long catch-up")
            while state is None:
                frame = receive(ws, deadline)
                for message in frame["messages"] if frame["type"] == "batch" else [frame]:
                    if message["type"] == "event":
                        seen.append(message["n"])
                    elif message["type"] == "state":
                        state = message
            assert seen == visible
            assert state["n"] == events - 1
            ws.send_json({"type": "sync", "since": -1, "id": "again"})  # as long: paged too
            again: list[int] = []
            deadline = Deadline("the state after a long sync")
            while True:
                frame = receive(ws, deadline)
                batch_of = frame["messages"] if frame["type"] == "batch" else [frame]
                again += [m["n"] for m in batch_of if m["type"] == "event"]
                if any(m["type"] == "state" for m in batch_of):
                    break
            assert again == visible
