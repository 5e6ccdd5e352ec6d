"""The suggested move (ws ``suggest``): computed in a worker process, for the
seat to move only, to the asking socket only, never where the table's hints are off."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from server_helpers import Seat, close_all, join_all

from usotsuki.bots.bluff.hints import REASONS as BLUFF_REASONS
from usotsuki.bots.liar.hints import REASONS as LIAR_REASONS
from usotsuki.server.app import create_app
from usotsuki.server.config import Settings

REASONS = {"bluff": BLUFF_REASONS, "liar": LIAR_REASONS}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(settings=Settings(bot_delay=0, bot_idle=False),
                               rate_limit=(1000.0, 1000.0))) as c:
        yield c
        close_all()


def started(c: TestClient, game: str, hints: bool = True) -> tuple[str, list[Seat]]:
    r = c.post("/api/tables", json={"game": game, "seats": [{"bot": None}] * 3,
                                    "rules": {}, "games": 1, "hints": hints})
    assert r.status_code == 201, r.text
    table = r.json()
    tokens = join_all(c, table)
    seats = [Seat(c, table["table_id"], t) for t in tokens]
    r = c.post(f"/api/tables/{table['table_id']}/start", json={"token": tokens[0]})
    assert r.status_code == 200, r.text
    for s in seats:
        s.until_state(0)
    return table["table_id"], seats


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_the_seat_to_move_alone_gets_a_suggestion(client: TestClient, game: str) -> None:
    tid, seats = started(client, game)
    state = seats[0].state
    assert state is not None and state["to_move"] is not None
    mover, other = seats[state["to_move"]], seats[(state["to_move"] + 1) % 3]
    for _ in range(4):  # on a busy machine the worker's first imports may miss the deadline
        mover.send({"type": "suggest", "id": "s1"})
        found = mover.until_any(60)
        if found.get("code") != "busy":
            break
    assert found["type"] == "suggestion", found
    assert found["id"] == "s1" and found["n"] == mover.state["n"]  # type: ignore[index]
    assert found["reason"] in REASONS[game]
    assert found["text"] == REASONS[game][found["reason"]].format(**found["args"])
    if game == "bluff":  # a canonical legal action (the Liar Game's legal is a summary)
        assert found["move"] in mover.state["legal"]  # type: ignore[index]
    # Acting on it is accepted: it is a legal move in canonical text.
    mover.send({"type": "act", "action": found["move"], "id": 2})
    assert mover.until_any()["type"] == "ack"
    # Off its turn, a seat gets none; a spectator gets none; nobody else saw the answer.
    mover.send({"type": "suggest", "id": "s2"})
    assert mover.until("error")["code"] == "not_your_turn"
    watcher = Seat(client, tid, None)
    watcher.send({"type": "suggest", "id": 3})
    assert watcher.until("error")["code"] == "forbidden"
    other.send({"type": "ping", "id": "p"})
    other.until("pong")
    assert not any(m["type"] == "suggestion" for s in (other, watcher) for m in s.messages)


def test_no_suggestion_where_the_tables_hints_are_off(client: TestClient) -> None:
    _, seats = started(client, "bluff", hints=False)
    state = seats[0].state
    assert state is not None
    mover = seats[state["to_move"]]
    mover.send({"type": "suggest", "id": 1})
    error = mover.until("error")
    assert error["code"] == "no_hints" and error["id"] == 1
