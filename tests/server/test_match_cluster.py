"""Quick match in the cluster (PostgreSQL, Redis, three workers started by the test):
people whose requests reach different workers meet at one table, and seeks made at once
on every worker are matched by one matcher at a time (nobody seated twice)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from cluster_helpers import Cluster, cluster
from pg_helpers import new_database

HTTP_SECONDS = 30.0


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:
    db = new_database(pg_server, "usotsuki_match_cluster")
    with cluster(db, 3, ["--bot-delay", "0.02"]) as c:
        yield c


class Person:
    """A browser whose requests all reach one worker."""

    def __init__(self, worker: str) -> None:
        self.client = httpx.Client(base_url=worker, timeout=HTTP_SECONDS)
        me = self.client.get("/api/me").json()
        self.id, self.csrf = me["id"], me["csrf"]

    def seek(self, players: int) -> dict[str, Any]:
        answer = self.client.post("/api/match", json={"game": "bluff", "players": players},
                                  headers={"X-CSRF-Token": self.csrf})
        assert answer.status_code == 200, answer.text
        out: dict[str, Any] = answer.json()
        return out

    def until_seated(self) -> dict[str, Any]:
        for _ in range(10):
            answer = self.client.get("/api/match", params={"wait": 10}).json()
            if answer["state"] == "matched":
                return dict(answer)
        raise AssertionError(f"{self.id} was never seated: {answer}")


def test_people_on_different_workers_meet_at_one_table(stack: Cluster) -> None:
    w1, w2, w3 = (w.url for w in stack.workers)
    people = [Person(w1), Person(w3), Person(w2), Person(w3)]
    for person in people[:3]:
        assert person.seek(4)["state"] == "waiting"
    last = people[3].seek(4)  # the fourth, at worker 3, completes the table
    assert last["state"] == "matched"
    seats = [last, *(p.until_seated() for p in people[:3])]
    tables = {s["table_id"] for s in seats}
    assert len(tables) == 1
    table_id = tables.pop()
    assert sorted(s["seat"] for s in seats) == [0, 1, 2, 3]
    # every worker knows who sits where
    for person, seat in zip([people[3], *people[:3]], seats, strict=True):
        games = person.client.get(f"/api/tables/{table_id}/games").json()
        assert games and games[0]["you"] == seat["seat"]
    for person in people:
        person.client.close()


def test_seeks_at_once_on_every_worker_seat_each_person_once(stack: Cluster) -> None:
    people = [Person(stack.workers[n % 3].url) for n in range(12)]
    def play_now(person: Person) -> dict[str, Any]:
        answer = person.seek(3)
        return answer if answer["state"] == "matched" else person.until_seated()

    with ThreadPoolExecutor(len(people)) as pool:
        seats = list(pool.map(play_now, people))
    tables: dict[str, list[int]] = {}
    for seat in seats:
        tables.setdefault(seat["table_id"], []).append(seat["seat"])
    assert len(tables) == 4  # twelve people, tables of three, nobody twice
    assert all(sorted(taken) == [0, 1, 2] for taken in tables.values())
    for person in people:
        person.client.close()
