"""Bot accounts and their API tokens (docs/bots.md), in one process: marking an account
a bot, tokens shown once and kept as SHA-256, the bot's events (a long poll), the Bot
API in the OpenAPI. Attacks with tokens: tests/security/test_bot_token_attacks.py."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from bot_helpers import advance, bearer, bot_account, notify, other_client, read_rows, served
from core_helpers import ManualClock
from fastapi.testclient import TestClient
from identity_helpers import PASSWORD, Browser
from server_helpers import create
from sqlalchemy import select
from waits import wait_for

from usotsuki.server.auth import token_hash
from usotsuki.server.bot_inbox import BotInbox
from usotsuki.server.bot_tables import api_tokens, arena_seeks
from usotsuki.server.store import Store


@pytest.fixture
def client() -> Iterator[TestClient]:
    with served() as c:
        yield c


def test_a_token_is_shown_once_and_kept_as_its_sha256(db_url: str) -> None:
    store = Store(db_url)
    with served(store) as c:
        owner, token = bot_account(c, "Robo")
        assert token.startswith("usb_") and len(token) > 40
        listed = owner.client.get("/api/account/tokens").json()
        assert [t["label"] for t in listed] == ["tests"] and "token" not in listed[0]
        assert token not in str(listed)
        rows = read_rows(c, select(api_tokens))
        assert [r.token_hash for r in rows] == [token_hash(token)]
        assert token not in str([tuple(r) for r in rows])
        me = other_client(c).get("/api/bot/me", headers=bearer(token))
        assert me.status_code == 200, me.text
        assert me.json() == {"id": owner.me["id"], "name": "Robo",
                             "scopes": ["challenge", "play"]}
    store.close()


def test_marking_a_bot_needs_an_account_that_never_played_as_a_person(
        client: TestClient) -> None:
    guest = Browser(client)
    refused = guest.send("POST", "/api/account/bot")
    assert refused.status_code == 409 and refused.json()["error"] == "not_account"
    person = Browser(other_client(client))
    assert person.sign_up("Mika").status_code == 201
    table = create(other_client(client), "bluff", [None, "random"])
    joined = person.send("POST", f"/api/invites/{table['invite']}/join", {"name": "Mika"})
    assert joined.status_code == 200
    refused = person.send("POST", "/api/account/bot")
    assert refused.status_code == 409 and refused.json()["error"] == "has_games"
    assert person.refresh()["bot"] is False
    made = person.send("POST", "/api/account/tokens", {"label": "x", "scopes": ["play"]})
    assert made.status_code == 403 and made.json()["error"] == "not_a_bot"
    assert client.get(f"/api/players/{person.me['id']}").json()["bot"] is False
    bot = Browser(other_client(client))
    assert bot.sign_up("Robo").status_code == 201
    assert bot.send("POST", "/api/account/bot").status_code == 200
    profile = client.get(f"/api/players/{bot.me['id']}").json()
    assert profile["kind"] == "account" and profile["bot"] is True  # its profile says so


def test_events_wait_for_the_next_and_keep_a_seek_alive(client: TestClient) -> None:
    owner, token = bot_account(client, "Robo")
    bot, me = other_client(client), owner.me["id"]
    assert bot.get("/api/bot/events", headers=bearer(token)).json() == {"events": [],
                                                                         "next": 0}
    first = notify(client, me, {"type": "challenge", "id": "c1"})
    notify(client, "someone else", {"type": "challenge", "id": "c0"})
    read = bot.get("/api/bot/events?after=0", headers=bearer(token)).json()
    assert read == {"events": [{"n": first, "type": "challenge", "id": "c1"}], "next": first}
    got: list[Any] = []
    waiting = threading.Thread(target=lambda: got.append(bot.get(
        f"/api/bot/events?after={first}&wait=20", headers=bearer(token)).json()))
    waiting.start()
    inbox: BotInbox = client.app.state.bot_inbox  # type: ignore[attr-defined]
    wait_for(lambda: me in inbox._waits, "the request waiting")
    second = notify(client, me, {"type": "game", "table_id": "t"})
    waiting.join(10)
    assert got == [{"events": [{"n": second, "type": "game", "table_id": "t"}],
                    "next": second}]
    too_long = bot.get("/api/bot/events?wait=31", headers=bearer(token))
    assert too_long.status_code == 422
    # polling marks the bot's arena seek seen (a seated one here: the arena's passes,
    # which drop a waiting seek not seen for 30 s, leave it be)
    store: Store = client.app.state.store  # type: ignore[attr-defined]

    def seek() -> None:
        with store.engine.begin() as conn:
            conn.execute(arena_seeks.insert().values(
                player_id=me, game="bluff", players=2, preset="standard", rated=True,
                name="Robo", since=0.0, seen=0.0, table_id="t"))
    client.portal.call(store.call, seek)  # type: ignore[union-attr]
    advance(client, 5)
    bot.get("/api/bot/events", headers=bearer(token))
    assert read_rows(client, select(arena_seeks.c.seen)) == [
        (client.app.state.lobby.clock.time(),)]  # type: ignore[attr-defined]


def test_one_wait_per_request_is_woken() -> None:
    """Two waits of one bot (two connections) are both woken by its event."""
    async def scenario() -> list[list[dict[str, Any]]]:
        store = Store(":memory:")
        inbox = BotInbox(store, ManualClock())
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


def test_the_bot_api_is_in_the_openapi(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert schema["components"]["securitySchemes"]["BotToken"] == {
        "type": "http", "scheme": "bearer", "description": schema["components"][
            "securitySchemes"]["BotToken"]["description"]}
    for path in ("/api/bot/me", "/api/bot/events"):
        get = schema["paths"][path]["get"]
        assert get["security"] == [{"BotToken": []}], path
        assert "$ref" in get["responses"]["200"]["content"]["application/json"]["schema"]
        assert {"401", "403", "429"} <= set(get["responses"])
    made = schema["paths"]["/api/account/tokens"]["post"]["responses"]["201"]
    assert made["content"]["application/json"]["schema"]["$ref"].endswith("/NewApiToken")


def test_the_data_download_lists_tokens_and_a_deleted_bots_tokens_die(
        client: TestClient) -> None:
    owner, token = bot_account(client, "Robo")
    data = owner.client.get("/api/account/export").json()
    assert data["player"]["bot"] is True
    [listed] = data["api_tokens"]
    assert listed["label"] == "tests" and listed["revoked"] is None
    assert token not in str(data) and token_hash(token) not in str(data)
    deleted = owner.client.request("DELETE", "/api/account", json={"password": PASSWORD},
                                   headers={"X-CSRF-Token": owner.csrf})
    assert deleted.status_code == 204
    refused = other_client(client).get("/api/bot/me", headers=bearer(token))
    assert refused.status_code == 401 and refused.json()["error"] == "bad_token"
