"""Reconnects: a client that comes back asks for what it missed since event n and gets
exactly that, filtered for its seat; its seat and cards are as they were."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient
from server_helpers import Seat, create, join_all, play_out
from waits import Deadline


def test_reconnect_gets_exactly_the_missed_events(client: TestClient) -> None:
    table = create(client, "liar", [None, None, None], {"turn_limit": 120})
    tid = table["table_id"]
    tokens = join_all(client, table)
    seats = [Seat(client, tid, t) for t in tokens]
    # a second connection of seat 1 that never drops: the reference of what seat 1 sees
    steady = Seat(client, tid, tokens[1])
    client.post(f"/api/tables/{tid}/start", json={"token": tokens[0]})
    for s in [*seats, steady]:
        s.until_state(0)
    rng = random.Random(3)
    play_out(seats, rng, others=[steady], stop_after=10)
    dropped = seats[1]
    last_seen = max(m["n"] for m in dropped.events())
    dropped.close()
    # the game goes on without it: seat 1 acts through its steady connection
    play_out([seats[0], steady, seats[2]], rng, stop_after=15)
    back = Seat(client, tid, tokens[1], since=last_seen)
    assert back.seat == 1
    missed = [m for m in steady.events() if m["n"] > last_seen]
    assert missed and back.events() == missed
    assert back.state == steady.state  # the same view, the same hand
    # and a sync message asks again, from any number
    back.send({"type": "sync", "since": last_seen + 3})
    again = []
    deadline = Deadline("the state after a sync")
    while True:
        m = back.recv(deadline)
        if m["type"] == "state":
            break
        if m["type"] != "table":  # a presence update may arrive at any moment
            again.append(m)
    assert again == [m for m in missed if m["n"] > last_seen + 3]


def test_a_new_connection_without_since_gets_its_whole_visible_history(
        client: TestClient) -> None:
    table = create(client, "bluff", [None, None], {"max_cards": 2})
    tid = table["table_id"]
    tokens = join_all(client, table)
    seats = [Seat(client, tid, t) for t in tokens]
    client.post(f"/api/tables/{tid}/start", json={"token": tokens[0]})
    for s in seats:
        s.until_state(0)
    play_out(seats, random.Random(1), stop_after=6)
    fresh = Seat(client, tid, tokens[0])
    assert fresh.events() == seats[0].events()
    spectator = Seat(client, tid, None)
    assert [m["event"]["type"] for m in spectator.events()].count("hand_dealt") == 0
    assert all(e["event"].get("seat") in (None, 0) or e["event"]["type"] != "hand_dealt"
               for e in fresh.events())
