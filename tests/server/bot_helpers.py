"""An outside bot in tests: an account marked as a bot, and an API token of it."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi.testclient import TestClient
from identity_helpers import Browser


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
