"""Attacks on identities: password guessing (throttled per account and per address),
session fixation, cross-site requests (CSRF) on every state-changing route of the app,
account enumeration through sign-up and login answers, a deleted account's traces, and
the session cookie's Secure flag behind the trusted proxy only."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from conftest import LiveServer
from fastapi.testclient import TestClient
from identity_helpers import PASSWORD, Browser
from server_helpers import close_all
from sqlalchemy import insert, select, update
from starlette.routing import Mount

from usotsuki.server import passwords
from usotsuki.server.app import create_app
from usotsuki.server.config import RealClock, Settings
from usotsuki.server.csrf import STATE_CHANGING
from usotsuki.server.player_tables import played_games, played_seats, players, sessions
from usotsuki.server.store import Store, archived_games, log, tables
from usotsuki.server.store import seats as seats_table


class MovableClock(RealClock):
    """Real time, moved forward by hand (a throttling window passing)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def time(self) -> float:
        return time.time() + self.ahead


LIMITS = Settings(bot_delay=0, login_window=600.0, login_failures_per_account=3,
                  login_failures_per_address=6)


@pytest.fixture
def clock() -> MovableClock:
    return MovableClock()


@pytest.fixture
def app_store() -> Iterator[Store]:
    store = Store(":memory:")
    yield store
    store.close()


def _client(store: Store, clock: MovableClock, address: str = "203.0.113.7") -> TestClient:
    app = create_app(store=store, settings=LIMITS, clock=clock)
    return TestClient(app, client=(address, 40000))


@pytest.fixture
def client(app_store: Store, clock: MovableClock) -> Iterator[TestClient]:
    with _client(app_store, clock) as c:
        yield c
        close_all()


def _other(client: TestClient, address: str) -> TestClient:
    """Another browser, on the same server, from ``address``."""
    return TestClient(client.app, client=(address, 40001))


def test_guessing_an_accounts_password_is_throttled(client: TestClient,
                                                    clock: MovableClock) -> None:
    assert Browser(client).sign_up("Mika").status_code == 201
    for n in range(3):  # each guess from another address: the account's count is hit
        answer = Browser(_other(client, f"198.51.100.{n}")).log_in("Mika", f"guess {n}")
        assert answer.status_code == 401
    for password in ("guess 4", PASSWORD):  # the right one too, while it is locked
        locked = Browser(_other(client, "198.51.100.99")).log_in("Mika", password)
        assert locked.status_code == 429 and locked.json()["error"] == "throttled"
        assert 0 < int(locked.headers["retry-after"]) <= 600
    clock.ahead += 601  # the window ends: its owner logs in, the count starts again
    assert Browser(_other(client, "198.51.100.99")).log_in("Mika").status_code == 200
    assert Browser(_other(client, "198.51.100.98")).log_in("Mika", "x").status_code == 401


def test_guessing_from_one_address_is_throttled_across_accounts(
        client: TestClient) -> None:
    for name in ("Mika", "Kana"):
        assert Browser(_other(client, "192.0.2.1")).sign_up(name).status_code == 201
    attacker = Browser(client)
    for n in range(6):  # spread over names, each under the account limit
        assert attacker.log_in(("Mika", "Kana", "Nobody")[n % 3], "guess").status_code == 401
    assert attacker.log_in("Kana", PASSWORD).status_code == 429
    # the same /64 is the same address; other addresses are not held up
    assert Browser(_other(client, "192.0.2.50")).log_in("Kana").status_code == 200


def test_ipv6_addresses_count_by_their_64(client: TestClient) -> None:
    for n in range(6):
        guesser = Browser(_other(client, f"2001:db8:1:2::{n + 1}"))
        assert guesser.log_in(f"name{n}", "guess").status_code == 401
    again = Browser(_other(client, "2001:db8:1:2:ffff::9")).log_in("name9", "guess")
    assert again.status_code == 429
    other_network = Browser(_other(client, "2001:db8:1:3::1")).log_in("name9", "guess")
    assert other_network.status_code == 401


