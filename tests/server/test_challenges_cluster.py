"""Challenges in the cluster (PostgreSQL, Redis, two workers started by the test): a
person's challenge made at one worker reaches a bot polling another; the challenger's
wait at its worker ends when the bot accepts at the other, with its seat; of two
acceptances at once on two workers, one makes the table."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from bot_helpers import bearer, bot_account
from cluster_helpers import Cluster, cluster
from identity_helpers import Browser
from pg_helpers import new_database

HTTP_SECONDS = 30.0


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:
    db = new_database(pg_server, "usotsuki_challenges_cluster")
    with cluster(db, 2, ["--bot-delay", "0.02"]) as c:
        yield c


def bot_at(worker: str, name: str) -> tuple[str, httpx.Client]:
    """A bot account (made at ``worker``) and a client calling ``worker`` with its
    token."""
    with httpx.Client(base_url=worker, timeout=HTTP_SECONDS) as owner:
        browser, token = bot_account(owner, name)
        bot_id = str(browser.me["id"])
    return bot_id, httpx.Client(base_url=worker, timeout=HTTP_SECONDS, headers=bearer(token))


def next_challenge(bot: httpx.Client) -> dict[str, Any]:
    for _ in range(5):
        events = bot.get("/api/bot/events?after=0&wait=10").json()["events"]
        found = [e for e in events if e["type"] == "challenge"]
        if found:
            return found[-1]
    raise AssertionError("no challenge event came")


def test_a_challenge_crosses_workers(stack: Cluster) -> None:
    w1, w2 = (w.url for w in stack.workers)
    bot_id, bot = bot_at(w1, "Faraway")
    ann = Browser(httpx.Client(base_url=w2, timeout=HTTP_SECONDS))
    sent = ann.send("POST", "/api/challenges", {"to": bot_id, "game": "bluff",
                                                "turn_seconds": 20})
    assert sent.status_code == 201, sent.text
    told = next_challenge(bot)  # written at w2, read at w1
    assert told["id"] == sent.json()["id"]

    waited: dict[str, Any] = {}
    wait = threading.Thread(target=lambda: waited.update(ann.client.get(
        f"/api/challenges/{told['id']}", params={"wait": 20}).json()))
    wait.start()  # at w2: woken by its watch of the acceptance made at w1
    accepted = bot.post(f"/api/challenges/{told['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    wait.join(timeout=HTTP_SECONDS)
    assert waited["state"] == "accepted" and "token" in waited
    assert waited["table_id"] == accepted.json()["table_id"]
    assert {waited["seat"], accepted.json()["seat"]} == {0, 1}
    games = ann.client.get(f"/api/tables/{waited['table_id']}/games").json()
    assert games and games[0]["you"] == waited["seat"]
    bot.close()
    ann.client.close()


def test_two_acceptances_at_once_make_one_table(stack: Cluster) -> None:
    w1, w2 = (w.url for w in stack.workers)
    bot_id, at_w1 = bot_at(w1, "Twice")
    at_w2 = httpx.Client(base_url=w2, timeout=HTTP_SECONDS, headers=dict(at_w1.headers))
    bea = Browser(httpx.Client(base_url=w1, timeout=HTTP_SECONDS))
    sent = bea.send("POST", "/api/challenges", {"to": bot_id, "game": "liar"}).json()
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda c: c.post(f"/api/challenges/{sent['id']}/accept"),
                                [at_w1, at_w2]))
    assert sorted(a.status_code for a in answers) == [200, 409]
    refused = next(a for a in answers if a.status_code == 409).json()
    assert refused["error"] == "challenge_ended" and refused["params"] == {"state": "accepted"}
    seat = bea.client.get(f"/api/challenges/{sent['id']}").json()
    assert seat["table_id"] == next(a for a in answers if a.status_code == 200).json()[
        "table_id"]
    for client in (at_w1, at_w2, bea.client):
        client.close()
