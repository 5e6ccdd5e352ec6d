"""Reviews are shared fairly (issue 37, finding 4): one client kept both review slots busy
(each POST bought ~15 s of CPU, no follow-up needed) and everyone else got 503. Now one
address has one review running or waiting, later reviews wait in a queue and are told
their place, and a review nobody asks about any more ends, giving its place to the next.
The work here never finishes by itself (a future nobody completes): only the service's
rules end it. Time is a clock moved by hand."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import Future
from typing import Any

from fastapi.testclient import TestClient

from usotsuki.server.app import create_app
from usotsuki.server.review_service import ReviewLimits, ReviewService


def endless(fn: Any, *args: Any) -> Future[Any]:
    return Future()  # a worker task that runs until it is cancelled


def answer(service: ReviewService, key: str, requester: str) -> tuple[int, str, Any]:
    status, code, body = service.poll(key, lambda: b"{}", requester)
    return status, code, json.loads(body) if status == 202 else body.decode()


def test_one_address_cannot_take_every_review_place() -> None:
    async def main() -> None:
        service = ReviewService(ReviewLimits(running=2, queued=2, per_requester=1,
                                             abandoned=10.0), submit=endless)
        now = [1000.0]
        service.clock = lambda: now[0]
        assert answer(service, "a1", "attacker")[2]["status"] == "running"
        status, code, _ = answer(service, "a2", "attacker")  # its share is taken
        assert (status, code) == (429, "too_many_jobs")
        assert answer(service, "b", "bob")[2]["status"] == "running"
        waiting = answer(service, "c", "carol")[2]
        assert waiting == {"status": "queued", "position": 1, "done": 0, "total": None}
        assert answer(service, "d", "dan")[2]["position"] == 2
        assert answer(service, "e", "eve")[:2] == (503, "busy")  # the queue is full
        # The attacker never asks again; the others do. Its review ends, Carol's starts.
        now[0] += 6
        for key, who in (("b", "bob"), ("c", "carol"), ("d", "dan")):
            answer(service, key, who)
        now[0] += 6
        answer(service, "b", "bob")
        for _ in range(5):  # the cancelled review ends, the next starts
            await asyncio.sleep(0)
        assert answer(service, "c", "carol")[2]["status"] == "running"
        assert answer(service, "d", "dan")[2] == {"status": "queued", "position": 1,
                                                  "done": 0, "total": None}
        assert answer(service, "a2", "attacker")[2]["status"] == "queued"  # its share again
        assert service.stats()["jobs"] == 2
        service.close()
        await asyncio.sleep(0)  # the stopped reviews end

    asyncio.run(main())


def test_the_routes_answer_a_place_and_a_share() -> None:
    reviews = ReviewService(ReviewLimits(running=1, queued=4), submit=endless)
    with TestClient(create_app(bot_delay=0, reviews=reviews)) as c:
        first = c.post("/api/review", content=b'{"game": "bluff", "n": 1}')
        assert first.status_code == 202 and first.json()["status"] == "running"
        again = c.post("/api/review", content=b'{"game": "bluff", "n": 2}')
        assert again.status_code == 429 and again.json()["error"] == "too_many_jobs"
        assert again.headers["Retry-After"]
