"""Tables people control: the rematch offer every person accepts (bots accept; declined;
lapsed), resigning and leaving with a bot playing on (announced; last place in a rated
game), the host removing a seat before the start, hints off by the host's choice."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import Seat, close_all, create, join_all

from usotsuki.server.app import create_app
from usotsuki.server.config import Settings
from usotsuki.server.control import next_seats, persons
from usotsuki.server.history import places, seat_results
from usotsuki.server.store import SeatRow


def app_client(**settings: Any) -> TestClient:
    return TestClient(create_app(bot_delay=0, rate_limit=(1000.0, 1000.0),
                                 settings=Settings(bot_delay=0, **settings)))


@pytest.fixture
def lapsing() -> Iterator[TestClient]:
    """A server whose rematch offers lapse at once."""
    with app_client(rematch_seconds=0.0) as c:
        yield c
        close_all()


def post(c: TestClient, tid: str, path: str, token: str) -> Any:
    return c.post(f"/api/tables/{tid}/{path}", json={"token": token})


def finished_by_resigning(c: TestClient) -> tuple[str, list[Any], list[Seat]]:
    """Two people and a bot; both resign, the bots play the game to its end."""
    table = create(c, "bluff", [None, None, "random"], {"max_cards": 2})
    tid = table["table_id"]
    tokens = join_all(c, table)
    assert post(c, tid, "start", tokens[0]).status_code == 200
    seats = [Seat(c, tid, tokens[0]), Seat(c, tid, tokens[1])]
    for token in tokens[:2]:
        assert post(c, tid, "resign", token).status_code == 204
    seats[0].until_finished()
    return tid, tokens, seats


def state_where(seat: Seat, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first state (read from now on, or the last read) that passes ``test``."""
    state = seat.state
    while state is None or not test(state):
        state = seat.until("state")
    return state


def events(seat: Seat, kind: str) -> list[dict[str, Any]]:
    return [m["event"] for m in seat.events() if m["event"]["type"] == kind]


def test_a_rematch_starts_once_every_person_accepted(client: TestClient) -> None:
    tid, tokens, seats = finished_by_resigning(client)
    assert [e["change"] for e in events(seats[0], "seat")] == ["resigned", "resigned"]
    assert all(e["bot"] for e in events(seats[0], "seat"))  # the bot playing on, named
    first = post(client, tid, "rematch", tokens[0])
    assert first.status_code == 200 and first.json() == {"game_number": None}
    offer = state_where(seats[1], lambda s: s["rematch"] is not None)["rematch"]
    assert offer["by"] == 0 and offer["accepted"] == [0] and offer["waiting"] == [1]
    assert 0 < offer["left"] <= Settings().rematch_seconds
    # said again: nothing more
    assert post(client, tid, "rematch", tokens[0]).json() == {"game_number": None}
    assert client.get(f"/api/tables/{tid}").json()["status"] == "finished"
    second = post(client, tid, "rematch", tokens[1])
    assert second.json() == {"game_number": 1}
    info = client.get(f"/api/tables/{tid}").json()
    # the people who resigned play again; the bot was never asked
    assert info["status"] == "playing"
    assert [s["bot"] for s in info["seats"]][:2] == [None, None]
    assert [e["answer"] for e in events(seats[1], "rematch")] == ["offer"]


def test_a_decline_withdraws_the_offer(client: TestClient) -> None:
    tid, tokens, seats = finished_by_resigning(client)
    post(client, tid, "rematch", tokens[0])
    declined = post(client, tid, "rematch/decline", tokens[1])
    assert declined.status_code == 204
    state_where(seats[0], lambda s: s["rematch"] is not None)
    state_where(seats[0], lambda s: s["rematch"] is None)
    assert [(e["seat"], e["answer"]) for e in events(seats[0], "rematch")] == [
        (0, "offer"), (1, "decline")]
    again = post(client, tid, "rematch/decline", tokens[1])
    assert again.status_code == 409 and again.json()["error"] == "no_offer"
    # an acceptance now is a new offer, not a start
    assert post(client, tid, "rematch", tokens[1]).json() == {"game_number": None}
    assert client.get(f"/api/tables/{tid}").json()["status"] == "finished"


def test_an_offer_lapses(lapsing: TestClient) -> None:
    tid, tokens, seats = finished_by_resigning(lapsing)
    post(lapsing, tid, "rematch", tokens[0])
    # the first offer lapsed: this acceptance offers anew, and starts nothing
    assert post(lapsing, tid, "rematch", tokens[1]).json() == {"game_number": None}
    answers = [(e["seat"], e["answer"]) for e in events(seats[0], "rematch")]
    while len(answers) < 2:
        seats[0].recv()
        answers = [(e["seat"], e["answer"]) for e in events(seats[0], "rematch")]
    assert answers == [(0, "offer"), (1, "offer")]
    assert seats[0].state is not None and seats[0].state["rematch"] is None


def test_bots_accept_one_person_with_bots_plays_again_at_once(client: TestClient) -> None:
    table = create(client, "bluff", [None, "random", "random"], {"max_cards": 2})
    tid = table["table_id"]
    (token, _, _) = join_all(client, table)
    post(client, tid, "start", token)
    seat = Seat(client, tid, token)
    post(client, tid, "resign", token)
    seat.until_finished()
    assert post(client, tid, "rematch", token).json() == {"game_number": 1}


