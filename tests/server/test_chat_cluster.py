"""Chat and the host's options in the cluster: two ``usotsuki serve`` workers on PostgreSQL
and Redis (started by the test). A line written on one worker reaches a socket on the
other at once, a mute made on one holds in the history another serves, and an options
change sent to a follower is relayed to the owner, logged and told on both."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from cluster_helpers import Cluster, cluster
from identity_helpers import Browser
from pg_helpers import new_database
from waits import Deadline
from websockets.sync.client import ClientConnection, connect

TIMEOUT = 30.0
XSS = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:
    with cluster(new_database(pg_server, "usotsuki_chat"), 2) as c:
        yield c


class Socket:
    """A WebSocket straight at one worker, with a session cookie."""

    def __init__(self, sockets: contextlib.ExitStack, port: int, table_id: str,
                 token: str | None, cookie: str) -> None:
        query = f"?token={token}" if token else ""
        self.ws: ClientConnection = sockets.enter_context(connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table_id}{query}", open_timeout=TIMEOUT,
            additional_headers={"Cookie": f"usotsuki_session={cookie}"}))
        self.history = self.until("chat_history")

    def until(self, kind: str, test: Any = None) -> dict[str, Any]:
        deadline = Deadline(f"a {kind!r} message", 60)
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=deadline.left()))
            if message["type"] == kind and (test is None or test(message)):
                return message

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))


def test_chat_and_options_across_workers(stack: Cluster) -> None:
    w0, w1 = stack.workers
    people = [Browser(httpx.Client(base_url=w.url, timeout=TIMEOUT)) for w in (w0, w1, w0)]
    made = people[0].send("POST", "/api/tables", {
        "game": "bluff", "seats": [{"bot": None}] * 3, "rules": {"max_cards": 1}}).json()
    tokens = []
    for n, browser in enumerate(people):
        r = browser.send("POST", f"/api/invites/{made['invite']}/join", {"name": f"p{n}"})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    with contextlib.ExitStack() as sockets:
        on = [Socket(sockets, w.port, made["table_id"], t, b.cookie or "")
              for w, t, b in zip((w0, w1, w0), tokens, people, strict=True)]
        on[1].send({"type": "chat", "text": XSS})  # written on w1: its owner is w0
        for s in on:
            line = s.until("chat")["line"]
            assert (line["text"], line["seat"], line["player"]) == (XSS, 1,
                                                                    people[1].me["id"])
        on[0].send({"type": "react", "reaction": "wow"})
        assert on[1].until("reaction")["seat"] == 0

        # a mute made through w0 reaches the muter's socket on w1 at once, and holds in
        # the history w1 serves
        second = Socket(sockets, w1.port, made["table_id"], None, people[0].cookie or "")
        on[0].send({"type": "mute", "player": people[1].me["id"], "on": True})
        on[0].until("muted")
        assert second.until("muted")["muted"] == [people[1].me["id"]]
        on[1].send({"type": "chat", "text": "muted line"})
        assert on[2].until("chat")["line"]["text"] == "muted line"
        on[2].send({"type": "chat", "text": "heard line"})
        assert second.until("chat")["line"]["text"] == "heard line"  # not the muted one
        again = Socket(sockets, w1.port, made["table_id"], None, people[0].cookie or "")
        assert [m["text"] for m in again.history["messages"]] == ["heard line"]
        assert again.history["muted"] == [people[1].me["id"]]
        spectator = Socket(sockets, w1.port, made["table_id"], None, people[2].cookie or "")
        assert [m["text"] for m in spectator.history["messages"]] == [
            XSS, "muted line", "heard line"]

        # the host's change, sent to the follower w1, is the owner's entry, told on both
        r = httpx.post(f"{w1.url}/api/tables/{made['table_id']}/options",
                       json={"token": made["host_token"], "chat": False, "hints": False},
                       timeout=TIMEOUT)
        assert r.status_code == 200, r.text
        assert r.json() == {"chat": False, "hints": False}
        for s in (on[0], on[1]):
            event = s.until("event", lambda m: m["event"]["type"] == "options")["event"]
            assert event == {"type": "options", "chat": False, "hints": False}
        for w in (w0, w1):
            info = httpx.get(f"{w.url}/api/tables/{made['table_id']}", timeout=TIMEOUT).json()
            assert info["options"] == {"chat": False, "hints": False}
        on[2].send({"type": "chat", "text": "anyone?", "id": 1})
        assert on[2].until("error")["code"] == "chat_off"
