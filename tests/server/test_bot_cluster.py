"""Bot tokens in a cluster: two ``usotsuki serve`` workers on PostgreSQL and Redis, started
by the test. A token revoked through one worker is refused by the other at once; a
token's rate is counted by the workers together (Redis); an event written elsewhere
wakes a bot's long poll; no token reaches a worker's log."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from bot_helpers import bearer, bot_account, new_token
from cluster_helpers import Cluster, cluster
from identity_helpers import Browser
from pg_helpers import new_database
from sqlalchemy import create_engine

from usotsuki.server.bot_inbox import push_event
from usotsuki.server.store import normalise_url

TIMEOUT = 30.0  # a worker's first answers can be slow on a loaded machine


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:
    with cluster(new_database(pg_server, "usotsuki_bots"), 2) as c:
        yield c


@pytest.fixture(scope="module")
def secrets_made() -> list[str]:
    """Every token the module's tests made (the log check looks for each)."""
    return []


def _at(stack: Cluster, n: int) -> httpx.Client:
    return httpx.Client(base_url=stack.workers[n].url, timeout=TIMEOUT)


def _bot(stack: Cluster, name: str, made: list[str],
         per_minute: int | None = None) -> tuple[Browser, str]:
    owner, token = bot_account(_at(stack, 0), name, per_minute=per_minute)
    made.append(token)
    return owner, token


def test_a_token_revoked_at_one_worker_is_refused_by_the_other_at_once(
        stack: Cluster, secrets_made: list[str]) -> None:
    owner, token = _bot(stack, "Revoked", secrets_made)
    with _at(stack, 1) as other:
        assert other.get("/api/bot/me", headers=bearer(token)).status_code == 200
        listed = owner.client.get("/api/account/tokens").json()
        assert owner.send("DELETE", f"/api/account/tokens/{listed[0]['id']}").status_code == 204
        refused = other.get("/api/bot/me", headers=bearer(token))
        assert refused.status_code == 401 and refused.json()["error"] == "bad_token"
    owner.client.close()


def test_a_tokens_rate_is_counted_by_the_workers_together(
        stack: Cluster, secrets_made: list[str]) -> None:
    owner, token = _bot(stack, "Hasty", secrets_made, per_minute=4)
    workers = [_at(stack, 0), _at(stack, 1)]
    for n in range(4):  # the token's rate, spread over both workers
        assert workers[n % 2].get("/api/bot/me", headers=bearer(token)).status_code == 200
    for worker in workers:
        refused = worker.get("/api/bot/me", headers=bearer(token))
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_requests"
        assert int(refused.headers["Retry-After"]) >= 1
        worker.close()
    spare = new_token(owner, per_minute=4, label="spare")  # its own count
    secrets_made.append(spare)
    with _at(stack, 1) as other:
        assert other.get("/api/bot/me", headers=bearer(spare)).status_code == 200
    owner.client.close()


def test_an_event_written_elsewhere_wakes_the_long_poll(
        stack: Cluster, secrets_made: list[str]) -> None:
    owner, token = _bot(stack, "Waiter", secrets_made)
    bot_id = owner.me["id"]
    got: list[dict[str, Any]] = []

    def poll() -> None:
        with _at(stack, 1) as worker:
            got.append(worker.get("/api/bot/events?wait=25", headers=bearer(token)).json())

    waiting = threading.Thread(target=poll)
    waiting.start()
    engine = create_engine(normalise_url(stack.db))
    try:
        n = push_event(engine, bot_id, {"type": "challenge", "id": "c1"}, 0.0)
    finally:
        engine.dispose()
    waiting.join(TIMEOUT)
    assert got == [{"events": [{"n": n, "type": "challenge", "id": "c1"}], "next": n}]
    owner.client.close()


def test_no_token_reaches_a_log(stack: Cluster, secrets_made: list[str]) -> None:
    """The workers' logs hold none of the tokens used: this test's, used well and badly,
    nor (run after them) the other tests'."""
    owner, token = _bot(stack, "Quiet", secrets_made, per_minute=2)
    with _at(stack, 1) as other:
        for headers in (bearer(token), {"Authorization": token},
                        {"Authorization": f"Basic {token}"}, bearer(token), bearer(token)):
            other.get("/api/bot/events", headers=headers)
        other.get(f"/api/bot/me?token={token}")
    owner.client.close()
    logs = "".join(w.log.read_text(errors="replace") for w in stack.workers)
    assert logs, "the workers logged nothing: the check would prove nothing"
    for token in secrets_made:
        assert token not in logs and token.removeprefix("usb_") not in logs