def test_a_resigned_person_watches_and_cannot_act(client: TestClient) -> None:
    table = create(client, "liar", [None, None])
    tid = table["table_id"]
    tokens = join_all(client, table)
    post(client, tid, "start", tokens[0])
    seat = Seat(client, tid, tokens[0])
    assert post(client, tid, "resign", tokens[0]).status_code == 204
    again = post(client, tid, "resign", tokens[0])
    assert again.status_code == 409 and again.json()["error"] == "resigned"
    info = client.get(f"/api/tables/{tid}").json()
    assert info["seats"][0]["bot"] is not None and info["seats"][0]["name"] == "p0"
    seat.send({"type": "act", "action": "pass", "id": 1})
    refused = seat.until_any()
    assert refused["type"] == "error" and refused["code"] in ("resigned", "not_your_turn")
    # the seat still shows its own hand to its person (a view, not a bot's secret leak)
    assert seat.state is not None and seat.state["view"]["hand"] is not None


def test_resign_needs_a_game_in_play(client: TestClient) -> None:
    table = create(client, "bluff", [None, "random"])
    (token, _) = join_all(client, table)
    refused = post(client, table["table_id"], "resign", token)
    assert refused.status_code == 409 and refused.json()["error"] == "no_game"


def test_a_leave_mid_game_is_announced(client: TestClient) -> None:
    table = create(client, "bluff", [None, None, "random"], {"max_cards": 2})
    tid = table["table_id"]
    tokens = join_all(client, table)
    post(client, tid, "start", tokens[0])
    watcher = Seat(client, tid, tokens[1])
    assert post(client, tid, "leave", tokens[0]).status_code == 204
    while not events(watcher, "seat"):
        watcher.recv()
    [left] = events(watcher, "seat")
    assert left["seat"] == 0 and left["change"] == "left" and left["bot"]


def test_the_host_removes_a_seat_before_the_start(client: TestClient) -> None:
    table = create(client, "bluff", [None, None, "random"])
    tid, host = table["table_id"], table["host_token"]
    tokens = join_all(client, table)
    watcher = Seat(client, tid, None)
    stranger = post(client, tid, "seats/1/remove", tokens[0])
    assert stranger.status_code == 403
    assert post(client, tid, "seats/1/remove", host).status_code == 204
    info = client.get(f"/api/tables/{tid}").json()
    assert info["seats"][1]["taken"] is False and info["seats"][1]["name"] is None
    # the removed person's token holds nothing; the seat is free for someone else
    assert post(client, tid, "leave", tokens[1]).status_code == 403
    free = post(client, tid, "seats/1/remove", host)
    assert free.status_code == 409 and free.json()["error"] == "seat_free"
    assert post(client, tid, "seats/2/remove", host).status_code == 204  # a bot too
    while len(events(watcher, "seat")) < 2:
        watcher.recv()
    assert [(e["seat"], e["change"]) for e in events(watcher, "seat")] == [
        (1, "removed"), (2, "removed")]
    again = client.post(f"/api/invites/{table['invite']}/join", json={"name": "Rin", "seat": 1})
    assert again.status_code == 200
    bot = client.post(f"/api/invites/{table['invite']}/join", json={"name": "Sho", "seat": 2})
    assert bot.status_code == 200
    post(client, tid, "start", host)
    late = post(client, tid, "seats/1/remove", host)
    assert late.status_code == 409 and late.json()["error"] == "started"


def test_hints_off_by_the_hosts_choice(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "bluff", "rules": {}, "hints": False,
                                         "seats": [{"bot": None}, {"bot": "random"}]})
    table = r.json()
    assert table["table"]["hints"] is False
    (token, _) = join_all(client, table)
    seat = Seat(client, table["table_id"], token)
    seat.send({"type": "hints", "on": True, "id": 7})
    refused = seat.until_any()
    assert refused["code"] == "no_hints" and refused["id"] == 7
    assert refused["params"] == {"rated": False}
    on = create(client, "bluff", [None, "random"])
    assert on["table"]["hints"] is True


def test_next_seats_give_a_resigner_the_seat_back_and_a_leavers_bot_its_own() -> None:
    seats = [SeatRow(0, "Ann", "h0", "normal", "p-ann"),  # resigned
             SeatRow(1, "Bob", None, "normal", "p-bob"),  # left
             SeatRow(2, None, None, "random", "bot:bluff:random"),
             SeatRow(3, "Cy", "h3", None, "p-cy")]
    rows = next_seats(seats, lambda level: f"bot:bluff:{level}")
    assert rows == [SeatRow(0, "Ann", "h0", None, "p-ann"),
                    SeatRow(1, None, None, "normal", "bot:bluff:normal"), seats[2], seats[3]]
    assert persons(seats) == [0, 3]


def test_a_resigner_of_a_rated_game_places_last() -> None:
    seats = [SeatRow(0, "Ann", "h0", "normal", "p-ann"), SeatRow(1, "Bob", "h1", None, "p-bob"),
             SeatRow(2, None, None, "random", "bot:bluff:random")]
    results = seat_results(seats, ["Ann", "Bob", "Hana"], ((0,), (2,), (1,)), rated=True)
    assert [(r.place, r.left) for r in results] == [(3, True), (2, False), (1, False)]
    assert places(((0,), (2,), (1,)), 3) == [1, 3, 2]
