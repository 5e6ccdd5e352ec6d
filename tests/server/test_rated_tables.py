"""Rated tables (docs/ratings.md): agreed at creation (a person's seat and a turn clock
required), accounts only, hints off, shown in the table's summary; a rated game's end
moves its players' and bots' ratings, a leaver placing last; the leaderboard."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import close_all, receive
from sqlalchemy import select
from waits import GAME_S, wait_for

from usotsuki.server.app import create_app
from usotsuki.server.config import Settings
from usotsuki.server.identity import COOKIE
from usotsuki.server.player_tables import played_seats
from usotsuki.server.ratings import SETTLED_GAMES

PASSWORD = "a long enough password"


@pytest.fixture
def client() -> Iterator[TestClient]:
    # Bots at nice 10 rather than SCHED_IDLE: on a machine busy with other work an idle
    # class bot can starve until its deadline at every turn, and a game takes minutes.
    settings = Settings(bot_delay=0, bot_idle=False)
    with TestClient(create_app(settings=settings, rate_limit=(1000.0, 1000.0))) as c:
        yield c
        close_all()


@dataclass
class Browser:
    """One browser's session (the test client's cookie jar holds one at a time)."""

    c: TestClient
    token: str | None
    csrf: str | None
    id: str | None = None

    def use(self) -> dict[str, str]:
        """Make this browser's the cookie sent; its CSRF header."""
        self.c.cookies.clear()
        if self.token is None or self.csrf is None:
            return {}
        self.c.cookies.set(COOKIE, self.token, domain="testserver.local")
        return {"X-CSRF-Token": self.csrf}

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.c.post(path, json=body, headers=self.use())


def anonymous(c: TestClient) -> Browser:
    """A client with no session (an API call; seat tokens authorise it)."""
    return Browser(c, None, None)


def guest(c: TestClient) -> Browser:
    c.cookies.clear()
    me = c.get("/api/me").json()
    return Browser(c, c.cookies.get(COOKIE), me["csrf"], me["id"])


