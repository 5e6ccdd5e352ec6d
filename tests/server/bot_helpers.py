"""An outside bot in tests: an account marked as a bot, an API token of it, its inbox;
and more clients of one in-process server."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
from core_helpers import ManualClock
from fastapi.testclient import TestClient
from identity_helpers import Browser
from server_helpers import close_all

from usotsuki.server.app import create_app
from usotsuki.server.bot_inbox import BotInbox
from usotsuki.server.store import Store


def bot_account(client: TestClient | httpx.Client, name: str,
                scopes: tuple[str, ...] = ("play", "challenge"),
                per_minute: int | None = None) -> tuple[Browser, str]:
    """A new bot account signed up as ``name`` in its own browser (the client's cookie
    jar is its: use another client for a person), and a new token of it: (the browser,
    the token's secret)."""
    owner = Browser(client)
    assert owner.sign_up(name).status_code == 201
    marked = owner.send("POST", "/api/account/bot")
    assert marked.status_code == 200 and marked.json()["bot"], marked.text
    return owner, new_token(owner, scopes, per_minute)


def new_token(owner: Browser, scopes: tuple[str, ...] = ("play", "challenge"),
              per_minute: int | None = None, label: str = "tests") -> str:
    body: dict[str, Any] = {"label": label, "scopes": list(scopes)}
    if per_minute is not None:
        body["per_minute"] = per_minute
    made = owner.send("POST", "/api/account/tokens", body)
    assert made.status_code == 201, made.text
    token: str = made.json()["token"]
    return token


def bearer(token: str) -> dict[str, str]:
    """The headers of a Bot API request made with ``token``."""
    return {"Authorization": f"Bearer {token}"}


@contextlib.contextmanager
def served(store: Store | None = None) -> Iterator[TestClient]:
    """An in-process server on a manual clock (``advance`` moves it), bots at once."""
    with TestClient(create_app(store=store, bot_delay=0, clock=ManualClock())) as c:
        yield c
        close_all()


def other_client(c: TestClient) -> TestClient:
    """Another client of the server ``c`` runs (``with TestClient(...) as c``): its own
    cookie jar (no cookie yet); its requests run on the server's event loop, as a real
    server's would (a long poll and the event that wakes it share the loop)."""
    other = TestClient(c.app)
    other.portal = c.portal
    return other


def advance(c: TestClient, seconds: float) -> None:
    """Move the manual clock of the server ``served`` runs, on its event loop (its
    sleepers wake there)."""
    clock: ManualClock = c.app.state.lobby.clock  # type: ignore[attr-defined]

    async def move() -> None:
        clock.advance(seconds)
    c.portal.call(move)  # type: ignore[union-attr]


def read_rows(c: TestClient, query: Any) -> list[Any]:
    """The rows of ``query`` in the server's database."""
    store: Store = c.app.state.store  # type: ignore[attr-defined]

    def read() -> list[Any]:
        with store.engine.connect() as conn:
            return list(conn.execute(query).all())
    return c.portal.call(store.call, read)  # type: ignore[union-attr,no-any-return]


def notify(c: TestClient, player_id: str, body: dict[str, Any]) -> int:
    """An event in the player's inbox, as the arena or a challenge sends one."""
    inbox: BotInbox = c.app.state.bot_inbox  # type: ignore[attr-defined]
    return c.portal.call(inbox.notify, player_id, body)  # type: ignore[union-attr,no-any-return]
