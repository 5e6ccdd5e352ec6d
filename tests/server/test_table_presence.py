"""Issue 12's server parts: a turn clock chosen per table (its countdown in each state, a
public ``timeout`` event when it runs out), bots named per seat, refusals with params,
and the fast-forward a person who is out may ask for."""

from __future__ import annotations

from typing import Any

from core_helpers import ManualClock
from fastapi.testclient import TestClient
from server_helpers import Seat, close_all, join_all
from waits import Deadline

from usotsuki.server.app import create_app
from usotsuki.server.config import Settings


def _table(c: TestClient, bots: list[str | None], **extra: Any) -> dict[str, Any]:
    r = c.post("/api/tables", json={"game": "bluff", "seats": [{"bot": b} for b in bots],
                                    "rules": {"max_cards": 1, "dealer": 1}, **extra})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_tables_turn_clock_counts_down_then_a_bot_plays_and_says_so() -> None:
    clock = ManualClock()
    app = create_app(clock=clock, settings=Settings(bot_delay=0.0))
    with TestClient(app) as c:
        table = _table(c, [None, None, "random"], turn_seconds=30)
        assert table["table"]["turn_seconds"] == 30
        tokens = join_all(c, table)
        seat = Seat(c, table["table_id"], tokens[0])
        c.post(f"/api/tables/{table['table_id']}/start", json={"token": tokens[0]})
        deadline = Deadline("a person to move after the bot's play")
        state = seat.until("state", deadline)
        while state["to_move"] in (None, 2):  # the bot plays at once, then a person's turn
            state = seat.until("state", deadline)
        person = state["to_move"]
        assert state["clock"] == {"seat": person, "left": 30.0, "seconds": 30.0}
        c.portal.call(clock.advance, 31)  # type: ignore[union-attr]
        deadline = Deadline("the timeout event")
        event = seat.until("event", deadline)["event"]
        while event["type"] != "timeout":
            event = seat.until("event", deadline)["event"]
        assert event == {"type": "timeout", "seat": person, "bot": "normal"}
        # the stand-in's move is public and follows at once, for the same seat
        after = seat.until("event")["event"]
        assert after.get("seat", after.get("challenger")) == person
        close_all()


def test_without_a_clock_the_state_has_none_and_bots_have_names() -> None:
    with TestClient(create_app(bot_delay=0)) as c:
        table = _table(c, [None, "random", "random"])
        assert [s["name"] for s in table["table"]["seats"]] == [
            None, "Kenji (random)", "Yuki (random)"]
        tokens = join_all(c, table)
        seat = Seat(c, table["table_id"], tokens[0])
        assert seat.state is not None and seat.state["clock"] is None
        refused = c.post(f"/api/tables/{table['table_id']}/rematch",
                         json={"token": tokens[0]})
        assert refused.json()["error"] == "not_started" and refused.json()["params"] == {}
        close_all()


def test_refusals_carry_params_to_translate() -> None:
    with TestClient(create_app(bot_delay=0)) as c:
        table = _table(c, [None, None, "random"])
        host = table["host_token"]
        r = c.post(f"/api/tables/{table['table_id']}/start", json={"token": host})
        assert r.status_code == 409
        assert r.json()["error"] == "seats_empty" and r.json()["params"] == {"seats": [0, 1]}
        r = c.post(f"/api/invites/{table['invite']}/join", json={"name": "a", "seat": 2})
        assert r.json()["params"] == {"seat": 2}


def test_hurry_only_when_every_person_is_out() -> None:
    with TestClient(create_app(bot_delay=0.0)) as c:
        table = _table(c, [None, "random", "random"])
        tokens = join_all(c, table)
        seat = Seat(c, table["table_id"], tokens[0])
        seat.send({"type": "hurry", "id": 1})
        assert seat.until("hurry") == {"type": "hurry", "id": 1, "granted": False}
        close_all()
