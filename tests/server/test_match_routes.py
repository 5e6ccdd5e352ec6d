"""Quick match through the HTTP API on one worker: four people who press Play now sit
at one table, each with a seat of their own; nobody seeks while seated; bots are offered
after the wait and fill the seats on acceptance; rated matches are for accounts."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Seat
from sqlalchemy import insert, select

from usotsuki.server.identity import COOKIE
from usotsuki.server.matching import Policy
from usotsuki.server.matchmaking import (
    CLAIM_SECONDS,
    PENDING,
    SEATED_SECONDS,
    STALE_SECONDS,
    claim,
)
from usotsuki.server.meet_tables import match_seekers


class Person:
    """One browser's session; the test client's cookie jar is set to it for each call."""

    def __init__(self, c: TestClient) -> None:
        self.c = c
        c.cookies.clear()
        me = c.get("/api/me")
        self.token = me.cookies[COOKIE]
        self.csrf = me.json()["csrf"]
        self.id = me.json()["id"]

    def call(self, method: str, path: str, body: Any = None) -> Any:
        # the cookie in the header (not the shared jar): people may call from threads
        self.c.cookies.clear()
        return self.c.request(method, path, json=body, headers={
            "X-CSRF-Token": self.csrf, "Cookie": f"{COOKIE}={self.token}"})

    def seek(self, **body: Any) -> Any:
        return self.call("POST", "/api/match", {"game": "bluff", "players": 4, **body})

    def status(self, wait: float = 0.0) -> dict[str, Any]:
        answer = self.call("GET", f"/api/match?wait={wait}")
        assert answer.status_code == 200, answer.text
        out: dict[str, Any] = answer.json()
        return out


def test_four_who_press_play_now_sit_at_one_table(client: TestClient) -> None:
    people = [Person(client) for _ in range(5)]
    for person in people[:3]:
        answer = person.seek()
        assert answer.status_code == 200, answer.text
        assert answer.json()["state"] == "waiting"
    assert people[0].status()["waiting"] == 3
    last = people[3].seek().json()  # the fourth completes the table
    assert last["state"] == "matched"
    matched = [last, *(p.status() for p in people[:3])]
    assert {m["state"] for m in matched} == {"matched"}
    assert len({m["table_id"] for m in matched}) == 1
    assert sorted(m["seat"] for m in matched) == [0, 1, 2, 3]
    assert people[0].status()["state"] == "seated"  # the token is given once
    assert "token" not in people[0].status()
    table = client.get(f"/api/tables/{last['table_id']}").json()
    assert table["status"] == "playing" and table["players"] == 4
    assert all(s["taken"] and s["bot"] is None for s in table["seats"])
    for m in matched:  # each token holds its seat
        assert Seat(client, m["table_id"], m["token"]).seat == m["seat"]
    # nobody is seated twice at once: no new seek while the game is in play
    again = people[1].seek()
    assert again.status_code == 409 and again.json()["error"] == "already_seated"
    left = people[1].call("POST", f"/api/tables/{last['table_id']}/leave",
                          {"token": matched[2]["token"]})
    assert left.status_code == 204  # a bot plays on for them: they may look again
    assert people[1].seek().json()["state"] == "waiting"
    assert people[4].seek().json()["state"] == "waiting"  # the fifth waits on


def test_a_waiting_status_request_wakes_when_the_table_is_made(client: TestClient) -> None:
    people = [Person(client) for _ in range(2)]
    people[0].seek(players=2)
    result: list[dict[str, Any]] = []
    waiter = threading.Thread(target=lambda: result.append(people[0].status(wait=20)))
    waiter.start()
    people[1].seek(players=2)
    waiter.join()
    assert result[0]["state"] == "matched"


def test_a_new_seek_replaces_the_waiting_one_and_cancel_ends_it(client: TestClient) -> None:
    person = Person(client)
    person.seek()
    person.seek(game="liar", players=None, preset="house")
    assert person.status()["game"] == "liar" and person.status()["waiting"] == 1
    assert person.call("DELETE", "/api/match").status_code == 204
    assert person.status() == {"state": "idle"}


def test_bots_are_offered_after_the_wait_and_fill_on_acceptance(client: TestClient) -> None:
    client.app.state.matchmaker.policy = Policy(offer_seconds=0.0)  # type: ignore[attr-defined]
    people = [Person(client) for _ in range(2)]
    people[0].seek(players=4)
    people[1].seek(players=4, bots="no")
    offered = people[0].status()
    assert offered["state"] == "waiting" and offered["offer"]["bot"]
    assert "offer" not in people[1].status()  # no offer to who said no
    taken = people[0].call("POST", "/api/match/bots").json()
    assert taken["state"] == "matched"
    table = client.get(f"/api/tables/{taken['table_id']}").json()
    assert [s["bot"] is None for s in table["seats"]].count(True) == 1  # the "no" waits
    assert people[1].status()["state"] == "waiting"


def test_bad_seeks_are_refused_clearly(client: TestClient) -> None:
    guest = Person(client)
    rated = guest.seek(rated=True)
    assert rated.status_code == 403 and rated.json()["error"] == "account_required"
    preset = guest.seek(preset="nope")
    assert preset.status_code == 400 and preset.json()["error"] == "bad_preset"
    assert guest.seek(players=9).status_code == 422
    client.cookies.clear()
    assert client.get("/api/match").status_code == 401
    assert guest.call("POST", "/api/match/bots").json()["error"] == "not_waiting"


def test_accounts_meet_at_a_rated_table_and_casual_seekers_stay_apart(
        client: TestClient) -> None:
    casual = Person(client)
    casual.seek(players=2)
    accounts = [Person(client), Person(client)]
    for n, person in enumerate(accounts):
        signed = person.call("POST", "/api/account/signup",
                             {"username": f"ranked{n}", "password": "a long enough password"})
        assert signed.status_code == 201, signed.text
        person.token = signed.cookies[COOKIE]
        person.csrf = signed.json()["csrf"]
    assert accounts[0].seek(players=2, rated=True).json()["state"] == "waiting"
    matched = accounts[1].seek(players=2, rated=True).json()
    assert matched["state"] == "matched"
    table = client.get(f"/api/tables/{matched['table_id']}").json()
    assert table["rated"] and table["turn_seconds"] == 60
    assert casual.status()["state"] == "waiting"  # a casual seek never joins a rated table


def test_a_table_that_cannot_be_made_gives_its_people_back(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    started = lobby.start_game
    failed: list[Any] = []

    async def failing(table: Any, rematch: bool) -> int:
        failed.append(table)
        raise RuntimeError("the game could not start")

    monkeypatch.setattr(lobby, "start_game", failing)
    people = [Person(client) for _ in range(2)]
    people[0].seek(players=2)
    assert people[1].seek(players=2).json()["state"] == "waiting"
    assert [p.status()["state"] for p in people] == ["waiting", "waiting"]
    abandoned = client.get(f"/api/tables/{failed[0].public_id}").json()
    assert not any(s["taken"] for s in abandoned["seats"])  # nobody holds a seat there
    monkeypatch.setattr(lobby, "start_game", started)
    matched = people[0].status(wait=20)  # the next pass (every second) seats them
    assert matched["state"] == "matched" and matched["table_id"] != failed[0].public_id


def test_stale_seeks_go_and_a_dead_workers_claims_come_back(client: TestClient) -> None:
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    now = time.time()  # the server's clock: its own passes (every second) agree with this one

    def row(player: str, seen: float, table_id: str | None) -> dict[str, Any]:
        return {"player_id": player, "game": "bluff", "players": 4, "preset": "standard",
                "rated": False, "rating": 1500.0, "bots": "ask", "name": player,
                "since": seen, "seen": seen, "table_id": table_id, "seat_token": None}

    with engine.begin() as conn:
        conn.execute(insert(match_seekers), [
            row("gone", now - STALE_SECONDS - 1, None),  # nobody asked for 30 s
            row("here", now - 1, None),
            row("claimed", now - 1, f"{PENDING}{now - CLAIM_SECONDS - 1:.3f}/0"),  # died
            row("seated", now - SEATED_SECONDS - 1, "some-table"),
        ])
    assert claim(engine, Policy(), now, wait=True) == []  # two people: no table of four
    with engine.connect() as conn:
        left = dict(conn.execute(select(match_seekers.c.player_id, match_seekers.c.table_id)
                                 ).all())
    assert left == {"here": None, "claimed": None}