def test_a_planted_session_is_worthless_after_signup_or_login(client: TestClient) -> None:
    """Session fixation: an attacker's session id set in a victim's browser (a shared
    computer, a cookie injected over plain HTTP) is replaced when the victim signs up or
    logs in; the attacker's copy names only the old guest, or nothing."""
    attacker = Browser(client)
    planted = attacker.cookie
    victim = Browser(_other(client, "198.51.100.20"))
    _plant(victim.client, planted)
    victim.refresh()
    assert victim.sign_up("Mika").status_code == 201
    assert victim.cookie != planted
    assert attacker.refresh()["kind"] == "guest"  # the planted session ended
    assert attacker.me["id"] != victim.me["id"]

    planted = attacker.cookie
    _plant(victim.client, planted)
    victim.refresh()
    assert victim.log_in("Mika").status_code == 200
    assert victim.cookie != planted and attacker.refresh()["kind"] == "guest"


def _plant(client: TestClient, cookie: str | None) -> None:
    """Put this session cookie in the browser, in place of its own."""
    client.cookies.clear()
    client.cookies.set("usotsuki_session", cookie or "", domain="testserver.local")


def _routes(app: Any) -> Iterator[tuple[str, set[str], bool]]:
    """(path, methods, whether a mount) of every route of the app, those of included
    routers too (FastAPI resolves them lazily: their effective routes)."""
    for route in app.routes:
        effective = getattr(route, "effective_route_contexts", None)
        for one in effective() if effective is not None else [route]:
            yield (one.path, set(getattr(one, "methods", None) or ()),
                   isinstance(getattr(one, "original_route", one), Mount))


def _state_changing_routes(app: Any) -> list[tuple[str, str]]:
    """Every (method, path) of the app that may change state; path parameters filled.
    A mount (static files) is asked with every such method: a POST to a page is a
    request like any other."""
    found: list[tuple[str, str]] = []
    for path, methods, mount in _routes(app):
        filled = re.sub(r"\{[^}]+\}", "x1", path)
        if mount:
            found += [(m, f"{filled.rstrip('/')}/index.html") for m in sorted(STATE_CHANGING)]
        else:
            found += [(m, filled) for m in sorted(methods & STATE_CHANGING)]
    return found


def test_csrf_is_refused_on_every_state_changing_route(client: TestClient) -> None:
    browser = Browser(client)
    routes = _state_changing_routes(client.app)
    for expected in [("POST", "/api/tables"), ("POST", "/api/invites/x1/join"),
                     ("PATCH", "/api/me"), ("POST", "/api/account/signup"),
                     ("POST", "/api/account/login"), ("DELETE", "/api/account"),
                     ("POST", "/api/account/logout-all"), ("POST", "/api/replay")]:
        assert expected in routes
    for method, path in routes:
        for headers in ({}, {"X-CSRF-Token": "not-the-token"}, {"X-CSRF-Token": ""}):
            answer = client.request(method, path, json={"name": "Eve"}, headers=headers)
            assert answer.status_code == 403, (method, path, headers, answer.text)
            assert answer.json()["error"] == "csrf"
    assert browser.refresh()["name"] == "Guest"  # nothing changed
    # a stale cookie (a session ended elsewhere) is no session: refused as well
    _plant(client, "an-ended-session")
    stale = client.request("PATCH", "/api/me", json={"name": "Eve"},
                           headers={"X-CSRF-Token": browser.csrf})
    assert stale.status_code == 403 and stale.json()["error"] == "csrf"


def test_the_right_token_passes_and_cookieless_calls_stay_anonymous(
        client: TestClient) -> None:
    browser = Browser(client)
    created = browser.send("POST", "/api/tables",
                           {"game": "bluff", "seats": [{"bot": None}, {"bot": "easy"}]})
    assert created.status_code == 201
    anonymous = TestClient(client.app)  # a script without a session: seat tokens rule
    assert anonymous.post("/api/tables", json={
        "game": "bluff", "seats": [{"bot": None}, {"bot": "easy"}]}).status_code == 201


