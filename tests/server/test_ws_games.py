"""WebSocket play: whole games with several clients, refusals that change nothing,
malformed messages that leave the connection usable, limits, turn timers."""

from __future__ import annotations

import json
import random
import time

import pytest
from fastapi.testclient import TestClient
from server_helpers import Seat, close_all, create, join_all, play_out, receive
from waits import Deadline

from usotsuki.replay import replay_record
from usotsuki.server.app import create_app


def start_people(c: TestClient, game: str, players: int, rules: dict[str, object] | None = None,
                 games: int = 1) -> tuple[str, list[str], list[Seat]]:
    table = create(c, game, [None] * players, rules, games)
    tokens = join_all(c, table)
    seats = [Seat(c, table["table_id"], t) for t in tokens]
    r = c.post(f"/api/tables/{table['table_id']}/start", json={"token": tokens[0]})
    assert r.status_code == 200
    for s in seats:
        s.until_state(0)
    return table["table_id"], tokens, seats


@pytest.mark.parametrize("game,players,rules,games", [
    ("bluff", 4, {"max_cards": 3}, 1),
    ("liar", 4, {}, 1),
    ("liar", 3, {"multi": True, "revolution": True, "jack_back": True, "classes": True,
                 "turn_limit": 80}, 2),
])
def test_whole_game_with_several_clients(client: TestClient, game: str, players: int,
                                         rules: dict[str, object], games: int) -> None:
    tid, _, seats = start_people(client, game, players, rules, games)
    watcher = Seat(client, tid, None)
    actions = play_out(seats, random.Random(5), others=[watcher])
    assert actions > 0
    for s in [*seats, watcher]:
        assert s.state is not None and s.state["status"] == "finished"
    record = client.get(f"/api/tables/{tid}/games/0/record").json()
    report = replay_record(record)
    assert report["ok"] and report["finished"]
    # the actions each seat saw confirmed are the record's, in order
    logged = [a for g in record.get("rounds", record.get("games", [])) for a in g["actions"]]
    assert len(logged) == actions
    if game == "bluff":  # Bluff actions are public: everyone saw each one
        seen = [m["event"]["action"] for m in watcher.events()
                if m["event"]["type"] == "action"]
        assert seen == logged
    for s in seats:
        s.close()
    watcher.close()


def test_out_of_turn_and_illegal_actions_change_nothing(client: TestClient) -> None:
    tid, _, seats = start_people(client, "bluff", 3)
    state = seats[0].state
    assert state is not None
    mover = state["to_move"]
    other = seats[(mover + 1) % 3]
    before = len(client.get(f"/api/tables/{tid}").json()["seats"])
    other.send({"type": "act", "action": "card 2", "id": "x"})
    err = other.until("error")
    assert err["code"] == "not_your_turn" and err["id"] == "x"
    actor = seats[mover]
    for text, code in [("card 22", "illegal"), ("fold", "illegal"), ("challenge", "illegal"),
                       ("", "bad_action")]:
        actor.send({"type": "act", "action": text, "id": 1})
        err = actor.until("error")
        assert err["code"] == code and err["message"], text
    actor.send({"type": "act", "action": 7, "id": 2})
    assert actor.until("error")["code"] == "bad_action"
    # nothing happened: no event since, and the same seat is still to move
    actor.send({"type": "sync", "since": state["n"]})
    synced = actor.until("state")
    assert synced["n"] == state["n"] and synced["to_move"] == mover
    assert not [m for m in actor.messages if m["type"] == "event" and m["n"] > state["n"]]
    assert before == 3
    actor.send({"type": "act", "action": "CARD 3", "id": 3})
    ack = actor.until("ack")
    assert ack["action"] == "card 3" and ack["n"] > state["n"]


