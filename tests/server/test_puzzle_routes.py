"""The puzzles' HTTP API: a puzzle shows only its seat's view, an answer is checked and
rated (the player's and the puzzle's Glicko-2 ratings), a streak's best kept."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from identity_helpers import Browser

from usotsuki.analysis import puzzle_book


def _other_hands_absent(shown: dict[str, Any], puzzle: dict[str, Any]) -> None:
    """No card of another seat's current hand anywhere in what was sent."""
    text = json.dumps(shown)
    record = puzzle["record"]
    key = "rounds" if puzzle["game"] == "bluff" else "games"
    hands = record[key][-1]["hands"]
    mine = set(shown["view"]["hand"])
    for seat, hand in enumerate(hands):
        if seat != puzzle["seat"]:
            for card in set(hand) - mine:
                assert f'"{card}"' not in text or _public(shown, card), (seat, card)
    assert "best" not in shown and "record" not in shown and "played" not in shown


def _public(shown: dict[str, Any], card: str) -> bool:
    """A card the seat may know: revealed at a past challenge (Bluff) or in a doubt or a
    known place (Liar Game)."""
    view = json.dumps({k: v for k, v in shown["view"].items() if k != "hand"})
    return f'"{card}"' in view and any(
        k in shown["view"] for k in ("history", "doubts", "known_places", "own_places"))


def test_a_puzzle_is_shown_as_its_seat_sees_it(client: TestClient) -> None:
    for game in ("bluff", "liar"):
        Browser(client)
        shown = client.get(f"/api/puzzles/{game}/next").json()
        puzzle = puzzle_book.find(shown["id"])
        assert puzzle is not None and shown["game"] == game
        assert shown["view"]["seat"] == puzzle["seat"] == shown["seat"]
        assert sorted(shown["choices"]) == shown["choices"]
        assert puzzle["best"] in shown["choices"]
        _other_hands_absent(shown, puzzle)


def test_a_rated_answer_moves_both_ratings(client: TestClient) -> None:
    browser = Browser(client)
    shown = client.get("/api/puzzles/bluff/next").json()
    puzzle = puzzle_book.find(shown["id"])
    assert puzzle is not None
    right = browser.send("POST", f"/api/puzzles/{shown['id']}/answer",
                         {"move": puzzle["best"]}).json()
    assert right["solved"] is True and right["best"] == puzzle["best"]
    assert right["rating_after"]["rating"] > right["rating_before"]["rating"] == 1500
    summary = client.get("/api/puzzles/bluff").json()
    assert summary["you"]["attempts"] == 1
    assert summary["you"]["rating"]["rating"] == right["rating_after"]["rating"]
    wrong_move = next(o["action"] for o in puzzle["options"] if o["action"] != puzzle["best"])
    wrong = browser.send("POST", f"/api/puzzles/{shown['id']}/answer",
                         {"move": wrong_move}).json()
    assert wrong["solved"] is False and wrong["move"] == wrong_move
    assert wrong["rating_after"]["rating"] < wrong["rating_before"]["rating"]
    # the puzzle's rating moved with the attempts (the next one shows it)
    assert client.get("/api/puzzles/bluff").json()["you"]["attempts"] == 2


def test_a_streak_answer_leaves_the_rating_and_keeps_the_best(client: TestClient) -> None:
    browser = Browser(client)
    shown = client.get("/api/puzzles/liar/next?streak=3").json()
    puzzle = puzzle_book.find(shown["id"])
    assert puzzle is not None
    out = browser.send("POST", f"/api/puzzles/{shown['id']}/answer",
                       {"move": puzzle["best"], "mode": "streak"}).json()
    assert out["solved"] and out["rating_after"] is None
    assert browser.send("POST", "/api/puzzles/liar/streak", {"solved": 4}).json() == {
        "best_streak": 4}
    assert browser.send("POST", "/api/puzzles/liar/streak", {"solved": 2}).json() == {
        "best_streak": 4}
    assert client.get("/api/puzzles/liar").json()["you"]["best_streak"] == 4


def test_bad_answers_are_refused_with_the_reason(client: TestClient) -> None:
    browser = Browser(client)
    shown = client.get("/api/puzzles/bluff/next").json()
    bad = browser.send("POST", f"/api/puzzles/{shown['id']}/answer", {"move": "pair Z"})
    assert bad.status_code == 400 and bad.json()["error"] == "illegal"
    assert "rank" in bad.json()["message"]
    missing = browser.send("POST", "/api/puzzles/x9-9-9/answer", {"move": "challenge"})
    assert missing.status_code == 404
    assert client.get("/api/puzzles/chess/next").status_code == 404
    no_csrf = client.post(f"/api/puzzles/{shown['id']}/answer", json={"move": "challenge"})
    assert no_csrf.status_code == 403
