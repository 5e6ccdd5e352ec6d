"""Games kept in the cluster (PostgreSQL, Redis, workers started by the test): a join
relayed to the table's owner records the joiner's player; the game finished on the
owner is stored once and read from another worker."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest
from cluster_helpers import Cluster, cluster
from pg_helpers import new_database
from waits import wait_for

HTTP_SECONDS = 30.0


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:
    db = new_database(pg_server, "usotsuki_history_cluster")
    with cluster(db, 2, ["--bot-delay", "0.02"]) as c:
        yield c


def call(method: str, worker: str, path: str, **kwargs: Any) -> Any:
    r = httpx.request(method, f"{worker}{path}", timeout=HTTP_SECONDS, **kwargs)
    assert r.is_success, r.text
    return r.json() if r.content else None


def test_a_game_finished_on_its_owner_is_kept_once_and_read_elsewhere(stack: Cluster) -> None:
    owner, other = stack.workers[0].url, stack.workers[1].url
    me = httpx.get(f"{other}/api/me", timeout=HTTP_SECONDS)
    ann = {"Cookie": f"usotsuki_session={me.cookies['usotsuki_session']}",
           "X-CSRF-Token": me.json()["csrf"]}
    ann_id = me.json()["id"]
    table = call("POST", owner, "/api/tables", json={
        "game": "bluff", "seats": [{}, {"bot": "random"}, {"bot": "cautious"}],
        "rules": {"max_cards": 2}})
    tid = table["table_id"]
    assert stack.owner(tid) is not None and stack.owner(tid)[0] == "w0"  # type: ignore[index]
    # Ann joins through the other worker: relayed to the owner, her player id with it
    token = call("POST", other, f"/api/invites/{table['invite']}/join",
                 json={"name": "Ann"}, headers=ann)["token"]
    with psycopg.connect(stack.db) as conn:
        seats = conn.execute("SELECT s.seat, s.player_id FROM seats s JOIN tables t "
                             "ON t.pk = s.table_pk WHERE t.public_id = %s ORDER BY s.seat",
                             (tid,)).fetchall()
    assert seats == [(0, ann_id), (1, "bot:bluff:random"), (2, "bot:bluff:cautious")]
    call("POST", other, f"/api/tables/{tid}/start", json={"token": token}, headers=ann)
    call("POST", other, f"/api/tables/{tid}/leave", json={"token": token}, headers=ann)
    wait_for(lambda: call("GET", owner, f"/api/tables/{tid}")["status"] == "finished",
             "the game to end on its owner", seconds=120)

    def listed() -> list[dict[str, Any]] | None:
        games: list[dict[str, Any]] = call("GET", other, "/api/me/games",
                                           headers={"Cookie": ann["Cookie"]})["games"]
        return games or None

    [game] = wait_for(listed, "the game in Ann's list on the other worker")
    assert game["table_id"] == tid and game["number"] == 0
    assert [s["player_id"] for s in game["seats"]] == [ann_id, "bot:bluff:random",
                                                       "bot:bluff:cautious"]
    assert game["seats"][0]["left"]
    # a second load of the table elsewhere stores nothing more
    call("GET", other, f"/api/tables/{tid}")
    call("GET", other, f"/api/tables/{tid}/games/0/record")
    with psycopg.connect(stack.db) as conn:
        kept = conn.execute("SELECT count(*) FROM played_games g JOIN tables t "
                            "ON t.pk = g.table_pk WHERE t.public_id = %s", (tid,)).fetchone()
        seated = conn.execute("SELECT count(*) FROM played_seats s JOIN played_games g "
                              "ON g.pk = s.game_pk JOIN tables t ON t.pk = g.table_pk "
                              "WHERE t.public_id = %s", (tid,)).fetchone()
    assert kept == (1,) and seated == (3,)
    profile = call("GET", owner, f"/api/players/{ann_id}", headers={"Cookie": ann["Cookie"]})
    assert profile["games"]["bluff"]["games"] == 1
