"""Finding 5, the wire: ``sync`` limited by its cost, names normalised, security
headers, allowed hosts and WebSocket origins. Rate limits read an injected clock."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import receive
from starlette.websockets import WebSocketDisconnect
from waits import Deadline

from usotsuki.server.app import create_app
from usotsuki.server.guard import allowed_hosts


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def finished_bot_table(c: TestClient) -> str:
    r = c.post("/api/tables", json={"game": "bluff", "seats": [{"bot": "random"}] * 6})
    table = r.json()
    c.post(f"/api/tables/{table['table_id']}/start", json={"token": table["host_token"]})
    deadline = time.monotonic() + 30
    while c.get(f"/api/tables/{table['table_id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish in 30 s"
        time.sleep(0.01)
    table_id: str = table["table_id"]
    return table_id


def next_reply(ws: Any) -> dict[str, Any]:
    deadline = Deadline("a reply, a state or an error")
    while True:
        message: dict[str, Any] = receive(ws, deadline)
        if message["type"] in ("error", "pong") or message["type"] == "state":
            return message


def test_sync_is_limited_by_the_events_it_resends() -> None:
    """Five sockets syncing in a loop made 70,000 frames/s: each sync now spends one
    token per event resent (200/s, bursts of 1000 by default), read from the clock."""
    clock = FakeClock()
    with TestClient(create_app(bot_delay=0, monotonic=clock, sync_limit=(100.0, 200.0))) as c:
        table_id = finished_bot_table(c)
        with c.websocket_connect(f"/ws/tables/{table_id}") as ws:
            while receive(ws)["type"] != "state":
                pass
            events = c.app.state.lobby.by_id[table_id].events  # type: ignore[attr-defined]
            assert len(events) > 200  # more than the burst: allowed once, in debt after
            ws.send_json({"type": "sync", "since": -1, "id": "a"})
            assert next_reply(ws)["type"] == "state"
            ws.send_json({"type": "sync", "since": -1, "id": "b"})
            refused = next_reply(ws)
            assert refused["code"] == "rate_limited" and refused["id"] == "b"
            assert "resend" in refused["message"]
            ws.send_json({"type": "sync", "since": len(events) - 2, "id": "c"})
            assert next_reply(ws)["code"] == "rate_limited"  # still in debt
            clock.now += len(events) / 100.0 + 2.0  # the debt repaid, and the burst
            ws.send_json({"type": "sync", "since": -1, "id": "d"})
            assert next_reply(ws)["type"] == "state"


def test_message_rate_limit_reads_the_injected_clock() -> None:
    clock = FakeClock()
    with TestClient(create_app(bot_delay=0, monotonic=clock, rate_limit=(1.0, 2.0))) as c:
        table = c.post("/api/tables", json={"game": "bluff",
                                            "seats": [{"bot": None}] * 2}).json()
        with c.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
            while receive(ws)["type"] != "state":
                pass
            for n in range(2):
                ws.send_json({"type": "ping", "id": n})
                assert next_reply(ws)["type"] == "pong"
            ws.send_json({"type": "ping", "id": 2})
            assert next_reply(ws)["code"] == "rate_limited"
            clock.now += 1.0
            ws.send_json({"type": "ping", "id": 3})
            assert next_reply(ws) == {"type": "pong", "id": 3}


@pytest.mark.parametrize(("name", "why"), [
    ("\u200b\u200b", "U+200B"),  # zero-width spaces only
    ("ann\u202eevil", "U+202E"),  # right-to-left override
    ("a\x00b", "U+0000"),
    ("\u0301\u0301", "blank"),  # combining marks only: nothing visible
    ("   ", "blank"),
])
def test_names_without_visible_text_or_with_controls_are_refused(
        client: TestClient, name: str, why: str) -> None:
    table = client.post("/api/tables", json={"game": "bluff",
                                              "seats": [{"bot": None}] * 2}).json()
    r = client.post(f"/api/invites/{table['invite']}/join", json={"name": name})
    assert r.status_code == 422
    assert r.json()["error"] == "bad_request" and why in r.json()["message"]
    assert not any(s["taken"] for s in client.get(
        f"/api/tables/{table['table_id']}").json()["seats"])


def test_names_are_nfc_and_keep_emoji_joiners(client: TestClient) -> None:
    table = client.post("/api/tables", json={"game": "bluff",
                                              "seats": [{"bot": None}] * 2}).json()
    for name in ("Cafe\u0301", "\U0001f468\u200d\U0001f469\u200d\U0001f467"):
        assert client.post(f"/api/invites/{table['invite']}/join",
                           json={"name": name}).status_code == 200
    names = [s["name"] for s in client.get(f"/api/tables/{table['table_id']}").json()["seats"]]
    assert names == ["Caf\u00e9", "\U0001f468\u200d\U0001f469\u200d\U0001f467"]


@pytest.mark.parametrize("path", ["/", "/table.html", "/replay.html", "/rules.html", "/account",
                                  "/api/bots/bluff", "/js/table.js"])
def test_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_foreign_hosts_and_origins_are_refused() -> None:
    """DNS rebinding (a foreign Host) and cross-site WebSockets (a foreign Origin)."""
    app = create_app(bot_delay=0, allowed_hosts=allowed_hosts("127.0.0.1"))
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        assert c.get("/api/bots/bluff").status_code == 200
        assert c.get("/api/bots/bluff", headers={"host": "localhost:8000"}).status_code == 200
        assert c.get("/api/bots/bluff", headers={"host": "evil.example"}).status_code == 400
        table = c.post("/api/tables", json={"game": "bluff",
                                            "seats": [{"bot": None}] * 2}).json()
        path = f"ws://127.0.0.1:8000/ws/tables/{table['table_id']}"
        with c.websocket_connect(path) as ws:  # no Origin: not a browser
            assert receive(ws)["type"] == "welcome"
        with c.websocket_connect(path, headers={"origin": "http://127.0.0.1:8000"}) as ws:
            assert receive(ws)["type"] == "welcome"
        with pytest.raises(WebSocketDisconnect) as refused, \
                c.websocket_connect(path, headers={"origin": "http://evil.example"}):
            pass
        assert refused.value.code == 1008


def test_allowed_hosts_default_to_the_served_address() -> None:
    assert allowed_hosts("127.0.0.1") == ["127.0.0.1", "localhost", "[::1]"]
    assert allowed_hosts("::1") == ["[::1]", "localhost", "127.0.0.1"]
    assert allowed_hosts("0.0.0.0") == ["*"]
    assert allowed_hosts("0.0.0.0", ["games.example"]) == [
        "0.0.0.0", "localhost", "127.0.0.1", "[::1]", "games.example"]


def test_a_spectator_is_sent_no_hand_in_either_game() -> None:
    """Issue 10: a Bluff spectator got ``"hand": []``; PROTOCOL.md says a spectator has
    no hand at all (``null``), as the Liar Game always sent."""
    with TestClient(create_app(bot_delay=0)) as c:
        for game, bots in (("bluff", ["random", "random"]),
                           ("liar", ["random", "random", "random"])):
            made = c.post("/api/tables", json={"game": game,
                                               "seats": [{"bot": b} for b in bots]})
            assert made.status_code == 201, made.text
            table = made.json()
            started = c.post(f"/api/tables/{table['table_id']}/start",
                             json={"token": table["host_token"]})
            assert started.status_code == 200, started.text
            with c.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
                deadline = Deadline("a state with a view")
                message = receive(ws, deadline)
                while message["type"] != "state" or message["view"] is None:
                    message = receive(ws, deadline)
                assert message["view"]["seat"] is None
                assert message["view"]["hand"] is None, game
