"""The rules page's data (GET /api/rules) and the codes a refusal cites (params.rules)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from server_helpers import Seat, create, join_all

from usotsuki.rulebook import rules


def test_every_rule_is_served_with_its_example_and_links_to_the_codes_it_cites(
        client: TestClient) -> None:
    answer = client.get("/api/rules")
    assert answer.status_code == 200
    served = answer.json()["rules"]
    assert [r["code"] for r in served] == list(rules())
    b11 = next(r for r in served if r["code"] == "B11")
    assert '<a href="#B2">B2</a>' in b11["html"]["en"] and b11["html"]["ja"]
    assert b11["example"]["steps"] and b11["caption"]["ja"]
    one = client.get("/api/rules/o6").json()
    assert one["code"] == "O6" and one["example"]["legal"]["play"]["rates"] == ["7"]
    missing = client.get("/api/rules/Z1")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


def test_an_illegal_action_names_the_rules_it_breaks(client: TestClient) -> None:
    table = create(client, "bluff", [None] * 3)
    tokens = join_all(client, table)
    seats = [Seat(client, table["table_id"], t) for t in tokens]
    assert client.post(f"/api/tables/{table['table_id']}/start",
                       json={"token": tokens[0]}).status_code == 200
    for s in seats:
        s.until_state(0)
    state = seats[0].state
    assert state is not None
    actor = seats[state["to_move"]]
    actor.send({"type": "act", "action": "challenge", "id": 1})  # no call yet (B5)
    refused = actor.until("error")
    assert refused["code"] == "illegal" and refused["params"] == {"rules": ["B5"]}
    for s in seats:
        s.close()


def test_bad_rules_name_the_rule(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"game": "liar", "rules": {"hand_size": 0},
                                              "seats": [{"bot": None}] * 3})
    assert answer.status_code == 400, answer.text
    assert answer.json()["params"] == {"rules": ["L3"]}
