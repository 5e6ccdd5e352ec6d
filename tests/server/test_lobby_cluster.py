"""The lobby in the cluster (PostgreSQL, Redis, workers started by the test): a public
table made on one worker is listed on every other and joined from any of them without an
invite; the spectators of a game, wherever their sockets are, are counted together in
the live list and by its players."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from cluster_helpers import Cluster, cluster
from live_helpers import LiveSeat
from nginx_render import client_tls
from pg_helpers import new_database
from waits import Deadline, wait_for

HTTP_SECONDS = 30.0


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:
    db = new_database(pg_server, "usotsuki_lobby_cluster")
    with cluster(db, 3, ["--bot-delay", "0.02"]) as c:
        yield c


def listed(worker: str, path: str, key: str) -> dict[str, dict[str, Any]]:
    r = httpx.get(f"{worker}/api/{path}", timeout=HTTP_SECONDS)
    assert r.status_code == 200, r.text
    return {t["table_id"]: t for t in r.json()[key]}


def test_a_table_made_on_one_worker_is_listed_joined_and_watched_on_the_others(
        stack: Cluster) -> None:
    w1, w2, w3 = stack.workers
    r = httpx.post(f"{w1.url}/api/tables", timeout=HTTP_SECONDS, json={
        "game": "bluff", "seats": [{}, {}, {"bot": "random"}], "rules": {"max_cards": 2},
        "visibility": "public"})
    assert r.status_code == 201, r.text
    table = r.json()
    tid = table["table_id"]
    r = httpx.post(f"{w1.url}/api/invites/{table['invite']}/join", json={"name": "Mika"},
                   timeout=HTTP_SECONDS)
    assert r.status_code == 200, r.text
    mika = LiveSeat(w1, tid, r.json()["token"])  # present at the table, on worker 1

    entry = wait_for(lambda: listed(w3.url, "lobby", "tables").get(tid),
                     "the table listed on worker 3")
    assert tid in feed_frame(stack)["open"]  # the live feed, through nginx
    assert (entry["seated"], entry["seats"], entry["host"]) == (2, 3, "Mika")
    r = httpx.post(f"{w3.url}/api/tables/{tid}/join", json={"name": "Stranger"},
                   timeout=HTTP_SECONDS)  # no invite; relayed to the table's owner
    assert r.status_code == 200, r.text
    wait_for(lambda: tid not in listed(w2.url, "lobby", "tables"),
             "the full table gone from worker 2's lobby")

    r = httpx.post(f"{w2.url}/api/tables/{tid}/start", json={"token": table["host_token"]},
                   timeout=HTTP_SECONDS)
    assert r.status_code == 200, r.text
    wait_for(lambda: tid in listed(w3.url, "live", "games"), "the game listed live")
    watchers = [LiveSeat(w2, tid, ""), LiveSeat(w3, tid, "")]
    wait_for(lambda: listed(w1.url, "live", "games")[tid]["spectators"] == 2,
             "the spectators of workers 2 and 3 counted together")
    deadline = Deadline("the player on worker 1 told of two watchers")
    while True:
        message = mika.recv(deadline)
        if message["type"] == "table" and message["table"]["spectators"] == 2:
            break
    watchers[1].close()
    wait_for(lambda: listed(w2.url, "live", "games")[tid]["spectators"] == 1,
             "the spectator who left uncounted")
    watchers[0].close()
    mika.close()


def feed_frame(stack: Cluster) -> dict[str, Any]:
    """The first frame of the lobby's live feed through nginx (any worker): its lists by
    table id."""
    deadline = Deadline("a frame of the lobby's feed through nginx")
    with httpx.stream("GET", f"{stack.nginx.url}/api/lobby/events", verify=client_tls(),
                      timeout=deadline.left()) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith(
            "text/event-stream")
        event = None
        for line in r.iter_lines():
            if line.startswith("event: "):
                event = line[len("event: "):]
            elif line.startswith("data: ") and event == "lobby":
                lists = json.loads(line[len("data: "):])
                return {key: {t["table_id"]: t for t in value} for key, value in lists.items()}
            deadline.left()
    deadline.fail("the stream ended")
