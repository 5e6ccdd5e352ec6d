"""The arena in a cluster: two ``usotsuki serve`` workers on PostgreSQL and Redis, started
by the test, with room for one arena table. Three bots seek through different workers
and only poll their events (they never act: stand-ins play their turns on the arena's
short clock); one table at a time is played, each bot is told its seat by whichever
worker it polls, each game ends, and the house levels take their turns."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from bot_helpers import bearer, bot_account
from cluster_helpers import Cluster, cluster
from pg_helpers import new_database
from sqlalchemy import create_engine, select
from waits import GAME_S, Deadline, wait_for

from usotsuki.server.bot_tables import arena_tables
from usotsuki.server.store import normalise_url

TIMEOUT = 30.0  # a worker's first answers can be slow on a loaded machine


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:
    options = ["--bot-delay", "0", "--arena-tables", "1", "--arena-turn-seconds", "0.2"]
    with cluster(new_database(pg_server, "usotsuki_arena"), 2, options) as c:
        yield c


def _wait_for_game(url: str, token: str, found: dict[str, Any]) -> None:
    """Poll the bot's events (which keeps its seek alive) until its game event."""
    deadline = Deadline("a game event", 3 * GAME_S)
    with httpx.Client(base_url=url, timeout=TIMEOUT + 25) as http:
        after = 0
        while token not in found:
            deadline.left()
            got = http.get(f"/api/bot/events?after={after}&wait=20",
                           headers=bearer(token)).json()
            after = got["next"]
            for event in got["events"]:
                if event["type"] == "game":
                    found[token] = event


def test_one_table_at_a_time_over_the_cluster_and_every_bot_plays(stack: Cluster) -> None:
    urls = [w.url for w in stack.workers]
    tokens = []
    for n, name in enumerate(("Ichi", "Ni", "San")):
        owner, token = bot_account(httpx.Client(base_url=urls[0], timeout=TIMEOUT), name)
        owner.client.close()
        tokens.append(token)
        with httpx.Client(base_url=urls[n % 2], timeout=TIMEOUT) as bot:
            sought = bot.post("/api/bot/seek", headers=bearer(token),
                              json={"players": 2, "preset": "short"})
            assert sought.status_code == 202, sought.text
    found: dict[str, Any] = {}
    pollers = [threading.Thread(target=_wait_for_game, args=(urls[(n + 1) % 2], t, found))
               for n, t in enumerate(tokens)]
    for poller in pollers:
        poller.start()
    for poller in pollers:
        poller.join()
    assert set(found) == set(tokens)
    assert len({e["table_id"] for e in found.values()}) == 3

    def board() -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = httpx.get(f"{urls[1]}/api/arena/bluff",
                                                  timeout=TIMEOUT).json()["entries"]
        return entries if sum(e["kind"] == "bot" for e in entries) == 3 else []

    entries = wait_for(board, "the three bots' games kept", GAME_S)
    assert all(e["games"] == 1 for e in entries), entries
    assert sorted(e["house"] for e in entries if e["kind"] == "house") == [
        "easy", "hard", "normal"]  # each level in turn
    engine = create_engine(normalise_url(stack.db))
    try:
        with engine.connect() as conn:
            spans = conn.execute(select(arena_tables.c.created, arena_tables.c.finished)
                                 .order_by(arena_tables.c.created)).all()
    finally:
        engine.dispose()
    assert len(spans) == 3
    for before, after in zip(spans, spans[1:], strict=False):
        assert before.finished is not None and after.created >= before.finished
