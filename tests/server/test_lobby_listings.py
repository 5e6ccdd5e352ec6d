"""The lobby (issue 30, items 1 and 3): public tables listed while their seats are free
and a person is present, joined without an invite; live public games listed with their
spectators, whom the players see counted; invite-only tables never listed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Seat, close_all
from waits import Deadline, wait_for

from usotsuki.server.app import create_app
from usotsuki.server.config import Settings
from usotsuki.server.listings import (
    OPEN_FRESH,
    Listings,
    live_games,
    open_tables,
    refresh,
    write_listings,
)
from usotsuki.server.store import Store

FAST = Settings(bot_delay=0.0, listing_batch=0.05, lobby_feed_seconds=0.05)


@pytest.fixture
def c() -> Any:
    with TestClient(create_app(settings=FAST, rate_limit=(1000.0, 1000.0))) as client:
        yield client
        close_all()


def make(c: TestClient, seats: list[str | None], visibility: str = "public",
         **extra: Any) -> dict[str, Any]:
    r = c.post("/api/tables", json={"game": "bluff", "seats": [{"bot": b} for b in seats],
                                    "rules": {"max_cards": 1}, "visibility": visibility,
                                    **extra})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def sit(c: TestClient, table: dict[str, Any], name: str) -> str:
    r = c.post(f"/api/invites/{table['invite']}/join", json={"name": name})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def open_ids(c: TestClient) -> dict[str, dict[str, Any]]:
    r = c.get("/api/lobby")
    assert r.status_code == 200, r.text
    return {t["table_id"]: t for t in r.json()["tables"]}


def live_ids(c: TestClient) -> dict[str, dict[str, Any]]:
    r = c.get("/api/live")
    assert r.status_code == 200, r.text
    return {t["table_id"]: t for t in r.json()["games"]}


def test_a_public_table_is_listed_joined_in_one_request_and_leaves_when_full(
        c: TestClient) -> None:
    table = make(c, [None, None, "random"], turn_seconds=60)
    hidden = make(c, [None, None], visibility="invite")
    tid = table["table_id"]
    host = sit(c, table, "Mika")
    sit(c, hidden, "Kenji")
    Seat(c, tid, host)  # the host is present
    Seat(c, hidden["table_id"], None)
    listed = wait_for(lambda: open_ids(c).get(tid), "the public table in the lobby")
    assert listed == {"table_id": tid, "game": "bluff", "status": "waiting", "seats": 3,
                      "seated": 2, "people": 1, "rules": {"max_cards": 1},
                      "turn_seconds": 60.0, "rated": False, "rating": None,
                      "spectators": 0, "host": "Mika"}
    assert hidden["table_id"] not in open_ids(c)

    r = c.post(f"/api/tables/{tid}/join", json={"name": "Stranger"})  # no invite
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1
    wait_for(lambda: tid not in open_ids(c), "the full table out of the lobby")
    r = c.post(f"/api/tables/{hidden['table_id']}/join", json={"name": "Stranger"})
    assert r.status_code == 403 and r.json()["error"] == "invite_only"
    assert c.post(f"/api/tables/{tid}/join", json={"name": "Late"}).json()["error"] == \
        "table_full"
    assert c.post(f"/api/tables/{tid}/join", json={"name": "You"}).json()["error"] == \
        "reserved_name"


def test_a_player_does_not_sit_twice_at_a_public_table(c: TestClient) -> None:
    table = make(c, [None, None, None])
    me = c.get("/api/me").json()
    assert me["kind"] == "guest"
    r = c.post(f"/api/tables/{table['table_id']}/join", json={"name": "Mika"},
               headers={"X-CSRF-Token": me["csrf"]})
    assert r.status_code == 200, r.text
    again = c.post(f"/api/tables/{table['table_id']}/join", json={"name": "Mika"},
                   headers={"X-CSRF-Token": me["csrf"]})
    assert again.status_code == 409 and again.json()["error"] == "already_here"


def test_live_games_list_their_spectators_and_the_players_see_them_counted(
        c: TestClient) -> None:
    table = make(c, [None, "random", "random"])
    tid = table["table_id"]
    token = sit(c, table, "Mika")
    player = Seat(c, tid, token)
    assert c.post(f"/api/tables/{tid}/start", json={"token": token}).status_code == 200
    game = wait_for(lambda: live_ids(c).get(tid), "the game in the live list")
    assert (game["status"], game["spectators"], game["people"]) == ("playing", 0, 1)
    watchers = [Seat(c, tid, None), Seat(c, tid, None)]
    wait_for(lambda: live_ids(c)[tid]["spectators"] == 2, "two spectators counted")
    deadline = Deadline("the players told of two watchers")
    while (m := player.until("table", deadline))["table"]["spectators"] != 2:
        pass
    assert m["table"]["visibility"] == "public"
    assert c.get(f"/api/tables/{tid}").json()["spectators"] == 2
    watchers[0].close()
    wait_for(lambda: live_ids(c)[tid]["spectators"] == 1, "one spectator left")


def test_invite_only_games_are_never_listed(c: TestClient) -> None:
    table = make(c, [None, "random"], visibility="invite")
    token = sit(c, table, "Mika")
    Seat(c, table["table_id"], token)
    Seat(c, table["table_id"], None)
    c.post(f"/api/tables/{table['table_id']}/start", json={"token": token})
    lobby: Any = c.app.state.lobby  # type: ignore[attr-defined]
    c.portal.call(lobby.listings.flush)  # type: ignore[union-attr]
    assert table["table_id"] not in live_ids(c) | open_ids(c)


def test_a_table_whose_people_went_away_leaves_the_lobby() -> None:
    """Listed while refreshed; a listing not refreshed for ``OPEN_FRESH`` is old news."""
    store = Store(":memory:")
    try:
        row = {"table_pk": 1, "public_id": "t1", "game": "liar", "visibility": "public",
               "status": "waiting", "seats": 4, "seated": 1, "people": 1, "rules": "{}",
               "turn_seconds": None, "rated": False, "spectators": 0, "host": "Mika"}
        write_listings(store.engine, [(row, [])], [], now=1000.0)
        assert [t["table_id"] for t in open_tables(store.engine, 1000.0 + OPEN_FRESH)] == ["t1"]
        assert open_tables(store.engine, 1001.0 + OPEN_FRESH) == []
        refresh(store.engine, [1], 2000.0)
        assert len(open_tables(store.engine, 2000.0 + OPEN_FRESH)) == 1
        write_listings(store.engine, [({**row, "status": "playing"}, [])], [(1, 7)], 2100.0)
        assert open_tables(store.engine, 2100.0) == []
        [game] = live_games(store.engine, 2100.0)
        assert (game["table_id"], game["spectators"]) == ("t1", 7)
        write_listings(store.engine, [({**row, "status": "closed"}, [])], [], 2200.0)
        assert live_games(store.engine, 2200.0) == open_tables(store.engine, 2200.0) == []
    finally:
        store.close()


def test_a_rated_table_lists_the_rating_range_of_its_people() -> None:
    store = Store(":memory:")
    try:
        row = {"table_pk": 1, "public_id": "t1", "game": "bluff", "visibility": "public",
               "status": "waiting", "seats": 3, "seated": 1, "people": 1, "rules": "{}",
               "turn_seconds": 60.0, "rated": True, "spectators": 0, "host": "Mika"}
        write_listings(store.engine, [(row, [])], [], now=1000.0)
        assert open_tables(store.engine, 1000.0)[0]["rating"] is None  # nobody seated yet
        write_listings(store.engine, [(row, ["p-new"])], [], now=1000.0)
        assert open_tables(store.engine, 1000.0)[0]["rating"] == [1500.0, 1500.0]
    finally:
        store.close()


def test_the_feed_sends_a_frame_only_when_the_lists_change() -> None:
    """One read per beat for every listener; a listener that reads slowly skips to the
    newest frame."""
    store = Store(":memory:")

    class Clock:
        def time(self) -> float:
            return 1000.0

        async def sleep(self, seconds: float) -> None:
            await asyncio.sleep(0.01)

    async def run() -> None:
        listings = Listings(store, Settings(listing_batch=0.0, lobby_feed_seconds=0.01),
                            Clock(), list)
        first, second = listings.feed.listen(), listings.feed.listen()
        frame = json.loads(await asyncio.wait_for(first.get(), 5))
        assert frame == {"open": [], "live": []}
        assert json.loads(await asyncio.wait_for(second.get(), 5)) == frame
        await asyncio.sleep(0.1)
        assert first.empty()  # nothing changed: nothing sent
        row = {"table_pk": 1, "public_id": "t1", "game": "bluff", "visibility": "public",
               "status": "waiting", "seats": 2, "seated": 1, "people": 1, "rules": "{}",
               "turn_seconds": None, "rated": False, "spectators": 0, "host": "<b>x</b>"}
        await store.call(write_listings, store.engine, [(row, [])], [], 1000.0)
        changed = json.loads(await asyncio.wait_for(first.get(), 5))
        assert [t["host"] for t in changed["open"]] == ["<b>x</b>"]  # data: the page escapes
        listings.feed.leave(first)
        listings.feed.leave(second)
        listings.stop()

    try:
        asyncio.run(run())
    finally:
        store.close()
