"""Names in the cluster (PostgreSQL, Redis, workers started by the test): joins relayed to
the table's owner from another worker are kept apart the same way, and every worker
shows the same names."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from cluster_helpers import Cluster, cluster
from pg_helpers import new_database
from waits import wait_for

HTTP_SECONDS = 30.0


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:
    db = new_database(pg_server, "usotsuki_names_cluster")
    with cluster(db, 2, ["--bot-delay", "0.02"]) as c:
        yield c


def join(worker: str, invite: str, name: str) -> httpx.Response:
    return httpx.post(f"{worker}/api/invites/{invite}/join", json={"name": name},
                      timeout=HTTP_SECONDS)


def names_at(worker: str, table_id: str) -> list[Any]:
    r = httpx.get(f"{worker}/api/tables/{table_id}", timeout=HTTP_SECONDS)
    assert r.status_code == 200, r.text
    return [s["name"] for s in r.json()["seats"]]


def test_relayed_joins_are_kept_apart_and_every_worker_agrees(stack: Cluster) -> None:
    owner, other = stack.workers[0].url, stack.workers[1].url
    r = httpx.post(f"{owner}/api/tables", timeout=HTTP_SECONDS, json={
        "game": "liar", "seats": [{}, {"bot": "random"}, {}, {}]})
    assert r.status_code == 201, r.text
    table = r.json()
    tid, invite = table["table_id"], table["invite"]
    assert join(other, invite, "Mika").status_code == 200  # relayed to the owner
    assert join(owner, invite, "ＭＩＫＡ").status_code == 200
    assert join(other, invite, "kenji").status_code == 200  # the bot of seat 1 yields
    refused = join(other, invite, "Kenji (random)")
    assert refused.status_code == 400 and refused.json()["error"] == "reserved_name"
    expected = ["Mika", "Hana (random)", "ＭＩＫＡ 2", "kenji"]
    assert names_at(owner, tid) == expected
    wait_for(lambda: names_at(other, tid) == expected, "the follower's copy of the seats")
    r = httpx.post(f"{other}/api/tables/{tid}/start", json={"token": table["host_token"]},
                   timeout=HTTP_SECONDS)
    assert r.status_code == 200, r.text
    r = httpx.get(f"{other}/api/tables/{tid}/games", timeout=HTTP_SECONDS)
    assert r.json()[0]["names"] == expected