def account(c: TestClient, username: str) -> Browser:
    browser = guest(c)
    r = browser.post("/api/account/signup", {"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return Browser(c, c.cookies.get(COOKIE), r.json()["csrf"], r.json()["id"])


def rated_table(host: Browser, bots: list[str | None], game: str = "bluff",
                turn_seconds: float = 60) -> dict[str, Any]:
    """A rated table; Bluff games short (B2: one lost round puts a player out)."""
    rules = {"max_cards": 1} if game == "bluff" else {}
    r = host.post("/api/tables", {"game": game, "seats": [{"bot": b} for b in bots],
                                  "rules": rules, "rated": True,
                                  "turn_seconds": turn_seconds})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def join(browser: Browser, table: dict[str, Any], seat: int) -> str:
    r = browser.post(f"/api/invites/{table['invite']}/join", {"name": f"p{seat}",
                                                             "seat": seat})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def kept_seats(c: TestClient) -> list[Any]:
    """Read in the store's own thread: the in-memory database is one connection shared
    by every thread, and a read from this one could end (roll back) the transaction
    that keeps the game, half done."""
    store = c.app.state.store  # type: ignore[attr-defined]

    def read() -> list[Any]:
        with store.engine.connect() as conn:
            return list(conn.execute(select(played_seats).order_by(played_seats.c.seat)).all())

    return c.portal.call(store.call, read)  # type: ignore[union-attr,no-any-return]


def board(c: TestClient, game: str = "bluff") -> dict[str, Any]:
    r = c.get(f"/api/leaderboard/{game}?provisional=true")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


# agreed at creation

def test_a_rated_table_says_so_in_its_summary(client: TestClient) -> None:
    table = rated_table(account(client, "Mika"), [None, "random"])
    assert table["table"]["rated"] is True and table["table"]["turn_seconds"] == 60
    assert client.get(f"/api/tables/{table['table_id']}").json()["rated"] is True
    plain = anonymous(client).post("/api/tables", {"game": "bluff", "seats": [{"bot": None}] * 2})
    assert plain.json()["table"]["rated"] is False


def test_a_rated_table_needs_a_turn_clock(client: TestClient) -> None:
    r = anonymous(client).post("/api/tables", {"game": "liar", "seats": [{"bot": None}] * 2,
                                         "rated": True})
    assert r.status_code == 400
    assert r.json()["error"] == "bad_rated" and r.json()["params"] == {
        "needs": "turn_seconds"}
    r = anonymous(client).post("/api/tables", {"game": "liar", "seats": [{"bot": None}] * 2,
                                         "rated": True, "turn_seconds": None})
    assert r.json()["error"] == "bad_rated"


def test_a_table_of_bots_only_is_never_rated(client: TestClient) -> None:
    r = anonymous(client).post("/api/tables", {"game": "bluff", "rated": True, "turn_seconds": 30,
                                         "seats": [{"bot": "random"}, {"bot": "easy"}]})
    assert r.status_code == 400
    assert r.json()["error"] == "bad_rated" and r.json()["params"] == {"needs": "person"}


# accounts only

def test_a_guest_may_not_join_a_rated_table(client: TestClient) -> None:
    table = rated_table(account(client, "Mika"), [None, None])
    for browser in (guest(client), anonymous(client)):  # a guest; no session
        r = browser.post(f"/api/invites/{table['invite']}/join", {"name": "Ren"})
        assert r.status_code == 403, r.text
        assert r.json()["error"] == "account_required"
    assert all(not s["taken"] for s in client.get(
        f"/api/tables/{table['table_id']}").json()["seats"])


def test_an_account_holds_one_seat_at_a_rated_table(client: TestClient) -> None:
    mika = account(client, "Mika")
    table = rated_table(mika, [None, None, "random"])
    join(mika, table, 0)
    r = mika.post(f"/api/invites/{table['invite']}/join", {"name": "Mika again"})
    assert r.status_code == 409 and r.json()["error"] == "already_seated"
    join(account(client, "Ren"), table, 1)


# hints off

def test_a_rated_table_shows_no_hint(client: TestClient) -> None:
    mika, ren = account(client, "Mika"), account(client, "Ren")
    table = rated_table(mika, [None, None])
    tokens = [join(mika, table, 0), join(ren, table, 1)]
    r = mika.post(f"/api/tables/{table['table_id']}/start", {"token": tokens[0]})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    for token in tokens:  # each asks for hints from the start
        with client.websocket_connect(f"/ws/tables/{table['table_id']}?hints=true&token="
                                      f"{token}") as ws:
            assert ws.receive_json()["type"] == "welcome"
            state = receive_state(ws)
            if state["to_move"] == tokens.index(token):
                assert state["legal"] and state["hint"] is None
                ws.send_json({"type": "hints", "on": True, "id": 1})
                assert receive_state_or_error(ws)["code"] == "no_hints"
                return
    raise AssertionError("nobody was to move")


def receive_state(ws: Any) -> dict[str, Any]:
    while (message := receive(ws))["type"] != "state":
        pass
    out: dict[str, Any] = message
    return out


def receive_state_or_error(ws: Any) -> dict[str, Any]:
    while (message := receive(ws))["type"] not in ("state", "error"):
        pass
    out: dict[str, Any] = message
    return out


# a rated game's end

def test_a_rated_game_moves_both_accounts_and_the_bot(client: TestClient) -> None:
    """Two accounts and a bot; a short turn clock plays the people's turns (a bot plays
    each for them as it runs out), so the game runs to its end by itself."""
    mika, ren = account(client, "Mika"), account(client, "Ren")
    table = rated_table(mika, [None, None, "random"], turn_seconds=0.02)
    tokens = [join(mika, table, 0), join(ren, table, 1)]
    assert mika.post(f"/api/tables/{table['table_id']}/start",
                     {"token": tokens[0]}).status_code == 200
    seats = wait_for(lambda: [s for s in kept_seats(client) if s.rating_after is not None],
                     "the rated game kept and rated", GAME_S)
    assert [s.player_id for s in seats] == [mika.id, ren.id, "bot:bluff:random"]
    assert all(s.rating_before == 1500.0 and s.rating_after != 1500.0 for s in seats)
    assert [s.rating_after for s in sorted(seats, key=lambda s: s.place)] == sorted(
        (s.rating_after for s in seats), reverse=True)
    entries = {e["player_id"]: e for e in board(client)["entries"]}
    assert set(entries) == {mika.id, ren.id, "bot:bluff:random"}
    assert entries[mika.id]["name"] == "Mika" and entries[mika.id]["provisional"] is True
    assert entries["bot:bluff:random"]["kind"] == "bot" and entries[mika.id]["games"] == 1
    assert client.get("/api/leaderboard/bluff").json()["entries"] == []  # all provisional
    assert SETTLED_GAMES > 1
    # the profile shows the same rating, marked provisional as the leaderboard marks it
    rating = client.get(f"/api/players/{mika.id}").json()["games"]["bluff"]["rating"]
    assert rating == {"shown": entries[mika.id]["shown"], "games": 1, "provisional": True}
    points = client.get(f"/api/players/{mika.id}/ratings?game=bluff").json()
    assert [(p["before"], p["after"]) for p in points] == [(1500.0, seats[0].rating_after)]


def test_leavers_of_a_rated_game_place_last(client: TestClient) -> None:
    """Both people leave at once: the bot plays their seats to the end and wins; they
    tie for last, whatever the bots playing for them did."""
    mika, ren = account(client, "Mika"), account(client, "Ren")
    table = rated_table(mika, [None, None, "random"])
    tokens = [join(mika, table, 0), join(ren, table, 1)]
    assert mika.post(f"/api/tables/{table['table_id']}/start",
                     {"token": tokens[0]}).status_code == 200
    for browser, token in ((mika, tokens[0]), (ren, tokens[1])):
        r = browser.post(f"/api/tables/{table['table_id']}/leave", {"token": token})
        assert r.status_code == 204, r.text
    seats = wait_for(lambda: [s for s in kept_seats(client) if s.rating_after is not None],
                     "the rated game kept and rated", GAME_S)
    by_player = {s.player_id: s for s in seats}
    assert by_player[mika.id].left and by_player[ren.id].left
    assert by_player["bot:bluff:random"].place == 1
    assert by_player[mika.id].rating_after == by_player[ren.id].rating_after < 1500
    assert by_player["bot:bluff:random"].rating_after > 1500


def test_an_unknown_game_has_no_leaderboard(client: TestClient) -> None:
    r = client.get("/api/leaderboard/chess")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
