"""Routes for the browser UI: replay frames of finished records, Bluff evidence."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from usotsuki.bluff.record import replay_report as bluff_report
from usotsuki.liar import replay_report as liar_report
from usotsuki.server.app import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(bot_delay=0, deal_seed=3)) as c:
        yield c


def finished_record(c: TestClient, game: str, rules: dict[str, Any],
                    games: int = 1) -> tuple[str, dict[str, Any]]:
    """A game played to its end by bots; its table id and record."""
    r = c.post("/api/tables", json={"game": game, "seats": [{"bot": "random"}] * 3,
                                    "rules": rules, "games": games})
    assert r.status_code == 201, r.text
    table = r.json()
    c.post(f"/api/tables/{table['table_id']}/start", json={"token": table["host_token"]})
    deadline = time.monotonic() + 20
    while c.get(f"/api/tables/{table['table_id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish in 20 s"
        time.sleep(0.01)
    record = c.get(f"/api/tables/{table['table_id']}/games/0/record").json()
    return table["table_id"], record


def test_evidence_is_the_cards_of_the_called_ranks(client: TestClient) -> None:
    r = client.post("/api/bluff/evidence",
                    json={"call": "pair 7", "hands": [["7S", "8H"], ["7D", "KC"], []]})
    assert r.json() == ["7S", "7D"]
    r = client.post("/api/bluff/evidence",
                    json={"call": "full-house 3 q", "hands": [["3S", "QH", "2C"], ["3D"]]})
    assert r.json() == ["3S", "QH", "3D"]


def test_evidence_b6_straight_flush_to_five_has_a_low_ace(client: TestClient) -> None:
    hands = [["AS", "2S", "6S"], ["3S", "4S", "5S", "5H"]]
    r = client.post("/api/bluff/evidence", json={"call": "straight-flush 5 S", "hands": hands})
    assert sorted(r.json()) == sorted(["AS", "2S", "3S", "4S", "5S"])


@pytest.mark.parametrize("body", [
    {"call": "challenge", "hands": [["7S"]]},
    {"call": "pair 1", "hands": [["7S"]]},
    {"call": "pair 7", "hands": [["7X"]]},
    {"call": "pair 7"},
    {"call": "pair 7", "hands": [["7S"]] * 9},
])
def test_evidence_refuses_bad_input_with_a_message(client: TestClient,
                                                   body: dict[str, Any]) -> None:
    r = client.post("/api/bluff/evidence", json=body)
    assert r.status_code in (400, 422)
    assert r.json()["message"]


def test_bluff_replay_frames_follow_the_record(client: TestClient) -> None:
    table_id, record = finished_record(client, "bluff", {"max_cards": 2})
    data = client.get(f"/api/tables/{table_id}/games/0/replay").json()
    frames = data["frames"]
    assert data["game"] == "bluff" and data["names"] == record["players"]
    assert len(frames) == sum(1 + len(r["actions"]) for r in record["rounds"])
    report = bluff_report(record)
    reveals = [f["reveal"] for f in frames if f["reveal"] is not None]
    assert len(reveals) == len(record["rounds"]) == len(report["rounds"])
    for reveal, expected in zip(reveals, report["rounds"], strict=True):
        assert reveal["loser"] == expected["loser"]
        assert reveal["call_true"] == expected["call_true"]
    for frame in frames:
        if frame["reveal"] is None:  # during a round: every hand, of the size B3 gives
            assert [len(h) for h in frame["hands"]] == frame["view"]["hand_sizes"]
    assert frames[-1]["view"]["standings"] == report["standings"]
    # The round's hands, as dealt, are the record's.
    deals = [f for f in frames if f["kind"] == "deal"]
    assert [f["hands"] for f in deals] == [r["hands"] for r in record["rounds"]]


def test_liar_replay_frames_keep_all_52_cards(client: TestClient) -> None:
    table_id, record = finished_record(
        client, "liar", {"multi": True, "classes": True, "hand_size": 5, "turn_limit": 60}, 2)
    data = client.get(f"/api/tables/{table_id}/games/0/replay").json()
    frames = data["frames"]
    assert len(frames) == sum(1 + len(g["actions"]) for g in record["games"])
    for frame in frames:
        view = frame["view"]
        field = sum(len(cards) for cards in frame["field_cards"])
        assert [len(h) for h in frame["hands"]] == view["hand_sizes"]
        assert [len(c) for c in frame["field_cards"]] == [p["count"] for p in view["field"]]
        assert sum(view["hand_sizes"]) + view["stock_size"] + field == 52
        assert all(e.get("type") not in ("dealt", "drew_cards") for e in frame["events"])
    report = liar_report(record)
    assert frames[-1]["view"]["standings"] == report["games"][-1]["standings"]
    assert client.post("/api/replay", json=record).json() == data


def test_replay_refuses_what_cannot_be_shown(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "bluff", "seats": [{"bot": None}] * 2})
    table = r.json()
    for who in ("a", "b"):
        client.post(f"/api/invites/{table['invite']}/join", json={"name": who})
    client.post(f"/api/tables/{table['table_id']}/start", json={"token": table["host_token"]})
    r = client.get(f"/api/tables/{table['table_id']}/games/0/replay")
    assert r.status_code == 409  # the hands of a game being played stay secret
    assert client.get("/api/tables/nope/games/0/replay").status_code == 404

    _, record = finished_record(client, "bluff", {"max_cards": 1})
    bad = {**record, "rounds": [{**record["rounds"][0], "actions": ["four A", "pair 2"]}]}
    r = client.post("/api/replay", json=bad)
    assert r.status_code == 400 and r.json()["error"] == "bad_record"
    unfinished = {**record, "rounds": [{**record["rounds"][0], "actions": []}]}
    assert "not finished" in client.post("/api/replay", json=unfinished).json()["message"]
    for junk in ([], {"game": "chess"}, {"game": "liar", "players": 3, "games": "x"}):
        r = client.post("/api/replay", json=junk)
        assert r.status_code == 400 and r.json()["message"]