def test_an_action_sent_again_with_its_key_is_acknowledged_once(client: TestClient) -> None:
    # A client that missed an action's answer (its server went away) sends it again with
    # the same key: the action made already is acknowledged, nothing is made twice, and
    # nothing is refused as illegal. Another key is another action (refused here).
    tid, _, seats = start_people(client, "bluff", 3)
    state = seats[0].state
    assert state is not None
    actor = seats[state["to_move"]]
    key = f"{state['n']}:card 3"
    actor.send({"type": "act", "action": "card 3", "id": 1, "key": key})
    first = actor.until("ack")
    actor.send({"type": "act", "action": "card 3", "id": 2, "key": key})
    again = actor.until_any()
    assert again == {"type": "ack", "id": 2, "action": "card 3", "n": first["n"]}
    actor.send({"type": "act", "action": "card 3", "id": 3, "key": "another"})
    assert actor.until_any()["code"] in ("not_your_turn", "illegal")
    actor.send({"type": "act", "action": "card 3", "id": 4, "key": ["not", "a", "key"]})
    assert actor.until_any()["code"] == "bad_message"
    actions = [m for m in actor.events() if m["event"]["type"] == "action"]
    assert [m["event"]["action"] for m in actions] == ["card 3"]  # made once
    record = client.get(f"/api/tables/{tid}").json()
    assert record["status"] == "playing"


def test_malformed_messages_get_errors_and_the_connection_stays_usable(
        client: TestClient) -> None:
    tid, _, seats = start_people(client, "liar", 2)
    s = seats[0]
    cases = [("{not json", "bad_json"), ("[1, 2]", "bad_message"), ("42", "bad_message"),
             (json.dumps({"type": "dance"}), "unknown_type"), (json.dumps({}), "unknown_type"),
             (json.dumps({"type": "sync", "since": "x"}), "bad_message"),
             ('{"type": "sync", "since": NaN}', "bad_json"),  # not JSON (RFC 8259)
             (json.dumps({"type": "ping", "id": {"a": 1}}), "bad_message"),
             ("x" * 5000, "too_large")]
    for text, code in cases:
        s.ws.send_text(text)
        err = s.until("error")
        assert err["code"] == code, text
        assert isinstance(err["message"], str) and err["message"]
    s.ws.send_bytes(b"\x00\x01")
    assert s.until("error")["code"] == "bad_message"
    s.send({"type": "ping", "id": 9})
    assert s.until("pong") == {"type": "pong", "id": 9}
    spectator = Seat(client, tid, None)
    spectator.send({"type": "act", "action": "pass"})
    assert spectator.until("error")["code"] == "spectator"
    spectator.send({"type": "ping"})
    assert spectator.until("pong")["type"] == "pong"


def test_unknown_table_and_forged_token_are_refused(client: TestClient) -> None:
    table = create(client, "bluff", [None, None])
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert receive(ws)["code"] == "not_found"
    with client.websocket_connect(f"/ws/tables/{table['table_id']}?token=guess") as ws:
        assert receive(ws)["code"] == "forbidden"
    # the host token runs the table but holds no seat: it plays nothing
    with client.websocket_connect(
            f"/ws/tables/{table['table_id']}?token={table['host_token']}") as ws:
        assert receive(ws)["code"] == "forbidden"


def test_rate_limit_per_connection() -> None:
    now = [1000.0]  # the rate limit's clock: moved by the test, never slept on
    with TestClient(create_app(bot_delay=0, rate_limit=(1.0, 5.0),
                               monotonic=lambda: now[0])) as c:
        table = create(c, "bluff", [None, None])
        s = Seat(c, table["table_id"], join_all(c, table)[0])
        for i in range(8):
            s.send({"type": "ping", "id": i})
        replies = [s.until_any() for _ in range(8)]
        assert [r["type"] for r in replies].count("pong") == 5
        assert [r["code"] for r in replies if r["type"] == "error"] == ["rate_limited"] * 3
        now[0] += 1.0  # a second later the bucket has refilled one message
        s.send({"type": "ping", "id": "again"})
        assert s.until_any() == {"type": "pong", "id": "again"}
        close_all()


