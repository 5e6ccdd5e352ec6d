"""Helpers for playing whole games through the server in-process."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from drive import choose
from fastapi.testclient import TestClient


def create(c: TestClient, game: str, bots: list[str | None], rules: dict[str, Any] | None = None,
           games: int = 1) -> dict[str, Any]:
    r = c.post("/api/tables", json={"game": game, "seats": [{"bot": b} for b in bots],
                                    "rules": rules or {}, "games": games})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def join_all(c: TestClient, table: dict[str, Any]) -> list[str]:
    """Join every person's seat; the tokens in seat order (None for bots)."""
    tokens = []
    for seat in table["table"]["seats"]:
        if seat["bot"] is None:
            r = c.post(f"/api/invites/{table['invite']}/join",
                       json={"name": f"p{seat['seat']}", "seat": seat["seat"]})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        else:
            tokens.append(None)
    return tokens


OPEN: list[Seat] = []  # closed by the client fixture, so the app can shut down


def close_all() -> None:
    while OPEN:
        OPEN.pop().close()


class Seat:
    """One WebSocket connection, remembering every message it received."""

    def __init__(self, c: TestClient, table_id: str, token: str | None, since: int = -1):
        query = f"?since={since}" + (f"&token={token}" if token else "")
        self.cm = c.websocket_connect(f"/ws/tables/{table_id}{query}")
        self.ws = self.cm.__enter__()
        self.open = True
        OPEN.append(self)
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None
        welcome = self.recv()
        assert welcome["type"] == "welcome"
        self.seat = welcome["seat"]
        self.until_state(-10**9)

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.recv()
            if message["type"] == kind:
                return message

    def until_any(self) -> dict[str, Any]:
        """The next message that is not an event, state or table update."""
        while True:
            message = self.recv()
            if message["type"] not in ("event", "state", "table"):
                return message

    def until_state(self, n: int) -> dict[str, Any]:
        """Read until a state message numbered at least ``n``."""
        while True:
            message = self.recv()
            if message["type"] == "state" and message["n"] >= n:
                return message

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def close(self) -> None:
        if self.open:
            self.open = False
            self.cm.__exit__(None, None, None)

    def events(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "event"]


def play_out(seats: list[Seat], rng: random.Random, others: Sequence[Seat] = (),
             max_actions: int = 5000, stop_after: int | None = None) -> int:
    """Play a table of people (no bots) to its end, or ``stop_after`` actions: the seat to
    move acts, then every connection reads up to the resulting state. Returns actions."""
    by_seat = {s.seat: s for s in seats}
    done = 0
    while done < max_actions and (stop_after is None or done < stop_after):
        state = seats[0].state
        assert state is not None
        if state["status"] != "playing" or state["to_move"] is None:
            break
        actor = by_seat[state["to_move"]]
        assert actor.state is not None and actor.state["n"] == state["n"]
        actor.send({"type": "act", "action": choose(actor.state, rng), "id": done})
        ack = actor.until_any()
        assert ack["type"] == "ack" and ack["id"] == done, ack
        for s in [*seats, *others]:
            if s is not actor:
                s.until_state(ack["n"])
        done += 1
    return done