class CountingHasher:
    """argon2's hasher, counting the password checks it makes."""

    def __init__(self) -> None:
        self.inner, self.checks = passwords.HASHER, 0

    def verify(self, stored: str, password: str) -> bool:
        self.checks += 1
        return self.inner.verify(stored, password)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _shape(answer: httpx.Response) -> tuple[int, str, list[str]]:
    return (answer.status_code, answer.text,
            sorted(k for k in answer.headers if k not in ("date", "content-length")))


def test_login_answers_do_not_tell_whether_an_account_exists(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    assert Browser(_other(client, "192.0.2.9")).sign_up("Mika").status_code == 201
    hasher = CountingHasher()
    monkeypatch.setattr(passwords, "HASHER", hasher)
    answers = []
    for name in ("Mika", "Nobody"):  # a wrong password, a name nobody has
        before = hasher.checks
        answers.append(_shape(Browser(_other(client, f"198.51.100.{len(answers)}"))
                              .log_in(name, "wrong password")))
        assert hasher.checks == before + 1  # the same work: one argon2 check each
    assert answers[0] == answers[1] and answers[0][0] == 401
    # once throttled, both names are refused alike, before any password check
    for _ in range(3):
        for name in ("Mika", "Nobody"):
            Browser(_other(client, "198.51.100.30")).log_in(name, "wrong password")
    locked = [_shape(Browser(_other(client, "198.51.100.31")).log_in(n, "x"))
              for n in ("Mika", "Nobody")]
    assert locked[0][0] == 429 and locked[0][2] == locked[1][2]
    assert json.loads(locked[0][1])["error"] == json.loads(locked[1][1])["error"]


def test_signup_probing_is_counted_against_the_address(client: TestClient) -> None:
    """Account names are public (shown at tables, on profiles), so sign-up says when
    one is taken; probing many is throttled per address like failed logins."""
    assert Browser(_other(client, "192.0.2.9")).sign_up("Mika").status_code == 201
    prober = _other(client, "198.51.100.77")
    for _ in range(6):
        assert Browser(prober).sign_up("Mika").status_code == 409
    assert Browser(prober).sign_up("Mika").status_code == 429


def test_a_deleted_account_is_anonymised_and_its_games_kept(client: TestClient,
                                                            app_store: Store) -> None:
    browser = Browser(client)
    assert browser.sign_up("Mika").status_code == 201
    player_id = browser.me["id"]
    phone = Browser(_other(client, "198.51.100.40"))
    assert phone.log_in("Mika").status_code == 200
    record = {"game": "bluff", "players": ["Hana (easy)", "Mika"], "actions": []}
    with app_store.engine.begin() as conn:
        game_pk = conn.execute(insert(played_games).values(
            table_pk=1, number=0, game="bluff", rules="{}", players=2, finished=5.0,
            public=True, rated=False, record=json.dumps(record))).inserted_primary_key[0]
        conn.execute(insert(played_seats), [
            {"game_pk": game_pk, "seat": 0, "player_id": "bot:bluff:easy", "game": "bluff",
             "finished": 5.0, "public": True, "name": "Hana (easy)", "place": 1,
             "left": False},
            {"game_pk": game_pk, "seat": 1, "player_id": player_id, "game": "bluff",
             "finished": 5.0, "public": True, "name": "Mika", "place": 2, "left": False}])
    # a table where it sat (the join records its player: seats.player_id)
    table = browser.send("POST", "/api/tables", {"game": "bluff", "seats": [
        {"bot": "random"}, {"bot": None}]}).json()
    joined = browser.send("POST", f"/api/invites/{table['invite']}/join",
                          {"name": "Mika T"}).json()
    assert browser.send("POST", f"/api/tables/{table['table_id']}/start",
                        {"token": joined["token"]}).status_code == 200
    with app_store.engine.begin() as conn:
        table_pk = conn.execute(select(tables.c.pk).where(
            tables.c.public_id == table["table_id"])).scalar_one()
        conn.execute(update(seats_table).where(seats_table.c.table_pk == table_pk,
                                               seats_table.c.seat == 1)
                     .values(player_id=player_id))
        conn.execute(insert(archived_games).values(
            table_pk=table_pk, number=0, finished=True,
            record=json.dumps({"players": ["Hana (random)", "Mika T"]})))
    wrong = browser.send("DELETE", "/api/account", {"password": "not it"})
    assert wrong.status_code == 401
    assert browser.send("DELETE", "/api/account", {"password": PASSWORD}).status_code == 204

    with app_store.engine.connect() as conn:
        row = conn.execute(select(players).where(players.c.id == player_id)).one()
        seats = conn.execute(select(played_seats.c.name, played_seats.c.place)
                             .order_by(played_seats.c.seat)).all()
        kept = json.loads(conn.execute(select(played_games.c.record)).scalar_one())
        left = conn.execute(select(sessions).where(sessions.c.player_id == player_id)).all()
    assert (row.name, row.name_key, row.password_hash) == ("deleted player", None, None)
    assert row.deleted is not None and left == []
    assert [tuple(s) for s in seats] == [("Hana (easy)", 1), ("deleted player", 2)]
    assert kept["players"] == ["Hana (easy)", "deleted player"]
    assert "Mika" not in json.dumps(kept)
    with app_store.engine.connect() as conn:
        start = conn.execute(select(log.c.data).where(log.c.table_pk == table_pk,
                                                      log.c.kind == "start")).scalar_one()
        seat = conn.execute(select(seats_table.c.name).where(
            seats_table.c.table_pk == table_pk, seats_table.c.seat == 1)).scalar_one()
        archived = conn.execute(select(archived_games.c.record)).scalar_one()
    assert json.loads(start)["names"] == ["Hana (random)", "deleted player"]
    assert seat == "deleted player"
    assert json.loads(archived)["players"] == ["Hana (random)", "deleted player"]
    for device in (browser, phone):  # signed out everywhere
        assert device.refresh()["kind"] == "guest"
    assert phone.log_in("Mika").status_code == 401  # the account is gone ...
    assert Browser(_other(client, "198.51.100.41")).sign_up("Mika").status_code == 201


def _secure_cookie(server: LiveServer, headers: dict[str, str]) -> bool:
    answer = httpx.get(f"{server.url}/api/me", headers=headers)
    assert answer.status_code == 200
    return "secure" in answer.headers["set-cookie"].lower().split("; ")


@pytest.mark.parametrize("trusted", [True, False])
def test_the_cookie_is_secure_behind_the_trusted_proxy_only(trusted: bool) -> None:
    """X-Forwarded-Proto: https from the proxy uvicorn trusts (``--forwarded-allow-ips``)
    makes the cookie Secure; from anyone else the header is ignored."""
    server = LiveServer(proxy_headers=True,
                        forwarded_allow_ips="127.0.0.1" if trusted else "192.0.2.1")
    try:
        assert _secure_cookie(server, {"X-Forwarded-Proto": "https"}) is trusted
        assert _secure_cookie(server, {}) is False
    finally:
        server.stop()


def test_new_guests_from_one_address_are_bounded(app_store: Store,
                                                 clock: MovableClock) -> None:
    """A script asking ``GET /api/me`` without a cookie, again and again, cannot fill the
    players' table: past the address's new guests in a window, 429."""
    app = create_app(store=app_store, clock=clock, settings=Settings(
        bot_delay=0, login_window=600.0, guests_per_address=5))
    with TestClient(app, client=("203.0.113.8", 40000)) as c:
        for _ in range(5):
            c.cookies.clear()
            assert c.get("/api/me").status_code == 200
        c.cookies.clear()
        refused = c.get("/api/me")
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_guests"
        assert "set-cookie" not in refused.headers
        with TestClient(app, client=("203.0.113.9", 40000)) as other:
            assert other.get("/api/me").status_code == 200  # another address
        clock.ahead += 601
        assert c.get("/api/me").status_code == 200
        close_all()
