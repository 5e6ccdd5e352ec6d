"""Bot accounts and their API tokens (docs/bots.md), in one process: marking an account
a bot, tokens shown once and kept as SHA-256, scopes, revocation, the per-token rate,
the bot's events, and what a token (or a bot's session) may never do: play as a person,
act for another seat or read its cards, skip CSRF with a cookie, reach a log."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from bot_helpers import bearer, bot_account, new_token
from core_helpers import ManualClock
from fastapi.testclient import TestClient
from identity_helpers import Browser
from server_helpers import Seat, close_all, create, play_out, receive
from sqlalchemy import select
from test_leaks import check_no_leak
from waits import wait_for

from usotsuki.server.app import create_app
from usotsuki.server.auth import token_hash
from usotsuki.server.bot_inbox import BotInbox
from usotsuki.server.bot_tables import api_tokens, arena_seeks
from usotsuki.server.seating import Sitter, seated_table
from usotsuki.server.store import Store


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    the_store = Store(db_url)
    yield the_store
    the_store.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(clock: ManualClock) -> Iterator[TestClient]:
    with TestClient(create_app(bot_delay=0, clock=clock)) as c:
        yield c
        close_all()


def _other(c: TestClient) -> TestClient:
    """Another client of the same server: its own cookie jar (no cookie yet), its
    requests run on the server's event loop (as a real server's would)."""
    other = TestClient(c.app)
    other.portal = c.portal
    return other


def _advance(c: TestClient, clock: ManualClock, seconds: float) -> None:
    async def advance() -> None:
        clock.advance(seconds)
    c.portal.call(advance)  # type: ignore[union-attr]


def _read(c: TestClient, query: Any) -> list[Any]:
    store: Store = c.app.state.store  # type: ignore[attr-defined]

    def read() -> list[Any]:
        with store.engine.connect() as conn:
            return list(conn.execute(query).all())
    return c.portal.call(store.call, read)  # type: ignore[union-attr,no-any-return]


def test_a_token_is_shown_once_and_kept_as_its_sha256(store: Store) -> None:
    with TestClient(create_app(store=store, bot_delay=0)) as c:
        owner, token = bot_account(c, "Robo")
        assert token.startswith("usb_") and len(token) > 40
        listed = owner.client.get("/api/account/tokens").json()
        assert [t["label"] for t in listed] == ["tests"] and "token" not in listed[0]
        assert token not in str(listed)
        rows = _read(c, select(api_tokens))
        assert [r.token_hash for r in rows] == [token_hash(token)]
        assert token not in str([tuple(r) for r in rows])
        me = _other(c).get("/api/bot/me", headers=bearer(token))
        assert me.status_code == 200, me.text
        assert me.json() == {"id": owner.me["id"], "name": "Robo",
                             "scopes": ["challenge", "play"]}
        close_all()


def test_marking_a_bot_needs_an_account_that_never_played_as_a_person(
        client: TestClient) -> None:
    guest = Browser(client)
    refused = guest.send("POST", "/api/account/bot")
    assert refused.status_code == 409 and refused.json()["error"] == "not_account"
    person = Browser(_other(client))
    assert person.sign_up("Mika").status_code == 201
    table = create(_other(client), "bluff", [None, "random"])
    joined = person.send("POST", f"/api/invites/{table['invite']}/join", {"name": "Mika"})
    assert joined.status_code == 200
    refused = person.send("POST", "/api/account/bot")
    assert refused.status_code == 409 and refused.json()["error"] == "has_games"
    assert person.refresh()["bot"] is False
    made = person.send("POST", "/api/account/tokens", {"label": "x", "scopes": ["play"]})
    assert made.status_code == 403 and made.json()["error"] == "not_a_bot"


def test_a_bot_account_never_takes_a_seat_as_a_person(client: TestClient) -> None:
    owner, token = bot_account(client, "Robo")
    table = create(_other(client), "bluff", [None, None, "random"])
    public = _other(client).post("/api/tables", json={
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
        by_token = _other(client).request(method, path, json=body, headers=bearer(token))
        assert by_token.status_code == 403 and by_token.json()["error"] == "bot_account"
    seats = client.get(f"/api/tables/{table['table_id']}").json()["seats"]
    assert all(s["name"] is None or s["bot"] for s in seats)


def test_scopes_and_bad_tokens(client: TestClient) -> None:
    owner, token = bot_account(client, "Robo", scopes=("challenge",))
    anyone = _other(client)
    refused = anyone.get("/api/bot/events", headers=bearer(token))
    assert refused.status_code == 403 and refused.json()["error"] == "scope"
    assert refused.json()["params"] == {"scope": "play"}
    assert anyone.get("/api/bot/me", headers=bearer(token)).status_code == 200
    for headers in ({}, bearer("usb_nonsense"), bearer(""), {"Authorization": f"Basic {token}"},
                    {"Authorization": token}):
        answer = anyone.get("/api/bot/me", headers=headers)
        assert answer.status_code == 401 and answer.json()["error"] == "bad_token", headers
    # a person's session is no token
    person = Browser(_other(client))
    assert person.client.get("/api/bot/me").json()["error"] == "bad_token"
    bad = owner.send("POST", "/api/account/tokens", {"label": "x", "scopes": ["admin"]})
    assert bad.status_code == 422
    too_fast = owner.send("POST", "/api/account/tokens",
                          {"label": "x", "scopes": ["play"], "per_minute": 121})
    assert too_fast.status_code == 400


def test_a_revoked_token_is_refused_at_once(client: TestClient) -> None:
    owner, token = bot_account(client, "Robo")
    other = new_token(owner, label="spare")
    bot = _other(client)
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
    thief = Browser(_other(client))
    thief.sign_up("Thief")
    spare = next(t["id"] for t in owner.client.get("/api/account/tokens").json())
    assert thief.send("DELETE", f"/api/account/tokens/{spare}").status_code == 404
    assert bot.get("/api/bot/me", headers=bearer(other)).status_code == 200


def test_a_token_cannot_exceed_its_rate(client: TestClient, clock: ManualClock) -> None:
    owner, token = bot_account(client, "Robo", per_minute=3)
    spare = new_token(owner, per_minute=3, label="spare")
    bot = _other(client)
    for _ in range(3):
        assert bot.get("/api/bot/me", headers=bearer(token)).status_code == 200
    refused = bot.get("/api/bot/events", headers=bearer(token))
    assert refused.status_code == 429 and refused.json()["error"] == "too_many_requests"
    assert refused.json()["params"]["max"] == 3
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert bot.get("/api/bot/me", headers=bearer(spare)).status_code == 200  # its own count
    _advance(client, clock, 30)
    assert bot.get("/api/bot/me", headers=bearer(token)).status_code == 429
    _advance(client, clock, 31)  # the first three left the window
    assert bot.get("/api/bot/me", headers=bearer(token)).status_code == 200


def test_a_token_needs_no_csrf_but_a_cookie_still_does(client: TestClient) -> None:
    owner, token = bot_account(client, "Robo")
    table = create(_other(client), "bluff", [None, "random"])
    # the bot's own browser, cookie and token together, without the CSRF token: refused
    # before the route runs (a cookie always needs its CSRF token)
    mixed = owner.client.post(f"/api/invites/{table['invite']}/join",
                              json={"name": "Robo"}, headers=bearer(token))
    assert mixed.status_code == 403 and mixed.json()["error"] == "csrf"
    # cookie-less with the token: no CSRF asked (the route then refuses a bot's seat)
    bare = _other(client).post(f"/api/invites/{table['invite']}/join",
                               json={"name": "Robo"}, headers=bearer(token))
    assert bare.status_code == 403 and bare.json()["error"] == "bot_account"
    # token management is the session's, with its CSRF token
    no_csrf = owner.client.post("/api/account/tokens", json={"label": "x", "scopes": ["play"]})
    assert no_csrf.status_code == 403 and no_csrf.json()["error"] == "csrf"
    by_token = _other(client).post("/api/account/tokens", headers=bearer(token),
                                   json={"label": "x", "scopes": ["play"]})
    assert by_token.status_code == 401 and by_token.json()["error"] == "no_player"


def _notify(c: TestClient, player_id: str, body: dict[str, Any]) -> int:
    inbox: BotInbox = c.app.state.bot_inbox  # type: ignore[attr-defined]
    return c.portal.call(inbox.notify, player_id, body)  # type: ignore[union-attr,no-any-return]


def test_events_wait_for_the_next_and_keep_a_seek_alive(client: TestClient,
                                                         clock: ManualClock) -> None:
    owner, token = bot_account(client, "Robo")
    bot, me = _other(client), owner.me["id"]
    assert bot.get("/api/bot/events", headers=bearer(token)).json() == {"events": [],
                                                                         "next": 0}
    first = _notify(client, me, {"type": "challenge", "id": "c1"})
    _notify(client, "someone else", {"type": "challenge", "id": "c0"})
    read = bot.get("/api/bot/events?after=0", headers=bearer(token)).json()
    assert read == {"events": [{"n": first, "type": "challenge", "id": "c1"}], "next": first}
    got: list[Any] = []
    waiting = threading.Thread(target=lambda: got.append(bot.get(
        f"/api/bot/events?after={first}&wait=20", headers=bearer(token)).json()))
    waiting.start()
    inbox: BotInbox = client.app.state.bot_inbox  # type: ignore[attr-defined]
    wait_for(lambda: me in inbox._waits, "the request waiting")
    second = _notify(client, me, {"type": "game", "table_id": "t"})
    waiting.join(10)
    assert got == [{"events": [{"n": second, "type": "game", "table_id": "t"}],
                    "next": second}]
    too_long = bot.get("/api/bot/events?wait=31", headers=bearer(token))
    assert too_long.status_code == 422
    # polling marks the bot's arena seek seen
    store: Store = client.app.state.store  # type: ignore[attr-defined]

    def seek() -> None:
        with store.engine.begin() as conn:
            conn.execute(arena_seeks.insert().values(
                player_id=me, game="bluff", players=2, preset="standard", rated=True,
                name="Robo", since=0.0, seen=0.0))
    client.portal.call(store.call, seek)  # type: ignore[union-attr]
    _advance(client, clock, 5)
    bot.get("/api/bot/events", headers=bearer(token))
    assert _read(client, select(arena_seeks.c.seen)) == [(clock.now,)]


def test_a_bots_seat_is_its_own_and_sees_its_own_cards_only(client: TestClient) -> None:
    """A bot plays the seat a ``game`` event gives it, through the seat token's WebSocket
    (as people do): its API token opens no seat, it cannot act for the seat to move, and
    no other seat's hidden card reaches it."""
    owner, token = bot_account(client, "Robo")
    me, person = owner.me["id"], Browser(_other(client)).me["id"]
    lobby = client.app.state.lobby  # type: ignore[attr-defined]

    async def seat_them() -> tuple[str, dict[str, tuple[int, str]]]:
        table, seats = await seated_table(lobby, "bluff", {
            "players": 2, "rules": {"max_cards": 3}, "games": 1, "visibility": "public",
            "chat": False, "hints": False}, [Sitter(me, "Robo"), Sitter(person, "Mika")])
        return table.public_id, seats
    table_id, seats = client.portal.call(seat_them)  # type: ignore[union-attr]
    seat, seat_token = seats[me]
    _notify(client, me, {"type": "game", "table_id": table_id, "seat": seat,
                         "token": seat_token, "game": "bluff", "rated": False,
                         "arena": False})
    event = _other(client).get("/api/bot/events", headers=bearer(token)).json()["events"][0]
    with _other(client).websocket_connect(f"/ws/tables/{table_id}?token={token}") as ws:
        assert receive(ws)["code"] == "forbidden"  # the API token holds no seat
    mine = Seat(_other(client), event["table_id"], event["token"])
    theirs = Seat(_other(client), table_id, seats[person][1])
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


def test_one_wait_per_request_is_woken(clock: ManualClock) -> None:
    """Two waits of one bot (two connections) are both woken by its event."""
    async def scenario() -> list[list[dict[str, Any]]]:
        store = Store(":memory:")
        inbox = BotInbox(store, clock)
        try:
            waits = [asyncio.create_task(inbox.wait("b", 0, 10)) for _ in range(2)]
            while len(inbox._waits.get("b", ())) < 2:
                await asyncio.sleep(0.01)
            await inbox.notify("b", {"type": "game"})
            return list(await asyncio.gather(*waits))
        finally:
            store.close()
    first, second = asyncio.run(scenario())
    assert first == second == [{"n": 1, "type": "game"}]
