"""HTTP API: tables, invites, seats, start, rematch, leave, games and records."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import create, join_all


def wait_finished(c: TestClient, table_id: str, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info: dict[str, Any] = c.get(f"/api/tables/{table_id}").json()
        if info["status"] == "finished":
            return info
        time.sleep(0.02)
    raise AssertionError("the table did not finish")


@pytest.mark.parametrize("game,bots", [("bluff", ["random", "cautious", "normal"]),
                                       ("liar", ["random", "sensible", "random", "sensible"])])
def test_all_bot_table_plays_to_the_end(client: TestClient, game: str, bots: list[str]) -> None:
    table = create(client, game, bots)
    tid = table["table_id"]
    r = client.post(f"/api/tables/{tid}/start", json={"token": table["host_token"]})
    assert r.status_code == 200 and r.json() == {"game_number": 0}
    wait_finished(client, tid)
    games = client.get(f"/api/tables/{tid}/games").json()
    assert len(games) == 1 and games[0]["finished"]
    assert sorted(s for place in games[0]["standings"] for s in place) == list(range(len(bots)))
    record = client.get(f"/api/tables/{tid}/games/0/record").json()
    assert record["game"] == game
    # each bot has a name of its own, with its level: "Hana (random)", "Kenji (random)"
    assert [p.split(" (")[1] for p in record["players"]] == [f"{b})" for b in bots]
    assert len(set(record["players"])) == len(bots)
    # the record replays as a finished game with the same standings (Part 5)
    from usotsuki.replay import replay_record
    report = replay_record(record)
    assert report["ok"] and report["finished"]
    assert report["standings"] == games[0]["standings"]


def test_rematch_plays_a_second_game_with_the_same_seats(client: TestClient) -> None:
    table = create(client, "bluff", ["random"] * 3, {"max_cards": 2})
    tid, host = table["table_id"], table["host_token"]
    assert client.post(f"/api/tables/{tid}/rematch", json={"token": host}).status_code == 409
    client.post(f"/api/tables/{tid}/start", json={"token": host})
    wait_finished(client, tid)
    again = client.post(f"/api/tables/{tid}/start", json={"token": host})
    assert again.status_code == 409 and again.json()["error"] == "started"
    assert client.post(f"/api/tables/{tid}/rematch", json={"token": host}).json() == {
        "game_number": 1}
    wait_finished(client, tid)
    games = client.get(f"/api/tables/{tid}/games").json()
    assert [g["number"] for g in games] == [0, 1] and all(g["finished"] for g in games)


def test_join_by_invite_and_seats(client: TestClient) -> None:
    table = create(client, "liar", [None, "sensible", None])
    invite, tid = table["invite"], table["table_id"]
    info = client.get(f"/api/invites/{invite}").json()
    assert info["table_id"] == tid and info["status"] == "waiting"
    assert "invite" not in info and "host_token" not in str(info)
    taken = client.post(f"/api/invites/{invite}/join", json={"name": "ann", "seat": 1})
    assert taken.status_code == 409 and taken.json()["error"] == "seat_taken"
    ann = client.post(f"/api/invites/{invite}/join", json={"name": "  ann  "}).json()
    assert ann["seat"] == 0 and len(ann["token"]) >= 32
    # a start with an empty seat is refused
    r = client.post(f"/api/tables/{tid}/start", json={"token": ann["token"]})
    assert r.status_code == 409 and "[2]" in r.json()["message"]
    bob = client.post(f"/api/invites/{invite}/join", json={"name": "bob"}).json()
    assert bob["seat"] == 2 and bob["token"] != ann["token"]
    full = client.post(f"/api/invites/{invite}/join", json={"name": "cy"})
    assert full.status_code == 409 and full.json()["error"] == "table_full"
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["name"] for s in seats] == ["ann", "Kenji (sensible)", "bob"]  # the bot's name
    assert client.post(f"/api/tables/{tid}/start", json={"token": bob["token"]}).status_code == 200
    late = client.post(f"/api/invites/{invite}/join", json={"name": "dee"})
    assert late.status_code == 409


def test_leave_before_start_frees_the_seat(client: TestClient) -> None:
    table = create(client, "bluff", [None, "random"])
    ann = client.post(f"/api/invites/{table['invite']}/join", json={"name": "ann"}).json()
    r = client.post(f"/api/tables/{table['table_id']}/leave", json={"token": ann["token"]})
    assert r.status_code == 204
    assert client.get(f"/api/tables/{table['table_id']}").json()["seats"][0]["taken"] is False
    # the old token holds nothing any more
    r = client.post(f"/api/tables/{table['table_id']}/leave", json={"token": ann["token"]})
    assert r.status_code == 403


def test_leave_mid_game_hands_the_seat_to_a_bot(client: TestClient) -> None:
    table = create(client, "bluff", [None, "random", "random"], {"max_cards": 2})
    tid = table["table_id"]
    (token, _, _) = join_all(client, table)
    client.post(f"/api/tables/{tid}/start", json={"token": token})
    client.post(f"/api/tables/{tid}/leave", json={"token": token})
    info = wait_finished(client, tid)
    assert info["seats"][0]["bot"] is not None and info["seats"][0]["name"] == "p0"


def test_record_only_once_the_game_has_ended(client: TestClient) -> None:
    table = create(client, "liar", [None, None])
    tid = table["table_id"]
    tokens = join_all(client, table)
    nothing = client.get(f"/api/tables/{tid}/games/0/record")
    assert nothing.status_code == 404
    client.post(f"/api/tables/{tid}/start", json={"token": tokens[0]})
    early = client.get(f"/api/tables/{tid}/games/0/record")
    assert early.status_code == 409 and early.json()["error"] == "not_finished"
    assert "seed" not in early.text


@pytest.mark.parametrize("body,fragment", [
    ({"game": "chess", "seats": [{}, {}]}, "game"),
    ({"game": "bluff", "seats": [{}]}, "seats"),
    ({"game": "bluff", "seats": [{}] * 9}, "seats"),
    ({"game": "bluff", "seats": [{}, {}], "rules": {"max_cards": 0}}, "max_cards"),
    ({"game": "bluff", "seats": [{}, {}], "rules": {"colour": 1}}, "colour"),
    ({"game": "liar", "seats": [{}, {}], "rules": {"revolution": True}}, "O2"),
    ({"game": "liar", "seats": [{}, {}], "games": 3}, "O7"),
    ({"game": "bluff", "seats": [{"bot": "grandmaster"}, {}]}, "grandmaster"),
    ({"game": "bluff", "seats": [{}, {}], "extra": 1}, "extra"),
])
def test_bad_tables_are_refused_clearly(client: TestClient, body: dict[str, Any],
                                        fragment: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code in (400, 422)
    problem = r.json()
    assert fragment in problem["message"] and problem["error"]


def test_bad_names_tokens_and_ids(client: TestClient) -> None:
    table = create(client, "bluff", [None, None])
    invite, tid = table["invite"], table["table_id"]
    assert client.post(f"/api/invites/{invite}/join", json={"name": "   "}).status_code == 422
    assert client.post(f"/api/invites/{invite}/join",
                       json={"name": "x" * 33}).status_code == 422
    assert client.post("/api/invites/nope/join", json={"name": "a"}).status_code == 404
    assert client.get("/api/tables/nope").status_code == 404
    r = client.post(f"/api/tables/{tid}/start", json={"token": "guess"})
    assert r.status_code == 403 and r.json()["error"] == "forbidden"
    assert client.get("/api/bots/chess").status_code == 404


def test_bot_levels_come_from_the_registry(client: TestClient) -> None:
    from usotsuki.bots import bot_names

    assert client.get("/api/bots/bluff").json() == bot_names("bluff")
    assert client.get("/api/bots/liar").json() == bot_names("liar")


def test_docs_openapi_and_static_page(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "/api/tables" in schema["paths"] and "/api/invites/{invite}/join" in schema["paths"]
    assert client.get("/docs").status_code == 200
    page = client.get("/")
    assert page.status_code == 200 and "usotsuki" in page.text
