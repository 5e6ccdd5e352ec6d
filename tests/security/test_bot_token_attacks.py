"""Attacks with bot tokens (docs/bots.md): a bot account or its token taking a seat as a
person, forged, malformed, revoked and out-of-scope tokens, a token over its rate, CSRF
with and without the cookie, and a bot's seat acting for another or reading its cards.
(Across a cluster's workers: tests/server/test_bot_cluster.py.)"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from bot_helpers import advance, bearer, bot_account, new_token, notify, other_client, served
from fastapi.testclient import TestClient
from identity_helpers import Browser
from server_helpers import Seat, create, play_out, receive
from test_leaks import check_no_leak

from usotsuki.server.seating import Sitter, seated_table


@pytest.fixture
def client() -> Iterator[TestClient]:
    with served() as c:
        yield c


def test_a_bot_account_never_takes_a_seat_as_a_person(client: TestClient) -> None:
    owner, token = bot_account(client, "Robo")
    table = create(other_client(client), "bluff", [None, None, "random"])
    public = other_client(client).post("/api/tables", json={
        "game": "bluff", "seats": [{"bot": None}, {"bot": "random"}], "rules": {},
        "visibility": "public"}).json()
    tries = [("POST", f"/api/invites/{table['invite']}/join", {"name": "Robo"}),
             ("POST", f"/api/tables/{public['table_id']}/join", {"name": "Robo"}),
             ("POST", "/api/match", {"game": "bluff", "preset": "standard"})]
    for method, path, body in tries:
        by_session = owner.send(method, path, body)
        assert by_session.status_code == 403, (path, by_session.text)
        assert by_session.json()["error"] == "bot_account"
    for method, path, body in tries[:2]:  # the token: refused, never an anonymous seat
        by_token = other_client(client).request(method, path, json=body, headers=bearer(token))
        assert by_token.status_code == 403 and by_token.json()["error"] == "bot_account"
    seats = client.get(f"/api/tables/{table['table_id']}").json()["seats"]
    assert all(s["name"] is None or s["bot"] for s in seats)



def test_scopes_and_bad_tokens(client: TestClient) -> None:
    owner, token = bot_account(client, "Robo", scopes=("challenge",))
    anyone = other_client(client)
    refused = anyone.get("/api/bot/events", headers=bearer(token))
    assert refused.status_code == 403 and refused.json()["error"] == "scope"
    assert refused.json()["params"] == {"scope": "play"}
    assert anyone.get("/api/bot/me", headers=bearer(token)).status_code == 200
    for headers in ({}, bearer("usb_nonsense"), bearer(""), {"Authorization": f"Basic {token}"},
                    {"Authorization": token}):
        answer = anyone.get("/api/bot/me", headers=headers)
        assert answer.status_code == 401 and answer.json()["error"] == "bad_token", headers
    # a person's session is no token
    person = Browser(other_client(client))
    assert person.client.get("/api/bot/me").json()["error"] == "bad_token"
    bad = owner.send("POST", "/api/account/tokens", {"label": "x", "scopes": ["admin"]})
    assert bad.status_code == 422
    too_fast = owner.send("POST", "/api/account/tokens",
                          {"label": "x", "scopes": ["play"], "per_minute": 121})
    assert too_fast.status_code == 400



def test_a_revoked_token_is_refused_at_once(client: TestClient) -> None:
    owner, token = bot_account(client, "Robo")
    other = new_token(owner, label="spare")
    bot = other_client(client)
    assert bot.get("/api/bot/me", headers=bearer(token)).status_code == 200
    listed = owner.client.get("/api/account/tokens").json()
    first = next(t["id"] for t in listed if t["label"] == "tests")
    assert owner.send("DELETE", f"/api/account/tokens/{first}").status_code == 204
    refused = bot.get("/api/bot/me", headers=bearer(token))
    assert refused.status_code == 401 and refused.json()["error"] == "bad_token"
    assert bot.get("/api/bot/me", headers=bearer(other)).status_code == 200
    assert [t["label"] for t in owner.client.get("/api/account/tokens").json()] == ["spare"]
    again = owner.send("DELETE", f"/api/account/tokens/{first}")
    assert again.status_code == 404
    # another account cannot revoke this one's token
    thief = Browser(other_client(client))
    thief.sign_up("Thief")
    spare = next(t["id"] for t in owner.client.get("/api/account/tokens").json())
    assert thief.send("DELETE", f"/api/account/tokens/{spare}").status_code == 404
    assert bot.get("/api/bot/me", headers=bearer(other)).status_code == 200



def test_a_token_cannot_exceed_its_rate(client: TestClient) -> None:
    owner, token = bot_account(client, "Robo", per_minute=3)
    spare = new_token(owner, per_minute=3, label="spare")
    bot = other_client(client)
    for _ in range(3):
        assert bot.get("/api/bot/me", headers=bearer(token)).status_code == 200
    refused = bot.get("/api/bot/events", headers=bearer(token))
    assert refused.status_code == 429 and refused.json()["error"] == "too_many_requests"
    assert refused.json()["params"]["max"] == 3
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert bot.get("/api/bot/me", headers=bearer(spare)).status_code == 200  # its own count
    advance(client, 30)
    assert bot.get("/api/bot/me", headers=bearer(token)).status_code == 429
    advance(client, 31)  # the first three left the window
    assert bot.get("/api/bot/me", headers=bearer(token)).status_code == 200



def test_a_token_needs_no_csrf_but_a_cookie_still_does(client: TestClient) -> None:
    owner, token = bot_account(client, "Robo")
    table = create(other_client(client), "bluff", [None, "random"])
    # the bot's own browser, cookie and token together, without the CSRF token: refused
    # before the route runs (a cookie always needs its CSRF token)
    mixed = owner.client.post(f"/api/invites/{table['invite']}/join",
                              json={"name": "Robo"}, headers=bearer(token))
    assert mixed.status_code == 403 and mixed.json()["error"] == "csrf"
    # cookie-less with the token: no CSRF asked (the route then refuses a bot's seat)
    bare = other_client(client).post(f"/api/invites/{table['invite']}/join",
                               json={"name": "Robo"}, headers=bearer(token))
    assert bare.status_code == 403 and bare.json()["error"] == "bot_account"
    # token management is the session's, with its CSRF token
    no_csrf = owner.client.post("/api/account/tokens", json={"label": "x", "scopes": ["play"]})
    assert no_csrf.status_code == 403 and no_csrf.json()["error"] == "csrf"
    by_token = other_client(client).post("/api/account/tokens", headers=bearer(token),
                                   json={"label": "x", "scopes": ["play"]})
    assert by_token.status_code == 401 and by_token.json()["error"] == "no_player"



def test_a_bots_seat_is_its_own_and_sees_its_own_cards_only(client: TestClient) -> None:
    """A bot plays the seat a ``game`` event gives it, through the seat token's WebSocket
    (as people do): its API token opens no seat, it cannot act for the seat to move, and
    no other seat's hidden card reaches it."""
    owner, token = bot_account(client, "Robo")
    me, person = owner.me["id"], Browser(other_client(client)).me["id"]
    lobby = client.app.state.lobby  # type: ignore[attr-defined]

    async def seat_them() -> tuple[str, dict[str, tuple[int, str]]]:
        table, seats = await seated_table(lobby, "bluff", {
            "players": 2, "rules": {"max_cards": 3}, "games": 1, "visibility": "public",
            "chat": False, "hints": False}, [Sitter(me, "Robo"), Sitter(person, "Mika")])
        return table.public_id, seats
    table_id, seats = client.portal.call(seat_them)  # type: ignore[union-attr]
    seat, seat_token = seats[me]
    notify(client, me, {"type": "game", "table_id": table_id, "seat": seat,
                         "token": seat_token, "game": "bluff", "rated": False,
                         "arena": False})
    event = other_client(client).get("/api/bot/events", headers=bearer(token)).json()["events"][0]
    with other_client(client).websocket_connect(f"/ws/tables/{table_id}?token={token}") as ws:
        assert receive(ws)["code"] == "forbidden"  # the API token holds no seat
    mine = Seat(other_client(client), event["table_id"], event["token"])
    theirs = Seat(other_client(client), table_id, seats[person][1])
    assert (mine.seat, theirs.seat) == (seat, seats[person][0])
    rng = random.Random(3)
    if mine.state is not None and mine.state["to_move"] == mine.seat:
        assert play_out([mine, theirs], rng, stop_after=1) == 1
    mine.send({"type": "act", "action": "challenge"})  # the other seat is to move
    assert mine.until_any()["code"] == "not_your_turn"
    play_out([mine, theirs], rng)
    assert mine.state is not None and mine.state["status"] == "finished"
    check_no_leak(mine, [])
    views = [m["view"] for m in mine.messages if m["type"] == "state" and m["view"]]
    assert views and all(v["seat"] == seat for v in views)
