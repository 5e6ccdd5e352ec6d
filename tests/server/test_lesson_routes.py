"""``/api/lessons``: the lessons in the browser, judged on the server's engine."""

from __future__ import annotations

from fastapi.testclient import TestClient

from usotsuki.lessons import lessons


def test_the_list_holds_every_lesson_of_both_games(client: TestClient) -> None:
    r = client.get("/api/lessons")
    assert r.status_code == 200
    games = r.json()["games"]
    assert [x["id"] for x in games["bluff"]] == [x.id for x in lessons("bluff")]
    assert [x["id"] for x in games["liar"]] == [x.id for x in lessons("liar")]
    assert set(games["liar"][0]["title"]) == {"en", "ja"}


def test_a_lesson_from_its_start_to_its_end(client: TestClient) -> None:
    r = client.post("/api/lessons/bluff-call", json={})
    assert r.status_code == 200, r.text
    start = r.json()
    assert start["task"]["ask"]["en"] and start["verdict"] is None
    assert start["view"]["hand"] == ["7H"] and "card 7" in start["legal"]
    assert start["lesson"]["next"] == "bluff-challenge"
    assert any(item.get("events") for item in start["shown"])

    wrong = client.post("/api/lessons/bluff-call", json={"try": "pair 7"}).json()
    assert wrong["verdict"]["accepted"] is False and wrong["verdict"]["explain"]["ja"]
    assert wrong["answers"] == [] and wrong["shown"] == start["shown"]
    illegal = client.post("/api/lessons/bluff-call", json={"try": "card 2"}).json()
    assert "weaker" in illegal["verdict"]["reason"]

    right = client.post("/api/lessons/bluff-call", json={"try": "Card 7"}).json()
    assert right["verdict"] == {"accepted": True, "action": "card 7", "reason": None,
                                "explain": None}
    assert right["finished"] and right["task"] is None and right["legal"] is None
    assert right["answers"] == ["card 7"]
    challenged = [e for item in right["shown"] for e in item.get("events", ())
                  if e["type"] == "challenged"]
    assert challenged and challenged[0]["call_true"] is True

    again = client.post("/api/lessons/bluff-call", json={"answers": ["card 7"]}).json()
    assert again["shown"] == right["shown"] and again["finished"]


def test_the_liar_view_never_shows_another_seats_cards(client: TestClient) -> None:
    r = client.post("/api/lessons/liar-doubt", json={"try": "doubt"}).json()
    assert r["verdict"]["accepted"]
    assert all(play["cards"] is None for play in r["view"]["field"] if play["seat"] != 0)
    for item in r["shown"]:
        for e in item.get("events", ()):
            if e["type"] in ("played_cards", "dealt", "drew_cards"):
                assert e["seat"] == 0


def test_bad_requests_are_refused_with_a_reason(client: TestClient) -> None:
    assert client.post("/api/lessons/nope", json={}).status_code == 404
    r = client.post("/api/lessons/bluff-call", json={"answers": ["pair 7"]})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    r = client.post("/api/lessons/bluff-call", json={"answers": ["card 7"], "try": "x"})
    assert r.status_code == 400 and "over" in r.json()["message"]
    r = client.post("/api/lessons/bluff-call", json={"try": "x" * 500})
    assert r.status_code in (400, 422)