def test_turn_timer_lets_a_bot_play_for_an_absent_person() -> None:
    with TestClient(create_app(bot_delay=0, turn_seconds=0.05)) as c:
        table = create(c, "bluff", [None, None, "random"], {"max_cards": 1})
        tokens = join_all(c, table)
        c.post(f"/api/tables/{table['table_id']}/start", json={"token": tokens[0]})
        deadline = time.monotonic() + 20
        while c.get(f"/api/tables/{table['table_id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "nobody played for the absent people"
            time.sleep(0.02)
        record = c.get(f"/api/tables/{table['table_id']}/games/0/record").json()
        assert replay_record(record)["finished"]


def test_bots_wait_their_delay() -> None:
    with TestClient(create_app(bot_delay=0.3)) as c:
        table = create(c, "bluff", [None, "random"], {"max_cards": 1, "dealer": 0})
        token = join_all(c, table)[0]
        seat = Seat(c, table["table_id"], token)
        t0 = time.monotonic()
        c.post(f"/api/tables/{table['table_id']}/start", json={"token": token})
        # dealer 0: the bot at seat 1 calls first (B4), after its delay
        deadline = Deadline("the bot's first action")
        message = seat.recv(deadline)
        while message["type"] != "event" or message["event"]["type"] != "action":
            message = seat.recv(deadline)
        assert time.monotonic() - t0 >= 0.25
        close_all()


def test_hints_only_for_sockets_that_show_them(client: TestClient) -> None:
    """The honest hint costs milliseconds: a socket's states carry it only once it asks
    (``hints`` message, or ``hints=1`` when connecting), for the seat to move."""
    tid, tokens, seats = start_people(client, "bluff", 3)
    state = seats[0].state
    assert state is not None
    first = seats[state["to_move"]]
    first.send({"type": "act", "action": "card 2", "id": 1})
    first.until("ack")
    judge = seats[(state["to_move"] + 1) % 3]
    after = judge.until_state(state["n"] + 1)
    assert after["to_move"] == judge.seat and "challenge" in after["legal"]
    assert after["hint"] is None  # not asked for
    judge.send({"type": "hints", "on": True})
    shown = judge.until("state")
    assert shown["hint"] is not None and 0 <= shown["hint"]["odds"] <= 1
    judge.send({"type": "hints", "on": "yes"})
    assert judge.until("error")["code"] == "bad_message"
    judge.send({"type": "hints", "on": False})
    assert judge.until("state")["hint"] is None
    # Asked for when connecting: the same hint; a seat not to move never gets one.
    again = Seat(client, tid, tokens[judge.seat], since=10**6)
    other = Seat(client, tid, tokens[first.seat], since=10**6)
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[judge.seat]}"
                                  f"&since={10**6}&hints=1") as ws:
        deadline = Deadline("the first state of a socket with hints=1")
        assert receive(ws, deadline)["type"] == "welcome"
        message = receive(ws, deadline)
        while message["type"] != "state":
            message = receive(ws, deadline)
        assert message["hint"] == shown["hint"]
    assert again.state is not None and again.state["hint"] is None
    other.send({"type": "hints", "on": True})
    assert other.until("state")["hint"] is None
    for s in [*seats, again, other]:
        s.close()


def test_batch_frames_carry_the_same_messages_in_order(client: TestClient) -> None:
    """``batch=1``: what is queued together (an action's events and state) comes in one
    ``batch`` frame; unpacked, the same messages in the same order as one by one."""
    tid, tokens, seats = start_people(client, "bluff", 3)
    state = seats[0].state
    assert state is not None
    mover = state["to_move"]
    plain = Seat(client, tid, tokens[mover], since=state["n"])
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[mover]}"
                                  f"&since={state['n']}&batch=1") as ws:
        deadline = Deadline("the first state of a socket with batch=1")
        frames = [receive(ws, deadline)]
        while frames[-1].get("type") != "state" and not any(
                m["type"] == "state" for m in frames[-1].get("messages", ())):
            frames.append(receive(ws, deadline))
        seats[mover].send({"type": "act", "action": "card 3", "id": 7})
        after = seats[mover].until("ack")["n"]
        plain.until_state(after)
        deadline = Deadline(f"state {after} in a batch frame")
        while not any(m["type"] == "state" and m["n"] >= after
                      for m in frames[-1].get("messages", [frames[-1]])):
            frames.append(receive(ws, deadline))
        ws.send_json({"type": "act", "action": "challenge", "id": 8})  # not its turn now
        error = receive(ws)
    assert error["type"] == "error" and error["code"] == "not_your_turn"
    unpacked = [m for f in frames for m in (f["messages"] if f["type"] == "batch" else [f])]
    assert any(f["type"] == "batch" for f in frames)
    # The plain socket saw the same (the ack went to the acting socket: in neither).
    seen = [m for m in plain.messages if m["type"] != "table"]
    assert [m for m in unpacked if m["type"] != "table"] == seen
    for s in [*seats, plain]:
        s.close()
