"""Identity without sign-up: a guest per browser, its name, the optional account, signing
out (here or everywhere), the data download; on SQLite and on PostgreSQL, and sessions
read by any worker sharing the database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated

import pytest
from fastapi import Depends
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from identity_helpers import PASSWORD, Browser
from server_helpers import close_all
from sqlalchemy import insert, select

from usotsuki.server.app import create_app
from usotsuki.server.auth import token_hash
from usotsuki.server.identity import Player, player_required
from usotsuki.server.names import name_key, reserved, username_problem
from usotsuki.server.player_store import find_session, purge_sessions
from usotsuki.server.player_tables import played_games, played_seats, players, sessions
from usotsuki.server.store import Store
from usotsuki.server.throttle import count_failure, purge_failures


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    the_store = Store(db_url)
    yield the_store
    the_store.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store=store, bot_delay=0)) as c:
        yield c
        close_all()


def test_names_keys_and_reserved_names() -> None:
    assert name_key("Ｍｉｋａ") == name_key("MIKA") == name_key("mika")
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("ｶﾅ") == name_key("カナ")  # half-width katakana
    for bot in ("Kenji", "kenji (normal)", "ＫＥＮＪＩ", "ケンジ", "Hana（hard）", "You"):
        assert reserved(bot), bot
    assert not reserved("Kenjiro") and not reserved("Mika")
    assert username_problem("Mika") is None and username_problem("ミカ 2") is None
    for bad in ("M", "Mika<b>", "Mi\u200bka", "x" * 25, "Kenji"):
        assert username_problem(bad) is not None, bad


def test_first_visit_makes_a_guest_with_a_session_cookie(client: TestClient,
                                                         store: Store) -> None:
    answer = client.get("/api/me")
    me = answer.json()
    assert me["kind"] == "guest" and me["username"] is None and me["csrf"]
    cookie = answer.headers["set-cookie"]
    for attribute in ("HttpOnly", "SameSite=lax", "Path=/"):
        assert attribute in cookie
    assert "Secure" not in cookie  # plain HTTP: a Secure cookie would never come back
    assert answer.headers["cache-control"] == "no-store"
    again = client.get("/api/me")
    assert again.json() == me and "set-cookie" not in again.headers
    token = client.cookies["usotsuki_session"]
    with store.engine.connect() as conn:
        kept = conn.execute(select(sessions.c.token_hash)).scalars().all()
    assert kept == [token_hash(token)]  # only the secret's hash is stored


def test_the_cookie_is_secure_over_tls(store: Store) -> None:
    with TestClient(create_app(store=store, bot_delay=0), base_url="https://testserver") as c:
        assert "Secure" in c.get("/api/me").headers["set-cookie"]
        close_all()


def test_a_guest_changes_its_name_but_not_to_a_bots(client: TestClient) -> None:
    browser = Browser(client)
    assert browser.send("PATCH", "/api/me", {"name": "  Mika   Tanaka "}).json()["name"] \
        == "Mika Tanaka"
    assert browser.refresh()["name"] == "Mika Tanaka"
    refused = browser.send("PATCH", "/api/me", {"name": "Kenji (hard)"})
    assert refused.status_code == 400 and refused.json()["error"] == "bad_name"
    refused = browser.send("PATCH", "/api/me", {"name": "a\u202eb"})  # bidi override
    assert refused.status_code == 422
    # guests' names need not be unique: two Mikas are told apart at a table
    other = Browser(TestClient(client.app))
    assert other.send("PATCH", "/api/me", {"name": "Mika Tanaka"}).status_code == 200


def test_signing_up_keeps_the_guest_and_starts_a_new_session(client: TestClient,
                                                             store: Store) -> None:
    browser = Browser(client)
    guest_id, old_cookie = browser.me["id"], browser.cookie
    answer = browser.sign_up("Mika")
    assert answer.status_code == 201, answer.text
    assert answer.json() | {"csrf": ""} == {"id": guest_id, "kind": "account", "name": "Mika",
                                           "username": "Mika", "csrf": "", "bot": False}
    assert browser.cookie != old_cookie
    with store.engine.connect() as conn:
        row = conn.execute(select(players).where(players.c.id == guest_id)).one()
    assert row.password_hash.startswith("$argon2id$") and row.name_key == "mika"
    assert browser.refresh()["kind"] == "account"
    again = browser.sign_up("Mika2")
    assert again.status_code == 409 and again.json()["error"] == "already_account"


def test_account_names_are_unique_whatever_their_case_or_width(client: TestClient) -> None:
    assert Browser(client).sign_up("Mika").status_code == 201
    for clash in ("mika", "ＭＩＫＡ", " Mika "):
        answer = Browser(TestClient(client.app)).sign_up(clash)
        assert answer.status_code == 409 and answer.json()["error"] == "name_taken", clash
    for name in ("Kenji", "ケンジ", "deleted player"):
        answer = Browser(TestClient(client.app)).sign_up(name)
        assert answer.status_code == 400 and answer.json()["error"] == "bad_name", name
    weak = Browser(TestClient(client.app)).sign_up("Sora2", "short")
    assert weak.status_code == 400 and weak.json()["error"] == "weak_password"
    # an account's rename follows the same rules
    other = Browser(TestClient(client.app))
    assert other.sign_up("Kana").status_code == 201
    assert other.send("PATCH", "/api/me", {"name": "MIKA"}).status_code == 409
    renamed = other.send("PATCH", "/api/me", {"name": "Kana Ito"})
    assert renamed.json()["username"] == "Kana Ito"


def test_logging_in_elsewhere_then_out_and_out_everywhere(client: TestClient) -> None:
    home = Browser(client)
    assert home.sign_up("Mika").status_code == 201
    phone = Browser(TestClient(client.app))
    wrong = phone.log_in("Mika", "not the password")
    assert wrong.status_code == 401 and wrong.json()["error"] == "bad_credentials"
    assert phone.log_in("ｍｉｋａ").status_code == 200
    assert phone.refresh()["id"] == home.me["id"]
    laptop = Browser(TestClient(client.app))
    assert laptop.log_in("Mika").status_code == 200

    out = laptop.send("POST", "/api/account/logout")
    assert out.status_code == 204 and 'usotsuki_session=""' in out.headers["set-cookie"]
    assert laptop.refresh()["kind"] == "guest"  # a new guest on that device
    assert phone.refresh()["kind"] == "account"  # the others stay signed in

    assert phone.send("POST", "/api/account/logout-all").status_code == 204
    for device in (home, phone):
        assert device.refresh()["kind"] == "guest"
    guest_out = laptop.send("POST", "/api/account/logout")
    assert guest_out.status_code == 409 and guest_out.json()["error"] == "not_account"


def test_the_data_download_holds_the_player_and_its_games(client: TestClient,
                                                          store: Store) -> None:
    browser = Browser(client)
    assert browser.sign_up("Mika").status_code == 201
    record = {"game": "bluff", "players": ["Mika", "Hana (easy)"]}
    with store.engine.begin() as conn:
        game_pk = conn.execute(insert(played_games).values(
            table_pk=1, number=0, game="bluff", rules="{}", players=2, finished=5.0,
            public=False, rated=False, record=json.dumps(record))).inserted_primary_key[0]
        conn.execute(insert(played_seats).values(
            game_pk=game_pk, seat=0, player_id=browser.me["id"], game="bluff",
            finished=5.0, public=False, name="Mika", place=1, left=False))
    answer = client.get("/api/account/export")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"].startswith("attachment;")
    data = answer.json()
    assert data["player"]["username"] == "Mika" and "password_hash" not in data["player"]
    assert [(g["seat"], g["place"], g["record"]) for g in data["games"]] == [(0, 1, record)]
    assert len(data["sessions"]) == 1 and "token_hash" not in data["sessions"][0]


def test_player_required_and_current_player(client: TestClient) -> None:
    async def whoami(player: Annotated[Player, Depends(player_required)]) -> dict[str, str]:
        return {"id": player.id, "kind": player.kind}

    # ahead of the static files' mount at "/"
    client.app.router.routes.insert(0, APIRoute("/api/test/whoami", whoami))  # type: ignore[attr-defined]
    refused = client.get("/api/test/whoami")
    assert refused.status_code == 401 and refused.json()["error"] == "no_player"
    browser = Browser(client)
    assert client.get("/api/test/whoami").json() == {"id": browser.me["id"], "kind": "guest"}
    client.cookies.set("usotsuki_session", "forged")
    assert client.get("/api/test/whoami").status_code == 401


def test_any_worker_reads_a_session_another_made(db_url: str) -> None:
    """Two servers on one database (the cluster's workers): a session made or ended by
    one is known to the other."""
    first, second = Store(db_url), Store(db_url)
    try:
        with TestClient(create_app(store=first, bot_delay=0)) as one, \
                TestClient(create_app(store=second, bot_delay=0)) as two:
            browser = Browser(one)
            assert browser.sign_up("Mika").status_code == 201
            two.cookies.set("usotsuki_session", one.cookies["usotsuki_session"])
            assert two.get("/api/me").json()["id"] == browser.me["id"]
            ended = two.post("/api/account/logout", headers={"X-CSRF-Token": browser.csrf})
            assert ended.status_code == 204
            assert browser.refresh()["kind"] == "guest"
            assert Browser(two).log_in("Mika").status_code == 200
            close_all()
    finally:
        first.close()
        second.close()


def test_passwords_are_checked_after_a_restart(db_url: str) -> None:
    before = Store(db_url)
    with TestClient(create_app(store=before, bot_delay=0)) as c:
        assert Browser(c).sign_up("Mika", PASSWORD).status_code == 201
        close_all()
    before.close()
    after = Store(db_url)
    with TestClient(create_app(store=after, bot_delay=0)) as c:
        assert Browser(c).log_in("MIKA", PASSWORD).status_code == 200
        close_all()
    after.close()


def test_a_session_lives_on_while_used(store: Store) -> None:
    with TestClient(create_app(store=store, bot_delay=0)) as c:
        token = Browser(c).cookie
        close_all()
    assert token is not None
    with store.engine.connect() as conn:
        first = conn.execute(select(sessions.c.expires)).scalar_one()
    later = first - 10.0  # used again just before it would expire: renewed
    assert find_session(store.engine, token_hash(token), later) is not None
    assert find_session(store.engine, token_hash(token), first + 1.0) is not None


def test_expired_sessions_and_ended_windows_are_swept(store: Store) -> None:
    with TestClient(create_app(store=store, bot_delay=0)) as c:
        browser = Browser(c)
        token = browser.cookie
        close_all()
    assert token is not None
    with store.engine.connect() as conn:
        expires = conn.execute(select(sessions.c.expires)).scalar_one()
    count_failure(store.engine, ["account:mika"], 900.0, expires - 1000.0)
    assert purge_sessions(store.engine, expires - 1.0) == 0
    assert find_session(store.engine, token_hash(token), expires) is None  # expired
    assert purge_sessions(store.engine, expires) == 1
    assert purge_failures(store.engine, 900.0, expires - 200.0) == 1
