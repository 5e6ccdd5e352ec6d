"""The game review's routes and service: progress then the analysis, refusals (a game
still being played, a bad or unfinished record), at most N reviews at once."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import create, join_all

from usotsuki.server.app import create_app
from usotsuki.server.review_service import ReviewLimits, ReviewService

RECORD = {"game": "bluff", "players": ["ann", "bob", "cy"],
          "rules": {"max_cards": 1, "ranks": 2},
          "rounds": [{"hands": [["KS"], ["AS"], ["KH"]],
                      "actions": ["card K", "pair K", "challenge"]},
                     {"hands": [[], ["AS"], ["KH"]],
                      "actions": ["card A", "pair A", "challenge"]}]}


@pytest.fixture
def threads() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(2) as pool:
        yield pool


def client_with(service: ReviewService) -> TestClient:
    return TestClient(create_app(bot_delay=0, reviews=service))


def poll(c: TestClient, send: Callable[[], Any], timeout: float = 30) -> Any:
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        r = send()
        seen.append(r.status_code)
        if r.status_code != 202:
            return r, seen
        body = r.json()
        assert body["status"] == "running" and body["done"] >= 0
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


def test_a_posted_record_is_reviewed_with_progress_then_cached(
        threads: ThreadPoolExecutor) -> None:
    service = ReviewService(depth=8, submit=threads.submit)
    with client_with(service) as c:
        raw = json.dumps(RECORD).encode()
        r, seen = poll(c, lambda: c.post("/api/review", content=raw))
        assert r.status_code == 200 and seen[0] == 202
        body = r.json()
        assert body["status"] == "done"
        analysis = body["analysis"]
        assert analysis["game"] == "bluff" and analysis["names"] == ["ann", "bob", "cy"]
        assert len(analysis["decisions"]) == 6 and analysis["finished"]
        assert c.post("/api/review", content=raw).json() == body  # cached: at once
        assert service.stats()["cached"] == 1


def test_bad_and_unfinished_records_are_refused(threads: ThreadPoolExecutor) -> None:
    service = ReviewService(depth=4, submit=threads.submit)
    with client_with(service) as c:
        r, _ = poll(c, lambda: c.post("/api/review", content=b"{nope"))
        assert r.status_code == 400 and r.json()["error"] == "bad_record"
        unfinished = {**RECORD, "rounds": RECORD["rounds"][:1] + [
            {"hands": [[], ["AS"], ["KH"]], "actions": ["card A"]}]}
        r, _ = poll(c, lambda: c.post("/api/review", content=json.dumps(unfinished).encode()))
        assert r.status_code == 409 and r.json()["error"] == "not_finished"
        illegal = {**RECORD, "rounds": [{"hands": [["KS"], ["AS"], ["KH"]],
                                         "actions": ["pair K", "card K"]}]}
        r, _ = poll(c, lambda: c.post("/api/review", content=json.dumps(illegal).encode()))
        assert r.status_code == 400 and "weaker" in r.json()["message"]


def test_at_most_n_reviews_at_once() -> None:
    never: list[Future[Any]] = []

    def stuck(fn: Any, *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        never.append(future)
        return future

    # (no queue, and one address may ask for two: the cap on reviews at once answers)
    service = ReviewService(ReviewLimits(running=1, queued=0, per_requester=2), submit=stuck)
    with client_with(service) as c:
        assert c.post("/api/review", content=json.dumps(RECORD).encode()).status_code == 202
        other = {**RECORD, "players": ["x", "y", "z"]}
        r = c.post("/api/review", content=json.dumps(other).encode())
        assert r.status_code == 503 and r.json()["error"] == "busy"
        assert r.headers["retry-after"] == "2"


def test_a_table_still_being_played_is_not_reviewed(threads: ThreadPoolExecutor) -> None:
    """Hidden cards stay hidden: the review of a game in progress is refused (409)."""
    service = ReviewService(depth=4, submit=threads.submit)
    with client_with(service) as c:
        table = create(c, "bluff", [None, "random", "random"])
        tokens = join_all(c, table)
        tid = table["table_id"]
        assert c.post(f"/api/tables/{tid}/start", json={"token": tokens[0]}).status_code == 200
        r = c.get(f"/api/tables/{tid}/games/0/review")
        assert r.status_code == 409 and r.json()["error"] == "not_finished"
        assert c.get(f"/api/tables/{tid}/games/5/review").status_code == 404
        assert service.stats()["jobs"] == 0  # nothing was started
