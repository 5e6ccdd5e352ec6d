"""A Bluff table with a short deck (RULES.md B13, option ``ranks``) over HTTP and WebSocket."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from server_helpers import Seat, create, join_all, play_out

from usotsuki.replay import replay_record

DECK_6 = {r + s for r in "9TJQKA" for s in "SHDC"}  # B13: ranks 6 is 9 to A


def test_b13_a_ranks_6_table_plays_the_short_deck_to_the_end(client: TestClient) -> None:
    table = create(client, "bluff", [None, None, None], {"ranks": 6, "max_cards": 2})
    assert table["table"]["rules"] == {"ranks": 6, "max_cards": 2}
    tid = table["table_id"]
    tokens = join_all(client, table)
    seats = [Seat(client, tid, t) for t in tokens]
    assert client.post(f"/api/tables/{tid}/start", json={"token": tokens[0]}).status_code == 200
    for s in seats:
        s.until_state(0)
    first = seats[0].state
    assert first is not None and first["view"]["ranks"] == 6
    assert set(first["view"]["hand"]) <= DECK_6
    legal = next(s.state["legal"] for s in seats if s.state and s.state["legal"])
    assert len(legal) == 77 and "card 8" not in legal  # B13: the deck's calls only
    mover = next(s for s in seats if s.state and s.state["legal"])
    mover.send({"type": "act", "action": "pair 7", "id": "x"})
    assert mover.until("error")["code"] == "illegal"  # refused like any unknown call
    assert play_out(seats, random.Random(3)) > 0
    record = client.get(f"/api/tables/{tid}/games/0/record").json()
    assert record["rules"] == {"max_cards": 2, "dealer": 0, "ranks": 6}
    assert all(set(hand) <= DECK_6 for rnd in record["rounds"] for hand in rnd["hands"])
    report = replay_record(record)
    assert report["ok"] and report["finished"]
    for s in seats:
        s.close()


def test_b13_a_bot_table_on_a_four_rank_deck_finishes(client: TestClient) -> None:
    table = create(client, "bluff", ["normal", "hard", "expert"], {"ranks": 4, "max_cards": 2})
    tid = table["table_id"]
    watcher = Seat(client, tid, None)
    client.post(f"/api/tables/{tid}/start", json={"token": table["host_token"]})
    watcher.until_finished()
    calls = [m["event"]["action"] for m in watcher.events() if m["event"]["type"] == "action"]
    assert calls and all(a == "challenge" or set(a.split()[1:]) <= set("JQKA") for a in calls)
    record = client.get(f"/api/tables/{tid}/games/0/record").json()
    assert record["rules"]["ranks"] == 4 and replay_record(record)["finished"]
    watcher.close()


@pytest.mark.parametrize("rules,fragment", [
    ({"ranks": 1}, "ranks"), ({"ranks": 14}, "ranks"), ({"ranks": "6"}, "ranks"),
    ({"ranks": 2, "max_cards": 3}, "B2"),
])
def test_b13_bad_ranks_are_refused_clearly(client: TestClient, rules: dict[str, object],
                                           fragment: str) -> None:
    r = client.post("/api/tables", json={"game": "bluff", "seats": [{}, {}, {}],
                                         "rules": rules})
    assert r.status_code == 400 and fragment in r.json()["message"]
