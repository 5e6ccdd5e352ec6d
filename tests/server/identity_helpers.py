"""A browser's identity in tests: ``GET /api/me`` once, then every state-changing call
with the session's CSRF token, as static/js/api.js does."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi.testclient import TestClient

PASSWORD = "correct horse battery"


class Browser:
    """One browser: a cookie jar (the client's) and the CSRF token of its session."""

    def __init__(self, client: TestClient | httpx.Client) -> None:
        self.client = client
        self.csrf = ""
        self.me: dict[str, Any] = self.refresh()

    def refresh(self) -> dict[str, Any]:
        answer = self.client.get("/api/me")
        assert answer.status_code == 200, answer.text
        self.me = answer.json()
        self.csrf = self.me["csrf"]
        return self.me

    def send(self, method: str, path: str, json: Any = None) -> httpx.Response:
        answer = self.client.request(method, path, json=json,
                                     headers={"X-CSRF-Token": self.csrf})
        if answer.status_code in (200, 201) and "csrf" in answer.json():
            self.me = answer.json()
            self.csrf = self.me["csrf"]  # signup and login start a new session
        return answer

    def sign_up(self, username: str, password: str = PASSWORD) -> httpx.Response:
        return self.send("POST", "/api/account/signup",
                         {"username": username, "password": password})

    def log_in(self, username: str, password: str = PASSWORD) -> httpx.Response:
        return self.send("POST", "/api/account/login",
                         {"username": username, "password": password})

    @property
    def cookie(self) -> str | None:
        return self.client.cookies.get("usotsuki_session")
